/**
 * The Anthropic provider through the real `@anthropic-ai/sdk` client against the emulator.
 */
import assert from "node:assert/strict";
import { createAnthropicProvider, toAnthropicMessages } from "../../src/providers/anthropic.ts";
import { ProviderError } from "../../src/providers/errors.ts";
import type { ChatMessage, TurnRequest } from "../../src/providers/types.ts";
import {
  ANTHROPIC_ERRORS,
  type AnthropicCall,
  startAnthropicEmulator,
} from "../emulators/anthropic_emulator.ts";

const TOOLS = [{
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
}];

const req = (messages: ChatMessage[] = [{ role: "user", content: "hi" }]): TurnRequest => ({
  system: "be brief",
  messages,
  tools: TOOLS,
});

async function withEmu<T>(
  script: AnthropicCall[],
  fn: (
    p: ReturnType<typeof createAnthropicProvider>,
    emu: ReturnType<typeof startAnthropicEmulator>,
  ) => Promise<T>,
  timeoutMs?: number,
): Promise<T> {
  const emu = startAnthropicEmulator({ script });
  try {
    const p = createAnthropicProvider({
      baseUrl: emu.url,
      apiKey: "test-key",
      model: "claude-emulated",
      timeoutMs,
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

Deno.test("anthropic: thinking apart, text streamed in order, usage cumulative, wire params", async () => {
  await withEmu(
    [{ thinking: ["Let me", " think."], text: ["Hel", "lo"], usage: { input: 472, output: 89 } }],
    async (p, emu) => {
      const events: string[] = [];
      const turn = await p.complete(req(), {
        onText: (d) => events.push(`t:${d}`),
        onReasoning: (d) => events.push(`r:${d}`),
      });
      assert.deepEqual(events, ["r:Let me", "r: think.", "t:Hel", "t:lo"]);
      assert.equal(turn.text, "Hello");
      assert.equal(turn.reasoning, "Let me think.");
      assert.equal(turn.finishReason, "stop");
      assert.deepEqual(turn.usage, { inputTokens: 472, outputTokens: 89 });
      const r = emu.requests[0];
      // SDK 1.14.0 sends the key as a bearer token, and a newer anthropic-version than wire.md.
      assert.ok(
        r.headers["x-api-key"] === "test-key" || r.headers["authorization"] === "Bearer test-key",
      );
      assert.match(r.headers["anthropic-version"], /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(r.headers["x-stainless-retry-count"], "0");
      assert.equal(r.body.system, "be brief");
      assert.equal(r.body.stream, true);
      assert.equal(typeof r.body.max_tokens, "number");
      assert.deepEqual(r.body.tools[0].input_schema.required, ["path"]);
    },
  );
});

Deno.test("anthropic: fragmented tool_use inputs, several calls, empty input is {}", async () => {
  await withEmu(
    [{
      text: "Reading both.",
      toolCalls: [
        { name: "read_file", input: { path: "San Francisco, CA" }, id: "toolu_01A" },
        { name: "read_file", fragments: ['{"pa', 'th":', ' "b.ts"}'] },
        { name: "list", fragments: [] },
      ],
    }],
    async (p) => {
      const turn = await p.complete(req());
      assert.equal(turn.finishReason, "tool_calls");
      assert.equal(turn.text, "Reading both.");
      assert.equal(turn.toolCalls.length, 3);
      assert.deepEqual(turn.toolCalls[0], {
        id: "toolu_01A",
        name: "read_file",
        argumentsJson: '{"path":"San Francisco, CA"}',
      });
      assert.deepEqual(JSON.parse(turn.toolCalls[1].argumentsJson), { path: "b.ts" });
      assert.equal(turn.toolCalls[2].argumentsJson, "{}");
    },
  );
});

Deno.test("anthropic: max_tokens → length; thinking only → reasoning_exhausted", async () => {
  await withEmu(
    [{ text: "cut sho", stopReason: "max_tokens" }, { thinking: "hmm", stopReason: "max_tokens" }],
    async (p) => {
      assert.equal((await p.complete(req())).finishReason, "length");
      const t = await p.complete(req());
      assert.equal(t.finishReason, "reasoning_exhausted");
      assert.equal(t.text, "");
    },
  );
});

Deno.test("translation: results first in the next user message, merged, is_error, malformed → {}", () => {
  const { messages, malformedToolUseIds } = toAnthropicMessages([
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: "ok",
      toolCalls: [
        { id: "t1", name: "read_file", argumentsJson: '{"path":"a"}' },
        { id: "t2", name: "read_file", argumentsJson: "{oops" },
      ],
    },
    { role: "tool", toolCallId: "t1", name: "read_file", content: "A" },
    { role: "tool", toolCallId: "t2", name: "read_file", content: "bad JSON", isError: true },
    { role: "user", content: "and now?" },
  ]);
  assert.deepEqual(malformedToolUseIds, ["t2"]);
  assert.equal(messages.length, 3);
  assert.deepEqual(messages[1].content, [
    { type: "text", text: "ok" },
    { type: "tool_use", id: "t1", name: "read_file", input: { path: "a" } },
    { type: "tool_use", id: "t2", name: "read_file", input: {} },
  ]);
  assert.deepEqual(messages[2], {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "t1", content: "A" },
      { type: "tool_result", tool_use_id: "t2", content: "bad JSON", is_error: true },
      { type: "text", text: "and now?" },
    ],
  });
});

Deno.test("a translated history with tool results passes the emulator's pairing validation", async () => {
  await withEmu([{ text: "fine" }], async (p, emu) => {
    const t = await p.complete(req([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "toolu_1", name: "read_file", argumentsJson: "{}" }],
      },
      { role: "tool", toolCallId: "toolu_1", name: "read_file", content: "x" },
    ]));
    assert.equal(t.text, "fine");
    assert.equal(emu.requests[0].body.messages[2].content[0].type, "tool_result");
  });
});

