/**
 * The scripted provider and the provider factory (keys, base URLs).
 */
import assert from "node:assert/strict";
import { RetieError } from "../../src/core/errors.ts";
import { ProviderError } from "../../src/providers/errors.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { createProvider, DEFAULT_BASE_URLS, isLocalBaseUrl } from "../../src/providers/factory.ts";
import type { TurnRequest } from "../../src/providers/types.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { startAnthropicEmulator } from "../emulators/anthropic_emulator.ts";

const req: TurnRequest = { system: "", messages: [{ role: "user", content: "go" }], tools: [] };

Deno.test("scripted: follows the script, streams, raw string arguments kept, errors thrown", async () => {
  const err = new ProviderError("session_limit", "session usage limit", { status: 429 });
  const p = createScriptedProvider([
    {
      reasoning: "plan it",
      text: "Reading the file.",
      toolCalls: [{ name: "read_file", arguments: { path: "a.ts" } }],
    },
    { toolCalls: [{ name: "edit", arguments: '{"path": "a.ts",' }] },
    { error: err },
    { text: "Done." },
  ], "script-1");
  const seen: string[] = [];
  const t1 = await p.complete(req, {
    onText: (d) => seen.push(d),
    onReasoning: (d) => seen.push(`(${d})`),
  });
  assert.equal(seen.join(""), "(plan )(it)Reading the file.");
  assert.equal(t1.finishReason, "tool_calls");
  assert.equal(t1.reasoning, "plan it");
  assert.deepEqual(t1.toolCalls[0], {
    id: "call_scripted_0_0",
    name: "read_file",
    argumentsJson: '{"path":"a.ts"}',
  });
  const t2 = await p.complete(req);
  assert.equal(t2.toolCalls[0].argumentsJson, '{"path": "a.ts",');
  await assert.rejects(p.complete(req), (e) => e === err);
  const t4 = await p.complete(req);
  assert.equal(t4.text, "Done.");
  assert.equal(t4.finishReason, "stop");
  assert.equal(t4.model, "script-1");
  assert.equal(p.requests.length, 4);
  await assert.rejects(p.complete(req), /no turn 5 in a script of 4/);
});

Deno.test("scripted: a function script sees the request; reasoning only → reasoning_exhausted", async () => {
  const p = createScriptedProvider((r, i) =>
    i === 0 ? { reasoning: "hmm" } : { text: `got ${r.messages.length}` }
  );
  assert.equal((await p.complete(req)).finishReason, "reasoning_exhausted");
  assert.equal((await p.complete(req)).text, "got 1");
});

Deno.test("factory: a missing key names the variable and where to get one (exit 2)", () => {
  const env = () => undefined;
  for (
    const [provider, variable, url] of [
      ["ollama", "OLLAMA_API_KEY", "https://ollama.com/settings/keys"],
      ["anthropic", "ANTHROPIC_API_KEY", "https://console.anthropic.com/settings/keys"],
      ["openai", "OPENAI_API_KEY", "https://platform.openai.com/api-keys"],
    ] as const
  ) {
    assert.throws(() => createProvider({ provider, model: "m", env }), (e) => {
      assert.ok(e instanceof RetieError);
      assert.equal(e.exitCode, 2);
      assert.match(e.message, new RegExp(variable));
      assert.match(e.hint ?? "", new RegExp(url.replace(/[.]/g, "\\.")));
      return true;
    });
  }
  assert.throws(
    () => createProvider({ provider: "ollama", model: "m", baseUrl: "ftp://x", env: () => "k" }),
    /bad base URL/,
  );
  assert.throws(
    () => createProvider({ provider: "ollama", model: " ", env: () => "k" }),
    /no model/,
  );
  assert.equal(DEFAULT_BASE_URLS.ollama, "https://ollama.com/v1");
  assert.ok(isLocalBaseUrl("http://127.0.0.1:11434/v1"));
  assert.ok(isLocalBaseUrl("http://[::1]:11434/v1"));
  assert.ok(!isLocalBaseUrl("https://ollama.com/v1"));
});

Deno.test("factory: a local ollama runs without a key (sends 'ollama'); keys come from env", async () => {
  const emu = startOllamaEmulator({
    script: [{ text: "local" }, { text: "keyed" }],
    apiKey: "ollama",
  });
  const anth = startAnthropicEmulator({ script: [{ text: "claude" }], apiKey: "sk-ant" });
  try {
    const local = createProvider({
      provider: "ollama",
      model: "m",
      baseUrl: `${emu.url}/v1`,
      env: () => undefined,
    });
    assert.equal((await local.complete(req)).text, "local");
    assert.equal(emu.requests[0].headers["authorization"], "Bearer ollama");
    const keyed = createProvider({
      provider: "openai",
      model: "m",
      baseUrl: `${emu.url}/v1`,
      env: (n) => (n === "OPENAI_API_KEY" ? "ollama" : undefined),
    });
    assert.equal(keyed.name, "openai");
    assert.equal((await keyed.complete(req)).text, "keyed");
    // Anthropic always needs its key, even locally.
    assert.throws(
      () =>
        createProvider({
          provider: "anthropic",
          model: "c",
          baseUrl: anth.url,
          env: () => undefined,
        }),
      /ANTHROPIC_API_KEY/,
    );
    const a = createProvider({
      provider: "anthropic",
      model: "c",
      baseUrl: anth.url,
      env: (n) => (n === "ANTHROPIC_API_KEY" ? "sk-ant" : undefined),
    });
    assert.equal((await a.complete(req)).text, "claude");
  } finally {
    await emu.close();
    await anth.close();
  }
});
