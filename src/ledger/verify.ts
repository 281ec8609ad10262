/**
 * `verifyLedger`: checks a ledger from its own process, as docs/ledger-format.md specifies:
 * the chain checks (`verify_chain.ts`), the session and delegation checks (`verify_session.ts`)
 * and the head checks (`verify_head.ts`), each reporting problems by code
 * (`verify_problems.ts`). What is and is not detected is listed in the spec.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { errorMessage, RetieError } from "../core/errors.ts";
import { verifyHex } from "./keys.ts";
import { openLedgerReadOnly } from "./schema.ts";
import type { DatabaseSync } from "node:sqlite";
import { type HeadFile, HeadFileError, readHeadFile } from "./checkpoint.ts";
import { ChainChecker, type RawRow, type SignatureCheck, VERIFY_SELECT } from "./verify_chain.ts";
import { type OpenAction, SessionChecker } from "./verify_session.ts";
import { checkHead, type ExpectedHead } from "./verify_head.ts";
import {
  type ProblemCode,
  Problems,
  selectProblems,
  type VerifyProblem,
} from "./verify_problems.ts";

export { badSignature, type RawRow } from "./verify_chain.ts";
export type { OpenAction } from "./verify_session.ts";
export { type ExpectedHead, parseExpectedHead } from "./verify_head.ts";
export { PROBLEM_CODES, type ProblemCode, type VerifyProblem } from "./verify_problems.ts";

/** The result of {@link verifyLedger}. */
export interface VerifyReport {
  ok: boolean;
  path: string;
  /** Entries checked (of the selected session, when one is selected). */
  entries: number;
  sessions: number;
  /** The ledger's last entry: seq and hash (0 and 64 zeros when empty). */
  headSeq: number;
  headHash: string;
  /** `SEQ:HASH` of the last entry: pin it outside the machine, pass it to `--expect-head`. */
  head: string;
  /** The problem with the lowest seq, or null. */
  firstBad: VerifyProblem | null;
  /** All problems, by seq. */
  problems: VerifyProblem[];
  openActions: OpenAction[];
  /** Seq of the head file's checkpoint, or null without a usable head file. */
  checkpointSeq: number | null;
  /** User public keys that opened the sessions checked. */
  userKeys: string[];
}

/** Options of {@link verifyLedger}. */
export interface VerifyOptions {
  /** Report only this session (the whole chain is still checked: links span sessions). */
  session?: string;
  /** When given, a session opened by any other user key is a problem. */
  trustedUserKeys?: string[];
  /** A head pinned earlier (`SEQ:HASH`): the ledger must still hold it, uncut. */
  expectHead?: ExpectedHead;
  /** A position found valid before (the verified mark, `verified_mark.ts`): signatures up to it
   * are not checked again, and the entry there must still have that hash (else a signature
   * problem is reported at its seq: run the full check for the real cause). */
  verifiedUpTo?: { seq: number; hash: string };
}

/**
 * Verifies the ledger at `path`. Throws RetieError exitCode 2 for unreadable input (missing file,
 * not a retie ledger, unknown session); every other finding is in the report.
 *
 * @example
 * ```ts
 * import { verifyLedger } from "./verify.ts";
 * // const r = verifyLedger("/home/me/.local/state/retie/ledger.db");
 * // r.ok ? "valid" : `invalid at seq ${r.firstBad!.seq}: ${r.firstBad!.code} ${r.firstBad!.detail}`
 * ```
 */
export function verifyLedger(path: string, opts: VerifyOptions = {}): VerifyReport {
  const { db, rows, head, headError } = openForVerify(path, opts);
  const mark = opts.verifiedUpTo;
  const sig = mark
    ? (r: RawRow) =>
      r.seq < mark.seq ? true : r.seq === mark.seq ? r.hash === mark.hash : signatureOk(r)
    : signatureOk;
  try {
    return verifyRows(path, rows, head, headError, opts, sig);
  } finally {
    db.close();
  }
}

