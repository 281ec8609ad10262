/**
 * A command's output as a person wants to see it under its action line: each stream's first and
 * last lines with a count of what is hidden between, and the exit code. The whole result stays
 * available (`/show ID`). Output is untrusted: every line is made safe and clipped to the width.
 *
 * @module
 */
import { c } from "./color.ts";
import { clip } from "./live.ts";
import { safeText } from "./safe_text.ts";

/** The sections of a `bash` result: `stdout:` / `stderr:` blocks, notes, the exit line. */
export interface CommandOutput {
  stdout: string | null;
  stderr: string | null;
  /** `exit code 1 (timed out after 30s)`, or null when the text has no exit line. */
  status: string | null;
  /** Other lines (the truncation note). */
  notes: string[];
  /** Notes retie added after the exit line. */
  after?: string[];
}

/**
 * Splits the text the `bash` tool returns into its streams.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommandOutput } from "./output_preview.ts";
 * const o = parseCommandOutput("stdout:\nok\nstderr:\nboom\nexit code 1");
 * assert.equal(o.stdout, "ok");
 * assert.equal(o.stderr, "boom");
 * assert.equal(o.status, "exit code 1");
 * ```
 */
export function parseCommandOutput(text: string): CommandOutput {
  const lines = text.split("\n");
  let status: string | null = null;
  const notes: string[] = [];
  // The exit line is the last one, but for notes retie adds after it (plan mode's roll-back).
  const exitAt = lines.findLastIndex((l) => /^exit code -?\d+/.test(l));
  const after = exitAt >= 0 && lines.length - exitAt <= 3 ? lines.splice(exitAt + 1) : [];
  if (exitAt >= 0 && after.every((l) => /^plan mode: /.test(l))) status = lines.pop()!;
  else lines.push(...after.splice(0));
  while (lines.length && /^\[output cut at .*\]$/.test(lines.at(-1)!)) notes.unshift(lines.pop()!);
  let stdout: string | null = null;
  let stderr: string | null = null;
  const body = lines.join("\n");
  if (body === "(no output)") return { stdout, stderr, status, notes, after };
  // stderr comes after stdout; its marker is the last `\nstderr:\n` (or the start).
  let errAt = body.startsWith("stderr:\n") ? 0 : body.lastIndexOf("\nstderr:\n") + 1;
  if (errAt > 0 && !body.startsWith("stdout:\n")) errAt = 0;
  if (body.startsWith("stderr:\n") || errAt > 0) {
    stderr = body.slice(errAt + "stderr:\n".length);
    const before = errAt > 0 ? body.slice(0, errAt - 1) : "";
    if (before.startsWith("stdout:\n")) stdout = before.slice("stdout:\n".length);
  } else if (body.startsWith("stdout:\n")) stdout = body.slice("stdout:\n".length);
  else if (body) notes.unshift(...body.split("\n"));
  return { stdout, stderr, status, notes, after };
}

/** Head and tail of some lines: all when at most `head + tail + 2`. */
function headTail(lines: string[], head: number, tail: number): (string | number)[] {
  if (lines.length <= head + tail + 2) return lines;
  return [...lines.slice(0, head), lines.length - head - tail, ...lines.slice(-tail)];
}

/**
 * The preview lines of a command's output, indented under its action line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forceColor } from "./color.ts";
 * import { commandPreview } from "./output_preview.ts";
 * forceColor(false);
 * const out = commandPreview("stderr:\nE1\nE2\nexit code 1", { width: 80, id: "act_1" });
 * assert.deepEqual(out, ["      stderr │ E1", "             │ E2", "      exit code 1"]);
 * forceColor(null);
 * ```
 */
export function commandPreview(
  text: string,
  opts: { width: number; head?: number; tail?: number; id?: string | null },
): string[] {
  const o = parseCommandOutput(text);
  const out: string[] = [];
  const room = Math.max(20, opts.width - 16);
  let hidden = false;
  for (const [name, body] of [["stdout", o.stdout], ["stderr", o.stderr]] as const) {
    if (body === null || body === "") continue;
    const lines = body.replace(/\n$/, "").split("\n");
    headTail(lines, opts.head ?? 3, opts.tail ?? 3).forEach((l, i) => {
      const label = i === 0 ? `      ${name} ` : "             ";
      if (typeof l === "number") {
        hidden = true;
        out.push(`${label}${c.dim(`│ … +${l} lines`)}`);
      } else {
        const safe = clip(safeText(l, { tabs: "keep" }).replace(/\t/g, "  "), room);
        out.push(`${label}${c.dim("│")} ${name === "stderr" ? c.yellow(safe) : safe}`);
      }
    });
  }
  for (const n of o.notes) out.push(`      ${c.dim(clip(safeText(n), room))}`);
  if (o.status) {
    const failed = !/^exit code 0\b/.test(o.status);
    const more = hidden && opts.id ? c.dim(` · /show ${opts.id} for all of it`) : "";
    out.push(`      ${failed ? c.red(o.status) : c.dim(o.status)}${more}`);
  }
  for (const n of o.after ?? []) out.push(`      ${c.yellow(safeText(n))}`);
  return out;
}
