/**
 * The user's configuration file, `$XDG_CONFIG_HOME/retie/config.json`, as a zod schema.
 *
 * Every key is optional; an unknown key or a bad value is an error naming it (strict objects).
 * Sections other features will fill (`mcpServers`, `agents`, `otlp`) are reserved: they are
 * accepted as objects and passed through untouched until their feature validates them. To add a
 * key, add it to {@link CONFIG_SHAPE}; the JSON Schema in `docs/config.md` is generated from it
 * (`retie config --schema`).
 *
 * @module
 */
import { z } from "zod";

/** Providers retie can talk to. */
export const PROVIDERS = ["ollama", "anthropic", "openai"] as const;
/** A provider name. */
export type ProviderName = typeof PROVIDERS[number];

/** Session modes. */
export const CONFIG_MODES = ["default", "plan"] as const;

/** The text form of a budget: a number, an optional k/m, an optional unit. */
export const BUDGET_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*([km])?\s*(tokens?|t|units?|u)?\s*$/i;

/**
 * A session budget: `"200k tokens"`, `"500000"` (tokens), `"3.5 units"` (Ollama quota units), or
 * `{ "tokens": N }` / `{ "units": N }`.
 */
export const BudgetSchema = z.union([
  z.string().regex(BUDGET_PATTERN, 'an amount like "200k tokens" or "3 units"'),
  z.strictObject({ tokens: z.number().int().positive() }),
  z.strictObject({ units: z.number().positive() }),
]);

/**
 * A remembered approval: "don't ask again" for calls of one tool whose argument matches a pattern,
 * in one workspace. It only turns an `ask` into an `allow` — never a `deny`.
 */
export const RememberedApprovalSchema = z.strictObject({
  /** Absolute real path of the workspace it applies to (and nothing below another root). */
  workspace: z.string().startsWith("/"),
  /** The tool name (`bash`, `write`, `edit`, …). */
  tool: z.string().min(1),
  /** Glob over the call's key argument (`command` for bash, `path` for file tools): `*` is any
   * run of characters; everything else is literal. */
  pattern: z.string().min(1),
  /** When the person added it (ISO-8601). */
  added: z.string().min(1),
});

/** A remembered approval rule. */
export type RememberedApproval = z.infer<typeof RememberedApprovalSchema>;

/** A model's price for the cost estimate: USD per million input and output tokens. */
export const PriceSchema = z.strictObject({
  input: z.number().nonnegative().max(10_000),
  output: z.number().nonnegative().max(10_000),
});

/** A reserved section: an object other features define; passed through as is. */
const Reserved = z.record(z.string(), z.unknown());

/** The keys of the config file. Add new keys here. */
export const CONFIG_SHAPE = {
  $schema: z.string().optional(),
  provider: z.enum(PROVIDERS).optional(),
  model: z.string().min(1).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  maxTier: z.number().int().min(1).max(4).optional(),
  contextWindow: z.number().int().min(1024).max(10_000_000).optional(),
  budget: BudgetSchema.optional(),
  defaultMode: z.enum(CONFIG_MODES).optional(),
  maxSteps: z.number().int().min(1).max(1000).optional(),
  rememberedApprovals: z.array(RememberedApprovalSchema).optional(),
  /** Prices for the cost estimate, USD per million tokens, by model name (or `prefix*`). */
  prices: z.record(z.string().min(1), PriceSchema).optional(),
  /** MCP servers: validated in detail by `src/mcp/config.ts` (docs/tools.md). */
  mcpServers: Reserved.optional(),
  /** Sub-agent types: validated in detail by `src/agent/agent_types.ts` (docs/tools.md). */
  agents: Reserved.optional(),
  /** OpenTelemetry export: a collector URL or `{ endpoint, headers }` (docs/replay.md). */
  otlp: z.union([z.string(), Reserved]).optional(),
};

/** The whole config file. */
export const ConfigSchema = z.strictObject(CONFIG_SHAPE);

/** A parsed config file. */
export type RetieConfig = z.infer<typeof ConfigSchema>;

/**
 * The config file's JSON Schema (draft 2020-12), generated from {@link ConfigSchema}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configJsonSchema } from "./schema.ts";
 * assert.deepEqual((configJsonSchema().properties as Record<string, unknown>).provider !== undefined, true);
 * ```
 */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConfigSchema, { io: "input" }) as Record<string, unknown>;
}
