import assert from "node:assert/strict";
import { join } from "node:path";
import { quotaUnits, UsageStore } from "../../src/models/usage_store.ts";
import { tempDir } from "./helpers.ts";

Deno.test("quota units are tokens × tier weight (unknown tier weighs 4)", () => {
  assert.equal(quotaUnits(100, 20, 1), 120);
  assert.equal(quotaUnits(100, 20, 3), 360);
  assert.equal(quotaUnits(100, 20, null), 480);
});

Deno.test("usage adds up per model, tier, session and day", () => {
  const path = join(tempDir(), "usage.db");
  const s = new UsageStore(path);
  try {
    const day1 = new Date("2026-11-28T10:00:00Z");
    const day2 = new Date("2026-11-29T10:00:00Z");
    s.record({ session: "a", model: "m1", tier: 1, inputTokens: 10, outputTokens: 5, at: day1 });
    s.record({ session: "a", model: "m2", tier: 2, inputTokens: 10, outputTokens: 5, at: day1 });
    s.record({ session: "b", model: "m2", tier: 2, inputTokens: 1, outputTokens: 1, at: day2 });
    s.record({ session: "b", model: "m?", tier: null, inputTokens: 1, outputTokens: 0, at: day2 });
    const u = s.summary();
    assert.equal(u.total.units, 15 + 30 + 4 + 4);
    assert.equal(u.total.calls, 4);
    assert.deepEqual(u.byModel.map((r) => [r.key, r.units]), [["m1", 15], ["m2", 34], ["m?", 4]]);
    assert.deepEqual(u.byTier.map((r) => [r.key, r.units]), [["1", 15], ["2", 34], ["unknown", 4]]);
    assert.deepEqual(u.bySession.map((r) => [r.key, r.units]), [["a", 45], ["b", 8]]);
    assert.deepEqual(u.byDay.map((r) => [r.key, r.units]), [["2026-11-28", 45], ["2026-11-29", 8]]);
    assert.equal(s.summary({ session: "b" }).total.units, 8);
    assert.ok(!("remaining" in u));
  } finally {
    s.close();
  }
});

Deno.test("two processes recording at once lose nothing", async () => {
  const path = join(tempDir(), "usage.db");
  new UsageStore(path).close();
  const script = `
    import { UsageStore } from "${
    new URL("../../src/models/usage_store.ts", import.meta.url).href
  }";
    const s = new UsageStore(Deno.args[0]);
    for (let i = 0; i < 200; i++) {
      s.record({ session: Deno.args[1], model: "m", tier: 2, inputTokens: 3, outputTokens: 1 });
    }
    s.close();`;
  const run = (session: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", "--ext=ts", script, path, session],
      stdout: "null",
      stderr: "piped",
    }).output();
  const outs = await Promise.all([run("p1"), run("p2")]);
  for (const o of outs) assert.equal(o.code, 0, new TextDecoder().decode(o.stderr));
  const s = new UsageStore(path);
  try {
    const u = s.summary();
    assert.equal(u.total.calls, 400);
    assert.equal(u.total.units, 400 * 4 * 2);
    assert.deepEqual(u.bySession.map((r) => [r.key, r.calls]), [["p1", 200], ["p2", 200]]);
  } finally {
    s.close();
  }
});
