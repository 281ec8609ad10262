/**
 * The head checks of `retie verify` (docs/ledger-format.md, "What verify checks", steps 20–21):
 * the signed head file against the ledger's tail, and the head a caller pinned outside the
 * machine (`--expect-head SEQ:HASH`). Problems here concern the chain: always reported.
 *
 * @module
 */
import { type HeadFile, headFilePath, headSignatureOk } from "./checkpoint.ts";
import type { ProblemCode, Problems } from "./verify_problems.ts";

/** What the head checks need to know of the ledger, gathered while the rows were checked. */
export interface TailFacts {
  /** Seq of the last row (0 for an empty ledger). */
  lastSeq: number;
  /** Stored hash of each seq the checks asked about (`hashAt(seq)`), or undefined. */
  hashAt(seq: number): string | undefined;
  /** Checkpoint entries that passed the checks: seq → signer and time. */
  checkpoints: Map<number, { signer: string; time: string }>;
  lastCheckpoint: number | null;
  /** User keys that opened a session. */
  userKeys: Set<string>;
}

/** A head pinned outside the machine. */
export interface ExpectedHead {
  seq: number;
  hash: string;
}

/**
 * Parses `SEQ:HASH` (as printed at the end of a session and by `retie verify --json`), or null.
 *
 * @example
 * ```ts
 * import { parseExpectedHead } from "./verify_head.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseExpectedHead(`12:${"ab".repeat(32)}`), { seq: 12, hash: "ab".repeat(32) });
 * assert.equal(parseExpectedHead("12"), null);
 * ```
 */
export function parseExpectedHead(text: string): ExpectedHead | null {
  const m = /^([1-9][0-9]{0,15}):([0-9a-f]{64})$/.exec(text);
  if (!m || !Number.isSafeInteger(Number(m[1]))) return null;
  return { seq: Number(m[1]), hash: m[2] };
}

/**
 * Checks the head file (or why it could not be read) and the expected head against the tail.
 *
 * @example
 * ```ts ignore
 * checkHead(problems, path, head, headError, facts, expected);
 * ```
 */
export function checkHead(
  problems: Problems,
  ledgerPath: string,
  head: HeadFile | null,
  headError: { code: ProblemCode; message: string } | null,
  t: TailFacts,
  expected: ExpectedHead | null,
): void {
  const bad = (code: ProblemCode, seq: number, detail: string) => problems.chain(code, seq, detail);
  if (headError) bad(headError.code, t.lastSeq + 1, headError.message);
  if (head) {
    if (!headSignatureOk(head)) {
      bad("head-signature", head.seq, "head file signature does not verify");
    } else if (!t.userKeys.has(head.signer)) {
      bad("head-signer", head.seq, "head file is signed by a key that opened no session");
    }
    if (t.lastSeq < head.seq) {
      bad(
        "tail-cut",
        t.lastSeq + 1,
        `the ledger ends at #${t.lastSeq} but the signed head file names #${head.seq}: the tail was cut off`,
      );
    } else {
      const cp = t.checkpoints.get(head.seq);
      if (t.hashAt(head.seq) !== head.hash) {
        bad("head-mismatch", head.seq, "entry differs from the one the signed head file names");
      } else if (!cp || cp.signer !== head.signer || cp.time !== head.time) {
        bad(
          "head-mismatch",
          head.seq,
          "the signed head file does not name a checkpoint with its signer and time",
        );
      }
    }
  } else if (!headError && t.lastCheckpoint !== null) {
    bad(
      "head-missing",
      t.lastCheckpoint,
      `head file ${headFilePath(ledgerPath)} is missing: a cut-off tail cannot be ruled out`,
    );
  }
  if (!expected) return;
  const pin = `${expected.seq}:${expected.hash.slice(0, 12)}`;
  if (t.lastSeq < expected.seq) {
    bad(
      "expected-head-missing",
      t.lastSeq + 1,
      `the ledger ends at #${t.lastSeq} but the expected head is #${pin}…: the tail was cut off`,
    );
  } else if (t.hashAt(expected.seq) !== expected.hash) {
    bad(
      "expected-head-mismatch",
      expected.seq,
      `entry #${expected.seq} is not the expected head ${pin}…`,
    );
  } else if (t.checkpoints.has(expected.seq) && (!head || head.seq < expected.seq)) {
    bad(
      "head-behind-expected",
      expected.seq,
      `the expected head #${expected.seq} is a checkpoint, but the head file ${
        head ? `names the earlier #${head.seq}` : "is missing"
      }: it was replaced by an older copy`,
    );
  }
}
