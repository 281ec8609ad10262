/**
 * The session budget the person chose (`--budget`, `RETIE_BUDGET`, or `budget` in the config):
 * tokens (input + output of every call, compaction included) or Ollama quota units. Off by default;
 * when it is spent the next request is not made and the run ends with exit code 1.
 *
 * @module
 */
import type { UsageMeter } from "./usage_meter.ts";

/** A budget: `tokens` counts every call's input and output; `units` Ollama quota units. */
export interface SessionBudget {
  kind: "tokens" | "units";
  amount: number;
}

/**
 * Why the session must stop before its next request, or null while the budget lasts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { budgetStop } from "./budget.ts";
 * import { UsageMeter } from "./usage_meter.ts";
 * const m = new UsageMeter();
 * m.add("m", { inputTokens: 900, outputTokens: 200 }, 900);
 * assert.deepEqual(budgetStop({ kind: "tokens", amount: 1000 }, m)?.startsWith("stopped"), true);
 * ```
 */
export function budgetStop(
  budget: SessionBudget | undefined,
  meter: UsageMeter,
  unitsUsed?: () => number | null,
): string | null {
  if (!budget) return null;
  if (budget.kind === "tokens") {
    const used = meter.totalTokens();
    return used >= budget.amount
      ? `stopped: the session budget of ${budget.amount} tokens is spent (${used} used)`
      : null;
  }
  const units = unitsUsed?.();
  if (units === null || units === undefined) return null;
  return units >= budget.amount
    ? `stopped: the session budget of ${budget.amount} quota units is spent (${
      Math.round(units * 1000) / 1000
    } used)`
    : null;
}
