/**
 * retie's error type: what went wrong, and what to do about it.
 *
 * Every message follows one grammar: `<what> (<the input>): <why>` plus a `hint` that names the fix.
 *
 * @module
 */

/** An error a user or a model can act on. */
export class RetieError extends Error {
  /** What to do about it, in one sentence. */
  readonly hint?: string;
  /** Process exit code when this ends the CLI: 1 failure, 2 bad input. */
  readonly exitCode: number;

  /**
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { RetieError } from "./errors.ts";
   * const e = new RetieError("cannot read the policy (.retie/policy.json): not JSON", {
   *   hint: "fix the file or remove it to use retie-default",
   *   exitCode: 2,
   * });
   * assert.equal(e.exitCode, 2);
   * assert.throws(() => { throw e; }, /not JSON/);
   * ```
   */
  constructor(message: string, opts: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = "RetieError";
    this.hint = opts.hint;
    this.exitCode = opts.exitCode ?? 1;
  }
}

/**
 * Formats any thrown value for the terminal: the message, then the hint on its own line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeError } from "./errors.ts";
 * assert.deepEqual(describeError(new Error("boom")), "boom");
 * ```
 */
export function describeError(e: unknown): string {
  if (e instanceof RetieError) return e.hint ? `${e.message}\n  hint: ${e.hint}` : e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

/**
 * The message of any thrown value: an `Error`'s message, anything else as a string. Use this
 * instead of casting `(e as Error).message`, which yields `undefined` for a thrown string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorMessage } from "./errors.ts";
 * assert.equal(errorMessage(new Error("boom")), "boom");
 * assert.equal(errorMessage("plain"), "plain");
 * ```
 */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
