/**
 * The effective settings of a run: each one from the first of flag > environment > config file >
 * default that gives it, with where it came from (what `retie config` prints).
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import { BUDGET_PATTERN, type ProviderName, PROVIDERS, type RetieConfig } from "./schema.ts";

/** Where a setting's value came from. */
export type SettingSource = "flag" | "env" | "config" | "default";

/** One effective setting. */
export interface Setting<T> {
  value: T;
  source: SettingSource;
  /** The flag, variable or config key it came from (`--model`, `RETIE_MODEL`, `model`). */
  from: string;
}

/** A session budget. */
export interface Budget {
  kind: "tokens" | "units";
  amount: number;
}

/** Every setting a run uses. */
export interface EffectiveSettings {
  provider: Setting<ProviderName>;
  model: Setting<string | undefined>;
  baseUrl: Setting<string | undefined>;
  maxTier: Setting<number | undefined>;
  contextWindow: Setting<number | undefined>;
  budget: Setting<Budget | undefined>;
  mode: Setting<"default" | "plan">;
  maxSteps: Setting<number>;
}

/** Flags as given on the command line (strings, unparsed; undefined when absent). */
export interface SettingFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  maxTier?: string;
  contextWindow?: string;
  budget?: string;
  mode?: string;
  maxSteps?: string;
}

/** The environment variable of each setting. */
export const SETTING_ENV: Record<keyof EffectiveSettings, string> = {
  provider: "RETIE_PROVIDER",
  model: "RETIE_MODEL",
  baseUrl: "RETIE_BASE_URL",
  maxTier: "RETIE_MAX_TIER",
  contextWindow: "RETIE_CONTEXT_WINDOW",
  budget: "RETIE_BUDGET",
  mode: "RETIE_MODE",
  maxSteps: "RETIE_MAX_STEPS",
};

const FLAG: Record<keyof EffectiveSettings, string> = {
  provider: "--provider",
  model: "--model",
  baseUrl: "--base-url",
  maxTier: "--max-tier",
  contextWindow: "--context-window",
  budget: "--budget",
  mode: "--mode",
  maxSteps: "--max-steps",
};

const CONFIG_KEY: Record<keyof EffectiveSettings, keyof RetieConfig> = {
  provider: "provider",
  model: "model",
  baseUrl: "baseUrl",
  maxTier: "maxTier",
  contextWindow: "contextWindow",
  budget: "budget",
  mode: "defaultMode",
  maxSteps: "maxSteps",
};

function bad(where: string, what: string, got: unknown): never {
  throw new RetieError(`${where} takes ${what} (got ${JSON.stringify(got)})`, { exitCode: 2 });
}

function int(where: string, v: unknown, min: number, max: number): number {
  const n = typeof v === "number" ? v : Number(String(v).trim());
  if (!Number.isInteger(n) || n < min || n > max || String(v).trim() === "") {
    bad(where, `a whole number from ${min} to ${max}`, v);
  }
  return n;
}

/**
 * Parses a budget: `500000` or `200k` or `200k tokens` (tokens), `3.5 units` or `3.5u` (Ollama
 * quota units), or `{tokens}` / `{units}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBudget } from "./resolve.ts";
 * assert.deepEqual(parseBudget("200k tokens", "--budget"), { kind: "tokens", amount: 200000 });
 * assert.deepEqual(parseBudget("2.5u", "--budget"), { kind: "units", amount: 2.5 });
 * ```
 */
export function parseBudget(v: unknown, where: string): Budget {
  if (v && typeof v === "object") {
    const o = v as { tokens?: number; units?: number };
    if (typeof o.tokens === "number") return { kind: "tokens", amount: o.tokens };
    if (typeof o.units === "number") return { kind: "units", amount: o.units };
  }
  const m = BUDGET_PATTERN.exec(String(v));
  if (!m) bad(where, 'an amount like "200k tokens" or "3 units"', v);
  const scale = m[2]?.toLowerCase() === "k" ? 1e3 : m[2]?.toLowerCase() === "m" ? 1e6 : 1;
  const amount = Number(m[1]) * scale;
  const kind = /^u/i.test(m[3] ?? "") ? "units" : "tokens";
  if (!(amount > 0) || (kind === "tokens" && !Number.isInteger(amount))) {
    bad(where, "a positive amount (whole tokens)", v);
  }
  return { kind, amount };
}

/**
 * Formats a budget for people.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBudget } from "./resolve.ts";
 * assert.deepEqual(formatBudget({ kind: "tokens", amount: 200000 }), "200000 tokens");
 * ```
 */
export function formatBudget(b: Budget): string {
  return `${b.amount} ${b.kind}`;
}

type Parsers = {
  [K in keyof EffectiveSettings]: (v: unknown, where: string) => EffectiveSettings[K]["value"];
};

const PARSE: Parsers = {
  provider: (v, where) =>
    (PROVIDERS as readonly string[]).includes(String(v))
      ? v as ProviderName
      : bad(where, "ollama, anthropic or openai", v),
  model: (v, where) => (String(v).trim() ? String(v).trim() : bad(where, "a model name", v)),
  // Checked where it is used, with the provider's own message.
  baseUrl: (v, where) => (String(v).trim() ? String(v).trim() : bad(where, "a URL", v)),
  maxTier: (v, where) => int(where, v, 1, 4),
  contextWindow: (v, where) => int(where, v, 1024, 10_000_000),
  budget: (v, where) => parseBudget(v, where),
  mode: (v, where) => (v === "default" || v === "plan" ? v : bad(where, "default or plan", v)),
  maxSteps: (v, where) => int(where, v, 1, 1000),
};

const DEFAULTS: { [K in keyof EffectiveSettings]: EffectiveSettings[K]["value"] } = {
  provider: "ollama",
  model: undefined,
  baseUrl: undefined,
  maxTier: undefined,
  contextWindow: undefined,
  budget: undefined,
  mode: "default",
  maxSteps: 40,
};

/**
 * Resolves every setting: flag > environment > config > default. A bad value anywhere is an error
 * naming where it came from (exit 2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveSettings } from "./resolve.ts";
 * const s = resolveSettings({ model: "m" }, () => undefined, { provider: "anthropic" });
 * assert.deepEqual(s.provider.source, "config");
 * assert.deepEqual(s.model.source, "flag");
 * ```
 */
export function resolveSettings(
  flags: SettingFlags,
  env: (name: string) => string | undefined,
  config: RetieConfig,
  configFile = "config.json",
): EffectiveSettings {
  const out: Record<string, Setting<unknown>> = {};
  for (const key of Object.keys(DEFAULTS) as (keyof EffectiveSettings)[]) {
    const parse = PARSE[key] as (v: unknown, where: string) => unknown;
    const flag = flags[key];
    const envValue = env(SETTING_ENV[key]);
    const cfgValue = config[CONFIG_KEY[key]];
    if (flag !== undefined) {
      out[key] = { value: parse(flag, FLAG[key]), source: "flag", from: FLAG[key] };
    } else if (envValue !== undefined && envValue !== "") {
      out[key] = {
        value: parse(envValue, `$${SETTING_ENV[key]}`),
        source: "env",
        from: SETTING_ENV[key],
      };
    } else if (cfgValue !== undefined) {
      out[key] = {
        value: parse(cfgValue, `${CONFIG_KEY[key]} in ${configFile}`),
        source: "config",
        from: String(CONFIG_KEY[key]),
      };
    } else out[key] = { value: DEFAULTS[key], source: "default", from: "default" };
  }
  return out as unknown as EffectiveSettings;
}
