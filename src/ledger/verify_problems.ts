/**
 * The problems `retie verify` reports: one code per property the spec states
 * (docs/ledger-format.md, "What verify checks"), the seq it concerns, and a sentence.
 *
 * @module
 */

/** Every problem code, grouped as the checks are. */
export const PROBLEM_CODES = [
  // chain: rows, links, hashes, signatures, payload text (always reported)
  "column-type",
  "column-encoding",
  "seq-missing",
  "seq-order",
  "time-format",
  "session-format",
  "kind-unknown",
  "action-id-format",
  "hex-format",
  "time-order",
  "prev-mismatch",
  "hash-mismatch",
  "signature-invalid",
  "payload-too-deep",
  "payload-not-object",
  "payload-not-canonical",
  // sessions and delegations (reported for the session concerned)
  "genesis-duplicate",
  "genesis-malformed",
  "user-key-untrusted",
  "signer-role",
  "parent-session",
  "delegation-invalid",
  "agent-key-mismatch",
  "session-outside-window",
  "no-genesis",
  "after-final-checkpoint",
  "action-id-kind",
  "event-action-unknown",
  "checkpoint-malformed",
  "checkpoint-link",
  "action-id-reused",
  "intent-malformed",
  "intent-out-of-scope",
  "outcome-without-intent",
  "outcome-duplicate",
  "outcome-malformed",
  "undo-without-intent",
  "undo-malformed",
  // head file and the expected head (always reported)
  "head-unreadable",
  "head-format",
  "head-signature",
  "head-signer",
  "tail-cut",
  "head-mismatch",
  "head-missing",
  "expected-head-missing",
  "expected-head-mismatch",
  "head-behind-expected",
] as const;

/** A problem code. */
export type ProblemCode = typeof PROBLEM_CODES[number];

/** One problem found, at the seq it concerns. */
export interface VerifyProblem {
  code: ProblemCode;
  seq: number;
  /** What is wrong, in words. */
  detail: string;
}

/** A problem with the session it belongs to (null: the chain or head, always reported). */
export interface ScopedProblem extends VerifyProblem {
  session: string | null;
}

/** Collects problems as the checks find them. */
export class Problems {
  readonly list: ScopedProblem[] = [];
  /** Adds a problem of the chain or head (reported whatever session is selected). */
  chain(code: ProblemCode, seq: number, detail: string): void {
    this.list.push({ code, seq, detail, session: null });
  }
  /** Adds a problem of one session. */
  of(session: string, code: ProblemCode, seq: number, detail: string): void {
    this.list.push({ code, seq, detail, session });
  }
}

/**
 * Orders problems by seq, then by the code's place in {@link PROBLEM_CODES} (so the order does
 * not depend on which thread found a problem).
 *
 * @example
 * ```ts
 * import { byProblemOrder } from "./verify_problems.ts";
 * import assert from "node:assert/strict";
 * const l = [{ seq: 2, code: "signature-invalid" as const, detail: "" }, { seq: 2, code: "hash-mismatch" as const, detail: "" }];
 * assert.equal(l.sort(byProblemOrder)[0].code, "hash-mismatch");
 * ```
 */
export function byProblemOrder(a: VerifyProblem, b: VerifyProblem): number {
  return a.seq - b.seq || ORDER.get(a.code)! - ORDER.get(b.code)!;
}
const ORDER = new Map<string, number>(PROBLEM_CODES.map((c, i) => [c, i]));

/**
 * Problems to report: those of the chain and head, and those of `session` (all when null), in
 * {@link byProblemOrder}.
 *
 * @example
 * ```ts
 * import { Problems, selectProblems } from "./verify_problems.ts";
 * import assert from "node:assert/strict";
 * const p = new Problems();
 * p.of("ses_a", "no-genesis", 3, "…");
 * p.chain("hash-mismatch", 2, "…");
 * assert.deepEqual(selectProblems(p.list, "ses_b").map((x) => x.code), ["hash-mismatch"]);
 * ```
 */
export function selectProblems(list: ScopedProblem[], session: string | null): VerifyProblem[] {
  return list
    .filter((p) => !session || p.session === null || p.session === session)
    .map((p) => ({ code: p.code, seq: p.seq, detail: p.detail }))
    .sort(byProblemOrder);
}
