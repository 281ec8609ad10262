/**
 * The head side file `<ledger>.head.json`: the latest checkpoint's seq, hash and time, signed by
 * the user key as a statement of its own (domain-separated, so no entry signature can be passed
 * off as a head). Verify requires the ledger to reach that seq with that hash, which is how
 * cutting off the tail of the ledger is detected.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { Buffer } from "node:buffer";
import { canonicalJson } from "../core/canonical_json.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import { domainHashHex } from "../core/hash.ts";
import { type KeyPair, signHex, verifyHex } from "./keys.ts";
import { writeFileAtomicSync } from "../core/atomic_write.ts";

/** The `format` of a head file. */
export const HEAD_FORMAT = "retie-ledger-head/v2";
/** The earlier head format, whose signature was a copy of an entry's (refused: forgeable). */
export const OLD_HEAD_FORMAT = "retie-ledger-head/v1";
/** Domain separation tag of the head statement. */
export const HEAD_DOMAIN = "retie/ledger/head/v2";

/** A head file's content. */
export interface HeadFile {
  format: typeof HEAD_FORMAT;
  /** Seq of the checkpoint entry. */
  seq: number;
  /** Hash of the checkpoint entry. */
  hash: string;
  /** Time of the checkpoint entry. */
  time: string;
  /** The user public key that signed the checkpoint entry and this statement. */
  signer: string;
  /** Ed25519 signature over the 32 raw bytes of {@link headStatementHash}. */
  signature: string;
}

/** A head file that cannot be used, and why (`head-unreadable` or `head-format`). */
export class HeadFileError extends RetieError {
  /** The verify problem code this is reported under. */
  readonly code: "head-unreadable" | "head-format";
  constructor(code: "head-unreadable" | "head-format", message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "HeadFileError";
    this.code = code;
  }
}

/**
 * The hash the head statement's signature covers: SHA-256 of `retie/ledger/head/v2`, a zero byte
 * and the canonical JSON of `{format, hash, seq, signer, time}`.
 *
 * @example
 * ```ts
 * import { headStatementHash } from "./checkpoint.ts";
 * import assert from "node:assert/strict";
 * const h = { seq: 1, hash: "0".repeat(64), time: "2026-01-01T00:00:00.000Z", signer: "1".repeat(64) };
 * assert.equal(headStatementHash(h).length, 64);
 * ```
 */
export function headStatementHash(
  h: { seq: number; hash: string; time: string; signer: string },
): string {
  return domainHashHex(
    HEAD_DOMAIN,
    canonicalJson({
      format: HEAD_FORMAT,
      hash: h.hash,
      seq: h.seq,
      signer: h.signer,
      time: h.time,
    }),
  );
}

/**
 * The signed head file of checkpoint entry `e`, signed by `key` (the user key that signed `e`).
 *
 * @example
 * ```ts
 * import { generateKeyPair } from "./keys.ts";
 * import { headSignatureOk, signHead } from "./checkpoint.ts";
 * import assert from "node:assert/strict";
 * const k = generateKeyPair();
 * const head = signHead(k, { seq: 3, hash: "ab".repeat(32), time: "2026-01-01T00:00:00.000Z" });
 * assert.equal(headSignatureOk(head), true);
 * ```
 */
export function signHead(key: KeyPair, e: { seq: number; hash: string; time: string }): HeadFile {
  const body = { seq: e.seq, hash: e.hash, time: e.time, signer: key.publicKey };
  return {
    format: HEAD_FORMAT,
    ...body,
    signature: signHex(key, Buffer.from(headStatementHash(body), "hex")),
  };
}

/**
 * True when the head file's signature verifies as a head statement by its `signer`.
 *
 * @example
 * ```ts
 * import { headSignatureOk } from "./checkpoint.ts";
 * // headSignatureOk(readHeadFile(path)!)
 * ```
 */
export function headSignatureOk(h: HeadFile): boolean {
  return verifyHex(h.signer, Buffer.from(headStatementHash(h), "hex"), h.signature);
}

const HEAD_KEYS = "format,hash,seq,signature,signer,time";

/**
 * The head file path of a ledger.
 *
 * @example
 * ```ts
 * import { headFilePath } from "./checkpoint.ts";
 * headFilePath("/s/ledger.db"); // "/s/ledger.db.head.json"
 * ```
 */
export function headFilePath(ledgerPath: string): string {
  return `${ledgerPath}.head.json`;
}

/**
 * Reads the head file; null when it does not exist. HeadFileError (exit 1) when it is malformed or
 * of the old forgeable format: a damaged head file is evidence, not "unreadable input".
 *
 * @example
 * ```ts
 * import { readHeadFile } from "./checkpoint.ts";
 * readHeadFile("/nonexistent/ledger.db"); // null
 * ```
 */
export function readHeadFile(ledgerPath: string): HeadFile | null {
  const path = headFilePath(ledgerPath);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return null;
    throw new HeadFileError(
      "head-unreadable",
      `head file (${path}) cannot be read: ${errorMessage(e)}`,
      e,
    );
  }
  let h: Record<string, unknown>;
  try {
    h = JSON.parse(text);
  } catch (e) {
    throw new HeadFileError("head-unreadable", `head file (${path}) is not JSON`, e);
  }
  if (h?.format === OLD_HEAD_FORMAT) {
    throw new HeadFileError(
      "head-format",
      `head file (${path}) is ${OLD_HEAD_FORMAT}, whose signature can be copied from any signed ` +
        `entry; the next checkpoint (any retie session on this ledger) replaces it`,
    );
  }
  const keys = h && typeof h === "object" ? Object.keys(h).sort().join(",") : "";
  if (
    h?.format !== HEAD_FORMAT || keys !== HEAD_KEYS || !Number.isSafeInteger(h.seq) ||
    (h.seq as number) < 1 || typeof h.hash !== "string" || typeof h.signer !== "string" ||
    typeof h.signature !== "string" || typeof h.time !== "string"
  ) {
    throw new HeadFileError("head-format", `head file (${path}) is not a ${HEAD_FORMAT} file`);
  }
  return h as unknown as HeadFile;
}

/**
 * Writes the head file atomically (temp file + rename). The caller serialises writers (it holds
 * the ledger's write lock) and only moves the head forward.
 *
 * @example
 * ```ts
 * import { writeHeadFile } from "./checkpoint.ts";
 * // writeHeadFile(path, { format: "retie-ledger-head/v1", seq, hash, signer, signature, time });
 * ```
 */
export function writeHeadFile(ledgerPath: string, head: HeadFile): void {
  const path = headFilePath(ledgerPath);
  writeFileAtomicSync(path, JSON.stringify(head, null, 2) + "\n", { mode: 0o600 });
}
