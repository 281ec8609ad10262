/**
 * The parser path of the inspector: parses the before- and after-text of one file, lists the
 * guard facts of each (see `structure.ts`) and turns the drops into findings naming the construct
 * and the line. A file the parser cannot take (unknown language, binary, too large, parsers not
 * loaded yet) yields no findings and a note; the regular-expression rules still run on it.
 *
 * @module
 */
import type { Finding, Severity } from "./types.ts";
import { changedRanges, type Grammar, grammarOf, parse, parseShared } from "./parser.ts";
import { windowOf } from "./structure_window.ts";
import { changedStatements, fileNewLines, splitLangOf, type Statement } from "./chunk.ts";
import { type GuardFact, type GuardRuleId, guardScan } from "./structure.ts";
import { describeMissing, guardDrops } from "./structure_diff.ts";
import { errorMessage } from "../core/errors.ts";

const SUBJECT: Record<GuardRuleId, string> = {
  "auth-check-removed": "auth checks",
  "crypto-verification-removed": "verifications",
  "tls-check-removed": "TLS checks",
  "secure-default-weakened": "secure defaults",
};

const LOWER: Record<Severity, Severity> = { high: "medium", medium: "low", low: "low" };

/** Facts of one text, or why there are none. */
function factsOf(
  text: string | null,
  g: Grammar,
  base?: string | null,
  range?: [number, number],
  lineOffset = 0,
): { facts: GuardFact[]; defs?: Set<string>; note?: string; syntaxError?: boolean } {
  if (text === null || text === "") return { facts: [] };
  const r = parseShared(text, g, base);
  if (!r.ok) return { facts: [], note: r.reason };
  try {
    const { facts, defs } = guardScan(r.root, g, range);
    if (lineOffset) { for (const f of facts) f.line += lineOffset; }
    return { facts, defs, syntaxError: r.hasError };
  } catch (e) {
    return { facts: [], note: `structure walk failed: ${errorMessage(e)}` };
  } finally {
    r.release();
  }
}

/** A changed statement, with the statement it replaced when the two share their first line. */
interface Piece {
  st: Statement;
  /** The other side's version of the statement, when paired. */
  other?: Statement;
}

/**
 * Pairs the changed statements of both sides by their first line (a function edited inside keeps
 * its header): a pair is parsed incrementally and walked only where the two versions differ.
 */
function pairUp(bs: Statement[], as: Statement[]): { b: Piece[]; a: Piece[] } {
  const head = (st: Statement) => st.text.slice(0, st.text.indexOf("\n") + 1 || undefined);
  const free = new Map<string, Statement[]>();
  for (const st of bs) {
    const k = head(st);
    const list = free.get(k);
    if (list) list.push(st);
    else free.set(k, [st]);
  }
  const a: Piece[] = [];
  const pairOf = new Map<Statement, Statement>();
  for (const st of as) {
    const other = free.get(head(st))?.shift();
    if (other) pairOf.set(other, st);
    a.push({ st, other });
  }
  return { b: bs.map((st) => ({ st, other: pairOf.get(st) })), a };
}

/** Facts of changed statements; `before` says which side the pieces are from. */
function factsOfPieces(pieces: Piece[], g: Grammar, before: boolean): ReturnType<typeof factsOf> {
  const facts: GuardFact[] = [];
  let syntaxError = false;
  for (const { st, other } of pieces) {
    const ranges = other
      ? (before ? changedRanges(st.text, other.text) : changedRanges(other.text, st.text))
      : null;
    const range = ranges ? (before ? ranges.a : ranges.b) : undefined;
    // A large statement edited inside: a window around the change is parsed first, and when it
    // parses cleanly and holds no fact there, neither does the whole statement.
    const w = range ? windowOf(st.text, range, g) : null;
    if (w && range) {
      const wr = parse(w.text, g);
      if (wr.ok) {
        try {
          if (
            !wr.hasError &&
            guardScan(wr.root, g, w.range, { text: st.text, range }).facts.length === 0
          ) continue;
        } catch {
          // the whole statement is parsed below
        } finally {
          wr.release();
        }
      }
    }
    // The before-version is parsed first (and cached), so its after-version re-parses from it.
    const r = other && !before ? parseShared(st.text, g, other.text) : parseShared(st.text, g);
    if (!r.ok) return { facts: [], note: r.reason };
    try {
      for (const f of guardScan(r.root, g, range).facts) {
        f.line += st.line;
        facts.push(f);
      }
      syntaxError ||= r.hasError;
    } catch (e) {
      return { facts: [], note: `structure walk failed: ${errorMessage(e)}` };
    }
  }
  return { facts, syntaxError };
}

