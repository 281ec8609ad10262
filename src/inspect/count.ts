/**
 * Per-file counting: which language a path is, whether it is test code, and comment stripping
 * so a commented-out guard counts as gone and a commented-out `verify=False` counts as harmless.
 *
 * Stripping is a small scanner that respects string literals; it is applied identically to the
 * before and the after text, so where its heuristics are imperfect (regex literals with quotes)
 * both sides are wrong the same way and the counts still compare.
 *
 * @module
 */
import type { Lang } from "./rule_types.ts";

/**
 * Templates and JSON settings: read by the changed-line shapes (a route template's middleware, a
 * template's `{% if user.is_staff %}`, `"rejectUnauthorized": false` in `default.json`), not by the
 * learned signal, which learned its words from code.
 */
export const SHAPES_ONLY_FILE =
  /\.(json|json5|jsonc|hbs|handlebars|ejs|njk|jinja2?|j2|tmpl|tpl|mustache|erb|twig|liquid)$/i;

const PY = /\.(py|pyi|pyw)$/i;
const JS = /\.(js|mjs|cjs|jsx|ts|mts|cts|tsx)$/i;

/**
 * The language of a path, by extension; `null` when there is no path to go by (count with all).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(langOf("app/views.py"), "python");
 * assert.deepEqual(langOf("src/server.ts"), "js");
 * assert.deepEqual(langOf(".env"), "other");
 * ```
 */
export function langOf(path: string): Lang | null {
  if (path === "") return null;
  if (PY.test(path)) return "python";
  if (JS.test(path)) return "js";
  return "other";
}

const TEST_DIR =
  /(^|[\\/])(tests?|__tests__|spec|specs|fixtures?|testing|testdata|test_data|e2e)[\\/]/i;
const TEST_FILE =
  /(^|[\\/])(test_[^\\/]*\.py|[^\\/]*_test\.py|conftest\.py|[^\\/]*\.(test|spec)\.[cm]?[jt]sx?)$/i;

/**
 * Whether a path is test code or a fixture: findings there are reported one severity lower,
 * because tests legitimately disable verification against self-signed servers and hold fake keys.
 *
 * Only the part of the path inside the project may decide: with `root`, the path relative to it;
 * for an absolute path without `root`, just the parent folder and the file name. Otherwise a
 * workspace that happens to live under `~/test/` would lower every finding in it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(isTestPath("tests/test_ssl.py"), true);
 * assert.deepEqual(isTestPath("src/app.spec.ts"), true);
 * assert.deepEqual(isTestPath("/home/me/test/shop/src/app.ts"), false);
 * assert.deepEqual(isTestPath("/home/me/test/shop/tests/a.py", "/home/me/test/shop"), true);
 * ```
 */
export function isTestPath(path: string, root?: string): boolean {
  let p = path.replaceAll("\\", "/");
  const r = root?.replaceAll("\\", "/").replace(/\/+$/, "");
  if (r && p.startsWith(r + "/")) p = p.slice(r.length + 1);
  else if (p.startsWith("/") || /^[A-Za-z]:\//.test(p)) p = p.split("/").slice(-2).join("/");
  return TEST_DIR.test(p) || TEST_FILE.test(p);
}

/**
 * Removes comments from source text of the given language, keeping strings and line breaks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(stripComments("x = 1  # verify=False\n", "python"), "x = 1  \n");
 * stripComments("a(); // rejectUnauthorized: false\n", "js"); // "a(); \n"
 * ```
 */
export function stripComments(text: string, lang: Lang | null): string {
  if (lang === "python") return stripPython(text);
  if (lang === "js") return stripJs(text);
  return text;
}

function stripPython(s: string): string {
  const parts: string[] = [];
  let last = 0; // start of the text not yet copied
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 35 /* # */) {
      parts.push(s.slice(last, i));
      const nl = s.indexOf("\n", i);
      i = nl < 0 ? n : nl;
      last = i;
      continue;
    }
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const ch = s[i];
      const triple = s[i + 1] === ch && s[i + 2] === ch;
      let j = i + (triple ? 3 : 1);
      while (j < n) {
        const d = s[j];
        if (d === "\\") {
          j += 2;
          continue;
        }
        if (!triple && d === "\n") break; // unterminated: stop at end of line
        if (d === ch && (!triple || (s[j + 1] === ch && s[j + 2] === ch))) {
          j += triple ? 3 : 1;
          break;
        }
        j++;
      }
      i = j;
      continue;
    }
    i++;
  }
  // Nothing removed: the text itself (one string, so lookups by text compare it by identity).
  if (parts.length === 0) return s;
  parts.push(s.slice(last));
  return parts.join("");
}

