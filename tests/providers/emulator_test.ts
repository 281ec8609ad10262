/**
 * The emulators themselves, on the raw wire (plain fetch): framing and shapes of wire.md §4.
 */
import assert from "node:assert/strict";
import { OLLAMA_ERRORS, startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { ANTHROPIC_ERRORS, startAnthropicEmulator } from "../emulators/anthropic_emulator.ts";

const AUTH = { authorization: "Bearer test-key" };
const chat = (url: string, body: unknown, headers: Record<string, string> = AUTH) =>
  fetch(`${url}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify(body) });

Deno.test("ollama emulator: data-only SSE, role+content on every chunk, usage only when asked, [DONE]", async () => {
  const emu = startOllamaEmulator({
    script: [
      { reasoning: "r", text: "t", toolCalls: [{ name: "x", arguments: '{"a":1}' }] },
      { text: "t" },
    ],
  });
  try {
    const msgs = [{ role: "user", content: "hi" }];
    const r1 = await chat(emu.url, {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: msgs,
    });
    assert.equal(r1.headers.get("content-type"), "text/event-stream");
    const text = await r1.text();
    assert.ok(!text.includes("event:"));
    const frames = text.split("\n\n").filter((f) => f);
    assert.equal(frames.at(-1), "data: [DONE]");
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.replace(/^data: /, "")));
    const withChoice = chunks.filter((c) => c.choices.length > 0);
    for (const c of withChoice) {
      assert.equal(c.object, "chat.completion.chunk");
      assert.equal(c.system_fingerprint, "fp_ollama");
      assert.equal(c.choices[0].delta.role, "assistant");
      assert.equal(typeof c.choices[0].delta.content, "string");
      assert.ok(!("usage" in c));
    }
    assert.equal(withChoice[0].choices[0].delta.reasoning, "r");
    const tc = withChoice[2].choices[0].delta.tool_calls[0];
    assert.equal(tc.type, "function");
    assert.equal(tc.index, 0);
    assert.match(tc.id, /^call_/);
    assert.equal(tc.function.arguments, '{"a":1}');
    assert.equal(withChoice.at(-1).choices[0].finish_reason, "tool_calls");
    assert.deepEqual(chunks.at(-1).choices, []);
    assert.equal(chunks.at(-1).usage.total_tokens, 15);

    const r2 = await chat(emu.url, { model: "m", stream: true, messages: msgs });
    assert.ok(!(await r2.text()).includes('"usage"'));
  } finally {
    await emu.close();
  }
});

Deno.test("ollama emulator: public listings, non-stream JSON, 401 and wrong path shapes", async () => {
  const emu = startOllamaEmulator({
    script: [{ text: "whole", reasoning: "why" }],
    models: [{ name: "gpt-oss:120b", size: 65_000_000_000 }, { name: "glm-4.7", size: 1 }],
  });
  try {
    const models = await (await fetch(`${emu.url}/v1/models`)).json();
    assert.deepEqual(models.data.map((m: { id: string }) => m.id), ["gpt-oss:120b", "glm-4.7"]);
    assert.equal(models.object, "list");
    const tags = await (await fetch(`${emu.url}/api/tags`)).json();
    assert.equal(tags.models[0].size, 65_000_000_000);
    assert.equal(tags.models[0].details.parameter_size, "");
    const json = await (await chat(emu.url, {
      model: "gpt-oss:120b",
      messages: [{ role: "user", content: "x" }],
    }))
      .json();
    assert.equal(json.object, "chat.completion");
    assert.equal(json.choices[0].message.content, "whole");
    assert.equal(json.choices[0].message.reasoning, "why");
    assert.equal(json.usage.prompt_tokens, 10);
    const r401 = await chat(emu.url, { model: "gpt-oss:120b", messages: [] }, {});
    assert.equal(r401.status, 401);
    assert.deepEqual(await r401.json(), OLLAMA_ERRORS.unauthorized.body);
    const r404 = await fetch(`${emu.url}/api/v1/chat/completions`, { method: "POST", body: "{}" });
    assert.equal(r404.status, 404);
    assert.deepEqual(await r404.json(), { error: 'path "/api/v1/chat/completions" not found' });
    const missing = await chat(emu.url, {
      model: "nope:1b",
      messages: [{ role: "user", content: "x" }],
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "text/html");
    await missing.body?.cancel();
    const conc = startOllamaEmulator({ script: [{ error: OLLAMA_ERRORS.concurrency429(15) }] });
    const rc = await chat(conc.url, {
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "x" }],
    });
    assert.equal(rc.status, 429);
    assert.equal(rc.headers.get("retry-after"), "15");
    assert.deepEqual(await rc.json(), { error: "too many concurrent requests" });
    await conc.close();
  } finally {
    await emu.close();
  }
});

Deno.test("anthropic emulator: event names, ping after the first empty input_json_delta, cumulative usage", async () => {
  const emu = startAnthropicEmulator({
    script: [{
      thinking: "th",
      text: "hi",
      toolCalls: [{ name: "f", input: { a: 1 } }],
      usage: { input: 849, output: 47 },
    }],
  });
  try {
    const r = await fetch(`${emu.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "test-key", "content-type": "application/json" },
      body: JSON.stringify({
        model: "c",
        max_tokens: 10,
        stream: true,
        messages: [{ role: "user", content: "x" }],
      }),
    });
    assert.ok(r.headers.get("request-id")?.startsWith("req_"));
    const frames = (await r.text()).split("\n\n").filter((f) => f).map((f) => {
      const [ev, data] = f.split("\n");
      const name = ev.replace(/^event: /, "");
      const obj = JSON.parse(data.replace(/^data: /, ""));
      assert.equal(obj.type, name, "data.type repeats the event name");
      return obj;
    });
    const names = frames.map((f) => f.type);
    assert.equal(names[0], "message_start");
    assert.equal(frames[0].message.usage.input_tokens, 849);
    assert.deepEqual(names.slice(-2), ["message_delta", "message_stop"]);
    assert.deepEqual(frames.at(-2).usage.output_tokens, 47);
    assert.equal(frames.at(-2).delta.stop_reason, "tool_use");
    const sig = frames.findIndex((f) => f.delta?.type === "signature_delta");
    assert.equal(frames[sig + 1].type, "content_block_stop");
    const start = frames.findIndex((f) => f.content_block?.type === "tool_use");
    assert.deepEqual(frames[start].content_block.input, {});
    assert.deepEqual(frames[start + 1].delta, { type: "input_json_delta", partial_json: "" });
    assert.equal(frames[start + 2].type, "ping");
    const json = frames.filter((f) => f.delta?.type === "input_json_delta").map((f) =>
      f.delta.partial_json
    ).join("");
    assert.deepEqual(JSON.parse(json), { a: 1 });
  } finally {
    await emu.close();
  }
});

Deno.test("anthropic emulator: HTTP error body, request-id and retry-after", async () => {
  const emu = startAnthropicEmulator({ script: [{ error: ANTHROPIC_ERRORS.rateLimit(9) }] });
  try {
    const r = await fetch(`${emu.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "test-key" },
      body: JSON.stringify({
        model: "c",
        max_tokens: 10,
        stream: true,
        messages: [{ role: "user", content: "x" }],
      }),
    });
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("retry-after"), "9");
    const body = await r.json();
    assert.equal(body.type, "error");
    assert.equal(body.error.type, "rate_limit_error");
    assert.equal(body.request_id, r.headers.get("request-id"));
  } finally {
    await emu.close();
  }
});
