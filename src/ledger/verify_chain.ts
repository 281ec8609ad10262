/**
 * The chain checks of `retie verify`, one row at a time in seq order: column types and encoding,
 * seq continuity, column formats, time order, links, hashes, signatures and the payload text
 * (docs/ledger-format.md, "What verify checks", steps 1–10). Every problem found here concerns
 * the chain and is reported whatever session is selected.
 *
 * @module
 */
import { canonicalJson } from "../core/canonical_json.ts";
import { entryHash, ZERO_HASH } from "./entry_hash.ts";
import { ENTRY_KINDS, MAX_PAYLOAD_DEPTH } from "./entries.ts";
import { payloadDepth } from "./entries_read.ts";
import { isLedgerTime } from "./delegation.ts";
import type { Problems } from "./verify_problems.ts";

/** A row as selected for verification: the payload as its stored bytes and SQLite type. */
export interface RawRow {
  seq: number;
  time: string;
  session: string;
  kind: string;
  action_id: string | null;
  /** The payload text (set once decoded from `payload_bytes`). */
  payload: string;
  prev: string;
  hash: string;
  signer: string;
  signature: string;
  /** `typeof(payload)` in SQLite: "text" as retie writes it. */
  payload_type?: string;
  /** The payload's stored bytes (`CAST(payload AS BLOB)`). */
  payload_bytes?: Uint8Array | null;
}

/** The SELECT verify reads rows with (the payload as raw bytes, so the hash covers exactly them). */
export const VERIFY_SELECT =
  "SELECT seq, time, session, kind, action_id, prev, hash, signer, signature, " +
  "typeof(payload) AS payload_type, CAST(payload AS BLOB) AS payload_bytes FROM entries ORDER BY seq";

/** A row that passed the chain checks, with its parsed payload. */
export interface CheckedRow {
  row: RawRow;
  payload: Record<string, unknown>;
}

/**
 * Checks a row's signature: true or false, or null when the check is deferred (the parallel
 * verifier checks it on a worker and merges the answer).
 */
export type SignatureCheck = (r: RawRow) => boolean | null;

const SESSION_ID = /^ses_[0-9a-f]{12}$/;
const ACTION_ID = /^act_[0-9a-f]{12}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const TEXT_COLUMNS = ["time", "session", "kind", "prev", "hash", "signer", "signature"] as const;
const KINDS = new Set<string>(ENTRY_KINDS);
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The problem text of an entry whose signature does not verify. */
export function badSignature(signer: string): string {
  return `signature does not verify with signer key ${String(signer ?? "").slice(0, 12)}`;
}

/** The chain checks, fed rows in seq order. */
export class ChainChecker {
  #expected = 1;
  #prevHash: string = ZERO_HASH;
  #lastTime: string | null = null;
  /** Seq and stored hash of the last row seen. */
  lastSeq = 0;
  lastHash: string = ZERO_HASH;

  constructor(readonly problems: Problems, readonly signature: SignatureCheck) {}

