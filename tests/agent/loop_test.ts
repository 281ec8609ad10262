/**
 * The agent loop on its own: the events it emits and their order, what it leaves in the
 * conversation when a turn ends each way (done, loop, budget, cut off, interrupted). The model is
 * the scripted provider (or a provider that streams until the person interrupts it); the dispatch
 * is a recorder, since what is under test is the loop, not the guard.
 */
import assert from "node:assert/strict";
import { type AgentEvent, EventHub } from "../../src/agent/events.ts";
import type { DispatchResult } from "../../src/agent/dispatch.ts";
import { Conversation, type LoopDeps, runTurn } from "../../src/agent/loop.ts";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.ts";
import type { ModelTurn, Provider, ToolCall } from "../../src/providers/types.ts";

function deps(provider: Provider, over: Partial<LoopDeps> = {}) {
  const events: AgentEvent[] = [];
  const calls: ToolCall[] = [];
  const hub = new EventHub();
  hub.subscribe((e) => events.push(e));
  const d: LoopDeps = {
    provider,
    system: "sys",
    tools: [],
    dispatch: (call) => {
      calls.push(call);
      return Promise.resolve<DispatchResult>({
        toolCallId: call.id,
        name: call.name,
        content: `ran ${call.name}`,
        isError: false,
        outcome: null,
      });
    },
    emit: (e) => hub.emit(e),
    ...over,
  };
  return { d, events, calls };
}

