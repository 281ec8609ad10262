/**
 * The model ladder, as a pure state machine: cheapest first, escalate only on failure, drop a
 * paywalled model for good, stop at once at a weekly cap.
 *
 * The ladder never decides that a task "looks hard". It moves up only when told of a failure: a
 * provider error (mapped by {@link Ladder.onError}) or a failure the agent detected
 * ({@link Ladder.reportFailure}: repeated malformed tool calls, a loop). Every escalation, drop,
 * stop and (for a pinned model) failure is reported through `onEvent`, which the agent records in
 * the ledger; providers cannot import the ledger themselves.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import type { ProviderError } from "../providers/errors.ts";
import type { Entitlement } from "./probe_cache.ts";
import { effectiveTier } from "./tiers.ts";

/** A model the ladder may use, with what is known of it. */
export interface LadderCandidate {
  name: string;
  tier: number | null;
  entitlement: Entitlement;
  sizeBytes?: number | null;
}

/** Something the ladder did, with its reason, for the ledger. */
export type LadderEvent =
  | { type: "start"; model: string; tier: number | null; reason: string }
  | {
    type: "escalate";
    from: string;
    to: string;
    toTier: number | null;
    reason: string;
    detail?: string;
  }
  | { type: "drop"; model: string; reason: string; detail?: string }
  | { type: "stop"; model: string | null; reason: string; detail?: string }
  | { type: "failure"; model: string; reason: string; detail?: string };

/** What the caller should do after a provider error. */
export type ErrorDecision =
  | { action: "retry_same"; waitMs: number }
  | { action: "retry_next"; model: string }
  | { action: "throw"; error: Error };

/** Options of a {@link Ladder}. */
export interface LadderOptions {
  candidates: LadderCandidate[];
  /** Never use a model heavier than this (unknown tiers count as the heaviest). */
  maxTier?: number;
  /** Pin one model: no escalation, failures reported honestly. */
  pinned?: string;
  onEvent?: (e: LadderEvent) => void;
}

/** Why the ladder stopped; thrown by every later request, which sends nothing. */
export class LadderStopped extends RetieError {
  readonly reason: string;
  /** The service's message, verbatim, when the stop came from the service. */
  readonly serviceMessage?: string;

  /**
   * @example
   * ```ts
   * import { LadderStopped } from "./ladder.ts";
   * new LadderStopped("weekly_limit", "stopped: weekly usage limit reached", { hint: "wait" });
   * ```
   */
  constructor(
    reason: string,
    message: string,
    opts: { hint?: string; serviceMessage?: string; cause?: unknown } = {},
  ) {
    super(message, { hint: opts.hint, cause: opts.cause });
    this.name = "LadderStopped";
    this.reason = reason;
    this.serviceMessage = opts.serviceMessage;
  }
}

const ENTITLEMENT_RANK: Record<Entitlement, number> = {
  accessible: 0,
  not_probed: 1,
  inconclusive: 2,
  denied: 3,
};

/**
 * The rungs of a ladder, cheapest first: denied models and models above `maxTier` removed; sorted
 * by tier (unknown last), then known-accessible before not-probed before inconclusive, then size,
 * then name.
 *
 * @example
 * ```ts
 * import { rungs } from "./ladder.ts";
 * rungs([
 *   { name: "big:600b", tier: 3, entitlement: "accessible" },
 *   { name: "small:20b", tier: 1, entitlement: "not_probed" },
 *   { name: "paid:30b", tier: 1, entitlement: "denied" },
 * ]).map((c) => c.name); // ["small:20b", "big:600b"]
 * ```
 */
export function rungs(candidates: LadderCandidate[], maxTier?: number): LadderCandidate[] {
  return candidates
    .filter((c) => c.entitlement !== "denied")
    .filter((c) => maxTier === undefined || effectiveTier(c.tier) <= maxTier)
    .sort((a, b) =>
      effectiveTier(a.tier) - effectiveTier(b.tier) ||
      ENTITLEMENT_RANK[a.entitlement] - ENTITLEMENT_RANK[b.entitlement] ||
      (a.sizeBytes ?? Infinity) - (b.sizeBytes ?? Infinity) ||
      a.name.localeCompare(b.name)
    );
}

