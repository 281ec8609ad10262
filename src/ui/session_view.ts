/**
 * The terminal view of a session: it subscribes to the agent loop's events and draws them —
 * the answer (markdown on a terminal, plain text when piped), reasoning collapsed to one labelled
 * line, a status line with elapsed time and a live tail while a tool runs, each action as one
 * line with its id, a command's output (head, tail, exit code) and the diffs of edits.
 *
 * Everything here that came from a model, a tool or a file is made safe before it is styled.
 *
 * @module
 */
import type { AgentEvent } from "../agent/events.ts";
import type { DispatchResult } from "../agent/dispatch.ts";
import type { FileChange } from "../core/tool.ts";
import type { ToolCall } from "../providers/types.ts";
import { c } from "./color.ts";
import { clip, diffText, Spinner } from "./live.ts";
import { actionLines } from "./action_line.ts";
import { MarkdownLines } from "./markdown.ts";
import { commandPreview } from "./output_preview.ts";
import { columns, type Sink, stderrSink, stdoutSink, untrusted } from "./term.ts";

/** What the view writes to and how wide it is. */
export interface SessionViewOptions {
  workspace: string;
  out?: Sink;
  err?: Sink;
  width?: () => number;
  now?: () => Date;
}

/** What `/show ID` can display again, whole. */
export interface ShownAction {
  id: string;
  tool: string;
  summary: string;
  status: string;
  output: string;
}

/**
 * Draws a session's events.
 *
 * @example
 * ```ts
 * import { SessionView } from "./session_view.ts";
 * const text: string[] = [];
 * const sink = { write: (t: string) => void text.push(t), isTerminal: false };
 * const view = new SessionView({ workspace: "/ws", out: sink, err: sink });
 * view.handle({ type: "text", delta: "hello\n" });
 * text.join(""); // "hello\n"
 * ```
 */
export class SessionView {
  #o: Required<SessionViewOptions>;
  #spinner: Spinner;
  #md: MarkdownLines;
  #line = "";
  #reasoning = "";
  #lastNotice = "";
  #actions = new Map<string, ShownAction>();
  #order: string[] = [];
  #changes = new Map<string, FileChange>();
  /** The status of the tool call in progress, if one is. */
  #running: string | null = null;
  #started = Date.now();
  /** Token counts the models reported, and actions that ran, over the session. */
  totals = { inputTokens: 0, outputTokens: 0, actions: 0 };
  /** The whole reasoning of the latest model call that had any. */
  lastReasoning = "";

