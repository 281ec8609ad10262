/**
 * Broad guard signals from the changed lines, at **medium** severity: what the counted rules and
 * the parser's vocabulary do not know by name, seen by its shape.
 *
 * The counted rules (`rules_*.ts`) and the structural layer (`structure.ts`) fire high on guards
 * they recognise. Real code guards itself with names nobody lists (`_should_handle`, `isTrustedProxy`,
 * a library's own `ErrInvalidGrant`), so this layer looks at the shape of what an edit took away,
 * in code that is about security (its path, the function the change sits in, or the removed lines
 * themselves speak of auth, tokens, sessions, permissions, signatures, TLS…):
 *
 * - a **failure statement removed** (`raise`, `throw`, `abort`, a `return` of an error, `false` or
 *   a 401/403, `next(err)`): more of them removed than added;
 * - a **condition weakened**: an `if`/`elif`/`while`/`return` whose condition lost a conjunct, a
 *   call or a comparison, or became a constant (`if False:`, `if (true)`);
 * - a **checking call removed**: a call whose name checks, verifies, validates, compares, requires
 *   or enforces (`check_x`, `verifyY`, `isTrusted…`, `has_perm`, `compare_digest`) occurs fewer
 *   times after the edit than before;
 * - a **secure value weakened**: `true → false`, `CERT_REQUIRED → CERT_NONE`, `'strict' → 'lax'`
 *   on a line that names a security setting, or such a setting (`issuer`, `audience`, `nonce`,
 *   `algorithms`, `secure`, `httpOnly`, `maxAge`…) removed from where it was passed.
 *
 * The shapes of a hunk are in `guard_shapes*.ts`, the setting and value signals in
 * `guard_settings_lines.ts`, the condition signals in `guard_conditions.ts`.
 *
 * Medium findings are recorded and shown with the construct and line; by default only high ones ask
 * (`docs/inspector.md` gives their rate on benign edits). Pure: text in, findings out. The words and
 * shapes looked for are in `guard_vocab.ts`, the line helpers in `guard_text.ts`.
 *
 * @module
 */
import type { Finding } from "./types.ts";
import {
  CHECK_SUBJECT,
  CHECKER_FN,
  DENIED_STATUS,
  EXIT,
  SECURE_SETTING,
  SECURITY,
  SECURITY_OPTION,
  speaksSecurity,
  WEAKENING,
  WEAKENING_G,
} from "./guard_vocab.ts";
import {
  bare,
  blockOf,
  callNames,
  clip,
  code,
  condition,
  enclosing,
  enclosingChain,
  headerText,
  headKind,
  type Hunk,
  isCheckCall,
  lastName,
  occurrences,
  overlap,
  similarStart,
} from "./guard_text.ts";
import { kindOf } from "./guard_term_polarity.ts";
import { BYPASS_EXIT } from "./guard_shape_vocab.ts";
import { hunks } from "./guard_hunks.ts";
import { statementHead } from "./guard_condition_lines.ts";
import { shapeSignals } from "./guard_shapes.ts";
import { weakenedConditions } from "./guard_conditions.ts";
import { learnedSignal } from "./guard_model.ts";
import { lostExit, lostFailure } from "./guard_failures.ts";
import { yesKeepsOut } from "./name_polarity.ts";
import { linesOf } from "./chunk.ts";
import { SHAPES_ONLY_FILE } from "./count.ts";
import { listSignals } from "./list_items.ts";
import { settingLineFindings } from "./guard_settings_lines.ts";

/**
 * Medium guard findings for an edit of `path` from `before` to `after` (both present). When no
 * shape names anything, the learned signal (`guard_model.ts`) may; `learned: false` leaves it out
 * (the shapes alone, as their tests read them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineGuardFindings } from "./guard_lines.ts";
 * const before = "def load(req):\n    if not _csrf_ok(req):\n        raise Forbidden()\n    return 1\n";
 * const after = "def load(req):\n    return 1\n";
 * const [f] = lineGuardFindings("app/views.py", before, after);
 * assert.equal(f.rule, "auth-check-removed");
 * assert.equal(f.severity, "medium");
 * assert.deepEqual(lineGuardFindings("app/views.py", before, before), []);
 * ```
 */
