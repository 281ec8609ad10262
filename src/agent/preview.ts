/**
 * Previews of large tool results: what the model sees in place of the whole text.
 *
 * A preview must be enough to answer with most of the time (the head of the text, an outline of its
 * definitions with line numbers, its tail), or the model recalls everything and pays for the
 * preview on top. The default size was tuned by measurement (`bench/preview_bench.ts`,
 * docs/agent.md).
 *
 * @module
 */

/** Results longer than this (characters) are stored and previewed. */
export const PREVIEW_THRESHOLD = 6000;
/** Default preview budget in characters. */
export const PREVIEW_CHARS = 4000;

// A definition line, optionally behind the read tool's line-number prefix.
const OUTLINE = new RegExp(
  "^\\s*(?:\\d+\\t)?\\s*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?(?:" +
    "(?:def|class|function\\*?|interface|enum|struct|impl|fn|func)\\s+[A-Za-z_$]" +
    "|type\\s+\\w+\\s*(?:<[^>]*>)?\\s*=" +
    "|const\\s+\\w+\\s*=\\s*(?:async\\s*)?\\(" +
    "|(?:public|private|protected|static)\\s+[\\w<>\\[\\]]+\\s+\\w+\\s*\\()",
);

/**
 * Builds the preview of `text` for a stored result `ref`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildPreview } from "./preview.ts";
 * const p = buildPreview("line\n".repeat(5000), "res_abc", 3000);
 * assert.deepEqual(p.includes('recall(ref="res_abc"'), true);
 * ```
 */
export function buildPreview(text: string, ref: string, budget = PREVIEW_CHARS): string {
  const lines = text.split("\n");
  const headBudget = Math.floor(budget * 0.35);
  const outlineBudget = Math.floor(budget * 0.45);
  const tailBudget = budget - headBudget - outlineBudget;

  const head: string[] = [];
  let used = 0;
  let i = 0;
  for (; i < lines.length && used + lines[i].length + 1 <= headBudget; i++) {
    head.push(lines[i]);
    used += lines[i].length + 1;
  }
  const tail: string[] = [];
  used = 0;
  let j = lines.length - 1;
  for (; j >= i && used + lines[j].length + 1 <= tailBudget; j--) {
    tail.unshift(lines[j]);
    used += lines[j].length + 1;
  }
  const outline: string[] = [];
  used = 0;
  for (let k = i; k <= j; k++) {
    if (!OUTLINE.test(lines[k])) continue;
    const entry = `  ${lines[k].replace(/^\s*(\d+)\t/, "$1: ").trim().slice(0, 120)}`;
    if (used + entry.length + 1 > outlineBudget) break;
    outline.push(entry);
    used += entry.length + 1;
  }
  const hidden = Math.max(0, j - i + 1);
  return [
    `[large result stored as ref="${ref}": ${text.length} characters, ${lines.length} lines; ` +
    `showing lines 1-${i} and ${
      j + 2
    }-${lines.length}; call recall(ref="${ref}", offset, length) ` +
    `for the exact text of any part]`,
    ...head,
    `[… ${hidden} lines not shown${outline.length ? "; definitions among them:" : ""}]`,
    ...outline,
    ...(tail.length ? ["[… end of the text:]", ...tail] : []),
  ].join("\n");
}
