/**
 * Classifies a service error by HTTP status and message text into a {@link ProviderError} kind.
 * Never by content type: Ollama labels some JSON errors `text/html` (wire.md §1.3).
 *
 * @module
 */
import { ProviderError, type ProviderErrorKind } from "./errors.ts";

/** What we can read out of an error body, whatever its shape. */
export interface ParsedErrorBody {
  /** The service's message (bare `{"error":"…"}`, `{"error":{"message":…}}`, or the raw text). */
  message: string;
  /** `error.type` when present (`overloaded_error`, `rate_limit_error`, …). */
  type?: string;
}

/**
 * Reads the message and type out of an error body: bare `{"error":"…"}`, OpenAI-shaped
 * `{"error":{"message":…,"type":…}}`, Anthropic `{"type":"error","error":{type,message}}`, or text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseErrorBody } from "./error_map.ts";
 * assert.deepEqual(parseErrorBody('{"error":"too many concurrent requests"}').message, "too many concurrent requests");
 * ```
 */
export function parseErrorBody(body: string): ParsedErrorBody {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { message: body.trim() };
  }
  if (typeof json === "string") return { message: json };
  if (json === null || typeof json !== "object") return { message: body.trim() };
  const o = json as Record<string, unknown>;
  const err = o.error;
  if (typeof err === "string") return { message: err };
  if (err && typeof err === "object") {
    const e = err as Record<string, unknown>;
    const message = typeof e.message === "string" ? e.message : JSON.stringify(e.message ?? e);
    return { message, type: typeof e.type === "string" ? e.type : undefined };
  }
  if (typeof o.message === "string") {
    return { message: o.message, type: typeof o.type === "string" ? o.type : undefined };
  }
  return { message: body.trim() };
}

function header(headers: Headers | Record<string, string> | undefined, name: string) {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * Milliseconds to wait from `retry-after-ms`, or `retry-after` (seconds or an HTTP date).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retryAfterMs } from "./error_map.ts";
 * assert.deepEqual(retryAfterMs({ "Retry-After": "11" }), 11000);
 * ```
 */
export function retryAfterMs(
  headers: Headers | Record<string, string> | undefined,
  now: () => number = Date.now,
): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const ra = header(headers, "retry-after")?.trim();
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra)) return Math.round(Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}

const HINTS: Partial<Record<ProviderErrorKind, string>> = {
  auth: "check the API key (OLLAMA_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY)",
  paywall: "this model needs a plan the account lacks: pick another model with --model",
  session_limit: "the session usage limit is reached: wait for the reset or use another model",
  weekly_limit: "the account cannot run any model now: wait for the reset or upgrade the plan",
  concurrency: "too many requests at once: wait and retry",
  rate_limit: "rate limited: wait and retry",
  not_found: "check the model name (--model) and the base URL (--base-url)",
  overloaded: "the service is overloaded: retry shortly",
  bad_request: "the service rejected the request as malformed",
  context_overflow:
    "the conversation is larger than the model's context window: /compact, /clear, or a model with a larger window",
  server: "the service failed: retry shortly",
  stream: "the service ended the stream with an error: retry",
  timeout: "no answer in time: retry, or raise the timeout",
  network: "check the network and the base URL (--base-url)",
};

const PAYWALL =
  /requires a subscription|requires both a pro|not in the [\w -]*plan|upgrade for access/i;
const WEEKLY = /weekly usage limit/i;
const SESSION = /session usage limit|hourly usage limit/i;
const CONCURRENCY = /too many concurrent requests/i;
const OVERLOADED = /overloaded/i;
/**
 * The prompt does not fit the context window: Anthropic's "prompt is too long: N tokens > M
 * maximum", OpenAI's "maximum context length is N tokens", llama.cpp/Ollama's "exceeds the
 * context length" / "exceed context window".
 */
const CONTEXT_OVERFLOW =
  /prompt is too long|maximum context length|context[ _-]?(length|window)[ _-]?exceeded|exceeds? (the |its )?(maximum )?context (length|window|size)|input length exceeds|too many tokens/i;
/** An account-wide stop that is not a plan problem: billing failed or a spend limit is reached. */
const ACCOUNT_STOP =
  /payment failed|update your payment method|reached your specified api usage limits/i;

function kindFor(status: number | undefined, message: string, type?: string): ProviderErrorKind {
  if (status === undefined) {
    // Mid-stream: no status, only the event's type and text.
    if (type === "overloaded_error" || OVERLOADED.test(message)) return "overloaded";
    if (WEEKLY.test(message)) return "weekly_limit";
    if (SESSION.test(message)) return "session_limit";
    if (CONCURRENCY.test(message)) return "concurrency";
    if (CONTEXT_OVERFLOW.test(message)) return "context_overflow";
    return "stream";
  }
  if (status === 401) return "auth";
  if (status === 402) {
    if (PAYWALL.test(message)) return "paywall";
    return ACCOUNT_STOP.test(message) || type === "billing_error" ? "weekly_limit" : "paywall";
  }
  if (status === 403) return PAYWALL.test(message) ? "paywall" : "auth";
  if (status === 429) {
    if (WEEKLY.test(message)) return "weekly_limit";
    if (SESSION.test(message)) return "session_limit";
    if (CONCURRENCY.test(message)) return "concurrency";
    return "rate_limit";
  }
  if (status === 404) return "not_found";
  if (status === 503 || status === 529 || type === "overloaded_error") return "overloaded";
  if (status === 408 || status === 504 || type === "timeout_error") return "timeout";
  if (status === 400 && ACCOUNT_STOP.test(message)) return "weekly_limit";
  if ((status === 400 || status === 413 || status === 500) && CONTEXT_OVERFLOW.test(message)) {
    return "context_overflow";
  }
  if (status >= 500) return "server";
  return "bad_request";
}

/**
 * Maps a service error to a {@link ProviderError}. `status` is undefined for mid-stream errors.
 * `body` is the raw body text (any of the shapes {@link parseErrorBody} reads).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyError } from "./error_map.ts";
 * const e = classifyError(429, '{"error":"too many concurrent requests"}', { "retry-after": "11" });
 * assert.deepEqual(e.kind, "concurrency");
 * assert.deepEqual(e.retryAfterMs, 11000);
 * ```
 */
