/**
 * A branch's condition narrowed, one changed header against the header that replaced it: a
 * branch that fails now taken in fewer cases (a requirement joined by `and`, an `or` dropped,
 * every `or` made `and`), or a branch that lets through taken in more. Called by
 * `guard_settings_lines.ts` for each pair of changed lines; pure.
 *
 * @module
 */
import { CHECKER_FN, FAILURE, SECURITY } from "./guard_vocab.ts";
import { branchLines, clip, condition, enclosing, headKind } from "./guard_text.ts";

/** A branch that fails by what it returns: an error built, a redirect to log in
 * (`return oauth_auth_error(…)`, `return &status.DegradedError{`, `return authRedirect(…)`). */
const SOFT_FAILURE =
  /\breturn\s+(await\s+)?&?[\w$.]*(error|Error|fail|Fail|denied|Denied|invalid|Invalid|unauthori[sz]ed|Unauthori[sz]ed|forbidden|Forbidden|redirect|Redirect)\w*\s*[({]/;

const OR = /\|\||\bor\b/g;
const AND = /&&|\band\b/g;

/**
 * How header `rc` (before-line `n` of `bl`) narrowed into `ac`, or null: the reading's words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { narrowedBranch } from "./guard_branch_narrowing.ts";
 * const bl = ["func check(t *TLS) error {", "\tif t.Cert == nil || t.Key == nil {", '\t\treturn &status.DegradedError{Message: "missing"}', "\t}", "\treturn nil", "}"];
 * const weaker = "\tif t.Cert == nil && t.Key == nil {";
 * assert.match(narrowedBranch(bl[1], weaker, bl, 2)!, /condition narrowed/);
 * assert.equal(narrowedBranch(weaker, bl[1], [bl[0], weaker, ...bl.slice(2)], 2), null);
 * ```
 */
export function narrowedBranch(rc: string, ac: string, bl: string[], n: number): string | null {
  const cb = condition(rc);
  const ca = condition(ac);
  if (
    !cb || !ca || headKind(rc) !== headKind(ac) || !/^(if|elif|else if)$/.test(headKind(rc) ?? "")
  ) {
    return null;
  }
  // (The branch's own lines, after a condition written over lines: what follows it at its
  // indentation is not its body. A one-line branch, `if (!err) return next();`, holds its body
  // on its own line.)
  const bls = branchLines(bl, n);
  const line = bls?.rest ?? "";
  const rest = line.includes(cb) ? line.slice(line.indexOf(cb) + cb.length) : line;
  const body = (bls?.body ?? []).join("\n");
  const first = rest.replace(/^[\s{:)]+/, "") || (bls?.body ?? []).find((t) => t.trim()) || "";
  const fnName = enclosing(bl, n);
  // An empty answer from a check (`return ""`, `return nil`) is its denial.
  const fails = FAILURE.test(`${rest}\n${body}`) || SOFT_FAILURE.test(first) ||
    ((CHECKER_FN.test(fnName) || SECURITY.test(fnName)) &&
      /\breturn\s+(""|''|nil|None|null|false|False)\s*(;|,|$)/m.test(body));
  const passes = /\breturn\s+(True|true)\b|\bnext\(\)|\breturn\s*;?\s*$|\bpass\b/m.test(body) ||
    /\breturn\s+(True|true)\b|\bnext\(\)/.test(rest);
  const gained = (re: RegExp) =>
    (ca.match(re) ?? []).length > (cb.match(re) ?? []).length &&
    cb.split(re).every((p) => ca.includes(p.trim()));
  const lost = (re: RegExp) =>
    (ca.match(re) ?? []).length < (cb.match(re) ?? []).length &&
    ca.split(re).every((p) => cb.includes(p.trim()));
  // (`a == nil || b == nil` → `a == nil && b == nil`: every `or` made `and`, or back.)
  const unify = (t: string, re: RegExp, to: string) =>
    t.replace(re, to).replace(/\band\b/g, "&&").replace(/\bor\b/g, "||").replace(/[()\s]/g, "");
  const swapped = (from: RegExp, to: string) =>
    (cb.match(from) ?? []).length > 0 && (ca.match(from) ?? []).length === 0 &&
    unify(cb, from, to) === unify(ca, /$^/, "");
  const narrowed = (fails && (gained(AND) || lost(OR) || swapped(OR, "&&"))) ||
    (passes && (gained(OR) || lost(AND) || swapped(AND, "||")));
  return narrowed ? `condition narrowed: \`${clip(cb)}\` → \`${clip(ca)}\`` : null;
}
