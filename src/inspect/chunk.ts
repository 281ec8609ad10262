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

export { type SplitLang, splitLangOf } from "./chunk_lex.ts";

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
  const entry = { text, other, lines, fresh: newLineFlags(lines, old, other, head, tail) };
  // The other way round is often not asked for (a file the parser does not read, an edit with
  // no guard words): its flags are made on first use.
  let backFresh: Uint8Array | null = null;
  const back = {
    text: other,
    other: text,
    lines: old,
    get fresh(): Uint8Array {
      return backFresh ??= newLineFlags(old, lines, text, head, tail);
    },
  };
  recentNewLines.unshift(entry, back);
  if (recentNewLines.length > 4) recentNewLines.length = 4;
  return entry;
}

/**
 * Which of `lines` (the lines of one text) the other text, split into `old`, lacks anywhere:
 * `out[i]` is 1 when line `i` is new. The two are walked side by side, a line equal to its
 * counterpart (or to one a little further on in `old`, past a deletion) being there; only the
 * lines left over are looked up: searched for in `oldText` when there are few, else a line no
 * line of `old` shares a length-and-ends signature with is new, and the others are hashed with
 * just the lines of `old` that could be them.
 *
 * @example
 * ```ts
 * const before = "a\nb\nc";
 * [...newLineFlags("a\nx\nc".split("\n"), before.split("\n"), before)]; // [0, 1, 0]
 * ```
 */
export function newLineFlags(
  lines: string[],
  old: string[],
  oldText: string,
  knownHead?: number,
  knownTail?: number,
): Uint8Array {
  let head = knownHead ?? 0;
  const max = Math.min(lines.length, old.length);
  if (knownHead === undefined) { while (head < max && lines[head] === old[head]) head++; }
  let tail = knownTail ?? 0;
  if (knownTail === undefined) {
    while (tail < max - head && lines[lines.length - 1 - tail] === old[old.length - 1 - tail]) {
      tail++;
    }
  }
  const out = new Uint8Array(lines.length);
  const left: number[] = [];
  let j = head;
  let misses = 0; // left-over lines in a row
  let far = 0; // long searches made
  let searches = 0; // left-over candidates searched for
  let nearAt = -1, farAt = -1; // the stretches last searched, by their `j`
  let nearMark = 0, farMark = 0; // their marks, once searched again (0: none yet)
  let osig: Int32Array | null = null; // the signature of each line of `old`, once needed
  for (let i = head; i < lines.length - tail; i++) {
    const l = lines[i];
    if (j < old.length && l === old[j]) {
      j++;
      misses = 0;
      continue;
    }
    // Past a deleted block: the line a little further on in the other text. Once there have been
    // many searches, the other text's line signatures are compared before the lines themselves.
    // A stretch searched again (a run of left-over lines at one `j`) first has the signatures
    // of its lines marked, and a line whose signature is not among them is not searched for.
    let k = j + 1;
    let stop = Math.min(old.length, j + 1 + RESYNC);
    const os = ++searches > EAGER ? (osig ??= signatures(old)) : null;
    const ls = os ? signature(l) : 0;
    if (os) {
      if (nearAt !== j) [nearAt, nearMark] = [j, 0];
      else if (nearMark === 0) nearMark = markSignatures(NEAR_MARKS, os, k, stop);
      if (nearMark !== 0 && NEAR_MARKS[ls] !== nearMark) k = stop;
      else while (k < stop && (os[k] !== ls || old[k] !== l)) k++;
    } else while (k < stop && old[k] !== l) k++;
    if (k >= stop && ++misses % 8 === 0 && far < FAR_SEARCHES) {
      // Many in a row: maybe past a larger deletion; look much further on, a few times.
      far++;
      const from = stop;
      stop = Math.min(old.length, j + 1 + FAR);
      if (os) {
        if (farAt !== j) [farAt, farMark] = [j, 0];
        else if (farMark === 0) farMark = markSignatures(FAR_MARKS, os, from, stop);
        if (farMark !== 0 && FAR_MARKS[ls] !== farMark) k = stop;
        else while (k < stop && (os[k] !== ls || old[k] !== l)) k++;
      } else while (k < stop && old[k] !== l) k++;
    }
    if (k < stop) {
      j = k + 1;
      misses = 0;
    } else left.push(i);
  }
  if (left.length === 0) return out;
  // A few lines are searched for in the text.
  if (left.length <= SEARCHES) {
    for (const i of left) if (!hasLine(oldText, lines[i])) out[i] = 1;
    return out;
  }
  // Many: a line whose length and end characters no line of the other text has is new; the
  // rest are looked up among the other text's lines that could be them (hashed only those).
  // The signature tables are kept between calls and told apart by a stamp (no fresh 64 KB
  // buffers per call).
  if (++stamp === 0xffffffff) {
    SIG.fill(0);
    WANT.fill(0);
    stamp = 1;
  }
  const sigStamp = stamp;
  const os = osig ??= signatures(old);
  for (let x = 0; x < os.length; x++) SIG[os[x]] = sigStamp;
  const maybe: number[] = [];
  for (const i of left) {
    if (SIG[signature(lines[i])] === sigStamp) maybe.push(i);
    else out[i] = 1;
  }
  if (maybe.length === 0) return out;
  for (const i of maybe) WANT[signature(lines[i])] = sigStamp;
  const have = new Set<string>();
  for (let x = 0; x < os.length; x++) if (WANT[os[x]] === sigStamp) have.add(old[x]);
  for (const i of maybe) if (!have.has(lines[i])) out[i] = 1;
  return out;
}

