/**
 * Estimated money cost of a session: a small table of list prices (USD per million tokens) for
 * the Anthropic models retie knows, which the `prices` key of the user config can extend or
 * override. A model with no known price makes the cost unknown — never a guessed number.
 *
 * The table is an ESTIMATE: list prices as published by Anthropic on {@link PRICES_TAKEN}. It
 * ignores prompt-caching discounts and surcharges, batch discounts and long-context (over 200k
 * tokens) rates, so a bill can differ. Ollama meters quota units instead (shown as units).
 *
 * @module
 */

/** USD per million tokens, in and out. */
export interface Price {
  /** USD per million input (prompt) tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

/** When the prices in {@link ANTHROPIC_PRICES} were taken from Anthropic's pricing page. */
export const PRICES_TAKEN = "2025-11-30";

/**
 * Anthropic list prices (USD per million tokens), by model name. A name matches the model itself,
 * its dated snapshots (`claude-sonnet-4-5-20250929`) and its `-latest` alias — nothing else, so a
 * newer model never borrows an older one's price.
 */
export const ANTHROPIC_PRICES: Record<string, Price> = {
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4": { input: 15, output: 75 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-sonnet-4": { input: 3, output: 15 },
  "claude-3-7-sonnet": { input: 3, output: 15 },
  "claude-3-5-sonnet": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
  "claude-3-opus": { input: 15, output: 75 },
  "claude-3-haiku": { input: 0.25, output: 1.25 },
};

function matches(model: string, name: string): boolean {
  if (name.endsWith("*")) return model.startsWith(name.slice(0, -1));
  if (model === name) return true;
  if (!model.startsWith(name + "-")) return false;
  return /^(\d{8}|latest)$/.test(model.slice(name.length + 1));
}

/**
 * The price of a model: the config's `prices` first (an exact name, or a prefix ending in `*`,
 * longest first), then — for the Anthropic provider only — the table; null when unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { priceOf } from "./prices.ts";
 * assert.deepEqual(priceOf("claude-sonnet-4-5-20250929", "anthropic"), { input: 3, output: 15 });
 * assert.equal(priceOf("claude-sonnet-9", "anthropic"), null);
 * assert.deepEqual(priceOf("gpt-4o", "openai", { "gpt-4o*": { input: 2.5, output: 10 } }), { input: 2.5, output: 10 });
 * ```
 */
export function priceOf(
  model: string,
  provider: string,
  overrides: Record<string, Price> = {},
): Price | null {
  const own = Object.keys(overrides).filter((k) => matches(model, k))
    .sort((a, b) => (a.endsWith("*") ? 1 : 0) - (b.endsWith("*") ? 1 : 0) || b.length - a.length);
  if (own.length) return overrides[own[0]];
  if (provider !== "anthropic") return null;
  const known = Object.keys(ANTHROPIC_PRICES).filter((k) => matches(model, k));
  return known.length ? ANTHROPIC_PRICES[known[0]] : null;
}

/** A session's estimated cost: dollars, or unknown with the models that have no price. */
export type CostEstimate = { usd: number } | { unknown: string[] };

/**
 * The estimated cost of the tokens each model used; unknown when any model used has no price.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateCost } from "./prices.ts";
 * const r = estimateCost([{ model: "claude-haiku-4-5", inputTokens: 1_000_000, outputTokens: 200_000 }], "anthropic");
 * assert.deepEqual(r, { usd: 2 });
 * ```
 */
export function estimateCost(
  byModel: { model: string; inputTokens: number; outputTokens: number }[],
  provider: string,
  overrides: Record<string, Price> = {},
): CostEstimate {
  let usd = 0;
  const unknown: string[] = [];
  for (const m of byModel) {
    if (m.inputTokens === 0 && m.outputTokens === 0) continue;
    const p = priceOf(m.model, provider, overrides);
    if (!p) unknown.push(m.model);
    else usd += (m.inputTokens * p.input + m.outputTokens * p.output) / 1_000_000;
  }
  return unknown.length ? { unknown } : { usd };
}

/**
 * A cost as people read it: `~$0.42`, `<$0.01`, or `cost unknown`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCost } from "./prices.ts";
 * assert.equal(formatCost({ usd: 0.4213 }), "~$0.42 est.");
 * assert.equal(formatCost({ unknown: ["m"] }), "cost unknown");
 * ```
 */
export function formatCost(c: CostEstimate): string {
  if ("unknown" in c) return "cost unknown";
  if (c.usd === 0) return "~$0.00 est.";
  if (c.usd < 0.01) return "<$0.01 est.";
  return `~$${c.usd.toFixed(2)} est.`;
}
