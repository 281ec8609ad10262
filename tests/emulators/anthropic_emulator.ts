/**
 * An Anthropic Messages API emulator: an HTTP server on 127.0.0.1 (port 0) that speaks the SSE
 * wire format recorded in `shared/reference/wire.md` §2 and §4, scripted per test.
 *
 * - `POST /v1/messages` with `x-api-key` (or `Authorization: Bearer`, as SDK 1.14 sends it): `event:`-named SSE frames; `message_start` with usage,
 *   `ping`s (also right after a tool_use's first empty `input_json_delta`), content blocks (text,
 *   thinking + `signature_delta`, tool_use starting with `input: {}` then `""` then fragments),
 *   `message_delta` (stop_reason + cumulative usage), `message_stop`.
 * - Mid-stream `event: error`; HTTP errors `{"type":"error","error":{type,message},"request_id"}`
 *   with a `request-id` header (+ `retry-after` on 429).
 * - Validates tool_use/tool_result pairing with the exact 400 texts of wire.md §2.3.
 *
 * @example
 * ```ts
 * const emu = startAnthropicEmulator({ script: [{ text: "hi" }] });
 * // new Anthropic({ baseURL: emu.url, apiKey: "test-key" }) ...
 * await emu.close();
 * ```
 */
import type { Emulator, RecordedRequest } from "./ollama_emulator.ts";

export type { Emulator, RecordedRequest };

/** One scripted answer to one `/v1/messages` call. */
export interface AnthropicCall {
  /** Text block; an array is one `text_delta` per element. */
  text?: string | string[];
  /** Thinking block (sent first); an array is one `thinking_delta` per element. */
  thinking?: string | string[];
  /** tool_use blocks; `fragments` are the `input_json_delta` pieces (default: the JSON of
   * `input` in 5-character pieces). */
  toolCalls?: { name: string; input?: unknown; fragments?: string[]; id?: string }[];
  /** Default `tool_use` when tool calls were sent, else `end_turn`. */
  stopReason?: "end_turn" | "max_tokens" | "tool_use" | "stop_sequence" | "refusal" | "pause_turn";
  usage?: { input: number; output: number };
  /** Answer with this HTTP error (type e.g. `rate_limit_error`). */
  error?: { status: number; type: string; message: string; headers?: Record<string, string> };
  /** Send `event: error` after the first content block starts, then close. */
  streamError?: { type: string; message: string };
  delayMs?: number;
}

/** The error statuses and types of wire.md §2.2. */
export const ANTHROPIC_ERRORS = {
  auth: { status: 401, type: "authentication_error", message: "invalid x-api-key" },
  notFound: { status: 404, type: "not_found_error", message: "model: claude-nope" },
  rateLimit: (retryAfterSeconds = 7) => ({
    status: 429,
    type: "rate_limit_error",
    message: "This request would exceed your account's rate limit. Please try again later.",
    headers: { "retry-after": String(retryAfterSeconds) },
  }),
  overloaded: { status: 529, type: "overloaded_error", message: "Overloaded" },
  server: { status: 500, type: "api_error", message: "Internal server error" },
  billing: { status: 402, type: "billing_error", message: "Your credit balance is too low." },
  permission: {
    status: 403,
    type: "permission_error",
    message: "Your API key does not have permission to use the specified resource.",
  },
  /** [I] Not in wire.md: the 400 `invalid_request_error` Anthropic answers when the prompt does
   * not fit the model's window, in the wording it is widely quoted with. */
  promptTooLong: (tokens: number, max: number) => ({
    status: 400,
    type: "invalid_request_error",
    message: `prompt is too long: ${tokens} tokens > ${max} maximum`,
  }),
} as const;

/** The emulators' token count: 4 characters of the request's JSON per token (deterministic). */
export function emulatedTokens(body: unknown): number {
  return Math.ceil(JSON.stringify(body ?? "").length / 4);
}

let seq = 0;
const rid = (prefix: string) =>
  `${prefix}_011${(Date.now().toString(36) + (++seq).toString(36)).padEnd(20, "X").slice(0, 20)}`;

