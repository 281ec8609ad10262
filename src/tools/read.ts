/**
 * The `read` tool: a page of a text file with line numbers; binary files described, not dumped.
 *
 * @module
 */
import * as fs from "node:fs";
import { basename } from "node:path";
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { openVerified, resolveToolPath } from "./confine.ts";
import { readEffect } from "./effects.ts";
import { displayPath, rawPath } from "./paths.ts";
import { errorResult, guarded, settle } from "./results.ts";
import { clipLine, formatSize, guessBinaryType, looksBinary, SNIFF_BYTES } from "./text.ts";

/** Lines per page when no limit is given. */
export const DEFAULT_LINES = 2000;
/** Characters per page at most, whatever the limit. */
export const PAGE_CHARS = 60_000;
/** Longest line shown whole. */
export const LINE_CHARS = 2000;
/** Files up to this size are counted to the end, so the note can give the total. */
const COUNT_ALL_BYTES = 8 * 1024 * 1024;

/** Arguments of `read`. */
export const readSchema = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace or absolute"),
  offset: z.number().int().min(1).max(1e9).optional().describe(
    "Line number to start at (1-based; default 1)",
  ),
  limit: z.number().int().min(1).max(10_000).optional().describe(
    `Maximum number of lines (default ${DEFAULT_LINES})`,
  ),
});
/** Arguments of `read`, parsed. */
export type ReadArgs = z.infer<typeof readSchema>;

/**
 * The `read` tool.
 *
 * @example
 * ```ts
 * import { readTool } from "./read.ts";
 * readTool.name; // "read"
 * ```
 */
export const readTool: Tool<ReadArgs> = {
  name: "read",
  description:
    "Read a text file. Output has line numbers; long files come in pages (use offset/limit). " +
    "Binary files are described, not shown.",
  schema: readSchema,
  classify(args, ctx) {
    return settle(() => {
      const r = resolveToolPath(ctx, args.path);
      return readEffect(ctx, "read", [r], `read ${displayPath(ctx.workspace, r.real)}`);
    });
  },
  handler(args, ctx, approved) {
    return guarded(() => readPage(args, ctx, approved.readsOutside));
  },
};

function readPage(
  args: ReadArgs,
  ctx: ToolContext,
  approved: readonly string[],
): ToolResult {
  const v = openVerified(ctx, rawPath(ctx.workspace, args.path), { approvedOutside: approved });
  try {
    const shown = displayPath(ctx.workspace, v.real);
    if (v.stat.isDirectory()) {
      return errorResult(new Error(`${shown} is a directory; use ls to list it`));
    }
    if (!v.stat.isFile()) {
      return errorResult(new Error(`${shown} is not a regular file (device, FIFO or socket)`));
    }
    const size = v.stat.size;
    const head = new Uint8Array(Math.min(SNIFF_BYTES, size));
    const n = head.length > 0 ? fs.readSync(v.fd, head, 0, head.length, 0) : 0;
    if (looksBinary(head.subarray(0, n))) {
      const type = guessBinaryType(head.subarray(0, n), basename(v.real));
      return {
        ok: true,
        output: `${shown}: binary file, ${formatSize(size)}, ${type}; contents not shown`,
        detail: { path: v.real, binary: true, size, type },
      };
    }
    if (size === 0) {
      return {
        ok: true,
        output: `${shown}: (empty file)`,
        detail: { path: v.real, size, lines: 0 },
      };
    }
    return pageOf(v.fd, shown, v.real, size, args.offset ?? 1, args.limit ?? DEFAULT_LINES);
  } finally {
    fs.closeSync(v.fd);
  }
}

function pageOf(
  fd: number,
  shown: string,
  real: string,
  size: number,
  offset: number,
  limit: number,
): ToolResult {
  const out: string[] = [];
  let chars = 0;
  let lineNo = 0;
  let next: number | null = null; // first line not shown, when the page ended early
  let stopped = false; // stopped reading before the end (file too big to count)
  const handle = (raw: string): boolean => {
    lineNo++;
    if (lineNo < offset) return true;
    if (next !== null) return size <= COUNT_ALL_BYTES;
    const line = clipLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw, LINE_CHARS);
    if (out.length >= limit || chars + line.length > PAGE_CHARS) {
      next = lineNo;
      return size <= COUNT_ALL_BYTES;
    }
    out.push(`${String(lineNo).padStart(6)}\t${line}`);
    chars += line.length + 8;
    return true;
  };
  const decoder = new TextDecoder();
  const buf = new Uint8Array(64 * 1024);
  let partial = "";
  let pos = 0;
  read: while (true) {
    const n = fs.readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    pos += n;
    const lines = (partial + decoder.decode(buf.subarray(0, n), { stream: true })).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      if (!handle(line)) {
        stopped = true;
        break read;
      }
    }
  }
  if (!stopped) {
    partial += decoder.decode();
    if (partial.length > 0) handle(partial);
  }
  const total = stopped ? null : lineNo;
  if (out.length === 0 && next === null) {
    return errorResult(
      new Error(`offset ${offset} is past the end of ${shown} (${total} lines)`),
      { path: real, lines: total },
    );
  }
  const last = offset + out.length - 1;
  let note = "";
  if (next !== null) {
    const of = total === null ? `of a ${formatSize(size)} file; more follows` : `of ${total}`;
    note = `\n[lines ${offset}-${last} ${of}; next page: read with offset=${next}]`;
  }
  return {
    ok: true,
    output: `${out.join("\n")}${note}`,
    detail: { path: real, size, from: offset, to: last, lines: total, next },
  };
}
