/**
 * The constructor every held-out spec file uses for its edits: one split, many edits.
 *
 * @module
 */
import type { GuardEdit } from "./corpus_guards_spec.ts";

/**
 * A maker of guard edits of one split: `find` in `path` of `repo` becomes `replace`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { editMaker } from "./corpus_guards_edit.ts";
 * const E = editMaker("heldout10");
 * const e = E("id", "o/r", "a.py", "authz", "check()\n", "");
 * assert.equal(e.split, "heldout10");
 * ```
 */
export function editMaker(split: GuardEdit["split"]) {
  return (
    id: string,
    repo: string,
    path: string,
    cls: GuardEdit["cls"],
    find: string,
    replace: string,
  ): GuardEdit => ({ id, repo, path, cls, split, find, replace });
}
