/**
 * An Ollama Cloud `/v1` emulator: an HTTP server on 127.0.0.1 (port 0) that speaks the wire format
 * recorded in `shared/reference/wire.md` §1 and §4, scripted per test.
 *
 * - `POST /v1/chat/completions`: Bearer auth (401 OpenAI-shaped), data-only SSE frames with
 *   `delta.role` + `delta.content` on every chunk, reasoning in `delta.reasoning`, tool calls whole
 *   (id/index/type/full arguments), a finish chunk, a usage chunk with `choices: []` only when
 *   `stream_options.include_usage` is set, then `data: [DONE]`; JSON when `stream` is false.
 * - `GET /v1/models`, `GET /api/tags`: public (no auth), from `models`.
 * - `POST /api/show` ([I] not in wire.md; shape of Ollama's documented /api/show): `model_info`
 *   with `general.architecture` and `<arch>.context_length` when `contextLength` is given.
 * - With `contextLength`, a chat request whose counted tokens exceed it is refused with a 400
 *   ([I] wording of llama.cpp-based servers, {@link OLLAMA_ERRORS.contextOverflow}), and usage
 *   reports the counted prompt tokens.
 * - Errors are sent before any SSE byte, with the exact bodies of §1.3 ({@link OLLAMA_ERRORS}).
 *
 * @example
 * ```ts
 * const emu = startOllamaEmulator({ script: [{ text: "hello" }] });
 * // new OpenAI({ baseURL: `${emu.url}/v1`, apiKey: "test-key" }) ...
 * await emu.close();
 * ```
 */

/** An HTTP error the emulator answers with, before any SSE byte. */
export interface EmulatedError {
  status: number;
  /** A string is sent verbatim; an object as JSON. */
  body: string | Record<string, unknown>;
  headers?: Record<string, string>;
  /** Default `application/json`; the real 404 says `text/html`. */
  contentType?: string;
}

/** One scripted answer to one chat call. */
export interface EmulatedCall {
  /** Assistant text; an array is sent as one chunk per element. */
  text?: string | string[];
  /** Reasoning, sent in `delta.reasoning`; an array is one chunk per element. */
  reasoning?: string | string[];
  /** Tool calls, each sent whole in one chunk (arguments is the raw JSON string). */
  toolCalls?: { name: string; arguments: string; id?: string }[];
  /** Stream each call's arguments in pieces of this many characters, OpenAI style (first
   * fragment: id/type/name with `arguments: ""`, then `{index, function: {arguments}}` only). */
  fragmentArguments?: number;
  /** Put the tool calls in the same chunk as `finish_reason` (seen with gpt-oss/qwen3-coder). */
  toolCallsInFinishChunk?: boolean;
  /** Finish reason; default `tool_calls` when tool calls were sent, else `stop`. `null`: the
   * stream ends without any finish chunk (seen in the wild). */
  finish?: "stop" | "length" | null;
  /** Token counts reported in the usage chunk. Default {prompt: 10, completion: 5}. */
  usage?: { prompt: number; completion: number };
  /** Answer with this HTTP error instead (before any SSE byte). */
  error?: EmulatedError;
  /** After the content chunks, send `data: {"error":{"message":…}}` and close (no status). */
  midStreamError?: string;
  /** Wait this long before answering (keep it short: close() waits for it). */
  delayMs?: number;
  /** Wait this long between SSE frames: a stream a person can interrupt midway. */
  frameDelayMs?: number;
}

