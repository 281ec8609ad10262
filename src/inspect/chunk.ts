/**
 * Top-level chunks: the smallest run of whole top-level statements (lines that start at column
 * zero, with the decorators above them) that covers a span of a text. Only the chunk around an
 * edit needs parsing — facts elsewhere are the same before and after and cancel out — which keeps
 * the parser's cost in proportion to the edit, not to the file.
 *
 * @module
 */

/** Whether the line starting at `i` starts a top-level statement. */
function topLevelAt(text: string, i: number): boolean {
  const c = text[i];
  if (c === undefined || c === " " || c === "\t" || c === "\n" || c === "\r") return false;
  if (c === "}" || c === ")" || c === "]") return false; // closes a block
  return true;
}

/**
 * Start of the top-level statement containing offset `at` (decorators above it included), or 0.
 *
 * @example
 * ```ts
 * const t = "a = 1\n@dec\ndef f():\n    x = 1\n";
 * t.slice(chunkStart(t, t.indexOf("x = 1"))); // "@dec\ndef f():\n    x = 1\n"
 * ```
 */
export function chunkStart(text: string, at: number): number {
  let i = at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
  while (i > 0 && !topLevelAt(text, i)) i = text.lastIndexOf("\n", i - 2) + 1;
  // Keep the decorators and comments directly above a definition with it.
  while (i > 0) {
    const prev = text.lastIndexOf("\n", i - 2) + 1;
    const c = text[prev];
    if (c === "@" || c === "#" || (c === "/" && text[prev + 1] === "/")) i = prev;
    else break;
  }
  return i;
}

/**
 * End (exclusive) of the top-level statement containing offset `at`: the start of the next
 * top-level line after it, or the end of the text.
 *
 * @example
 * ```ts
 * const t = "def f():\n    x = 1\ny = 2\n";
 * t.slice(0, chunkEnd(t, t.indexOf("x = 1"))); // "def f():\n    x = 1\n"
 * ```
 */
export function chunkEnd(text: string, at: number): number {
  let i = text.indexOf("\n", at);
  while (i >= 0) {
    if (topLevelAt(text, i + 1) && text[i + 1] !== "@" && text[i + 1] !== "#") return i + 1;
    i = text.indexOf("\n", i + 1);
  }
  return text.length;
}

/**
 * The same chunk in two versions of a text: bounds that lie in the common prefix and suffix, so
 * both sides cover the edit and nothing else differs between them. `a`/`b` are the changed spans
 * (from `changedRanges`).
 *
 * @example
 * ```ts
 * const x = "a = 1\ndef f():\n    return 1\nb = 2\n";
 * const y = "a = 1\ndef f():\n    return 2\nb = 2\n";
 * const c = pairedChunks(x, y, [25, 26], [25, 26]);
 * y.slice(c.b[0], c.b[1]); // "def f():\n    return 2\n"
 * ```
 */
export function pairedChunks(
  before: string,
  after: string,
  a: readonly [number, number],
  b: readonly [number, number],
): { a: [number, number]; b: [number, number] } {
  const start = chunkStart(before, a[0]);
  const endA = chunkEnd(before, Math.max(a[1], a[0]));
  const tail = before.length - endA; // inside the common suffix
  const endB = Math.max(b[1], after.length - tail);
  return { a: [start, Math.max(endA, a[1])], b: [start, Math.min(after.length, endB)] };
}
