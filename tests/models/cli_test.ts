/**
 * The models commands and the ladder across separate processes, under the real permission flags.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { isolatedEnv as isolated, retieFlags, runRetie } from "../helpers/retie_process.ts";
import { OLLAMA_ERRORS, startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { chatModels, denoDirEnv, KEY, MODELS, removeAtUnload } from "./helpers.ts";

/** A temp HOME/XDG env that still uses the parent's Deno module cache. */
function isolatedEnv() {
  const i = isolated();
  removeAtUnload(i.dir);
  return { dir: i.dir, env: { ...i.env, ...denoDirEnv() } };
}

const SCRIPT = fileURLToPath(new URL("./session_script.ts", import.meta.url));

interface SessionOut {
  served: string[];
  events: { type: string; reason?: string; model?: string }[];
  error?: string;
}

/** Runs one ladder session in its own process, as `retie` would (same flags, same env). */
async function session(env: Record<string, string>, args: string[]): Promise<SessionOut> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...retieFlags(true), SCRIPT, ...args],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(text.trim().split("\n").at(-1)!);
}

Deno.test("retie models --json: live tiers, a never-seen model tiered, nothing probed", async () => {
  const emu = startOllamaEmulator({
    script: [],
    models: [...MODELS, { name: "brand-new-coder:250b", size: 0 }, { name: "mystery", size: 0 }],
  });
  const { env } = isolatedEnv();
  try {
    const r = await runRetie(["models", "--json", "--base-url", `${emu.url}/v1`], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const t = Object.fromEntries(out.models.map((m: { name: string }) => [m.name, m]));
    assert.equal(t["gpt-oss:20b"].tier, 1);
    assert.equal(t["qwen3.5:397b"].tier, 3);
    assert.equal(t["deepseek-v4-pro"].tier, 4);
    assert.equal(t["brand-new-coder:250b"].tier, 3);
    assert.equal(t["brand-new-coder:250b"].basis, "params");
    assert.equal(t["mystery"].tier, null);
    assert.ok(out.models.every((m: { entitlement: string }) => m.entitlement === "not_probed"));
    const table = await runRetie(["models", "--base-url", `${emu.url}/v1`], { env });
    assert.match(table.stdout, /MODEL\s+TIER\s+SIZE\s+FROM\s+ENTITLEMENT/);
    assert.match(table.stdout, /gpt-oss:20b\s+1\s+13\.8 GB\s+size\s+not probed/);
  } finally {
    await emu.close();
  }
});

Deno.test("paywall 403 in a session → dropped for good, remembered by a new process", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ text: "hi" }),
    models: MODELS,
    paywalled: ["gpt-oss:20b"],
    paywallStatus: 403,
  });
  const { env } = isolatedEnv();
  const e = { ...env, OLLAMA_API_KEY: KEY };
  const base = `${emu.url}/v1`;
  try {
    const first = await session(e, [base, "s1", "1"]);
    assert.equal(first.error, undefined);
    assert.deepEqual(first.served, ["nemotron-3-nano:30b"]);
    assert.ok(first.events.some((x) => x.type === "drop" && x.model === "gpt-oss:20b"));
    const second = await session(e, [base, "s2", "1"]);
    assert.deepEqual(second.served, ["nemotron-3-nano:30b"]);
    assert.equal(chatModels(emu).filter((m) => m === "gpt-oss:20b").length, 1);
    // Other commands see it too.
    const models = JSON.parse(
      (await runRetie(["models", "--json", "--base-url", base], { env })).stdout,
    );
    const g = models.models.find((m: { name: string }) => m.name === "gpt-oss:20b");
    assert.equal(g.entitlement, "denied");
    const usage = JSON.parse(
      (await runRetie(["usage", "--json", "--base-url", base], { env })).stdout,
    );
    assert.equal(usage.ladder[0].model, "nemotron-3-nano:30b");
    assert.deepEqual(usage.denied, ["gpt-oss:20b"]);
  } finally {
    await emu.close();
  }
});

Deno.test("retie probe: 402 → denied and kept across processes until --force", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ text: "o", usage: { prompt: 8, completion: 1 } }),
    models: MODELS.slice(0, 3),
    paywalled: ["gpt-oss:120b"],
    paywallStatus: 402,
  });
  const { env } = isolatedEnv();
  const e = { ...env, OLLAMA_API_KEY: KEY };
  const base = `${emu.url}/v1`;
  try {
    const r = await runRetie(["probe", "--base-url", base], { env: e });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /gpt-oss:120b: denied \(paywall: This model is not in the Free plan/);
    assert.match(r.stdout, /gpt-oss:20b: accessible/);
    const n = chatModels(emu).length;
    assert.equal(n, 3);
    const again = await runRetie(["probe", "--base-url", base, "--model", "gpt-oss:120b"], {
      env: e,
    });
    assert.match(again.stdout, /gpt-oss:120b: denied \(cached; --force to re-probe\)/);
    assert.equal(chatModels(emu).length, n);
    await runRetie(["probe", "--base-url", base, "--model", "gpt-oss:120b", "--force"], { env: e });
    assert.equal(chatModels(emu).length, n + 1);
    // Probes are usage too: 2 accepted probes × 9 tokens × tier 1.
    const usage = JSON.parse(
      (await runRetie(["usage", "--json", "--base-url", base], { env })).stdout,
    );
    assert.equal(usage.usage.total.units, 18);
    assert.equal(usage.usage.total.calls, 2);
  } finally {
    await emu.close();
  }
});

