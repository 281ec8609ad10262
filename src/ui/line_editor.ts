/**
 * The request prompt's editing state and its layout on screen, kept pure so it is tested without
 * a terminal: insert and delete, move by character, word and line, history (↑/↓ on the first and
 * last line), multi-line input (Ctrl-J, Alt-Enter, or a line ending in `\`), and pastes: a paste
 * of several lines shows as `[pasted 4 lines]` and is sent whole, as one request.
 *
 * @module
 */
import stringWidth from "fast-string-width";
import type { Key } from "./keys.ts";
import { visibleChar } from "./safe_text.ts";

/** What a key did to the line. */
export type EditResult = "submit" | "eof" | "interrupt" | "escape" | "changed" | "none";

/**
 * A line (or several) being typed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineEditor } from "./line_editor.ts";
 * const ed = new LineEditor([]);
 * ed.apply({ name: "text", text: "fix it" });
 * ed.apply({ name: "paste", text: "a\nb\nc\n" });
 * assert.equal(ed.text, "fix it[pasted 3 lines]");
 * assert.equal(ed.apply({ name: "enter" }), "submit");
 * assert.equal(ed.value(), "fix ita\nb\nc");
 * ```
 */
export class LineEditor {
  text = "";
  cursor = 0;
  #pastes = new Map<string, string>();
  #history: string[];
  #hist = -1;
  #draft = "";

  /** `history`: earlier requests, newest first. */
  constructor(history: string[]) {
    this.#history = history;
  }

  /** The request as it will be sent: pastes expanded. */
  value(): string {
    let v = this.text;
    for (const [mark, text] of this.#pastes) v = v.split(mark).join(text);
    return v;
  }

  #set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = cursor;
  }

