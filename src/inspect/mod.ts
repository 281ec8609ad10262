/**
 * The inspector: for each changed file, counts every rule's matches before and after the edit.
 * Guard rules fire when the count drops (a check the file stopped containing); pattern rules fire
 * when it rises (dangerous text the file started containing). An in-place edit that keeps the
 * count is silent: that is what keeps the noise down.
 *
 * Pure: no I/O. The guard calls {@link inspectChanges} on write/edit previews and feeds `risk` and
 * `maxSeverity` to the policy; the terminal shows {@link formatFinding}.
 *
 * @module
 */
import type { FileChange } from "../core/tool.ts";
import { errorMessage } from "../core/errors.ts";
import { type Finding, GUARD_FAMILY, type InspectResult, type Severity } from "./types.ts";
import type { Rule } from "./rule_types.ts";
import { isTestPath, langOf, SHAPES_ONLY_FILE, stripComments } from "./count.ts";
import { structuralFindings } from "./structural_findings.ts";
import { lineGuardFindings } from "./guard_lines.ts";
import { changedStatements, type SplitLang, splitLangOf } from "./chunk.ts";
import { HARDCODED_SECRET } from "./rules_secrets.ts";
import { TLS_VERIFY_DISABLED } from "./rules_tls.ts";
import { AUTH_BYPASS_ADDED, AUTH_CHECK_REMOVED } from "./rules_auth.ts";
import { CRYPTO_VERIFICATION_DISABLED, CRYPTO_VERIFICATION_REMOVED } from "./rules_crypto.ts";
import {
  DEBUG_ENABLED,
  PERMISSIVE_CORS,
  SHELL_INJECTION,
  UNSAFE_DESERIALIZATION,
} from "./rules_misc.ts";

export type { Finding, InspectResult, Severity } from "./types.ts";
export type { Lang, Rule, RuleExample, RuleMode } from "./rule_types.ts";
export { loadParsers, parserStatus } from "./parser.ts";

/** Every rule, in reporting order. */
export const RULES: readonly Rule[] = [
  HARDCODED_SECRET,
  TLS_VERIFY_DISABLED,
  AUTH_CHECK_REMOVED,
  CRYPTO_VERIFICATION_REMOVED,
  CRYPTO_VERIFICATION_DISABLED,
  SHELL_INJECTION,
  AUTH_BYPASS_ADDED,
  UNSAFE_DESERIALIZATION,
  PERMISSIVE_CORS,
  DEBUG_ENABLED,
];

/** Options of {@link inspectText} and {@link inspectChanges}. */
export interface InspectOptions {
  /**
   * The workspace the (absolute) paths live in. Only the part inside it decides whether a file
   * is test code; without it, an absolute path is judged by its parent folder and name only.
   */
  root?: string;
}

/** Files larger than this are counted on their first MAX_CHARS characters only. */
export const MAX_CHARS = 4_000_000;

const LOWER: Record<Severity, Severity> = { high: "medium", medium: "low", low: "low" };
const RANK: Record<Severity, number> = { high: 3, medium: 2, low: 1 };

function clip(text: string | null): string {
  if (text === null) return "";
  return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
}

/**
 * Findings for one file. `before`/`after` null mean the file does not exist before / after.
 * An empty `path` means "unknown language": every rule is counted with every language's patterns.
 * Findings in test code and fixtures are reported one severity lower (see `isTestPath`), and so
 * are dropped guards that sat inside verifier definitions the edit removed (an implementation
 * moved elsewhere, which its callers would notice) rather than in code that still runs, and
 * guards "removed" by deleting the whole file (the code they guarded is gone too).
 *
 * @example
 * ```ts
 * const f = inspectText("pay.py", "@login_required\ndef pay(): ...\n", "def pay(): ...\n");
 * f[0].rule; // "auth-check-removed"
 * [f[0].before, f[0].after]; // [1, 0]
 * ```
 */
export function inspectText(
  path: string,
  before: string | null,
  after: string | null,
  opts: InspectOptions = {},
): Finding[] {
  return inspectTextNoted(path, before, after, opts).findings;
}

/**
 * {@link inspectText} with the notes on how the file was inspected: whether the parser was used
 * or the inspector fell back to regular expressions (and why: binary, too large, not loaded),
 * and whether the parse met syntax errors. Never throws on any input.
 *
 * @example
 * ```ts
 * const r = inspectTextNoted("a.bin", "x\0y", "x\0z");
 * r.notes; // ["a.bin: binary content, not inspected"]
 * ```
 */