Deno.test("retie probe: weekly cap → exactly one request, the service's message, exit 1", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ error: OLLAMA_ERRORS.weekly429 }),
    models: MODELS,
  });
  const { env } = isolatedEnv();
  try {
    const r = await runRetie(["probe", "--base-url", `${emu.url}/v1`], {
      env: { ...env, OLLAMA_API_KEY: KEY },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /you \(someone\) have reached your weekly usage limit/);
    assert.match(r.stderr, /probing stopped/);
    assert.equal(chatModels(emu).length, 1);
  } finally {
    await emu.close();
  }
});

Deno.test("retie probe without OLLAMA_API_KEY says which variable to set", async () => {
  const { env } = isolatedEnv();
  const r = await runRetie(["probe", "--base-url", "http://127.0.0.1:9/v1"], { env });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /OLLAMA_API_KEY/);
});

Deno.test("usage units add up within a session and across processes", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ text: "hi", usage: { prompt: 10, completion: 5 } }),
    models: MODELS,
  });
  const { env } = isolatedEnv();
  const e = { ...env, OLLAMA_API_KEY: KEY };
  const base = `${emu.url}/v1`;
  try {
    const a = await session(e, [base, "sa", "2"]); // 2 × 15 tokens × tier 1
    const b = await session(e, [base, "sb", "1", "--model", "gpt-oss:120b"]); // 15 × tier 2
    assert.deepEqual(a.served, ["gpt-oss:20b", "gpt-oss:20b"]);
    assert.deepEqual(b.served, ["gpt-oss:120b"]);
    const r = await runRetie(["usage", "--json", "--base-url", base], { env });
    assert.equal(r.code, 0, r.stderr);
    const u = JSON.parse(r.stdout).usage;
    assert.equal(u.total.units, 60);
    assert.deepEqual(u.bySession.map((s: { key: string; units: number }) => [s.key, s.units]), [
      ["sa", 30],
      ["sb", 30],
    ]);
    assert.deepEqual(u.byTier.map((s: { key: string; units: number }) => [s.key, s.units]), [
      ["1", 30],
      ["2", 30],
    ]);
    const text = await runRetie(["usage", "--base-url", base], { env });
    assert.match(text.stdout, /total: 60 quota units over 3 calls/);
    assert.doesNotMatch(text.stdout, /remaining/i);
    assert.match(text.stdout, /1\. gpt-oss:20b\s+tier 1\s+accessible/);
  } finally {
    await emu.close();
  }
});

Deno.test("--max-tier 2 in a separate process never reaches a tier-3 model", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ error: OLLAMA_ERRORS.server500 }),
    models: MODELS,
  });
  const { env } = isolatedEnv();
  try {
    const out = await session({ ...env, OLLAMA_API_KEY: KEY }, [
      `${emu.url}/v1`,
      "s",
      "1",
      "--max-tier",
      "2",
    ]);
    assert.match(out.error ?? "", /no model left/);
    const called = new Set(chatModels(emu));
    assert.deepEqual([...called], [
      "gpt-oss:20b",
      "nemotron-3-nano:30b",
      "gpt-oss:120b",
      "minimax-m3",
    ]);
  } finally {
    await emu.close();
  }
});

Deno.test("under the shipped flags a local model server is refused with a pointer to retie:local", async () => {
  const emu = startOllamaEmulator({ script: [{ text: "never sent" }], models: MODELS });
  const { env } = isolatedEnv();
  try {
    const models = await runRetie(["models", "--base-url", `${emu.url}/v1`], { env, local: false });
    assert.equal(models.code, 1, models.stderr);
    assert.match(models.stderr, /cannot fetch the model list/);
    assert.match(models.stderr, /deno task retie:local/);
    const ws = Deno.makeTempDirSync({ prefix: "retie-loopback-" });
    removeAtUnload(ws);
    const run = await runRetie([
      "run",
      ws,
      "--headless",
      "-p",
      "hi",
      "--provider",
      "openai",
      "--model",
      "gpt-oss:20b",
      "--base-url",
      `${emu.url}/v1`,
    ], { env: { ...env, OPENAI_API_KEY: KEY }, local: false });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /network \(gpt-oss:20b\)/);
    assert.match(run.stderr, /deno task retie:local/);
    assert.equal(emu.requests.length, 0, "nothing reached the server");
  } finally {
    await emu.close();
  }
});
