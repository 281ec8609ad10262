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

/** Where output goes (stdout by default; tests pass a collector). */
export interface Sink {
  write(text: string): void;
  isTerminal: boolean;
}

/** The real terminal. */
export const stdoutSink: Sink = {
  write: (t) => {
    Deno.stdout.writeSync(new TextEncoder().encode(t));
  },
  get isTerminal() {
    try {
      return Deno.stdout.isTerminal();
    } catch {
      return false;
    }
  },
};

/** A coloured unified diff of one change (first 120 lines). */
export function diffText(ch: FileChange, workspace: string): string {
  const name = ch.path.startsWith(workspace + "/") ? ch.path.slice(workspace.length + 1) : ch.path;
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
  const shown = lines.slice(0, 120).map((l, i) =>
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

/** A spinner on stderr-free stdout, only on a terminal with colour. */
export class Spinner {
  #timer: ReturnType<typeof setInterval> | undefined;
  #started = 0;
  #sink: Sink;
  #frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  #i = 0;
  #active = false;

  constructor(sink: Sink = stdoutSink) {
    this.#sink = sink;
  }

  /** Starts (no-op without a TTY). */
  start(label: string): void {
    if (!this.#sink.isTerminal || !colorEnabled() || this.#active) return;
    this.#active = true;
    this.#started = performance.now();
    this.#timer = setInterval(() => {
      const secs = ((performance.now() - this.#started) / 1000).toFixed(1);
      this.#sink.write(
        `\r${c.cyan(this.#frames[this.#i++ % this.#frames.length])} ${
          c.dim(`${label} · ${secs}s`)
        }`,
      );
    }, 100);
  }

  /** Stops and clears the line. */
  stop(): void {
    if (!this.#active) return;
    clearInterval(this.#timer);
    this.#active = false;
    this.#sink.write("\r\x1b[2K");
  }
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