Deno.test("broken pairing: missing tool_result → the exact 400 as bad_request", async () => {
  await withEmu([{ text: "never" }], async (p, emu) => {
    const e = await rejects(p.complete(req([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{
          id: "toolu_01NUbw5mvfYRWaDHvMi1xYK1",
          name: "read_file",
          argumentsJson: "{}",
        }],
      },
      { role: "user", content: "no results here" },
    ])));
    assert.equal(e.kind, "bad_request");
    assert.equal(e.status, 400);
    assert.equal(
      e.serviceMessage,
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01NUbw5mvfYRWaDHvMi1xYK1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
    assert.equal(emu.requests.length, 1);
  });
});

Deno.test("broken pairing: unknown tool_use_id → the exact 400 as bad_request", async () => {
  await withEmu([{ text: "never" }], async (p) => {
    const e = await rejects(p.complete(req([
      { role: "user", content: "go" },
      {
        role: "tool",
        toolCallId: "toolu_01AmNTrCZkFeGKqoo1oWoaUJ",
        name: "read_file",
        content: "x",
      },
    ])));
    assert.equal(e.kind, "bad_request");
    // The translation merges the stray result into the first user message's position 0.
    assert.match(
      e.serviceMessage,
      /^messages\.\d+\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01AmNTrCZkFeGKqoo1oWoaUJ\. Each `tool_result` block must have a corresponding `tool_use` block in the previous message\.$/,
    );
  });
});

const ERRORS: [string, AnthropicCall, string, number | undefined][] = [
  ["401", { error: ANTHROPIC_ERRORS.auth }, "auth", undefined],
  ["403", { error: ANTHROPIC_ERRORS.permission }, "auth", undefined],
  ["404", { error: ANTHROPIC_ERRORS.notFound }, "not_found", undefined],
  ["429 with retry-after", { error: ANTHROPIC_ERRORS.rateLimit(7) }, "rate_limit", 7_000],
  ["529", { error: ANTHROPIC_ERRORS.overloaded }, "overloaded", undefined],
  ["500", { error: ANTHROPIC_ERRORS.server }, "server", undefined],
  [
    "mid-stream overloaded_error",
    {
      text: "par",
      streamError: { type: "overloaded_error", message: "Overloaded" },
    },
    "overloaded",
    undefined,
  ],
  [
    "mid-stream api_error",
    {
      text: "par",
      streamError: { type: "api_error", message: "Internal server error" },
    },
    "stream",
    undefined,
  ],
];

for (const [label, call, kind, retry] of ERRORS) {
  Deno.test(`anthropic error ${label} → ${kind}, exactly one request`, async () => {
    await withEmu([call, { text: "never" }], async (p, emu) => {
      const e = await rejects(p.complete(req()));
      assert.equal(e.kind, kind);
      assert.equal(e.retryAfterMs, retry);
      assert.equal(emu.requests.length, 1);
    });
  });
}

Deno.test("anthropic: wrong key → auth; timeout → timeout", async () => {
  const emu = startAnthropicEmulator({ script: [{ delayMs: 400, text: "late" }] });
  try {
    const bad = createAnthropicProvider({ baseUrl: emu.url, apiKey: "nope", model: "m" });
    assert.equal((await rejects(bad.complete(req()))).kind, "auth");
    const slow = createAnthropicProvider({
      baseUrl: emu.url,
      apiKey: "test-key",
      model: "m",
      timeoutMs: 100,
    });
    assert.equal((await rejects(slow.complete(req()))).kind, "timeout");
  } finally {
    await emu.close();
  }
});

Deno.test("anthropic: a cancelled call rejects with the abort, not a ProviderError", async () => {
  await withEmu([{ delayMs: 300, text: "late" }], async (p) => {
    const ac = new AbortController();
    const pending = p.complete({ ...req(), signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    await assert.rejects(pending, (e) => !(e instanceof ProviderError));
  });
});
