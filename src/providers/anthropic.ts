/**
 * The Anthropic Messages wire, through `@anthropic-ai/sdk` with SDK retries off.
 *
 * @module
 */
import Anthropic from "@anthropic-ai/sdk";
import type { ToolDefinition } from "../core/tool.ts";
import { fromSdkError } from "./error_map.ts";
import { TurnBuilder, wireSchema } from "./turn_builder.ts";
import type {
  ChatMessage,
  FinishReason,
  ModelTurn,
  Provider,
  StreamHandlers,
  TurnRequest,
} from "./types.ts";

/** A content block we send. */
export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string; is_error?: true };

/** A wire message in the Messages format. */
export interface AnthropicWireMessage {
  role: "user" | "assistant";
  content: string | AnthropicBlock[];
}

/** The translated conversation, plus the tool_use ids whose raw arguments were not a JSON object
 * (sent as `input: {}`; the agent already told the model about the parse error). */
export interface AnthropicTranslation {
  messages: AnthropicWireMessage[];
  malformedToolUseIds: string[];
}

function parseObject(s: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(s);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Messages → Anthropic messages. Tool results become `tool_result` blocks at the start of the
 * NEXT user message (one per tool_use id, consecutive tool messages merged), `is_error` for
 * failures; assistant turns become `text` + `tool_use` blocks. Reasoning is never sent back.
 *
 * @example
 * ```ts
 * import { toAnthropicMessages } from "./anthropic.ts";
 * toAnthropicMessages([
 *   { role: "user", content: "list" },
 *   { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "ls", argumentsJson: "{}" }] },
 *   { role: "tool", toolCallId: "t1", name: "ls", content: "a.txt" },
 * ]).messages[2]; // { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a.txt" }] }
 * ```
 */
export function toAnthropicMessages(messages: ChatMessage[]): AnthropicTranslation {
  const out: AnthropicWireMessage[] = [];
  const malformedToolUseIds: string[] = [];
  let pending: AnthropicBlock[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: "user", content: pending });
    pending = [];
  };
  for (const m of messages) {
    if (m.role === "tool") {
      pending.push({
        type: "tool_result",
        tool_use_id: m.toolCallId,
        content: m.content,
        ...(m.isError ? { is_error: true as const } : {}),
      });
    } else if (m.role === "user") {
      if (pending.length > 0) {
        // Results first, then the person's text, in one user message.
        out.push({ role: "user", content: [...pending, { type: "text", text: m.content }] });
        pending = [];
      } else out.push({ role: "user", content: m.content });
    } else {
      flush();
      const blocks: AnthropicBlock[] = [];
      if (m.content.trim() !== "") blocks.push({ type: "text", text: m.content });
      for (const c of m.toolCalls) {
        const input = parseObject(c.argumentsJson);
        if (input === undefined) malformedToolUseIds.push(c.id);
        blocks.push({ type: "tool_use", id: c.id, name: c.name, input: input ?? {} });
      }
      // An empty assistant turn is rejected by the API; it carried nothing anyway.
      if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
    }
  }
  flush();
  return { messages: out, malformedToolUseIds };
}

/**
 * Tool definitions → Anthropic tools.
 *
 * @example
 * ```ts
 * import { toAnthropicTools } from "./anthropic.ts";
 * toAnthropicTools([{ name: "read", description: "Read a file", parameters: { type: "object" } }]);
 * ```
 */
export function toAnthropicTools(tools: ToolDefinition[]) {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: wireSchema(t.parameters),
  }));
}

function mapStop(s: string | null | undefined): FinishReason | undefined {
  switch (s) {
    case null:
    case undefined:
      return undefined;
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "refusal";
    default:
      return "other";
  }
}

/**
 * Turns whatever the SDK threw into a {@link ProviderError} (abort errors pass through).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProviderError } from "./errors.ts";
 * import { fromAnthropicError } from "./anthropic.ts";
 * const e = fromAnthropicError(new Error("socket hang up"), "m");
 * assert.ok(e instanceof ProviderError && e.kind === "network");
 * ```
 */