  constructor(opts: SessionViewOptions) {
    this.#o = {
      out: stdoutSink,
      err: stderrSink,
      width: columns,
      now: () => new Date(),
      ...opts,
    };
    this.#spinner = new Spinner(this.#o.out, this.#o.width);
    this.#md = new MarkdownLines(this.#o.width);
  }

  /** Whether `text` was the last notice shown (a turn's end is then not said twice). */
  shown(text: string): boolean {
    return text === this.#lastNotice;
  }

  /** A stored action (by id or a unique prefix of one), or the newest with output. */
  action(id?: string): ShownAction | undefined {
    if (!id) return this.#actions.get(this.#order.at(-1) ?? "");
    const exact = this.#actions.get(id);
    if (exact) return exact;
    const hits = this.#order.filter((k) => k.startsWith(id));
    return hits.length === 1 ? this.#actions.get(hits[0]) : undefined;
  }

  /** Each file the file tools changed: its first "before" and its latest "after". */
  changes(): Map<string, FileChange> {
    return new Map(this.#changes);
  }

  /** Milliseconds since the view was made (the session's start). */
  elapsedMs(): number {
    return Date.now() - this.#started;
  }

  /** Stops the status line and ends an open line, before something else takes the screen. */
  hold(): void {
    this.#spinner.stop();
    this.#flushText(true);
    this.#flushReasoning();
  }

  /** After a prompt (an approval) gave the screen back: the running call's status again. */
  resume(): void {
    if (this.#running) this.#spinner.start(this.#running);
  }

  /** Draws one event. */
  handle(e: AgentEvent): void {
    switch (e.type) {
      case "model_start":
        this.#lastNotice = "";
        this.#spinner.start(`waiting for ${untrusted(e.model, { newlines: "show" })}`);
        return;
      case "reasoning":
        this.#reasoning += e.delta;
        this.#spinner.start(`thinking · ${countLines(this.#reasoning)} lines`);
        return;
      case "text":
        this.#flushReasoning();
        this.#text(e.delta);
        return;
      case "model_done":
        this.totals.inputTokens += e.turn.usage.inputTokens;
        this.totals.outputTokens += e.turn.usage.outputTokens;
        this.#spinner.stop();
        this.#flushReasoning();
        this.#flushText(true);
        return;
      case "tool_start":
        this.hold();
        this.#running = `running ${callLabel(e.call)}`;
        this.#spinner.start(this.#running);
        return;
      case "tool_output":
        this.#spinner.tail(e.text);
        return;
      case "action":
        this.#running = null;
        this.hold();
        this.#o.out.write(this.#action(e.result));
        return;
      case "notice":
        this.hold();
        this.#lastNotice = e.message;
        this.#o.err.write(c.yellow(untrusted(e.message)) + "\n");
        return;
      case "failure":
        return;
      case "turn_end":
        this.hold();
        return;
    }
  }

  #text(delta: string): void {
    const out = this.#o.out;
    if (!out.isTerminal) {
      // Piped: the answer as the model wrote it (made safe), as it arrives.
      out.write(untrusted(delta));
      this.#line = delta.endsWith("\n") ? "" : "x";
      return;
    }
    this.#line += delta;
    const nl = this.#line.lastIndexOf("\n");
    if (nl < 0) {
      // A long paragraph is shown row by row as it fills, not all at its end.
      for (let r = this.#md.takeRow(this.#line); r; r = this.#md.takeRow(this.#line)) {
        this.#spinner.stop();
        out.write(r.row + "\n");
        this.#line = r.rest;
      }
      this.#spinner.start("answering");
      return;
    }
    this.#spinner.stop();
    const done = this.#line.slice(0, nl).split("\n");
    this.#line = this.#line.slice(nl + 1);
    for (const l of done) out.write(this.#md.line(l).join("\n") + "\n");
    if (this.#line) this.#spinner.start("answering");
  }

  #flushText(end: boolean): void {
    const out = this.#o.out;
    if (!out.isTerminal) {
      if (this.#line !== "" && end) out.write("\n");
      this.#line = "";
      return;
    }
    if (this.#line !== "") {
      this.#spinner.stop();
      out.write(this.#md.line(this.#line).join("\n") + "\n");
      this.#line = "";
    }
    if (end) {
      this.#md = new MarkdownLines(this.#o.width);
    }
  }

  #flushReasoning(): void {
    if (!this.#reasoning) return;
    this.#spinner.stop();
    const n = countLines(this.#reasoning);
    this.lastReasoning = this.#reasoning;
    this.#reasoning = "";
    // Collapsed and labelled, on stderr: never mixed into the answer on a piped stdout.
    this.#o.err.write(
      c.dim(`thinking · ${n} line${n === 1 ? "" : "s"} (/thinking shows it)`) + "\n",
    );
  }

  #action(r: DispatchResult): string {
    const out = r.outcome;
    const status = out?.status ?? "refused";
    const id = out?.actionId ?? null;
    const summary = out?.effect?.summary ?? `call ${r.name}`;
    const full = out?.result.output ?? r.content;
    const key = id ?? r.toolCallId;
    if (id) this.totals.actions++;
    if (status === "ok") {
      for (const ch of out?.changes ?? []) {
        const prev = this.#changes.get(ch.path);
        this.#changes.set(ch.path, { ...ch, before: prev ? prev.before : ch.before });
      }
    }
    this.#actions.set(key, { id: key, tool: r.name, summary, status, output: full });
    this.#order.push(key);
    const isCommand = r.name === "bash" && status !== "refused" && /exit code -?\d+/.test(full);
    const lines = actionLines({
      time: this.#o.now().toISOString(),
      status,
      tool: r.name,
      summary,
      reason: status === "ok" || isCommand ? undefined : firstLine(r.content),
      findings: out?.findings ?? [],
      id,
    });
    const width = this.#o.width();
    if (isCommand) lines.push(...commandPreview(full, { width, id: key }));
    if (status === "ok") {
      for (const ch of out?.changes ?? []) lines.push(diffText(ch, this.#o.workspace));
    }
    return lines.join("\n") + "\n";
  }
}

function countLines(text: string): number {
  return text.replace(/\n+$/, "").split("\n").length;
}

function firstLine(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const first = lines[0] ?? "";
  return clip(first, 300) + (lines.length > 1 ? ` (+${lines.length - 1} lines)` : "");
}

/** `bash: npm test` — what is running, on one line. */
function callLabel(call: ToolCall): string {
  let detail = "";
  try {
    const args = JSON.parse(call.argumentsJson) as Record<string, unknown>;
    const v = args.command ?? args.path ?? args.url ?? args.pattern;
    if (typeof v === "string") detail = `: ${v}`;
  } catch { /* the dispatch reports malformed arguments */ }
  return untrusted(`${call.name}${detail}`, { newlines: "show", tabs: "show" });
}
