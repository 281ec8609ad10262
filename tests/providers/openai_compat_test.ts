/**
 * The OpenAI-compatible provider through the real `openai` client against the Ollama emulator.
 */
import assert from "node:assert/strict";
import { createOpenAICompatProvider } from "../../src/providers/openai_compat.ts";
import { ProviderError } from "../../src/providers/errors.ts";
import type { ChatMessage, TurnRequest } from "../../src/providers/types.ts";
import {
  type EmulatedCall,
  OLLAMA_ERRORS,
  startOllamaEmulator,
} from "../emulators/ollama_emulator.ts";

const TOOLS = [{
  name: "read_file",
  description: "Read a file",
  parameters: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
  },
}];

const req = (messages: ChatMessage[] = [{ role: "user", content: "hi" }]): TurnRequest => ({
  system: "be brief",
  messages,
  tools: TOOLS,
});

async function withEmu<T>(
  script: EmulatedCall[],
  fn: (
    p: ReturnType<typeof createOpenAICompatProvider>,
    emu: ReturnType<typeof startOllamaEmulator>,
  ) => Promise<T>,
  extra: Partial<Parameters<typeof startOllamaEmulator>[0]> = {},
  providerOpts: { timeoutMs?: number; model?: string } = {},
): Promise<T> {
  const emu = startOllamaEmulator({ script, ...extra });
  try {
    const p = createOpenAICompatProvider({
      name: "ollama",
      baseUrl: `${emu.url}/v1`,
      apiKey: "test-key",
      model: providerOpts.model ?? "gpt-oss:120b",
      timeoutMs: providerOpts.timeoutMs,
    });
    return await fn(p, emu);
  } finally {
    await emu.close();
  }
}

async function rejects(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ProviderError, `expected ProviderError, got ${e}`);
    return e;
  }
  assert.fail("expected a rejection");
}

Deno.test("ollama: text streams in order, reasoning apart, usage recorded, include_usage sent", async () => {
  await withEmu(
    [{
      reasoning: ["Think", "ing."],
      text: ["Hel", "lo", " world"],
      usage: { prompt: 152, completion: 41 },
    }],
    async (p, emu) => {
      const events: string[] = [];
      const turn = await p.complete(req(), {
        onText: (d) => events.push(`t:${d}`),
        onReasoning: (d) => events.push(`r:${d}`),
      });
      assert.deepEqual(events, ["r:Think", "r:ing.", "t:Hel", "t:lo", "t: world"]);
      assert.equal(turn.text, "Hello world");
      assert.equal(turn.reasoning, "Thinking.");
      assert.equal(turn.finishReason, "stop");
      assert.deepEqual(turn.usage, { inputTokens: 152, outputTokens: 41 });
      assert.equal(turn.model, "gpt-oss:120b");
      const body = emu.requests[0].body;
      assert.deepEqual(body.stream_options, { include_usage: true });
      assert.equal(body.stream, true);
      assert.equal(emu.requests[0].headers["authorization"], "Bearer test-key");
      assert.deepEqual(body.messages[0], { role: "system", content: "be brief" });
      assert.equal(body.tools[0].type, "function");
      assert.equal(body.tools[0].function.name, "read_file");
      assert.equal(body.tools[0].function.parameters.$schema, undefined);
    },
  );
});

Deno.test("ollama: whole tool calls, several in one turn, reassembled in order", async () => {
  await withEmu(
    [{
      reasoning: "User wants files.",
      toolCalls: [
        { name: "read_file", arguments: '{"path":"a.ts"}', id: "call_hk81qg8b" },
        { name: "read_file", arguments: '{"path":"b.ts"}' },
      ],
    }],
    async (p) => {
      const turn = await p.complete(req());
      assert.equal(turn.finishReason, "tool_calls");
      assert.equal(turn.text, "");
      assert.equal(turn.toolCalls.length, 2);
      assert.deepEqual(turn.toolCalls[0], {
        id: "call_hk81qg8b",
        name: "read_file",
        argumentsJson: '{"path":"a.ts"}',
      });
      assert.equal(turn.toolCalls[1].argumentsJson, '{"path":"b.ts"}');
      assert.notEqual(turn.toolCalls[1].id, turn.toolCalls[0].id);
    },
  );
});

