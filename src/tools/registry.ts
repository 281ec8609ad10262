/**
 * The built-in tool set, and its definitions as providers see them (name, description, JSON
 * Schema — nothing that runs).
 *
 * @module
 */
import { z } from "zod";
import type { AnyTool, ToolDefinition } from "../core/tool.ts";
import { askTool } from "./ask.ts";
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { fetchTool } from "./fetch.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { lsTool } from "./ls.ts";
import { readTool } from "./read.ts";
import { recallTool } from "./recall.ts";
import { writeTool } from "./write.ts";

/**
 * The tools every session has, in the order they are offered to the model.
 *
 * @example
 * ```ts
 * import { builtinTools } from "./registry.ts";
 * builtinTools().map((t) => t.name);
 * // ["read", "ls", "glob", "grep", "edit", "write", "bash", "fetch", "recall", "ask"]
 * ```
 */
export function builtinTools(): AnyTool[] {
  return [
    readTool,
    lsTool,
    globTool,
    grepTool,
    editTool,
    writeTool,
    bashTool,
    fetchTool,
    recallTool,
    askTool,
  ];
}

/**
 * The JSON Schema of a tool's arguments, without the `$schema` header providers do not want.
 *
 * @example
 * ```ts
 * import { parametersOf } from "./registry.ts";
 * import { readTool } from "./read.ts";
 * parametersOf(readTool).required; // ["path"]
 * ```
 */
export function parametersOf(tool: AnyTool): Record<string, unknown> {
  if (tool.parameters) return tool.parameters;
  const schema = z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * What providers see of the tools.
 *
 * @example
 * ```ts
 * import { builtinTools, toolDefinitions } from "./registry.ts";
 * toolDefinitions(builtinTools())[0].name; // "read"
 * ```
 */
export function toolDefinitions(tools: readonly AnyTool[]): ToolDefinition[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: parametersOf(t),
  }));
}
