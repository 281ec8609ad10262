/**
 * A model that follows a script: no network, fully deterministic. The demo and the tests use it
 * to drive the agent through exact trajectories (including malformed arguments and errors).
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import type { ProviderError } from "./errors.ts";
import { TurnBuilder } from "./turn_builder.ts";
import type {
  FinishReason,
  ModelTurn,
  Provider,
  StreamHandlers,
  TurnRequest,
  Usage,
} from "./types.ts";

/** One scripted model turn. */
export interface ScriptedTurn {
  text?: string;
  reasoning?: string;
  /** `arguments` as a value is sent as its JSON; a string is sent raw (e.g. malformed JSON). */
  toolCalls?: { name: string; arguments: unknown | string }[];
  /** Thrown instead of answering. */
  error?: ProviderError;
  /** Overrides the finish reason (default: tool_calls / stop / reasoning_exhausted). */
  finish?: FinishReason;
  /** Reported usage (default zeros: a script reports none). */
  usage?: Usage;
}

/** The scripted provider, with the requests it was given (for assertions). */
export interface ScriptedProvider extends Provider {
  /** Every request, in order (the messages array is copied at call time). */
  readonly requests: TurnRequest[];
}

/** Splits text into word-sized pieces so streaming callbacks fire as they would live. */
function pieces(s: string): string[] {
  return s.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * Creates a provider that answers turn `i` with `script[i]` (or `script(req, i)`).
 * Running past the end of an array script is an error naming the turn.
 *
 * @example
 * ```ts
 * import { createScriptedProvider } from "./scripted.ts";
 * const p = createScriptedProvider([
 *   { toolCalls: [{ name: "read_file", arguments: { path: "a.ts" } }] },
 *   { text: "done" },
 * ]);
 * const t = await p.complete({ system: "", messages: [{ role: "user", content: "go" }], tools: [] });
 * t.toolCalls[0].argumentsJson; // '{"path":"a.ts"}'
 * ```
 */
export function createScriptedProvider(
  script: ScriptedTurn[] | ((req: TurnRequest, index: number) => ScriptedTurn),
  model = "scripted",
): ScriptedProvider {
  const requests: TurnRequest[] = [];
  return {
    name: "scripted",
    model,
    requests,
    complete(req: TurnRequest, on?: StreamHandlers): Promise<ModelTurn> {
      const i = requests.length;
      requests.push({ ...req, messages: [...req.messages] });
      if (req.signal?.aborted) return Promise.reject(req.signal.reason);
      let turn: ScriptedTurn | undefined;
      try {
        turn = typeof script === "function" ? script(req, i) : script[i];
      } catch (e) {
        return Promise.reject(e);
      }
      if (!turn) {
        return Promise.reject(
          new RetieError(
            `scripted model (${model}): no turn ${i + 1} in a script of ${
              Array.isArray(script) ? script.length : "?"
            }`,
            { hint: "add a turn to the script: the agent asked for more than it plans" },
          ),
        );
      }
      if (turn.error) return Promise.reject(turn.error);
      const b = new TurnBuilder(model, on);
      for (const p of pieces(turn.reasoning ?? "")) b.reasoning(p);
      for (const p of pieces(turn.text ?? "")) b.text(p);
      (turn.toolCalls ?? []).forEach((c, k) =>
        b.toolFragment(k, {
          id: `call_scripted_${i}_${k}`,
          name: c.name,
          args: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
        })
      );
      if (turn.usage) b.usage = { ...turn.usage };
      const out = b.finish(turn.finish ?? "stop");
      if (turn.finish) out.finishReason = turn.finish;
      return Promise.resolve(out);
    },
  };
}
