import assert from "node:assert/strict";
import { join } from "node:path";
import { probeModels } from "../../src/models/probe.ts";
import { ProbeCache } from "../../src/models/probe_cache.ts";
import { OLLAMA_ERRORS, startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { chatModels, MODELS, tempDir, wire } from "./helpers.ts";

const NAMES = MODELS.map((m) => m.name);

Deno.test("probe: one token each; paywall → denied, 5xx/timeout → inconclusive, else accessible", async () => {
  const emu = startOllamaEmulator({
    script: (body) =>
      body.model === "gpt-oss:120b"
        ? { error: OLLAMA_ERRORS.overloaded503 }
        : body.model === "minimax-m3"
        ? { text: "ok", delayMs: 1500 }
        : { text: "ok", usage: { prompt: 12, completion: 1 } },
    models: MODELS,
    paywalled: ["qwen3.5:397b", "deepseek-v4-pro"],
  });
  try {
    const cache = new ProbeCache(join(tempDir(), "probe.json"));
    const base = `${emu.url}/v1`;
    const usage: string[] = [];
    const report = await probeModels({
      baseUrl: base,
      models: NAMES,
      cache,
      makeProvider: wire(emu, 400),
      onUsage: (_t, model) => usage.push(model),
    });
    const status = Object.fromEntries(report.results.map((r) => [r.model, r.status]));
    assert.deepEqual(status, {
      "gpt-oss:20b": "accessible",
      "nemotron-3-nano:30b": "accessible",
      "gpt-oss:120b": "inconclusive",
      "minimax-m3": "inconclusive",
      "qwen3.5:397b": "denied",
      "deepseek-v4-pro": "denied",
    });
    assert.equal(report.stopped, undefined);
    // One token per probe.
    for (const r of emu.requests.filter((r) => r.path === "/v1/chat/completions")) {
      assert.equal(r.body.max_tokens, 1);
    }
    assert.deepEqual(usage.sort(), ["gpt-oss:20b", "nemotron-3-nano:30b"]);
    assert.equal(cache.entitlement(base, "qwen3.5:397b"), "denied");
    assert.equal(cache.get(base, "minimax-m3")?.kind, "timeout");

    // Without --force the denials are kept and not re-sent; with --force they are re-probed.
    const before = chatModels(emu).length;
    const again = await probeModels({
      baseUrl: base,
      models: ["qwen3.5:397b"],
      cache,
      makeProvider: wire(emu),
    });
    assert.equal(again.results[0].status, "denied");
    assert.equal(again.results[0].cached, true);
    assert.equal(chatModels(emu).length, before);
    await probeModels({
      baseUrl: base,
      models: ["qwen3.5:397b"],
      cache,
      makeProvider: wire(emu),
      force: true,
    });
    assert.equal(chatModels(emu).length, before + 1);
  } finally {
    await emu.close();
  }
});

Deno.test("probe: concurrency 429 → waits Retry-After and retries; at most N in flight", async () => {
  let inFlight = 0;
  let peak = 0;
  const emu = startOllamaEmulator({
    script: (_b, i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => inFlight--, 100);
      return i === 0 ? { error: OLLAMA_ERRORS.concurrency429(1) } : { text: "ok", delayMs: 100 };
    },
    models: MODELS,
  });
  try {
    const cache = new ProbeCache(join(tempDir(), "probe.json"));
    const waits: number[] = [];
    const report = await probeModels({
      baseUrl: `${emu.url}/v1`,
      models: NAMES.slice(0, 4),
      cache,
      concurrency: 2,
      makeProvider: wire(emu),
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((r) => setTimeout(r, ms));
      },
    });
    assert.deepEqual(waits, [1000]);
    assert.ok(report.results.every((r) => r.status === "accessible"));
    assert.equal(report.results.reduce((n, r) => n + (r.retries ?? 0), 0), 1);
    assert.equal(chatModels(emu).length, 5);
    assert.ok(peak <= 2, `peak ${peak}`);
  } finally {
    await emu.close();
  }
});

Deno.test("probe: weekly cap stops at once with the service's message", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ error: OLLAMA_ERRORS.weekly429 }),
    models: MODELS,
  });
  try {
    const cache = new ProbeCache(join(tempDir(), "probe.json"));
    const report = await probeModels({
      baseUrl: `${emu.url}/v1`,
      models: NAMES,
      cache,
      makeProvider: wire(emu), // default concurrency 2: the first probe still goes alone
    });
    assert.equal(report.stopped?.reason, "weekly_limit");
    assert.match(report.stopped!.message, /weekly usage limit/);
    assert.equal(chatModels(emu).length, 1);
    assert.ok(report.results.every((r) => r.status === "not_probed"));
    // A stop is not a denial of anything.
    assert.equal(cache.entitlement(`${emu.url}/v1`, NAMES[0]), "not_probed");
  } finally {
    await emu.close();
  }
});