export function classifyError(
  status: number | undefined,
  body: string,
  headers: Headers | Record<string, string> | undefined,
  model?: string,
): ProviderError {
  const { message, type } = parseErrorBody(body);
  const kind = kindFor(status, message, type);
  const wait = retryAfterMs(headers);
  const hint = kind === "weekly_limit" && ACCOUNT_STOP.test(message)
    ? "the account's billing or spend limit stops every model: fix it in the provider's settings"
    : HINTS[kind];
  return new ProviderError(kind, message || `HTTP ${status}`, {
    status,
    retryAfterMs: kind === "concurrency" || kind === "rate_limit" || kind === "overloaded"
      ? wait
      : undefined,
    model,
    hint,
  });
}

/** What to do when this process's permission flags refused the connection. */
export const LOOPBACK_DENIED_HINT =
  "this retie may not connect there: `deno task retie` denies loopback and private addresses; " +
  "for a model server on this machine or your network use `deno task retie:local`";

/**
 * Whether a connection failed because Deno's permission flags refused it (not the network): the
 * error or one of its causes is `Deno.errors.NotCapable` or says "Requires net access".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deniedByPermissions } from "./error_map.ts";
 * assert.deepEqual(deniedByPermissions(new Error("fetch failed")), false);
 * ```
 */
export function deniedByPermissions(e: unknown): boolean {
  for (let cur = e, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) {
    if (cur instanceof Deno.errors.NotCapable || /Requires net access/.test(cur.message)) {
      return true;
    }
  }
  return false;
}

/** The error classes an SDK (openai, @anthropic-ai/sdk) throws, which share one shape. */
export interface SdkErrorClasses {
  // deno-lint-ignore no-explicit-any
  userAbort: abstract new (...a: any[]) => Error;
  // deno-lint-ignore no-explicit-any
  timeout: abstract new (...a: any[]) => Error;
  // deno-lint-ignore no-explicit-any
  connection: abstract new (...a: any[]) => Error;
  // deno-lint-ignore no-explicit-any
  api: abstract new (...a: any[]) => Error & { status?: number; error?: unknown; headers?: any };
  /** The error body as the wire carried it, for {@link classifyError}. */
  body(error: unknown): string;
}

/**
 * Turns whatever an SDK threw into a {@link ProviderError}; abort errors pass through untouched
 * (a cancelled turn is not a service error).
 *
 * @example
 * ```ts ignore
 * throw fromSdkError(e, "gpt-oss:20b", signal, OPENAI_ERRORS);
 * ```
 */
export function fromSdkError(
  e: unknown,
  model: string,
  signal: AbortSignal | undefined,
  sdk: SdkErrorClasses,
): unknown {
  if (e instanceof ProviderError) return e;
  if (signal?.aborted || e instanceof sdk.userAbort) return e;
  if (e instanceof sdk.timeout) {
    return new ProviderError("timeout", e.message, { model, cause: e, hint: "no answer in time" });
  }
  if (e instanceof sdk.connection) {
    const detail = e.cause instanceof Error ? `${e.message} ${e.cause.message}` : e.message;
    return new ProviderError("network", detail, {
      model,
      cause: e,
      hint: deniedByPermissions(e)
        ? LOOPBACK_DENIED_HINT
        : "check the network and the base URL (--base-url)",
    });
  }
  if (e instanceof sdk.api) {
    const body = e.error !== undefined ? sdk.body(e.error) : e.message;
    const pe = classifyError(e.status, body, e.headers ?? undefined, model);
    (pe as { cause?: unknown }).cause = e;
    return pe;
  }
  return new ProviderError("network", e instanceof Error ? e.message : String(e), {
    model,
    cause: e,
  });
}
