/**
 * SHA-256 helpers (node:crypto: about 13× faster than awaited WebCrypto for small inputs here).
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * Hex SHA-256 of bytes or a UTF-8 string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./hash.ts";
 * assert.deepEqual(sha256Hex("abc").slice(0, 8), "ba7816bf");
 * ```
 */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Hex SHA-256 with domain separation: `sha256(domain || 0x00 || data)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { domainHashHex } from "./hash.ts";
 * assert.deepEqual(domainHashHex("retie/test/v1", "x").length, 64);
 * ```
 */
export function domainHashHex(domain: string, data: Uint8Array | string): string {
  return createHash("sha256").update(domain).update(new Uint8Array([0])).update(data).digest("hex");
}
