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
  DEFAULT_ON,
  FAILURE,
  LIMIT_NAME,
  PERMISSIVE,
  PREDICATE,
  PROTECTIVE_NAME,
  SECURE_SETTING,
  SECURITY,
  SECURITY_ARG,
  SECURITY_HEADER,
  SECURITY_OPTION,
  speaksSecurity,
  STRONG_TO_WEAK,
  WEAKENING,
  WEAKENING_G,
} from "./guard_vocab.ts";
import {
  argCount,
  args,
  bare,
  blockOf,
  callNames,
  clip,
  code,
  condition,
  enclosing,
  enclosingChain,
  headKind,
  type Hunk,
  hunks,
  isCheckCall,
  lastName,
  modeOpened,
  occurrences,
  overlap,
  similar,
  similarStart,
  weakerName,
} from "./guard_text.ts";
import { shapeSignals } from "./guard_shapes.ts";
import { weakenedConditions } from "./guard_conditions.ts";
import { learnedSignal } from "./guard_model.ts";
import { lostFailure } from "./guard_failures.ts";
import { SAYS_NO } from "./guard_term_polarity.ts";
import { linesOf } from "./chunk.ts";

/** Predicates whose `true` applies a protection (`_should_handle`, `needs_mfa`, `require_login`). */
const ENFORCING =
  /^(should_?(handle|check|verify|validate|enforce|require|protect|apply|run|prompt|challenge)|needs?_?|must_?|require|enforce)|_?required$/i;

/** A name that grants: its default on lets more through. */
const GRANT_NAME = /admin|owner|(?<![Dd]is)allow|grant|trust|privileg|super_?user|superuser/i;

/** Words joined by dashes read as one name (`ignore-certificate-errors`). */
function undash(c: string): string {
  return c.replace(/(?<=[A-Za-z])-(?=[A-Za-z])/g, "_");
}

/** Whether the first change between two lines falls inside a call's parentheses. */
function inArguments(rc: string, ac: string): boolean {
  let i = 0;
  while (i < rc.length && rc[i] === ac[i]) i++;
  let depth = 0;
  for (const ch of rc.slice(0, i)) depth += ch === "(" ? 1 : ch === ")" ? -1 : 0;
  return depth > 0;
}

