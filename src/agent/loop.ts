/**
 * The agent loop: ask the model, run the tools it asks for through the single dispatch, give it
 * the results, until it answers without tools or a budget runs out.
 *
 * Robust to what weaker models do: hallucinated tool names and malformed arguments come back as
 * error results (the dispatch), identical calls repeated in a row are stopped, and every turn has a
 * step budget. The session has no fixed cap: its context (compaction) and the budget the person
 * chose are kept by {@link LoopContext} (compaction.ts, budget.ts).
 *
 * @module
 */
import { canonicalJson } from "../core/canonical_json.ts";
import { describeError } from "../core/errors.ts";
import { ProviderError } from "../providers/errors.ts";
import type { ToolDefinition } from "../core/tool.ts";
import type { ChatMessage, ModelTurn, Provider, ToolCall } from "../providers/types.ts";
import type { DispatchResult } from "./dispatch.ts";
import type { AgentEvent, TurnSummary } from "./events.ts";

/** Limits on one turn and on the whole session. */
export interface Budgets {
  /** Model calls per user turn. */
  maxStepsPerTurn: number;
  /** Model calls per session: none unless given (a session budget is `--budget`). */
  maxTotalSteps?: number;
  /** Identical calls in a row before the call is refused (and twice that before the turn stops). */
  maxRepeats: number;
}

/** Sensible defaults. */
export const DEFAULT_BUDGETS: Budgets = { maxStepsPerTurn: 40, maxRepeats: 3 };

export type { AgentEvent, AgentEvents, AgentListener, TurnSummary } from "./events.ts";

/** The conversation and its counters, kept across turns. */
export class Conversation {
  messages: ChatMessage[] = [];
  /** The summary of the turns compacted away (sent first, before `messages`). */
  summary: string | null = null;
  totalSteps = 0;
}

/** Context and budget keeping between requests (see compaction.ts and budget.ts). */
export interface LoopContext {
  /** The messages to send next (compacting first when they would not fit). */
  prepare(convo: Conversation, signal?: AbortSignal): Promise<ChatMessage[]>;
  /** Records what a response used. */
  record(turn: ModelTurn, sent: ChatMessage[]): void;
  /** The service said the prompt overflows its window: compact harder; true to retry once. */
  overflow(convo: Conversation, signal?: AbortSignal, serviceMessage?: string): Promise<boolean>;
  /** Why the session must stop before its next request (the budget is spent), or null. */
  stopReason(): string | null;
}

/** Everything the loop needs. */
export interface LoopDeps {
  provider: Provider;
  system: string;
  tools: ToolDefinition[];
  dispatch: (call: ToolCall) => Promise<DispatchResult>;
  budgets?: Budgets;
  /** Where the loop's events go (an {@link EventHub}'s `emit`, or a test's collector). */
  emit?: (event: AgentEvent) => void;
  signal?: AbortSignal;
  /** Context window and session budget; without it every message is sent as is. */
  context?: LoopContext;
}

/**
 * Runs one user turn to completion.
 *
 * @example
 * ```ts ignore
 * const convo = new Conversation();
 * const summary = await runTurn(convo, "The add function subtracts. Fix it.", deps);
 * summary.status; // "done"
 * ```
 */
export async function runTurn(
  convo: Conversation,
  userText: string,
  deps: LoopDeps,
): Promise<TurnSummary> {
  const summary = await turnInner(convo, userText, deps);
  deps.emit?.({ type: "turn_end", summary });
  return summary;
}

