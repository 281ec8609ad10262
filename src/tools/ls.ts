/**
 * The `ls` tool: the entries of one directory, .gitignore respected.
 *
 * @module
 */
import * as fs from "node:fs";
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { openVerified, resolveToolPath } from "./confine.ts";
import { readEffect } from "./effects.ts";
import { displayPath, rawPath } from "./paths.ts";
import { errorResult, guarded, settle } from "./results.ts";
import { walk } from "./walk.ts";

/** Entries shown when no limit is given. */
export const DEFAULT_LS_LIMIT = 500;

/** Arguments of `ls`. */
export const lsSchema = z.object({
  path: z.string().min(1).optional().describe("Directory to list (default: the workspace root)"),
  limit: z.number().int().min(1).max(5000).optional().describe(
    `Maximum number of entries (default ${DEFAULT_LS_LIMIT})`,
  ),
});
/** Arguments of `ls`, parsed. */
export type LsArgs = z.infer<typeof lsSchema>;

/**
 * The `ls` tool.
 *
 * @example
 * ```ts
 * import { lsTool } from "./ls.ts";
 * lsTool.name; // "ls"
 * ```
 */
export const lsTool: Tool<LsArgs> = {
  name: "ls",
  description: "List a directory. Directories end in /, symlinks show their target. " +
    "Entries ignored by .gitignore and .git are left out.",
  schema: lsSchema,
  classify(args, ctx) {
    return settle(() => {
      const r = resolveToolPath(ctx, args.path ?? ".");
      return readEffect(ctx, "ls", [r], `list ${displayPath(ctx.workspace, r.real)}`);
    });
  },
  handler(args, ctx, approved) {
    return guarded(() => list(args, ctx, approved.readsOutside));
  },
};

function list(
  args: LsArgs,
  ctx: ToolContext,
  approved: readonly string[],
): ToolResult {
  const input = args.path ?? ".";
  const v = openVerified(ctx, rawPath(ctx.workspace, input), { approvedOutside: approved });
  fs.closeSync(v.fd);
  const shown = displayPath(ctx.workspace, v.real);
  if (!v.stat.isDirectory()) {
    return errorResult(new Error(`${shown} is not a directory; use read to see a file`));
  }
  const limit = args.limit ?? DEFAULT_LS_LIMIT;
  const lines: string[] = [];
  let more = 0;
  const stats = walk(
    ctx,
    {
      root: v.real,
      recursive: false,
      maxEntries: Number.MAX_SAFE_INTEGER,
      approvedOutside: approved,
    },
    (e) => {
      if (lines.length >= limit) {
        more++;
        return;
      }
      if (e.kind === "dir") lines.push(`${e.rel}/`);
      else if (e.kind === "symlink") lines.push(`${e.rel} -> ${linkTarget(e.abs)}`);
      else lines.push(e.rel);
    },
  );
  const notes: string[] = [];
  if (more > 0) notes.push(`[${more} more entries not shown; raise limit or use glob]`);
  if (stats.ignored > 0) notes.push(`[${stats.ignored} entries ignored by .gitignore not shown]`);
  const body = lines.length > 0 ? lines.join("\n") : "(empty directory)";
  return {
    ok: true,
    output: [body, ...notes].join("\n"),
    detail: { path: v.real, entries: lines.length, more, ignored: stats.ignored },
  };
}

function linkTarget(abs: string): string {
  try {
    return fs.readlinkSync(abs);
  } catch {
    return "?";
  }
}