export function inspectTextNoted(
  path: string,
  before: string | null,
  after: string | null,
  opts: InspectOptions = {},
): { findings: Finding[]; notes: string[] } {
  if (before === after) return { findings: [], notes: [] };
  if (before?.includes("\0") || after?.includes("\0")) {
    return { findings: [], notes: [`${path || "(input)"}: binary content, not inspected`] };
  }
  // The parser path first: the secret scan re-parses a statement it changed incrementally.
  const s = structuralFindings(path, before, after, isTestPath(path, opts.root));
  const fell = new Set<string>();
  const out = regexFindings(path, before, after, opts, fell);
  for (const f of s.findings) {
    const same = out.find((x) => x.rule === f.rule);
    if (same) {
      same.line ??= f.line;
      same.detail ??= f.detail;
      if (f.detail) same.message += ` — ${f.detail}`;
      if (RANK[f.severity] > RANK[same.severity]) same.severity = f.severity;
    } else out.push(f);
  }
  // Broad signals from the changed lines, at medium, where no finding of the rule exists yet.
  const notes = s.notes;
  if (
    before !== null && after !== null && (CODE_FILE.test(path) || SHAPES_ONLY_FILE.test(path)) &&
    !NOT_SETTINGS.test(path)
  ) {
    const test = isTestPath(path, opts.root);
    let lines: Finding[] = [];
    try {
      lines = lineGuardFindings(path, clip(before), clip(after));
    } catch (e) {
      // A signal that trips on odd input must not cost the findings above.
      notes.push(`${path || "(input)"}: changed-line signals skipped (${errorMessage(e)})`);
    }
    // (The learned signal is a fallback: where a counted guard finding already names the edit,
    // it would only say the same thing again; where the edit takes away a place that switches a
    // protection off, `verify=False`, its words read the wrong way round.)
    const guarded = out.some((x) => GUARD_FAMILY.has(x.rule)) ||
      [...fell].some((r) => GUARD_FAMILY.has(r));
    for (const f of lines) {
      if (out.some((x) => x.rule === f.rule)) continue;
      if (guarded && f.detail?.includes("learned signal")) continue;
      out.push(
        test ? { ...f, severity: LOWER[f.severity], message: `${f.message} (test code)` } : f,
      );
    }
  }
  return { findings: out, notes };
}

/** Source files the changed-line signals read (not prose or data); templates and JSON settings
 * too ({@link SHAPES_ONLY_FILE}). */
const CODE_FILE =
  /\.(py|pyw|js|mjs|cjs|jsx|ts|mts|cts|tsx|coffee|go|rb|java|kt|php|rs|cs|scala|swift|ya?ml|toml|ini|cfg|conf|properties)(\.in)?$/i;

/** JSON that configures tools or holds translations, not what a program trusts: a compiler's
 * `strict`, an editor's `validate`, a message naming `allow_all_…`. */
const NOT_SETTINGS =
  /(^|[\\/])(tsconfig[^\\/]*|jsconfig[^\\/]*|\.eslintrc[^\\/]*|\.prettierrc[^\\/]*|package\.json|package-lock\.json|composer\.json|[^\\/]*\.schema\.json)$|(^|[\\/])(\.vscode|\.claude-plugin|locales?|i18n|messages|translations|lang)[\\/][^\\/]*\.json5?c?$/i;

/** The counted rules' findings; `fell` gathers the pattern rules whose count fell. */
function regexFindings(
  path: string,
  before: string | null,
  after: string | null,
  opts: InspectOptions,
  fell: Set<string> = new Set(),
): Finding[] {
  const lang = langOf(path);
  const test = isTestPath(path, opts.root);
  const raw = { before: clip(before), after: clip(after) };
  // Whole texts without comments, made only when a rule needs them (most edits need none).
  let stripped: Pair | null = null;
  const code = (): Pair =>
    lang === null ? raw : stripped ??= {
      before: stripComments(raw.before, lang),
      after: stripComments(raw.after, lang),
    };
  const out: Finding[] = [];
  const delta: { code?: Pair | null; raw?: Pair | null } = {};
  for (const rule of RULES) {
    if (lang !== null && !rule.langs.includes(lang)) continue;
    const textOf = () => rule.codeOnly ? code() : raw;
    let text = raw;
    // No path to go by: count as every language the rule knows.
    const count = (t: string) =>
      t === ""
        ? 0
        : lang !== null
        ? rule.count(t, lang)
        : rule.langs.reduce((n, l) => n + rule.count(t, l), 0);
    let b: number;
    let a: number;
    let fires: boolean;
    let located: { line: number; detail: string } | null = null;
    if (rule.items && lang !== null) {
      text = textOf();
      // A new value can only be in the changed lines of the after-text: scan those (with a few
      // lines around, for multi-line keys), and call a value new when the before-text lacks it.
      const ai = text.after === ""
        ? []
        : rule.items(text.after, lang, path, undefined, text.before || undefined);
      const added = ai.filter((x) => !text.before.includes(x.value));
      [b, a, fires] = [ai.length - added.length, ai.length, added.length > 0];
      if (fires) {
        const file = path.split(/[\\/]/).pop() || path;
        located = {
          line: added[0].line,
          detail: added.slice(0, 3).map((x) => `${x.label} added (${file}:${x.line})`).join("; "),
        };
      }
    } else {
      // Counts are sums over top-level statements, and the statements both sides hold cancel
      // out: a rule whose count does not move on the changed statements cannot fire, so the
      // whole texts are counted only when it does (for the numbers the finding reports).
      if (delta.raw === undefined) delta.raw = changedOnly(raw, splitLangOf(path));
      const dr = delta.raw;
      if (rule.codeOnly && delta.code === undefined) {
        delta.code = dr === null || lang === null
          ? dr
          : { before: stripComments(dr.before, lang), after: stripComments(dr.after, lang) };
      }
      const d = rule.codeOnly ? delta.code : dr;
      if (d) {
        const [cb, ca] = [count(d.before), count(d.after)];
        if (rule.mode === "pattern" && ca < cb) fell.add(rule.id);
        if (!moves(rule.mode, cb, ca)) continue;
      }
      text = textOf();
      b = count(text.before);
      a = count(text.after);
      if (rule.mode === "pattern" && a < b) fell.add(rule.id);
      fires = moves(rule.mode, b, a);
    }
    if (!fires) continue;
    let severity = rule.severity;
    const notes: string[] = [];
    if (rule.mode === "guard" && lang !== null && rule.inRemovedDefinitions) {
      const moved = rule.inRemovedDefinitions(text.before, text.after, lang);
      if (moved > 0 && a >= b - moved) {
        severity = LOWER[severity];
        notes.push("inside definitions the edit removed: implementation moved or dropped");
      }
    }
    if (rule.mode === "guard" && after === null) {
      // The guarded code went with its guard; a move shows up as this plus a new file.
      severity = LOWER[severity];
      notes.push("file deleted");
    }
    if (test) {
      severity = LOWER[severity];
      notes.push("test code");
    }
    const verb = rule.mode === "guard" ? "removed" : "added";
    out.push({
      rule: rule.id,
      severity,
      path,
      before: b,
      after: a,
      message: `${rule.subject} ${verb}: ${b} → ${a}${
        notes.length ? ` (${notes.join("; ")})` : ""
      }${located ? ` — ${located.detail}` : ""}`,
      ...(located ? located : {}),
    });
  }
  return out;
}

