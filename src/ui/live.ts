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
import { Worker } from "node:worker_threads";
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
 * One status line on a terminal: a spinner, what is going on, the elapsed time and,
 * while a command runs, the last line it printed. Redrawn in place; cleared by {@link stop}.
 * On the real terminal it is drawn by its own thread (`spinner_worker.ts`), so it keeps moving
 * while the main thread is busy; elsewhere (a test's sink) by a timer.
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
  #thread: SpinnerThread | null | undefined;
  #tailTimer: ReturnType<typeof setTimeout> | undefined;

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
    // On a terminal, with or without colour (NO_COLOR is about colour, not progress).
    if (!this.#sink.isTerminal) return;
    const relabel = this.#active && label !== this.#label;
    this.#label = label;
    this.#tail = "";
    if (this.#active && !relabel) return;
    if (!this.#active) this.#started = performance.now();
    this.#active = true;
    if (this.#thread === undefined) {
      this.#thread = this.#sink === stdoutSink ? SpinnerThread.open() : null;
    }
    if (this.#thread) {
      this.#thread.show(this.#head(), Date.now() - (performance.now() - this.#started));
    } else if (!this.#timer) this.#timer = setInterval(() => this.#draw(), 100);
  }

  /** Shows `text` (a command's latest output line, untrusted) after the label. */
  tail(text: string): void {
    const last = text.split(/\r?\n/).filter((l) => l.trim() !== "").at(-1);
    if (last === undefined) return;
    this.#tail = untrusted(last.trim().slice(-1000), { tabs: "show" });
    // At most one update per frame reaches the status thread, however fast output comes.
    if (this.#active && this.#thread && this.#tailTimer === undefined) {
      this.#tailTimer = setTimeout(() => {
        this.#tailTimer = undefined;
        if (!this.#active || !this.#thread) return;
        const room = this.#width() - 1 - stringWidth(this.#head()) - 12;
        this.#thread.tail(room > 8 ? clip(this.#tail, room) : "");
      }, 80);
    }
  }

  #head(): string {
    return clip(this.#label, Math.max(10, this.#width() - 14));
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

  /** Stops and clears the line (waiting for the status thread to have cleared it). */
  stop(): void {
    if (!this.#active) return;
    this.#active = false;
    if (this.#thread) {
      clearTimeout(this.#tailTimer);
      this.#tailTimer = undefined;
      if (!this.#thread.stop()) this.#sink.write("\r\x1b[2K");
      return;
    }
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#sink.write("\r\x1b[2K");
  }
}

/** The status line's thread, driven through shared memory (see `spinner_worker.ts`). */
class SpinnerThread {
  #ctl: Int32Array;
  #worker: Worker;
  #gen = 0;

  private constructor(worker: Worker, ctl: Int32Array) {
    this.#worker = worker;
    this.#ctl = ctl;
  }

  /** A thread, or null when none can be started (the timer is used then). */
  static open(): SpinnerThread | null {
    try {
      const sab = new SharedArrayBuffer(16);
      const w = new Worker(new URL("./spinner_worker.ts", import.meta.url), {
        workerData: { sab },
      });
      w.unref();
      w.on("error", () => {});
      return new SpinnerThread(w, new Int32Array(sab));
    } catch {
      return null;
    }
  }

  show(head: string, startedAtMs: number): void {
    this.#gen++;
    this.#worker.postMessage({ gen: this.#gen, head, started: startedAtMs, color: colorEnabled() });
    Atomics.store(this.#ctl, 3, this.#gen);
    Atomics.store(this.#ctl, 1, 1);
    Atomics.add(this.#ctl, 0, 1);
    Atomics.notify(this.#ctl, 0);
  }

  tail(text: string): void {
    this.#worker.postMessage({ gen: this.#gen, tail: text });
  }

  /** Stops; true when the thread confirmed the line is clear. */
  stop(): boolean {
    Atomics.store(this.#ctl, 1, 0);
    const seq = Atomics.add(this.#ctl, 0, 1) + 1;
    Atomics.notify(this.#ctl, 0);
    const until = performance.now() + 300;
    while (Atomics.load(this.#ctl, 2) !== seq) {
      const left = until - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.#ctl, 2, Atomics.load(this.#ctl, 2), left);
    }
    return true;
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
