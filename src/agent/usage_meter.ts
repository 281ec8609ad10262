/**
 * Token usage of a session, for every provider: what each model call reported (input, output),
 * the prompt size of the last call (the context used), the largest one, and what compaction cost.
 *
 * @module
 */
import type { Usage } from "../providers/types.ts";

/** Totals for one model. */
export interface ModelUsage {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** A snapshot of the meter. */
export interface UsageReport {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens of the last call (reported, or estimated when the service reported none). */
  contextTokens: number;
  /** The largest prompt of any call. */
  peakContextTokens: number;
  /** The model's context window, when known. */
  contextWindow: number | null;
  compactions: number;
  /** Tokens the compaction calls themselves used (input + output). */
  compactionTokens: number;
  byModel: ModelUsage[];
}

/**
 * Counts tokens across a session.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UsageMeter } from "./usage_meter.ts";
 * const m = new UsageMeter(8192);
 * m.add("m", { inputTokens: 100, outputTokens: 20 }, 100);
 * assert.deepEqual(m.report().inputTokens, 100);
 * ```
 */
export class UsageMeter {
  #byModel = new Map<string, ModelUsage>();
  #context = 0;
  #peak = 0;
  #compactions = 0;
  #compactionTokens = 0;
  contextWindow: number | null;

  constructor(contextWindow: number | null = null) {
    this.contextWindow = contextWindow;
  }

  /** Adds one call; `promptTokens` is what was sent (reported, else estimated). */
  add(model: string, usage: Usage, promptTokens: number, compaction = false): void {
    const m = this.#byModel.get(model) ?? { model, calls: 0, inputTokens: 0, outputTokens: 0 };
    m.calls++;
    m.inputTokens += usage.inputTokens;
    m.outputTokens += usage.outputTokens;
    this.#byModel.set(model, m);
    if (compaction) {
      this.#compactions++;
      this.#compactionTokens += usage.inputTokens + usage.outputTokens;
    } else {
      this.#context = promptTokens;
    }
    this.#peak = Math.max(this.#peak, promptTokens);
  }

  /**
   * Adds calls made outside this conversation (a sub-agent's): counted in the totals and the
   * budget, never in the context used.
   */
  addOutside(model: string, usage: Usage, calls: number): void {
    const m = this.#byModel.get(model) ?? { model, calls: 0, inputTokens: 0, outputTokens: 0 };
    m.calls += calls;
    m.inputTokens += usage.inputTokens;
    m.outputTokens += usage.outputTokens;
    this.#byModel.set(model, m);
  }

  /** Total tokens (input + output) of every call. */
  totalTokens(): number {
    let n = 0;
    for (const m of this.#byModel.values()) n += m.inputTokens + m.outputTokens;
    return n;
  }

  /** The context used now (after a compaction it is the estimate of what remains). */
  setContext(tokens: number): void {
    this.#context = tokens;
  }

  report(): UsageReport {
    const byModel = [...this.#byModel.values()];
    return {
      calls: byModel.reduce((a, m) => a + m.calls, 0),
      inputTokens: byModel.reduce((a, m) => a + m.inputTokens, 0),
      outputTokens: byModel.reduce((a, m) => a + m.outputTokens, 0),
      contextTokens: this.#context,
      peakContextTokens: this.#peak,
      contextWindow: this.contextWindow,
      compactions: this.#compactions,
      compactionTokens: this.#compactionTokens,
      byModel,
    };
  }
}

/**
 * One line for people: tokens in and out, context used of the window.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatUsage, UsageMeter } from "./usage_meter.ts";
 * assert.deepEqual(formatUsage(new UsageMeter(1000).report()), "0 tokens in, 0 out over 0 calls · context 0 of 1000 (0%)");
 * ```
 */
export function formatUsage(r: UsageReport): string {
  const ctx = r.contextWindow
    ? `context ${r.contextTokens} of ${r.contextWindow} (${
      Math.round(100 * r.contextTokens / r.contextWindow)
    }%)`
    : `context ${r.contextTokens} (window unknown)`;
  const comp = r.compactions
    ? ` · ${r.compactions} compaction${r.compactions > 1 ? "s" : ""} (${r.compactionTokens} tokens)`
    : "";
  return `${r.inputTokens} tokens in, ${r.outputTokens} out over ${r.calls} calls · ${ctx}${comp}`;
}
