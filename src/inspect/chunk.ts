/**
 * Top-level statements: a line that starts at column zero starts one, unless it continues the
 * statement above — it closes a bracket, sits inside a bracket, a multi-line string or a block
 * comment, follows a backslash continuation, or is a continuation keyword (`elif`/`else`/
 * `except`/`finally` in Python, a leading `.`/`?`/`&&`/`||`/`else`/`catch` in JS). The decorators
 * and comments directly above stay with it. Only the statements one side of an edit holds and the
 * other does not need parsing — the rest is identical and its facts cancel out — which keeps the
 * parser's cost in proportion to the edit, not to the file.
 *
 * @module
 */

import { commonPrefix, commonSuffix } from "./common_span.ts";
import { CONTINUES, FREE, lineKinds, type SplitLang, windowStart } from "./chunk_lex.ts";
import { newLineFlags } from "./new_line_flags.ts";

export { type SplitLang, splitLangOf } from "./chunk_lex.ts";
export { newLineFlags } from "./new_line_flags.ts";

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
 * Splits a text into top-level statements: a line at column zero starts one unless it continues
 * the one above (see the module note; `lang` says which language's strings, comments, brackets
 * and continuation keywords to respect, "" for none of them); decorators and comments directly
 * above stay with it.
 *
 * @example
 * ```ts
 * splitTopLevel("a = 1\n@d\ndef f():\n    pass\n", "python").map((s) => s.text);
 * // ["a = 1\n", "@d\ndef f():\n    pass\n"]
 * splitTopLevel("try:\n    f()\nexcept E:\n    g()\n", "python").length; // 1
 * ```
 */
