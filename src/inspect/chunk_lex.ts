/**
 * The splitter's lexer: for each line of a text, whether it starts inside a bracket, a string, a
 * block comment or a continuation, by each language's rules (Python, JS/TS, Go).
 *
 * @module
 */

/** Which lexical rules the splitter applies: by file extension, "" when unknown. */
export type SplitLang = "python" | "js" | "go" | "";

/**
 * The splitter's language for a path.
 *
 * @example
 * ```ts
 * splitLangOf("app/views.py"); // "python"
 * splitLangOf("README.md"); // ""
 * ```
 */
export function splitLangOf(path: string): SplitLang {
  const m = /\.([a-z]+)$/i.exec(path);
  const e = m?.[1].toLowerCase() ?? "";
  if (e === "py" || e === "pyi" || e === "pyw") return "python";
  if (/^(?:js|mjs|cjs|jsx|ts|mts|cts|tsx)$/.test(e)) return "js";
  if (e === "go") return "go";
  return "";
}

/** What a line starts inside of: nothing, code (a bracket, a continuation), a comment, a string. */
export const FREE = 0, CODE = 1, COMMENT = 2, STRING = 3;

/**
 * Column-zero lines that start a plain declaration (a function, class, import, top-level
 * binding): the lexer is almost surely outside any string or bracket there, so lexing may start
 * or stop at one.
 */
export const ANCHOR: Record<Exclude<SplitLang, "">, RegExp> = {
  python: /(?:(?:async\s+)?def\s|class\s|import\s|from\s\S+\s+import\s|@\w)/y,
  js:
    /(?:export\s|import\s|function[\s*]|async\s+function|class\s|const\s|let\s|var\s|module\.exports|exports\.)/y,
  go: /(?:func\s|type\s|var\s|const\s|import\s|package\s)/y,
};

/**
 * The start of the lexing window for an edit whose first differing character is at `pos`: the
 * nearest plain-declaration line at or above it (see {@link ANCHOR}), or 0.
 *
 * @example
 * ```ts
 * windowStart("import os\n\ndef f():\n    return 1\n", 30, "python"); // 11
 * ```
 */
export function windowStart(text: string, pos: number, lang: Exclude<SplitLang, "">): number {
  const anchor = ANCHOR[lang];
  for (let i = text.lastIndexOf("\n", pos - 1); i >= 0; i = text.lastIndexOf("\n", i - 1)) {
    anchor.lastIndex = i + 1;
    if (anchor.test(text)) return i + 1;
    if (i === 0) break;
  }
  return 0;
}

/** ASCII characters the lexer's cases do not look at (everything but \n \\ # ( ) [ ] { } " ' ` /). */
const PLAIN = new Uint8Array(128).map((_, c) =>
  "\n\\#()[]{}\"'`/".includes(String.fromCharCode(c)) ? 0 : 1
);

/** Characters after which a `/` in JS starts a regular expression rather than a division. */
const REGEX_BEFORE = new Set([..."(,=:[!&|?{};+-*%<>~^"]);
const REGEX_WORD =
  /(?:^|[^\w$.])(?:return|typeof|case|do|else|in|of|void|yield|await|throw|delete|new)$/;

/**
 * For each line of `text`, what its start sits inside of (see the constants above), from a small
 * lexer that knows each language's strings, comments and brackets. Errors in the heuristics (a JS
 * regular expression taken for a division) only make pieces larger, never wrong.
 *
 * @example
 * ```ts
 * [...lineKinds('x = """\ndoc\n"""\ny = 1\n', "python")]; // [0, 3, 3, 0, 0]
 * ```
 */
