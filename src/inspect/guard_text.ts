/**
 * Line-level text helpers of the changed-line guard signals (`guard_lines.ts`): the definition a
 * line sits in, conditions, calls, branches and how two lines compare. The changed hunks of an
 * edit are made in `guard_hunks.ts`.
 *
 * @module
 */
import { CHECK_CALL, MAX_LINE, speaksSecurity } from "./guard_vocab.ts";

export interface Line {
  text: string;
  /** 1-based line number in its own side. */
  n: number;
}

export interface Hunk {
  removed: Line[];
  added: Line[];
  /** The before-line (1-based) the hunk starts at: where added lines go in when none is removed. */
  at?: number;
}

/** The user a request is made by: code that reads it scopes what the requester may see. */
export const REQUESTER =
  /\b(request|req|ctx|g|session|locals|context)\.(user|userId|user_id)\b|\bthis\.userId\b|\bcurrent_?user\b|\bcurrentUser\b/;

/**
 * A name's words joined by `_`, in lower case: `corsDisallowCredentials` →
 * `cors_disallow_credentials` (snake_case and camelCase names read alike).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { underscored } from "./guard_text.ts";
 * assert.equal(underscored("policyAllowsGuests"), "policy_allows_guests");
 * ```
 */
export function underscored(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** Comment-only lines and comment tails removed (a commented-out guard counts as removed). */
export function code(line: string): string {
  const t = line.trim();
  // (A JS private method's header, `#allows(p: P): boolean {`, is code, not a comment.)
  if (/^(#|\/\/|\/\*|\*|<!--|--\s)/.test(t) && !PRIVATE_METHOD.test(t)) return "";
  return t.length > MAX_LINE ? "" : t.replace(/\s+(#|\/\/)\s.*$/, "");
}

/** A line a condition without brackets runs on after (`a &&`, `a or`, a backslash): Go, Python. */
export const RUNS_ON = /(&&|\|\||\band|\bor|\\)$/;

const PRIVATE_METHOD = /^#[A-Za-z_$][\w$]*\s*\(.*\)\s*(:\s*[^{]+)?\{$/;

const enclosingMemo = new WeakMap<string[], Map<number, string>>();

/** The name of the definition a line sits in (nearest earlier less-indented def/function). */
export function enclosing(lines: string[], n: number): string {
  let memo = enclosingMemo.get(lines);
  if (!memo) enclosingMemo.set(lines, memo = new Map());
  const known = memo.get(n);
  if (known !== undefined) return known;
  const name = findEnclosing(lines, n);
  memo.set(n, name);
  return name;
}

function findEnclosing(lines: string[], n: number): string {
  return enclosingChain(lines, n)[0] ?? "";
}

/** The names of every definition a line sits in, innermost first. */
export function enclosingChain(lines: string[], n: number): string[] {
  const names: string[] = [];
  const ind = (l: string) => l.length - l.trimStart().length;
  // A blank line sits where the code after it sits (or, at a block's end, the code before it).
  const blank = (i: number) => (lines[i] ?? "").trim() === "";
  let at = n - 1;
  while (blank(at) && at < n + 4 && at < lines.length - 1) at++;
  if (blank(at)) {
    at = n - 1;
    while (at > 0 && blank(at)) at--;
  }
  let depth = ind(lines[at] ?? "");
  for (let i = Math.min(n - 2, lines.length - 1); i >= 0 && i >= n - 400; i--) {
    const l = lines[i];
    // The closing line of a multi-line signature (`) -> bool:`) belongs to the def above it.
    if (l.trim() === "" || ind(l) >= depth || /^\s*[)\]]/.test(l)) continue;
    depth = ind(l);
    const m =
      /^\s*(?:export\s+)?(?:async\s+)?(?:def\b|function\b\*?|func\b|class\b|fn\b)\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/
        .exec(l) ??
        /^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*(?:[A-Za-z_$][\w$]*\.)*#?([A-Za-z_$][\w$]*)\s*(?::?=\s*(?:async\s*)?(?:function\b|func\b|\([^)]*\)\s*=>)|\([^)]*\)\s*(?::[^={]*)?\{)/
          .exec(l) ??
        /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/.exec(l) ??
        // A class method whose parameters go on over the next lines (`static async check(`).
        /^\s*(?:(?:public|private|protected|static|async|override)\s+)+#?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\($/
          .exec(l);
    if (m && !/^(if|for|while|switch|catch|return|else)$/.test(m[1])) names.push(m[1]);
    if (depth === 0) break;
  }
  return names;
}

/** Names of the calls on a line (`a.b.check(` → `a.b.check`), keywords left out. */
export function callNames(line: string): string[] {
  return [...line.matchAll(/([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(/g)].map((m) => m[1])
    .filter((n) => !/^(if|for|while|switch|return|catch|function|elif|and|or|not)$/.test(n));
}

/** The last segment of a dotted name. */
export function lastName(call: string): string {
  return call.split(".").pop() ?? call;
}

/** How many times `name(` is called in `text`. */
export function occurrences(text: string, name: string): number {
  const re = new RegExp(`(^|[^\\w$])${name.replace(/[.$]/g, "\\$&")}\\s*\\(`, "g");
  return (text.match(re) ?? []).length;
}

/** Operands of a condition: conjuncts/disjuncts, comparisons and calls. */
export function operands(cond: string): number {
  const joins = (cond.match(/&&|\|\||\band\b|\bor\b/g) ?? []).length;
  const cmps =
    (cond.match(/===?|!==?|<=|>=|(?<![-=<])<(?![<=])|(?<![-=>])>(?![>=])|\bis\b|\bin\b/g) ??
      []).length;
  return joins + cmps + callNames(cond).length;
}

/** The condition of an `if`/`elif`/`while` header or a `return` (its expression). */
export function condition(line: string): string | null {
  const m = /^\s*(?:}\s*)?(if|elif|else\s+if|while|return)\b\s*/.exec(line);
  if (!m) return null;
  const rest = line.slice(m[0].length);
  if (rest.startsWith("(") && m[1] !== "return") {
    let depth = 0;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === "(") depth++;
      else if (rest[i] === ")" && --depth === 0) return rest.slice(1, i);
    }
    return rest.slice(1);
  }
  return rest.replace(/\s*[:{;]\s*$/, "");
}

/** Security words in a text, as a multiset count. */
export function securityWords(t: string): number {
  return (t.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []).filter((w) => speaksSecurity(w)).length;
}

/** The top-level arguments of the first call to `name` in `line`, as trimmed texts. */
export function args(line: string, name: string): string[] {
  const i = line.indexOf(`${name}(`);
  if (i < 0) return [];
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (let k = i + name.length; k < line.length; k++) {
    const ch = line[k];
    if (ch === "(" || ch === "[" || ch === "{") {
      if (depth++ === 0) continue;
    } else if (ch === ")" || ch === "]" || ch === "}") {
      if (--depth === 0) break;
    } else if (ch === "," && depth === 1) {
      out.push(cur.trim());
      cur = "";
      continue;
    }
    cur += ch;
  }
  if (cur.trim() !== "") out.push(cur.trim());
  return out;
}

/** How many top-level arguments the first call to `name` in `line` has. */
export function argCount(line: string, name: string): number {
  return args(line, name).length;
}

/** A file mode that others could not use before and can after (`0600` → `0644`). */
export function modeOpened(rc: string, ac: string): boolean {
  const modes = (t: string) => [...t.matchAll(/\b0o?([0-7]{3})\b/g)].map((m) => m[1]);
  const b = modes(rc);
  const a = modes(ac);
  return b.length > 0 && a.length === b.length &&
    b.some((m, i) => m.slice(1) === "00" && a[i].slice(1) !== "00");
}

/** True when a call's name (whole, last segment, or without leading `_`) says it checks. */
export function isCheckCall(call: string): boolean {
  return CHECK_CALL.test(call) || CHECK_CALL.test(lastName(call)) ||
    CHECK_CALL.test(bare(lastName(call)));
}

/** A name without leading underscores (`_should_handle` → `should_handle`). */
export function bare(name: string): string {
  return name.replace(/^_+/, "");
}

/** How many `&&`/`and` a condition holds. */
export function conjuncts(t: string): number {
  return (t.match(/&&|\band\b/g) ?? []).length;
}

/** How many comparisons a condition holds. */
export function compares(t: string): number {
  return (t.match(/===?|!==?|<=|>=|(?<![-=<])<(?![<=])|(?<![-=>])>(?![>=])|\bis\b/g) ?? []).length;
}

/** What a line assigns to a check-named variable (`ok = a and b`), else null. */
export function assigned(line: string): string | null {
  const m =
    /^\s*(?:const|let|var)?\s*[\w$.]*(verified|valid|allowed|authori[sz]ed|authenticated|permitted|trusted|ok|matches|same\w*|expired)\w*\s*=(?!=)\s*(.+?);?\s*$/i
      .exec(line);
  return m ? m[2] : null;
}

/** The kind of a header line: `if`, `elif`, `return`, `=` (a check assignment), … */
export function headKind(line: string): string | undefined {
  if (assigned(line) !== null && condition(line) === null) return "=";
  return /^\s*(?:}\s*)?(else\s+if|\w+)/.exec(line)?.[1];
}

/**
 * Whether the three lines after before-line `nb` and after-line `na` (1-based) are the same: a
 * branch header edited while its body stayed (an `if`/`else` swapped round moves its body too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameBody } from "./guard_text.ts";
 * assert.ok(sameBody(["if a:", "  raise X"], 1, ["if b:", "  raise X"], 1));
 * assert.ok(!sameBody(["if a:", "  raise X"], 1, ["if b:", "  return"], 1));
 * ```
 */
export function sameBody(
  bl: readonly string[],
  nb: number,
  al: readonly string[] | undefined,
  na: number,
): boolean {
  if (!al) return true;
  for (let k = 0; k < 3; k++) if ((bl[nb + k] ?? "") !== (al[na + k] ?? "")) return false;
  return true;
}

/** Two lines that start alike (the same statement, edited). */
export function similarStart(x: string, y: string): boolean {
  const a = x.trim();
  const b = y.trim();
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= Math.min(8, Math.min(a.length, b.length));
}

/** A line shortened for a finding's detail. */
export function clip(s: string): string {
  const t = s.trim();
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}

/** Share of the words of two lines they have in common (Jaccard). */
export function overlap(x: string, y: string): number {
  const a = new Set(x.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const b = new Set(y.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const both = [...a].filter((w) => b.has(w)).length;
  return both / Math.max(1, new Set([...a, ...b]).size);
}

/** Two lines that differ only around one token (the same setting with another value). */
export function similar(x: string, y: string): boolean {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  // (A long line edited in its middle, a flag's default before its help text, is similar too.)
  const shorter = Math.min(x.length, y.length);
  return (i >= shorter * 0.4 || (i >= 16 && i + j >= shorter * 0.8)) &&
    x.length - i - j <= 16 && y.length - i - j <= 16;
}

/**
 * The branch a header at before-line `n` opens, read after its condition closes (a condition may
 * run over lines): the code on the line it closes on, after it (`rest`, a one-line branch's
 * statement), and the code of up to `max` lines below, up to a line back at the header's
 * indentation (blank lines aside) or an `else`; null when the condition does not close within 12
 * lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { branchLines } from "./guard_text.ts";
 * const ls = ["  if (", "    !user", "  )", "    throw new Forbidden();", "  next();"];
 * assert.deepEqual(branchLines(ls, 1), { rest: "", body: ["throw new Forbidden();"] });
 * ```
 */
export function branchLines(
  lines: string[],
  n: number,
  max = 3,
): { rest: string; body: string[] } | null {
  const depth = /^\s*/.exec(lines[n - 1] ?? "")![0].length;
  const k = closingLine(lines, n);
  if (k === null) return null;
  const c = code(lines[k - 1]);
  const body: string[] = [];
  for (const t of lines.slice(k, k + max)) {
    if (t.trim() === "") continue;
    if (/^\s*/.exec(t)![0].length <= depth || /^\s*(}|else\b|elif\b)/.test(t)) break;
    body.push(code(t));
  }
  return { rest: c.replace(/^.*?\)\s*[{:]?\s*|^[^:]*:\s*/, ""), body };
}

/**
 * The code of the block a header at before-line `n` opens (the lines indented deeper, or up to
 * its closing brace; at most `max`) and of the few lines after it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blockOf } from "./guard_text.ts";
 * const ls = ["if (ok) {", "  return user", "}", "throw new Error('no')"];
 * assert.deepEqual(blockOf(ls, 1), { body: "return user", after: "throw new Error('no')" });
 * ```
 */
export function blockOf(lines: string[], n: number, max = 8): { body: string; after: string } {
  const head = lines[n - 1] ?? "";
  const at = head.length - head.trimStart().length;
  const body: string[] = [];
  let i = headerEnd(lines, n);
  for (; i < lines.length && body.length < max; i++) {
    const t = lines[i];
    if (t.trim() === "") continue;
    const ind = t.length - t.trimStart().length;
    if (ind <= at) {
      if (/^[}\])]/.test(t.trim())) i++; // the block's own closing line
      break;
    }
    body.push(code(t));
  }
  return { body: body.join("\n"), after: lines.slice(i, i + 3).map(code).join("\n") };
}

/**
 * The code of a header at line `n` with the lines its condition runs on over (see
 * {@link headerEnd}), joined by single spaces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headerText } from "./guard_text.ts";
 * assert.equal(headerText(["  if (", "    !user", "  ) {", "    deny();"], 1), "if ( !user ) {");
 * ```
 */
export function headerText(lines: string[], n: number): string {
  return lines.slice(n - 1, headerEnd(lines, n)).map((l) => code(l).trim()).join(" ");
}

/**
 * The 1-based line a header at line `n` ends on: a condition left open (`if (a &&`, `if (a and`,
 * a trailing backslash) runs on until its brackets close, within 12 lines. A header that opens
 * its block (`… {`, `… :`) ends where it stands, whatever it leaves open (`app.get(p, (req) => {`).
 */
function headerEnd(lines: string[], n: number): number {
  return closingLine(lines, n) ?? n;
}

/**
 * The 1-based line where a condition that starts at line `n` closes: its brackets balanced and
 * the line not ending in `&&`, `||`, `and`, `or` or a backslash (a condition without brackets runs
 * on there: Go, Python); a line that opens its block (`… {`, `… :`) closes it at `n`. Null when it
 * does not close within 12 lines.
 */
function closingLine(lines: string[], n: number): number | null {
  let open = 0;
  for (let k = n; k <= lines.length && k < n + 12; k++) {
    const c = code(lines[k - 1]).trimEnd();
    for (const ch of c) open += ch === "(" || ch === "[" ? 1 : ch === ")" || ch === "]" ? -1 : 0;
    const runsOn = RUNS_ON.test(c);
    if (k === n && /[{:]$/.test(c)) return n;
    if (open <= 0 && !runsOn) return k;
  }
  return null;
}
