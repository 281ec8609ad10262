/**
 * The `edit` tool: replace one exact occurrence of a text in a file.
 *
 * @module
 */
import { z } from "zod";
import { RetieError } from "../core/errors.ts";
import type { Effect } from "../core/effect.ts";
import type { FileChange, Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { resolveToolPath } from "./confine.ts";
import { writeFileConfined } from "./confine_write.ts";
import { planEdit } from "./edit_match.ts";
import { writeEffect } from "./effects.ts";
import { currentText } from "./file_text.ts";
import { displayPath } from "./paths.ts";
import { errorResult, guarded, settle } from "./results.ts";

/** Arguments of `edit`. */
export const editSchema = z.object({
  path: z.string().min(1).describe("File to edit, relative to the workspace"),
  old_text: z.string().min(1).describe(
    "Exact text to replace, including whitespace; must occur exactly once in the file",
  ),
  new_text: z.string().describe("Text to put in its place"),
});
/** Arguments of `edit`, parsed. */
export type EditArgs = z.infer<typeof editSchema>;

/**
 * The `edit` tool.
 *
 * @example
 * ```ts
 * import { editTool } from "./edit.ts";
 * editTool.name; // "edit"
 * ```
 */
export const editTool: Tool<EditArgs> = {
  name: "edit",
  description: "Replace old_text with new_text in a file. old_text must match exactly once " +
    "(whitespace included); include surrounding lines to make it unique.",
  schema: editSchema,
  classify(args, ctx) {
    return settle(() => {
      const r = resolveToolPath(ctx, args.path);
      return writeEffect(ctx, "edit", r, `edit ${displayPath(ctx.workspace, r.real)}`);
    });
  },
  preview(args, ctx) {
    return settle(() => {
      try {
        return [change(args, ctx).change];
      } catch {
        return []; // the edit cannot apply; the handler reports why
      }
    });
  },
  handler(args, ctx, approved) {
    return guarded(() => apply(args, ctx, approved));
  },
};

interface Planned {
  change: FileChange;
  summary: string;
  line: number;
}

/** Computes the change, or throws the reason it cannot be made. */
function change(args: EditArgs, ctx: ToolContext): Planned {
  const r = resolveToolPath(ctx, args.path);
  if (!r.inside) {
    throw new RetieError(
      `refused (${args.path}): it resolves to ${r.real}, outside the workspace`,
      {
        hint: `tools write only inside the workspace (${ctx.workspace})`,
        exitCode: 2,
      },
    );
  }
  const shown = displayPath(ctx.workspace, r.real);
  const before = currentText(ctx, r.real);
  if (before === null) {
    throw new RetieError(`cannot edit (${shown}): the file does not exist`, {
      hint: "use write to create a file",
      exitCode: 2,
    });
  }
  const plan = planEdit(before, args.old_text, args.new_text);
  if (!plan.ok) {
    throw new RetieError(`cannot edit (${shown}): ${plan.message}`, { hint: plan.hint });
  }
  return {
    change: { path: r.real, before, after: plan.after },
    line: plan.line,
    summary: `edited ${shown}: replaced ${plan.oldLines} line(s) at line ${plan.line} with ` +
      `${plan.newLines} line(s)`,
  };
}

function apply(args: EditArgs, ctx: ToolContext, approved: Effect): ToolResult {
  let p: Planned;
  try {
    p = change(args, ctx);
  } catch (e) {
    return errorResult(e);
  }
  const w = writeFileConfined(
    ctx,
    args.path,
    new TextEncoder().encode(p.change.after!),
    approved,
  );
  return { ok: true, output: p.summary, detail: { path: w.real, line: p.line, bytes: w.bytes } };
}
