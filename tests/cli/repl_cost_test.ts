/**
 * The estimated cost on piped input: with `prices` in the user config the closing line and
 * `/usage` show tokens × price; with no price known for the model both say so, never a number.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";

async function session(prices?: Record<string, unknown>) {
  const iso = isolatedEnv();
  if (prices) {
    Deno.mkdirSync(join(iso.dir, "config", "retie"), { recursive: true });
    Deno.writeTextFileSync(
      join(iso.dir, "config", "retie", "config.json"),
      JSON.stringify({ prices }),
    );
  }
  const ws = Deno.makeTempDirSync({ prefix: "retie-cost-" });
  const emu = startOllamaEmulator({ script: [{ text: "hi there" }] });
  try {
    return await runRetie([
      "--ledger",
      join(iso.dir, "ledger.db"),
      "run",
      ws,
      ...emulatorFlags(emu.url),
    ], {
      env: { ...iso.env, DENO_DIR: denoDir(), OPENAI_API_KEY: "test-key" },
      stdin: "hello\n/usage\n",
    });
  } finally {
    await emu.close();
  }
}

Deno.test({
  name: "cost: configured prices give an estimate in /usage and the closing line",
  sanitizeResources: false,
  fn: async () => {
    // High prices, so that the emulator's few tokens make a visible amount.
    const r = await session({ "m": { input: 5000, output: 10000 } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const usage = /this session: (\d+) tokens in, (\d+) out/.exec(r.stdout);
    assert.ok(usage, r.stdout);
    const usd = (Number(usage[1]) * 5000 + Number(usage[2]) * 10000) / 1e6;
    assert.ok(usd > 0);
    assert.match(r.stdout, new RegExp(`cost: ~\\$${usd.toFixed(2)} est\\.`));
    assert.match(r.stderr, new RegExp(` out · ~\\$${usd.toFixed(2)} est\\. · \\d+s · replay`));
  },
});

Deno.test({
  name: "cost: a model with no known price says 'cost unknown', never a number",
  sanitizeResources: false,
  fn: async () => {
    const r = await session();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /cost: unknown \(no known price for a model used; add it under `prices`/,
    );
    assert.match(r.stderr, / out · cost unknown · \d+s · replay/);
    assert.doesNotMatch(r.stdout + r.stderr, /\$\d/);
  },
});
