/**
 * Line-level text helpers of the changed-line guard signals (`guard_lines.ts`): the changed hunks
 * of an edit, the definition a line sits in, conditions, calls and how two lines compare.
 *
 * @module
 */
import { diffArrays } from "diff";
import { PRIVILEGE_NAME } from "./guard_shape_vocab.ts";
import {
  CHECK_CALL,
  LOOPBACK_LISTENER,
  MAX_CHANGED,
  MAX_LINE,
  PERMISSIVE,
  PREDICATE,
  SECURE_RANDOM,
  SECURE_SETTING,
  SECURITY_HEADER,
  speaksSecurity,
  WEAKENING_TEST,
} from "./guard_vocab.ts";

/** Names of calls that narrow a query to what a user may see (checked by `guard_shapes.ts`). */
const SCOPING =
  /for_?user|visible_?to|accessible_?by|owned_?by|filter_?by_?(user|owner)|\b(filter|filter_by|where|Where|andWhere)\([^)\n]*\b(user|owner|tenant|org|account|team|workspace|creator|author)_?[iI][dD]\b|\b(find\w*|select\w*|filter\w*|where)\s*\(\s*\{[^}\n]*\b(status|type|state)\s*:|\b(find\w*|select\w*|filter\w*|where)\s*\(\s*\{[^}\n]*\b(user\w*|owner\w*|author\w*|tenant\w*|account\w*|creator\w*)\s*[,}]/i;

/** A verdict about access by its name (`accessResults`, `canAccessAdmin`), checked by `guard_shapes_flow.ts`. */
const ACCESS_VERDICT = /\b(access|can)(_|[A-Z])\w*|\w[a-z]Access(Results?)?\b/;

/** An allow-list given a wildcard (`FORWARDED_ALLOW_IPS = "*"`), checked by `guard_shapes_values.ts`. */
const WILDCARD_ALLOW = /(allow|trusted|origin|hosts?|ips?)\w*\W.*(['"])\*\2/i;

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
export const REQUESTER = /\b(request|req|ctx|g)\.user\b|\bcurrent_?user\b|\bcurrentUser\b/;

/**
 * Whether anything around an edit is about security (the path, the changed lines with a few
 * around, the function they sit in, a setting, a weakening word, a failure taken away): when it is
 * not, no changed-line signal can fire. Null when more than `MAX_CHANGED` lines changed on a side.
 * `span` is the changed span of the two, when the caller has made it already.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { securityAround } from "./guard_text.ts";
 * assert.equal(securityAround(["a = 1"], ["a = 2"], "lib/math.py"), false);
 * assert.equal(securityAround(["verify = True"], ["verify = False"], "lib/client.py"), true);
 * ```
 */
export function securityAround(
  before: string[],
  after: string[],
  path: string,
  span = changedSpan(before, after),
): boolean | null {
  const { start, endB, endA } = span;
  if (endB - start > MAX_CHANGED || endA - start > MAX_CHANGED) return null;
  return speaksAround(
    before,
    path,
    start,
    before.slice(start, endB),
    after.slice(start, endA),
  );
}

/**
 * Whether the lines of `before` from 0-based `start` that an edit replaced (`removed`, with the
 * `added` lines in their place) are about security: the test of {@link securityAround} for one
 * changed stretch.
 */
function speaksAround(
  before: string[],
  path: string,
  start: number,
  removed: string[],
  added: string[],
): boolean {
  const middle = [
    ...before.slice(Math.max(0, start - 3), start + removed.length + 2),
    ...added,
  ].join("\n");
  return speaksSecurity(path) || speaksSecurity(middle) || SECURE_SETTING.test(middle) ||
    REQUESTER.test(middle) ||
    WEAKENING_TEST.test(middle) || SECURITY_HEADER.test(middle) || PERMISSIVE.test(middle) ||
    SCOPING.test(middle) || WILDCARD_ALLOW.test(middle) || PRIVILEGE_NAME.test(middle) ||
    /\b(chmod|umask)\b/.test(middle) || ACCESS_VERDICT.test(middle) ||
    LOOPBACK_LISTENER.test(middle) || /skew|leeway|tolerance/i.test(middle) ||
    SECURE_RANDOM.test(middle) ||
    speaksSecurity(enclosing(before, start + 1)) ||
    PREDICATE.test(bare(enclosing(before, start + 1))) ||
    failureToSuccess(removed, added) || failureGone(removed, added);
}

/** The first differing line and the ends of the differing middle of both sides. */
function changedSpan(before: string[], after: string[]) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) (endB--, endA--);
  return { start, endB, endA };
}

/** The changed hunks of an edit where security is around it (see {@link securityAround}). */
export function hunks(before: string[], after: string[], path: string): Hunk[] {
  // Nothing of security around the change: no signal could fire (they all need a security
  // word in the path, the function, the changed lines, a setting's name or a weakening word).
  const span = changedSpan(before, after);
  const around = securityAround(before, after, path, span);
  const { start, endB, endA } = span;
  // Changes far apart in one file (an import and a function, 600 lines below) make a wide span:
  // it is diffed when it is not a rewrite, and read when a stretch of it is about security.
  const wide = around === null && endB - start + endA - start <= WIDE_SPAN &&
    fewChanged(before.slice(start, endB), after.slice(start, endA));
  if (around !== true && !wide) return [];
  const norm = (l: string) => l.trim();
  const parts = diffArrays(before.slice(start, endB).map(norm), after.slice(start, endA).map(norm));
  const out: Hunk[] = [];
  let b = start;
  let a = start;
  let cur: Hunk | null = null;
  for (const p of parts) {
    const k = p.value.length;
    if (!p.added && !p.removed) {
      cur = null;
      b += k;
      a += k;
      continue;
    }
    cur ??= (out.push({ removed: [], added: [], at: b + 1 }), out[out.length - 1]);
    for (let i = 0; i < k; i++) {
      if (p.removed) cur.removed.push({ text: before[b + i], n: b + i + 1 });
      else cur.added.push({ text: after[a + i], n: a + i + 1 });
    }
    if (p.removed) b += k;
    else a += k;
  }
  if (!wide) return out;
  const removedAll = out.reduce((n, h) => n + h.removed.length, 0);
  const addedAll = out.reduce((n, h) => n + h.added.length, 0);
  // (Many changes spread over a file are a release or a rewrite, not an edit to read.)
  if (removedAll + addedAll > WIDE_CHANGED) return [];
  const about = out.some((h) =>
    speaksAround(
      before,
      path,
      (h.removed[0]?.n ?? h.at ?? 1) - 1,
      h.removed.map((l) => l.text),
      h.added.map((l) => l.text),
    )
  );
  return about ? out : [];
}

/**
 * Whether two stretches differ in at most {@link WIDE_CHANGED} lines, counted as lines one side
 * lacks anywhere in the other (a bound on what a diff finds, without diffing: a release's wide
 * span is turned away before the diff would cost anything).
 */
function fewChanged(b: string[], a: string[]): boolean {
  // (Sides that differ in length by more already differ in more lines.)
  if (Math.abs(b.length - a.length) > WIDE_CHANGED) return false;
  let n = 0;
  const lacks = (xs: string[], ys: string[]) => {
    const have = new Set(ys.map((l) => l.trim()));
    for (const l of xs) if (!have.has(l.trim()) && ++n > WIDE_CHANGED) return false;
    return true;
  };
  return lacks(b, a) && lacks(a, b);
}

/** The widest changed span (lines of both sides) diffed when its changes are far apart. */
const WIDE_SPAN = 6000;
/** The most changed lines (both sides) such a span may hold. */
const WIDE_CHANGED = 16;

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
  let depth = ind(lines[n - 1] ?? "");
  for (let i = Math.min(n - 2, lines.length - 1); i >= 0 && i >= n - 400; i--) {
    const l = lines[i];
    // The closing line of a multi-line signature (`) -> bool:`) belongs to the def above it.
    if (l.trim() === "" || ind(l) >= depth || /^\s*[)\]]/.test(l)) continue;
    depth = ind(l);
    const m =
      /^\s*(?:export\s+)?(?:async\s+)?(?:def\b|function\b\*?|func\b|class\b|fn\b)\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/
        .exec(l) ??
        /^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*(?:[A-Za-z_$][\w$]*\.)*#?([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>)|\([^)]*\)\s*(?::[^={]*)?\{)/
          .exec(l) ??
        /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/.exec(l);
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