export function lineKinds(
  text: string,
  lang: Exclude<SplitLang, "">,
  from = 0,
  stop = -1,
): Uint8Array {
  let n = 1;
  let line = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    n++;
    if (i < from) line++;
  }
  const kinds = new Uint8Array(n);
  const anchor = ANCHOR[lang];
  /** Marks the lines starting inside `[from, to)` as `k`; returns `to`. */
  const mark = (from: number, to: number, k: number): number => {
    for (let j = text.indexOf("\n", from); j >= 0 && j < to; j = text.indexOf("\n", j + 1)) {
      kinds[++line] = k;
    }
    return to;
  };
  /** The end (after the closing quote) of a one-line string opened at `i`, or its newline. */
  const lineString = (i: number, q: string): number => {
    for (let j = i + 1; j < text.length; j++) {
      const c = text[j];
      if (c === "\\") {
        if (text[j + 1] === "\n") kinds[++line] = STRING;
        j++;
      } else if (c === q) return j + 1;
      else if (c === "\n") return j;
    }
    return text.length;
  };
  const templates: number[] = []; // JS: brace depth inside each open `${`
  /** Scans a JS template from `from` to its closing backtick or next `${`; returns where to go on. */
  const template = (from: number): number => {
    for (let j = from; j < text.length; j++) {
      const c = text[j];
      if (c === "\\") j++;
      else if (c === "`") return mark(from, j + 1, STRING);
      else if (c === "$" && text[j + 1] === "{") {
        templates.push(0);
        return mark(from, j + 2, STRING);
      }
    }
    return mark(from, text.length, STRING);
  };
  let depth = 0;
  const py = lang === "python", js = lang === "js", go = lang === "go";
  const len = text.length;
  // One pass over the character codes (a regular expression per token costs several times more).
  for (let i = from; i < len;) {
    // Characters none of the cases below look at are passed over in a tight loop.
    let c = text.charCodeAt(i);
    while (c < 128 && PLAIN[c] === 1) c = text.charCodeAt(++i);
    if (i >= len) break;
    let next = i + 1;
    switch (c) {
      case 10: // \n
        if (
          stop >= 0 && i >= stop && depth === 0 && templates.length === 0 &&
          (anchor.lastIndex = i + 1, anchor.test(text))
        ) return kinds; // past the window, at a plain declaration: the rest is as split by column
        kinds[++line] = depth > 0 ? CODE : FREE;
        break;
      case 92: // backslash
        if (go) break;
        if (text.charCodeAt(i + 1) === 10) {
          kinds[++line] = CODE;
          next = i + 2;
        } else if (text.charCodeAt(i + 1) === 13 && text.charCodeAt(i + 2) === 10) {
          kinds[++line] = CODE;
          next = i + 3;
        } else next = i + 2;
        break;
      case 35: { // #
        if (!py) break;
        const e = text.indexOf("\n", i);
        next = e < 0 ? len : e;
        break;
      }
      case 40: // (
      case 91: // [
        depth++;
        break;
      case 123: // {
        if (templates.length) templates[templates.length - 1]++;
        depth++;
        break;
      case 41: // )
      case 93: // ]
        if (depth > 0) depth--;
        break;
      case 125: // }
        if (templates.length && templates[templates.length - 1] === 0) {
          templates.pop();
          next = template(i + 1);
          break;
        }
        if (templates.length) templates[templates.length - 1]--;
        if (depth > 0) depth--;
        break;
      case 34: // "
      case 39: // '
        if (py && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c) {
          const q = text.slice(i, i + 3);
          let e = i + 3;
          for (;;) {
            const k = text.indexOf(q, e);
            if (k < 0) {
              e = len;
              break;
            }
            let b = 0;
            while (text.charCodeAt(k - 1 - b) === 92) b++;
            if (b % 2 === 0) {
              e = k + 3;
              break;
            }
            e = k + 1;
          }
          next = mark(i, e, STRING);
        } else next = lineString(i, text[i]);
        break;
      case 96: // `
        if (py) break;
        if (go) {
          const k = text.indexOf("`", i + 1);
          next = mark(i, k < 0 ? len : k + 1, STRING);
        } else next = template(i + 1);
        break;
      case 47: { // /
        if (py) break;
        const d = text.charCodeAt(i + 1);
        if (d === 47) {
          const e = text.indexOf("\n", i);
          next = e < 0 ? len : e;
        } else if (d === 42) {
          const k = text.indexOf("*/", i + 2);
          next = mark(i, k < 0 ? len : k + 2, COMMENT);
        } else if (js && regexStarts(text, i)) {
          next = regexEnd(text, i);
        }
        break;
      }
    }
    i = next;
  }
  return kinds;
}

/** Whether a `/` at `i` (not a comment) starts a JS regular expression: by what precedes it. */
function regexStarts(text: string, i: number): boolean {
  let p = i - 1;
  while (p >= 0 && (text[p] === " " || text[p] === "\t")) p--;
  if (p < 0 || text[p] === "\n") return true;
  if (REGEX_BEFORE.has(text[p])) return true;
  return REGEX_WORD.test(text.slice(Math.max(0, p - 11), p + 1));
}

/** The end of a JS regular expression opened at `i` (after its flags); at a newline it was none. */
function regexEnd(text: string, i: number): number {
  let cls = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === "\n") return i + 1; // not a regular expression after all
    else if (cls) cls = c !== "]";
    else if (c === "[") cls = true;
    else if (c === "/") return j + 1;
  }
  return i + 1;
}

/** A column-zero line that continues the statement above it. */
export const CONTINUES: Record<Exclude<SplitLang, "">, RegExp> = {
  python: /(?:elif|else|except|finally)\b/y,
  js: /(?:[}\)\].?,]|&&|\|\||else\b|catch\b|finally\b)/y,
  go: /[}\)\]]/y,
};
