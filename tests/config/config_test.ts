/**
 * The config file: validation that names the bad key, precedence flag > env > config > default,
 * budgets, the JSON Schema, and `retie config` showing where each value came from.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  configJsonSchema,
  loadConfig,
  parseBudget,
  parseConfig,
  resolveSettings,
  saveConfig,
} from "../../src/config/mod.ts";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";

Deno.test("config: unknown keys and bad values are named", () => {
  assert.throws(
    () => parseConfig({ provder: "ollama", maxTier: 7, budget: "lots" }, "/c.json"),
    (e: Error) => {
      assert.match(e.message, /unknown key "provder"/);
      assert.match(e.message, /maxTier/);
      assert.match(e.message, /budget/);
      assert.match(e.message, /\/c\.json/);
      return true;
    },
  );
  assert.throws(
    () => parseConfig({ rememberedApprovals: [{ tool: "bash" }] }, "c"),
    /rememberedApprovals\.0\.workspace/,
  );
});

Deno.test("config: reserved sections pass through; a missing file is empty; not JSON is refused", () => {
  const c = parseConfig({ mcpServers: { fs: { command: "x" } }, otlp: {}, agents: {} }, "c");
  assert.deepEqual(c.mcpServers, { fs: { command: "x" } });
  const dir = Deno.makeTempDirSync();
  assert.deepEqual(loadConfig(join(dir, "none.json")), {
    config: {},
    path: join(dir, "none.json"),
    exists: false,
  });
  Deno.writeTextFileSync(join(dir, "bad.json"), "{nope");
  assert.throws(() => loadConfig(join(dir, "bad.json")), /not JSON/);
  saveConfig({ model: "m1", contextWindow: 4096 }, join(dir, "ok.json"));
  assert.equal(loadConfig(join(dir, "ok.json")).config.contextWindow, 4096);
});

Deno.test("config: precedence is flag > env > config > default, each with its source", () => {
  const env: Record<string, string> = { RETIE_MODEL: "from-env", RETIE_BUDGET: "3 units" };
  const s = resolveSettings(
    { model: "from-flag" },
    (n) => env[n],
    { model: "from-config", provider: "anthropic", contextWindow: 9000, maxSteps: 7 },
  );
  assert.deepEqual(s.model, { value: "from-flag", source: "flag", from: "--model" });
  assert.deepEqual(s.budget.value, { kind: "units", amount: 3 });
  assert.equal(s.budget.source, "env");
  assert.equal(s.provider.value, "anthropic");
  assert.equal(s.provider.source, "config");
  assert.equal(s.contextWindow.value, 9000);
  assert.equal(s.maxSteps.value, 7);
  assert.equal(s.mode.source, "default");
  assert.equal(s.mode.value, "default");
  const s2 = resolveSettings({}, (n) => env[n], { model: "from-config" });
  assert.equal(s2.model.value, "from-env");
  assert.throws(() => resolveSettings({ maxSteps: "0" }, () => undefined, {}), /--max-steps/);
  assert.throws(
    () => resolveSettings({}, (n) => (n === "RETIE_PROVIDER" ? "gemini" : undefined), {}),
    /\$RETIE_PROVIDER takes/,
  );
});

Deno.test("config: budgets in tokens or quota units", () => {
  assert.deepEqual(parseBudget("200k tokens", "x"), { kind: "tokens", amount: 200000 });
  assert.deepEqual(parseBudget("500000", "x"), { kind: "tokens", amount: 500000 });
  assert.deepEqual(parseBudget("2.5u", "x"), { kind: "units", amount: 2.5 });
  assert.deepEqual(parseBudget({ tokens: 10 }, "x"), { kind: "tokens", amount: 10 });
  assert.throws(() => parseBudget("0", "--budget"), /--budget/);
  assert.throws(() => parseBudget("many", "--budget"), /--budget takes/);
});

Deno.test("config: the JSON Schema lists every key and refuses others", () => {
  const schema = configJsonSchema();
  const props = Object.keys(schema.properties as Record<string, unknown>);
  for (
    const k of [
      "provider",
      "model",
      "baseUrl",
      "maxTier",
      "contextWindow",
      "budget",
      "defaultMode",
      "rememberedApprovals",
      "mcpServers",
      "agents",
      "otlp",
    ]
  ) assert.ok(props.includes(k), k);
  assert.equal(schema.additionalProperties, false);
});

Deno.test("retie config: effective values and where each came from; a bad file exits 2", async () => {
  const iso = isolatedEnv();
  const cfgDir = join(iso.env.XDG_CONFIG_HOME, "retie");
  Deno.mkdirSync(cfgDir, { recursive: true });
  Deno.writeTextFileSync(
    join(cfgDir, "config.json"),
    JSON.stringify({ provider: "anthropic", model: "claude-x", contextWindow: 50000 }),
  );
  const r = await runRetie(["config", "--json"], {
    env: { ...iso.env, RETIE_MODEL: "env-model" },
  });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.settings.provider, {
    value: "anthropic",
    source: "config",
    from: "provider",
  });
  assert.deepEqual(out.settings.model, { value: "env-model", source: "env", from: "RETIE_MODEL" });
  assert.equal(out.settings.contextWindow.value, 50000);
  assert.equal(out.settings.maxSteps.source, "default");
  const text = await runRetie(["config"], { env: iso.env });
  assert.match(text.stdout, /provider\s+anthropic\s+config provider/);

  Deno.writeTextFileSync(join(cfgDir, "config.json"), JSON.stringify({ modle: "x" }));
  const bad = await runRetie(["config"], { env: iso.env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown key "modle"/);
  const run = await runRetie(["run", iso.dir, "--headless", "-p", "x"], { env: iso.env });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /invalid config/);
});

Deno.test("retie run: a budget in quota units needs the Ollama provider", async () => {
  const iso = isolatedEnv();
  const r = await runRetie([
    "run",
    iso.dir,
    "--headless",
    "-p",
    "x",
    "--provider",
    "anthropic",
    "--model",
    "m",
    "--budget",
    "3 units",
  ], { env: { ...iso.env, ANTHROPIC_API_KEY: "k" } });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--budget is in quota units, which only Ollama meters/);
});
