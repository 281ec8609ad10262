/**
 * Everything a session needs to run on the ladder, wired: the live list (or the last saved one
 * when the list cannot be fetched), the cached entitlements, the ladder, and a Provider that
 * records usage and remembers paywall answers across runs.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import { normalizeBaseUrl } from "./catalog.ts";
import { Ladder, type LadderEvent } from "./ladder.ts";
import { createLadderProvider } from "./ladder_provider.ts";
import { cachedModels, liveModels, type ModelStatus, toCandidates } from "./model_list.ts";
import { createOpenAICompatProvider } from "../providers/openai_compat.ts";
import { ProbeCache } from "./probe_cache.ts";
import type { Provider } from "../providers/types.ts";
import type { UsageStore } from "./usage_store.ts";

/** The seed's default model when one is pinned without a name being given elsewhere. */
export const DEFAULT_PINNED_MODEL = "kimi-k2.7-code";

/** Options of {@link openSessionLadder}. */
export interface SessionLadderOptions {
  /** OpenAI-compatible base URL (default `https://ollama.com/v1`). */
  baseUrl: string;
  /** The Ollama API key (from `OLLAMA_API_KEY`). */
  apiKey: string;
  /** Session id, for usage accounting. */
  session: string;
  /** `--model NAME`: pin one model, no escalation. */
  model?: string;
  /** `--max-tier N`. */
  maxTier?: number;
  /** Every start, escalation, drop, stop and pinned failure, for the ledger. */
  onEvent: (e: LadderEvent) => void;
  cache?: ProbeCache;
  /** Where to record usage (omit to not record). */
  usage?: UsageStore;
  /** Per-request timeout of the wire provider. */
  timeoutMs?: number;
  /** Injected for tests (the model list fetch). */
  fetch?: typeof fetch;
}

/** A session's ladder and the Provider that follows it. */
export interface SessionLadder {
  provider: Provider;
  ladder: Ladder;
  models: ModelStatus[];
}

/**
 * Opens the ladder for a session.
 *
 * @example
 * ```ts
 * import { openSessionLadder } from "./session_ladder.ts";
 * const { provider, ladder } = await openSessionLadder({
 *   baseUrl: "https://ollama.com/v1",
 *   apiKey: "key",
 *   session: "ses_1",
 *   onEvent: (e) => console.log(e),
 * });
 * ladder.current(); // the cheapest usable model
 * ```
 */
export async function openSessionLadder(opts: SessionLadderOptions): Promise<SessionLadder> {
  if (!opts.apiKey) {
    throw new RetieError("no API key for Ollama Cloud (OLLAMA_API_KEY is not set)", {
      hint: "create a key at https://ollama.com/settings/keys and export OLLAMA_API_KEY",
      exitCode: 2,
    });
  }
  const baseUrl = normalizeBaseUrl(opts.baseUrl);
  const cache = opts.cache ?? new ProbeCache();
  let models: ModelStatus[];
  try {
    models = await liveModels(baseUrl, cache, { fetch: opts.fetch });
  } catch (e) {
    const saved = cachedModels(baseUrl, cache);
    // A pinned model needs no list; otherwise fall back to the last saved list, or fail.
    if (saved) models = saved;
    else if (opts.model) models = [];
    else throw e;
  }
  const ladder = new Ladder({
    candidates: toCandidates(models),
    maxTier: opts.maxTier,
    pinned: opts.model,
    onEvent: opts.onEvent,
  });
  const known = new Set(models.filter((m) => m.entitlement === "accessible").map((m) => m.name));
  const provider = createLadderProvider({
    ladder,
    name: "ollama",
    makeProvider: (model) =>
      createOpenAICompatProvider({
        name: "ollama",
        baseUrl,
        apiKey: opts.apiKey,
        model,
        timeoutMs: opts.timeoutMs,
      }),
    onDenied: (model, err) =>
      cache.set(baseUrl, model, {
        status: "denied",
        at: new Date().toISOString(),
        kind: err.kind,
        message: err.serviceMessage,
        source: "session",
      }),
    onAccessible: (model) => {
      if (known.has(model)) return;
      known.add(model);
      cache.set(baseUrl, model, {
        status: "accessible",
        at: new Date().toISOString(),
        source: "session",
      });
    },
    onUsage: (turn, model, tier) =>
      opts.usage?.record({
        session: opts.session,
        model,
        tier,
        inputTokens: turn.usage.inputTokens,
        outputTokens: turn.usage.outputTokens,
        baseUrl,
      }),
  });
  return { provider, ladder, models };
}
