/**
 * The `task` tool: hands a piece of work to a sub-agent of a configured type. The call itself
 * changes nothing (class `none`); everything the sub-agent does is classified, gated and recorded
 * action by action in its own session, under a delegation narrowed to its type's carve. An agent
 * type nobody configured is `unknown`, and denied.
 *
 * @module
 */
import { z } from "zod";
import { type Effect, effect, unknownEffect } from "../core/effect.ts";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import type { AgentTypes } from "./agent_types.ts";

const schema = z.strictObject({
  agent: z.string().min(1).describe("the agent type to run"),
  prompt: z.string().min(1).max(20_000).describe(
    "the task, complete: the sub-agent sees nothing else",
  ),
});
type TaskArgs = z.infer<typeof schema>;

/**
 * The `task` tool for the configured agent types.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskTool } from "./task_tool.ts";
 * const t = taskTool({ reviewer: { description: "reads code", instructions: "", ask: "deny", maxSteps: 5 } });
 * const ctx = {} as Parameters<typeof t.classify>[1];
 * assert.equal((await t.classify({ agent: "reviewer", prompt: "x" }, ctx)).class, "none");
 * assert.equal((await t.classify({ agent: "ghost", prompt: "x" }, ctx)).class, "unknown");
 * ```
 */
export function taskTool(types: AgentTypes): Tool<TaskArgs> {
  const list = Object.entries(types).map(([n, t]) => `- ${n}: ${t.description}`).join("\n");
  return {
    name: "task",
    description: "Hand a self-contained piece of work to a sub-agent and get its report back. " +
      "It works on the same project with fewer permissions. Agent types:\n" + list,
    schema,
    classify(args: TaskArgs, _ctx: ToolContext): Promise<Effect> {
      const type = Object.hasOwn(types, args.agent) ? types[args.agent] : undefined;
      if (!type) {
        return Promise.resolve({
          ...unknownEffect(`task:${args.agent}`),
          reason: `no agent type named "${args.agent}" is configured (agents in the user's config)`,
        });
      }
      return Promise.resolve(effect({
        class: "none",
        summary: `delegate to ${args.agent}: ${args.prompt.replace(/\s+/g, " ").slice(0, 80)}`,
        consequence: `runs the sub-agent ${args.agent}; each of its actions is classified, gated ` +
          "and recorded on its own, under a delegation narrowed to its type",
        reason:
          "the task call itself changes nothing; the sub-agent's actions are gated one by one",
      }));
    },
    async handler(args: TaskArgs, ctx: ToolContext): Promise<ToolResult> {
      if (!ctx.services.subagent) {
        return {
          ok: false,
          output: "task is not available here (a sub-agent cannot start another)",
        };
      }
      const r = await ctx.services.subagent(args.agent, args.prompt, ctx.signal);
      return {
        ok: r.ok,
        output: r.ok ? r.text : `the sub-agent stopped before finishing: ${r.text}`,
        detail: r.detail,
      };
    },
  };
}
