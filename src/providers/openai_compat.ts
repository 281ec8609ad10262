/**
 * The OpenAI chat-completions wire (Ollama Cloud `/v1`, OpenAI, any compatible server), through
 * the `openai` package with SDK retries off: retrying is retie's decision.
 *
 * @module
 */
import OpenAI from "openai";
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

/** A wire message in the chat-completions format. */
export type OpenAIWireMessage =
  | { role: "system" | "user"; content: string }
  | {
    role: "assistant";
    content: string;
    tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  }
  | { role: "tool"; tool_call_id: string; content: string };

/**
 * Messages → chat-completions messages: system first, assistant `tool_calls` with the raw
 * arguments string, `tool` messages with `tool_call_id`. Reasoning is never sent back.
 *
 * @example
 * ```ts
 * import { toOpenAIMessages } from "./openai_compat.ts";
 * toOpenAIMessages("be brief", [{ role: "user", content: "hi" }]);
 * // [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }]
 * ```
 */
export function toOpenAIMessages(system: string, messages: ChatMessage[]): OpenAIWireMessage[] {
  const out: OpenAIWireMessage[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.content });
    else if (m.role === "assistant") {
      out.push({
        role: "assistant",
        content: m.content,
        ...(m.toolCalls.length > 0
          ? {
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: "function" as const,
              // Servers reject non-JSON argument strings (Ollama: 400 "invalid tool call
              // arguments"); the malformed text itself already went back in the tool result.
              function: { name: c.name, arguments: validJsonObject(c.argumentsJson) },
            })),
          }
          : {}),
      });
    } else out.push({ role: "tool", tool_call_id: m.toolCallId, content: m.content });
  }
  return out;
}

function validJsonObject(s: string): string {
  try {
    const v = JSON.parse(s);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? s : "{}";
  } catch {
    return "{}";
  }
}

/**
 * Tool definitions → chat-completions tools.
 *
 * @example
 * ```ts
 * import { toOpenAITools } from "./openai_compat.ts";
 * toOpenAITools([{ name: "read", description: "Read a file", parameters: { type: "object" } }]);
 * ```
 */
export function toOpenAITools(tools: ToolDefinition[]) {
  return tools.map((t) => ({
    type: "function" as const,
    function: { name: t.name, description: t.description, parameters: wireSchema(t.parameters) },
  }));
}

function mapFinish(f: string | null | undefined): FinishReason | undefined {
  switch (f) {
    case null:
    case undefined:
      return undefined;
    case "stop":
      return "stop";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "length":
      return "length";
    case "content_filter":
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
 * import { fromOpenAIError } from "./openai_compat.ts";
 * const e = fromOpenAIError(new Error("socket hang up"), "m");
 * assert.ok(e instanceof ProviderError && e.kind === "network");
 * ```
 */
export function fromOpenAIError(e: unknown, model: string, signal?: AbortSignal): unknown {
  return fromSdkError(e, model, signal, {
    userAbort: OpenAI.APIUserAbortError,
    timeout: OpenAI.APIConnectionTimeoutError,
    connection: OpenAI.APIConnectionError,
    api: OpenAI.APIError,
    body: (error) => JSON.stringify({ error }),
  });
}

/**
 * A provider for an OpenAI-compatible chat-completions service.
 *
 * @example
 * ```ts
 * import { createOpenAICompatProvider } from "./openai_compat.ts";
 * const p = createOpenAICompatProvider({
 *   name: "ollama", baseUrl: "https://ollama.com/v1", apiKey: "key", model: "gpt-oss:120b",
 * });
 * // const turn = await p.complete({ system: "", messages: [{ role: "user", content: "hi" }], tools: [] });
 * ```
 */
export function createOpenAICompatProvider(opts: {
  name: "ollama" | "openai";
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
}): Provider {
  // Everything explicit: the SDK would otherwise read OPENAI_* variables at construction.
  const client = new OpenAI({
    baseURL: opts.baseUrl,
    apiKey: opts.apiKey,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: opts.timeoutMs ?? 600_000,
    logLevel: "off",
  });
  const model = opts.model;
  return {
    name: opts.name,
    model,
    async complete(req: TurnRequest, on?: StreamHandlers): Promise<ModelTurn> {
      const b = new TurnBuilder(model, on);
      let finish: FinishReason | undefined;
      const params = {
        model,
        messages: toOpenAIMessages(req.system, req.messages),
        ...(req.tools.length > 0 ? { tools: toOpenAITools(req.tools) } : {}),
        ...(req.maxTokens !== undefined
          ? opts.name === "openai"
            ? { max_completion_tokens: req.maxTokens }
            : { max_tokens: req.maxTokens }
          : {}),
        stream: true as const,
        stream_options: { include_usage: true },
      };
      try {
        const stream = (await client.chat.completions.create(
          // deno-lint-ignore no-explicit-any
          params as any,
          { signal: req.signal },
        )) as unknown as AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
        for await (const chunk of stream) {
          if (chunk.model) b.model = chunk.model;
          if (chunk.usage) {
            b.usage = {
              inputTokens: chunk.usage.prompt_tokens ?? 0,
              outputTokens: chunk.usage.completion_tokens ?? 0,
            };
          }
          // The usage chunk has `choices: []`.
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = (choice.delta ?? {}) as Record<string, unknown> & typeof choice.delta;
          // Ollama: `reasoning`; some OpenAI-compatible servers: `reasoning_content`.
          const r = delta.reasoning ?? delta.reasoning_content;
          if (typeof r === "string") b.reasoning(r);
          if (typeof delta.content === "string") b.text(delta.content);
          for (const tc of delta.tool_calls ?? []) {
            b.toolFragment(tc.index ?? 0, {
              id: tc.id ?? undefined,
              name: tc.function?.name ?? undefined,
              args: tc.function?.arguments ?? undefined,
            });
          }
          if (choice.finish_reason) finish = mapFinish(choice.finish_reason);
        }
      } catch (e) {
        throw fromOpenAIError(e, model, req.signal);
      }
      return b.finish(finish);
    },
  };
}