Deno.test("loop: events in order for a turn with reasoning, a tool call and an answer", async () => {
  const p = createScriptedProvider([
    {
      reasoning: "look first",
      text: "Reading.",
      toolCalls: [{ name: "read", arguments: { path: "a" } }],
    },
    { text: "Done." },
  ]);
  const { d, events, calls } = deps(p);
  const convo = new Conversation();
  const s = await runTurn(convo, "go", d);
  assert.equal(s.status, "done");
  assert.equal(s.text, "Done.");
  assert.equal(s.steps, 2);
  assert.equal(s.actions, 1);
  assert.equal(calls.length, 1);
  const kinds = events.map((e) => e.type).filter((t, i, a) => !(t === a[i - 1] && t !== "action"));
  assert.deepEqual(kinds, [
    "model_start",
    "reasoning",
    "text",
    "model_done",
    "tool_start",
    "action",
    "model_start",
    "text",
    "model_done",
    "turn_end",
  ]);
  const end = events.at(-1)!;
  assert.ok(end.type === "turn_end" && end.summary.status === "done");
  assert.deepEqual(convo.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
});

Deno.test("loop: an identical call repeated is refused, then the turn stops as a loop", async () => {
  const same = { toolCalls: [{ name: "ls", arguments: { path: "." } }] } satisfies ScriptedTurn;
  const p = createScriptedProvider(Array(10).fill(same));
  const { d, events, calls } = deps(p, {
    budgets: { maxStepsPerTurn: 20, maxTotalSteps: 50, maxRepeats: 2 },
  });
  const s = await runTurn(new Conversation(), "go", d);
  assert.equal(s.status, "loop");
  assert.equal(calls.length, 2, "only the first two identical calls ran");
  assert.ok(events.some((e) => e.type === "failure" && /loop/.test(e.reason)));
  assert.ok(
    events.some((e) => e.type === "notice" && /repeated the same ls call 4 times/.test(e.message)),
  );
});

Deno.test("loop: the step budget ends the turn with one notice", async () => {
  const p = createScriptedProvider((_req, i) => ({
    toolCalls: [{ name: "ls", arguments: { i } }],
  }));
  const { d, events } = deps(p, {
    budgets: { maxStepsPerTurn: 3, maxTotalSteps: 50, maxRepeats: 3 },
  });
  const s = await runTurn(new Conversation(), "go", d);
  assert.equal(s.status, "budget");
  assert.equal(events.filter((e) => e.type === "notice").length, 1);
});

Deno.test("loop: an answer cut off by its budget is said once per call, then the turn fails", async () => {
  const p = createScriptedProvider([{ reasoning: "hmm" }, { reasoning: "hmm again" }]);
  const { d, events } = deps(p);
  const convo = new Conversation();
  const s = await runTurn(convo, "go", d);
  assert.equal(s.status, "error");
  const notices = events.filter((e) => e.type === "notice").map((e) =>
    e.type === "notice" && e.message
  );
  assert.equal(notices.length, 2);
  assert.match(String(notices[0]), /asks it once to continue/);
  assert.ok(events.some((e) => e.type === "failure"));
});

/** A model that streams a few words, then waits until the request is aborted, then returns the
 * truncated turn the way a stream cut midway does (no answer, finish reason from the cut). */
function interruptible(): Provider & { calls: number } {
  return {
    name: "test",
    model: "slow",
    calls: 0,
    async complete(req, on): Promise<ModelTurn> {
      this.calls++;
      on?.onReasoning?.("thinking… ");
      on?.onText?.("Here is the start of");
      await new Promise<void>((resolve) => {
        if (req.signal?.aborted) return resolve();
        req.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      return {
        text: "Here is the start of",
        reasoning: "thinking… ",
        toolCalls: [{ id: "c9", name: "bash", argumentsJson: '{"command":"rm -rf /"}' }],
        finishReason: "reasoning_exhausted",
        usage: { inputTokens: 0, outputTokens: 0 },
        model: "slow",
      };
    },
  };
}

Deno.test("loop: interrupted mid-stream — cancelled, no budget notice, only a marker added", async () => {
  const p = interruptible();
  const ac = new AbortController();
  const { d, events, calls } = deps(p, { signal: ac.signal });
  const convo = new Conversation();
  const running = runTurn(convo, "explain", d);
  await new Promise((r) => setTimeout(r, 20));
  ac.abort();
  const s = await running;
  assert.equal(s.status, "cancelled");
  assert.equal(p.calls, 1, "no second model call after the interruption");
  assert.equal(calls.length, 0, "no tool call of the cut turn runs");
  assert.deepEqual(events.filter((e) => e.type === "notice"), [], "no notice: the person knows");
  assert.deepEqual(convo.messages, [
    { role: "user", content: "explain" },
    {
      role: "assistant",
      content: "Here is the start of\n[interrupted by the user]",
      toolCalls: [],
    },
  ]);
  for (const m of convo.messages) assert.doesNotMatch(m.content, /cut off|Continue/);
});

Deno.test("loop: interrupted while a tool runs — the rest of the calls are answered, a marker ends it", async () => {
  const p = createScriptedProvider([{
    toolCalls: [
      { name: "bash", arguments: { command: "sleep 5" } },
      { name: "read", arguments: { path: "a" } },
    ],
  }]);
  const ac = new AbortController();
  const { d, calls } = deps(p, {
    signal: ac.signal,
    dispatch: (call) => {
      calls.push(call);
      ac.abort();
      return Promise.resolve({
        toolCallId: call.id,
        name: call.name,
        content: "exit code 137 (cancelled)",
        isError: true,
        outcome: null,
      });
    },
  });
  const convo = new Conversation();
  const s = await runTurn(convo, "go", d);
  assert.equal(s.status, "cancelled");
  assert.equal(calls.length, 1);
  const roles = convo.messages.map((m) => m.role);
  assert.deepEqual(roles, ["user", "assistant", "tool", "tool", "assistant"]);
  assert.equal(convo.messages.at(-1)!.content, "[interrupted by the user]");
  // The next turn goes on from there, with nothing hidden added.
  const p2 = createScriptedProvider([{ text: "ok" }]);
  await runTurn(convo, "next", { ...d, provider: p2, signal: undefined });
  assert.deepEqual(p2.requests[0].messages.filter((m) => m.role === "user").map((m) => m.content), [
    "go",
    "next",
  ]);
});

Deno.test("loop: a listener that throws does not stop the turn", async () => {
  const p = createScriptedProvider([{ text: "fine" }]);
  const hub = new EventHub();
  hub.subscribe(() => {
    throw new Error("renderer broke");
  });
  const seen: string[] = [];
  hub.subscribe((e) => seen.push(e.type));
  const origError = console.error;
  console.error = () => {};
  try {
    const { d } = deps(p, { emit: (e) => hub.emit(e) });
    const s = await runTurn(new Conversation(), "go", d);
    assert.equal(s.status, "done");
  } finally {
    console.error = origError;
  }
  assert.ok(seen.includes("turn_end"));
});