export function fromAnthropicError(e: unknown, model: string, signal?: AbortSignal): unknown {
  return fromSdkError(e, model, signal, {
    userAbort: Anthropic.APIUserAbortError,
    timeout: Anthropic.APIConnectionTimeoutError,
    connection: Anthropic.APIConnectionError,
    api: Anthropic.APIError,
    body: (error) => JSON.stringify(error),
  });
}

/**
 * A provider for the Anthropic Messages API.
 *
 * @example
 * ```ts
 * import { createAnthropicProvider } from "./anthropic.ts";
 * const p = createAnthropicProvider({ apiKey: "key", model: "claude-sonnet-4-5" });
 * // const turn = await p.complete({ system: "", messages: [{ role: "user", content: "hi" }], tools: [] });
 * ```
 */
export function createAnthropicProvider(opts: {
  baseUrl?: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
}): Provider {
  // Everything explicit: the SDK would otherwise read ANTHROPIC_* variables at construction.
  const client = new Anthropic({
    baseURL: opts.baseUrl ?? "https://api.anthropic.com",
    apiKey: opts.apiKey,
    authToken: null,
    webhookKey: null,
    maxRetries: 0,
    timeout: opts.timeoutMs ?? 600_000,
    logLevel: "off",
    // Explicit, so the SDK reads no ANTHROPIC_OPEN_TELEMETRY* variables and sends no trace headers.
    openTelemetry: { traces: false, propagation: false },
  });
  const model = opts.model;
  return {
    name: "anthropic",
    model,
    async complete(req: TurnRequest, on?: StreamHandlers): Promise<ModelTurn> {
      const b = new TurnBuilder(model, on);
      const blockKind = new Map<number, string>();
      let finish: FinishReason | undefined;
      const { messages } = toAnthropicMessages(req.messages);
      const params = {
        model,
        max_tokens: req.maxTokens ?? 8192,
        messages,
        ...(req.system ? { system: req.system } : {}),
        ...(req.tools.length > 0 ? { tools: toAnthropicTools(req.tools) } : {}),
        stream: true as const,
      };
      try {
        const stream = (await client.messages.create(
          // deno-lint-ignore no-explicit-any
          params as any,
          { signal: req.signal },
        )) as unknown as AsyncIterable<Anthropic.Messages.RawMessageStreamEvent>;
        for await (const ev of stream) {
          switch (ev.type) {
            case "message_start":
              if (ev.message.model) b.model = ev.message.model;
              b.usage = {
                inputTokens: ev.message.usage?.input_tokens ?? 0,
                outputTokens: ev.message.usage?.output_tokens ?? 0,
              };
              break;
            case "content_block_start": {
              const cb = ev.content_block;
              blockKind.set(ev.index, cb.type);
              if (cb.type === "tool_use") b.toolFragment(ev.index, { id: cb.id, name: cb.name });
              else if (cb.type === "text" && cb.text) b.text(cb.text);
              else if (cb.type === "thinking" && cb.thinking) b.reasoning(cb.thinking);
              break;
            }
            case "content_block_delta": {
              const d = ev.delta;
              if (d.type === "text_delta") b.text(d.text);
              else if (d.type === "thinking_delta") b.reasoning(d.thinking);
              else if (d.type === "input_json_delta") {
                b.toolFragment(ev.index, { args: d.partial_json });
              }
              break;
            }
            case "message_delta": {
              // Cumulative counts; input_tokens is repeated on newer streams.
              const u = ev.usage as { input_tokens?: number | null; output_tokens?: number | null };
              if (typeof u?.input_tokens === "number") b.usage.inputTokens = u.input_tokens;
              if (typeof u?.output_tokens === "number") b.usage.outputTokens = u.output_tokens;
              finish = mapStop(ev.delta.stop_reason);
              break;
            }
          }
        }
      } catch (e) {
        throw fromAnthropicError(e, model, req.signal);
      }
      const turn = b.finish(finish);
      // A tool_use whose input streamed nothing has no arguments: that is `{}`.
      turn.toolCalls = turn.toolCalls.map((c) =>
        c.argumentsJson === "" ? { ...c, argumentsJson: "{}" } : c
      );
      return turn;
    },
  };
}
