/**
 * The pure core of `edit`: find the one place `old_text` matches, or say precisely why not.
 *
 * @module
 */

/** The outcome of matching `old_text` against a file. */
export type EditPlan =
  | { ok: true; after: string; line: number; oldLines: number; newLines: number; crlf: boolean }
  | { ok: false; message: string; hint: string; matches: number; lines: number[] };

/**
 * Start offsets of every occurrence of `needle` (overlapping ones included: they make the edit just
 * as ambiguous).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { occurrences } from "./edit_match.ts";
 * assert.deepEqual(occurrences("aaa", "aa"), [0, 1]);
 * ```
 */
export function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/**
 * 1-based line number of offset `i` in `text`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineAt } from "./edit_match.ts";
 * assert.deepEqual(lineAt("a\nb\nc", 2), 2);
 * ```
 */
export function lineAt(text: string, i: number): number {
  let n = 1;
  for (let j = text.indexOf("\n"); j >= 0 && j < i; j = text.indexOf("\n", j + 1)) n++;
  return n;
}

function countLines(s: string): number {
  return s.length === 0 ? 0 : s.split("\n").length;
}

/**
 * Plans the edit: `old` must occur exactly once in `content`. Files with CRLF line ends accept an
 * `old`/`new` written with LF (they are converted). On failure the message gives the number of
 * matches and their lines, or — for none — the closest line and whether only whitespace differs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planEdit } from "./edit_match.ts";
 * const p = planEdit("a = 1\nb = 2\n", "b = 2", "b = 3");
 * assert.deepEqual(p.ok && p.after, "a = 1\nb = 3\n");
 * ```
 */
export function planEdit(content: string, old: string, replacement: string): EditPlan {
  if (old.length === 0) {
    return {
      ok: false,
      message: "old_text is empty",
      hint: "give the exact text to replace; to create or overwrite a file use write",
      matches: 0,
      lines: [],
    };
  }
  let at = occurrences(content, old);
  let crlf = false;
  if (at.length === 0 && content.includes("\r\n") && !old.includes("\r")) {
    const o2 = old.replace(/\n/g, "\r\n");
    const hits = occurrences(content, o2);
    if (hits.length > 0) {
      at = hits;
      old = o2;
      replacement = replacement.replace(/\r?\n/g, "\r\n");
      crlf = true;
    }
  }
  if (at.length === 1) {
    const i = at[0];
    return {
      ok: true,
      after: content.slice(0, i) + replacement + content.slice(i + old.length),
      line: lineAt(content, i),
      oldLines: countLines(old),
      newLines: countLines(replacement),
      crlf,
    };
  }
  if (at.length > 1) {
    const lines = at.map((i) => lineAt(content, i));
    return {
      ok: false,
      message: `old_text matches ${at.length} times (at lines ${lines.join(", ")})`,
      hint: "include more of the surrounding lines in old_text so that it matches exactly once",
      matches: at.length,
      lines,
    };
  }
  return { ok: false, ...noMatch(content, old), matches: 0, lines: [] };
}

function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function noMatch(content: string, old: string): { message: string; hint: string } {
  const hint = "old_text must match the file exactly, including indentation and line ends; " +
    "read the file and copy the text from it";
  const oldSquashed = squash(old);
  const lines = content.split("\n");
  const first = old.split("\n").find((l) => l.trim().length > 0) ?? old;
  // Whitespace-only difference: compare from the line that holds the first line of old_text.
  if (oldSquashed.length > 0) {
    for (let i = 0; i < lines.length; i++) {
      if (!squash(lines[i]).includes(squash(first))) continue;
      const window = squash(lines.slice(i, i + old.split("\n").length + 2).join("\n"));
      if (window.includes(oldSquashed)) {
        return {
          message: `old_text is not in the file; it matches at line ${i + 1} only if ` +
            "whitespace is ignored",
          hint,
        };
      }
    }
  }
  const best = closestLine(lines, first.trim());
  if (best === null) return { message: "old_text is not in the file", hint };
  return {
    message: `old_text is not in the file; the closest line to its first line is ${best.line}: ` +
      JSON.stringify(best.text.length > 200 ? best.text.slice(0, 200) + "…" : best.text),
    hint,
  };
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/**
 * The line most like `target` (Dice coefficient over character bigrams), or null when nothing is
 * alike at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closestLine } from "./edit_match.ts";
 * assert.deepEqual(closestLine(["let a = 1;", "return a + b;"], "return a+b;")?.line, 2);
 * ```
 */
export function closestLine(
  lines: string[],
  target: string,
): { line: number; text: string; score: number } | null {
  if (target.length < 2) return null;
  const want = bigrams(target);
  const wantN = target.length - 1;
  let best: { line: number; text: string; score: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].trim();
    if (text.length < 2) continue;
    const have = bigrams(text.length > 1000 ? text.slice(0, 1000) : text);
    let common = 0;
    for (const [g, n] of have) common += Math.min(n, want.get(g) ?? 0);
    const score = (2 * common) / (wantN + Math.min(text.length, 1000) - 1);
    if (score > 0 && (best === null || score > best.score)) best = { line: i + 1, text, score };
  }
  return best;
}
