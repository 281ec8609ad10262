/**
 * Which shell commands only read: `ls`, `grep -rn x src`, `git diff | head`, `sed -n 10,20p f`.
 *
 * Such a command runs in the sandbox with the **workspace mounted read-only**, so there is nothing
 * to stage, snapshot or undo (class `none`). The mount is what keeps the promise, not this
 * recogniser: a command wrongly taken for a reader fails to write ("Read-only file system") and
 * changes nothing. The recogniser is therefore conservative only to spare such failures: one
 * simple command or a pipeline/list of them, every word literal or plainly quoted, no command
 * substitution, subshell, here-document, background job or output redirection (except to
 * `/dev/null` and descriptor copies), and each program one that only reads with the options given.
 *
 * @module
 */

/** Programs that read whatever their options (their output goes to stdout). */
const READERS = new Set([
  "true",
  "false",
  ":",
  "pwd",
  "echo",
  "printf",
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "stat",
  "file",
  "du",
  "df",
  "which",
  "type",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "uname",
  "id",
  "whoami",
  "nl",
  "cut",
  "tr",
  "diff",
  "cmp",
  "comm",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "test",
  "[",
  "printenv",
  "cd",
  "seq",
  "sleep",
  "column",
  "fold",
  "expand",
  "unexpand",
  "rev",
  "tac",
  "od",
  "hexdump",
  "strings",
  "jq",
  "exit",
  "wait",
]); // deno-fmt-ignore

/** Options that make an otherwise reading program write a file or run another program. */
const WRITING_OPTIONS: Record<string, (a: string) => boolean> = {
  find: (a) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(a),
  sort: (a) => a === "-o" || a.startsWith("--output") || /^-[^-]*o/.test(a),
  tree: (a) => a === "-o" || a === "-R" || /^-[^-]*o/.test(a),
  date: (a) => a === "-s" || a.startsWith("--set"),
  rg: (a) => a === "--pre" || a.startsWith("--pre="),
};

/** Programs whose second file name is an output file (`uniq in out`, `xxd in out`). */
const ONE_FILE = new Set(["uniq", "xxd"]);

/** git subcommands that only read (with {@link gitReads} checking their options). */
const GIT_READERS = new Set([
  "status",
  "diff",
  "log",
  "show",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "cat-file",
  "blame",
  "grep",
  "describe",
  "shortlog",
  "branch",
  "tag",
  "remote",
  "config",
  "rev-list",
  "merge-base",
  "show-ref",
  "name-rev",
  "whatchanged",
  "count-objects",
]); // deno-fmt-ignore

function gitReads(words: string[]): boolean {
  let i = 1;
  // `git -C dir …` and `--no-pager`; `-c key=value` could name a program to run: not a reader.
  while (i < words.length && words[i].startsWith("-")) {
    if (words[i] === "-C") i += 2;
    else if (words[i] === "--no-pager" || words[i] === "-P") i++;
    else return false;
  }
  const sub = words[i];
  if (!sub || !GIT_READERS.has(sub)) return false;
  const rest = words.slice(i + 1);
  // Options that write a file or start another program, for any subcommand.
  if (rest.some((a) => /^--(output|open-files-in-pager|ext-diff|textconv)/.test(a) || a === "-O")) {
    return false;
  }
  const opts = rest.filter((a) => a.startsWith("-"));
  const names = rest.filter((a) => !a.startsWith("-"));
  switch (sub) {
    case "branch":
    case "tag":
      // Listing only: any name would create, and these options change branches or tags.
      return names.length === 0 &&
        !opts.some((a) => /^-(-?(delete|move|copy|force|edit|set|unset|create)|[dDmMcCfeu])/.test(a));
    case "remote":
      return names.length === 0 || (names.length === 1 && names[0] === "show");
    case "config":
      return opts.some((a) => /^(--get(-all|-regexp)?|--list|-l)$/.test(a));
    default:
      return true;
  }
}

/** `sed -n` with only line-printing scripts (`10p`, `5,20p`, `$p`) and no in-place edit. */
function sedReads(words: string[]): boolean {
  let quiet = false;
  let script = false;
  for (const a of words.slice(1)) {
    if (a === "-n" || a === "--quiet" || a === "--silent") quiet = true;
    else if (a.startsWith("-")) return false; // -i, -e, -f, -s…: keep it simple
    else if (!script) {
      if (!/^(\d+|\$)(,(\d+|\$))?p$/.test(a)) return false;
      script = true;
    }
  }
  return quiet && script;
}

