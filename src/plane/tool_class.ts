/**
 * Classification rules: how a policy gives a class to tools retie cannot classify itself (MCP
 * tools). A rule with `classify` names tools (globs allowed) and the class their calls get; its
 * `decision` then applies like any rule's. A tool no such rule names stays `unknown`, and
 * `retie-default` has no rule for `unknown`: it is denied.
 *
 * @module
 */
import type { ReversibilityClass } from "../core/effect.ts";
import type { Rule } from "./policy_schema.ts";

/** A tool-name pattern: `*` matches any run of characters (`mcp__fs__*`). */
export function toolPatternMatches(pattern: string, tool: string): boolean {
  if (!pattern.includes("*")) return pattern === tool;
  const re = new RegExp(
    "^" + pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$",
  );
  return re.test(tool);
}

/** What a classification rule says about one tool. */
export interface ToolClassification {
  class: Exclude<ReversibilityClass, "unknown">;
  /** The rule that classified it. */
  rule: string;
  /** The inverse call a `reversible` classification names (absent: "reversible claimed, no
   * inverse", and the guard refuses the call). */
  inverse?: { tool: string; args: Record<string, unknown> };
}

const RANK: Record<ToolClassification["class"], number> = {
  none: 0,
  reversible: 1,
  irreversible: 2,
};

/**
 * The class the rules give `tool`, or null when no classification rule names it. When several
 * name it, the most consequential class wins (as the strictest decision does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyTool } from "./tool_class.ts";
 * const rules = [{
 *   id: "fs-reads", match: { tools: ["mcp__fs__read_*"] }, classify: "none" as const,
 *   decision: "allow" as const, justification: "reading files changes nothing",
 * }];
 * assert.equal(classifyTool(rules, "mcp__fs__read_file")?.class, "none");
 * assert.equal(classifyTool(rules, "mcp__fs__write_file"), null);
 * ```
 */
export function classifyTool(rules: readonly Rule[], tool: string): ToolClassification | null {
  let best: ToolClassification | null = null;
  for (const r of rules) {
    if (!r.classify || !r.match.tools?.some((p) => toolPatternMatches(p, tool))) continue;
    if (best && RANK[r.classify] <= RANK[best.class]) continue;
    best = { class: r.classify, rule: r.id, ...(r.inverse ? { inverse: r.inverse } : {}) };
  }
  return best;
}

/**
 * The arguments of an inverse call: `"$args.NAME"` strings take the original call's argument
 * `NAME`; everything else is taken as written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inverseArgs } from "./tool_class.ts";
 * assert.deepEqual(
 *   inverseArgs({ id: "$args.name", force: true }, { name: "n1" }),
 *   { id: "n1", force: true },
 * );
 * ```
 */
export function inverseArgs(
  template: Record<string, unknown>,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(template)) {
    out[k] = typeof v === "string" && v.startsWith("$args.") ? args[v.slice(6)] ?? null : v;
  }
  return out;
}
