/**
 * The session's estimated money cost for the closing line and `/usage`: the price table in
 * `src/models/prices.ts` with the config's `prices` on top. Ollama sessions show quota units
 * instead, unless the config prices every model they used.
 *
 * @module
 */
import { loadConfig } from "../config/mod.ts";
import { estimateCost, formatCost, type Price } from "../models/mod.ts";

/**
 * The config's `prices` (empty when the file has none or cannot be read).
 *
 * @example
 * ```ts ignore
 * configPrices(); // { "gpt-4o": { input: 2.5, output: 10 } }
 * ```
 */
export function configPrices(): Record<string, Price> {
  try {
    return loadConfig().config.prices ?? {};
  } catch {
    return {}; // an invalid file was already reported when the session started
  }
}

/**
 * The cost as written, or undefined when it is not shown (Ollama without configured prices).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { costText } from "./session_cost.ts";
 * assert.equal(costText("anthropic", [{ model: "claude-sonnet-4-5", inputTokens: 100_000, outputTokens: 10_000 }], {}), "~$0.45 est.");
 * assert.equal(costText("openai", [{ model: "gpt-4o", inputTokens: 10, outputTokens: 1 }], {}), "cost unknown");
 * assert.equal(costText("ollama", [{ model: "gpt-oss:120b", inputTokens: 10, outputTokens: 1 }], {}), undefined);
 * ```
 */
export function costText(
  provider: string,
  byModel: { model: string; inputTokens: number; outputTokens: number }[],
  prices: Record<string, Price> = configPrices(),
): string | undefined {
  const est = estimateCost(byModel, provider, prices);
  if (provider === "ollama" && "unknown" in est) return undefined;
  return formatCost(est);
}
