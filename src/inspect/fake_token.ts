/**
 * Builds fake tokens for examples and tests at run time, so the repository never contains a
 * literal that secret scanners (ours included) would flag.
 *
 * @module
 */

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A deterministic pseudo-random string of `length` characters drawn from `alphabet`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(fakeChars(8, 1).length, 8);
 * assert.deepEqual(fakeChars(8, 1) === fakeChars(8, 1), true);
 * ```
 */
export function fakeChars(length: number, seed: number, alphabet = ALNUM): string {
  let x = (seed * 2654435761) >>> 0 || 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    // xorshift32: cheap, deterministic, good enough to look random
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

/** Upper-case letters and digits. */
export const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** Lower-case hex. */
export const HEX = "0123456789abcdef";

/**
 * Fake tokens of each well-known family, built by concatenation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(fakeTokens(1).awsKeyId.length, 20);
 * ```
 */
export function fakeTokens(seed: number): Record<string, string> {
  const s = (n: number, k: number, a?: string) => fakeChars(n, seed * 31 + k, a);
  return {
    awsKeyId: "AK" + "IA" + s(16, 1, UPPER_DIGITS),
    awsSecret: s(30, 2) + "/" + s(9, 3),
    github: "gh" + "p_" + s(36, 4),
    githubFine: "github" + "_pat_" + s(22, 5) + "_" + s(59, 6),
    gitlab: "gl" + "pat-" + s(20, 7),
    slack: "xo" + "xb-" + s(12, 8, "0123456789") + "-" + s(13, 9, "0123456789") + "-" + s(24, 10),
    slackWebhook: "https://hooks.slack" + ".com/services/T" + s(8, 11, UPPER_DIGITS) + "/B" +
      s(8, 12, UPPER_DIGITS) + "/" + s(24, 13),
    stripe: "sk" + "_live_" + s(24, 14),
    google: "AI" + "za" + s(35, 15),
    openai: "sk-" + "proj-" + s(48, 16),
    anthropic: "sk-" + "ant-api03-" + s(93, 17),
    sendgrid: "SG" + "." + s(22, 18) + "." + s(43, 19),
    npm: "np" + "m_" + s(36, 20),
    pypi: "py" + "pi-AgEIcHlwaS5vcmc" + s(60, 21),
    password: s(10, 22) + "!" + s(8, 23),
    hex40: s(40, 24, HEX),
    privateKeyHeader: "-----BEGIN " + "RSA PRIVATE" + " KEY-----",
    privateKeyFooter: "-----END " + "RSA PRIVATE" + " KEY-----",
    keyBody: s(64, 25) + "\n" + s(64, 26) + "\n" + s(40, 27),
  };
}