Deno.test("openai-style fragmented tool arguments and calls in the finish chunk are reassembled", async () => {
  await withEmu(
    [
      {
        text: "Reading.",
        fragmentArguments: 3,
        toolCalls: [
          { name: "read_file", arguments: '{"path":"src/long_name.ts"}' },
          { name: "read_file", arguments: '{"path":"b"}' },
        ],
      },
      {
        toolCallsInFinishChunk: true,
        toolCalls: [{ name: "read_file", arguments: '{"path":"c"}' }],
      },
    ],
    async (p) => {
      const t1 = await p.complete(req());
      assert.equal(t1.text, "Reading.");
      assert.deepEqual(t1.toolCalls.map((c) => c.argumentsJson), [
        '{"path":"src/long_name.ts"}',
        '{"path":"b"}',
      ]);
      const t2 = await p.complete(req());
      assert.equal(t2.finishReason, "tool_calls");
      assert.equal(t2.toolCalls[0].argumentsJson, '{"path":"c"}');
    },
  );
});

Deno.test("length and reasoning_exhausted; a stream without a finish chunk", async () => {
  await withEmu(
    [
      { text: "partial answ", finish: "length" },
      { reasoning: "long long thought", finish: "length" },
      { reasoning: "thought", text: "", finish: "stop" },
      { text: "cut", finish: null },
    ],
    async (p) => {
      assert.equal((await p.complete(req())).finishReason, "length");
      const t2 = await p.complete(req());
      assert.equal(t2.finishReason, "reasoning_exhausted");
      assert.equal(t2.text, "");
      assert.equal((await p.complete(req())).finishReason, "reasoning_exhausted");
      assert.equal((await p.complete(req())).finishReason, "other");
    },
  );
});

Deno.test("history translation: assistant tool_calls, tool messages, reasoning never sent", async () => {
  await withEmu([{ text: "ok" }], async (p, emu) => {
    await p.complete(req([
      { role: "user", content: "read a" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "read_file", argumentsJson: '{"path":"a"}' },
          { id: "c2", name: "read_file", argumentsJson: "{not json" },
        ],
      },
      { role: "tool", toolCallId: "c1", name: "read_file", content: "A" },
      { role: "tool", toolCallId: "c2", name: "read_file", content: "bad args", isError: true },
    ]));
    const m = emu.requests[0].body.messages;
    assert.equal(m.length, 5);
    assert.deepEqual(m[2].tool_calls[0], {
      id: "c1",
      type: "function",
      function: { name: "read_file", arguments: '{"path":"a"}' },
    });
    assert.equal(m[2].tool_calls[1].function.arguments, "{}");
    assert.deepEqual(m[3], { role: "tool", tool_call_id: "c1", content: "A" });
    assert.equal(m[4].tool_call_id, "c2");
    assert.ok(!JSON.stringify(m).includes("reasoning"));
  });
});

const ERROR_CASES: [string, EmulatedCall, string, number | undefined][] = [
  ["401 unauthorized", { error: OLLAMA_ERRORS.unauthorized }, "auth", undefined],
  ["403 subscription", { error: OLLAMA_ERRORS.subscription403 }, "paywall", undefined],
  ["403 pro and extra usage", { error: OLLAMA_ERRORS.proAndExtra403 }, "paywall", undefined],
  ["402 bare plan", { error: OLLAMA_ERRORS.plan402 }, "paywall", undefined],
  ["429 session", { error: OLLAMA_ERRORS.session429 }, "session_limit", undefined],
  ["429 hourly", { error: OLLAMA_ERRORS.hourly429 }, "session_limit", undefined],
  ["429 weekly", { error: OLLAMA_ERRORS.weekly429 }, "weekly_limit", undefined],
  ["429 concurrency", { error: OLLAMA_ERRORS.concurrency429(11) }, "concurrency", 11_000],
  ["404 text/html", { error: OLLAMA_ERRORS.notFound("gpt-oss:120b") }, "not_found", undefined],
  ["503 overloaded", { error: OLLAMA_ERRORS.overloaded503 }, "overloaded", undefined],
  ["400 bad request", { error: OLLAMA_ERRORS.badRequest400 }, "bad_request", undefined],
  ["500 server", { error: OLLAMA_ERRORS.server500 }, "server", undefined],
  [
    "mid-stream error",
    { text: "par", midStreamError: "model runner crashed" },
    "stream",
    undefined,
  ],
];