/**
 * Structural guard findings for one file, with notes on fallbacks.
 *
 * @example
 * ```ts
 * import { loadParsers } from "./parser.ts";
 * await loadParsers();
 * const b = "def v(request):\n    if not request.user.is_staff:\n        raise PermissionDenied\n    return ok()\n";
 * const r = structuralFindings("views.py", b, "def v(request):\n    return ok()\n", false);
 * r.findings[0].rule; // "auth-check-removed"
 * ```
 */
export function structuralFindings(
  path: string,
  before: string | null,
  after: string | null,
  test: boolean,
): { findings: Finding[]; notes: string[] } {
  const g = grammarOf(path);
  if (g === null) return { findings: [], notes: [] }; // other languages: regular expressions only
  // Only nodes overlapping the changed span can differ; facts elsewhere are the same on both
  // sides and cancel out, so both walks skip them (counts stay per file).
  const ranges = before !== null && after !== null ? changedRanges(before, after) : null;
  // Nothing guard-like in or around the changed lines of either side: no fact can differ, and
  // neither side needs parsing (most ordinary edits).
  if (
    ranges && !GUARD_HINT.test(around(before!, ranges.a)) &&
    !GUARD_HINT.test(around(after!, ranges.b))
  ) return { findings: [], notes: [] };
  // Parse only the top-level statements one side holds and the other does not: the rest is
  // identical on both sides, so its facts cancel out (moves and reorderings included).
  let b: ReturnType<typeof factsOf>;
  let a: ReturnType<typeof factsOf>;
  if (ranges) {
    const d = changedStatements(before!, after!, splitLangOf(path));
    // A statement whose text holds no guard vocabulary cannot hold a fact, and a statement
    // edited inside whose changed lines (with their neighbours and the block headers above them)
    // hold none keeps its facts: skip those unparsed.
    const p = pairUp(d.before, d.after);
    const decided = new Map<Statement, boolean>();
    // Which lines of each side the other side lacks anywhere, once for the whole file.
    const nb = fileNewLines(before!, after!);
    const na = fileNewLines(after!, before!);
    const freshB = { fresh: nb.fresh, lines: nb.lines };
    const freshA = {
      get fresh() {
        return na.fresh;
      },
      lines: na.lines,
    };
    const needed = (x: Piece, side: "b" | "a") => {
      if (!x.other) return GUARD_HINT.test(x.st.text);
      const known = decided.get(x.other);
      if (known !== undefined) return known;
      const [own, theirs] = side === "b" ? [freshB, freshA] : [freshA, freshB];
      // The other version's context is made only when this one's says nothing.
      const cx = changedContext(x.st, own);
      let yes = GUARD_HINT.test(cx);
      let cy = "";
      if (!yes) {
        cy = changedContext(x.other, theirs);
        yes = GUARD_HINT.test(cy);
      }
      if (!yes && cx === "" && cy === "") {
        // Every changed line is also elsewhere on the other side (a duplicated block deleted or
        // added): look at the changed span itself.
        const r = changedRanges(x.st.text, x.other.text);
        yes = !!r && (GUARD_HINT.test(around(x.st.text, r.a)) ||
          GUARD_HINT.test(around(x.other.text, r.b)));
      }
      decided.set(x.st, yes);
      return yes;
    };
    const pb = p.b.filter((x) => needed(x, "b"));
    const pa = p.a.filter((x) => needed(x, "a"));
    // What has to be looked at: a whole statement one side lacks, and of a statement edited
    // inside, the span between its common prefix and suffix (one method of a large class is
    // parsed incrementally and walked only there).
    const size = (ps: Piece[]) =>
      ps.reduce((n, x) => {
        if (!x.other) return n + x.st.text.length;
        const r = changedRanges(x.st.text, x.other.text);
        return n + (r ? r.a[1] - r.a[0] : x.st.text.length);
      }, 0);
    if (Math.max(size(pb), size(pa)) > MAX_CHANGED_CHARS) {
      const note = `${path || "(input)"}: the edit changes more than ${MAX_CHANGED_CHARS} ` +
        "characters of guard-related code; not parsed, regular expressions only";
      return { findings: [], notes: [note] };
    }
    b = factsOfPieces(pb, g, true);
    a = b.facts.length === 0 && !b.note ? { facts: [] } : factsOfPieces(pa, g, false);
  } else {
    b = factsOf(before, g);
    // Nothing to lose: the after-text need not be walked (unless the before failed to parse).
    a = b.facts.length === 0 && !b.note ? { facts: [] } : factsOf(after, g, before);
  }
  const notes: string[] = [];
  const name = path || "(input)";
  const reason = b.note ?? a.note;
  if (reason?.startsWith("parser not loaded (not started")) return { findings: [], notes };
  if (reason) {
    notes.push(`${name}: not parsed (${reason}); regular expressions only`);
    return { findings: [], notes };
  }
  if (b.syntaxError || a.syntaxError) {
    notes.push(`${name}: parsed with syntax errors (${b.syntaxError ? "before" : "after"})`);
  }
  const findings: Finding[] = [];
  let defs: Set<string> | null = null;
  for (const d of guardDrops(b.facts, a.facts)) {
    let severity: Severity = d.high ? "high" : "medium";
    const extra: string[] = [];
    defs ??= after !== null ? defsOf(after, g) : new Set();
    const ds = defs;
    const gone = d.missing.length > 0 && after !== null &&
      d.missing.every((f) => f.scope !== "" && !stillDefined(f.scope, ds, before, g));
    if (gone) {
      severity = LOWER[severity];
      extra.push("inside definitions the edit removed: implementation moved or dropped");
    }
    if (after === null) {
      severity = LOWER[severity];
      extra.push("file deleted");
    }
    if (test) {
      severity = LOWER[severity];
      extra.push("test code");
    }
    const first = d.missing[0];
    const detail = d.missing.slice(0, 3).map((f) => describeMissing(f, path)).join("; ");
    findings.push({
      rule: d.rule,
      severity,
      path,
      before: d.before,
      after: d.after,
      message: `${SUBJECT[d.rule]} removed: ${d.before} → ${d.after}${
        extra.length ? ` (${extra.join("; ")})` : ""
      } — ${detail}`,
      line: first?.line,
      detail,
    });
  }
  return { findings, notes };
}

