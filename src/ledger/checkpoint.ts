/**
 * The head side file `<ledger>.head.json`: a copy of the latest checkpoint entry's seq, hash, signer
 * and signature (the user key's signature over that entry hash). Verify requires the ledger to reach
 * that seq with that hash, which is how cutting off the tail of the ledger is detected.
 *
 * @module
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { RetieError } from "../core/errors.ts";

/** The `format` of a head file. */
export const HEAD_FORMAT = "retie-ledger-head/v1";

/** A head file's content. */
export interface HeadFile {
  format: typeof HEAD_FORMAT;
  /** Seq of the checkpoint entry. */
  seq: number;
  /** Hash of the checkpoint entry. */
  hash: string;
  /** The user public key that signed the checkpoint entry. */
  signer: string;
  /** The checkpoint entry's signature (over the 32 raw hash bytes). */
  signature: string;
  /** Time of the checkpoint entry. */
  time: string;
}

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
 * Reads the head file; null when it does not exist. RetieError (exit 1) when it is malformed: a
 * damaged head file is evidence, not "unreadable input".
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
    throw e;
  }
  let h: HeadFile;
  try {
    h = JSON.parse(text);
  } catch (e) {
    throw new RetieError(`head file (${path}) is not JSON`, { cause: e });
  }
  if (
    h?.format !== HEAD_FORMAT || !Number.isSafeInteger(h.seq) || typeof h.hash !== "string" ||
    typeof h.signer !== "string" || typeof h.signature !== "string"
  ) {
    throw new RetieError(`head file (${path}) is not a ${HEAD_FORMAT} file`);
  }
  return h;
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
  const tmp = `${path}.${Deno.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(head, null, 2) + "\n", { mode: 0o600 });
  const fd = Deno.openSync(tmp, { read: true });
  try {
    fd.syncSync();
  } finally {
    fd.close();
  }
  renameSync(tmp, path);
  // Make the rename itself durable (fsync of the directory); best effort where unsupported.
  try {
    const dir = Deno.openSync(dirname(path), { read: true });
    try {
      dir.syncSync();
    } finally {
      dir.close();
    }
  } catch { /* some filesystems refuse fsync on directories */ }
}
