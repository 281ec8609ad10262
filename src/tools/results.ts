/**
 * Result helpers shared by the tools: errors become results the model can act on.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import type { ToolResult } from "../core/tool.ts";

/**
 * An error result: the message, then the hint on its own line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorResult } from "./results.ts";
 * assert.deepEqual(errorResult(new Error("boom")).output, "error: boom");
 * ```
 */
export function errorResult(e: unknown, detail?: Record<string, unknown>): ToolResult {
  const msg = e instanceof Error ? e.message : String(e);
  const hint = e instanceof RetieError && e.hint ? `\nhint: ${e.hint}` : "";
  return { ok: false, output: `error: ${msg}${hint}`, detail: { ...detail, error: msg } };
}

/**
 * Runs a handler body, turning anything it throws into an error result (a tool never throws at
 * the model; the record still sees `ok: false` and the message).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guarded } from "./results.ts";
 * const r = await guarded(() => { throw new Error("no"); });
 * assert.equal(r.ok, false);
 * ```
 */
export async function guarded(body: () => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (e) {
    return errorResult(e);
  }
}

/**
 * Runs a synchronous computation as a promise: a throw becomes a rejection, so `classify` and
 * `preview` never throw synchronously at their caller.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settle } from "./results.ts";
 * assert.equal(await settle(() => 42), 42);
 * ```
 */
export function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (e) {
    return Promise.reject(e);
  }
}
