/**
 * Which way a setting's name leans, read from its words: on lets more through
 * (`allow_discovery`, `win_accept_anonymous_options`, `skip_verify`), or on protects
 * (`verify_ssl`, `disableSignUp`), or the words do not say. Read by `value_swaps.ts`; pure.
 *
 * @module
 */
import { segments } from "./guard_term_polarity.ts";

/** Words that let more through when on. Strong ones need no security context. */
export const PERMIT_STRONG = /^(anonymous|anon|signup|trust|trusted|exception|exceptions)$/;
/** Words that say the setting is the unsafe side whatever else it names (`insecure-ignore-tlog`). */
const DANGER = /^(insecure|unsafe|bypass|unverified|unsigned|unauthenticated|noauth)$/;
const PERMIT_WEAK =
  /^(allow|allowed|allows|accept|accepts|public|discovery|discoverable|guest|permissive|lax|wildcard)$/;
/** Words of a protection: on is the safe side. */
export const PROTECT_STRONG =
  /^(verify|verification|secure|signed|signature|csrf|xsrf|tls|ssl|https|mfa|otp|pkce|nonce|hsts|httponly|samesite|encrypt|encrypted|proof|authenticate|authentication)$/;
const PROTECT_WEAK =
  /^(online|permission|permissions|strict|require|required|check|enforce|enforced|validate|validation|protect|protected|protection|restrict|restricted|deny|reject|block|confirm|confirmed|expire)$/;
/** Words that turn the rest round (`skip_verify`, `disableSignUp`). */
export const NEGATE = /^(skip|ignore|disable|disabled|no|not|without|dont)$/;
/** A verdict a check leaves behind: yes lets through (`let success = false` is the safe start). */
const VERDICT =
  /^(success|ok|valid|authorized|authorised|authenticated|granted|passed|permitted|verified)$/;

/** The lower-cased words of a name, or of a string's text. */
export function words(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).flatMap((p) => segments(p)).map((w) => w.toLowerCase());
}

/**
 * Which way a name leans: +1 when on lets more through (`allow_discovery`, `skipVerify`), −1 when
 * on protects (`verify_ssl`, `disableSignUp` reads +1 × −1), 0 when its words do not say.
 * `secure` lets the words that speak of security only there count (`allow`, `strict`);
 * `verdict` lets a check's verdict count (`let success = false` starts safe).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leaning } from "./value_leaning.ts";
 * assert.equal(leaning("InsecureSkipVerify", false), 1);
 * assert.equal(leaning("verify_ssl", false), -1);
 * assert.equal(leaning("disableSignUp", false), -1);
 * assert.equal(leaning("MESSAGE_PERMISSION_ERROR", true), 0);
 * ```
 */
export function leaning(name: string, secure: boolean, verdict = false): number {
  const ws = words(name).join(" ").replace(/\bself signed\b/g, "insecure").replace(
    /\bsign up\b/g,
    "signup",
  ).split(" ");
  // (A limit's or a size's number is no switch: `maxAllowedUnauthenticatedCommands`.)
  if (ws.some((w) => /^(max|min|limit|count|attempts|timeout|size|length|rate|ttl)$/.test(w))) {
    return 0;
  }
  if (ws.some((w) => DANGER.test(w))) return 1;
  // (A name about telling, `MESSAGE_PERMISSION_ERROR`, `log_auth_failures`, sets no protection.)
  if (
    ws.some((w) =>
      /^(error|errors|message|messages|msg|log|logs|logging|warn|warning|warnings|notify|report|debug)$/
        .test(w)
    )
  ) {
    return 0;
  }
  // Each word's sign, turned round by a negation before it (`skip_verify`) or an `off` after it
  // (`issValidationOff`).
  const strong: number[] = [];
  const weak: number[] = [];
  let flip = 1;
  ws.forEach((w, i) => {
    if (/^(off|disabled)$/.test(w) && i > 0) return;
    if (NEGATE.test(w)) return void (flip = -flip);
    const after = /^(off|disabled)$/.test(ws[i + 1] ?? "") ? -1 : 1;
    const sign = (s: number) => s * flip * after;
    if (PERMIT_STRONG.test(w) || (verdict && VERDICT.test(w))) strong.push(sign(1));
    else if (PROTECT_STRONG.test(w)) strong.push(sign(-1));
    else if (secure && PERMIT_WEAK.test(w)) weak.push(sign(1));
    else if (secure && PROTECT_WEAK.test(w)) weak.push(sign(-1));
    else return;
    flip = 1;
  });
  // (What lets through wins among words alike: `trust_proxy_ssl_header`.)
  const pick = (xs: number[]) => xs.length === 0 ? 0 : xs.includes(1) ? 1 : -1;
  return pick(strong) || pick(weak);
}