/** A change that flips a deny to an allow, or drops a verifying word from a name. */
export function weakerName(rc: string, ac: string): [string, string] | null {
  const words = (t: string): string[] => t.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const wb = words(rc);
  const wa = new Set(words(ac));
  const gone = wb.filter((w) => !wa.has(w));
  const fresh = [...wa].filter((w) => !wb.includes(w));
  for (const g of gone) {
    if (/den(y|ied)|reject|forbid|refuse|unauthori/i.test(g)) {
      const f = fresh.find((x) => /allow|accept|permit|grant|authori[sz]ed/i.test(x));
      if (f) return [g, f];
    }
    // A prefix or suffix check made a substring check (`startsWith` → `includes`).
    // (Python's `in` and `find` also test a list or a position: left alone; both are calls.)
    if (
      /^(startsWith|startswith|hasPrefix|HasPrefix|endsWith|endswith|hasSuffix|HasSuffix)$/.test(g)
    ) {
      const f = fresh.find((x) => /^(includes|contains|Contains)$/.test(x));
      if (f && new RegExp(`[.\\s]${g}\\(`).test(rc) && new RegExp(`[.\\s]${f}\\(`).test(ac)) {
        return [g, f];
      }
    }
    // A pattern matched anywhere instead of from the start (`re.match` → `re.search`).
    if (/^(full)?match$/.test(g) && fresh.includes(g === "match" ? "search" : "match")) {
      return [g, g === "match" ? "search" : "match"];
    }
    const m =
      /^(.*?)(Signed|Verified|Verify|Secure|Strict|Safe|Checked|Check|Validated|Validate|Trusted|Https|HTTPS|Tls|TLS|Ssl|SSL|SIGNED|VERIFIED|SECURE|STRICT|SAFE|CHECKED|VALIDATED|TRUSTED)(.*)$/
        .exec(g);
    if (m && fresh.includes(m[1] + m[3]) && m[1] + m[3] !== "") return [g, m[1] + m[3]];
    // snake_case: `get_secure_cookie` → `get_cookie`, `verify_signed_token` → `verify_token`.
    const snake = g.replace(
      /_(signed|secure|verified|safe|strict|checked|validated|trusted)(?=_|$)/i,
      "",
    );
    if (snake !== g && fresh.includes(snake)) return [g, snake];
  }
  return null;
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

/** A `throw`/`raise` on one side where the other side exits with success. */
function failureToSuccess(removed: string[], added: string[]): boolean {
  return removed.some((l) => /^\s*(throw|raise)\b/.test(l)) &&
    added.some((l) =>
      /^\s*(return\s+(true|True|Promise\.resolve\(|next\()|(await\s+)?resolve\(|next\(\))/.test(l)
    );
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
    const runsOn = /(&&|\|\||\band|\bor|\\)$/.test(c);
    if (k === n && /[{:]$/.test(c)) return n;
    if (open <= 0 && !runsOn) return k;
  }
  return null;
}

/**
 * The code of the first line of the statement before-line `n` continues (lines ending in `&&`,
 * `=`, `(`…).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statementHead } from "./guard_text.ts";
 * assert.equal(statementHead(["const on =", "  a &&", "  b"], 3), "const on =");
 * ```
 */
export function statementHead(lines: string[], n: number): string {
  let k = n;
  while (k > 1 && n - k < 12 && /(&&|\|\||[=(,]|\band|\bor)$/.test(code(lines[k - 2] ?? ""))) k--;
  return code(lines[k - 1] ?? "");
}

/** A failure statement (raise, throw, an error handed on) the other side no longer has. */
function failureGone(removed: string[], added: string[]): boolean {
  const kept = new Set(added.map((l) => l.trim()));
  return removed.some((l) => {
    const t = l.trim();
    return !kept.has(t) &&
      /^(raise|throw)\b|\b(next|done|callback|cb|reject)\(\s*(new\s+\w+|err\w*|error)\b|^return\s+\w*(fail|deny|reject|unauthori|forbid)\w*\(/i
        .test(t);
  });
}
