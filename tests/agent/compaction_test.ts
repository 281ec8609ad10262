/**
 * Compaction: where the conversation is cut (never between a tool call and its result), what the
 * summary keeps (the model's summary, ledger facts, recall refs), the messages sent afterwards,
 * the overflow retry, and the session budget.
 */
import assert from "node:assert/strict";
import { ContextManager, statedWindow } from "../../src/agent/compaction.ts";
import {
  chooseCut,
  contextMessages,
  renderForSummary,
  SUMMARY_HEADER,
} from "../../src/agent/compaction_text.ts";
import { Conversation, runTurn } from "../../src/agent/loop.ts";
import { budgetStop } from "../../src/agent/budget.ts";
import { UsageMeter } from "../../src/agent/usage_meter.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { ProviderError } from "../../src/providers/errors.ts";
import { classifyError } from "../../src/providers/error_map.ts";
import type { ChatMessage } from "../../src/providers/types.ts";

function toolStep(i: number, size: number): ChatMessage[] {
  return [
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: `c${i}`, name: "read", argumentsJson: "{}" }],
    },
    { role: "tool", toolCallId: `c${i}`, name: "read", content: `r${i} ` + "x".repeat(size) },
  ];
}

Deno.test("compaction: the cut never separates a tool call from its result", () => {
  const msgs: ChatMessage[] = [{ role: "user", content: "go" }];
  for (let i = 0; i < 10; i++) msgs.push(...toolStep(i, 400));
  for (let keep = 0; keep < 2000; keep += 37) {
    const cut = chooseCut(msgs, keep)!;
    assert.ok(cut > 0);
    assert.notEqual(msgs[cut].role, "tool", `cut at a tool result (keep ${keep})`);
  }
  assert.equal(chooseCut([{ role: "user", content: "only" }], 10), null);
});

Deno.test("compaction: messages after a summary alternate roles and start with the summary", () => {
  const a = contextMessages("S", [{ role: "user", content: "next" }]);
  assert.deepEqual(a.map((m) => m.role), ["user", "assistant", "user"]);
  assert.ok(a[0].content.startsWith(SUMMARY_HEADER));
  const b = contextMessages("S", toolStep(1, 10));
  assert.deepEqual(b.map((m) => m.role), ["user", "assistant", "tool"]);
});

Deno.test("compaction: the summariser's input is clipped to its budget", () => {
  const older: ChatMessage[] = [{ role: "user", content: "objective" }];
  for (let i = 0; i < 200; i++) older.push(...toolStep(i, 5000));
  const text = renderForSummary("previous summary", older, 20_000);
  assert.ok(text.length <= 20_000, `${text.length}`);
  assert.match(text, /PREVIOUS SUMMARY/);
});

function manager(window: number, script: Parameters<typeof createScriptedProvider>[0]) {
  const provider = createScriptedProvider(script);
  const meter = new UsageMeter(window);
  const records: unknown[] = [];
  const m = new ContextManager({
    provider,
    system: "system prompt",
    toolsChars: 100,
    meter,
    facts: () =>
      "Actions that can still be undone (from the ledger):\n- act_0123456789ab edit a.ts",
    onCompaction: (r) => records.push(r),
  });
  return { m, provider, meter, records };
}

Deno.test("compaction: past 80% of the window the older turns become a summary with the facts", async () => {
  const { m, provider, records, meter } = manager(4096, [
    { text: "Objective: fix add. Decisions: none.", usage: { inputTokens: 900, outputTokens: 40 } },
  ]);
  const convo = new Conversation();
  convo.messages.push({ role: "user", content: "fix add" });
  for (let i = 0; i < 12; i++) convo.messages.push(...toolStep(i, 1200));
  convo.messages[2] = {
    ...convo.messages[2],
    content: 'preview… recall(ref="res_0123456789abcdef")',
  };
  const before = convo.messages.length;
  const sent = await m.prepare(convo);
  assert.equal(records.length, 1);
  assert.ok(convo.messages.length < before);
  assert.ok(m.estimate(sent) <= 0.8 * 4096, `${m.estimate(sent)}`);
  assert.match(convo.summary!, /Objective: fix add/);
  assert.match(convo.summary!, /act_0123456789ab/);
  assert.match(convo.summary!, /res_0123456789abcdef/);
  assert.match(convo.summary!, /Request being worked on \(verbatim\):\nfix add/);
  // The summariser got the older part, no tools.
  assert.equal(provider.requests[0].tools.length, 0);
  assert.match(provider.requests[0].messages[0].content, /USER: fix add/);
  assert.equal(meter.report().compactionTokens, 940);
});

Deno.test("compaction: a failing summariser still compacts, keeping a clipped transcript", async () => {
  const { m, records } = manager(4096, [{ error: new ProviderError("server", "boom") }]);
  const convo = new Conversation();
  convo.messages.push({ role: "user", content: "fix add" });
  for (let i = 0; i < 12; i++) convo.messages.push(...toolStep(i, 1200));
  await m.prepare(convo);
  assert.equal(records.length, 1);
  assert.match((records[0] as { fallback: string }).fallback, /could not summarise.*boom/);
  assert.match(convo.summary!, /shortened transcript/);
});

