/**
 * `retie probe`: one token per model to learn what this account may call.
 *
 * Entitlement is checked before generation, so a refusal costs nothing and an accepted probe
 * costs one output token. Results go to the {@link ProbeCache}:
 * - success → `accessible`;
 * - paywall (403 "requires a subscription", 402 "not in the … plan") → `denied`, kept until
 *   `--force` (a paywall never resolves by waiting);
 * - timeout, 5xx, network, unknown model, anything else → `inconclusive`, never a denial (a cold
 *   model may just be slow);
 * - too many concurrent requests (429 + Retry-After) → wait as told and retry, a bounded number of
 *   times, then `inconclusive`;
 * - weekly cap or session limit (429) → stop probing at once: the limits are per account, so every
 *   other probe would fail the same way; the service's message is returned;
 * - bad key (401) → stop, naming OLLAMA_API_KEY.
 *
 * The first model that needs a request is probed alone, then the rest `concurrency` at a time, so
 * an account-wide answer costs exactly one request.
 *
 * @module
 */
import { ProviderError } from "../providers/errors.ts";
import type { Entitlement, ProbeCache } from "./probe_cache.ts";
import type { ModelTurn, Provider } from "../providers/types.ts";

/** One model's probe outcome. */
export interface ProbeResult {
  model: string;
  /** `not_probed` when the run stopped before reaching it. */
  status: Entitlement;
  /** True when the result is a cached denial that was not re-probed (no `--force`). */
  cached?: boolean;
  kind?: string;
  message?: string;
  /** How many concurrency waits it took. */
  retries?: number;
}

/** The whole run. */
export interface ProbeReport {
  results: ProbeResult[];
  /** Set when probing stopped early (weekly cap, session limit, bad key). */
  stopped?: { reason: string; model: string; message: string; hint: string };
}

/** Options of {@link probeModels}. */
export interface ProbeOptions {
  baseUrl: string;
  models: string[];
  makeProvider: (model: string) => Provider;
  cache: ProbeCache;
  /** Re-probe models cached as denied. */
  force?: boolean;
  /** Parallel probes (default 2). */
  concurrency?: number;
  /** Concurrency-429 retries per model (default 3). */
  maxRetries?: number;
  /** Upper bound on one Retry-After wait (default 60 s). */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Called with each result as it arrives. */
  onResult?: (r: ProbeResult) => void;
  /** Called with the usage of each accepted probe (one token), for the usage store. */
  onUsage?: (turn: ModelTurn, model: string) => void;
}

const STOP_KINDS: Record<string, string> = {
  weekly_limit:
    "the weekly cap is per account: every other model would fail too; wait for the weekly reset or upgrade",
  session_limit:
    "the session limit is per account: every other model would fail too; wait for the 5-hour reset",
  auth: "set OLLAMA_API_KEY to a valid key (https://ollama.com/settings/keys)",
};

/**
 * Probes `models` with limited concurrency and records each result in the cache.
 *
 * @example
 * ```ts
 * import { probeModels } from "./probe.ts";
 * import { ProbeCache } from "./probe_cache.ts";
 * import { createOpenAICompatProvider } from "../providers/openai_compat.ts";
 * const baseUrl = "https://ollama.com/v1";
 * const report = await probeModels({
 *   baseUrl,
 *   models: ["gpt-oss:20b"],
 *   cache: new ProbeCache(),
 *   makeProvider: (model) =>
 *     createOpenAICompatProvider({ name: "ollama", baseUrl, apiKey: "k", model }),
 * });
 * report.results[0].status; // "accessible" | "denied" | "inconclusive"
 * ```
 */
export async function probeModels(opts: ProbeOptions): Promise<ProbeReport> {
  const concurrency = Math.max(1, Math.trunc(opts.concurrency ?? 2));
  const maxRetries = opts.maxRetries ?? 3;
  const maxWait = opts.maxWaitMs ?? 60_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const results = new Map<string, ProbeResult>();
  const abort = new AbortController();
  let stopped: ProbeReport["stopped"];
  let next = 0;

  const finish = (r: ProbeResult) => {
    results.set(r.model, r);
    opts.onResult?.(r);
  };

  const probeOne = async (model: string): Promise<void> => {
    const cached = opts.cache.get(opts.baseUrl, model);
    if (!opts.force && cached?.status === "denied") {
      finish({ model, status: "denied", cached: true, kind: cached.kind, message: cached.message });
      return;
    }
    let retries = 0;
    for (;;) {
      if (stopped) return;
      try {
        const turn = await opts.makeProvider(model).complete({
          system: "",
          messages: [{ role: "user", content: "Reply with one word: ok" }],
          tools: [],
          maxTokens: 1,
          signal: abort.signal,
        });
        opts.onUsage?.(turn, model);
        opts.cache.set(opts.baseUrl, model, {
          status: "accessible",
          at: new Date().toISOString(),
          source: "probe",
        });
        finish({ model, status: "accessible", retries });
        return;
      } catch (e) {
        if (stopped) return; // aborted because another probe hit an account-wide stop
        const err = e instanceof ProviderError
          ? e
          : new ProviderError("network", (e as Error)?.message ?? String(e), { model });
        if (err.kind === "concurrency" && retries < maxRetries) {
          retries++;
          await sleep(Math.min(Math.max(err.retryAfterMs ?? 1000, 0), maxWait));
          continue;
        }
        if (err.kind in STOP_KINDS) {
          stopped = {
            reason: err.kind,
            model,
            message: err.serviceMessage,
            // The classifier's hint is more precise (e.g. a billing failure is also an account stop).
            hint: err.kind === "auth" ? STOP_KINDS.auth : err.hint ?? STOP_KINDS[err.kind],
          };
          abort.abort();
          return;
        }
        const status = err.kind === "paywall" ? "denied" : "inconclusive";
        opts.cache.set(opts.baseUrl, model, {
          status,
          at: new Date().toISOString(),
          kind: err.kind,
          message: err.serviceMessage,
          source: "probe",
        });
        finish({ model, status, kind: err.kind, message: err.serviceMessage, retries });
        return;
      }
    }
  };

  const worker = async () => {
    while (!stopped && next < opts.models.length) {
      const model = opts.models[next++];
      await probeOne(model);
    }
  };
  // The first model is probed alone: an account-wide answer (bad key, weekly cap) then costs
  // exactly one request instead of one per parallel probe.
  const firstNew = opts.models.findIndex((m) =>
    opts.force || opts.cache.get(opts.baseUrl, m)?.status !== "denied"
  );
  while (!stopped && next < opts.models.length && next <= firstNew) {
    await probeOne(opts.models[next++]);
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, opts.models.length) }, worker));

  return {
    results: opts.models.map((m) => results.get(m) ?? { model: m, status: "not_probed" }),
    stopped,
  };
}