export function splitTopLevel(
  text: string,
  lang: SplitLang = "",
  window?: { from: number; stop: number },
): Statement[] {
  const out: Statement[] = [];
  const kinds = lang === "" ? null : lineKinds(text, lang, window?.from, window?.stop);
  const continues = lang === "" ? null : CONTINUES[lang];
  let start = 0;
  let line = 0;
  let startLine = 0;
  let pendingLead = -1; // start of a run of decorator/comment lines
  let pendingLine = 0;
  for (let i = 0; i < text.length;) {
    const nl = text.indexOf("\n", i);
    const next = nl < 0 ? text.length : nl + 1;
    const kind = kinds ? kinds[line] : FREE;
    if (kind !== FREE) {
      // inside a bracket, string or comment: part of the statement (or lead) above
    } else if (i > 0 && topLevelAt(text, i)) {
      const c = text[i];
      const lead = c === "@" || c === "#" ||
        (c === "/" && (text[i + 1] === "/" || (lang !== "" && text[i + 1] === "*")));
      if (continues && (continues.lastIndex = i, continues.test(text))) {
        pendingLead = -1;
      } else if (lead) {
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
  lang: SplitLang = "",
): { before: Statement[]; after: Statement[] } {
  // The regular-expression rules and the structural counter ask for the same pair in a row.
  if (last && last.before === before && last.after === after && last.lang === lang) {
    return last.result;
  }
  const result = changedStatementsOf(before, after, lang);
  last = { before, after, lang, result };
  return result;
}

let last: { before: string; after: string; lang: SplitLang; result: ChangedStatements } | null =
  null;

/**
 * {@link changedStatements} of a pair if they were just asked for, else null (never computed
 * here).
 *
 * @example
 * ```ts
 * changedStatements("a = 1\n", "a = 2\n", "python");
 * knownChangedStatements("a = 1\n", "a = 2\n", "python")?.after[0].text; // "a = 2\n"
 * ```
 */
export function knownChangedStatements(
  before: string,
  after: string,
  lang: SplitLang,
): ChangedStatements | null {
  return last && last.before === before && last.after === after && last.lang === lang
    ? last.result
    : null;
}

type ChangedStatements = { before: Statement[]; after: Statement[] };

function changedStatementsOf(before: string, after: string, lang: SplitLang): ChangedStatements {
  // The language's lexer runs only around the edit: from the plain declaration above the first
  // difference to the first one past the last, where it is outside strings and brackets again.
  // Before and after that window both texts are the same, split the same way by column.
  const p = commonPrefix(before, after);
  const q = commonSuffix(before, after, p);
  let bw: { from: number; stop: number } | undefined;
  let aw: { from: number; stop: number } | undefined;
  if (lang !== "") {
    const from = windowStart(before, p, lang);
    bw = { from, stop: before.length - q };
    aw = { from, stop: after.length - q };
  }
  const bs = splitTopLevel(before, lang, bw);
  const as = splitTopLevel(after, lang, aw);
  // Statements wholly inside the common head (or tail) at the same offsets on both sides hold
  // the same text: they cancel out without being compared.
  let lead = 0;
  while (
    lead < bs.length && lead < as.length && bs[lead].end <= p &&
    bs[lead].start === as[lead].start && bs[lead].end === as[lead].end
  ) lead++;
  let trail = 0;
  for (; trail < bs.length - lead && trail < as.length - lead; trail++) {
    const b = bs[bs.length - 1 - trail], a = as[as.length - 1 - trail];
    if (b.start < before.length - q || a.start < after.length - q) break;
    if (before.length - b.start !== after.length - a.start) break;
    if (before.length - b.end !== after.length - a.end) break;
  }
  const d = multisetDifference(
    bs.slice(lead, bs.length - trail),
    as.slice(lead, as.length - trail),
  );
  if (trail === 0) return d;
  // A text left over in the middle that the tail holds too: the whole lists decide which of its
  // copies is left over (the last ones), so they are compared whole.
  const unmatched = d.before.length + d.after.length;
  const tail = before.slice(bs[bs.length - trail].start);
  if (unmatched > 64 || [...d.before, ...d.after].some((st) => tail.includes(st.text))) {
    return multisetDifference(bs, as);
  }
  return d;
}

/** The statements of `bs` and of `as` the other list does not hold (as multisets, in order). */
function multisetDifference(bs: Statement[], as: Statement[]): ChangedStatements {
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
): { text: string; fresh: Uint8Array; lines: string[] } {
  const { lines, fresh } = fileNewLines(after, before);
  const keep = new Uint8Array(lines.length);
  for (let i = fresh.indexOf(1); i >= 0; i = fresh.indexOf(1, i + 1)) {
    keep.fill(1, Math.max(0, i - around), Math.min(lines.length, i + around + 1));
  }
  return { text: lines.map((l, i) => keep[i] ? l : "").join("\n"), fresh, lines };
}

const recentNewLines: {
  text: string;
  other: string;
  lines: string[];
  readonly fresh: Uint8Array;
}[] = [];

/**
 * The lines of `text` (split at line breaks), taken from {@link fileNewLines}' last few pairs
 * when it has split that text already (the changed-line signals read the same files after the
 * parser path and the secret scan). The array is shared: callers must not change it.
 *
 * @example
 * ```ts
 * linesOf("a\nb"); // ["a", "b"]
 * ```
 */
export function linesOf(text: string): string[] {
  for (const r of recentNewLines) if (r.text === text) return r.lines;
  return text.split("\n");
}

/**
 * The lines of `text` and which of them `other` lacks anywhere ({@link newLineFlags}), kept for
 * the last few pairs: the secret scan and the structural counter ask the same of one edit, and
 * both ways round. Each text is split once and each line hashed once for both directions.
 *
 * @example
 * ```ts
 * [...fileNewLines("a\nx\nc", "a\nb\nc").fresh]; // [0, 1, 0]
 * ```
 */
export function fileNewLines(text: string, other: string): { lines: string[]; fresh: Uint8Array } {
  const hit = recentNewLines.find((r) => r.text === text && r.other === other);
  if (hit) return hit;
  const lines = text.split("\n");
  const old = other.split("\n");
  // The lines wholly inside the common head or tail of the two texts are in both.
  const p = commonPrefix(text, other);
  const q = commonSuffix(text, other, p);
  let head = 0;
  for (let at = 0; head < lines.length && at + lines[head].length < p; head++) {
    at += lines[head].length + 1;
  }
  let tail = 0;
  for (let end = text.length; tail < lines.length - head; tail++) {
    const start = end - lines[lines.length - 1 - tail].length;
    if (start - 1 < text.length - q) break;
    end = start - 1;
  }
  const entry = { text, other, lines, fresh: newLineFlags(lines, old, other, head, tail, text) };
  // The other way round is often not asked for (a file the parser does not read, an edit with
  // no guard words): its flags are made on first use.
  let backFresh: Uint8Array | null = null;
  const back = {
    text: other,
    other: text,
    lines: old,
    get fresh(): Uint8Array {
      return backFresh ??= newLineFlags(old, lines, text, head, tail, other);
    },
  };
  recentNewLines.unshift(entry, back);
  if (recentNewLines.length > 4) recentNewLines.length = 4;
  return entry;
}