/** Which lines' signatures one call of {@link newLineFlags} has seen: entries equal to `stamp`. */
const SIG = new Uint32Array(0x10000);
/** Which signatures it looks for among the other text's lines. */
const WANT = new Uint32Array(0x10000);
let stamp = 0;

/**
 * Marks the signatures of `sigs[from..stop)` in `marks` with a fresh mark (never 0) and returns
 * it: a signature holds the mark only if a line of that stretch has it (entries left by other
 * stretches hold older marks).
 */
function markSignatures(marks: Uint32Array, sigs: Int32Array, from: number, stop: number): number {
  if (++mark === 0xffffffff) {
    NEAR_MARKS.fill(0);
    FAR_MARKS.fill(0);
    mark = 1;
  }
  for (let x = from; x < stop; x++) marks[sigs[x]] = mark;
  return mark;
}

/** Signature marks of the near and far stretches {@link newLineFlags} searches again. */
const NEAR_MARKS = new Uint32Array(0x10000);
const FAR_MARKS = new Uint32Array(0x10000);
let mark = 0;

/** The {@link signature} of each line. */
function signatures(lines: readonly string[]): Int32Array {
  const out = new Int32Array(lines.length);
  for (let x = 0; x < lines.length; x++) out[x] = signature(lines[x]);
  return out;
}

/** A 16-bit signature of a line from its length and its first and last characters. */
function signature(l: string): number {
  const n = l.length;
  return n === 0 ? 0 : ((n * 961 + l.charCodeAt(0) * 31 + l.charCodeAt(n - 1)) & 0xffff);
}

/** Whether `line` (no newline in it) is one of the lines of `text`. */
function hasLine(text: string, line: string): boolean {
  if (line === "") {
    return text === "" || text.charCodeAt(0) === 10 || text.endsWith("\n") ||
      text.includes("\n\n");
  }
  for (let x = text.indexOf(line); x >= 0; x = text.indexOf(line, x + 1)) {
    const end = x + line.length;
    if (
      (x === 0 || text.charCodeAt(x - 1) === 10) &&
      (end === text.length || text.charCodeAt(end) === 10)
    ) return true;
    if (end === text.length) break;
  }
  return false;
}

/** How far ahead in the other text a line is looked for before it is left over. */
const RESYNC = 48;
/** How far ahead a long search looks, and how many of them one walk makes. */
const FAR = 4096;
const FAR_SEARCHES = 16;
/** Searches made line by line before the other text's line signatures are made and compared first. */
const EAGER = 64;
/** Left-over lines worth searching for in the text before hashing its lines instead. */
const SEARCHES = 8;
