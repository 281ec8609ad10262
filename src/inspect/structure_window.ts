/**
 * A window of a large statement edited inside, to parse instead of the whole statement: the
 * innermost block around the change whose enclosing lines are all plain definitions (Python
 * `class`/`def` headers; JS/TS class, function and method headers and test-suite calls such as
 * `describe("…", () => {`), with those header lines above it and, in JS/TS, their closers after
 * it. Nothing in such a header is a protection the structural counter counts on a node that
 * holds the change (they only name scopes), and the block itself is parsed exactly as in the
 * whole statement, so a window without facts in the changed span means the whole statement has
 * none there either. A window that does not parse cleanly is not used.
 *
 * @module
 */
import { CODE, FREE, lineKinds } from "./chunk_lex.ts";
import type { Grammar } from "./parser.ts";

/** The largest window, as a share of its statement's length. */
const WINDOW_SHARE = 0.4;

/** Statements shorter than this are parsed whole (a window would save little). */
export const WINDOW_MIN_CHARS = 8000;

const PY_SAFE = /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+[^\n]*:[ \t]*(?:#[^\n]*)?$/;
const JS_CLASS =
  /^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:abstract[ \t]+)?class[ \t]+[\w$]+[^{}\n]*\{[ \t]*$/;
const JS_FUNCTION =
  /^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?function[ \t]*\*?[ \t]*[\w$]+[ \t]*(?:<[^>\n]*>)?\([^()\n]*\)[^{}\n]*\{[ \t]*$/;
const JS_METHOD =
  /^[ \t]*(?:(?:static|async|get|set|public|private|protected|readonly|override)[ \t]+)*#?([\w$]+)[ \t]*(?:<[^>\n]*>)?\([^()\n]*\)[ \t]*(?::[^{}\n]*)?\{[ \t]*$/;
const JS_KEYWORD = /^(?:if|for|while|switch|catch|with|function|return|do|else|try)$/;
const JS_SUITE =
  /^[ \t]*(?:[\w$]+\.)?(?:describe|it|test|suite|context|before|after|beforeEach|afterEach|beforeAll|afterAll)(?:\.(?:only|skip))?[ \t]*\([ \t]*(?:(['"])[^'"\\\n]*\1[ \t]*,[ \t]*)?(?:async[ \t]+)?(?:function[ \t]*[\w$]*[ \t]*\([^()\n]*\)|\([^()\n]*\)[ \t]*=>|[\w$]+[ \t]*=>)[ \t]*\{[ \t]*$/;
/** Lines that continue a construct above them: never a block of their own. */
const CONTINUATION = /^[ \t]*(?:elif\b|else\b|except\b|finally\b|catch\b|case\b|default\b|[}\])])/;

/** A JS/TS line closing one clause of a statement and opening the next. */
const JS_CLAUSE = /^[ \t]*\}[ \t]*(?:else|catch|finally)\b/;

/** The closer a safe JS/TS header line needs ("" when the line is not a safe header). */
function jsCloser(line: string): string {
  if (JS_CLASS.test(line) || JS_FUNCTION.test(line)) return "}";
  const m = JS_METHOD.exec(line);
  if (m && !JS_KEYWORD.test(m[1])) return "}";
  return JS_SUITE.test(line) ? "});" : "";
}

/**
 * The window of `text` around the changed span `range` (see the module note), with the span in
 * the window's coordinates; null when the statement is small, the language has no windows, or
 * no block around the change qualifies.
 *
 * @example
 * ```ts
 * const body = "        x = 1\n".repeat(600);
 * const text = `class A:\n    def f(self):\n${body}    def g(self):\n        y = 2\n        return y\n`;
 * const at = text.indexOf("y = 2");
 * windowOf(text, [at, at + 5], "python")?.text;
 * // "class A:\n    def g(self):\n        y = 2\n        return y\n\n"
 * windowOf(text, [at, at + 5], "go"); // null
 * ```
 */
export function windowOf(
  text: string,
  range: readonly [number, number],
  g: Grammar,
): { text: string; range: [number, number] } | null {
  if (text.length < WINDOW_MIN_CHARS || g === "go") return null;
  const py = g === "python";
  const kinds = lineKinds(text, py ? "python" : "js");
  const starts: number[] = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const lineAt = (pos: number) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const lineText = (i: number) =>
    text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] - 1 : text.length);
  const from = Math.max(0, range[0] - 1);
  const to = Math.min(text.length, range[1] + 1);
  // A line that can start or end a block: outside strings and brackets, not blank, no comment.
  const plain = (i: number) => {
    // JS/TS: block braces are brackets to the lexer; inside a string or comment is what counts.
    if (kinds[i] !== FREE && (py || kinds[i] !== CODE)) return -1;
    const l = lineText(i);
    let k = 0;
    while (k < l.length && (l[k] === " " || l[k] === "\t")) k++;
    if (k === l.length || l[k] === "\r" || l[k] === "#" || l.startsWith("//", k)) return -1;
    if (!py && l.startsWith("/*", k)) return -1;
    return k;
  };
  // The statement the first changed line sits in, then the headers of the blocks around it.
  const chain: number[] = [];
  let level = Infinity;
  for (let j = lineAt(from); j >= 0 && level > 0; j--) {
    const k = plain(j);
    if (k >= 0 && k < level) {
      chain.push(j);
      level = k;
    }
  }
  if (chain.length < 2 || level !== 0) return null;
  const top = chain.length - 1;
  // The innermost block whose enclosing headers are all safe.
  const safe = (i: number) =>
    py
      ? PY_SAFE.test(lineText(i))
      : jsCloser(lineText(i)) !== "" || (i === chain[top] && iife(text, lineText(i)));
  let h = top;
  while (h > 0 && safe(chain[h])) h--;
  for (; h < top; h++) {
    const head = chain[h];
    if (CONTINUATION.test(lineText(head))) continue;
    // JS/TS: it and each header above it start a statement of their parent's block, not a line
    // inside brackets.
    if (
      !py &&
      !chain.slice(h, top).every((line, x) =>
        balanced(text.slice(starts[chain[h + x + 1] + 1], starts[line]))
      )
    ) continue;
    const indent = plain(head);
    // Where the block ends: before the next line at or left of its header (JS: on a closer at
    // its column); a clause continuing its statement (`else:`, `} catch (e) {`) is part of it.
    // It may run on over the statements after it in the same block, to the one the change ends in.
    const last = lineAt(to);
    let inside = true;
    for (let j = head + 1; j <= last && inside; j++) {
      const k = plain(j);
      inside = k < 0 || k >= indent;
    }
    if (!inside) continue;
    let end = text.length;
    for (let j = Math.max(head, last) + 1; j < starts.length; j++) {
      const k = plain(j);
      if (k < 0 || k > indent) continue;
      const l = lineText(j);
      if (k === indent && (py ? CONTINUATION : JS_CLAUSE).test(l)) continue;
      end = !py && k === indent && "})]".includes(l[k]) ? starts[j] + l.length : starts[j] - 1;
      break;
    }
    if (from < starts[head] || to >= end) continue;
    const outer = chain.slice(h + 1);
    const headers = outer.slice().reverse().map((i) => lineText(i) + "\n").join("");
    const closers = py ? "" : outer.map((i) => "\n" + (jsCloser(lineText(i)) || "})();")).join("");
    // A window not much smaller than the statement is not worth a parse of its own.
    if (headers.length + (end - starts[head]) + closers.length > WINDOW_SHARE * text.length) {
      return null;
    }
    const shift = headers.length - starts[head];
    return {
      text: headers + text.slice(starts[head], end) + closers + "\n",
      range: [range[0] + shift, range[1] + shift],
    };
  }
  return null;
}