async function turnInner(
  convo: Conversation,
  userText: string,
  deps: LoopDeps,
): Promise<TurnSummary> {
  const budgets = deps.budgets ?? DEFAULT_BUDGETS;
  const emit = deps.emit ?? (() => {});
  convo.messages.push({ role: "user", content: userText });
  let steps = 0;
  let actions = 0;
  let lastKey = "";
  let repeats = 0;
  let malformedRun = 0;
  let lengthRetries = 0;
  /** The answer streamed so far in the current model call (kept when the person interrupts). */
  let partial = "";
  const cancelled = (): TurnSummary => {
    interrupted(convo, partial);
    return { status: "cancelled", text: "cancelled", steps, actions };
  };

  while (true) {
    if (deps.signal?.aborted) return cancelled();
    if (steps >= budgets.maxStepsPerTurn) {
      const text =
        `stopped: this turn reached its step budget (${budgets.maxStepsPerTurn} model calls)`;
      emit({ type: "notice", message: text });
      return { status: "budget", text, steps, actions };
    }
    if (budgets.maxTotalSteps !== undefined && convo.totalSteps >= budgets.maxTotalSteps) {
      const text =
        `stopped: the session reached its total budget (${budgets.maxTotalSteps} model calls)`;
      emit({ type: "notice", message: text });
      return { status: "budget", text, steps, actions };
    }
    const spent = deps.context?.stopReason() ?? null;
    if (spent) {
      emit({ type: "notice", message: spent });
      return { status: "budget", text: spent, steps, actions };
    }
    steps++;
    convo.totalSteps++;
    let turn: ModelTurn;
    partial = "";
    try {
      turn = await requestTurn(convo, deps, {
        text: (delta) => {
          partial += delta;
          emit({ type: "text", delta });
        },
      });
    } catch (e) {
      if (deps.signal?.aborted) return cancelled();
      return { status: "error", text: describeError(e), steps, actions };
    }
    // A stream cut by the person may still come back as a (truncated) turn: it is an
    // interruption, not an answer that ran out of budget, and none of its tool calls runs.
    if (deps.signal?.aborted) return cancelled();
    partial = "";
    emit({ type: "model_done", turn });
    convo.messages.push({ role: "assistant", content: turn.text, toolCalls: turn.toolCalls });

    if (turn.toolCalls.length === 0) {
      if (turn.finishReason === "reasoning_exhausted" || turn.finishReason === "length") {
        const why = turn.finishReason === "reasoning_exhausted"
          ? "the model's reasoning used its whole output budget and no answer came back"
          : "the model's answer was cut off by its output budget";
        if (lengthRetries++ < 1) {
          emit({ type: "notice", message: `${why}; retie asks it once to continue, more briefly` });
          convo.messages.push({
            role: "user",
            content: "Your previous answer was cut off. Continue, more briefly.",
          });
          continue;
        }
        emit({ type: "notice", message: why });
        emit({ type: "failure", reason: why });
        return { status: "error", text: why, steps, actions };
      }
      return { status: "done", text: turn.text, steps, actions };
    }

    for (const call of turn.toolCalls) {
      const key = `${call.name}\u0000${normalizeArgs(call.argumentsJson)}`;
      repeats = key === lastKey ? repeats + 1 : 1;
      lastKey = key;
      let result: DispatchResult;
      if (repeats > budgets.maxRepeats) {
        result = {
          toolCallId: call.id,
          name: call.name,
          content: `error: this exact call was made ${repeats} times in a row and was not run ` +
            `again; its result has not changed. Try a different approach.`,
          isError: true,
          outcome: null,
        };
        if (repeats >= budgets.maxRepeats * 2) {
          pushResult(convo, result);
          const text = `stopped: the model repeated the same ${call.name} call ${repeats} times`;
          emit({ type: "notice", message: text });
          emit({ type: "failure", reason: "loop: identical tool call repeated" });
          answerRest(convo, turn.toolCalls, call);
          return { status: "loop", text, steps, actions };
        }
      } else {
        emit({ type: "tool_start", call });
        result = await deps.dispatch(call);
        actions++;
      }
      malformedRun = result.malformed ? malformedRun + 1 : 0;
      if (malformedRun === 3) emit({ type: "failure", reason: "repeated malformed tool calls" });
      emit({ type: "action", result });
      pushResult(convo, result);
      if (deps.signal?.aborted) {
        answerRest(convo, turn.toolCalls, call);
        return cancelled();
      }
    }
  }
}

/**
 * One request: the context prepares what is sent (compacting when needed); a context-overflow
 * error compacts once more and retries once, else fails with a message that says what to do.
 */
async function requestTurn(
  convo: Conversation,
  deps: LoopDeps,
  on: { text: (delta: string) => void },
): Promise<ModelTurn> {
  const emit = deps.emit ?? (() => {});
  for (let attempt = 0;; attempt++) {
    const messages = deps.context ? await deps.context.prepare(convo, deps.signal) : convo.messages;
    emit({ type: "model_start", model: deps.provider.model });
    try {
      const turn = await deps.provider.complete(
        { system: deps.system, messages, tools: deps.tools, signal: deps.signal },
        { onText: on.text, onReasoning: (delta) => emit({ type: "reasoning", delta }) },
      );
      deps.context?.record(turn, messages);
      return turn;
    } catch (e) {
      const overflow = e instanceof ProviderError && e.kind === "context_overflow";
      if (!overflow || !deps.context || deps.signal?.aborted) throw e;
      if (attempt === 0) {
        emit({
          type: "notice",
          message: "the conversation overflowed the model's context window: compacting",
        });
        if (await deps.context.overflow(convo, deps.signal, e.serviceMessage)) continue;
      }
      throw new ProviderError("context_overflow", e.serviceMessage, {
        status: e.status,
        model: e.model,
        hint: attempt === 0
          ? "nothing was left to compact: /clear starts a fresh conversation, or use a model " +
            "with a larger context window (--context-window tells retie a smaller one)"
          : "it still overflowed after compacting: /clear starts a fresh conversation, or set " +
            "a smaller --context-window so retie compacts earlier",
      });
    }
  }
}

function pushResult(convo: Conversation, r: DispatchResult): void {
  convo.messages.push({
    role: "tool",
    toolCallId: r.toolCallId,
    name: r.name,
    content: r.content,
    isError: r.isError,
  });
}

/** Every tool_use must get a result (Anthropic rejects a history without); answer the rest. */
function answerRest(convo: Conversation, calls: ToolCall[], last: ToolCall): void {
  const idx = calls.indexOf(last);
  for (const c of calls.slice(idx + 1)) {
    pushResult(convo, {
      toolCallId: c.id,
      name: c.name,
      content: "not run: the turn was stopped",
      isError: true,
      outcome: null,
    });
  }
}

/**
 * The person interrupted: the conversation keeps what they saw (the answer streamed so far) and a
 * short marker, and nothing else — never an instruction nobody typed.
 */
function interrupted(convo: Conversation, partial: string): void {
  const marker = "[interrupted by the user]";
  const last = convo.messages.at(-1);
  if (last?.role === "assistant" && last.content.endsWith(marker)) return;
  convo.messages.push({
    role: "assistant",
    content: partial ? `${partial}\n${marker}` : marker,
    toolCalls: [],
  });
}

function normalizeArgs(raw: string): string {
  try {
    return canonicalJson(JSON.parse(raw));
  } catch {
    return raw;
  }
}