/** A recorded request. */
export interface RecordedRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A running emulator. */
export interface Emulator {
  /** `http://127.0.0.1:PORT` (append `/v1` for the OpenAI SDK). */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The error table of wire.md §1.3, as the emulator sends it on `/v1`. */
export const OLLAMA_ERRORS = {
  unauthorized: {
    status: 401,
    body: { error: { message: "Unauthorized", type: "api_error", param: null, code: null } },
  },
  notFound: (model: string): EmulatedError => ({
    status: 404,
    body: {
      error: {
        message: `model "${model}" not found`,
        type: "not_found_error",
        param: null,
        code: null,
      },
    },
    contentType: "text/html",
  }),
  subscription403: {
    status: 403,
    body: {
      error: {
        message:
          "this model requires a subscription, upgrade for access: https://ollama.com/upgrade (ref: e7592a59-d5d4-4e52-b072-905bdb4f9fbc)",
        type: "api_error",
        param: null,
      },
    },
  },
  proAndExtra403: {
    status: 403,
    body: {
      error: {
        message:
          "this model requires both a Pro, Max, or Team plan and extra usage (it does not use included plan usage), upgrade for access: https://ollama.com/upgrade then add extra usage: https://ollama.com/settings (ref: 53e9)",
        type: "api_error",
      },
    },
  },
  plan402: {
    status: 402,
    body: {
      error:
        "This model is not in the Free plan. Pro is $20/month for $60 of usage, with no 5-hour or weekly caps: https://ollama.com/upgrade (ref: 1f2e3d4c)",
    },
  },
  session429: {
    status: 429,
    body: {
      error: {
        message:
          "you (someone) have reached your session usage limit, upgrade for higher limits: https://ollama.com/upgrade",
        type: "api_error",
      },
    },
  },
  hourly429: {
    status: 429,
    body: {
      error: {
        message: "you've reached your hourly usage limit, please wait or upgrade to continue",
        type: "api_error",
      },
    },
  },
  weekly429: {
    status: 429,
    body: {
      error: {
        message: "you (someone) have reached your weekly usage limit, upgrade for higher limits",
        type: "api_error",
      },
    },
  },
  concurrency429: (retryAfterSeconds = 11): EmulatedError => ({
    status: 429,
    body: { error: "too many concurrent requests" },
    headers: { "retry-after": String(retryAfterSeconds) },
  }),
  overloaded503: {
    status: 503,
    body: { error: "Server overloaded, please retry shortly (ref: aaa65c70-0000)" },
  },
  badRequest400: {
    status: 400,
    body: {
      error: { message: "[] is too short - 'messages' (ref: x)", type: "invalid_request_error" },
    },
  },
  server500: {
    status: 500,
    body: { error: { message: "internal error", type: "api_error", param: null, code: null } },
  },
  /** [I] Not observed on ollama.com (wire.md has no capture): a prompt larger than the window. */
  contextOverflow: (tokens: number, max: number): EmulatedError => ({
    status: 400,
    body: {
      error: {
        message: `the input length exceeds the context length (${tokens} > ${max})`,
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    },
  }),
} satisfies Record<string, EmulatedError | ((...a: never[]) => EmulatedError)>;

function errorResponse(e: EmulatedError): Response {
  const body = typeof e.body === "string" ? e.body : JSON.stringify(e.body);
  return new Response(body, {
    status: e.status,
    headers: { "content-type": e.contentType ?? "application/json", ...e.headers },
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const asArray = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

let callSeq = 0;

/** Builds the SSE body of one scripted call, exactly as Ollama frames it. */
function sseFrames(call: EmulatedCall, model: string, includeUsage: boolean): string[] {
  const id = `chatcmpl-${Math.floor(Math.random() * 999)}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        system_fingerprint: "fp_ollama",
        choices: [{
          index: 0,
          delta: { role: "assistant", content: "", ...delta },
          finish_reason: finish,
        }],
      })
    }\n\n`;
  const frames: string[] = [];
  for (const r of asArray(call.reasoning)) frames.push(chunk({ reasoning: r }, null));
  for (const t of asArray(call.text)) frames.push(chunk({ content: t }, null));
  const calls = (call.toolCalls ?? []).map((c, index) => ({
    id: c.id ?? `call_${(++callSeq).toString(36).padStart(8, "0")}`,
    index,
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  }));
  if (call.midStreamError !== undefined) {
    frames.push(`data: ${JSON.stringify({ error: { message: call.midStreamError } })}\n\n`);
    return frames;
  }
  const finish = calls.length > 0 ? "tool_calls" : (call.finish ?? "stop");
  if (call.toolCallsInFinishChunk && calls.length > 0) {
    frames.push(chunk({ tool_calls: calls }, finish));
  } else if (call.fragmentArguments) {
    const n = call.fragmentArguments;
    for (const c of calls) {
      frames.push(
        chunk({ tool_calls: [{ ...c, function: { ...c.function, arguments: "" } }] }, null),
      );
      for (let k = 0; k < c.function.arguments.length; k += n) {
        const piece = c.function.arguments.slice(k, k + n);
        frames.push(
          chunk({ tool_calls: [{ index: c.index, function: { arguments: piece } }] }, null),
        );
      }
    }
    if (call.finish !== null) frames.push(chunk({}, finish));
  } else {
    for (const c of calls) frames.push(chunk({ tool_calls: [c] }, null));
    if (call.finish !== null) frames.push(chunk({}, finish));
  }
  if (includeUsage) {
    const u = call.usage ?? { prompt: 10, completion: 5 };
    frames.push(
      `data: ${
        JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model,
          system_fingerprint: "fp_ollama",
          choices: [],
          usage: {
            prompt_tokens: u.prompt,
            completion_tokens: u.completion,
            total_tokens: u.prompt + u.completion,
          },
        })
      }\n\n`,
    );
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}

function jsonCompletion(call: EmulatedCall, model: string): Record<string, unknown> {
  const calls = (call.toolCalls ?? []).map((c, index) => ({
    id: c.id ?? `call_${(++callSeq).toString(36).padStart(8, "0")}`,
    index,
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  }));
  const u = call.usage ?? { prompt: 10, completion: 5 };
  const reasoning = asArray(call.reasoning).join("");
  return {
    id: `chatcmpl-${Math.floor(Math.random() * 999)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: "fp_ollama",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: asArray(call.text).join(""),
        ...(reasoning ? { reasoning } : {}),
        ...(calls.length ? { tool_calls: calls } : {}),
      },
      finish_reason: calls.length ? "tool_calls" : (call.finish ?? "stop"),
    }],
    usage: {
      prompt_tokens: u.prompt,
      completion_tokens: u.completion,
      total_tokens: u.prompt + u.completion,
    },
  };
}

/**
 * Starts the emulator. `script` answers chat calls in order (or is called per request);
 * `models` feeds the public listings and, when given, makes unknown models 404;
 * `paywalled` models answer the 402 plan error (or `paywallStatus: 403` for the older wording).
 *
 * @example
 * ```ts
 * const emu = startOllamaEmulator({ script: [{ error: OLLAMA_ERRORS.weekly429 }] });
 * await emu.close();
 * ```
 */
export function startOllamaEmulator(opts: {
  // deno-lint-ignore no-explicit-any
  script: EmulatedCall[] | ((body: any, i: number) => EmulatedCall);
  models?: { name: string; size: number }[];
  apiKey?: string;
  paywalled?: string[];
  paywallStatus?: 402 | 403;
  /** The models' context window (one for all, or per model): served by `/api/show` and enforced
   * on chat requests. */
  contextLength?: number | Record<string, number>;
}): Emulator {
  const lengthFor = (model: string): number | undefined =>
    typeof opts.contextLength === "number" ? opts.contextLength : opts.contextLength?.[model];
  const apiKey = opts.apiKey ?? "test-key";
  const requests: RecordedRequest[] = [];
  let chatIndex = 0;
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

    if (req.method === "GET" && url.pathname === "/v1/models") {
      return Response.json({
        object: "list",
        data: (opts.models ?? []).map((m) => ({
          id: m.name,
          object: "model",
          created: 1754352000,
          owned_by: "library",
        })),
      });
    }
    if (req.method === "GET" && url.pathname === "/api/tags") {
      return Response.json({
        models: (opts.models ?? []).map((m, i) => ({
          name: m.name,
          model: m.name,
          modified_at: "2025-12-02T00:00:00Z",
          size: m.size,
          digest: (0xa1b2c3d40000 + i).toString(16).slice(0, 12),
          details: {
            parent_model: "",
            format: "",
            family: "",
            families: null,
            parameter_size: "",
            quantization_level: "",
          },
        })),
      });
    }
    if (req.method === "POST" && url.pathname === "/api/show") {
      const name = String(body?.model ?? "");
      const length = lengthFor(name);
      if (!length || (opts.models && !opts.models.some((m) => m.name === name))) {
        return errorResponse({ status: 404, body: { error: `model '${name}' not found` } });
      }
      return Response.json({
        modelfile: "",
        parameters: "",
        template: "",
        details: { parent_model: "", format: "gguf", family: "llama", families: ["llama"] },
        model_info: {
          "general.architecture": "llama",
          "general.parameter_count": 8030261248,
          "llama.context_length": length,
          "llama.embedding_length": 4096,
        },
        capabilities: ["completion", "tools"],
      });
    }
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return errorResponse({
        status: 404,
        body: { error: `path "${url.pathname}" not found` },
      });
    }
    // Auth first (before model lookup and concurrency), as observed live.
    if (headers["authorization"] !== `Bearer ${apiKey}`) {
      return errorResponse(OLLAMA_ERRORS.unauthorized);
    }
    if (typeof body !== "object" || body === null) {
      return errorResponse({
        status: 400,
        body: {
          error: {
            message: "invalid character 'n' looking for beginning of object key string (ref: x)",
            type: "invalid_request_error",
          },
        },
      });
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return errorResponse(OLLAMA_ERRORS.badRequest400);
    }
    const model = String(body.model ?? "");
    if (opts.models && !opts.models.some((m) => m.name === model)) {
      return errorResponse(OLLAMA_ERRORS.notFound(model));
    }
    if (opts.paywalled?.includes(model)) {
      return errorResponse(
        opts.paywallStatus === 403 ? OLLAMA_ERRORS.subscription403 : OLLAMA_ERRORS.plan402,
      );
    }
    const counted = Math.ceil(JSON.stringify({ m: body.messages, t: body.tools }).length / 4);
    const window = lengthFor(model);
    if (window && counted > window) {
      return errorResponse(OLLAMA_ERRORS.contextOverflow(counted, window));
    }
    const i = chatIndex++;
    const scripted = typeof opts.script === "function" ? opts.script(body, i) : opts.script[i] ??
      { error: { status: 500, body: { error: `emulator script exhausted at call ${i}` } } };
    const call = window && !scripted.usage
      ? { ...scripted, usage: { prompt: counted, completion: 5 } }
      : scripted;
    if (call.delayMs) await sleep(call.delayMs);
    if (call.error) return errorResponse(call.error);
    if (body.stream !== true) return Response.json(jsonCompletion(call, model));

    const frames = sseFrames(call, model, body.stream_options?.include_usage === true);
    const enc = new TextEncoder();
    let next = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next > 0 && call.frameDelayMs) await sleep(call.frameDelayMs);
        if (cancelled) return;
        if (next >= frames.length) return controller.close();
        controller.enqueue(enc.encode(frames[next++]));
        if (!call.frameDelayMs) {
          while (next < frames.length) controller.enqueue(enc.encode(frames[next++]));
          controller.close();
        }
      },
      cancel() {
        cancelled = true;
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    close: () => server.shutdown(),
  };
}
