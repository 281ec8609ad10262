/**
 * Reassembles one streamed model turn, whatever the wire: text and reasoning kept apart, tool
 * calls merged by index whether their arguments arrive whole (Ollama) or in fragments (OpenAI,
 * Anthropic `input_json_delta`), and the finish reason decided once at the end.
 *
 * @module
 */
import type { FinishReason, ModelTurn, StreamHandlers, ToolCall, Usage } from "./types.ts";

interface Slot {
  id: string;
  name: string;
  args: string;
}

/**
 * Accumulates deltas of one turn and calls the stream handlers as text arrives.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TurnBuilder } from "./turn_builder.ts";
 * const b = new TurnBuilder("m");
 * b.text("Hel"); b.text("lo");
 * b.toolFragment(0, { id: "c1", name: "read" }); b.toolFragment(0, { args: '{"p":1}' });
 * assert.deepEqual(b.finish("tool_calls").text, "Hello");
 * ```
 */
export class TurnBuilder {
  #text = "";
  #reasoning = "";
  #slots = new Map<number, Slot>();
  #order: Slot[] = [];
  usage: Usage = { inputTokens: 0, outputTokens: 0 };

  constructor(public model: string, private on: StreamHandlers = {}) {}

  /** Appends assistant text. */
  text(delta: string): void {
    if (!delta) return;
    this.#text += delta;
    this.on.onText?.(delta);
  }

  /** Appends reasoning (never part of the text). */
  reasoning(delta: string): void {
    if (!delta) return;
    this.#reasoning += delta;
    this.on.onReasoning?.(delta);
  }

  /**
   * Merges a tool-call fragment by index. A fragment carrying an id different from the slot's
   * starts a new call (some servers repeat index 0 for parallel calls).
   */
  toolFragment(index: number, f: { id?: string; name?: string; args?: string }): void {
    let slot = this.#slots.get(index);
    if (!slot || (f.id && slot.id && f.id !== slot.id)) {
      slot = { id: f.id ?? "", name: f.name ?? "", args: "" };
      this.#slots.set(index, slot);
      this.#order.push(slot);
    } else {
      if (f.id) slot.id = f.id;
      if (f.name) slot.name = slot.name || f.name;
    }
    if (f.args) slot.args += f.args;
  }

  /** The tool calls so far, in arrival order (missing ids filled in). */
  toolCalls(): ToolCall[] {
    return this.#order.map((s, i) => ({
      id: s.id || `call_${i}`,
      name: s.name,
      argumentsJson: s.args,
    }));
  }

  /**
   * Ends the turn. `reported` is the service's finish, already mapped (undefined when the
   * stream ended without one). Tool calls win over a `stop` (Ollama sometimes says `stop`);
   * an empty answer whose reasoning ran is `reasoning_exhausted`.
   */
  finish(reported: FinishReason | undefined): ModelTurn {
    const toolCalls = this.toolCalls();
    let finishReason: FinishReason;
    if (toolCalls.length > 0 && reported !== "length") finishReason = "tool_calls";
    else if (
      toolCalls.length === 0 && this.#text.trim() === "" && this.#reasoning.trim() !== "" &&
      (reported === "length" || reported === "stop" || reported === undefined)
    ) finishReason = "reasoning_exhausted";
    else finishReason = reported ?? (toolCalls.length > 0 ? "tool_calls" : "other");
    return {
      text: this.#text,
      reasoning: this.#reasoning,
      toolCalls,
      finishReason,
      usage: this.usage,
      model: this.model,
    };
  }
}

/**
 * Strips the `$schema` key zod adds: both wires want a bare object schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wireSchema } from "./turn_builder.ts";
 * assert.deepEqual(wireSchema({ $schema: "x", type: "object" }), { type: "object" });
 * ```
 */
export function wireSchema(p: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = p;
  return { type: "object", ...rest };
}