function programReads(words: string[]): boolean {
  const [prog] = words;
  if (prog === "git") return gitReads(words);
  if (prog === "sed") return sedReads(words);
  if (prog === "env" || prog === "printenv") return words.length === 1 || prog === "printenv";
  const writes = WRITING_OPTIONS[prog];
  if (writes) return !words.slice(1).some(writes);
  if (ONE_FILE.has(prog)) return words.slice(1).filter((a) => !a.startsWith("-")).length <= 1;
  return READERS.has(prog);
}

/** A word after quote removal, or an operator (`|`, `&&`, `;`, a redirection). */
type Token = { word: string } | { op: string };

function tokenize(line: string): Token[] | null {
  const out: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "\n" || c === ";") {
      out.push({ op: ";" });
      i++;
      continue;
    }
    if (c === "#") {
      while (i < line.length && line[i] !== "\n") i++;
      continue;
    }
    const two = line.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      out.push({ op: two });
      i += 2;
      continue;
    }
    if (c === "|") {
      out.push({ op: "|" });
      i++;
      continue;
    }
    // Redirections: [n]> [n]>> [n]>| &> [n]>&m [n]< — the target is checked by the caller.
    const redir = /^(\d*[<>]&\d+-?|[<>]&-|&>>?|\d*>>?\|?|\d*<[<>]?)/.exec(line.slice(i));
    if (redir) {
      if (/<[<>]$/.test(redir[1])) return null; // here-documents and strings, read-write opens
      out.push({ op: redir[1] });
      i += redir[1].length;
      continue;
    }
    if ("&(){}`".includes(c)) return null; // background, subshell, group, substitution
    // A word: literal characters, '…', "…" (without $ or `), \x.
    let word = "";
    while (i < line.length && !" \t\n;&|<>()`".includes(line[i])) {
      const d = line[i];
      if (d === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) return null;
        word += line.slice(i + 1, end);
        i = end + 1;
      } else if (d === '"') {
        let j = i + 1;
        while (j < line.length && line[j] !== '"') {
          if (line[j] === "\\") j++;
          j++;
        }
        if (j >= line.length) return null;
        const inner = line.slice(i + 1, j);
        if (/[$`]/.test(inner)) return null;
        word += inner.replace(/\\(.)/g, "$1");
        i = j + 1;
      } else if (d === "\\") {
        if (i + 1 >= line.length) return null;
        word += line[i + 1];
        i += 2;
      } else if (d === "$" || d === "{" || d === "}") {
        return null; // expansions could make any word, even the program's name
      } else {
        word += d;
        i++;
      }
    }
    out.push({ word });
  }
  return out;
}

/**
 * True when `command` only reads: it may run with the workspace read-only and nothing to undo.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isReadOnlyCommand } from "./read_only_command.ts";
 * assert.equal(isReadOnlyCommand("true"), true);
 * assert.equal(isReadOnlyCommand("grep -rn 'a|b' src | head -20"), true);
 * assert.equal(isReadOnlyCommand("git diff HEAD~1 2>/dev/null"), true);
 * assert.equal(isReadOnlyCommand("ls > files.txt"), false);
 * assert.equal(isReadOnlyCommand("find . -name '*.pyc' -delete"), false);
 * assert.equal(isReadOnlyCommand("cat $(ls)"), false);
 * assert.equal(isReadOnlyCommand("npm test"), false);
 * ```
 */
export function isReadOnlyCommand(command: string): boolean {
  if (command.length > 4096) return false;
  const tokens = tokenize(command);
  if (!tokens || tokens.length === 0) return false;
  let words: string[] = [];
  let pending = false; // after `|`, `&&` or `||`: another command must follow
  const commandEnds = (): boolean => {
    // Leading assignments (NAME=value) set the environment only.
    const i = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    const ok = i < 0 ? words.length > 0 : programReads(words.slice(i));
    words = [];
    return ok;
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if ("word" in t) {
      words.push(t.word);
      pending = false;
      continue;
    }
    if (/^(\d*>>?\|?|&>>?)$/.test(t.op)) {
      const target = tokens[k + 1];
      if (!target || !("word" in target) || target.word !== "/dev/null") return false;
      k++;
      continue;
    }
    if (/&(\d+-?|-)$/.test(t.op)) continue; // 2>&1, >&2, <&-: copies of open descriptors
    if (t.op.endsWith("<")) {
      const source = tokens[k + 1];
      if (!source || !("word" in source)) return false;
      k++;
      continue;
    }
    if (words.length === 0) {
      if (t.op === ";" && !pending) continue; // blank lines, `a;;`
      return false; // `| x`, `&& x` with nothing before
    }
    if (!commandEnds()) return false;
    pending = t.op !== ";";
  }
  // `ls |` or `ls &&` waits for more input: not a whole command line.
  return words.length === 0 ? !pending : commandEnds();
}
