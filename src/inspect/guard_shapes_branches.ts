/**
 * Shape signals about branches: a check's comparison turned into a presence test, a branch's
 * condition removed while its body stays (now unconditional), a conditional bypass put in front of
 * checks, a failure reported by assignment (`error = {…}`) removed with its branch. Called by
 * `guard_shapes.ts` for each hunk; pure.
 *
 * @module
 */
import { denies } from "./guard_vocab.ts";
import { callNames, clip, code, compares, condition, headKind, isCheckCall } from "./guard_text.ts";
import { BYPASS_EXIT, FAILURE_ASSIGN, PROTECTING_FN, terms } from "./guard_shape_vocab.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";

/** A comparison only with nothing: `x === undefined`, `x is None`, `!x`, `not x`, `x == ""`. */
const PRESENCE =
  /(===?|!==?)\s*(undefined|null|nil|None|""|'')\b|\b(undefined|null|nil|None)\s*(===?|!==?)|\bis\s+(not\s+)?None\b/g;

/**
 * The branch shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { branchShapes } from "./guard_shapes_branches.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(2, "    if user.api_key.key != api_key:")];
 * const added = [line(2, "    if not user.api_key.key:")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "", block: () => ({ body: "return False", after: "" }),
 * };
 * assert.match(branchShapes(v, ctx)[0].what, /comparison dropped/);
 * ```
 */
export function branchShapes(
  { removed, added, addedCodes }: HunkView,
  ctx: ShapeContext,
): Shape[] {
  const out: Shape[] = [];
  // A check's comparison turned into a presence test (`key != given` → `not key`): a wrong value
  // passes where only a missing one still fails.
  for (const { l, c } of removed) {
    // Go's `if err := f(); err != nil`: the test is what follows the init statement.
    const cb = condition(c)?.split(";").pop();
    if (!cb || !/^(if|elif|else if)$/.test(headKind(c) ?? "")) continue;
    if (compares(cb.replace(PRESENCE, " ")) === 0) continue;
    for (const a of added) {
      const ca = condition(a.c)?.split(";").pop();
      if (!ca || headKind(a.c) !== headKind(c) || addedCodes.has(c)) continue;
      const onlyPresence = compares(ca.replace(PRESENCE, " ")) === 0 &&
        !callNames(ca).some((x) => isCheckCall(x)) &&
        (new RegExp(PRESENCE.source).test(ca) || /^\s*(!|not\b)/.test(ca));
      const ids = (t: string) => new Set(t.match(/[A-Za-z_$][\w$]*/g) ?? []);
      const before = ids(cb);
      const subset = [...ids(ca)].every((w) =>
        before.has(w) || /^(not|undefined|null|nil|None|is|typeof)$/.test(w)
      );
      // Only alternatives dropped (`a || b` → `a`): that narrows, and is read with its polarity
      // by the condition rules.
      const dropsAlternatives = terms(ca, "or").every((t) => terms(cb, "or").includes(t));
      if (onlyPresence && subset && !dropsAlternatives && ctx.secure(l.n)) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `comparison dropped for a presence test: \`${clip(cb)}\` → \`${clip(ca)}\``,
        });
      }
    }
  }

  // A branch's condition removed while its body stays: what it guarded now always runs.
  for (let i = 0; i < removed.length; i++) {
    const { l, c } = removed[i];
    const cond = condition(c);
    if (!cond || !/^(if|elif|else if)$/.test(headKind(c) ?? "") || addedCodes.has(c)) continue;
    const { body } = ctx.block(l.n);
    const lines = body.split("\n").filter((t) => t !== "");
    if (lines.length === 0 || lines.length > 4) continue;
    // The body's lines kept, now among the added lines, the header gone.
    if (!lines.every((t) => addedCodes.has(t))) continue;
    if (ctx.secure(l.n) || callNames(cond).some((x) => isCheckCall(x))) {
      out.push({
        rule: "auth-check-removed",
        n: l.n,
        what: `condition removed, its body kept: \`${clip(c)}\``,
      });
    }
  }

  // A conditional bypass put in front of checks: `if local: return func(*a, **ka)` above them.
  for (let i = 0; i + 1 < added.length; i++) {
    const head = added[i].c;
    if (!/^(if|elif)\b|^if\s*\(/.test(head)) continue;
    const exit = (head.match(/[:{)]\s*(return\b.*|next\(\);?)$/)?.[1] ?? added[i + 1].c).trim();
    if (!BYPASS_EXIT.test(exit)) continue;
    const n = added[i].l.n;
    // What follows the new branch, in the after-text, up to the end of its block.
    const rest: string[] = [];
    for (let k = n + 1; k < ctx.afterLines.length && rest.length < 25; k++) {
      const t = code(ctx.afterLines[k]);
      if (t !== "") rest.push(t);
    }
    const guarded = rest.find((t) => callNames(t).some((x) => isCheckCall(x)) || denies(t));
    const near = removed[0]?.l.n ?? Math.max(1, n - 1);
    // In a predicate that picks what to strip or deny, an early yes protects more.
    if (guarded && ctx.secure(near) && !PROTECTING_FN.test(ctx.fn(near))) {
      out.push({
        rule: "auth-check-removed",
        n: removed[0]?.l.n ?? n,
        what: `bypass added before \`${clip(guarded)}\`: \`${clip(head)}\``,
      });
    }
  }

  // A failure reported by assignment removed with its branch (`if (!bc.cA) { error = {…} }`).
  for (let i = 0; i < removed.length; i++) {
    const { l, c } = removed[i];
    if (!/^(if|elif|else if)$/.test(headKind(c) ?? "") || addedCodes.has(c)) continue;
    const { body } = ctx.block(l.n);
    const first = body.split("\n").find((t) => t !== "") ?? "";
    const gone = removed.slice(i + 1, i + 4).some((r) => r.c === first);
    if (gone && FAILURE_ASSIGN.test(first) && ctx.secure(l.n)) {
      out.push({
        rule: "auth-check-removed",
        n: l.n,
        what: `branch that reported a failure removed: \`${clip(c)}\``,
      });
    }
  }
  return out;
}
