/**
 * The one reader of standard input in a session. On a terminal it holds raw mode for the whole
 * session and hands each key to whoever is asking — the request prompt, an approval, a question —
 * and to nobody else: keys typed while a turn runs are dropped (never echoed into the stream,
 * never sent later as a request) except Ctrl-C and Esc, which interrupt the turn. Pastes arrive
 * bracketed and become one request. On piped input it reads lines in order, and never answers an
 * approval or a question with a line meant as a request.
 *
 * @module
 */
import stringWidth from "fast-string-width";
import { c } from "./color.ts";
import { type Key, KeyParser } from "./keys.ts";
import { type Layout, layout, LineEditor } from "./line_editor.ts";
import { columns, type Sink, stderrSink, stdoutSink } from "./term.ts";

/** One answer of a {@link TerminalInput.choose} prompt. */
export interface Choice {
  /** The key that picks it (one lower-case character). */
  key: string;
  label: string;
}

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";

/** What the input reads from; tests pass chunks of bytes. */
export interface InputSource {
  isTerminal: boolean;
  /** Chunks of text as they arrive; ends at end of input. */
  chunks(): AsyncIterable<string>;
  setRaw(on: boolean): void;
}

/** Standard input. */
export const stdinSource: InputSource = {
  get isTerminal() {
    try {
      return Deno.stdin.isTerminal();
    } catch {
      return false;
    }
  },
  async *chunks() {
    const dec = new TextDecoder();
    const buf = new Uint8Array(16 * 1024);
    while (true) {
      let n: number | null;
      try {
        n = await Deno.stdin.read(buf);
      } catch {
        return;
      }
      if (n === null) return;
      yield dec.decode(buf.subarray(0, n), { stream: true });
    }
  },
  setRaw(on) {
    try {
      Deno.stdin.setRaw(on);
    } catch { /* not a terminal */ }
  },
};

interface Active {
  key(k: Key): void;
  redraw(): void;
}

/**
 * Reads requests, choices and answers from the terminal (or from piped lines).
 *
 * @example
 * ```ts ignore
 * const input = new TerminalInput({ history: [] });
 * const text = await input.readRequest("› ");
 * input.close();
 * ```
 */
export class TerminalInput {
  readonly interactive: boolean;
  /** Called on Ctrl-C or Esc while no prompt is open (a turn is running). */
  onInterrupt: ((key: "interrupt" | "escape") => void) | null = null;
  #src: InputSource;
  #out: Sink;
  #width: () => number;
  #parser = new KeyParser();
  #active: Active | null = null;
  #lines: string[] = [];
  #lineWaiter: (() => void) | null = null;
  #ended = false;
  #partial = "";
  #history: string[];
  #typeAhead: Key[] = [];
  #closed = false;
  #onResize = () => this.#active?.redraw();
  #onSigint = () => this.#keys("\x03");
  #resizeListening = false;