/** Provider error kinds that count as "the model failed": escalate (not dropped). */
const MODEL_ERRORS = new Set(["timeout", "server", "overloaded", "network", "stream", "not_found"]);

/** The ladder's state machine. Pure: no I/O, no clock. */
export class Ladder {
  readonly pinned?: string;
  readonly maxTier?: number;
  #rungs: LadderCandidate[];
  #index = 0;
  #stopped: LadderStopped | null = null;
  #dropped = new Set<string>();
  #onEvent: (e: LadderEvent) => void;

  /**
   * @example
   * ```ts
   * import { Ladder } from "./ladder.ts";
   * const ladder = new Ladder({
   *   candidates: [{ name: "gpt-oss:20b", tier: 1, entitlement: "accessible" }],
   *   onEvent: (e) => console.log(e),
   * });
   * ladder.current(); // "gpt-oss:20b"
   * ```
   */
  constructor(opts: LadderOptions) {
    this.pinned = opts.pinned;
    this.maxTier = opts.maxTier;
    this.#onEvent = opts.onEvent ?? (() => {});
    if (opts.maxTier !== undefined && !(Number.isInteger(opts.maxTier) && opts.maxTier >= 1)) {
      throw new RetieError(`invalid --max-tier (${opts.maxTier}): must be an integer 1..4`, {
        hint: "pass --max-tier 1, 2, 3 or 4",
        exitCode: 2,
      });
    }
    if (opts.pinned) {
      const known = opts.candidates.find((c) => c.name === opts.pinned);
      const tier = known?.tier ?? null;
      if (known && opts.maxTier !== undefined && effectiveTier(tier) > opts.maxTier) {
        throw new RetieError(
          `model ${opts.pinned} is tier ${tier ?? "unknown"}, above --max-tier ${opts.maxTier}`,
          { hint: "raise --max-tier or pick a lighter --model", exitCode: 2 },
        );
      }
      // A pinned model is tried even when the cache says denied: the user asked for it, and the
      // service's answer is reported honestly.
      this.#rungs = [known ?? { name: opts.pinned, tier: null, entitlement: "not_probed" }];
    } else {
      this.#rungs = rungs(opts.candidates, opts.maxTier);
    }
    const first = this.#rungs[0];
    if (!first) {
      this.#stop(null, "no_model", "no usable model", {
        detail: opts.maxTier !== undefined
          ? `no model that is not denied is at or below --max-tier ${opts.maxTier}`
          : "every listed model is denied",
        hint: "run `retie probe --force`, raise --max-tier, or pin one with --model",
      });
    } else {
      this.#onEvent({
        type: "start",
        model: first.name,
        tier: first.tier,
        reason: opts.pinned ? "pinned with --model" : "cheapest usable model",
      });
    }
  }

  /** The model to call now, or `null` once stopped. */
  current(): string | null {
    return this.#stopped ? null : this.#rungs[this.#index]?.name ?? null;
  }

  /** The tier of the current model. */
  currentTier(): number | null {
    return this.#rungs[this.#index]?.tier ?? null;
  }

  /** The remaining rungs from the current one upward (names). */
  remaining(): string[] {
    return this.#stopped ? [] : this.#rungs.slice(this.#index).map((c) => c.name);
  }

  /** Why the ladder stopped, or `null`. */
  stopped(): LadderStopped | null {
    return this.#stopped;
  }

  /** Models dropped for good in this session (paywall). */
  dropped(): string[] {
    return [...this.#dropped];
  }

  #stop(
    model: string | null,
    reason: string,
    what: string,
    o: { detail?: string; hint?: string; serviceMessage?: string; cause?: unknown },
  ): LadderStopped {
    const err = new LadderStopped(
      reason,
      `stopped${model ? ` on ${model}` : ""}: ${what}${o.detail ? `: ${o.detail}` : ""}`,
      { hint: o.hint, serviceMessage: o.serviceMessage, cause: o.cause },
    );
    this.#stopped = err;
    this.#onEvent({ type: "stop", model, reason, detail: o.detail });
    return err;
  }

  /** Moves to the next rung, or stops when there is none. Returns the new model or `null`. */
  #escalate(reason: string, detail?: string): string | null {
    const from = this.#rungs[this.#index]?.name ?? "";
    const next = this.#rungs[this.#index + 1];
    if (!next) {
      this.#stop(from || null, "no_model_left", `no model left to escalate to after ${reason}`, {
        detail: this.maxTier !== undefined
          ? `every usable model at or below --max-tier ${this.maxTier} has failed${
            detail ? ` (last: ${detail})` : ""
          }`
          : detail,
        hint: this.maxTier !== undefined
          ? "raise --max-tier, or try again later"
          : "try again later, or pin a model with --model",
      });
      return null;
    }
    this.#index++;
    this.#onEvent({ type: "escalate", from, to: next.name, toTier: next.tier, reason, detail });
    return next.name;
  }

  /**
   * The agent reports a failure it detected (e.g. `malformed_tool_calls`, `loop`): escalate to the
   * next model, or, when pinned, report the failure and stay. Returns the model to use next, or
   * `null` when the ladder stopped.
   */
  reportFailure(reason: string, detail?: string): string | null {
    const model = this.current();
    if (model === null) return null;
    if (this.pinned) {
      this.#onEvent({ type: "failure", model, reason, detail });
      return model;
    }
    return this.#escalate(reason, detail);
  }

  /** Decides what a provider error means for the ladder (and records the event). */
  onError(err: ProviderError): ErrorDecision {
    const model = this.current();
    if (model === null) return { action: "throw", error: this.#stopped ?? err };
    const msg = err.serviceMessage;
    switch (err.kind) {
      case "weekly_limit":
        return {
          action: "throw",
          error: this.#stop(model, "weekly_limit", "weekly usage limit reached", {
            detail: msg,
            serviceMessage: msg,
            cause: err,
            hint:
              "the weekly cap is per account, so every other model would fail too; wait for the weekly reset or upgrade",
          }),
        };
      case "auth":
        return {
          action: "throw",
          error: this.#stop(model, "auth", "the service refused the API key", {
            detail: msg,
            serviceMessage: msg,
            cause: err,
            hint: "set OLLAMA_API_KEY to a valid key (https://ollama.com/settings/keys)",
          }),
        };
      case "concurrency":
        return { action: "retry_same", waitMs: err.retryAfterMs ?? 1000 };
      case "paywall": {
        this.#dropped.add(model);
        this.#onEvent({ type: "drop", model, reason: "paywall", detail: msg });
        if (this.pinned) {
          return {
            action: "throw",
            error: this.#stop(
              model,
              "paywall",
              "the pinned model needs a plan this account lacks",
              {
                detail: msg,
                serviceMessage: msg,
                cause: err,
                hint: "pick another --model, or leave --model out to use the ladder",
              },
            ),
          };
        }
        const next = this.#escalate("paywall", msg);
        return next
          ? { action: "retry_next", model: next }
          : { action: "throw", error: this.#stopped! };
      }
      default: {
        const escalates = err.kind === "session_limit" || MODEL_ERRORS.has(err.kind);
        if (!escalates || this.pinned) {
          this.#onEvent({ type: "failure", model, reason: err.kind, detail: msg });
          return { action: "throw", error: err };
        }
        const next = this.#escalate(err.kind, msg);
        return next
          ? { action: "retry_next", model: next }
          : { action: "throw", error: this.#stopped! };
      }
    }
  }
}
