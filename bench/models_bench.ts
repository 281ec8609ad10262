/**
 * Models: tiering a live list, building a ladder, recording usage.
 * Run: deno bench --allow-all bench/models_bench.ts
 */
import { join } from "node:path";
import { assignTiers } from "../src/models/tiers.ts";
import { Ladder } from "../src/models/ladder.ts";
import { UsageStore } from "../src/models/usage_store.ts";

const LIST = Array.from({ length: 200 }, (_, i) => ({
  name: i % 3 === 0 ? `model-${i}:${(i % 50) + 1}b` : `model-${i}`,
  size: i % 3 === 0 ? 0 : 1e9 * (1 + (i * 37) % 1500),
}));

Deno.bench("assignTiers: 200-model live list", () => {
  assignTiers(LIST);
});

const CANDIDATES = assignTiers(LIST).map((t) => ({ ...t, entitlement: "not_probed" as const }));
Deno.bench("Ladder: build from 200 candidates and escalate 10 times", () => {
  const l = new Ladder({ candidates: CANDIDATES, maxTier: 3 });
  for (let i = 0; i < 10; i++) l.reportFailure("loop");
});

const dir = Deno.makeTempDirSync({ prefix: "retie-bench-usage-" });
const store = new UsageStore(join(dir, "usage.db"));
Deno.bench("UsageStore.record: one call (WAL, own transaction)", () => {
  store.record({
    session: "bench",
    model: "gpt-oss:20b",
    tier: 1,
    inputTokens: 900,
    outputTokens: 80,
  });
});
Deno.bench("UsageStore.summary over the recorded calls", () => {
  store.summary();
});