/**
 * Above this many characters of changed statements to parse on either side (a rewrite, a release
 * diff, a regenerated bundle rather than an edit), the parser is skipped and the regular
 * expressions alone count, with a note. A typical edit changes a few hundred characters.
 */
export const MAX_CHANGED_CHARS = 20_000;

/** Words that any guard fact's construct contains (a superset of the structural vocabulary). */
const GUARD_HINT =
  /auth|perm|login|logged|csrf|xsrf|passw|pwd|verif|valid|token|sign|cert|secur|admin|staff|superuser|owner|role|jwt|session|40[13]|forbid|denied|deny|unauthori|strict|required|require|ensure|enforce|check|digest|compare|equal|hostname|fingerprint|cookie|credential|secret|ssl|tls|expir|claim|issuer|audience|\balg|\bexp\b|\biss\b|\baud\b|\bnbf\b|\biat\b|middleware|guard|restrict|protect|allow|access|scope|user_passes|is_?active|banned|locked|anonymous|reject|http_?only|CERT_|VERIFY_|mfa|otp|nonce|hmac|kid\b|user|account|identity|principal|active|key|sudo|rbac|acl|origin|refer|trust|\bhosts?\b|xsrf/i;

/**
 * The lines of statement `st` its file's other version lacks (`fresh`: the flags of every line of
 * the file), each with three lines around and the header lines of the blocks it sits in (the
 * nearest less-indented line above, up to column zero).
 */
