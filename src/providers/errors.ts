/**
 * Service errors mapped to retie's own kinds, by status code and message text (never by
 * content type: Ollama labels some JSON errors `text/html`).
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";

/**
 * Kinds of provider failure, each with one meaning for the ladder:
 * - `auth`: bad or missing key (401). Stop; say which variable to set.
 * - `paywall`: the model needs a plan this account lacks (403 "requires a subscription", 402
 *   "not in the … plan"). Drop the model for good.
 * - `session_limit`: the account's session (5-hour) usage limit (429). Move to the next model.
 * - `weekly_limit`: the account's weekly cap (429). Stop at once: every model would fail.
 * - `concurrency`: too many concurrent requests (429 with Retry-After). Wait and retry.
 * - `rate_limit`: any other 429.
 * - `not_found`: unknown model or path (404).
 * - `overloaded`: 503/529 or an overloaded stream event.
 * - `bad_request`: 400 (malformed request; our bug).
 * - `context_overflow`: the prompt does not fit the model's context window (400/413 whose text
 *   says so). The agent compacts the conversation once and retries.
 * - `server`: other 5xx.
 * - `network`: the connection failed.
 * - `timeout`: no answer in time.
 * - `stream`: an error event arrived mid-stream.
 */
export type ProviderErrorKind =
  | "auth"
  | "paywall"
  | "session_limit"
  | "weekly_limit"
  | "concurrency"
  | "rate_limit"
  | "not_found"
  | "overloaded"
  | "bad_request"
  | "context_overflow"
  | "server"
  | "network"
  | "timeout"
  | "stream";

/** A service error, classified. */
export class ProviderError extends RetieError {
  readonly kind: ProviderErrorKind;
  /** HTTP status, when there was one. */
  readonly status?: number;
  /** Milliseconds to wait, from Retry-After, when the service sent it. */
  readonly retryAfterMs?: number;
  /** The service's own message, verbatim. */
  readonly serviceMessage: string;
  /** The model the request was for. */
  readonly model?: string;

  /**
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ProviderError } from "./errors.ts";
   * const e = new ProviderError("weekly_limit", "you have reached your weekly usage limit", { status: 429 });
   * assert.deepEqual(e.kind, "weekly_limit");
   * ```
   */
  constructor(
    kind: ProviderErrorKind,
    serviceMessage: string,
    opts: {
      status?: number;
      retryAfterMs?: number;
      model?: string;
      hint?: string;
      cause?: unknown;
    } = {},
  ) {
    super(
      `${kind.replace("_", " ")}${opts.model ? ` (${opts.model})` : ""}${
        opts.status ? ` [${opts.status}]` : ""
      }: ${serviceMessage}`,
      { hint: opts.hint, cause: opts.cause },
    );
    this.name = "ProviderError";
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.serviceMessage = serviceMessage;
    this.model = opts.model;
  }
}