  #insert(s: string): void {
    this.#set(
      this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor),
      this.cursor + s.length,
    );
  }

  #paste(raw: string): void {
    const text = raw.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
    const lines = text.split("\n").length;
    if (lines <= 1) return this.#insert(text);
    let mark = `[pasted ${lines} lines]`;
    for (let k = 2; this.#pastes.has(mark) || this.text.includes(mark); k++) {
      mark = `[pasted ${lines} lines #${k}]`;
    }
    this.#pastes.set(mark, text);
    this.#insert(mark);
  }

  #prevLen(): number {
    const cp = this.text.codePointAt(this.cursor - 2);
    return this.cursor >= 2 && cp !== undefined && cp > 0xffff ? 2 : 1;
  }

  #nextLen(): number {
    const cp = this.text.codePointAt(this.cursor);
    return cp !== undefined && cp > 0xffff ? 2 : 1;
  }

  #wordLeft(): number {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.text[i - 1])) i--;
    while (i > 0 && !/\s/.test(this.text[i - 1])) i--;
    return i;
  }

  #wordRight(): number {
    let i = this.cursor;
    while (i < this.text.length && /\s/.test(this.text[i])) i++;
    while (i < this.text.length && !/\s/.test(this.text[i])) i++;
    return i;
  }

  #lineStart(): number {
    return this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  #lineEnd(): number {
    const e = this.text.indexOf("\n", this.cursor);
    return e < 0 ? this.text.length : e;
  }

  #historyMove(dir: 1 | -1): boolean {
    const next = this.#hist + dir;
    if (next < -1 || next >= this.#history.length) return false;
    if (this.#hist === -1) this.#draft = this.text;
    this.#hist = next;
    this.#set(next === -1 ? this.#draft : this.#history[next]);
    return true;
  }

  /** Applies one key. */
  apply(key: Key): EditResult {
    const t = this.text;
    switch (key.name) {
      case "text":
        this.#insert(key.text);
        return "changed";
      case "paste":
        this.#paste(key.text);
        return "changed";
      case "tab":
        this.#insert("  ");
        return "changed";
      case "newline":
        this.#insert("\n");
        return "changed";
      case "enter":
        // A line ending in a backslash continues on the next line.
        if (this.cursor === t.length && t.endsWith("\\")) {
          this.#set(t.slice(0, -1) + "\n");
          return "changed";
        }
        return "submit";
      case "backspace":
        if (this.cursor === 0) return "none";
        this.#set(
          t.slice(0, this.cursor - this.#prevLen()) + t.slice(this.cursor),
          this.cursor - this.#prevLen(),
        );
        return "changed";
      case "delete":
        if (this.cursor >= t.length) return "none";
        this.#set(t.slice(0, this.cursor) + t.slice(this.cursor + this.#nextLen()), this.cursor);
        return "changed";
      case "left":
        this.cursor = Math.max(0, this.cursor - this.#prevLen());
        return "changed";
      case "right":
        this.cursor = Math.min(t.length, this.cursor + this.#nextLen());
        return "changed";
      case "home":
        this.cursor = this.#lineStart();
        return "changed";
      case "end":
        this.cursor = this.#lineEnd();
        return "changed";
      case "word-left":
        this.cursor = this.#wordLeft();
        return "changed";
      case "word-right":
        this.cursor = this.#wordRight();
        return "changed";
      case "delete-word": {
        const from = this.#wordLeft();
        this.#set(t.slice(0, from) + t.slice(this.cursor), from);
        return "changed";
      }
      case "kill-line":
        this.#set(t.slice(0, this.cursor) + t.slice(this.#lineEnd()), this.cursor);
        return "changed";
      case "kill-start": {
        const from = this.#lineStart();
        this.#set(t.slice(0, from) + t.slice(this.cursor), from);
        return "changed";
      }
      case "up":
        if (t.lastIndexOf("\n", this.cursor - 1) >= 0) {
          const start = this.#lineStart();
          const col = this.cursor - start;
          const prevStart = t.lastIndexOf("\n", start - 2) + 1;
          this.cursor = Math.min(prevStart + col, start - 1);
          return "changed";
        }
        return this.#historyMove(1) ? "changed" : "none";
      case "down":
        if (t.indexOf("\n", this.cursor) >= 0) {
          const col = this.cursor - this.#lineStart();
          const nextStart = this.#lineEnd() + 1;
          const nextEnd = t.indexOf("\n", nextStart);
          this.cursor = Math.min(nextStart + col, nextEnd < 0 ? t.length : nextEnd);
          return "changed";
        }
        return this.#historyMove(-1) ? "changed" : "none";
      case "interrupt":
        return "interrupt";
      case "eof":
        if (t === "") return "eof";
        return this.apply({ name: "delete" });
      case "escape":
        return "escape";
      case "clear-screen":
        return "changed";
      default:
        return "none";
    }
  }

  /** Empties the line (Ctrl-C or Esc with text in it). */
  clear(): void {
    this.#set("");
    this.#pastes.clear();
    this.#hist = -1;
  }
}

/** Rows of a laid-out prompt and where its cursor is. */
export interface Layout {
  /** Each row's text (prefix included), at most `columns` wide. */
  rows: string[];
  cursorRow: number;
  cursorCol: number;
}

/**
 * Lays out prompt + text for a terminal `columns` wide: rows never reach past the last column (so
 * the terminal never wraps by itself), control characters are shown, and the cursor's row and
 * column are computed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { layout } from "./line_editor.ts";
 * const l = layout({ prompt: "› ", cont: "  ", text: "abcdef\nx", cursor: 8, columns: 5 });
 * assert.deepEqual(l.rows, ["› abc", "def", "  x"]);
 * assert.deepEqual([l.cursorRow, l.cursorCol], [2, 3]);
 * ```
 */
export function layout(
  o: { prompt: string; cont: string; text: string; cursor: number; columns: number },
): Layout {
  const cols = Math.max(4, o.columns);
  const rows = [o.prompt];
  let col = stringWidth(o.prompt);
  let cursorRow = 0;
  let cursorCol = col;
  let i = 0;
  for (const ch of o.text) {
    if (i === o.cursor) [cursorRow, cursorCol] = [rows.length - 1, col];
    i += ch.length;
    if (ch === "\n") {
      rows.push(o.cont);
      col = stringWidth(o.cont);
      continue;
    }
    const shown = visibleChar(ch, { tabs: "show" }) ?? ch;
    const w = stringWidth(shown);
    if (col + w > cols) {
      rows.push("");
      col = 0;
    }
    rows[rows.length - 1] += shown;
    col += w;
  }
  if (i <= o.cursor) [cursorRow, cursorCol] = [rows.length - 1, col];
  if (cursorCol >= cols) {
    if (cursorRow === rows.length - 1) rows.push("");
    cursorRow++;
    cursorCol = 0;
  }
  return { rows, cursorRow, cursorCol };
}
