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
  let bytes = encoder.encode(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(f.writeSync(bytes));
  } catch { /* the terminal went away: nothing left to tell */ }
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