Deno.test("loop: a context-overflow error compacts once and retries once", async () => {
  const overflow = classifyError(
    400,
    JSON.stringify({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "prompt is too long: 250000 tokens > 200000 maximum",
      },
    }),
    {},
  );
  assert.equal(overflow.kind, "context_overflow");
  assert.equal(statedWindow(overflow.serviceMessage), 200000);
  assert.equal(statedWindow("the input length exceeds the context length (9000 > 8192)"), 8192);
  assert.equal(
    classifyError(
      400,
      '{"error":{"message":"the input length exceeds the context length (9000 > 8192)"}}',
      {},
    ).kind,
    "context_overflow",
  );
  const provider = createScriptedProvider((req, i) => {
    if (req.system.startsWith("You compact")) return { text: "summary" };
    return i === 0 ? { error: overflow } : { text: "done" };
  });
  const meter = new UsageMeter(null);
  const ctx = new ContextManager({ provider, system: "s", toolsChars: 0, meter });
  const convo = new Conversation();
  convo.messages.push({ role: "user", content: "earlier" });
  convo.messages.push({ role: "assistant", content: "ok", toolCalls: [] });
  const notices: string[] = [];
  const summary = await runTurn(convo, "now", {
    provider,
    system: "s",
    tools: [],
    dispatch: () => Promise.reject(new Error("no tools")),
    emit: (e) => {
      if (e.type === "notice") notices.push(e.message);
    },
    context: {
      prepare: (c, s) => ctx.prepare(c, s),
      record: (t, sent) => ctx.record(t, sent),
      overflow: (c, s) => ctx.overflow(c, s),
      stopReason: () => null,
    },
  });
  assert.equal(summary.status, "done", summary.text);
  assert.equal(convo.summary, "summary");
  assert.ok(notices.some((n) => /overflowed/.test(n)));

  // Still overflowing after the compaction: a clear error, no endless retries.
  const always = createScriptedProvider((req) =>
    req.system.startsWith("You compact") ? { text: "s" } : { error: overflow }
  );
  const ctx2 = new ContextManager({ provider: always, system: "s", toolsChars: 0, meter });
  const c2 = new Conversation();
  c2.messages.push({ role: "user", content: "earlier" }, {
    role: "assistant",
    content: "ok",
    toolCalls: [],
  });
  const s2 = await runTurn(c2, "now", {
    provider: always,
    system: "s",
    tools: [],
    dispatch: () => Promise.reject(new Error("no tools")),
    context: {
      prepare: (c, s) => ctx2.prepare(c, s),
      record: (t, sent) => ctx2.record(t, sent),
      overflow: (c, s) => ctx2.overflow(c, s),
      stopReason: () => null,
    },
  });
  assert.equal(s2.status, "error");
  assert.match(s2.text, /context overflow.*prompt is too long/);
  assert.match(s2.text, /\/clear/);
  assert.equal(always.requests.filter((r) => !r.system.startsWith("You compact")).length, 2);
});

Deno.test("budget: tokens and quota units; off when not set", () => {
  const meter = new UsageMeter();
  assert.equal(budgetStop(undefined, meter), null);
  meter.add("m", { inputTokens: 600, outputTokens: 100 }, 600);
  assert.equal(budgetStop({ kind: "tokens", amount: 1000 }, meter), null);
  meter.add("m", { inputTokens: 300, outputTokens: 100 }, 300);
  assert.match(
    budgetStop({ kind: "tokens", amount: 1000 }, meter)!,
    /1000 tokens is spent \(1100 used\)/,
  );
  assert.equal(budgetStop({ kind: "units", amount: 2 }, meter, () => 1.5), null);
  assert.match(budgetStop({ kind: "units", amount: 2 }, meter, () => 2.25)!, /2 quota units/);
});

Deno.test("compaction: the request and the refs survive a second compaction", async () => {
  const { m } = manager(4096, (req) => ({ text: req.system ? "model summary" : "" }));
  const convo = new Conversation();
  convo.messages.push({ role: "user", content: "the one request" });
  for (let i = 0; i < 12; i++) convo.messages.push(...toolStep(i, 1200));
  convo.messages[2] = { ...convo.messages[2], content: 'recall(ref="res_00000000000000aa")' };
  await m.prepare(convo);
  assert.match(convo.summary!, /res_00000000000000aa/);
  for (let i = 12; i < 24; i++) convo.messages.push(...toolStep(i, 1200));
  await m.prepare(convo);
  assert.match(convo.summary!, /res_00000000000000aa/);
  assert.match(convo.summary!, /Request being worked on \(verbatim\):\nthe one request/);
  // After /clear nothing of it is carried.
  m.clear(convo);
  convo.messages.push({ role: "user", content: "new" });
  for (let i = 0; i < 12; i++) convo.messages.push(...toolStep(i, 1200));
  await m.prepare(convo);
  assert.doesNotMatch(convo.summary!, /the one request|res_00000000000000aa/);
});
