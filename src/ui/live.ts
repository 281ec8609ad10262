/**
 * Live rendering of a session in the terminal: streamed model text, reasoning dimmed, a spinner
 * with elapsed time and the model's name while waiting, each action as one line in the replay
 * style with its findings, and coloured unified diffs for edits and writes. Without a TTY (or with
 * NO_COLOR) the spinner is off and nothing but plain text is written.
 *
 * @module
 */
import { createTwoFilesPatch } from "diff";
import type { FileChange } from "../core/tool.ts";
import { actionLines } from "./action_line.ts";
import { c, colorEnabled } from "./color.ts";
import stringWidth from "fast-string-width";
import { columns, type Sink, stdoutSink, untrusted } from "./term.ts";

export { type Sink, stdoutSink } from "./term.ts";

/** A coloured unified diff of one change (first 120 lines). */
export function diffText(ch: FileChange, workspace: string): string {
  // File names and contents are untrusted: made safe before any colour is added.
  const name = untrusted(
    ch.path.startsWith(workspace + "/") ? ch.path.slice(workspace.length + 1) : ch.path,
    { newlines: "show", tabs: "show" },
  );
  const patch = createTwoFilesPatch(
    `a/${name}`,
    `b/${name}`,
    ch.before ?? "",
    ch.after ?? "",
    undefined,
    undefined,
    { context: 2 },
  );
  // The patch opens with a "====" rule, then the `--- a/…` and `+++ b/…` header: keep the header
  // whole (both halves) and drop the rule.
  const lines = patch.split("\n").filter((l) =>
    !/^=+$/.test(l) && l !== "\\ No newline at end of file"
  );
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  const shown = lines.slice(0, 120).map((raw, i) => ({ l: i < 2 ? raw : untrusted(raw), i })).map((
    { l, i },
  ) =>
    i < 2 && (l.startsWith("--- ") || l.startsWith("+++ "))
      ? c.bold(l)
      : l.startsWith("+")
      ? c.green(l)
      : l.startsWith("-")
      ? c.red(l)
      : l.startsWith("@@")
      ? c.cyan(l)
      : l
  );
  if (lines.length > 120) shown.push(c.dim(`… ${lines.length - 120} more diff lines`));
  return shown.map((l) => `      ${l}`).join("\n");
}

/**
 * One status line on a terminal with colour: a spinner, what is going on, the elapsed time and,
 * while a command runs, the last line it printed. Redrawn in place; cleared by {@link stop}.
 */
export class Spinner {
  #timer: ReturnType<typeof setInterval> | undefined;
  #started = 0;
  #sink: Sink;
  #frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  #i = 0;
  #active = false;
  #label = "";
  #tail = "";
  #width: () => number;

  constructor(sink: Sink = stdoutSink, width: () => number = columns) {
    this.#sink = sink;
    this.#width = width;
  }

  /** Whether the spinner is showing. */
  get active(): boolean {
    return this.#active;
  }

  /** Starts (no-op without a TTY or colour); a running spinner takes the new label. */
  start(label: string): void {
    if (!this.#sink.isTerminal || !colorEnabled()) return;
    this.#label = label;
    this.#tail = "";
    if (this.#active) return;
    this.#active = true;
    this.#started = performance.now();
    this.#timer = setInterval(() => this.#draw(), 100);
  }

  /** Shows `text` (a command's latest output line, untrusted) after the label. */
  tail(text: string): void {
    const last = text.split(/\r?\n/).filter((l) => l.trim() !== "").at(-1);
    if (last !== undefined) this.#tail = untrusted(last.trim(), { tabs: "show" });
  }

  #draw(): void {
    const secs = ((performance.now() - this.#started) / 1000).toFixed(1);
    const head = `${this.#frames[this.#i++ % this.#frames.length]} ${this.#label} · ${secs}s`;
    const room = this.#width() - 1 - stringWidth(head) - 3;
    const tail = this.#tail && room > 8 ? ` · ${clip(this.#tail, room)}` : "";
    this.#sink.write(
      `\r\x1b[2K${c.cyan(head.slice(0, 1))}${c.dim(clip(head.slice(1) + tail, this.#width() - 2))}`,
    );
  }

  /** Stops and clears the line. */
  stop(): void {
    if (!this.#active) return;
    clearInterval(this.#timer);
    this.#active = false;
    this.#sink.write("\r\x1b[2K");
  }
}

/**
 * Cuts text (already safe) to at most `width` columns, ending with `…` when cut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clip } from "./live.ts";
 * assert.equal(clip("abcdef", 4), "abc…");
 * assert.equal(clip("abc", 4), "abc");
 * ```
 */
export function clip(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let out = "";
  for (const ch of text) {
    if (stringWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return out + "…";
}

/** Formats the action line(s) of a guard outcome, with its diffs. */
export function renderOutcome(
  o: {
    status: string;
    tool: string;
    summary: string;
    reason?: string;
    findings: { rule: string; severity: string; before?: number; after?: number }[];
    changes: FileChange[];
  },
  workspace: string,
  now = new Date(),
): string {
  const lines = actionLines({
    time: now.toISOString(),
    status: o.status,
    tool: o.tool,
    summary: o.summary,
    reason: o.reason,
    findings: o.findings,
  });
  if (o.status === "ok") { for (const ch of o.changes) lines.push(diffText(ch, workspace)); }
  return lines.join("\n") + "\n";
}
