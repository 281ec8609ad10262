/**
 * The failure-statement signal of the changed-line layer: more failure statements removed than
 * added (`raise`, `throw`, `abort`, a `return` of an error, `false` or a 401/403, `next(err)`, a
 * returned `{ success: false }` spread over lines), located at the first one that went and sits in
 * security code. Called by `guard_lines.ts`; pure.
 *
 * @module
 */
import {
  BARE_RETURN,
  DENY_ASSIGN,
  FAILURE,
  NOT_A_DENIAL,
  PREDICATE,
  SECURITY,
} from "./guard_vocab.ts";
import { bare, clip, code, enclosing, type Hunk, type Line } from "./guard_text.ts";
import { yesKeepsOut } from "./name_polarity.ts";

/** A returned value that reports a failure (`{ success: false, … }`, `{ error: … }`). */
const FAILED_RESULT =
  /\b(success|ok|valid|authori[sz]ed|authenticated|allowed)\s*:\s*false\b|\berrors?\s*:/;

/** What a removed failure counts on in security code by its path alone: an exception, an error handed on. */
const THROWN =
  /\b(raise|throw|abort|panic)\b|\b(callback|cb|done|next|reject)\(\s*\w|^return\s+([\w.]+\s*,\s*)*err\s*;?$/;

/**
 * The code of line `n` of `lines`; a `return` whose value opens a bracket it closes on later lines
 * (`return {` … `}`) is read whole, up to ten lines, as one statement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statementAt } from "./guard_failures.ts";
 * const ls = ["  return {", "    success: false,", "  }", "x()"];
 * assert.equal(statementAt(ls, 1), "return { success: false, }");
 * assert.equal(statementAt(ls, 4), "x()");
 * ```
 */
export function statementAt(lines: string[], n: number): string {
  const c = code(lines[n - 1] ?? "");
  if (!/^(}\s*)?return\s*[{(\[]$/.test(c)) return c;
  let depth = 0;
  const parts: string[] = [];
  for (let i = n - 1; i < lines.length && i < n + 9; i++) {
    const t = code(lines[i]);
    parts.push(t);
    for (const ch of t) depth += "{([".includes(ch) ? 1 : ")]}".includes(ch) ? -1 : 0;
    if (depth <= 0) break;
  }
  return parts.join(" ");
}

/**
 * The failure statement an edit took away (net of those it added), or null. `strong` says whether
 * before-line `n` of hunk `h` is security code by its function or its own words; in a file whose
 * path is about security, a thrown error or one handed on counts anywhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lostFailure } from "./guard_failures.ts";
 * const bl = ["def login(u):", "    if not u.ok:", "        raise Denied()", "    return u"];
 * const al = ["def login(u):", "    return u"];
 * const h = { removed: [{ n: 2, text: bl[1] }, { n: 3, text: bl[2] }], added: [] };
 * assert.equal(lostFailure([h], bl, al, () => false, true)?.n, 3);
 * assert.equal(lostFailure([h], bl, al, () => false, false), null);
 * ```
 */
export function lostFailure(
  hs: readonly Hunk[],
  bl: string[],
  al: string[],
  strong: (n: number, h: Hunk) => boolean,
  pathSecure: boolean,
): { n: number; what: string } | null {
  const failing = (ls: Line[], lines: string[]) =>
    ls.filter((l) => {
      const c = statementAt(lines, l.n);
      const fails = FAILURE.test(c) || DENY_ASSIGN.test(c) ||
        (c.length > l.text.trim().length && FAILED_RESULT.test(c));
      if (!fails || NOT_A_DENIAL.test(c)) return false;
      const fn = enclosing(lines, l.n);
      // (`return False` in a predicate whose yes keeps someone out, `is_revoked`, lets through.)
      if (/^(}\s*)?return\s+(false|False)\b/.test(c) && yesKeepsOut(bare(fn))) return false;
      return !BARE_RETURN.test(c) || SECURITY.test(fn) || PREDICATE.test(bare(fn));
    });
  const removedFail = hs.flatMap((h) => failing(h.removed, bl).map((l) => ({ l, h })));
  const addedFail = hs.flatMap((h) => failing(h.added, al));
  const addedFailText = new Set(addedFail.map((l) => code(l.text)));
  const lostFail = removedFail.filter(({ l }) => !addedFailText.has(code(l.text)));
  if (removedFail.length <= addedFail.length || lostFail.length === 0) return null;
  // An exception thrown in security code (by its path) counts too; a plain return needs more.
  const hit = lostFail.find(({ l, h }) =>
    strong(l.n, h) || (pathSecure && THROWN.test(code(l.text)))
  );
  return hit
    ? { n: hit.l.n, what: `failure statement removed: \`${clip(statementAt(bl, hit.l.n))}\`` }
    : null;
}
