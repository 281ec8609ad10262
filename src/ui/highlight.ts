/**
 * A small syntax colouring for code in answers: keywords, strings, numbers and comments, by a
 * line-at-a-time scan that knows the comment markers of common languages. Enough to read code in
 * a terminal; no grammar, no start-up cost. The input is already safe text.
 *
 * @module
 */
import { c, colorEnabled } from "./color.ts";

const KEYWORDS = new Set(
  ("if else elif for while do return def class function fn func let const var import from export " +
    "as in is not and or try catch except finally raise throw new delete async await yield with " +
    "pub struct enum impl trait match case switch break continue type interface extends implements " +
    "static public private protected package go defer select chan map range nil None null true " +
    "false True False self this super lambda pass global use mod where mut ref then fi done esac " +
    "echo local export readonly")
    .split(" "),
);

const HASH_COMMENT = new Set([
  "py",
  "python",
  "sh",
  "bash",
  "zsh",
  "shell",
  "rb",
  "ruby",
  "yaml",
  "yml",
  "toml",
  "r",
  "perl",
  "pl",
  "dockerfile",
  "make",
  "makefile",
]);
const DASH_COMMENT = new Set(["sql", "lua", "haskell", "hs"]);

/**
 * One line of code, coloured (unchanged without colour).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forceColor } from "./color.ts";
 * import { highlightLine } from "./highlight.ts";
 * forceColor(true);
 * assert.equal(highlightLine("return 1", "py"), "\x1b[35mreturn\x1b[39m \x1b[33m1\x1b[39m");
 * forceColor(false);
 * assert.equal(highlightLine("return 1", "py"), "return 1");
 * forceColor(null);
 * ```
 */
export function highlightLine(line: string, lang: string): string {
  if (!colorEnabled()) return line;
  const l = lang.toLowerCase();
  const comment = HASH_COMMENT.has(l) ? "#" : DASH_COMMENT.has(l) ? "--" : "//";
  const token = new RegExp(
    `(${
      escape(comment)
    }.*$)|("(?:[^"\\\\]|\\\\.)*"?|'(?:[^'\\\\]|\\\\.)*'?|\`[^\`]*\`?)|(\\b\\d[\\d_.]*\\b)|([A-Za-z_][A-Za-z0-9_]*)`,
    "g",
  );
  return line.replace(token, (m, com, str, num, word) => {
    if (com) return c.gray(m);
    if (str) return c.green(m);
    if (num) return c.yellow(m);
    if (word && KEYWORDS.has(word)) return c.magenta(m);
    return m;
  });
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
