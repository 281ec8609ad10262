/**
 * Top-level statements: a line that starts at column zero (not a closing bracket) starts one,
 * and the decorators and comments directly above stay with it. Only the statements one side of an
 * edit holds and the other does not need parsing — the rest is identical and its facts cancel out
 * — which keeps the parser's cost in proportion to the edit, not to the file.
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

/** One top-level statement of a text: its span and its first line (0-based). */
export interface Statement {
  start: number;
  end: number;
  line: number;
  text: string;
}

/**
 * Splits a text into top-level statements (a line at column zero starts one; decorators and
 * comments directly above stay with it).
 *
 * @example
 * ```ts
 * splitTopLevel("a = 1\n@d\ndef f():\n    pass\n").map((s) => s.text);
 * // ["a = 1\n", "@d\ndef f():\n    pass\n"]
 * ```
 */
export function splitTopLevel(text: string): Statement[] {
  const out: Statement[] = [];
  let start = 0;
  let line = 0;
  let startLine = 0;
  let pendingLead = -1; // start of a run of decorator/comment lines
  let pendingLine = 0;
  for (let i = 0; i < text.length;) {
    const nl = text.indexOf("\n", i);
    const next = nl < 0 ? text.length : nl + 1;
    if (i > 0 && topLevelAt(text, i)) {
      const c = text[i];
      const lead = c === "@" || c === "#" || (c === "/" && text[i + 1] === "/");
      if (lead) {
        if (pendingLead < 0) [pendingLead, pendingLine] = [i, line];
      } else {
        const cut = pendingLead >= 0 ? pendingLead : i;
        const cutLine = pendingLead >= 0 ? pendingLine : line;
        if (cut > start) {
          out.push({ start, end: cut, line: startLine, text: text.slice(start, cut) });
        }
        [start, startLine] = [cut, cutLine];
        pendingLead = -1;
      }
    } else if (text[i] !== "\n" && text[i] !== "\r") {
      pendingLead = -1; // an indented line ends a run of leading comments
    }
    i = next;
    line++;
  }
  if (start < text.length) {
    out.push({ start, end: text.length, line: startLine, text: text.slice(start) });
  }
  return out;
}

/**
 * The statements of `before` and of `after` that the other side does not hold verbatim (as a
 * multiset): everything else is identical on both sides, so its facts cancel out.
 *
 * @example
 * ```ts
 * const d = changedStatements("a = 1\nb = 2\n", "b = 2\na = 3\n");
 * [d.before.map((s) => s.text), d.after.map((s) => s.text)]; // [["a = 1\n"], ["a = 3\n"]]
 * ```
 */
export function changedStatements(
  before: string,
  after: string,
): { before: Statement[]; after: Statement[] } {
  const bs = splitTopLevel(before);
  const as = splitTopLevel(after);
  const left = new Map<string, number>();
  for (const s of as) left.set(s.text, (left.get(s.text) ?? 0) + 1);
  const onlyBefore: Statement[] = [];
  for (const s of bs) {
    const n = left.get(s.text) ?? 0;
    if (n > 0) left.set(s.text, n - 1);
    else onlyBefore.push(s);
  }
  const right = new Map<string, number>();
  for (const s of bs) right.set(s.text, (right.get(s.text) ?? 0) + 1);
  const onlyAfter: Statement[] = [];
  for (const s of as) {
    const n = right.get(s.text) ?? 0;
    if (n > 0) right.set(s.text, n - 1);
    else onlyAfter.push(s);
  }
  return { before: onlyBefore, after: onlyAfter };
}

/**
 * `after` with every line blanked that `before` also holds (anywhere) and that is more than
 * `around` lines from a line it lacks: line numbers stay, and what is left is what the edit
 * brought in. A value first seen in the edit must sit in what is left (a multi-line value needs
 * one new line within `around` lines of each end). `fresh[i]` is 1 when line `i` is new.
 *
 * @example
 * ```ts
 * newLinesOnly("a = 1\nb = 2\nc = 3\n", "a = 1\nb = 9\nc = 3\n", 0).text; // "\nb = 9\n\n"
 * ```
 */
export function newLinesOnly(
  after: string,
  before: string,
  around = 5,
): { text: string; fresh: Uint8Array } {
  const had = new Set(before.split("\n"));
  const lines = after.split("\n");
  const keep = new Uint8Array(lines.length);
  const fresh = new Uint8Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    if (!had.has(lines[i])) {
      fresh[i] = 1;
      keep.fill(1, Math.max(0, i - around), Math.min(lines.length, i + around + 1));
    }
  }
  return { text: lines.map((l, i) => keep[i] ? l : "").join("\n"), fresh };
}
