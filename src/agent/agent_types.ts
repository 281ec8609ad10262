/**
 * Agent types: named sub-agents the user defines in their config (`agents`), never read from the
 * workspace (the workspace is agent-writable: `.retie/agents/*.md` is not read). A type carves the
 * caller's authority: it can only narrow what the caller's delegation allows.
 *
 * @module
 */
import { z } from "zod";
import { RetieError } from "../core/errors.ts";

/** One agent type. */
export const AgentTypeSchema = z.strictObject({
  /** What it is for: shown to the caller's model in the `task` tool's description. */
  description: z.string().min(1).max(500),
  /** Its instructions, added to its system prompt. */
  instructions: z.string().max(20_000).default(""),
  /** A model to use instead of the caller's (same provider). */
  model: z.string().min(1).optional(),
  /** Tools it may use (default: the caller's, without `task`). */
  tools: z.array(z.string().min(1)).min(1).optional(),
  /** Classes it may act in (default: the caller's). */
  classes: z.array(z.enum(["none", "reversible", "irreversible", "unknown"])).min(1).optional(),
  /** Who answers its `ask`s: nobody (`deny`, the default) or the caller's model (`lead`). */
  ask: z.enum(["deny", "lead"]).default("deny"),
  /** Model calls it may make for its task. */
  maxSteps: z.number().int().min(1).max(200).default(20),
});

/** The `agents` object: name → type. */
export const AgentTypesSchema = z.record(
  z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, "agent type names: lower-case letters, digits, _ -"),
  AgentTypeSchema,
);

export type AgentType = z.infer<typeof AgentTypeSchema>;
export type AgentTypes = z.infer<typeof AgentTypesSchema>;

/**
 * Validates the `agents` configuration.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAgentTypes } from "./agent_types.ts";
 * const t = parseAgentTypes({ reviewer: { description: "reads code", tools: ["read", "grep"] } }, "c");
 * assert.equal(t.reviewer.ask, "deny");
 * assert.throws(() => parseAgentTypes({ Bad: { description: "x" } }, "c"));
 * ```
 */
export function parseAgentTypes(raw: unknown, source: string): AgentTypes {
  const r = AgentTypesSchema.safeParse(raw ?? {});
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => `  agents.${i.path.join(".")}: ${i.message}`);
  throw new RetieError(`invalid agent types in ${source}:\n${lines.join("\n")}`, {
    hint: 'fix the entries named above (format: docs/tools.md, "Sub-agents")',
    exitCode: 2,
  });
}

/** A caller's authority, as its delegation states it. */
export interface Authority {
  tools: readonly string[];
  classes: readonly string[];
}

/**
 * The carve: the caller's authority narrowed by the type. Tools the caller lacks are dropped
 * (never added), `task` is never passed on (no recursion), and `*` becomes the caller's tool list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { carve } from "./agent_types.ts";
 * const c = carve(
 *   { tools: ["read", "grep", "bash", "task"], classes: ["none", "reversible"] },
 *   { tools: ["read", "bash", "fetch"], classes: ["none", "irreversible"] },
 * );
 * assert.deepEqual(c, { tools: ["bash", "read"], classes: ["none"] });
 * ```
 */
export function carve(
  caller: Authority,
  type: { tools?: readonly string[]; classes?: readonly string[] },
): { tools: string[]; classes: string[] } {
  const callerTools = caller.tools.filter((t) => t !== "task");
  const tools = (type.tools ?? callerTools).filter((t) => t !== "task" && callerTools.includes(t));
  const classes = (type.classes ?? caller.classes).filter((c) => caller.classes.includes(c));
  return { tools: [...new Set(tools)].sort(), classes: [...new Set(classes)].sort() };
}
