/**
 * Glob patterns to regular expressions: `*`, `?`, `**`, `[abc]`, `[!abc]`, `{a,b}`.
 *
 * A pattern without `/` matches a file's name at any depth (`*.ts`); one with `/` matches the path
 * relative to the search root (`src/**\/*.ts`).
 *
 * @module
 */

/**
 * Compiles a glob to an anchored RegExp over `/`-separated relative paths.
 *
 * @throws Error naming the problem for an unclosed `[` or `{`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { globToRegExp } from "./glob_match.ts";
 * assert.deepEqual(globToRegExp("src/**\/*.{ts,tsx}").test("src/a/b/c.tsx"), true);
 * globToRegExp("*.ts").test("a/b.ts"); // false (use matchGlob for name-anywhere matching)
 * ```
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob)}$`, "u");
}

function translate(g: string): string {
  let re = "";
  let i = 0;
  while (i < g.length) {
    const c = g[i];
    if (c === "*") {
      if (g[i + 1] === "*") {
        const atStart = i === 0 || g[i - 1] === "/";
        const after = g[i + 2];
        if (atStart && after === "/") {
          re += "(?:[^/]*/)*"; // `**/`: zero or more directories
          i += 3;
          continue;
        }
        if (atStart && after === undefined) {
          re += ".*"; // trailing `**`: everything below
          i += 2;
          continue;
        }
        re += "[^/]*"; // `**` inside a name acts like `*`
        i += 2;
        continue;
      }
      re += "[^/]*";
      i++;
    } else if (c === "?") {
      re += "[^/]";
      i++;
    } else if (c === "[") {
      const end = g.indexOf("]", i + 2);
      if (end < 0) throw new Error(`unclosed "[" at position ${i + 1} in the glob ${g}`);
      let body = g.slice(i + 1, end);
      const neg = body.startsWith("!") || body.startsWith("^");
      if (neg) body = body.slice(1);
      body = body.replace(/[\\\]\[]/g, "\\$&");
      re += neg ? `[^/${body}]` : `[${body}]`;
      i = end + 1;
    } else if (c === "{") {
      const end = closingBrace(g, i);
      if (end < 0) throw new Error(`unclosed "{" at position ${i + 1} in the glob ${g}`);
      const alts = splitTop(g.slice(i + 1, end)).map(translate);
      re += `(?:${alts.join("|")})`;
      i = end + 1;
    } else if (c === "\\" && i + 1 < g.length) {
      re += escape(g[i + 1]);
      i += 2;
    } else {
      re += escape(c);
      i++;
    }
  }
  return re;
}

function closingBrace(g: string, open: number): number {
  let depth = 0;
  for (let j = open; j < g.length; j++) {
    if (g[j] === "{") depth++;
    else if (g[j] === "}" && --depth === 0) return j;
  }
  return -1;
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of s) {
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/**
 * A matcher for a glob: name-anywhere when the glob has no `/`, else the whole relative path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchGlob } from "./glob_match.ts";
 * const m = matchGlob("*.ts");
 * assert.deepEqual(m("src/deep/a.ts"), true);
 * ```
 */
export function matchGlob(glob: string): (rel: string) => boolean {
  const clean = glob.replace(/^\.\//, "");
  const re = globToRegExp(clean);
  if (!clean.includes("/")) return (rel) => re.test(rel.slice(rel.lastIndexOf("/") + 1));
  return (rel) => re.test(rel);
}
