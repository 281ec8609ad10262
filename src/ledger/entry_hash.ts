/**
 * The entry hash, exactly as `docs/ledger-format.md` specifies it:
 *
 * `hash = hex(SHA-256("retie/ledger/entry/v1" || 0x00 || canonicalJson({seq, time, session, kind,
 * actionId, payload, prev})))`, and the signature is Ed25519 over the 32 raw bytes of that hash.
 *
 * The canonical JSON is assembled from the stored (already canonical) payload text, so the writer
 * and the verifier never re-serialise a payload: the bytes hashed are the bytes stored.
 *
 * @module
 */
import { domainHashHex } from "../core/hash.ts";

/** Domain separation tag of entry hashes. */
export const ENTRY_DOMAIN: string = "retie/ledger/entry/v1";
/** `prev` of the first entry. */
export const ZERO_HASH: string = "0".repeat(64);

/** The fields an entry hash covers. `payloadJson` must be canonical JSON of an object. */
export interface HashedFields {
  seq: number;
  time: string;
  session: string;
  kind: string;
  actionId: string | null;
  payloadJson: string;
  prev: string;
}

/**
 * The canonical JSON hashed for an entry (keys in sorted order: actionId, kind, payload, prev, seq,
 * session, time).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { entryHashInput } from "./entry_hash.ts";
 * assert.deepEqual(entryHashInput({ seq: 1, time: "t", session: "s", kind: "genesis", actionId: null, payloadJson: "{}", prev: "0" }), '{"actionId":null,"kind":"genesis","payload":{},"prev":"0","seq":1,"session":"s","time":"t"}');
 * ```
 */
export function entryHashInput(e: HashedFields): string {
  return `{"actionId":${JSON.stringify(e.actionId)},"kind":${
    JSON.stringify(e.kind)
  },"payload":${e.payloadJson},"prev":${JSON.stringify(e.prev)},"seq":${e.seq},"session":${
    JSON.stringify(e.session)
  },"time":${JSON.stringify(e.time)}}`;
}

/**
 * The entry hash (64 hex).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { entryHash } from "./entry_hash.ts";
 * assert.deepEqual(entryHash({ seq: 1, time: "t", session: "s", kind: "genesis", actionId: null, payloadJson: "{}", prev: "0".repeat(64) }).length, 64);
 * ```
 */
export function entryHash(e: HashedFields): string {
  return domainHashHex(ENTRY_DOMAIN, entryHashInput(e));
}