/** A statement that leaves the branch: returns, raises, continues, or calls a failing helper. */
const EXIT =
  /\b(return|raise|throw|continue|break|abort|panic)\b|\b(raise|abort|deny|reject|fail)_\w+\(|\bnext\(|AbortWith/;

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
  const lost = lostFailure(hs, bl, al, (n, h) => strong(n, h), pathSecure);
  if (lost) add("auth-check-removed", lost.n, lost.what);

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
    if (CHECK_SUBJECT.test(bl[n - 1] ?? "")) return true;
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
      block: (n: number) => blockOf(bl, n),
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
      const cond = condition(rc) ?? "";
      if (!/[=!<>]=|[<>]|\bis\b|\bnot\b|!|\(/.test(cond) && !CHECK_SUBJECT.test(cond)) {
        if (!strong(h.removed[i].n, h)) continue;
      }
      if (strong(h.removed[i].n, h)) {
        add("auth-check-removed", h.removed[i].n, `branch removed: \`${clip(rc)}\``);
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
      if (orOperand && start?.startsWith("return") && !SAYS_NO.test(fn)) continue;
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

    // Secure values weakened in place, or a check's name swapped for a weaker one.
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      const rc = removedCode[i];
      for (const ac of addedCode) {
        const swap = weakerName(rc, ac);
        const sameStart = /^\s*(\w+)/.exec(rc)?.[1] === /^\s*(\w+)/.exec(ac)?.[1];
        if (swap && (overlap(rc, ac) >= 0.4 || sameStart) && secure(r.n, ctx)) {
          add("auth-check-removed", r.n, `\`${swap[0]}\` → \`${swap[1]}\``);
        }
        if (!similar(rc, ac)) continue;
        const settingNamed = SECURE_SETTING.test(rc) || SECURE_SETTING.test(ctx);
        // A `return` that says no more often, or a permissive setting (`lax`, `allow_…`,
        // `forward_…_headers`) turned off, is the strict side.
        // (A predicate whose yes enforces, `_should_handle`, `needs_mfa`, is the other way round.)
        // (A flip inside a call's arguments, `WithValidate(true)`, is no answer; a protective
        // name, `clear_untrusted_proxy_headers`, is not a permissive one.)
        const strictSide = (/^\s*return\b/.test(rc) && !ENFORCING.test(bare(enclosing(bl, r.n))) &&
          !inArguments(rc, ac)) ||
          (PERMISSIVE.test(undash(rc)) && !PROTECTIVE_NAME.test(undash(rc)));
        // (A type annotation may name every value: read the one assigned.)
        const assignedValue = (t: string) =>
          /(?<![=!<>])=(?!=)\s*([^=]+?)\s*[,;)]?$/.exec(t)?.[1] ?? t;
        const [vr, va] = [assignedValue(rc), assignedValue(ac)];
        for (const [strong, weak] of STRONG_TO_WEAK) {
          const whole = strong.test(rc) && weak.test(ac) && !strong.test(ac);
          const value = vr !== rc && strong.test(vr) && weak.test(va) && !strong.test(va);
          if (!(whole || value) || !settingNamed) continue;
          if (strictSide) continue;
          add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
        }
      }
    }

    // Permissive settings switched on, file modes opened to others, security headers no longer
    // set, a default-on option turned default-off, and failure conditions narrowed.
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      const rc = removedCode[i];
      // (A flag's name may be written with dashes: `"ignore-certificate-errors"`.)
      const named = undash(rc);
      const permissive = PERMISSIVE.test(named) && !PROTECTIVE_NAME.test(named);
      const count = (re: RegExp, t: string) => t.match(re)?.length ?? 0;
      for (const ac of addedCode) {
        // A permissive switch's value made a constant yes (`envBool("…_SKIP_VERIFY")` → `true`).
        if (
          permissive && /^([\w$.'"]+\s*[:=]\s*)?(true|True)\s*[,;)]?$/.test(ac) &&
          !/\b(false|False|true|True)\b/.test(rc)
        ) {
          add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
        }
        if (!similar(rc, ac) && overlap(rc, ac) < 0.5) continue;
        // (Counted: `os.environ.get("TRUST_PROXY", "False") == "true"` → `"True"` says yes more.)
        if (
          // (`is not False` → `is True` is no switch turned on: it lets fewer through.)
          permissive && !/(\bis\s+not|!==?)\s*(false|False)\b/.test(rc) &&
          count(/\b(false|False|0|null|None|nil)\b/g, rc) >
            count(/\b(false|False|0|null|None|nil)\b/g, ac) &&
          count(/\b(true|True|1)\b/g, ac) > count(/\b(true|True|1)\b/g, rc)
        ) {
          add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
        }
        if (
          (/chmod|mkdir|open|write|mode|perm|umask|create/i.test(rc) ||
            /\b0o[0-7]{3}\b/.test(rc)) &&
          modeOpened(rc, ac)
        ) {
          add(
            "secure-default-weakened",
            r.n,
            `file mode opened: \`${clip(rc)}\` → \`${clip(ac)}\``,
          );
        }
        if (
          DEFAULT_ON.test(rc) && !DEFAULT_ON.test(ac) && (pathSecure || SECURE_SETTING.test(rc)) &&
          // (A switch that skips a check, or a grant, on by default is the weak side.)
          !permissive && !GRANT_NAME.test(`${rc} ${enclosing(bl, r.n)}`)
        ) {
          add(
            "secure-default-weakened",
            r.n,
            `default on removed: \`${clip(rc)}\` → \`${clip(ac)}\``,
          );
        }
        // TLS dropped from a URL (`https://` → `http://`, `wss://` → `ws://`).
        if (
          /\b(https|wss):\/\//.test(rc) &&
          rc.replace(/\b(http|ws)s:\/\//g, "$1://") === ac && !/\/\/(localhost|127\.)/.test(ac)
        ) add("secure-default-weakened", r.n, `TLS dropped: \`${clip(ac)}\``);
        // `or` and `and` swapped in what a check returns (`blocked = ip or user` → `ip and user`).
        if (
          /^\s*return\b/.test(rc) && rc.replace(/\band\b|&&/g, "or").replace(/\|\|/g, "or") ===
            ac.replace(/\band\b|&&/g, "or").replace(/\|\|/g, "or") &&
          rc !== ac &&
          (PREDICATE.test(bare(enclosing(bl, r.n))) || SECURITY.test(enclosing(bl, r.n)))
        ) add("auth-check-removed", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
        // A security limit raised tenfold or more (`FAILURE_LIMIT … 3` → `3000`).
        if (LIMIT_NAME.test(rc) && similar(rc, ac)) {
          const nb = Number(/\b(\d+)\b(?!.*\b\d+\b)/.exec(rc)?.[1]);
          const na = Number(/\b(\d+)\b(?!.*\b\d+\b)/.exec(ac)?.[1]);
          if (nb > 0 && na >= nb * 10) {
            add("secure-default-weakened", r.n, `limit raised: ${nb} → ${na}`);
          }
        }
        // A security argument dropped from a call (`parse(resp, state=self._state)` → `parse(resp)`).
        for (const c of callNames(rc)) {
          if (!callNames(ac).includes(c)) continue;
          const dropped = args(rc, c).filter((x) => !args(ac, c).includes(x));
          const sec = dropped.find((x) => SECURITY_ARG.test(x));
          if (sec && argCount(ac, c) < argCount(rc, c) && secure(r.n, ctx)) {
            add(
              "secure-default-weakened",
              r.n,
              `\`${clip(sec)}\` no longer passed to ${lastName(c)}()`,
            );
          }
        }
        // A verifying call given fewer arguments (`totp.verify(t, tol, last + 1)` → `(t, tol)`).
        for (const c of callNames(rc)) {
          if (!isCheckCall(c) || !callNames(ac).includes(c)) continue;
          // (An argument that relaxed the check going is the check made whole again.)
          const gone = args(rc, c).filter((x) => !args(ac, c).includes(x));
          const relaxed = gone.some((x) =>
            /^(optional|allow_?\w+|skip_?\w+|insecure|unsafe|lenient)\s*[=:]\s*(True|true)$|^(required|strict|verify|check|enforce)\s*[=:]\s*(False|false)$/
              .test(x)
          );
          if (argCount(ac, c) < argCount(rc, c) && !relaxed && secure(r.n, ctx)) {
            add("crypto-verification-removed", r.n, `${lastName(c)}() given fewer arguments`);
          }
        }
        const cb = condition(rc);
        const ca = condition(ac);
        if (
          cb && ca && headKind(rc) === headKind(ac) &&
          /^(if|elif|else if)$/.test(headKind(rc) ?? "")
        ) {
          // (The branch's own lines, after a condition written over lines: what follows it at
          // its indentation is not its body.)
          const depth = /^\s*/.exec(bl[r.n - 1])![0].length;
          let open = 0;
          let from = r.n - 1;
          for (; from < bl.length && from < r.n + 8; from++) {
            for (const ch of code(bl[from])) open += ch === "(" ? 1 : ch === ")" ? -1 : 0;
            if (open <= 0) break;
          }
          const own = bl.slice(from + 1, from + 4);
          const end = own.findIndex((t) => t.trim() !== "" && /^\s*/.exec(t)![0].length <= depth);
          const body = (end < 0 ? own : own.slice(0, end)).map(code).join("\n");
          const fnName = enclosing(bl, r.n);
          // An empty answer from a check (`return ""`, `return nil`) is its denial.
          const fails = FAILURE.test(body) ||
            ((CHECKER_FN.test(fnName) || SECURITY.test(fnName)) &&
              /\breturn\s+(""|''|nil|None|null|false|False)\s*(;|,|$)/m.test(body));
          const passes = /\breturn\s+(True|true)\b|\bnext\(\)|\breturn\s*;?\s*$|\bpass\b/m.test(
            body,
          );
          const gained = (re: RegExp) =>
            (ca.match(re) ?? []).length > (cb.match(re) ?? []).length &&
            cb.split(re).every((p) => ca.includes(p.trim()));
          const lost = (re: RegExp) =>
            (ca.match(re) ?? []).length < (cb.match(re) ?? []).length &&
            ca.split(re).every((p) => cb.includes(p.trim()));
          const OR = /\|\||\bor\b/g;
          const AND = /&&|\band\b/g;
          if (
            ((fails && (gained(AND) || lost(OR))) || (passes && (gained(OR) || lost(AND)))) &&
            strong(r.n, h)
          ) {
            add("auth-check-removed", r.n, `condition narrowed: \`${clip(cb)}\` → \`${clip(ca)}\``);
          }
        }
      }
      if (SECURITY_HEADER.test(rc) && !SECURITY_HEADER.test(addedText)) {
        add("secure-default-weakened", r.n, `security header no longer set: \`${clip(rc)}\``);
      }
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
  if (found.size === 0 && opts.learned !== false) {
    const s = learnedSignal(path, bl, hs, undefined, al);
    if (s) add(s.rule, s.n, s.what);
  }
  return [...found.values()];
}
