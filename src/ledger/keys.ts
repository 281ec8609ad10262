/**
 * Ed25519 keys: the persistent user identity key and fresh per-session agent keys.
 *
 * Keys are handled through node:crypto (native Ed25519: ~18–30k verifies/s here, against ~0.6k/s for
 * pure-JS noble). Public keys travel as 64 hex digits (the raw 32-byte RFC 8032 key); signatures as
 * 128 hex digits (the standard 64-byte RFC 8032 signature).
 *
 * The user key lives in `<config>/user_key.json` (mode 0600, directory 0700). A key file that group
 * or others can read is refused: a key others can read is no longer an identity.
 *
 * @module
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
import { Buffer } from "node:buffer";
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { configDir } from "../core/dirs.ts";
import { RetieError } from "../core/errors.ts";

/** An Ed25519 key pair. */
export interface KeyPair {
  /** 64 hex digits: the raw 32-byte Ed25519 public key. */
  publicKey: string;
  /** The private key, as a node:crypto KeyObject (never serialised except into the user key file). */
  privateKey: KeyObject;
}

/** File name of the user key inside the config directory. */
export const USER_KEY_FILE = "user_key.json";
const USER_KEY_FORMAT = "retie-user-key/v1";
/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;

function keyPairFromPrivate(privateKey: KeyObject): KeyPair {
  const jwk = privateKey.export({ format: "jwk" }) as { x?: string };
  if (!jwk.x) throw new RetieError("cannot use the key: not an Ed25519 private key");
  return { publicKey: Buffer.from(jwk.x, "base64url").toString("hex"), privateKey };
}

/**
 * Generates a fresh Ed25519 key pair (an agent key for one session).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateKeyPair } from "./keys.ts";
 * assert.deepEqual(generateKeyPair().publicKey.length, 64);
 * ```
 */
export function generateKeyPair(): KeyPair {
  return keyPairFromPrivate(generateKeyPairSync("ed25519").privateKey);
}

/**
 * Rebuilds a key pair from its 32-byte private seed (64 hex digits).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyPairFromSeedHex } from "./keys.ts";
 * assert.deepEqual(keyPairFromSeedHex("00".repeat(32)).publicKey.slice(0, 8), "3b6a27bc");
 * ```
 */
export function keyPairFromSeedHex(seedHex: string): KeyPair {
  if (!HEX64.test(seedHex)) {
    throw new RetieError("cannot read the private key: the seed is not 64 hex digits");
  }
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410).
  const der = Buffer.concat([
    Buffer.from("302e020100300506032b657004220420", "hex"),
    Buffer.from(seedHex, "hex"),
  ]);
  return keyPairFromPrivate(createPrivateKey({ key: der, format: "der", type: "pkcs8" }));
}

/** The 64-hex private seed of a key pair (only for writing the user key file and tests). */
export function seedHex(key: KeyPair): string {
  const jwk = key.privateKey.export({ format: "jwk" }) as { d?: string };
  return Buffer.from(jwk.d ?? "", "base64url").toString("hex");
}

/**
 * Loads the user identity key from `dir`, creating it (mode 0600) on first use.
 *
 * Refuses (RetieError) a key file that group or others can read, or one that is not a retie key.
 * Creation is race-free between processes: the file appears atomically (hard link of a temp file),
 * and a process that loses the race loads the winner's key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadOrCreateUserKey } from "./keys.ts";
 * const user = loadOrCreateUserKey(Deno.makeTempDirSync());
 * assert.deepEqual(user.publicKey.length, 64);
 * ```
 */
export function loadOrCreateUserKey(dir: string = configDir()): KeyPair {
  const path = join(dir, USER_KEY_FILE);
  const existing = readUserKey(path);
  if (existing) return existing;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = generateKeyPair();
  const body = JSON.stringify(
    { format: USER_KEY_FORMAT, publicKey: key.publicKey, privateKey: seedHex(key) },
    null,
    2,
  ) + "\n";
  const tmp = `${path}.${Deno.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, body, { mode: 0o600, flag: "wx" });
  chmodSync(tmp, 0o600); // umask cannot widen 0600, but be explicit
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as { code?: string }).code !== "EEXIST") throw e;
  } finally {
    unlinkSync(tmp);
  }
  const loaded = readUserKey(path);
  if (!loaded) throw new RetieError(`cannot create the user key (${path})`);
  return loaded;
}

function readUserKey(path: string): KeyPair | null {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return null;
    throw e;
  }
  if ((mode & 0o077) !== 0) {
    throw new RetieError(
      `refusing the user key (${path}): group or others can read it (mode ${
        (mode & 0o777).toString(8)
      })`,
      {
        hint:
          `run \`chmod 600 ${path}\` (and consider the key exposed: delete it to make a new one)`,
      },
    );
  }
  let parsed: { format?: unknown; publicKey?: unknown; privateKey?: unknown };
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new RetieError(`cannot read the user key (${path}): not JSON`, {
      hint: "move the file away; retie creates a new key on the next run",
      cause: e,
    });
  }
  if (parsed.format !== USER_KEY_FORMAT || typeof parsed.privateKey !== "string") {
    throw new RetieError(`cannot read the user key (${path}): not a ${USER_KEY_FORMAT} file`, {
      hint: "move the file away; retie creates a new key on the next run",
    });
  }
  const key = keyPairFromSeedHex(parsed.privateKey);
  if (key.publicKey !== parsed.publicKey) {
    throw new RetieError(`cannot read the user key (${path}): public and private key disagree`, {
      hint: "the file is damaged: move it away; retie creates a new key on the next run",
    });
  }
  return key;
}

