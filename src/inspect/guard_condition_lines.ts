/**
 * Where a term shape's run sits in the lines of a branch: the header of the condition a line
 * belongs to, and what the branch it opens runs first. Read by the term shapes
 * (`guard_shapes_terms.ts`). Pure.
 *
 * @module
 */
import { branchLines, code, RUNS_ON } from "./guard_text.ts";

/**
 * The before-line (1-based) of the `if` whose condition line `n` of `lines` belongs to: the line
 * itself, or one of the five above whose parenthesis is still open at `n`; 0 when none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { conditionHeader } from "./guard_condition_lines.ts";
 * assert.equal(conditionHeader(["if (a &&", "    b) {", "  deny();", "}"], 2), 1);
 * assert.equal(conditionHeader(["x = 1", "y = 2"], 2), 0);
 * ```
 */
export function conditionHeader(lines: string[], n: number): number {
  let depth = 0;
  let runsOn = true;
  for (let k = n; k >= 1 && k >= n - 5; k--) {
    const c = code(lines[k - 1] ?? "");
    if (k < n) {
      for (const ch of c) depth += ch === "(" ? 1 : ch === ")" ? -1 : 0;
      // (A condition without brackets runs on over lines ending in `&&`/`||`: Go, Python `\`.)
      runsOn &&= RUNS_ON.test(c);
    }
    if (/^(}\s*)?(if|elif|else\s+if)\b/.test(c)) return k === n || depth > 0 || runsOn ? k : 0;
  }
  return 0;
}

/**
 * The first three lines of code the branch opened at before-line `header` runs, after its
 * condition closes (`return None` left out: it lets the caller go on).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { branchOpening } from "./guard_condition_lines.ts";
 * assert.equal(branchOpening(["if not ok:", "    raise Denied()", "go()"], 1), "\nraise Denied()");
 * ```
 */
export function branchOpening(lines: string[], header: number): string {
  const b = branchLines(lines, header);
  return b ? [b.rest, ...b.body].join("\n").replace(/\breturn\s+(None|null|nil)\b/g, "") : "";
}

/**
 * The code of the first line of the statement before-line `n` continues (lines ending in `&&`,
 * `=`, `(`…).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statementHead } from "./guard_condition_lines.ts";
 * assert.equal(statementHead(["const on =", "  a &&", "  b"], 3), "const on =");
 * ```
 */
export function statementHead(lines: string[], n: number): string {
  let k = n;
  while (k > 1 && n - k < 12 && /(&&|\|\||[=(,]|\band|\bor)$/.test(code(lines[k - 2] ?? ""))) k--;
  return code(lines[k - 1] ?? "");
}

/**
 * The line (1-based) of the header of the block line `n` of `lines` sits in: the nearest
 * non-blank line above it, within `reach` lines, indented less; 0 when none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blockHeader } from "./guard_condition_lines.ts";
 * assert.equal(blockHeader(["if err != nil {", "", "\tcontinue", "}"], 3), 1);
 * assert.equal(blockHeader(["x := 1", "y := 2"], 2), 0);
 * ```
 */
export function blockHeader(lines: string[], n: number, reach = 30): number {
  const ind = (l: string) => l.length - l.trimStart().length;
  const own = ind(lines[n - 1] ?? "");
  for (let i = n - 2; i >= 0 && i >= n - reach; i--) {
    const t = lines[i] ?? "";
    if (t.trim() !== "" && ind(t) < own) return i + 1;
  }
  return 0;
}