/**
 * Whether a statement is a module wrapper called at once (`;(function() {` … `}.call(this));`,
 * `(() => {` … `})();`): the call names nothing the counter looks at.
 */
function iife(text: string, first: string): boolean {
  if (!IIFE_HEAD.test(first)) return false;
  const last = text.trimEnd();
  return IIFE_TAIL.test(last.slice(last.lastIndexOf("\n") + 1));
}

const IIFE_HEAD =
  /^[;!]?\((?:[ \t]*(?:async[ \t]+)?function[ \t]*[\w$]*[ \t]*\([^()\n]*\)|[ \t]*\([^()\n]*\)[ \t]*=>)[ \t]*\{[ \t]*$/;
const IIFE_TAIL =
  /^\}(?:[ \t]*\.call\(this\)\)|\)[ \t]*\.call\(this\)|\)\(\)|\(\)\))[ \t]*;?[ \t]*$/;

/** Strings and comments of a line of JS/TS, roughly (their brackets do not count). */
const JS_NOISE = /(["'`])(?:\\.|(?!\1)[^\\\n])*\1|\/\/[^\n]*|\/\*[^]*?\*\//g;

/** Whether every bracket a JS/TS text opens it also closes (strings and comments aside). */
function balanced(text: string): boolean {
  const s = text.replace(JS_NOISE, "");
  if (/["'`]|\/\*/.test(s)) return false;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93 || c === 125) {
      if (--depth < 0) return false;
    }
  }
  return depth === 0;
}
