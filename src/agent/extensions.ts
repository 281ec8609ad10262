/**
 * What a session adds to the built-in tools: the tools of its MCP servers (classified by the
 * policy's classify rules, nothing else) and the `task` tool for configured agent types.
 *
 * @module
 */
import type { AnyTool } from "../core/tool.ts";
import { type McpCallClass, type McpHost, mcpTool } from "../mcp/mod.ts";
import { classifyTool, inverseArgs } from "../plane/tool_class.ts";
import type { CompiledPolicy } from "../plane/policy.ts";
import type { AgentTypes } from "./agent_types.ts";
import { taskTool } from "./task_tool.ts";

/**
 * The classifier MCP tools consult: the policy's classification of the tool, with the inverse's
 * arguments resolved from the call's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpClassifier } from "./extensions.ts";
 * import { defaultPolicy } from "../plane/policy.ts";
 * assert.equal(mcpClassifier(defaultPolicy())("mcp__fs__read_file", {}), null);
 * ```
 */
export function mcpClassifier(
  policy: CompiledPolicy,
): (tool: string, args: Record<string, unknown>) => McpCallClass | null {
  return (tool, args) => {
    const c = classifyTool(policy.doc.rules, tool);
    if (!c) return null;
    return {
      class: c.class,
      rule: c.rule,
      ...(c.inverse
        ? { inverse: { tool: c.inverse.tool, args: inverseArgs(c.inverse.args, args) } }
        : {}),
    };
  };
}

/**
 * The extra tools of a session, in a stable order (servers by name, then their tools as listed).
 *
 * @example
 * ```ts ignore
 * const extra = extensionTools(host, agents, policy);
 * ```
 */
export function extensionTools(
  host: McpHost | undefined,
  agents: AgentTypes | undefined,
  policy: CompiledPolicy,
  workspace?: string,
): AnyTool[] {
  const out: AnyTool[] = [];
  const classify = mcpClassifier(policy);
  for (const conn of host?.connections ?? []) {
    for (const info of conn.tools) {
      const t = mcpTool(conn, info, {
        classify,
        network: host!.networked(conn.server),
        ...(host!.writable(conn.server) && workspace ? { gitGuard: workspace } : {}),
      });
      if (t) out.push(t);
    }
  }
  if (agents && Object.keys(agents).length > 0) out.push(taskTool(agents));
  return out;
}