export function lineGuardFindings(
  path: string,
  before: string,
  after: string,
  opts: { learned?: boolean } = {},
): Finding[] {
  if (before === after || before.length > 300_000 || after.length > 300_000) return [];
  // Split once per file for every layer (read only here and in the shapes).
  const bl = linesOf(before);
  const al = linesOf(after);
  const hs = hunks(bl, al, path);
  if (hs.length === 0) return [];
  const file = path.split(/[\\/]/).pop() || path;
  const pathSecure = SECURITY.test(path);
  // Code only (comment lines dropped): a commented-out call counts as gone.
  const beforeCode = bl.map(code).join("\n");
  const afterCode = al.map(code).join("\n");
  const found = new Map<string, Finding>();
  const add = (rule: string, n: number, what: string) => {
    if (found.has(rule)) return;
    const fn = enclosing(bl, n);
    // The whole definition went (an implementation moved or dropped): the counted layers say so,
    // one severity lower; its callers would notice.
    if (fn && !new RegExp(`(^|[^\\w$])${fn.replace(/\$/g, "\\$")}([^\\w$]|$)`).test(afterCode)) {
      return;
    }
    const detail = `${what}${fn ? ` in ${fn}()` : ""} (${file}:${n})`;
    found.set(rule, {
      rule,
      severity: "medium",
      path,
      before: 1,
      after: 0,
      line: n,
      detail,
      message: `guard weakened (from the changed lines) — ${detail}`,
    });
  };

  // Failure statements: net removals across the whole edit, located at the first removed one.
  const lost = lostFailure(hs, bl, al, strong, pathSecure);
  if (lost) add("auth-check-removed", lost.n, lost.what);
  const exit = lost ? null : lostExit(hs, bl, al);
  if (exit) add("auth-check-removed", exit.n, exit.what);

  function context(h: Hunk): string {
    const first = h.removed[0]?.n ?? h.added[0]?.n ?? 1;
    const last = h.removed.at(-1)?.n ?? first;
    return [
      ...bl.slice(Math.max(0, first - 3), first - 1),
      ...h.removed.map((l) => l.text),
      ...bl.slice(last, last + 2),
      ...h.added.map((l) => l.text),
    ].join("\n");
  }
  /** Security code, from the path, the function, or text around the change. */
  function secure(n: number, extra: string): boolean {
    return pathSecure || SECURITY.test(enclosing(bl, n)) || SECURITY.test(extra);
  }
  /** The changed lines themselves, or the function they sit in, speak of security. */
  function strong(n: number, h: Hunk): boolean {
    const fn = enclosing(bl, n);
    if (SECURITY.test(fn) || CHECKER_FN.test(fn)) return true;
    // A decorator's or a middleware's inner function: the outer one names the check.
    if (enclosingChain(bl, n).some((x) => SECURITY.test(x) || CHECKER_FN.test(x))) return true;
    if (CHECK_SUBJECT.test(bl[n - 1] ?? "") || DENIED_STATUS.test(bl[n - 1] ?? "")) return true;
    const near = h.removed.filter((l) => l.n >= n - 6 && l.n <= n + 3).map((l) => l.text);
    // …and the body the line heads (what a removed or emptied condition guarded).
    return SECURITY.test([...near, ...bl.slice(n, n + 3)].join("\n"));
  }

  for (const h of hs) {
    const ctx = context(h);
    let ctxSecure: boolean | undefined;
    const shapeCtx = {
      beforeCode,
      afterCode,
      afterLines: al,
      beforeLines: bl,
      // The hunk's own text is asked about again and again: read it once.
      secure: (n: number) =>
        pathSecure || SECURITY.test(enclosing(bl, n)) || (ctxSecure ??= SECURITY.test(ctx)),
      body: (n: number) => bl.slice(Math.max(0, n), n + 3).map(code).join("\n"),
      fn: (n: number) => enclosing(bl, n),
      block: (n: number, max?: number) => blockOf(bl, n, max),
    };
    for (const s of shapeSignals(h, shapeCtx)) add(s.rule, s.n, s.what);
    const removedCode = h.removed.map((l) => code(l.text));
    const addedCode = h.added.map((l) => code(l.text));
    const addedText = addedCode.join("\n");
    // A definition's parameters changed: its parameter list is not a setting passed anywhere.
    const signatureChange = [...h.removed, ...h.added].some((l) =>
      /^\s*(export\s+)?(async\s+)?(def|function|func|fn)\b|^\s*(public|private|protected)?\s*constructor\s*\(/
        .test(l.text)
    );

    // An early exit removed with its branch: `if …: return/raise/continue` gone, header and all.
    for (let i = 0; i < h.removed.length; i++) {
      const rc = removedCode[i];
      if (!/^\s*(}\s*)?(if|elif|else\s+if|unless)\b/.test(rc) || addedCode.includes(rc)) continue;
      // An edited condition (the header is still there, changed) is for the condition rules.
      // So is a header written anew at the same place (renamed, or split from an assignment).
      const indent = (t: string) => t.length - t.trimStart().length;
      const at = indent(h.removed[i].text);
      if (
        addedCode.some((t) =>
          headKind(t) === headKind(rc) && (similarStart(rc, t) || overlap(rc, t) >= 0.5)
        ) ||
        h.added.some((a) => indent(a.text) === at && headKind(code(a.text)) === headKind(rc))
      ) continue;
      // The branch's exit may come after a log call or a message spread over lines.
      const body = bl.slice(h.removed[i].n - 1, h.removed[i].n + 3).map(code).join("\n");
      if (!EXIT.test(body) && !EXIT.test(blockOf(bl, h.removed[i].n, 12).body)) {
        continue;
      }
      // (A branch that let the caller straight through, `if legacy: return True`, removed is a
      // way around the check gone; where a yes keeps out, `is_revoked`, it was the failure.)
      const first = blockOf(bl, h.removed[i].n).body.split("\n")[0] ?? "";
      if (BYPASS_EXIT.test(first.trim()) && !yesKeepsOut(bare(enclosing(bl, h.removed[i].n)))) {
        continue;
      }
      const cond = condition(rc) ?? "";
      if (!/[=!<>]=|[<>]|\bis\b|\bnot\b|!|\(/.test(cond) && !CHECK_SUBJECT.test(cond)) {
        if (!strong(h.removed[i].n, h)) continue;
      }
      if (strong(h.removed[i].n, h)) {
        const head = headerText(bl, h.removed[i].n);
        add("auth-check-removed", h.removed[i].n, `branch removed: \`${clip(head)}\``);
      }
    }

    // A piece of a condition removed: a line that is one operand of `&&`/`||`/`and`/`or`.
    for (let i = 0; i < h.removed.length; i++) {
      const rc = removedCode[i];
      if (!/^(&&|\|\||and\b|or\b)|(&&|\|\||\band|\bor)$/.test(rc)) continue;
      if (addedCode.includes(rc) || !(/[=!<>]=|[<>]|\(/.test(rc) || speaksSecurity(rc))) continue;
      // (A way in, `|| password === this.password`, dropped from what a predicate returns is
      // one way fewer to say yes.)
      const n = h.removed[i].n;
      const orOperand = /^(\|\||or\b)|(\|\||\bor)$/.test(rc);
      const start = bl.slice(Math.max(0, n - 4), n - 1).map(code).reverse()
        .find((t) => /^(return|if|elif|while)\b|^(}\s*)?else\s+if\b/.test(t));
      const fn = enclosing(bl, n);
      if (orOperand && start?.startsWith("return") && !yesKeepsOut(fn)) continue;
      // (An `and` operand dropped from a protective switch, `enforceCsrf = a && b`, protects
      // more often.)
      const held = kindOf(statementHead(bl, n));
      if (!orOperand && held.kind === "assign" && yesKeepsOut(held.name.split(",")[0])) continue;
      if (strong(n, h)) {
        add("auth-check-removed", h.removed[i].n, `condition operand removed: \`${clip(rc)}\``);
      }
    }

    // Conditions weakened (guard_conditions.ts).
    const env = {
      bl,
      pathSecure,
      strong: (n: number) => strong(n, h),
      secure: (n: number) => secure(n, ctx),
    };
    for (const w of weakenedConditions(h, removedCode, addedCode, env)) {
      add("auth-check-removed", w.n, w.what);
    }

    // Checking calls removed (fewer in the after-code than in the before-code).
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      for (const c of callNames(removedCode[i])) {
        const name = lastName(c);
        if (!isCheckCall(c) || name.length < 4) continue;
        if (occurrences(afterCode, name) >= occurrences(beforeCode, name)) continue;
        if (!secure(r.n, `${c} ${ctx}`)) continue;
        const rule = /verif|sign|digest|compare|equal|constant|timing|nonce|audience|issuer|expir/i
            .test(c)
          ? "crypto-verification-removed"
          : "auth-check-removed";
        add(rule, r.n, `call to ${name}() removed`);
      }
      // Credentials no longer stripped (a header constant as well as a string).
      if (
        /\b(pop\w*|del|delete|remove\w*|unset\w*|strip\w*)\b.*\b(authorization|proxy[-_]?authori[sz]ation|cookie)\b/i
          .test(removedCode[i]) && !addedText.match(/\b(authorization|cookie)\b/i)
      ) {
        add(
          "secure-default-weakened",
          r.n,
          `credential stripping removed: \`${clip(removedCode[i])}\``,
        );
      }
    }

    // Secure values weakened in place, permissive settings switched on, defaults turned off,
    // branch conditions narrowed (guard_settings_lines.ts).
    const settingEnv = { bl, al, pathSecure, ctx, addedText, secure, strong };
    for (const f of settingLineFindings(h, removedCode, addedCode, settingEnv)) {
      add(f.rule, f.n, f.what);
    }

    // Items put into what goes unchecked, or taken from what is refused (list_items.ts).
    for (const l of listSignals(h, bl, al, (n) => secure(n, ctx))) {
      add("auth-check-removed", l.n, l.what);
    }

    // Words that switch a protection off, new to the file (`loads_unsafe`, `csrf_exempt`,
    // `skipStateCheck`, `InsecureSkipVerify`, `_UNVERIFIED`).
    for (const a of h.added) {
      const m = WEAKENING.exec(code(a.text));
      if (!m) continue;
      const w = m[0].toLowerCase();
      const count = (t: string) => WEAKENING_G(t).filter((x) => x === w).length;
      if (count(afterCode) <= count(beforeCode)) continue;
      if (h.removed.length === 0 && !secure(a.n, ctx)) continue;
      if (secure(h.removed[0]?.n ?? 1, ctx) || SECURITY.test(m[0])) {
        add("auth-check-removed", h.removed[0]?.n ?? a.n, `\`${m[0]}\` introduced`);
      }
    }

    // Security options removed from a call or a configuration.
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      const rc = removedCode[i];
      if (signatureChange) continue;
      // Options at the start of the line, or inside a literal on it (`{'path': p, 'httponly': True}`).
      const keys = new Set<string>();
      const m = SECURITY_OPTION.exec(rc) ?? /\.not\(\s*['"]none['"]\s*\)/.exec(rc);
      if (m) keys.add(m[1] ?? "not('none')");
      // A shorthand property (`audience,` in `{ issuer, audience }`).
      // (JS/TS only: elsewhere a bare name on its line is a positional argument.)
      const short = /\.[mc]?[jt]sx?$/.test(path) ? /^([\w$]+),?$/.exec(rc)?.[1] : undefined;
      if (short && SECURITY_OPTION.test(`${short}: x`)) keys.add(short);
      for (const x of rc.matchAll(/[{,(]\s*(['"]?[\w$]+['"]?\s*[:=](?!=)[^,})]*)/g)) {
        const o = SECURITY_OPTION.exec(x[1]);
        if (o) keys.add(o[1]);
      }
      for (const key of keys) {
        // An option that switched a check off (`verify_signature: False`) going is no weakening.
        const value = new RegExp(`['"]?${key.replace(/[()'.]/g, "\\$&")}['"]?\\s*[:=]\\s*([^,})]*)`)
          .exec(rc)?.[1] ?? "";
        if (/^\s*(False|false|0|None|null|nil|undefined)\b/.test(value)) continue;
        const still = new RegExp(`(^|[^\\w$])['"]?${key.replace(/[()'.]/g, "\\$&")}['"]?\\s*[:=(]`);
        if (still.test(addedText)) continue;
        if (!secure(r.n, ctx) && !SECURE_SETTING.test(key) && !/\balg/i.test(ctx)) continue;
        add("secure-default-weakened", r.n, `setting \`${key}\` removed`);
      }
    }
  }
  // Nothing any shape names: the learned signal, from the words the edit took away.
  // (It learned from code: a template's or a JSON file's words are not what it knows.)
  if (found.size === 0 && opts.learned !== false && !SHAPES_ONLY_FILE.test(path)) {
    const s = learnedSignal(path, bl, hs, undefined, al);
    if (s) add(s.rule, s.n, s.what);
  }
  return [...found.values()];
}
