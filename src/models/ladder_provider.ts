/**
 * A {@link Provider} that runs every turn on the ladder's current model and follows the ladder on
 * errors: waits out a concurrency 429 (bounded), moves up on a session limit or a model error,
 * drops a paywalled model for good (through `onDenied`, which persists it), and after a weekly cap
 * or an auth failure throws without sending anything more.
 *
 * @module
 */
import { ProviderError } from "../providers/errors.ts";
import { Ladder, LadderStopped } from "./ladder.ts";
import type { ModelTurn, Provider, StreamHandlers, TurnRequest } from "../providers/types.ts";

/** Options of {@link createLadderProvider}. */
export interface LadderProviderOptions {
  ladder: Ladder;
  /** Builds the wire provider for one model (e.g. `createOpenAICompatProvider`). */
  makeProvider: (model: string) => Provider;
  /** Provider name reported by the wrapper (default: that of the first built provider). */
  name?: string;
  /** Called after every successful call with the turn, the model called and its tier. */
  onUsage?: (turn: ModelTurn, model: string, tier: number | null) => void;
  /** Called when a model answered with a paywall: persist the denial here. */
  onDenied?: (model: string, err: ProviderError) => void;
  /** Called when a model answered successfully (e.g. mark it accessible in the probe cache). */
  onAccessible?: (model: string) => void;
  /** How many concurrency-429 waits per turn before giving up (default 3). */
  maxConcurrencyRetries?: number;
  /** Upper bound on one Retry-After wait (default 60 s). */
  maxWaitMs?: number;
  /** Injected for tests; default `setTimeout`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Wraps a ladder as a Provider.
 *
 * @example
 * ```ts
 * import { Ladder } from "./ladder.ts";
 * import { createLadderProvider } from "./ladder_provider.ts";
 * import { createOpenAICompatProvider } from "../providers/openai_compat.ts";
 * const ladder = new Ladder({ candidates: [{ name: "gpt-oss:20b", tier: 1, entitlement: "accessible" }] });
 * const provider = createLadderProvider({
 *   ladder,
 *   makeProvider: (model) =>
 *     createOpenAICompatProvider({ name: "ollama", baseUrl: "https://ollama.com/v1", apiKey: "k", model }),
 * });
 * provider.model; // "gpt-oss:20b"
 * ```
 */
export function createLadderProvider(opts: LadderProviderOptions): Provider {
  const { ladder } = opts;
  const cache = new Map<string, Provider>();
  const sleep = opts.sleep ?? defaultSleep;
  const maxRetries = opts.maxConcurrencyRetries ?? 3;
  const maxWait = opts.maxWaitMs ?? 60_000;
  let last = ladder.current() ?? ladder.pinned ?? "";
  let providerName = opts.name;

  const providerFor = (model: string): Provider => {
    let p = cache.get(model);
    if (!p) {
      p = opts.makeProvider(model);
      cache.set(model, p);
      providerName ??= p.name;
    }
    return p;
  };

  return {
    get name() {
      return providerName ?? "ollama";
    },
    get model() {
      return ladder.current() ?? last;
    },
    async complete(req: TurnRequest, on?: StreamHandlers): Promise<ModelTurn> {
      let waits = 0;
      for (;;) {
        const stopped = ladder.stopped();
        if (stopped) throw stopped;
        const model = ladder.current();
        if (model === null) {
          throw new LadderStopped("no_model", "stopped: no usable model");
        }
        last = model;
        const tier = ladder.currentTier();
        try {
          const turn = await providerFor(model).complete(req, on);
          opts.onAccessible?.(model);
          opts.onUsage?.(turn, model, tier);
          return turn;
        } catch (e) {
          if (!(e instanceof ProviderError)) throw e;
          const d = ladder.onError(e);
          if (e.kind === "paywall") opts.onDenied?.(model, e);
          if (d.action === "throw") throw d.error;
          if (d.action === "retry_same") {
            if (waits >= maxRetries) throw e;
            waits++;
            await sleep(Math.min(Math.max(d.waitMs, 0), maxWait), req.signal);
            continue;
          }
          waits = 0; // a new model gets its own budget of concurrency waits
        }
      }
    },
  };
}
