import assert from "node:assert/strict";
import { join } from "node:path";
import { Ladder, type LadderEvent, LadderStopped, rungs } from "../../src/models/ladder.ts";
import { createLadderProvider } from "../../src/models/ladder_provider.ts";
import { ProbeCache } from "../../src/models/probe_cache.ts";
import { modelStatuses, toCandidates } from "../../src/models/model_list.ts";
import { ProviderError } from "../../src/providers/errors.ts";
import {
  type EmulatedCall,
  type Emulator,
  OLLAMA_ERRORS,
  startOllamaEmulator,
} from "../emulators/ollama_emulator.ts";
import { chatModels, HELLO, MODELS, tempDir, wire } from "./helpers.ts";

const OK: EmulatedCall = { text: "hi", usage: { prompt: 10, completion: 2 } };

/** A ladder + wrapper provider over the emulator, with a real probe cache file. */
function setup(
  emu: Emulator,
  o: { maxTier?: number; pinned?: string; timeoutMs?: number; cachePath?: string } = {},
) {
  const dir = tempDir();
  const cache = new ProbeCache(o.cachePath ?? join(dir, "probe.json"));
  const base = `${emu.url}/v1`;
  const events: LadderEvent[] = [];
  const waits: number[] = [];
  const ladder = new Ladder({
    candidates: toCandidates(modelStatuses(MODELS, cache.base(base))),
    maxTier: o.maxTier,
    pinned: o.pinned,
    onEvent: (e) => events.push(e),
  });
  const provider = createLadderProvider({
    ladder,
    makeProvider: wire(emu, o.timeoutMs),
    onDenied: (model, err) =>
      cache.set(base, model, {
        status: "denied",
        at: new Date().toISOString(),
        kind: err.kind,
        message: err.serviceMessage,
      }),
    sleep: (ms) => {
      waits.push(ms);
      return new Promise((r) => setTimeout(r, ms));
    },
  });
  return { cache, base, events, waits, ladder, provider, dir };
}

Deno.test("rungs: cheapest first, denied and over-tier removed, unknown tier is heaviest", () => {
  const r = rungs([
    { name: "heavy", tier: 4, entitlement: "accessible" },
    { name: "unknown", tier: null, entitlement: "accessible" },
    { name: "light-unprobed", tier: 1, entitlement: "not_probed" },
    { name: "light-ok", tier: 1, entitlement: "accessible" },
    { name: "light-denied", tier: 1, entitlement: "denied" },
    { name: "mid", tier: 2, entitlement: "inconclusive" },
  ]);
  assert.deepEqual(r.map((c) => c.name), ["light-ok", "light-unprobed", "mid", "heavy", "unknown"]);
  const capped = rungs([{ name: "unknown", tier: null, entitlement: "accessible" }], 4);
  assert.deepEqual(capped, []);
});

Deno.test("a ladder with nothing usable is stopped from the start and says why", () => {
  const events: LadderEvent[] = [];
  const l = new Ladder({
    candidates: [{ name: "big", tier: 3, entitlement: "accessible" }],
    maxTier: 2,
    onEvent: (e) => events.push(e),
  });
  assert.equal(l.current(), null);
  assert.equal(events[0].type, "stop");
  assert.match(l.stopped()!.message, /--max-tier 2/);
});

for (const status of [403, 402] as const) {
  Deno.test(`paywall ${status} → next model, dropped for good, saved in the probe cache`, async () => {
    const emu = startOllamaEmulator({
      script: () => OK,
      models: MODELS,
      paywalled: ["gpt-oss:20b"],
      paywallStatus: status,
    });
    try {
      const s = setup(emu);
      const turn = await s.provider.complete(HELLO);
      assert.equal(turn.model, "nemotron-3-nano:30b");
      assert.deepEqual(chatModels(emu), ["gpt-oss:20b", "nemotron-3-nano:30b"]);
      assert.deepEqual(s.events.map((e) => e.type), ["start", "drop", "escalate"]);
      const esc = s.events[2] as Extract<LadderEvent, { type: "escalate" }>;
      assert.equal(esc.reason, "paywall");
      assert.match(
        esc.detail ?? "",
        status === 403 ? /requires a subscription/ : /not in the Free plan/,
      );
      assert.equal(s.cache.entitlement(s.base, "gpt-oss:20b"), "denied");
      // The same session never goes back to it.
      await s.provider.complete(HELLO);
      assert.equal(chatModels(emu).filter((m) => m === "gpt-oss:20b").length, 1);
      // A ladder built from the cache (as a new session would) never starts there.
      const fresh = new Ladder({
        candidates: toCandidates(modelStatuses(MODELS, new ProbeCache(s.cache.path).base(s.base))),
      });
      assert.equal(fresh.current(), "nemotron-3-nano:30b");
      assert.ok(!fresh.remaining().includes("gpt-oss:20b"));
    } finally {
      await emu.close();
    }
  });
}

Deno.test("session-limit 429 → escalation to the next model, not a denial", async () => {
  const emu = startOllamaEmulator({
    script: (body) => body.model === "gpt-oss:20b" ? { error: OLLAMA_ERRORS.session429 } : OK,
    models: MODELS,
  });
  try {
    const s = setup(emu);
    const turn = await s.provider.complete(HELLO);
    assert.equal(turn.model, "nemotron-3-nano:30b");
    const esc = s.events.find((e) => e.type === "escalate") as Extract<
      LadderEvent,
      { type: "escalate" }
    >;
    assert.equal(esc.reason, "session_limit");
    assert.equal(esc.from, "gpt-oss:20b");
    assert.equal(s.cache.entitlement(s.base, "gpt-oss:20b"), "not_probed");
  } finally {
    await emu.close();
  }
});