function changedContext(
  st: Statement,
  file: { readonly fresh: Uint8Array; readonly lines: readonly string[] },
): string {
  // The statement's lines are the file's (no split): `n` of them, the last one empty when the
  // statement ends with a line break.
  let n = 1;
  for (let i = st.text.indexOf("\n"); i >= 0; i = st.text.indexOf("\n", i + 1)) n++;
  const endsNl = st.text.endsWith("\n");
  const line = (i: number) => (endsNl && i === n - 1 ? "" : file.lines[st.line + i]);
  const fresh = file.fresh.subarray(st.line, st.line + n);
  const keep = new Uint8Array(n);
  const header = new Uint8Array(n);
  // Indents are asked for again and again while walking up from each changed line: once each.
  const indents = new Int32Array(n).fill(-1);
  const lengths = new Int32Array(n).fill(-1);
  const len = (j: number) => lengths[j] >= 0 ? lengths[j] : (lengths[j] = line(j).length);
  const indent = (j: number) => indents[j] >= 0 ? indents[j] : (indents[j] = indentOf(line(j)));
  for (let i = fresh.indexOf(1); i >= 0 && i < n; i = fresh.indexOf(1, i + 1)) {
    keep.fill(1, Math.max(0, i - 3), Math.min(n, i + 4));
    const own = indent(i);
    let level = own === len(i) ? Infinity : own;
    for (let j = i - 1; j >= 0 && level > 0; j--) {
      const k = indent(j);
      if (k === len(j)) continue; // blank
      if (k < level) {
        if (header[j]) break; // its own headers are in already
        keep[j] = header[j] = 1;
        level = k;
      }
    }
  }
  const out: string[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(line(i));
  return out.join("\n");
}

/** The width of a line's leading white space (its length when the line is blank). */
function indentOf(l: string): number {
  let k = 0;
  for (let c = l.charCodeAt(0); c === 32 || c === 9 || c === 13 || c === 12; c = l.charCodeAt(++k));
  return k;
}

/** The lines holding `range` of `text`, with three lines around. */
function around(text: string, range: readonly [number, number]): string {
  let s = range[0] === 0 ? 0 : text.lastIndexOf("\n", range[0] - 1) + 1;
  for (let k = 0; k < 3 && s > 0; k++) s = text.lastIndexOf("\n", s - 2) + 1;
  let e = text.indexOf("\n", range[1]);
  for (let k = 0; k < 3 && e >= 0; k++) e = text.indexOf("\n", e + 1);
  return text.slice(s, e < 0 ? text.length : e);
}

/**
 * Definitions by language, as the parser's scopes know them: Python `def`/`class`, JS/TS function
 * declarations, classes and methods, Go `func` (with receivers). A function expression assigned
 * to a name is not a definition here, as it is not a scope of its own for the walk either.
 */
const DEF_NAMES: Record<"python" | "js" | "go", RegExp> = {
  python: /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)/gm,
  js:
    /\b(?:function\*?|class)\s+([\w$]+)|^[ \t]*(?:(?:public|private|protected|static|async|get|set|override|readonly)\s+)*([\w$]+)\s*(?:<[^>\n]*>)?\([^)\n]*\)\s*(?::[^{;\n]*)?\{/gm,
  go: /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/gm,
};

/**
 * The names (last segment) of every definition of a text, found by regular expressions: asked
 * only when a drop needs the "moved or dropped" check, and far cheaper than parsing a whole
 * file. A name defined anywhere counts as still there (the conservative side: the finding stays
 * high).
 */
function defsOf(text: string, g: Grammar): Set<string> {
  const re = DEF_NAMES[g === "python" ? "python" : g === "go" ? "go" : "js"];
  const out = new Set<string>();
  for (const m of text.matchAll(re)) out.add(m[1] ?? m[2]);
  for (const m of text.matchAll(CLASS_NAMES)) out.add(`class ${m[1]}`);
  return out;
}

const CLASS_NAMES = /^[ \t]*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)/gm;

/**
 * Whether the function a missing fact sat in (`Class.method`) is still defined after the edit:
 * its own name is, and the class it was in (when the before-text defined that class) is too.
 */
function stillDefined(scope: string, after: Set<string>, before: string | null, g: Grammar) {
  const parts = scope.split(".");
  if (!after.has(parts[parts.length - 1])) return false;
  if (parts.length < 2 || before === null) return true;
  const owner = parts[0];
  const defsBefore = beforeDefs?.text === before ? beforeDefs.defs : defsOf(before, g);
  beforeDefs = { text: before, defs: defsBefore };
  return !defsBefore.has(`class ${owner}`) || after.has(`class ${owner}`);
}

let beforeDefs: { text: string; defs: Set<string> } | null = null;
