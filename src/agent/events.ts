/**
 * What the agent loop says while it works, as one union of events, and the hub a terminal (or a
 * test, or a recorder) subscribes to. The loop only emits; it never knows who listens, so the
 * renderer lives in `src/ui/` and a headless run, the REPL and the demo subscribe the same way.
 *
 * @module
 */
import type { ModelTurn, ToolCall } from "../providers/types.ts";
import type { DispatchResult } from "./dispatch.ts";

/** How a turn ended. */
export interface TurnSummary {
  status: "done" | "budget" | "loop" | "error" | "cancelled";
  /** The model's final text (or the error). */
  text: string;
  steps: number;
  actions: number;
}

/** Everything the loop reports, in the order it happens. */
export type AgentEvent =
  /** A model call starts (the ladder may have moved to another model since the last one). */
  | { type: "model_start"; model: string }
  /** A piece of the answer as it streams. */
  | { type: "text"; delta: string }
  /** A piece of the model's reasoning as it streams (shown apart from the answer). */
  | { type: "reasoning"; delta: string }
  /** The model call finished; the whole turn as the provider reassembled it. */
  | { type: "model_done"; turn: ModelTurn }
  /** A tool call is about to go through the dispatch (and perhaps ask the person). */
  | { type: "tool_start"; call: ToolCall }
  /** Output a running tool printed (a command's stdout or stderr), as it arrives. */
  | { type: "tool_output"; call: ToolCall; stream: "stdout" | "stderr"; text: string }
  /** A tool call ended (ran, failed or was refused). */
  | { type: "action"; result: DispatchResult }
  /** Something the person should read (a budget reached, an answer cut off). */
  | { type: "notice"; message: string }
  /** A failure the model ladder may escalate on (loops, repeated malformed calls). */
  | { type: "failure"; reason: string }
  /** The turn ended, however it ended (done, budget, loop, error, cancelled). */
  | { type: "turn_end"; summary: TurnSummary };

/** The same events as callbacks, one per kind (for callers that prefer them to a switch). */
export interface AgentEvents {
  onModelStart?: (model: string) => void;
  onText?: (delta: string) => void;
  onReasoning?: (delta: string) => void;
  onModelDone?: (turn: ModelTurn) => void;
  onToolStart?: (call: ToolCall) => void;
  onToolOutput?: (call: ToolCall, stream: "stdout" | "stderr", text: string) => void;
  onAction?: (result: DispatchResult) => void;
  onNotice?: (message: string) => void;
  /** A failure the model ladder may escalate on (loops, repeated malformed calls). */
  onFailure?: (reason: string) => void;
  /** The turn ended, however it ended (done, budget, loop, error, cancelled). */
  onTurnEnd?: (summary: TurnSummary) => void;
}

/**
 * A listener that calls the matching callback of `events`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventHub, fromCallbacks } from "./events.ts";
 * const hub = new EventHub();
 * const notes: string[] = [];
 * hub.subscribe(fromCallbacks({ onNotice: (m) => notes.push(m) }));
 * hub.emit({ type: "notice", message: "budget reached" });
 * assert.deepEqual(notes, ["budget reached"]);
 * ```
 */
export function fromCallbacks(events: AgentEvents): AgentListener {
  return (e) => {
    switch (e.type) {
      case "model_start":
        return events.onModelStart?.(e.model);
      case "text":
        return events.onText?.(e.delta);
      case "reasoning":
        return events.onReasoning?.(e.delta);
      case "model_done":
        return events.onModelDone?.(e.turn);
      case "tool_start":
        return events.onToolStart?.(e.call);
      case "tool_output":
        return events.onToolOutput?.(e.call, e.stream, e.text);
      case "action":
        return events.onAction?.(e.result);
      case "notice":
        return events.onNotice?.(e.message);
      case "failure":
        return events.onFailure?.(e.reason);
      case "turn_end":
        return events.onTurnEnd?.(e.summary);
    }
  };
}

/** A listener; it is called synchronously, in subscription order. */
export type AgentListener = (event: AgentEvent) => void;

/**
 * A list of listeners. A listener that throws does not stop the loop or the other listeners:
 * what the terminal fails to draw must never change what the agent does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventHub } from "./events.ts";
 * const hub = new EventHub();
 * const seen: string[] = [];
 * const off = hub.subscribe((e) => seen.push(e.type));
 * hub.emit({ type: "notice", message: "hi" });
 * off();
 * hub.emit({ type: "notice", message: "unheard" });
 * assert.deepEqual(seen, ["notice"]);
 * ```
 */
export class EventHub {
  #listeners: AgentListener[] = [];

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: AgentListener): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** Tells every listener. */
  emit(event: AgentEvent): void {
    for (const l of [...this.#listeners]) {
      try {
        l(event);
      } catch (e) {
        // A renderer's failure is not the agent's: say so once per event, go on.
        console.error(`retie: a listener failed on ${event.type}: ${(e as Error)?.message ?? e}`);
      }
    }
  }
}
