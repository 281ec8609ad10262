/** The cost estimate: the price table, config overrides, unknown models, and the closing line. */
import assert from "node:assert/strict";
import {
  ANTHROPIC_PRICES,
  estimateCost,
  formatCost,
  priceOf,
  PRICES_TAKEN,
} from "../../src/models/mod.ts";
import { costText } from "../../src/cli/session_cost.ts";
import { summaryLine } from "../../src/ui/session_lists.ts";

Deno.test("prices: table names match themselves, their dated snapshots and -latest only", () => {
  assert.match(PRICES_TAKEN, /^\d{4}-\d{2}-\d{2}$/);
  assert.deepEqual(priceOf("claude-opus-4-5-20251101", "anthropic"), { input: 5, output: 25 });
  assert.deepEqual(priceOf("claude-opus-4-1", "anthropic"), { input: 15, output: 75 });
  assert.deepEqual(priceOf("claude-3-5-haiku-latest", "anthropic"), { input: 0.8, output: 4 });
  // A newer model never borrows an older one's price.
  assert.equal(priceOf("claude-opus-4-7", "anthropic"), null);
  assert.equal(priceOf("claude-sonnet-4-5-experimental", "anthropic"), null);
  // The table is Anthropic's: the same name through another service has no known price.
  assert.equal(priceOf("claude-sonnet-4-5", "openai"), null);
  for (const p of Object.values(ANTHROPIC_PRICES)) assert.ok(p.output >= p.input && p.input > 0);
});

Deno.test("prices: config overrides win; exact names before prefixes, longest prefix first", () => {
  const own = {
    "claude-sonnet-4-5": { input: 1, output: 2 },
    "gpt-*": { input: 9, output: 9 },
    "gpt-4o*": { input: 2.5, output: 10 },
  };
  assert.deepEqual(priceOf("claude-sonnet-4-5", "anthropic", own), { input: 1, output: 2 });
  assert.deepEqual(priceOf("gpt-4o-mini", "openai", own), { input: 2.5, output: 10 });
  assert.deepEqual(priceOf("gpt-5", "openai", own), { input: 9, output: 9 });
});

Deno.test("prices: the estimate adds every model's tokens; one unknown model makes it unknown", () => {
  const used = [
    { model: "claude-sonnet-4-5", inputTokens: 2_000_000, outputTokens: 100_000 },
    { model: "claude-haiku-4-5", inputTokens: 500_000, outputTokens: 0 },
  ];
  const est = estimateCost(used, "anthropic");
  assert.ok("usd" in est);
  assert.equal(Math.round(est.usd * 100), 6 * 100 + 150 + 50); // $6 + $1.50 + $0.50
  assert.equal(formatCost(est), "~$8.00 est.");
  assert.deepEqual(
    estimateCost([...used, { model: "claude-next", inputTokens: 1, outputTokens: 1 }], "anthropic"),
    { unknown: ["claude-next"] },
  );
  // A model that used no tokens does not make the cost unknown.
  assert.deepEqual(estimateCost([{ model: "x", inputTokens: 0, outputTokens: 0 }], "openai"), {
    usd: 0,
  });
  assert.equal(formatCost({ usd: 0.004 }), "<$0.01 est.");
});

Deno.test("prices: the closing line shows the cost, 'cost unknown', or Ollama's units", () => {
  const base = { id: "s1", actions: 1, filesChanged: 0, ms: 5000, ledgerPath: "/l.db" };
  const line = (provider: string, model: string, units?: number) =>
    summaryLine({
      ...base,
      inputTokens: 100_000,
      outputTokens: 20_000,
      units,
      cost: costText(provider, [{ model, inputTokens: 100_000, outputTokens: 20_000 }], {}),
    });
  assert.equal(
    line("anthropic", "claude-sonnet-4-5"),
    "session s1 · 1 action · 0 files changed · 100,000 tokens in, 20,000 out · ~$0.60 est. · 5s · replay: retie --ledger /l.db replay s1",
  );
  assert.match(line("openai", "gpt-4o"), / · cost unknown · 5s · /);
  const ollama = line("ollama", "gpt-oss:120b", 3);
  assert.match(ollama, /20,000 out \(3 quota units\) · 5s/);
  assert.doesNotMatch(ollama, /cost|\$/);
});
