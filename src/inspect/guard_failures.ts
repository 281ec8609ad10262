/**
 * The failure-statement signal of the changed-line layer: more failure statements removed than
 * added (`raise`, `throw`, `abort`, a `return` of an error, `false` or a 401/403, `next(err)`, a
 * returned `{ success: false }` spread over lines), located at the first one that went and sits in
 * security code; and a failing check's branch that lost its `continue` or `return` and stays.
 * Called by `guard_lines.ts`; pure.
 *
 * @module
 */
import {
  BARE_RETURN,
  DENY_ASSIGN,
  EXIT,
  FAILURE,
  NOT_A_DENIAL,
  PREDICATE,
  SECURITY,
} from "./guard_vocab.ts";
import {
  bare,
  blockOf,
  callNames,
  clip,
  code,
  condition,
  enclosing,
  type Hunk,
  isCheckCall,
  type Line,
} from "./guard_text.ts";
import { yesKeepsOut } from "./name_polarity.ts";
import { blockHeader } from "./guard_condition_lines.ts";

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

/** A statement that only leaves: the loop, the branch or the function. */
const BARE_EXIT = /^(continue|break)\b\s*\w*;?$|^return\b/;

/** A call that parses or checks what a request brought (`ParseTokenFunc`, `jwt.verify`). */
const CHECKING_CALL = /parse|verif|decode|validat|authenticat|authori[sz]|check|compare|unsign/i;

/**
 * A failing branch that lost its way out and stays (`if err != nil { log(err); continue }` loses
 * its `continue` after a token's parse; `if tkn.IsExpired(now) { log(…) }`): what the check refused
 * goes on. The branch's test must be a check's (a check call, security words, or an error from a
 * call that parses or verifies just above it), and after the edit its block must not leave.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lostExit } from "./guard_failures.ts";
 * const bl = ["for _, a := range auths {", "\ttoken, err := parseToken(a)", "\tif err != nil {", "\t\tlast = err", "\t\tcontinue", "\t}", "\tuse(token)", "}"];
 * const al = bl.filter((_, i) => i !== 4);
 * const h = { removed: [{ n: 5, text: bl[4] }], added: [] };
 * assert.match(lostExit([h], bl, al)?.what ?? "", /`continue` removed from `if err != nil \{`/);
 * assert.equal(lostExit([h], al, bl), null);
 * ```
 */
export function lostExit(
  hs: readonly Hunk[],
  bl: string[],
  al: string[],
): { n: number; what: string } | null {
  for (const h of hs) {
    if (h.added.length > 0 || h.removed.length > 2) continue;
    for (const r of h.removed) {
      const t = code(r.text).trim();
      if (!BARE_EXIT.test(t)) continue;
      const at = blockHeader(bl, r.n, 12);
      if (at === 0) continue;
      const head = code(bl[at - 1]).trim();
      const cond = condition(head);
      if (!cond || !/^(}\s*)?(if|elif|else\s+if)\b/.test(head)) continue;
      const above = bl.slice(Math.max(0, at - 4), at - 1).map(code).join("\n");
      const checks = callNames(cond).some((c) => isCheckCall(c)) || SECURITY.test(cond) ||
        (/\berr(or)?\b/.test(cond) && callNames(above).some((c) => CHECKING_CALL.test(c)) &&
          SECURITY.test(above));
      if (!checks) continue;
      // The same header after the edit, and its block no longer leaves.
      const ai = al.findIndex((l, i) => i >= at - 3 && code(l).trim() === head);
      if (ai < 0 || EXIT.test(blockOf(al, ai + 1).body)) continue;
      return { n: r.n, what: `\`${t}\` removed from \`${clip(head)}\`: what it refused goes on` };
    }
  }
  return null;
}

/** A branch that fails out loud: it raises, or returns an error (`return &status.DegradedError{`),
 * and lets nothing through (a `return false` may be a permission given, `shouldSecure`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failsAnyway } from "./guard_failures.ts";
 * assert.ok(failsAnyway({ body: '\treturn &status.DegradedError{Message: "missing"}' }));
 * assert.ok(!failsAnyway({ body: "\treturn false" }));
 * ```
 */
export function failsAnyway(b: { body: string }): boolean {
  // (Its first statement: what a granting branch does on a nested error is not its answer.)
  const first = b.body.split("\n").find((t) => t.trim() !== "") ?? "";
  return /\b(raise|throw)\b|\breturn\s+(nil\s*,\s*)?(&?[\w$.]*(Error|error|Err[A-Z])\w*|err\b|errors\.|fmt\.Errorf)|\bhttp\.Error\(|\babort\(/
    .test(first);
}