  /** Moves the link state past a row whose own checks stopped early. */
  #advance(seq: number, hash: unknown): null {
    this.#prevHash = typeof hash === "string" ? hash : "";
    this.lastSeq = seq;
    this.lastHash = this.#prevHash;
    return null;
  }

  /**
   * Checks one row. Returns the row and its payload when the session checks should look at it,
   * or null when a problem already makes its content meaningless.
   */
  check(r: RawRow): CheckedRow | null {
    const p = this.problems;
    // 1. seq is an integer (else the row is reported and skipped entirely).
    if (!Number.isSafeInteger(r.seq)) {
      p.chain("column-type", this.#expected, `column seq is not an integer: the entry was altered`);
      return null;
    }
    const seq = r.seq;
    // 2. seq continuity.
    if (seq > this.#expected) {
      p.chain(
        "seq-missing",
        this.#expected,
        `entry #${this.#expected} is missing (the next stored entry is #${seq})`,
      );
    } else if (seq < this.#expected) {
      p.chain("seq-order", seq, `entry #${seq} is out of order (expected #${this.#expected})`);
    }
    this.#expected = seq + 1;
    // 3. column types: text, action_id text or NULL.
    const wrong: string[] = TEXT_COLUMNS.filter((c) => typeof r[c] !== "string");
    if (r.action_id !== null && typeof r.action_id !== "string") wrong.push("action_id");
    if (r.payload_type !== undefined && r.payload_type !== "text") wrong.push("payload");
    if (wrong.length > 0) {
      p.chain("column-type", seq, `column ${wrong.join(", ")} is not text: the entry was altered`);
      return this.#advance(seq, r.hash);
    }
    // 4. the payload's bytes are UTF-8 (the hash covers exactly these bytes).
    if (r.payload_bytes !== undefined) {
      try {
        r.payload = utf8.decode(r.payload_bytes ?? new Uint8Array());
      } catch {
        p.chain("column-encoding", seq, "column payload is not valid UTF-8: the entry was altered");
        return this.#advance(seq, r.hash);
      }
    }
    // 5. formats of the other columns.
    let formatBad = false;
    const fmt = (ok: boolean, code: Parameters<Problems["chain"]>[0], detail: string) => {
      if (!ok) (p.chain(code, seq, detail), formatBad = true);
    };
    fmt(isLedgerTime(r.time), "time-format", "time is not an ISO-8601 UTC time with milliseconds");
    fmt(SESSION_ID.test(r.session), "session-format", "session is not ses_ + 12 hex digits");
    fmt(KINDS.has(r.kind), "kind-unknown", `unknown entry kind ${JSON.stringify(r.kind)}`);
    fmt(
      r.action_id === null || ACTION_ID.test(r.action_id),
      "action-id-format",
      "action id is neither NULL nor act_ + 12 hex digits",
    );
    const hexBad = [
      ...(["prev", "hash", "signer"] as const).filter((c) => !HEX64.test(r[c])),
      ...(HEX128.test(r.signature) ? [] : ["signature"]),
    ];
    fmt(hexBad.length === 0, "hex-format", `${hexBad.join(", ")} not lowercase hex of its length`);
    if (formatBad) return this.#advance(seq, r.hash);
    // 6. times never decrease.
    if (this.#lastTime !== null && r.time < this.#lastTime) {
      p.chain(
        "time-order",
        seq,
        `time ${r.time} is earlier than the entry before (${this.#lastTime})`,
      );
    } else this.#lastTime = r.time;
    // 7–9. link, hash, signature.
    if (r.prev !== this.#prevHash) {
      p.chain(
        "prev-mismatch",
        seq,
        "prev hash does not match the previous entry's hash (an entry was removed, inserted or reordered)",
      );
    }
    const hash = entryHash({
      seq,
      time: r.time,
      session: r.session,
      kind: r.kind,
      actionId: r.action_id,
      payloadJson: r.payload,
      prev: r.prev,
    });
    if (hash !== r.hash) {
      p.chain("hash-mismatch", seq, "hash mismatch: the entry's content was altered");
    }
    if (this.signature(r) === false) p.chain("signature-invalid", seq, badSignature(r.signer));
    this.#advance(seq, r.hash);
    // 10. the payload: nesting bounded, a JSON object, canonical.
    const depth = payloadDepth(r.payload);
    if (depth > MAX_PAYLOAD_DEPTH) {
      p.chain(
        "payload-too-deep",
        seq,
        `payload is nested ${depth} levels deep (the limit is ${MAX_PAYLOAD_DEPTH})`,
      );
      return null;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(r.payload);
    } catch {
      payload = undefined;
    }
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) {
      p.chain("payload-not-object", seq, "payload is not a JSON object");
      return null;
    }
    if (canonicalJson(payload) !== r.payload) {
      p.chain("payload-not-canonical", seq, "payload is not canonical JSON");
    }
    return { row: r, payload: payload as Record<string, unknown> };
  }
}
