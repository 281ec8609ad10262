/**
 * Untrusted text made safe for a terminal: the one function every piece of text that a model, a
 * tool, a command or a file produced goes through before it reaches the screen.
 *
 * What it does, and why:
 *
 * - **Escape sequences never pass.** ESC (0x1b) and the 8-bit C1 introducers (0x80–0x9f: CSI,
 *   OSC, DCS, APC, …) are shown as visible text (`␛[2J`, `\x9b`), so no sequence reaches the
 *   terminal: no OSC 52 clipboard write, no cursor move that rewrites what was printed above, no
 *   title change, no hyperlink whose text differs from its target.
 * - **Other control characters are made visible** in caret form (`^G`, `^H`, `^M`, DEL as `^?`):
 *   a backspace or carriage return cannot overwrite a command the person is asked to approve.
 *   Line feeds stay (text has lines); a tab stays unless `tabs: "show"` asks for `^I`.
 * - **Bidirectional overrides and invisible format characters** (U+202A–U+202E, U+2066–U+2069,
 *   U+200B–U+200F, U+2028/U+2029, U+FEFF, U+061C) are shown as `<U+202E>`: they reorder or hide
 *   what is displayed ("Trojan Source"), so a person would read something other than what runs.
 *
 * The result contains no byte the terminal interprets except `\n` (and `\t` by default). Styling
 * that retie adds itself (colour) is applied *after* this function, never before.
 *
 * @module
 */

/** How {@link safeText} treats tabs and line feeds. */
export interface SafeTextOptions {
  /** `keep` (default) passes tabs through; `show` writes `^I`. */
  tabs?: "keep" | "show";
  /** `keep` (default) passes line feeds; `show` writes `↵` (for one-line views: a prompt, a title). */
  newlines?: "keep" | "show";
}

const FORMAT_CHARS = /[\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

function hex(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * The visible form of one character, or `null` when it may pass as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visibleChar } from "./safe_text.ts";
 * assert.equal(visibleChar("\x1b"), "␛");
 * assert.equal(visibleChar("\x07"), "^G");
 * assert.equal(visibleChar("a"), null);
 * ```
 */
export function visibleChar(ch: string, opts: SafeTextOptions = {}): string | null {
  const cp = ch.codePointAt(0)!;
  if (ch === "\n") return opts.newlines === "show" ? "↵" : null;
  if (ch === "\t") return opts.tabs === "show" ? "^I" : null;
  if (cp === 0x1b) return "␛";
  if (cp < 0x20) return "^" + String.fromCharCode(cp + 0x40);
  if (cp === 0x7f) return "^?";
  if (cp >= 0x80 && cp <= 0x9f) return `\\x${cp.toString(16)}`;
  if (FORMAT_CHARS.test(ch)) return `<U+${hex(cp)}>`;
  return null;
}

// Everything visibleChar may rewrite; text without any of these is returned unchanged, cheaply.
// Matching control characters is the point here.
const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
const UNSAFE_G = new RegExp(UNSAFE.source, "g");

/**
 * Untrusted text with every escape sequence, control character and bidi/invisible format
 * character made visible; safe to write to a terminal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeText } from "./safe_text.ts";
 * assert.equal(safeText("ok\x1b]52;c;aGk=\x07"), "ok␛]52;c;aGk=^G");
 * assert.equal(safeText("rm -rf /\r echo hi"), "rm -rf /^M echo hi");
 * assert.equal(safeText("a\nb"), "a\nb");
 * assert.equal(safeText("a\nb", { newlines: "show" }), "a↵b");
 * ```
 */
export function safeText(text: string, opts: SafeTextOptions = {}): string {
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_G, (ch) => visibleChar(ch, opts) ?? ch);
}

/**
 * Whether text holds anything {@link safeText} would rewrite (beyond line feeds and tabs): an
 * approval prompt says so, because what the person reads then differs from the raw bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasHiddenChars } from "./safe_text.ts";
 * assert.equal(hasHiddenChars("ls -la\n"), false);
 * assert.equal(hasHiddenChars("ls\u202e -la"), true);
 * ```
 */
export function hasHiddenChars(text: string): boolean {
  return safeText(text, { tabs: "keep", newlines: "keep" }) !== text;
}
