/**
 * The single dispatch: the only place in retie where a tool call from a model turns into a tool
 * run, and it does so only through the guard. Providers never see handlers; the guard is the only
 * caller of a handler (an architecture test holds both).
 *
 * @module
 */
import type { AnyTool, ToolContext } from "../core/tool.ts";
import { type EntrySink, MAX_ARGS_DEPTH, refusalPayload } from "../ledger/mod.ts";
import { jsonTextDepth } from "../core/json_depth.ts";
import type { Guard, GuardOutcome } from "../plane/guard.ts";
import type { ToolCall } from "../providers/types.ts";
import type { ResultStore } from "./result_store.ts";
import { errorMessage } from "../core/errors.ts";

/** What the dispatch needs. */
export interface DispatchDeps {
  guard: Guard;
  tools: ReadonlyMap<string, AnyTool>;
  ctx: ToolContext;
  sink: EntrySink;
  results: ResultStore;
  /** Called when a tool result says it carried untrusted input (web fetch). */
  onUntrusted?: (detail: Record<string, unknown>) => void;
}

/** The answer to one tool call, ready for the transcript. */
export interface DispatchResult {
  toolCallId: string;
  name: string;
  /** What goes back to the model (a preview + ref when the result is large). */
  content: string;
  isError: boolean;
  /** The guard's outcome; null when the call never reached the guard (arguments not JSON). */
  outcome: GuardOutcome | null;
  /** Why the call was refused before the guard, when it was. */
  malformed?: string;
}

/**
 * Runs one tool call through the guard.
 *
 * @example
 * ```ts ignore
 * const r = await dispatch({ id: "c1", name: "read", argumentsJson: '{"path":"a.py"}' }, deps);
 * r.content; // the file, numbered (or a preview + ref when large)
 * ```
 */
export async function dispatch(call: ToolCall, deps: DispatchDeps): Promise<DispatchResult> {
  let args: unknown;
  // Nesting is measured on the text, before parsing: arguments nested deeper than anything a
  // tool takes are refused (and recorded as a digest) instead of being carried through the guard.
  const depth = jsonTextDepth(call.argumentsJson);
  if (depth > MAX_ARGS_DEPTH) {
    return malformed(
      call,
      deps,
      `nested ${depth} levels deep (the limit is ${MAX_ARGS_DEPTH})`,
    );
  }
  try {
    args = call.argumentsJson.trim() === "" ? {} : JSON.parse(call.argumentsJson);
  } catch (e) {
    return malformed(call, deps, `not valid JSON (${errorMessage(e)})`);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return malformed(
      call,
      deps,
      `a JSON ${Array.isArray(args) ? "array" : typeof args}, not an object`,
    );
  }

  const tool = deps.tools.get(call.name);
  const outcome = await deps.guard.run({ name: call.name, tool, args, ctx: deps.ctx });
  let content = outcome.result.output;
  if (!tool) {
    content = `error: there is no tool named "${call.name}". Available tools: ${
      [...deps.tools.keys()].join(", ")
    }. ${content}`;
  } else if (outcome.status === "refused" && !content.startsWith("refused")) {
    content = `refused: ${content}`;
  }
  const detail = outcome.result.detail;
  if (outcome.status === "ok" && detail && detail.untrusted === true) deps.onUntrusted?.(detail);
  // A recall answer is the exact slice the model asked for (bounded by the store): previewing it
  // again would hand back another ref instead of the bytes, and the model could chase refs forever.
  const shrunk = call.name === "recall" && outcome.status === "ok"
    ? { text: content }
    : deps.results.shrink(content);
  return {
    toolCallId: call.id,
    name: call.name,
    content: shrunk.text,
    isError: outcome.status !== "ok",
    outcome,
  };
}

function malformed(call: ToolCall, deps: DispatchDeps, why: string): DispatchResult {
  const reason = `the arguments of ${call.name} are ${why}`;
  deps.sink.append(
    "refusal",
    refusalPayload({
      tool: call.name,
      stage: "invalid-arguments",
      reason,
      argsText: { text: call.argumentsJson, why: why },
    }),
  );
  return {
    toolCallId: call.id,
    name: call.name,
    content: `error: ${reason}. Nothing was run. Send the arguments as one JSON object that ` +
      `matches the tool's schema.`,
    isError: true,
    outcome: null,
    malformed: reason,
  };
}
