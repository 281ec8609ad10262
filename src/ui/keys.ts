/**
 * Keys from a terminal in raw mode: bytes in, key events out. Understands the sequences xterm,
 * tmux and the Linux console send for arrows, Home/End, Delete, Alt-Enter, and bracketed paste
 * (`ESC [200~ … ESC [201~`), whose content arrives as one `paste` key however many chunks it
 * spans. A lone ESC at the end of a chunk is the Escape key.
 *
 * @module
 */

/** The name of a key that carries no text. */
export type KeyName =
  | "enter"
  | "newline"
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "up"
  | "down"
  | "home"
  | "end"
  | "word-left"
  | "word-right"
  | "delete-word"
  | "kill-line"
  | "kill-start"
  | "clear-screen"
  | "escape"
  | "interrupt"
  | "eof"
  | "tab"
  | "unknown";

/** One key (or one paste). */
export type Key =
  | { name: "text"; text: string }
  | { name: "paste"; text: string }
  | { name: KeyName };

const CSI: Record<string, KeyName> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  "1~": "home",
  "7~": "home",
  "4~": "end",
  "8~": "end",
  "3~": "delete",
  "1;5C": "word-right",
  "1;5D": "word-left",
  "1;3C": "word-right",
  "1;3D": "word-left",
};

const CTRL: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "newline",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x03": "interrupt",
  "\x04": "eof",
  "\x01": "home",
  "\x05": "end",
  "\x02": "left",
  "\x06": "right",
  "\x10": "up",
  "\x0e": "down",
  "\x17": "delete-word",
  "\x0b": "kill-line",
  "\x15": "kill-start",
  "\x0c": "clear-screen",
  "\t": "tab",
};

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/**
 * Turns chunks of terminal input into keys; keeps a paste (or a sequence) that spans chunks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KeyParser } from "./keys.ts";
 * const p = new KeyParser();
 * assert.deepEqual(p.feed("hi\x1b[D\r"), [
 *   { name: "text", text: "hi" }, { name: "left" }, { name: "enter" },
 * ]);
 * assert.deepEqual(p.feed("\x1b[200~a\nb"), []);
 * assert.deepEqual(p.feed("c\x1b[201~"), [{ name: "paste", text: "a\nbc" }]);
 * ```
 */
export class KeyParser {
  #paste: string | null = null;
  #pending = "";

  /** The keys in `chunk` (and what an earlier chunk left open). */
  feed(chunk: string): Key[] {
    let s = this.#pending + chunk;
    this.#pending = "";
    const keys: Key[] = [];
    const text = (t: string) => {
      const last = keys.at(-1);
      if (last?.name === "text") last.text += t;
      else keys.push({ name: "text", text: t });
    };
    while (s.length > 0) {
      if (this.#paste !== null) {
        const end = s.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(s, PASTE_END);
          this.#paste += s.slice(0, s.length - keep);
          this.#pending = s.slice(s.length - keep);
          return keys;
        }
        keys.push({ name: "paste", text: this.#paste + s.slice(0, end) });
        this.#paste = null;
        s = s.slice(end + PASTE_END.length);
        continue;
      }
      if (s.startsWith(PASTE_START)) {
        this.#paste = "";
        s = s.slice(PASTE_START.length);
        continue;
      }
      const ch = s[0];
      if (ch === "\x1b") {
        if (s.length === 1) {
          keys.push({ name: "escape" });
          s = "";
          continue;
        }
        if (PASTE_START.startsWith(s)) {
          this.#pending = s;
          return keys;
        }
        // deno-lint-ignore no-control-regex
        const csi = /^\x1b(?:\[|O)([0-9;]*[~A-Za-z])/.exec(s);
        if (csi) {
          keys.push({ name: CSI[csi[1]] ?? "unknown" });
          s = s.slice(csi[0].length);
          continue;
        }
        if (s[1] === "\r" || s[1] === "\n") keys.push({ name: "newline" });
        else if (s[1] === "b") keys.push({ name: "word-left" });
        else if (s[1] === "f") keys.push({ name: "word-right" });
        else if (s[1] === "\x7f") keys.push({ name: "delete-word" });
        else if (s[1] === "\x1b") {
          keys.push({ name: "escape" });
          s = s.slice(1);
          continue;
        } else keys.push({ name: "unknown" });
        s = s.slice(2);
        continue;
      }
      const ctrl = CTRL[ch];
      if (ctrl) keys.push({ name: ctrl });
      else if (ch < " ") keys.push({ name: "unknown" });
      else {
        // A whole code point (surrogate pairs stay together).
        const cp = s.codePointAt(0)!;
        const len = cp > 0xffff ? 2 : 1;
        text(s.slice(0, len));
        s = s.slice(len);
        continue;
      }
      s = s.slice(1);
    }
    return keys;
  }
}

function partialSuffix(s: string, marker: string): number {
  for (let k = Math.min(marker.length - 1, s.length); k > 0; k--) {
    if (marker.startsWith(s.slice(s.length - k))) return k;
  }
  return 0;
}