  constructor(
    opts: { history?: string[]; source?: InputSource; out?: Sink; width?: () => number } = {},
  ) {
    this.#src = opts.source ?? stdinSource;
    this.interactive = this.#src.isTerminal;
    this.#out = opts.out ?? (stdoutSink.isTerminal ? stdoutSink : stderrSink);
    this.#width = opts.width ?? columns;
    this.#history = [...(opts.history ?? [])];
    if (this.interactive) {
      this.#src.setRaw(true);
      try {
        Deno.addSignalListener("SIGWINCH", this.#onResize);
        // A SIGINT from outside (kill -INT) is taken as Ctrl-C, never as the end of the process
        // with the terminal left in raw mode.
        Deno.addSignalListener("SIGINT", this.#onSigint);
        this.#resizeListening = true;
      } catch { /* no such signal here */ }
    }
    void this.#pump();
  }

  /** Writes lines where the prompts go (stdout on a terminal, else stderr), so a question is seen
   * even when stdout is piped. */
  say(text: string): void {
    this.#out.write(text.replaceAll("\n", "\r\n") + "\r\n");
  }

  /** Requests entered, newest first (for the history file). */
  history(): string[] {
    return [...this.#history];
  }

  async #pump(): Promise<void> {
    try {
      for await (const chunk of this.#src.chunks()) {
        if (this.#closed) return;
        if (this.interactive) this.#keys(chunk);
        else this.#text(chunk);
      }
    } finally {
      this.#ended = true;
      if (this.#partial) this.#lines.push(this.#partial);
      this.#partial = "";
      this.#wake();
      // End of input at an open prompt: as Ctrl-D.
      this.#active?.key({ name: "eof" });
    }
  }

  #wake(): void {
    const w = this.#lineWaiter;
    this.#lineWaiter = null;
    w?.();
  }

  #text(chunk: string): void {
    const parts = (this.#partial + chunk).split("\n");
    this.#partial = parts.pop()!;
    this.#lines.push(...parts.map((l) => l.replace(/\r$/, "")));
    this.#wake();
  }

  #keys(chunk: string): void {
    for (const key of this.#parser.feed(chunk)) {
      if (this.#active) this.#active.key(key);
      else if (key.name === "interrupt" || key.name === "escape") this.onInterrupt?.(key.name);
      else if (key.name === "text" || key.name === "paste" || key.name === "backspace") {
        // Typed while a turn runs: not echoed into the stream, never an answer to an approval
        // or a question; kept as the start of the next request, which waits for its own Enter.
        this.#typeAhead.push(key);
      }
    }
  }

  async #nextLine(): Promise<string | null> {
    while (this.#lines.length === 0) {
      if (this.#ended) return null;
      await new Promise<void>((r) => (this.#lineWaiter = r));
    }
    return this.#lines.shift()!;
  }

  /**
   * The next request: typed at the prompt (one or several lines, pastes whole), or the next line
   * of piped input (a line ending in `\` continues). Null at end of input (Ctrl-D).
   */
  async readRequest(prompt: string, styled = prompt): Promise<string | null> {
    if (!this.interactive) {
      const parts: string[] = [];
      while (true) {
        const line = await this.#nextLine();
        if (line === null) return parts.length ? parts.join("\n") : null;
        if (line.endsWith("\\")) {
          parts.push(line.slice(0, -1));
          continue;
        }
        parts.push(line);
        return parts.join("\n");
      }
    }
    const ed = new LineEditor(this.#history);
    for (const k of this.#typeAhead.splice(0)) ed.apply(k);
    const text = await this.#edit(ed, prompt, styled, true);
    if (text !== null && text.trim() !== "" && this.#history[0] !== text) {
      this.#history.unshift(text);
      if (this.#history.length > 500) this.#history.length = 500;
    }
    return text;
  }

  /** A free-form answer (the `ask` tool, "tell the model instead"); null when nobody can answer
   * (piped input) or the person pressed Esc or Ctrl-C. */
  async readText(prompt: string): Promise<string | null> {
    if (!this.interactive || this.#closed || this.#ended) return null;
    const text = await this.#edit(new LineEditor([]), prompt, c.bold(prompt), false);
    return text === null || text.trim() === "" ? null : text;
  }

  #edit(ed: LineEditor, prompt: string, styled: string, request: boolean): Promise<string | null> {
    if (this.#ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      let last: Layout | null = null;
      let lastWidth = this.#width();
      const draw = (final = false) => {
        const width = this.#width();
        const l = layout({
          prompt,
          cont: " ".repeat(Math.min(stringWidth(prompt), 4)),
          text: ed.text,
          cursor: final ? ed.text.length : ed.cursor,
          columns: width,
        });
        let seq = "";
        if (last) {
          // Back to the first row of what was drawn (rows re-wrap when the width changed).
          const up = width === lastWidth ? last.cursorRow : rowsAt(last, lastWidth, width);
          seq += up > 0 ? `\x1b[${up}A` : "";
        }
        seq += "\r\x1b[J";
        const rows = l.rows.map((r, i) => (i === 0 ? styled + r.slice(prompt.length) : r));
        seq += rows.join("\r\n");
        if (!final) {
          const below = l.rows.length - 1 - l.cursorRow;
          seq += below > 0 ? `\x1b[${below}A` : "";
          seq += "\r" + (l.cursorCol > 0 ? `\x1b[${l.cursorCol}C` : "");
        }
        this.#out.write(seq);
        last = l;
        lastWidth = width;
      };
      const finish = (value: string | null) => {
        draw(true);
        this.#out.write("\r\n" + (request ? PASTE_OFF : ""));
        this.#active = null;
        resolve(value);
      };
      this.#active = {
        redraw: () => draw(),
        key: (key) => {
          const r = ed.apply(key);
          if (r === "submit") return finish(ed.value());
          if (r === "eof") return finish(null);
          if (r === "interrupt" || r === "escape") {
            if (!request) return finish(null);
            if (ed.text !== "") {
              ed.clear();
              return draw();
            }
            if (r === "interrupt") {
              draw(true);
              this.#out.write(`\r\n${c.dim("(Ctrl-D or /quit ends the session)")}\r\n`);
              last = null;
              draw();
            }
            return;
          }
          if (key.name === "clear-screen") {
            this.#out.write("\x1b[2J\x1b[H");
            last = null;
          }
          if (r !== "none" || key.name === "clear-screen") draw();
        },
      };
      if (request) this.#out.write(PASTE_ON);
      draw();
    });
  }

  /**
   * One key picks one of `choices`; Esc (and Ctrl-C) pick `escape`. Nothing is pre-selected:
   * Enter alone does nothing. Null when nobody can answer (piped input, input ended).
   */
  choose(choices: Choice[], escape: string): Promise<string | null> {
    if (!this.interactive || this.#closed || this.#ended) return Promise.resolve(null);
    const line = "  " + choices.map((ch) => `${c.bold(`[${ch.key}]`)} ${ch.label}`).join("  ") +
      "  " + c.dim(`(Esc: ${choices.find((ch) => ch.key === escape)?.label ?? "cancel"})`);
    return new Promise((resolve) => {
      const done = (key: string) => {
        const picked = choices.find((ch) => ch.key === key)!;
        this.#out.write(`\r\n  ${c.dim("›")} ${picked.label}\r\n`);
        this.#active = null;
        resolve(key);
      };
      this.#active = {
        redraw: () => {},
        key: (k) => {
          if (k.name === "escape") return done(escape);
          if (k.name === "interrupt") {
            // Ctrl-C: no, and the running turn stops too.
            done(escape);
            return this.onInterrupt?.("interrupt");
          }
          if (k.name === "eof") return done(escape);
          if (k.name === "enter") {
            this.#out.write(
              `\r\n  ${c.dim(`press ${choices.map((ch) => ch.key).join(", ")} or Esc`)}`,
            );
            return;
          }
          if (k.name === "text") {
            const ch = k.text.toLowerCase();
            if (choices.some((x) => x.key === ch)) done(ch);
          }
        },
      };
      this.#out.write(line);
    });
  }

  /** Gives the terminal back (cooked mode, no bracketed paste) and stops reading. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.interactive) {
      this.#out.write(PASTE_OFF);
      this.#src.setRaw(false);
    }
    if (this.#resizeListening) {
      Deno.removeSignalListener("SIGWINCH", this.#onResize);
      Deno.removeSignalListener("SIGINT", this.#onSigint);
    }
  }
}

/** Rows from the top of a drawn prompt to its cursor, once the terminal re-wrapped it. */
function rowsAt(l: Layout, oldWidth: number, width: number): number {
  let up = 0;
  for (let i = 0; i < l.cursorRow; i++) {
    up += Math.max(1, Math.ceil(stringWidth(l.rows[i]) / width));
  }
  up += Math.floor(Math.min(l.cursorCol, oldWidth) / width);
  return up;
}