for (const [label, call, kind, retry] of ERROR_CASES) {
  Deno.test(`ollama error ${label} → ${kind}, exactly one request (SDK retries off)`, async () => {
    await withEmu([call, { text: "should never be asked" }], async (p, emu) => {
      const e = await rejects(p.complete(req()));
      assert.equal(e.kind, kind);
      assert.equal(e.retryAfterMs, retry);
      assert.equal(e.model, "gpt-oss:120b");
      assert.equal(emu.requests.length, 1);
    });
  });
}

Deno.test("404 body labelled text/html keeps the service message", async () => {
  await withEmu([{ error: OLLAMA_ERRORS.notFound("no-such-model:1b") }], async (p) => {
    const e = await rejects(p.complete(req()));
    assert.equal(e.serviceMessage, 'model "no-such-model:1b" not found');
    assert.equal(e.status, 404);
  });
});

Deno.test("wrong key → auth; paywalled model → paywall (402), both before any stream", async () => {
  const emu = startOllamaEmulator({
    script: [],
    paywalled: ["big:1t"],
    models: [{ name: "big:1t", size: 1 }],
  });
  try {
    const bad = createOpenAICompatProvider({
      name: "ollama",
      baseUrl: `${emu.url}/v1`,
      apiKey: "nope",
      model: "big:1t",
    });
    assert.equal((await rejects(bad.complete(req()))).kind, "auth");
    const good = createOpenAICompatProvider({
      name: "ollama",
      baseUrl: `${emu.url}/v1`,
      apiKey: "test-key",
      model: "big:1t",
    });
    const e = await rejects(good.complete(req()));
    assert.equal(e.kind, "paywall");
    assert.equal(e.status, 402);
    const unknown = createOpenAICompatProvider({
      name: "ollama",
      baseUrl: `${emu.url}/v1`,
      apiKey: "test-key",
      model: "x:1b",
    });
    assert.equal((await rejects(unknown.complete(req()))).kind, "not_found");
  } finally {
    await emu.close();
  }
});

Deno.test("timeout and connection refused map to timeout and network", async () => {
  await withEmu(
    [{ delayMs: 400, text: "late" }],
    async (p) => {
      const e = await rejects(p.complete(req()));
      assert.equal(e.kind, "timeout");
    },
    {},
    { timeoutMs: 150 },
  );
  // A port that was just freed: nothing listens there.
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const p = createOpenAICompatProvider({
    name: "ollama",
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: "k",
    model: "m",
  });
  assert.equal((await rejects(p.complete(req()))).kind, "network");
});

Deno.test("openai name sends max_completion_tokens, ollama sends max_tokens", async () => {
  const emu = startOllamaEmulator({ script: [{ text: "a" }, { text: "b" }] });
  try {
    for (const name of ["openai", "ollama"] as const) {
      const p = createOpenAICompatProvider({
        name,
        baseUrl: `${emu.url}/v1`,
        apiKey: "test-key",
        model: "m",
      });
      await p.complete({ ...req(), maxTokens: 64 });
    }
    assert.equal(emu.requests[0].body.max_completion_tokens, 64);
    assert.equal(emu.requests[1].body.max_tokens, 64);
  } finally {
    await emu.close();
  }
});

Deno.test("a cancelled call rejects with the abort, not a ProviderError", async () => {
  await withEmu([{ delayMs: 300, text: "late" }], async (p) => {
    const ac = new AbortController();
    const pending = p.complete({ ...req(), signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    await assert.rejects(pending, (e) => !(e instanceof ProviderError));
  });
});