/** Checks one row's signature over its stored hash. */
export function signatureOk(r: { signer: string; hash: string; signature: string }): boolean {
  // Columns altered to NULL or a number are reported by the chain checks; here they just fail.
  if (typeof r.signer !== "string" || typeof r.hash !== "string") return false;
  if (typeof r.signature !== "string") return false;
  return verifyHex(r.signer, Buffer.from(r.hash, "hex"), r.signature);
}

/**
 * Opens a ledger for verification: the read-only db, an iterator over its rows in seq order, and
 * the head file (or why it could not be read). RetieError exitCode 2 for unreadable input.
 */
export function openForVerify(path: string, opts: VerifyOptions = {}): {
  db: DatabaseSync;
  rows: IterableIterator<RawRow>;
  head: HeadFile | null;
  headError: HeadError | null;
} {
  const db = openLedgerReadOnly(path);
  try {
    if (opts.session) {
      const found = db.prepare("SELECT 1 AS x FROM entries WHERE session = ? LIMIT 1").get(
        opts.session,
      );
      if (!found) {
        throw new RetieError(`cannot verify session ${opts.session}: not in the ledger (${path})`, {
          hint: "session ids look like ses_0123456789ab; `retie replay` names the last session",
          exitCode: 2,
        });
      }
    }
    let head: HeadFile | null = null;
    let headError: HeadError | null = null;
    try {
      head = readHeadFile(path);
    } catch (e) {
      const code = e instanceof HeadFileError ? e.code : "head-unreadable";
      headError = { code, message: errorMessage(e) };
    }
    let rows: IterableIterator<RawRow>;
    try {
      rows = db.prepare(VERIFY_SELECT).iterate() as IterableIterator<unknown> as IterableIterator<
        RawRow
      >;
    } catch (e) {
      throw new RetieError(
        `cannot read the ledger (${path}): its entries table is not retie's (${errorMessage(e)})`,
        { hint: "pass the path of a retie ledger with --ledger", exitCode: 2 },
      );
    }
    return { db, rows, head, headError };
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Why the head file could not be used. */
export interface HeadError {
  code: ProblemCode;
  message: string;
}

/**
 * The verifier's core over rows in seq order: every row through the chain checks, those that pass
 * through the session checks, then the head checks. `sigCheck` checks entry signatures (null
 * when deferred: the parallel verifier checks them on workers and merges the answers).
 */
export function verifyRows(
  path: string,
  rows: Iterable<RawRow>,
  head: HeadFile | null,
  headError: HeadError | null,
  opts: VerifyOptions,
  sigCheck: SignatureCheck,
): VerifyReport {
  const problems = new Problems();
  const chain = new ChainChecker(problems, sigCheck);
  const sessions = new SessionChecker(
    problems,
    opts.trustedUserKeys ? new Set(opts.trustedUserKeys) : null,
  );
  const watched = new Set([head?.seq, opts.expectHead?.seq].filter((x) => x !== undefined));
  const hashes = new Map<number, string>();
  let selectedEntries = 0;
  for (const r of rows) {
    const checked = chain.check(r);
    if (watched.has(r.seq) && typeof r.hash === "string") hashes.set(r.seq, r.hash);
    if (!opts.session || opts.session === r.session) selectedEntries++;
    if (checked) sessions.check(checked);
  }
  checkHead(problems, path, head, headError, {
    lastSeq: chain.lastSeq,
    hashAt: (seq) => hashes.get(seq),
    checkpoints: sessions.checkpoints,
    lastCheckpoint: sessions.lastCheckpoint,
    userKeys: sessions.userKeys,
  }, opts.expectHead ?? null);

  const sel = opts.session ?? null;
  const kept = selectProblems(problems.list, sel);
  const openActions = [...sessions.open.values()].filter((a) => !sel || a.session === sel);
  return {
    ok: kept.length === 0,
    path,
    entries: selectedEntries,
    sessions: sel ? 1 : sessions.sessions.size,
    headSeq: chain.lastSeq,
    headHash: chain.lastHash,
    head: `${chain.lastSeq}:${chain.lastHash}`,
    firstBad: kept[0] ?? null,
    problems: kept,
    openActions,
    checkpointSeq: head?.seq ?? null,
    userKeys: [...sessions.userKeys],
  };
}
