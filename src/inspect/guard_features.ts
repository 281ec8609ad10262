/**
 * The features the learned guard signal (`guard_model.ts`) reads from an edit's changed lines:
 * which words and operators the edit took away and which it brought, alone, with the kind of line
 * they sat on (`-if|active`: `active` gone from an `if`) and in pairs (`-b:is_active`); the kind of
 * the lines removed and added; the words of the function the change sits in, of the lines around
 * it (`c:verify`) and of the path.
 * Words are identifier parts, lower-cased (`hasAdminRole` → has, admin, role).
 *
 * Pure and shared by the inspector and the training script (`scripts/guard_model_train.ts`), so a
 * model is read with exactly the features it was trained on.
 *
 * @module
 */
import { code, enclosing, type Hunk } from "./guard_text.ts";
import { segments } from "./guard_term_polarity.ts";

/** Operators and keywords kept as they are (lower-cased); other identifiers are split into words. */
const KEPT = new Set([
  "==",
  "!=",
  "===",
  "!==",
  "<",
  ">",
  "<=",
  ">=",
  "&&",
  "||",
  "!",
  "not",
  "and",
  "or",
  "is",
  "in",
  "return",
  "raise",
  "throw",
  "if",
  "else",
  "elif",
  "pass",
  "true",
  "false",
  "none",
  "null",
  "nil",
  "undefined",
  "try",
  "catch",
  "except",
  "continue",
  "break",
  "await",
]);

/** What a line starts with: a branch, an exit, a definition, a decorator, an assignment. */
const KIND =
  /^\s*(?:}\s*)?(if|elif|return|raise|throw|else|while|for|def|function|func|const|let|var|@)/;

/** How many hunks of an edit are read (a rewrite is not an edit the signal knows). */
const MAX_HUNKS = 8;

/**
 * The parts of an identifier, lower-cased, two characters or more, numbers left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subwords } from "./guard_features.ts";
 * assert.deepEqual(subwords("hasAdminRole"), ["has", "admin", "role"]);
 * assert.deepEqual(subwords("is_active2"), ["is", "active2"]);
 * ```
 */
export function subwords(id: string): string[] {
  return segments(id).map((x) => x.toLowerCase()).filter((x) => x.length >= 2 && !/^\d+$/.test(x));
}

/** The words and operators of one line of code, in order, each once. */
function tokens(line: string): string[] {
  const out = new Set<string>();
  for (const m of line.matchAll(/[A-Za-z_$][\w$]*|===?|!==?|<=|>=|&&|\|\||[!<>]/g)) {
    const t = m[0];
    const low = t.toLowerCase();
    if (KEPT.has(low)) out.add(low);
    else if (/^[A-Za-z_$]/.test(t)) { for (const w of subwords(t)) out.add(w); }
    else out.add(t);
  }
  return [...out];
}

/** The kind of a line of code. */
function kindOf(c: string): string {
  return KIND.exec(c)?.[1] ?? (/^[\w$.]+\s*[:=]/.test(c) ? "assign" : "x");
}

/**
 * The features of an edit, from its hunks (`hunks()` of `guard_text.ts`) and before-lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { editFeatures } from "./guard_features.ts";
 * const before = ["def check(u):", "    return u.ok and u.is_active"];
 * const hunk = { removed: [{ n: 2, text: before[1] }], added: [{ n: 2, text: "    return u.ok" }] };
 * const f = editFeatures("auth/views.py", before, [hunk]);
 * assert.ok(f.includes("-active") && f.includes("-return|active") && f.includes("f:check"));
 * assert.ok(f.includes("c:check") && f.includes("c:active"));
 * assert.ok(!f.includes("-ok"));
 * ```
 */
export function editFeatures(path: string, before: string[], hs: readonly Hunk[]): string[] {
  const f = new Set<string>();
  for (const w of subwords(path.replace(/\.\w+$/, "").replace(/[\/.-]/g, "_"))) f.add(`p:${w}`);
  for (const h of hs.slice(0, MAX_HUNKS)) {
    const rc = h.removed.map((l) => code(l.text));
    const ac = h.added.map((l) => code(l.text));
    const rt = rc.map(tokens);
    const at = ac.map(tokens);
    const R = new Set(rt.flat());
    const A = new Set(at.flat());
    for (const t of R) if (!A.has(t)) f.add(`-${t}`);
    for (const t of A) if (!R.has(t)) f.add(`+${t}`);
    for (const c of rc) if (/^(@|[a-z]+)/.test(c)) f.add(`-k:${/^(@|[a-z]+)/.exec(c)![1]}`);
    for (const c of ac) if (/^(@|[a-z]+)/.test(c)) f.add(`+k:${/^(@|[a-z]+)/.exec(c)![1]}`);
    rc.forEach((c, i) => {
      for (const t of rt[i]) if (!A.has(t)) f.add(`-${kindOf(c)}|${t}`);
    });
    ac.forEach((c, i) => {
      for (const t of at[i]) if (!R.has(t)) f.add(`+${kindOf(c)}|${t}`);
    });
    const pairs = (ts: string[][]) => {
      const o = new Set<string>();
      for (const x of ts) for (let i = 0; i + 1 < x.length; i++) o.add(`${x[i]}_${x[i + 1]}`);
      return o;
    };
    const RB = pairs(rt);
    const AB = pairs(at);
    for (const t of RB) if (!AB.has(t)) f.add(`-b:${t}`);
    for (const t of AB) if (!RB.has(t)) f.add(`+b:${t}`);
    const n = h.removed[0]?.n ?? h.added[0]?.n ?? 1;
    for (const w of subwords(enclosing(before, n))) f.add(`f:${w}`);
    // The words of the lines around the change (what it sat among: `c:verify` near an `if`).
    for (let i = Math.max(0, n - 4); i < Math.min(before.length, n + 3); i++) {
      for (const m of code(before[i]).matchAll(/[A-Za-z_$][\w$]*/g)) {
        for (const w of subwords(m[0])) f.add(`c:${w}`);
      }
    }
    if (h.removed.length && !h.added.length) f.add("pure-removal");
    if (!h.removed.length && h.added.length) f.add("pure-addition");
  }
  return [...f];
}
