/**
 * The `glob` tool: find files by name pattern, .gitignore respected.
 *
 * @module
 */
import * as fs from "node:fs";
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { openVerified, resolveToolPath } from "./confine.ts";
import { readEffect } from "./effects.ts";
import { matchGlob } from "./glob_match.ts";
import { displayPath, rawPath } from "./paths.ts";
import { errorResult, guarded, settle } from "./results.ts";
import { walk } from "./walk.ts";

/** Paths shown when no limit is given. */
export const DEFAULT_GLOB_LIMIT = 1000;
/** Entries a walk may meet before it stops (bounds the cost on huge trees). */
export const WALK_BUDGET = 200_000;

/** Arguments of `glob`. */
export const globSchema = z.object({
  pattern: z.string().min(1).describe(
    "Glob pattern: *, ?, **, [abc], {a,b}. Without a / it matches file names at any depth " +
      "(*.ts); with one, paths from the search directory (src/**/*.ts)",
  ),
  path: z.string().min(1).optional().describe("Directory to search (default: the workspace root)"),
  limit: z.number().int().min(1).max(10_000).optional().describe(
    `Maximum number of paths (default ${DEFAULT_GLOB_LIMIT})`,
  ),
});
/** Arguments of `glob`, parsed. */
export type GlobArgs = z.infer<typeof globSchema>;

/**
 * The `glob` tool.
 *
 * @example
 * ```ts
 * import { globTool } from "./glob.ts";
 * globTool.name; // "glob"
 * ```
 */
export const globTool: Tool<GlobArgs> = {
  name: "glob",
  description: "Find files by glob pattern, sorted by path. Paths are relative to the workspace. " +
    "Respects .gitignore; symlinks are listed but not followed.",
  schema: globSchema,
  classify(args, ctx) {
    return settle(() => {
      const r = resolveToolPath(ctx, args.path ?? ".");
      const summary = `find ${args.pattern} in ${displayPath(ctx.workspace, r.real)}`;
      return readEffect(ctx, "glob", [r], summary);
    });
  },
  handler(args, ctx, approved) {
    return guarded(() => find(args, ctx, approved.readsOutside));
  },
};

function find(
  args: GlobArgs,
  ctx: ToolContext,
  approved: readonly string[],
): ToolResult {
  let match: (rel: string) => boolean;
  try {
    match = matchGlob(args.pattern);
  } catch (e) {
    return errorResult(e);
  }
  const v = openVerified(ctx, rawPath(ctx.workspace, args.path ?? "."), {
    approvedOutside: approved,
  });
  fs.closeSync(v.fd);
  if (!v.stat.isDirectory()) {
    return errorResult(new Error(`${displayPath(ctx.workspace, v.real)} is not a directory`));
  }
  const limit = args.limit ?? DEFAULT_GLOB_LIMIT;
  const found: string[] = [];
  let more = 0;
  const stats = walk(
    ctx,
    { root: v.real, recursive: true, maxEntries: WALK_BUDGET, approvedOutside: approved },
    (e) => {
      if (e.kind === "dir" || !match(e.rel)) return;
      if (found.length < limit) found.push(displayPath(ctx.workspace, e.abs));
      else more++;
    },
  );
  const notes: string[] = [];
  if (more > 0) notes.push(`[${more} more matches not shown; raise limit or narrow the pattern]`);
  if (stats.truncated) {
    notes.push(`[search stopped after ${WALK_BUDGET} entries; search a smaller directory]`);
  }
  const body = found.length > 0 ? found.join("\n") : `no files match ${args.pattern}`;
  return {
    ok: true,
    output: [body, ...notes].join("\n"),
    detail: { matches: found.length, more, truncated: stats.truncated, ignored: stats.ignored },
  };
}
