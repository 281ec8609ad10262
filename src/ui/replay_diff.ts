/**
 * Pieces the replay renderers share: diff hunks with their line numbers, long text cut to a
 * "more" and the words for an action's decision and undo mark.
 *
 * @module
 */
import { findingText } from "./action_line.ts";
import type { ReplayFinding, ReplayHunk, ReplayItem, ReplayOutput } from "./replay_model.ts";

/** One diff line with the line numbers it has before (`old`) and after (`new`). */
export interface NumberedLine {
  old: number | null;
  new: number | null;
  sign: " " | "+" | "-";
  text: string;
}

/**
 * Numbers the lines of a hunk: context lines carry both numbers, removals the old, additions the
 * new.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberHunk } from "./replay_diff.ts";
 * assert.deepEqual(numberHunk({ oldStart: 1, newStart: 1, lines: [" a", "-b", "+c"] }).map((l) => [l.old, l.new]), [[1, 1], [2, null], [null, 2]]);
 * ```
 */
export function numberHunk(h: ReplayHunk): NumberedLine[] {
  let o = h.oldStart;
  let n = h.newStart;
  // A hunk of a created file starts at old line 0; its first added line is line 1.
  if (n === 0) n = 1;
  return h.lines.map((l) => {
    const sign = l[0] === "+" || l[0] === "-" ? l[0] : " ";
    const text = l.slice(1);
    if (sign === "+") return { old: null, new: n++, sign, text };
    if (sign === "-") return { old: o++, new: null, sign, text };
    return { old: o++, new: n++, sign, text };
  });
}

/**
 * The `@@ -a,b +c,d @@` header of a hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hunkHeader } from "./replay_diff.ts";
 * assert.deepEqual(hunkHeader({ oldStart: 3, newStart: 3, lines: [" a", "-b", "+c"] }), "@@ -3,2 +3,2 @@");
 * ```
 */
export function hunkHeader(h: ReplayHunk): string {
  const olds = h.lines.filter((l) => l[0] !== "+").length;
  const news = h.lines.filter((l) => l[0] !== "-").length;
  return `@@ -${h.oldStart},${olds} +${h.newStart},${news} @@`;
}

/**
 * Text cut to its first `max` lines, with how many were left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cutLines } from "./replay_diff.ts";
 * assert.deepEqual(cutLines("a\nb\nc", 2), { shown: "a\nb", more: 1 });
 * ```
 */
export function cutLines(text: string, max: number): { shown: string; more: number } {
  const lines = text.replace(/\n+$/, "").split("\n");
  if (lines.length <= max) return { shown: lines.join("\n"), more: 0 };
  return { shown: lines.slice(0, max).join("\n"), more: lines.length - max };
}

/**
 * An output excerpt as lines: the head, a `… N lines …` marker, the tail, and the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputLines } from "./replay_diff.ts";
 * assert.deepEqual(outputLines({ head: ["ok"], tail: [], omitted: 0, lines: 1, exitCode: 0 }), ["ok", "(exit code 0)"]);
 * ```
 */
export function outputLines(o: ReplayOutput): string[] {
  const out = [...o.head];
  if (o.omitted > 0) out.push(`… ${o.omitted} more lines …`);
  out.push(...o.tail);
  const last = out.at(-1) ?? "";
  if (o.exitCode !== undefined && !/^exit code /.test(last)) {
    out.push(`(exit code ${o.exitCode === null ? "none: killed" : o.exitCode})`);
  }
  return out;
}

/**
 * `class reversible · allow · by policy rule x · 12 ms` for an action or refusal.
 *
 * @example
 * ```ts ignore
 * decisionLine(item); // "reversible · allow · by policy rule allow-edit · 3 ms"
 * ```
 */
export function decisionLine(a: ReplayItem): string {
  const parts = [a.class, a.decision];
  if (a.decidedBy) parts.push(`by ${a.decidedBy}`);
  if (a.durationMs !== undefined) parts.push(`${Math.round(a.durationMs)} ms`);
  return parts.join(" · ");
}

/**
 * The undo mark of an action: `undone by #12 (ses_…)`, or why an undo did not happen.
 *
 * @example
 * ```ts ignore
 * undoMark(item); // "undone by #12 (ses_0123456789ab)"
 * ```
 */
export function undoMark(a: ReplayItem): string | null {
  if (!a.undo) return null;
  const where = `#${a.undo.seq} (${a.undo.session})`;
  const failed = a.status === "error" ? " (the action itself had failed)" : "";
  if (a.undo.status === "undone") return `undone by ${where}${failed}`;
  return `undo ${a.undo.status} at ${where}: ${a.undo.reason}`;
}

/**
 * A finding in one line: `⚑ high: auth-check-removed (1 → 0) at pay.py:3 — what was found`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findingLine } from "./replay_diff.ts";
 * assert.deepEqual(findingLine({ rule: "auth-check-removed", severity: "high", path: "pay.py", line: 3 }), "⚑ high: auth-check-removed at pay.py:3");
 * ```
 */
export function findingLine(f: ReplayFinding): string {
  const where = f.path && f.line
    ? ` at ${f.path}:${f.line}`
    : f.line
    ? ` at line ${f.line}`
    : f.path
    ? ` in ${f.path}`
    : "";
  const what = f.detail ?? f.message;
  return `${findingText(f)}${where}${what ? ` — ${what}` : ""}`;
}