function errorResponse(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const requestId = rid("req");
  return new Response(
    JSON.stringify({ type: "error", error: { type, message }, request_id: requestId }),
    {
      status,
      headers: { "content-type": "application/json", "request-id": requestId, ...headers },
    },
  );
}

interface Block {
  type: string;
  id?: string;
  tool_use_id?: string;
}

/** The pairing rules of wire.md §2.3; returns the exact 400 message, or null when valid. */
export function pairingError(messages: { role: string; content: unknown }[]): string | null {
  const blocks = (c: unknown): Block[] => (Array.isArray(c) ? (c as Block[]) : []);
  for (let n = 0; n < messages.length; n++) {
    const m = messages[n];
    if (m.role === "user") {
      const prev = n > 0 && messages[n - 1].role === "assistant" ? messages[n - 1] : undefined;
      const uses = new Set(
        blocks(prev?.content).filter((b) => b.type === "tool_use").map((b) => b.id),
      );
      const content = blocks(m.content);
      for (let k = 0; k < content.length; k++) {
        const b = content[k];
        if (b.type === "tool_result" && !uses.has(b.tool_use_id)) {
          return `messages.${n}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
    }
    if (m.role === "assistant") {
      const ids = blocks(m.content).filter((b) => b.type === "tool_use").map((b) => b.id!);
      if (ids.length === 0) continue;
      const next = messages[n + 1];
      const answered = new Set<string>();
      if (next?.role === "user") {
        // Only the results at the start of the next message count.
        for (const b of blocks(next.content)) {
          if (b.type !== "tool_result") break;
          answered.add(b.tool_use_id!);
        }
      }
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return `messages.${n}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${
          missing.join(", ")
        }. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
  }
  return null;
}

const asArray = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

function frame(event: string, data: Record<string, unknown>): string {
  return `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
}

function sseFrames(call: AnthropicCall, model: string): string[] {
  const u = call.usage ?? { input: 12, output: 6 };
  const out: string[] = [];
  out.push(frame("message_start", {
    message: {
      id: rid("msg"),
      type: "message",
      role: "assistant",
      model,
      stop_sequence: null,
      usage: {
        input_tokens: u.input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: 1,
        service_tier: "standard",
      },
      content: [],
      stop_reason: null,
    },
  }));
  let index = 0;
  const delta = (d: Record<string, unknown>) =>
    out.push(frame("content_block_delta", { index, delta: d }));
  const stop = () => out.push(frame("content_block_stop", { index: index++ }));
  const thinking = asArray(call.thinking);
  if (thinking.length) {
    out.push(
      frame("content_block_start", {
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      }),
    );
    for (const t of thinking) delta({ type: "thinking_delta", thinking: t });
    delta({
      type: "signature_delta",
      signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
    });
    stop();
  }
  const text = asArray(call.text);
  if (text.length || (!thinking.length && !call.toolCalls?.length)) {
    out.push(frame("content_block_start", { index, content_block: { type: "text", text: "" } }));
    out.push(frame("ping", {}));
    if (call.streamError) {
      out.push(frame("error", { error: call.streamError }));
      return out;
    }
    for (const t of text) delta({ type: "text_delta", text: t });
    stop();
  }
  if (call.streamError) {
    out.push(frame("error", { error: call.streamError }));
    return out;
  }
  for (const tc of call.toolCalls ?? []) {
    const id = tc.id ?? rid("toolu");
    out.push(frame("content_block_start", {
      index,
      content_block: { type: "tool_use", id, name: tc.name, input: {} },
    }));
    delta({ type: "input_json_delta", partial_json: "" });
    out.push(frame("ping", {}));
    const json = JSON.stringify(tc.input ?? {});
    const pieces = tc.fragments ??
      Array.from({ length: Math.ceil(json.length / 5) }, (_, k) => json.slice(k * 5, k * 5 + 5));
    for (const p of pieces) delta({ type: "input_json_delta", partial_json: p });
    stop();
  }
  const stopReason = call.stopReason ?? (call.toolCalls?.length ? "tool_use" : "end_turn");
  out.push(frame("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: {
      input_tokens: u.input,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: u.output,
    },
  }));
  out.push(frame("message_stop", {}));
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts the emulator. `script` answers `/v1/messages` calls in order (or per request).
 *
 * @example
 * ```ts
 * const emu = startAnthropicEmulator({ script: [{ error: ANTHROPIC_ERRORS.overloaded }] });
 * await emu.close();
 * ```
 */
export function startAnthropicEmulator(opts: {
  // deno-lint-ignore no-explicit-any
  script: AnthropicCall[] | ((body: any, i: number) => AnthropicCall);
  apiKey?: string;
  /** Enforce a context window: a request above it (by {@link emulatedTokens} of system, messages
   * and tools) gets the "prompt is too long" 400, and usage reports the counted input tokens. */
  contextWindow?: number;
}): Emulator {
  const apiKey = opts.apiKey ?? "test-key";
  const requests: RecordedRequest[] = [];
  let callIndex = 0;
  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    const raw = req.method === "POST" ? await req.text() : "";
    // deno-lint-ignore no-explicit-any
    let body: any = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    requests.push({ path: url.pathname, method: req.method, headers, body });
    if (req.method !== "POST" || url.pathname !== "/v1/messages") {
      return errorResponse(404, "not_found_error", "Not Found");
    }
    // wire.md §2.4 (older SDKs) sends `x-api-key`; the installed SDK 1.14.0 sends the key as
    // `Authorization: Bearer` (with anthropic-version 2026-10-21). Accept either.
    if (headers["x-api-key"] !== apiKey && headers["authorization"] !== `Bearer ${apiKey}`) {
      return errorResponse(401, "authentication_error", "invalid x-api-key");
    }
    if (typeof body !== "object" || body === null) {
      return errorResponse(
        400,
        "invalid_request_error",
        "There was an issue with the request body: not JSON",
      );
    }
    for (const field of ["model", "max_tokens", "messages"]) {
      if (body[field] === undefined) {
        return errorResponse(400, "invalid_request_error", `${field}: Field required`);
      }
    }
    const pairing = pairingError(body.messages);
    if (pairing) return errorResponse(400, "invalid_request_error", pairing);
    const counted = emulatedTokens({ s: body.system, m: body.messages, t: body.tools });
    if (opts.contextWindow && counted > opts.contextWindow) {
      const e = ANTHROPIC_ERRORS.promptTooLong(counted, opts.contextWindow);
      return errorResponse(e.status, e.type, e.message);
    }
    const i = callIndex++;
    const call: AnthropicCall = typeof opts.script === "function"
      ? opts.script(body, i)
      : opts.script[i] ??
        {
          error: {
            status: 500,
            type: "api_error",
            message: `emulator script exhausted at call ${i}`,
          },
        };
    if (opts.contextWindow && !call.usage) call.usage = { input: counted, output: 5 };
    if (call.delayMs) await sleep(call.delayMs);
    if (call.error) {
      return errorResponse(
        call.error.status,
        call.error.type,
        call.error.message,
        call.error.headers,
      );
    }
    const requestId = rid("req");
    const common = {
      "request-id": requestId,
      "anthropic-ratelimit-requests-limit": "1000",
      "anthropic-ratelimit-requests-remaining": "999",
      "anthropic-ratelimit-requests-reset": new Date(Date.now() + 60_000).toISOString(),
    };
    if (body.stream !== true) {
      return errorResponse(400, "invalid_request_error", "emulator: only streaming is scripted");
    }
    const enc = new TextEncoder();
    const frames = sseFrames(call, String(body.model));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const f of frames) controller.enqueue(enc.encode(f));
        controller.close();
      },
    });
    return new Response(stream, {
      status: 200,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        ...common,
      },
    });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const addr = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${addr.port}`, requests, close: () => server.shutdown() };
}