type Pair = { before: string; after: string };

function moves(mode: Rule["mode"], before: number, after: number): boolean {
  return mode === "guard" ? after < before : after > before;
}

/**
 * The top-level statements each side holds and the other does not, joined; null when an edit
 * creates or deletes the file (nothing to cancel) or when too little cancels to be worth it.
 */
function changedOnly(p: Pair, lang: SplitLang): Pair | null {
  if (p.before === "" || p.after === "") return null;
  const d = changedStatements(p.before, p.after, lang);
  const join = (sts: { text: string }[]) => sts.map((st) => st.text).join("");
  const out = { before: join(d.before), after: join(d.after) };
  return out.before.length + out.after.length > 0.8 * (p.before.length + p.after.length)
    ? null
    : out;
}

/**
 * The risk of an action from its findings, 0–100: the highest severity sets the base (high 70,
 * medium 40, low 15) and every further finding adds 10.
 *
 * @example
 * ```ts
 * riskOf([]); // 0
 * ```
 */
export function riskOf(findings: readonly Finding[]): number {
  if (findings.length === 0) return 0;
  const top = maxSeverityOf(findings)!;
  const base = { high: 70, medium: 40, low: 15 }[top];
  return Math.min(100, base + 10 * (findings.length - 1));
}

/**
 * The highest severity among findings, or null.
 *
 * @example
 * ```ts
 * maxSeverityOf([]); // null
 * ```
 */
export function maxSeverityOf(findings: readonly Finding[]): Severity | null {
  let top: Severity | null = null;
  for (const f of findings) if (top === null || RANK[f.severity] > RANK[top]) top = f.severity;
  return top;
}

/**
 * Inspects every change of one action.
 *
 * @example
 * ```ts
 * const r = inspectChanges([{ path: "/w/a.py", before: "", after: "requests.get(u, verify=False)\n" }]);
 * r.maxSeverity; // "high"
 * r.risk; // 70
 * ```
 */
export function inspectChanges(
  changes: readonly FileChange[],
  opts: InspectOptions = {},
): InspectResult {
  const findings: Finding[] = [];
  const notes: string[] = [];
  for (const c of changes) {
    const r = inspectTextNoted(c.path, c.before, c.after, opts);
    findings.push(...r.findings);
    notes.push(...r.notes);
  }
  const result: InspectResult = {
    findings,
    risk: riskOf(findings),
    maxSeverity: maxSeverityOf(findings),
  };
  if (notes.length) result.notes = notes;
  return result;
}

/**
 * One finding as the terminal and replay show it.
 *
 * @example
 * ```ts
 * formatFinding({ rule: "auth-check-removed", severity: "high", path: "pay.py", before: 1, after: 0, message: "" });
 * // "⚑ high: auth-check-removed (1 → 0)"
 * ```
 */
export function formatFinding(f: Finding): string {
  return `⚑ ${f.severity}: ${f.rule} (${f.before} → ${f.after})`;
}