function toBytes(message: Uint8Array | string): Uint8Array {
  return typeof message === "string" ? Buffer.from(message, "utf8") : message;
}

/**
 * Signs a message (bytes, or a UTF-8 string) and returns the 128-hex Ed25519 signature.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateKeyPair, signHex } from "./keys.ts";
 * assert.deepEqual(signHex(generateKeyPair(), "hello").length, 128);
 * ```
 */
export function signHex(key: KeyPair, message: Uint8Array | string): string {
  return sign(null, toBytes(message), key.privateKey).toString("hex");
}

const publicKeys = new Map<string, KeyObject>();

/** The node:crypto KeyObject of a hex public key (cached: the verifier sees few distinct keys). */
function publicKeyObject(publicKeyHex: string): KeyObject | null {
  let k = publicKeys.get(publicKeyHex);
  if (k) return k;
  if (!HEX64.test(publicKeyHex)) return null;
  try {
    k = createPublicKey({
      key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKeyHex, "hex")]),
      format: "der",
      type: "spki",
    });
  } catch {
    return null;
  }
  if (publicKeys.size > 10_000) publicKeys.clear();
  publicKeys.set(publicKeyHex, k);
  return k;
}

const P = (1n << 255n) - 19n;
/** The order of the Ed25519 base point. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
/** Canonical encodings of the eight points of small order (libsodium's list). */
const SMALL_ORDER = new Set([
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]);

/** A little-endian 32-byte hex string as a number. */
function leNumber(hex: string): bigint {
  let n = 0n;
  for (let i = 62; i >= 0; i -= 2) n = (n << 8n) | BigInt(parseInt(hex.slice(i, i + 2), 16));
  return n;
}

/**
 * Why a point encoding (64 hex) is refused, or null: the y coordinate must be below 2^255 - 19,
 * x = 0 must not carry a set sign bit, and the point must not be of small order.
 */
function pointProblem(hex: string): string | null {
  if (SMALL_ORDER.has(hex)) return "a point of small order";
  const top = parseInt(hex.slice(62, 64), 16) & 0x7f;
  // Fast path: y < 2^254 is canonical unless y = 1 (identity; in the small-order list).
  if (top < 0x7f && !hex.startsWith("01" + "00".repeat(30))) return null;
  const n = leNumber(hex);
  const y = n & ((1n << 255n) - 1n);
  const sign = n >> 255n;
  if (y >= P) return "non-canonical encoding (y >= 2^255-19)";
  if (sign === 1n && (y === 1n || y === P - 1n)) return "non-canonical encoding (x = 0, sign 1)";
  if (SMALL_ORDER.has(hex)) return "a point of small order";
  return null;
}

/**
 * Why an Ed25519 public key and signature are refused before any curve arithmetic, or null. The
 * rules (docs/ledger-format.md, "Signatures"): key and R canonical and not of small order, S < L.
 * With these, every RFC 8032 verifier (cofactored or not) gives the same answer for retie's
 * signatures, and the identity key with an all-zero signature is refused.
 *
 * @example
 * ```ts
 * import { ed25519Problem } from "./keys.ts";
 * import assert from "node:assert/strict";
 * assert.match(ed25519Problem("01" + "00".repeat(31), "00".repeat(64)) ?? "", /small order/);
 * ```
 */
export function ed25519Problem(publicKeyHex: string, signatureHex: string): string | null {
  if (!HEX64.test(publicKeyHex)) return "public key is not 64 lowercase hex digits";
  if (!HEX128.test(signatureHex)) return "signature is not 128 lowercase hex digits";
  const key = pointProblem(publicKeyHex);
  if (key) return `public key is ${key}`;
  const r = pointProblem(signatureHex.slice(0, 64));
  if (r) return `signature R is ${r}`;
  // S < 2^252 needs no arithmetic (its top byte is below 0x10).
  if (
    parseInt(signatureHex.slice(126, 128), 16) >= 0x10 && leNumber(signatureHex.slice(64)) >= L
  ) return "signature S is not below the group order";
  return null;
}

/**
 * Verifies a 128-hex Ed25519 signature; false for any malformed key or signature, and for the
 * edge cases {@link ed25519Problem} refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateKeyPair, signHex, verifyHex } from "./keys.ts";
 * const k = generateKeyPair();
 * assert.deepEqual(verifyHex(k.publicKey, "hi", signHex(k, "hi")), true);
 * ```
 */
export function verifyHex(
  publicKeyHex: string,
  message: Uint8Array | string,
  signatureHex: string,
): boolean {
  if (ed25519Problem(publicKeyHex, signatureHex) !== null) return false;
  const k = publicKeyObject(publicKeyHex);
  if (!k) return false;
  try {
    return verify(null, toBytes(message), k, Buffer.from(signatureHex, "hex"));
  } catch {
    return false;
  }
}
