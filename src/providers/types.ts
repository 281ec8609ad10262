/**
 * The provider contract: translate tool definitions and messages to a wire format and back.
 * Providers never execute anything; they only ever see {@link ToolDefinition}s.
 *
 * @module
 */
import type { ToolDefinition } from "../core/tool.ts";

/** A tool call as the model asked for it. Arguments stay raw text: the agent parses them. */
export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (may be malformed JSON). */
  argumentsJson: string;
}

/** A message in the conversation, provider-neutral. */
export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError?: boolean };

/** Token counts for one call. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Why a turn ended.
 * - `stop`: the model finished its answer.
 * - `tool_calls`: the model asked for tools.
 * - `length`: the output budget ran out mid-answer.
 * - `reasoning_exhausted`: reasoning used the whole budget and the content came back empty.
 * - `refusal` / `other`: anything else the service reports.
 */
export type FinishReason =
  | "stop"
  | "tool_calls"
  | "length"
  | "reasoning_exhausted"
  | "refusal"
  | "other";

/** One model response, reassembled from the stream. */
export interface ModelTurn {
  /** Assistant text (reasoning excluded). */
  text: string;
  /** Reasoning/thinking text, kept apart: shown dimmed, never sent back. */
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** Usage as reported by the service (zeros when it reported none). */
  usage: Usage;
  /** The model that served the call. */
  model: string;
}

/** A request for one model turn. */
export interface TurnRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  maxTokens?: number;
  signal?: AbortSignal;
}

/** Streaming callbacks: text and reasoning as they arrive. */
export interface StreamHandlers {
  onText?: (delta: string) => void;
  onReasoning?: (delta: string) => void;
}

/** A model behind a wire format. */
export interface Provider {
  /** `ollama`, `openai`, `anthropic` or `scripted`. */
  readonly name: string;
  /** The model this provider instance calls. */
  readonly model: string;
  /** Runs one turn, streaming; throws {@link ProviderError} on service errors. */
  complete(req: TurnRequest, on?: StreamHandlers): Promise<ModelTurn>;
}