/** Characters after which a `/` starts a regex literal rather than a division. */
const REGEX_PREV = new Set(["(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "\n", ""]);

/** The characters that may open something in JS: / " ' and the backtick. */
const JS_OPENS = /[/"'`]/g;

function stripJs(s: string): string {
  const parts: string[] = [];
  let last = 0;
  let i = 0;
  const n = s.length;
  let prev = ""; // last non-space character of code
  while (i < n) {
    const c = s[i];
    if (c === "/" && s[i + 1] === "/") {
      parts.push(s.slice(last, i));
      const nl = s.indexOf("\n", i);
      i = nl < 0 ? n : nl;
      last = i;
      continue;
    }
    if (c === "/" && s[i + 1] === "*") {
      parts.push(s.slice(last, i));
      const end = s.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      parts.push(s.slice(i, stop).replace(/[^\n]/g, "")); // keep line numbers
      i = stop;
      last = i;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < n && s[j] !== c) {
        if (s[j] === "\\") j++;
        else if (c !== "`" && s[j] === "\n") break;
        j++;
      }
      i = j + 1;
      prev = c;
      continue;
    }
    if (c === "/" && REGEX_PREV.has(prev)) {
      let j = i + 1;
      let cls = false;
      while (j < n && s[j] !== "\n") {
        if (s[j] === "\\") j++;
        else if (s[j] === "[") cls = true;
        else if (s[j] === "]") cls = false;
        else if (s[j] === "/" && !cls) break;
        j++;
      }
      i = j + 1;
      prev = "/";
      continue;
    }
    if (c !== " " && c !== "\t" && c !== "\r") prev = c;
    // A run of characters that open nothing, up to the next that may (found by a native scan):
    // the last one that is not white space is `prev`.
    JS_OPENS.lastIndex = i + 1;
    const at = JS_OPENS.exec(s)?.index ?? n;
    let k = at - 1;
    while (k > i && (s[k] === " " || s[k] === "\t" || s[k] === "\r")) k--;
    if (k > i) prev = s[k];
    i = at;
  }
  if (parts.length === 0) return s;
  parts.push(s.slice(last, n));
  return parts.join("");
}

/** A function or method definition: its name and the character span of its whole text. */
export interface DefinitionSpan {
  name: string;
  start: number;
  end: number;
}

const PY_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(/gm;
const JS_DEF =
  /\bfunction\s*\*?\s*(\w+)\s*\(|(?:^|[\s;{}])(?:async\s+|static\s+|public\s+|private\s+|protected\s+)*(\w+)\s*\([^()]*\)\s*(?::\s*[\w<>[\]|, .]+)?\s*\{|\b(\w+)\s*[:=]\s*(?:async\s+)?(?:function\b[^{]*|\([^()]*\)\s*=>\s*)\{/gm;

/** Index just past the bracket that closes the one at `open` (or the end of the text). */
function closeOf(s: string, open: number, o: string, c: string): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === o) depth++;
    else if (s[i] === c && --depth === 0) return i + 1;
  }
  return s.length;
}

/**
 * Spans of the functions and methods whose name matches `name`, in comment-stripped text.
 * Python blocks end at the first line indented no deeper than the `def`; JS bodies at the
 * matching brace. Used to tell a verifier whose implementation went away from a caller that
 * stopped verifying.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const s = "def verify(x):\n    return ok(x)\ny = 1\n";
 * assert.deepEqual(definitionSpans(s, "python", /verif/i).map((d) => s.slice(d.start, d.end)), ["def verify(x):\n    return ok(x)\n"]);
 * ```
 */
export function definitionSpans(text: string, lang: Lang, name: RegExp): DefinitionSpan[] {
  const out: DefinitionSpan[] = [];
  if (lang === "python") {
    PY_DEF.lastIndex = 0;
    for (const m of text.matchAll(PY_DEF)) {
      if (!name.test(m[2])) continue;
      const indent = m[1].length;
      const start = m.index ?? 0;
      const sigEnd = closeOf(text, start + m[0].length - 1, "(", ")");
      let pos = text.indexOf("\n", sigEnd);
      let end = text.length;
      while (pos >= 0 && pos < text.length) {
        const next = text.indexOf("\n", pos + 1);
        const line = text.slice(pos + 1, next < 0 ? text.length : next);
        if (line.trim() !== "" && line.length - line.trimStart().length <= indent) {
          end = pos + 1;
          break;
        }
        pos = next;
      }
      out.push({ name: m[2], start, end });
    }
  } else if (lang === "js") {
    JS_DEF.lastIndex = 0;
    for (const m of text.matchAll(JS_DEF)) {
      const n = m[1] ?? m[2] ?? m[3];
      if (!n || !name.test(n)) continue;
      const start = m.index ?? 0;
      const brace = text.indexOf("{", start + m[0].length - 1);
      out.push({ name: n, start, end: closeOf(text, brace, "{", "}") });
    }
  }
  return out;
}
