/**
 * Which lines of a text the other version of it lacks anywhere: the two are walked side by side
 * and only the lines left over are looked up (see {@link newLineFlags}). Split from `chunk.ts`,
 * which re-exports it.
 *
 * @module
 */

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
  text?: string,
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
  let farSearches = 0; // long searches made
  let searches = 0; // left-over candidates searched for
  // The stretches last searched near and far, by their `j`, and their marks once searched
  // again (0: none yet).
  const near: Stretch = { at: -1, mark: 0, marks: NEAR_MARKS };
  const far: Stretch = { at: -1, mark: 0, marks: FAR_MARKS };
  let osig: Int32Array | null = null; // the signature of each line of `old`, once needed
  // With `text` (the text `lines` come from), a stretch the two texts share from where the
  // walk stands is passed over a block of characters at a time (one comparison each) instead of
  // line by line: `at` is where line `atLine` starts in `text`; `oldStarts` the starts of `old`'s.
  let at = 0, atLine = 0;
  let oldStarts: Int32Array | null = null;
  let synced = false; // the last line matched its counterpart
  let quietUntil = -1; // a block compared here differed: not again before this offset
  const end = lines.length - tail;
  for (let i = head; i < end; i++) {
    if (text !== undefined && synced && j < old.length) {
      while (atLine < i) at += lines[atLine++].length + 1;
      if (at >= quietUntil) {
        oldStarts ??= starts(old);
        let a = at, b = oldStarts[j];
        while (
          a + BLOCK <= text.length && b + BLOCK <= oldText.length &&
          text.substring(a, a + BLOCK) === oldText.substring(b, b + BLOCK)
        ) {
          a += BLOCK;
          b += BLOCK;
        }
        if (a === at) quietUntil = at + BLOCK;
        // Every line whose line break lies inside the shared stretch equals its counterpart.
        while (i < end && j < old.length && at + lines[i].length < a) {
          at += lines[i].length + 1;
          atLine = ++i;
          j++;
        }
        if (i >= end) break;
      }
    }
    const l = lines[i];
    if (j < old.length && l === old[j]) {
      j++;
      misses = 0;
      synced = true;
      continue;
    }
    synced = false;
    // Past a deleted block: the line a little further on in the other text. Once there have been
    // many searches, the other text's line signatures are compared before the lines themselves.
    // A stretch searched again (a run of left-over lines at one `j`) first has the signatures
    // of its lines marked, and a line whose signature is not among them is not searched for.
    let stop = Math.min(old.length, j + 1 + RESYNC);
    const os = ++searches > EAGER ? (osig ??= signatures(old)) : null;
    let k = seek(near, old, os, l, j, j + 1, stop);
    if (k >= stop && ++misses % 8 === 0 && farSearches < FAR_SEARCHES) {
      // Many in a row: maybe past a larger deletion; look much further on, a few times.
      farSearches++;
      const from = stop;
      stop = Math.min(old.length, j + 1 + FAR);
      k = seek(far, old, os, l, j, from, stop);
    }
    if (k < stop) {
      // Found further on: the line is there. The walk moves on to it only when the next lines
      // agree too; a blank or common line (`}`) found ahead is not taken for the place the two
      // texts meet again, which would leave every line after it over.
      if (i + 1 >= lines.length - tail || k + 1 >= old.length || lines[i + 1] === old[k + 1]) {
        j = k + 1;
      }
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

/** A stretch of the other text searched for left-over lines: where, and its mark once marked. */
interface Stretch {
  at: number;
  mark: number;
  marks: Uint32Array;
}

/**
 * Where line `l` is in `old[from, stop)` (or `stop`), for the walk at `j`. With the other text's
 * signatures (`os`, after many searches), a stretch searched again first has its signatures
 * marked, and a line whose signature is not among them is not searched for.
 */
function seek(
  s: Stretch,
  old: string[],
  os: Int32Array | null,
  l: string,
  j: number,
  from: number,
  stop: number,
): number {
  let k = from;
  if (!os) {
    while (k < stop && old[k] !== l) k++;
    return k;
  }
  const ls = signature(l);
  if (s.at !== j) [s.at, s.mark] = [j, 0];
  else if (s.mark === 0) s.mark = markSignatures(s.marks, os, from, stop);
  if (s.mark !== 0 && s.marks[ls] !== s.mark) return stop;
  while (k < stop && (os[k] !== ls || old[k] !== l)) k++;
  return k;
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

/** Characters compared at once when passing over a shared stretch. */
const BLOCK = 1024;

/** Where each line starts in the text the lines were split from (joined by line breaks). */
function starts(lines: readonly string[]): Int32Array {
  const out = new Int32Array(lines.length);
  for (let x = 0, at = 0; x < lines.length; x++) {
    out[x] = at;
    at += lines[x].length + 1;
  }
  return out;
}

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
