/**
 * Before/after comparison of structural guard facts: per rule and key, a drop in the count is a
 * removed protection. The missing instances are named (construct, function, line) so the approval
 * prompt can show what went; instances are matched by the function they sit in first, so a check
 * that stayed in its function is never reported in place of one that went.
 *
 * @module
 */
import type { GuardFact, GuardRuleId } from "./structure.ts";

/** A dropped protection family in one file. */
export interface GuardDrop {
  rule: GuardRuleId;
  /** Facts of the dropped keys before and after. */
  before: number;
  after: number;
  /** The missing instances (from the before-text): definite guards first, then by line. */
  missing: GuardFact[];
  /** Whether any missing instance is a definite guard (not only possibly one). */
  high: boolean;
}

/**
 * Failure branches and their condition terms are compared across the auth and token rules
 * together: a branch whose condition was refactored (`alg` moved into a helper) may change family
 * and is still the same branch.
 */
const ACROSS = new Set(["branch", "term"]);

function group(facts: readonly GuardFact[]): Map<string, GuardFact[]> {
  const m = new Map<string, GuardFact[]>();
  for (const f of facts) {
    const rule = ACROSS.has(f.key) && f.rule !== "tls-check-removed" ? "auth|token" : f.rule;
    const k = `${rule}\u0000${f.key}`;
    const list = m.get(k);
    if (list) list.push(f);
    else m.set(k, [f]);
  }
  return m;
}

/**
 * The guard families whose count dropped between `before` and `after`.
 *
 * @example
 * ```ts
 * const f = { rule: "auth-check-removed", key: "call:has_perm", what: "has_perm() call", line: 3, scope: "view", high: true } as const;
 * guardDrops([f], [])[0].missing[0].line; // 3
 * guardDrops([f], [f]); // []
 * ```
 */
export function guardDrops(before: readonly GuardFact[], after: readonly GuardFact[]): GuardDrop[] {
  const b = group(before);
  const a = group(after);
  const byRule = new Map<GuardRuleId, GuardDrop>();
  for (const [k, bs] of b) {
    const as = a.get(k) ?? [];
    if (as.length >= bs.length) continue;
    // Match the after-instances to before-instances in the same function, then by order.
    // Pair each after-instance with the before-instance most like it (same construct text and
    // function, then same text, then same function); the unpaired before-instances went.
    const left = [...bs];
    const unmatched: GuardFact[] = [];
    const tries: ((x: GuardFact, y: GuardFact) => boolean)[] = [
      (x, y) => y.what === x.what && y.scope === x.scope,
      (x, y) => y.what === x.what,
      (x, y) => y.scope === x.scope,
    ];
    let pending = [...as];
    for (const same of tries) {
      const rest: GuardFact[] = [];
      for (const x of pending) {
        const i = left.findIndex((y) => same(x, y));
        if (i >= 0) left.splice(i, 1);
        else rest.push(x);
      }
      pending = rest;
    }
    unmatched.push(...pending);
    left.splice(0, unmatched.length);
    const rule = bs[0].rule;
    const d = byRule.get(rule) ?? { rule, before: 0, after: 0, missing: [], high: false };
    d.before += bs.length;
    d.after += as.length;
    d.missing.push(...left);
    d.high ||= left.some((f) => f.high);
    byRule.set(rule, d);
  }
  for (const d of byRule.values()) {
    d.missing.sort((x, y) => Number(y.high) - Number(x.high) || x.line - y.line);
  }
  return [...byRule.values()];
}

/**
 * One line naming what went: `check_permissions() call removed from initial() (views.py:419)`.
 *
 * @example
 * ```ts
 * describeMissing({ rule: "auth-check-removed", key: "call:has_perm", what: "has_perm() call", line: 3, scope: "view", high: true }, "a.py");
 * // "has_perm() call removed from view() (a.py:3)"
 * ```
 */
export function describeMissing(f: GuardFact, path: string): string {
  const file = path.split(/[\\/]/).pop() || path || "input";
  const where = f.scope ? ` from ${f.scope}()` : "";
  return `${f.what} removed${where} (${file}:${f.line})`;
}
