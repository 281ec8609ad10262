/**
 * The `grep` tool: search file contents with a regular expression; bounded, binaries skipped.
 *
 * @module
 */
import * as fs from "node:fs";
import { z } from "zod";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { openVerified, resolveToolPath } from "./confine.ts";
import { readEffect } from "./effects.ts";
import { matchGlob } from "./glob_match.ts";
import { WALK_BUDGET } from "./glob.ts";
import { displayPath, rawPath } from "./paths.ts";
import { guarded, settle } from "./results.ts";
import { clipLine, looksBinary, SNIFF_BYTES } from "./text.ts";
import { walk } from "./walk.ts";

/** Matches shown when no limit is given. */
export const DEFAULT_GREP_LIMIT = 100;
/** Files larger than this are skipped (and counted in the note). */
export const GREP_MAX_FILE_BYTES = 8 * 1024 * 1024;
const MATCH_LINE_CHARS = 300;

/** Arguments of `grep`. */
export const grepSchema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression to search for"),
  path: z.string().min(1).optional().describe(
    "File or directory to search (default: the workspace root)",
  ),
  glob: z.string().min(1).optional().describe("Only search files matching this glob (e.g. *.ts)"),
  ignore_case: z.boolean().optional().describe("Case-insensitive search (default false)"),
  limit: z.number().int().min(1).max(1000).optional().describe(
    `Maximum number of matching lines (default ${DEFAULT_GREP_LIMIT})`,
  ),
});
/** Arguments of `grep`, parsed. */
export type GrepArgs = z.infer<typeof grepSchema>;

/**
 * Compiles the model's pattern, with an error it can act on.
 *
 * @throws RetieError naming the pattern and the parser's complaint.
 * @example
 * ```ts
 * import { compilePattern } from "./grep.ts";
 * compilePattern("fo+", false).test("foo"); // true
 * ```
 */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? "i" : "");
  } catch (e) {
    throw new RetieError(
      `invalid regular expression (${pattern}): ${errorMessage(e).replace(/^.*: /, "")}`,
      {
        hint: "use JavaScript RegExp syntax; escape literal ( ) [ ] { } . * + ? | with a backslash",
        exitCode: 2,
      },
    );
  }
}

/**
 * The `grep` tool.
 *
 * @example
 * ```ts
 * import { grepTool } from "./grep.ts";
 * grepTool.name; // "grep"
 * ```
 */
export const grepTool: Tool<GrepArgs> = {
  name: "grep",
  description: "Search file contents with a regular expression. Prints path:line:text. " +
    "Respects .gitignore; skips binary files.",
  schema: grepSchema,
  classify(args, ctx) {
    return settle(() => {
      const r = resolveToolPath(ctx, args.path ?? ".");
      const summary = `search ${displayPath(ctx.workspace, r.real)} for /${args.pattern}/`;
      return readEffect(ctx, "grep", [r], summary);
    });
  },
  handler(args, ctx, approved) {
    return guarded(() => search(args, ctx, approved.readsOutside));
  },
};

interface Tally {
  lines: string[];
  more: boolean;
  skippedLarge: number;
  skippedBinary: number;
  files: number;
}

function search(
  args: GrepArgs,
  ctx: ToolContext,
  approved: readonly string[],
): ToolResult {
  const re = compilePattern(args.pattern, args.ignore_case ?? false);
  let only: ((rel: string) => boolean) | null = null;
  if (args.glob) only = matchGlob(args.glob);
  const limit = args.limit ?? DEFAULT_GREP_LIMIT;
  const t: Tally = { lines: [], more: false, skippedLarge: 0, skippedBinary: 0, files: 0 };
  const root = openVerified(ctx, rawPath(ctx.workspace, args.path ?? "."), {
    approvedOutside: approved,
  });
  let truncated = false;
  if (root.stat.isDirectory()) {
    fs.closeSync(root.fd);
    const stats = walk(
      ctx,
      { root: root.real, recursive: true, maxEntries: WALK_BUDGET, approvedOutside: approved },
      (e) => {
        if (e.kind !== "file" || (only && !only(e.rel))) return;
        try {
          const v = openVerified(ctx, e.abs, { noFollow: true, approvedOutside: approved });
          try {
            return scan(ctx, v.fd, v.real, v.stat.size, re, limit, t);
          } finally {
            fs.closeSync(v.fd);
          }
        } catch {
          return; // vanished or changed since it was listed: not a match
        }
      },
    );
    truncated = stats.truncated;
  } else {
    try {
      scan(ctx, root.fd, root.real, root.stat.size, re, limit, t);
    } finally {
      fs.closeSync(root.fd);
    }
  }
  const notes: string[] = [];
  if (t.more) notes.push(`[stopped at ${limit} matches; raise limit or narrow the search]`);
  if (truncated) notes.push(`[search stopped after ${WALK_BUDGET} entries; search less]`);
  if (t.skippedLarge > 0) notes.push(`[${t.skippedLarge} files over 8 MB skipped]`);
  const body = t.lines.length > 0 ? t.lines.join("\n") : `no matches for /${args.pattern}/`;
  return {
    ok: true,
    output: [body, ...notes].join("\n"),
    detail: {
      matches: t.lines.length,
      more: t.more,
      files: t.files,
      skippedBinary: t.skippedBinary,
      skippedLarge: t.skippedLarge,
    },
  };
}

/** Scans one open file; returns false once the limit is passed (stops the walk). */
function scan(
  ctx: ToolContext,
  fd: number,
  real: string,
  size: number,
  re: RegExp,
  limit: number,
  t: Tally,
): boolean {
  if (size > GREP_MAX_FILE_BYTES) {
    t.skippedLarge++;
    return true;
  }
  const bytes = new Uint8Array(size);
  let n = 0;
  while (n < size) {
    const got = fs.readSync(fd, bytes, n, size - n, n);
    if (got === 0) break;
    n += got;
  }
  if (looksBinary(bytes.subarray(0, Math.min(n, SNIFF_BYTES)))) {
    t.skippedBinary++;
    return true;
  }
  t.files++;
  const shown = displayPath(ctx.workspace, real);
  const lines = new TextDecoder().decode(bytes.subarray(0, n)).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (!re.test(line)) continue;
    if (t.lines.length >= limit) {
      t.more = true;
      return false;
    }
    t.lines.push(`${shown}:${i + 1}:${clipLine(line, MATCH_LINE_CHARS)}`);
  }
  return true;
}