Deno.test("weekly-cap 429 → stop after exactly one request, service message kept", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ error: OLLAMA_ERRORS.weekly429 }),
    models: MODELS,
  });
  try {
    const s = setup(emu);
    const err = await s.provider.complete(HELLO).then(() => null, (e) => e);
    assert.ok(err instanceof LadderStopped, String(err));
    assert.equal(err.reason, "weekly_limit");
    assert.match(err.serviceMessage ?? "", /weekly usage limit/);
    assert.match(err.message, /weekly usage limit/);
    assert.equal(chatModels(emu).length, 1);
    // Later turns throw without sending anything.
    await assert.rejects(s.provider.complete(HELLO), LadderStopped);
    assert.equal(chatModels(emu).length, 1);
    const stop = s.events.find((e) => e.type === "stop")!;
    assert.equal(stop.reason, "weekly_limit");
  } finally {
    await emu.close();
  }
});

Deno.test("concurrency 429 with Retry-After → waited as told and retried on the same model", async () => {
  const emu = startOllamaEmulator({
    script: (_b, i) => i === 0 ? { error: OLLAMA_ERRORS.concurrency429(1) } : OK,
    models: MODELS,
  });
  try {
    const s = setup(emu);
    const turn = await s.provider.complete(HELLO);
    assert.equal(turn.text, "hi");
    assert.deepEqual(chatModels(emu), ["gpt-oss:20b", "gpt-oss:20b"]);
    assert.deepEqual(s.waits, [1000]);
    assert.ok(!s.events.some((e) => e.type === "escalate"));
  } finally {
    await emu.close();
  }
});

Deno.test("timeout → escalates for this turn but the model is not dropped", async () => {
  const emu = startOllamaEmulator({
    script: (body) => body.model === "gpt-oss:20b" ? { ...OK, delayMs: 1500 } : OK,
    models: MODELS,
  });
  try {
    const s = setup(emu, { timeoutMs: 300 });
    const turn = await s.provider.complete(HELLO);
    assert.equal(turn.model, "nemotron-3-nano:30b");
    const esc = s.events.find((e) => e.type === "escalate") as Extract<
      LadderEvent,
      { type: "escalate" }
    >;
    assert.equal(esc.reason, "timeout");
    assert.ok(!s.events.some((e) => e.type === "drop"));
    assert.equal(s.cache.entitlement(s.base, "gpt-oss:20b"), "not_probed");
  } finally {
    await emu.close();
  }
});

Deno.test("--max-tier 2 never calls a tier-3 model, even when tiers 1 and 2 all fail", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ error: OLLAMA_ERRORS.server500 }),
    models: MODELS,
  });
  try {
    const s = setup(emu, { maxTier: 2 });
    const err = await s.provider.complete(HELLO).then(() => null, (e) => e);
    assert.ok(err instanceof LadderStopped);
    assert.equal(err.reason, "no_model_left");
    assert.deepEqual(chatModels(emu), [
      "gpt-oss:20b",
      "nemotron-3-nano:30b",
      "gpt-oss:120b",
      "minimax-m3",
    ]);
    assert.equal(s.events.at(-1)!.type, "stop");
    const stop = s.events.at(-1) as Extract<LadderEvent, { type: "stop" }>;
    assert.match(stop.detail ?? "", /--max-tier 2/);
  } finally {
    await emu.close();
  }
});

Deno.test("reportFailure (malformed tool calls, loop) escalates; never without a failure", async () => {
  const emu = startOllamaEmulator({ script: () => OK, models: MODELS });
  try {
    const s = setup(emu);
    await s.provider.complete(HELLO);
    await s.provider.complete(HELLO);
    assert.deepEqual(chatModels(emu), ["gpt-oss:20b", "gpt-oss:20b"]);
    assert.equal(
      s.ladder.reportFailure("malformed_tool_calls", "3 in a row"),
      "nemotron-3-nano:30b",
    );
    assert.equal(s.ladder.reportFailure("loop"), "gpt-oss:120b");
    await s.provider.complete(HELLO);
    assert.equal(chatModels(emu).at(-1), "gpt-oss:120b");
    const reasons = s.events.filter((e) => e.type === "escalate").map((e) => e.reason);
    assert.deepEqual(reasons, ["malformed_tool_calls", "loop"]);
  } finally {
    await emu.close();
  }
});

Deno.test("--model pins: failures are reported honestly and nothing escalates", async () => {
  const emu = startOllamaEmulator({
    script: () => ({ error: OLLAMA_ERRORS.server500 }),
    models: MODELS,
  });
  try {
    const s = setup(emu, { pinned: "gpt-oss:120b" });
    const err = await s.provider.complete(HELLO).then(() => null, (e) => e);
    assert.ok(err instanceof ProviderError);
    assert.equal(err.kind, "server");
    assert.deepEqual(chatModels(emu), ["gpt-oss:120b"]);
    assert.equal(s.ladder.reportFailure("loop"), "gpt-oss:120b");
    assert.deepEqual(s.events.map((e) => e.type), ["start", "failure", "failure"]);
    assert.ok(!s.events.some((e) => e.type === "escalate"));
  } finally {
    await emu.close();
  }
});

Deno.test("a bad key stops at once and names OLLAMA_API_KEY", async () => {
  const emu = startOllamaEmulator({ script: () => OK, models: MODELS, apiKey: "other-key" });
  try {
    const s = setup(emu);
    const err = await s.provider.complete(HELLO).then(() => null, (e) => e);
    assert.ok(err instanceof LadderStopped);
    assert.equal(err.reason, "auth");
    assert.match(err.hint ?? "", /OLLAMA_API_KEY/);
    assert.equal(chatModels(emu).length, 1);
  } finally {
    await emu.close();
  }
});
