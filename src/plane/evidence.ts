/**
 * What the ledger keeps so a reviewer can read a session without the machine it ran on: a bounded
 * excerpt of a tool's output (first and last lines, likely secrets masked) for the outcome entry,
 * and the diff of the files a call changes (hunks with context and line numbers) for the intent.
 *
 * Both are bounded, so one chatty command or one large file cannot bloat the ledger; the full
 * output stays where it was (its digest is in the outcome), the full files in the undo store.
 *
 * @module
 */
import { structuredPatch } from "diff";
import type { FileChange } from "../core/tool.ts";

/** Lines kept from the start and from the end of an output. */
export type { OutputExcerpt, RecordedDiff, RecordedHunk } from "../core/recorded.ts";
import type { OutputExcerpt, RecordedDiff, RecordedHunk } from "../core/recorded.ts";

export const EXCERPT_LINES = 8;
/** Characters kept per excerpt line. */
export const EXCERPT_LINE_CHARS = 240;
/** Diff lines kept per call (all files together). */
export const DIFF_LINES = 400;
/** Lines of context around each change. */
export const DIFF_CONTEXT = 3;

/** Things that look like credentials, masked before an excerpt is recorded. */
const SECRET_PATTERNS: RegExp[] = [
  // key = value / key: value for the usual names
  /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{12,})/g,
  /((?:api[_-]?key|secret|token|password|passwd|pwd|authorization|private[_-]?key|access[_-]?key)["']?\s*[:=]\s*["']?)(?!Bearer\b|\[masked\])([^\s"',;]{6,})/gi,
  // well-known token shapes
  /()\b(sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,})/g,
  /()(-----BEGIN [A-Z ]*PRIVATE KEY-----)/g,
];

/**
 * Masks what looks like a credential (`token=…`, `sk-…`, `ghp_…`, `AKIA…`, a PEM private key).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maskSecrets } from "./evidence.ts";
 * assert.deepEqual(maskSecrets("API_KEY=abcdef123456"), "API_KEY=[masked]");
 * ```
 */
export function maskSecrets(line: string): string {
  let out = line;
  for (const re of SECRET_PATTERNS) out = out.replace(re, (_m, pre: string) => `${pre}[masked]`);
  return out;
}

function clip(line: string): string {
  const l = maskSecrets(line);
  return l.length > EXCERPT_LINE_CHARS ? `${l.slice(0, EXCERPT_LINE_CHARS)}…` : l;
}

/**
 * The first and last {@link EXCERPT_LINES} lines of an output, each clipped and masked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputExcerpt } from "./evidence.ts";
 * assert.deepEqual(outputExcerpt("a\nb\nexit code 0"), { head: ["a", "b", "exit code 0"], tail: [], omitted: 0, lines: 3 });
 * ```
 */
export function outputExcerpt(output: string): OutputExcerpt {
  const all = output.replace(/\n$/, "").split("\n");
  if (all.length <= EXCERPT_LINES * 2) {
    return { head: all.map(clip), tail: [], omitted: 0, lines: all.length };
  }
  return {
    head: all.slice(0, EXCERPT_LINES).map(clip),
    tail: all.slice(-EXCERPT_LINES).map(clip),
    omitted: all.length - EXCERPT_LINES * 2,
    lines: all.length,
  };
}

/**
 * Unified-diff hunks (with {@link DIFF_CONTEXT} lines of context and line numbers) of the changes
 * a call will make, paths relative to the workspace, at most {@link DIFF_LINES} lines in all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordedDiffs } from "./evidence.ts";
 * const d = recordedDiffs([{ path: "/ws/a.py", before: "x = 1\n", after: "x = 2\n" }], "/ws");
 * assert.deepEqual(d[0].hunks[0].lines, ["-x = 1", "+x = 2"]);
 * ```
 */
export function recordedDiffs(changes: FileChange[], workspace?: string): RecordedDiff[] {
  let budget = DIFF_LINES;
  const out: RecordedDiff[] = [];
  for (const ch of changes) {
    const path = workspace && ch.path.startsWith(`${workspace}/`)
      ? ch.path.slice(workspace.length + 1)
      : ch.path;
    const patch = structuredPatch(path, path, ch.before ?? "", ch.after ?? "", "", "", {
      context: DIFF_CONTEXT,
    });
    const hunks: RecordedHunk[] = [];
    let omitted = 0;
    for (const h of patch.hunks) {
      const lines = h.lines.filter((l) => !l.startsWith("\\")).map((l) =>
        l.length > EXCERPT_LINE_CHARS * 2 ? `${l.slice(0, EXCERPT_LINE_CHARS * 2)}…` : l
      );
      if (budget <= 0) {
        omitted += lines.length;
        continue;
      }
      const kept = lines.slice(0, budget);
      omitted += lines.length - kept.length;
      budget -= kept.length;
      hunks.push({
        oldStart: h.oldStart,
        oldLines: h.oldLines,
        newStart: h.newStart,
        newLines: h.newLines,
        lines: kept,
      });
    }
    out.push({
      path,
      change: ch.before === null ? "create" : ch.after === null ? "delete" : "modify",
      hunks,
      omitted,
    });
  }
  return out;
}
