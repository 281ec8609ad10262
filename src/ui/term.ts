/**
 * Where retie's terminal output goes: the two streams, their width, and the rule that untrusted
 * text is made safe ({@link safeText}) before any styling of retie's own is added. Every piece of
 * session output — the model's answer and reasoning, tool arguments and output, diffs, approvals,
 * notices — is written through a {@link Sink} from this module by the renderers in `src/ui/`.
 *
 * @module
 */
import { safeText, type SafeTextOptions } from "./safe_text.ts";

/** Where output goes (stdout by default; tests pass a collector). */
export interface Sink {
  write(text: string): void;
  isTerminal: boolean;
}

const encoder = new TextEncoder();

function isTty(f: { isTerminal(): boolean }): boolean {
  try {
    return f.isTerminal();
  } catch {
    return false;
  }
}

/** The real standard output. */
export const stdoutSink: Sink = {
  write: (t) => writeAll(Deno.stdout, t),
  get isTerminal() {
    return isTty(Deno.stdout);
  },
};

/** The real standard error (notices, the reasoning label, prompts' hints). */
export const stderrSink: Sink = {
  write: (t) => writeAll(Deno.stderr, t),
  get isTerminal() {
    return isTty(Deno.stderr);
  },
};

function writeAll(f: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(terminalGuard(text));
  try {
    while (bytes.length > 0) bytes = bytes.subarray(f.writeSync(bytes));
  } catch { /* the terminal went away: nothing left to tell */ }
}

// retie's own control sequences: colour (SGR), cursor up/forward/home, erase line or below,
// clear screen, bracketed paste on/off. Nothing else that a terminal interprets is let through.
// deno-lint-ignore no-control-regex
const OWN = /\x1b\[[0-9;]*[mACHJK]|\x1b\[\?2004[hl]|[\n\r\t]/y;
const CONTROL =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

/**
 * The last gate before bytes reach the terminal: retie's own colour and cursor sequences pass;
 * any other escape sequence or control character is made visible. Renderers make untrusted text
 * safe before styling it ({@link untrusted}); this gate holds even where one forgot.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { terminalGuard } from "./term.ts";
 * assert.equal(terminalGuard("\x1b[31mred\x1b[39m\n"), "\x1b[31mred\x1b[39m\n");
 * assert.equal(terminalGuard("\x1b]52;c;aGk=\x07"), "␛]52;c;aGk=^G");
 * ```
 */
export function terminalGuard(text: string): string {
  if (!CONTROL.test(text)) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    OWN.lastIndex = i;
    const own = OWN.exec(text);
    if (own) {
      out += own[0];
      i += own[0].length;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    out += CONTROL.test(ch) ? safeText(ch) : ch;
    i += ch.length;
  }
  return out;
}

/**
 * Writes a line of session output to stdout, through the gate.
 *
 * @example
 * ```ts ignore
 * say("mode: plan");
 * ```
 */
export function say(text: string): void {
  stdoutSink.write(text + "\n");
}

/**
 * Writes a line of notices to stderr, through the gate.
 *
 * @example
 * ```ts ignore
 * warn("interrupted");
 * ```
 */
export function warn(text: string): void {
  stderrSink.write(text + "\n");
}

/**
 * Columns of the terminal (80 when unknown, at least 20).
 *
 * @example
 * ```ts
 * import { columns } from "./term.ts";
 * columns() >= 20; // true
 * ```
 */
export function columns(): number {
  try {
    return Math.max(20, Deno.consoleSize().columns || 80);
  } catch {
    return 80;
  }
}

/**
 * Marks (and makes safe) text that retie did not write itself. An alias of {@link safeText}, so
 * the call sites that handle untrusted text read as such.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { untrusted } from "./term.ts";
 * assert.equal(untrusted("a\x1b[2Jb"), "a␛[2Jb");
 * ```
 */
export function untrusted(text: string, opts?: SafeTextOptions): string {
  return safeText(text, opts);
}
