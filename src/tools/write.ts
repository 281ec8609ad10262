/**
 * The `write` tool: create or overwrite a file inside the workspace (parents created).
 *
 * @module
 */
import { z } from "zod";
import type { Effect } from "../core/effect.ts";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { resolveToolPath } from "./confine.ts";
import { writeFileConfined } from "./confine_write.ts";
import { writeEffect } from "./effects.ts";
import { currentText } from "./file_text.ts";
import { displayPath } from "./paths.ts";
import { guarded, settle } from "./results.ts";
import { formatSize } from "./text.ts";
import { errorMessage } from "../core/errors.ts";

/** Arguments of `write`. */
export const writeSchema = z.object({
  path: z.string().min(1).describe("File to write, relative to the workspace"),
  content: z.string().describe("The whole new content of the file"),
});
/** Arguments of `write`, parsed. */
export type WriteArgs = z.infer<typeof writeSchema>;

/**
 * The `write` tool.
 *
 * @example
 * ```ts
 * import { writeTool } from "./write.ts";
 * writeTool.name; // "write"
 * ```
 */
export const writeTool: Tool<WriteArgs> = {
  name: "write",
  description: "Write a file with the given content, replacing it if it exists. " +
    "Creates parent directories. Only inside the workspace.",
  schema: writeSchema,
  classify(args, ctx) {
    return settle(() => {
      const r = resolveToolPath(ctx, args.path);
      return writeEffect(ctx, "write", r, `write ${displayPath(ctx.workspace, r.real)}`);
    });
  },
  preview(args, ctx) {
    return settle(() => {
      const r = resolveToolPath(ctx, args.path);
      if (!r.inside) return []; // refused anyway; never read outside for a preview
      let before: string | null;
      try {
        before = currentText(ctx, r.real);
      } catch (e) {
        before = `(current content not shown: ${errorMessage(e)})`;
      }
      return [{ path: r.real, before, after: args.content }];
    });
  },
  handler(args, ctx, approved) {
    return guarded(() => write(args, ctx, approved));
  },
};

function write(args: WriteArgs, ctx: ToolContext, approved: Effect): ToolResult {
  const w = writeFileConfined(ctx, args.path, new TextEncoder().encode(args.content), approved);
  const shown = displayPath(ctx.workspace, w.real);
  return {
    ok: true,
    output: `${w.created ? "created" : "overwrote"} ${shown} (${formatSize(w.bytes)})`,
    detail: { path: w.real, created: w.created, bytes: w.bytes },
  };
}
