/**
 * Shapes of a check whose result no longer decides: its `await` dropped (a pending promise is
 * truthy, a coroutine too), a constant put in front of it (`false && twoFactor.isEnabled(id)`,
 * `True or verify(sig)`), its exception caught and only logged, an early `return true` put into a
 * function that checks, a yes-attribute computed from a check made a constant yes, a failing
 * branch's test narrowed to a missing value, an escaping call unwrapped. Each is read with its
 * polarity, so the reverse edit (a guard added) stays silent. Called by `guard_shapes_terms.ts`
 * (runs) and `guard_shapes.ts` (hunks); pure.
 *
 * @module
 */
import { FAILURE, PROTECTIVE_NAME } from "./guard_vocab.ts";
import { YES_ATTRIBUTE } from "./guard_shape_vocab.ts";
import { callNames, clip, code, condition, isCheckCall, lastName } from "./guard_text.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";
import type { Chunk } from "./term_diff.ts";
import { grantsMore, holdsVerdict, kindOf, SAYS_NO, SAYS_YES } from "./guard_term_polarity.ts";
import { branchTestShapes } from "./guard_shapes_tests.ts";

/** A call that escapes or sanitizes one value (`ldap.EscapeFilter(u)`, `html.escape(s)`). */
const UNWRAP =
  /[\w$.]*\b(escape\w*|Escape\w*|sanitize\w*|Sanitize\w*|quote_?\w*|html_?escape)\(\s*([\w$.]+)\s*\)/g;

/** A step that authenticates or authorizes a request by its name (`auth_request`, `authorize`). */
const AUTH_STEP = /auth|permission|authori[sz]|verif|csrf|guard/i;

/** A name that holds a yes to let through (`isUsable`, `has_access`, `allowed`). */
const YES_VERDICT =
  /^(is|has|can|may)([A-Z]|_[a-z])|^(allowed|permitted|authori[sz]ed|granted|valid|verified|ok)$|[a-z](Allowed|Permitted|Authori[sz]ed|Granted|Valid|Verified|Usable)$/;

/** Constants that decide an `and`/`or` on their own. */
const FALSE = /^(false|False)$/;
const TRUE = /^(true|True)$/;
const AND_OP = /^(&&|and)$/;
const OR_OP = /^(\|\||or)$/;

/** The dotted call a token run starts with (`auth . verifyPassword (` → `auth.verifyPassword`). */
function leadingCall(ts: readonly string[]): string | null {
  let i = ts[0] === "(" ? 1 : 0;
  const parts: string[] = [];
  for (; i < ts.length; i++) {
    if (/^[A-Za-z_$][\w$]*$/.test(ts[i]) || ts[i] === ".") parts.push(ts[i]);
    else break;
  }
  return ts[i] === "(" && parts.length ? parts.join("") : null;
}

/**
 * The result shapes of one run (`ch`) of a hunk's token diff, read on its before-line `line`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultRunShapes } from "./guard_shapes_results.ts";
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "login", block: () => ({ body: "", after: "" }),
 * };
 * const line = "const valid = await auth.verifyPassword(secret);";
 * const ch = { del: ["await"], ins: [], n: 3, pre: ["const", "valid", "="], post: ["auth", ".", "verifyPassword", "("] };
 * assert.match(resultRunShapes(ch, ctx, line)[0].what, /no longer awaited/);
 * assert.deepEqual(resultRunShapes({ ...ch, del: [], ins: ["await"] }, ctx, line), []);
 * ```
 */
export function resultRunShapes(ch: Chunk, ctx: ShapeContext, line: string): Shape[] {
  const { del, ins, n, pre, post } = ch;
  // An `await` dropped before a check whose result is used: the promise itself is truthy.
  if (del.length === 1 && del[0] === "await" && ins.length === 0) {
    const call = leadingCall(post);
    const used = /^(=|\(|!|&&|\|\||and|or|not|if|\?|:|,)$/.test(pre.at(-1) ?? "");
    // (Or any call whose result a yes-named verdict holds that a failing branch then tests:
    // `const isUsable = await svc.isAssistantUsable(id, user)`, then `if (!isUsable) … 403`.)
    const held = pre.at(-1) === "=" ? pre.at(-2) ?? "" : "";
    const test = YES_VERDICT.test(held)
      ? new RegExp(`\\bif\\s*\\(?\\s*(!|not\\s+)\\s*${held}\\b[^\\n]*((\\n[^\\n]*){0,3})`).exec(
        ctx.afterCode,
      )
      : null;
    const verdict = !!test && (FAILURE.test(test[0]) || /\b40[13]\b|\w(Err|Error)\(/.test(test[0]));
    if (call && used && ((isCheckCall(call) && ctx.secure(n)) || verdict)) {
      return [{
        rule: "auth-check-removed",
        n,
        what: `result of ${call}() no longer awaited: \`${clip(line)}\``,
      }];
    }
    // An awaited check that is a statement of its own (`await self.auth_request(…)`): without
    // `await` it never runs (Python) or its refusal goes unheard (JavaScript).
    const alone = pre.length === 0 || /^(;|\{|\}|:)$/.test(pre.at(-1) ?? "") ||
      /^\s*await\b/.test(line);
    if (call && alone && (isCheckCall(call) || AUTH_STEP.test(lastName(call))) && ctx.secure(n)) {
      return [{
        rule: "auth-check-removed",
        n,
        what: `${call}() no longer awaited: \`${clip(line)}\``,
      }];
    }
  }
  if (!ctx.secure(n)) return [];
  // A constant put in front of or behind a check (`false && isEnabled(id)`, `ok || true`).
  if (del.length === 0 && ins.length >= 2 && ins.length <= 4) {
    const t = ins.filter((x) => x !== "(" && x !== ")");
    const front = t.length === 2 && (FALSE.test(t[0]) || TRUE.test(t[0])) ? t : null;
    const back = t.length === 2 && (FALSE.test(t[1]) || TRUE.test(t[1])) ? [t[1], t[0]] : null;
    const [value, op] = front ?? back ?? [];
    const forced = value && FALSE.test(value) && AND_OP.test(op)
      ? false
      : value && TRUE.test(value) && OR_OP.test(op)
      ? true
      : null;
    if (forced === null) return [];
    // (Under a `!`, what the constant decides is read the other way round.)
    const negated = /^(!|not)$/.test(pre.at(-1) ?? "") ||
      (pre.at(-1) === "(" && /^(!|not)$/.test(pre.at(-2) ?? ""));
    const decided = negated ? !forced : forced;
    const { kind, name } = kindOf(line);
    // Forced to yes, it weakens where yes lets through (a value or a function named for a yes);
    // forced to no, where yes refuses or asks for more (`grantsMore`).
    const grants = grantsMore(ctx, n, line);
    const yesNamed = kind === "if" || SAYS_YES.test(kind === "return" ? ctx.fn(n) : name);
    const weakens = kind !== "other" && (decided ? grants && yesNamed : !grants);
    if (weakens) {
      return [{
        rule: "auth-check-removed",
        n,
        what: `check decided by a constant (\`${value}\`): \`${clip(line)}\``,
      }];
    }
  }
  return [];
}

/**
 * The check call inside the `try` that the after-line `at` (an `except`/`catch`) closes, when
 * the before-text had it already: its code and its before-line.
 */
function triedCheck(ctx: ShapeContext, at: number): { c: string; n: number } | null {
  const lines = ctx.afterLines;
  const indent = (t: string) => /^\s*/.exec(t)![0].length;
  const depth = indent(lines[at - 1] ?? "");
  const before = ctx.beforeLines ?? [];
  for (let i = at - 2; i >= 0 && i >= at - 30; i--) {
    const t = lines[i];
    if (/^\s*try\b/.test(t) && indent(t) <= depth) {
      for (let j = i + 1; j < at - 1; j++) {
        const c = code(lines[j]);
        if (!c || !callNames(c).some(isCheckCall)) continue;
        const n = before.findIndex((b) => b.trim() === lines[j].trim()) + 1;
        if (n > 0 && ctx.secure(n)) return { c, n };
      }
      return null;
    }
  }
  return null;
}

/** A handler's line that lets a failure pass: nothing, `pass`, a closing brace, a log line. */
const QUIET =
  /^(pass|continue|[})\];]*)$|^(print|console|log|logger|logging|_?log\w*|LOG|warnings|sentry\w*|Sentry|self\.(_?log\w*)|this\.(_?log\w*))\b[\w$.]*\(/;

/**
 * The result shapes of one hunk: a check call's exception now caught and only logged, an escaping
 * call unwrapped, a yes-attribute made a constant yes, a failing branch's test narrowed to a
 * missing value, an early `return true` put into a function that checks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultShapes } from "./guard_shapes_results.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const beforeLines = ["def check_token(t, key):", "    key.verify(t)", "    return t"];
 * const afterLines = ["def check_token(t, key):", "    try:", "        key.verify(t)",
 *   "    except Exception:", "        log.debug('bad token')", "    return t"];
 * const added = [line(4, afterLines[3]), line(5, afterLines[4])];
 * const v = { h: { removed: [], added: [], at: 3 }, removed: [], added, addedCodes: new Set<string>() };
 * const ctx = {
 *   beforeCode: beforeLines.join("\n"), afterCode: afterLines.join("\n"), beforeLines, afterLines,
 *   secure: () => true, body: () => "", fn: () => "check_token", block: () => ({ body: "", after: "" }),
 * };
 * assert.match(resultShapes(v, ctx)[0].what, /failure of `key\.verify\(t\)` caught and not failed/);
 * assert.deepEqual(resultShapes(v, { ...ctx, afterCode: ctx.beforeCode }), []);
 * ```
 */
export function resultShapes({ h, removed, added }: HunkView, ctx: ShapeContext): Shape[] {
  const out: Shape[] = [];
  // A handler put in (`except Exception:` / `catch (e) {`) that does not fail, around a check
  // that was already there, under a `try` the before-text did not have.
  const catchAt = added.findIndex((a) => /^(}\s*)?(except\b|catch\b)/.test(a.c));
  const removedTry = removed.some((r) => /^(try\b|(}\s*)?(except|catch)\b)/.test(r.c));
  const tries = (t: string) => (t.match(/(^|\n)\s*try\b/g) ?? []).length;
  if (catchAt >= 0 && !removedTry && tries(ctx.afterCode) > tries(ctx.beforeCode)) {
    // (A handler that returns, raises or hands the error on still fails; one that only logs
    // or passes does not.)
    const handler = added.slice(catchAt + 1).map((a) => a.c);
    const quiet = handler.length > 0 && handler.every((c) => QUIET.test(c));
    const check = quiet ? triedCheck(ctx, added[catchAt].l.n) : null;
    if (check) {
      out.push({
        rule: "auth-check-removed",
        n: check.n,
        what: `failure of \`${clip(check.c)}\` caught and not failed`,
      });
    }
  }
  for (const r of removed) {
    out.push(...branchTestShapes(r, added, ctx));
    // An escaping or sanitizing call unwrapped from what it protected (`ldap.EscapeFilter(u)` →
    // `u`): what a user sends goes into a query, a filter or a page as it is.
    const unwrapped = r.c.replace(UNWRAP, "$2");
    if (unwrapped !== r.c && added.some((a) => a.c === unwrapped) && ctx.secure(r.l.n)) {
      out.push({
        rule: "auth-check-removed",
        n: r.l.n,
        what: `escaping removed: \`${clip(r.c)}\``,
      });
    }
    // A yes-attribute computed from a check made a constant yes (`user.is_active = 'active' in
    // groups` → `= True`).
    const { kind, name } = kindOf(r.c);
    const value = /[:=]\s*(.*?)\s*;?$/.exec(r.c)?.[1] ?? "";
    if (
      kind === "assign" && YES_ATTRIBUTE.test(name) && !/^(true|True|false|False)$/.test(value) &&
      added.some((a) => {
        const k = kindOf(a.c);
        return k.kind === "assign" && k.name === name && /[:=]\s*(true|True)\s*;?$/.test(a.c);
      }) && ctx.secure(r.l.n)
    ) {
      out.push({ rule: "auth-check-removed", n: r.l.n, what: `\`${name}\` made a constant yes` });
    }
    // A failing branch's test of a value replaced by a test that it is missing (`if zone not in
    // allowed:` → `if not allowed:`, `if (type != "application/json")` → `if (type == "")`).
    const emptied = kind === "if" ? added.find((x) => emptyTestOf(x.c)) : undefined;
    const tested = (emptied ? emptyTestOf(emptied.c)! : "").replace(/[$.]/g, "\\$&");
    if (
      emptied && !emptyTestOf(r.c) && /==|!=|[<>]|\bin\b|[\w$]\(/.test(condition(r.c) ?? "") &&
      // (A branch that tested the value present, `u != nil && …`, is not the one replaced.)
      !new RegExp(
        `${tested}\\s*(!==?\\s*(nil|null|None|undefined|""|'')|is\\s+not\\s+None|&&|\\band\\b)`,
      ).test(r.c) &&
      !(condition(r.c) ?? "").includes(condition(emptied.c) ?? "") &&
      new RegExp(`(^|[^\\w$.])${tested}([^\\w$]|$)`).test(r.c) &&
      FAILURE.test(ctx.block(r.l.n).body.replace(/\breturn\s+(None|null|nil)\b/g, "")) &&
      ctx.secure(r.l.n)
    ) {
      out.push({
        rule: "auth-check-removed",
        n: r.l.n,
        what: `failure narrowed to a missing value: \`${clip(emptied.c)}\``,
      });
    }
    // A failing branch's falsy test narrowed to a missing value (`not password` → `password is
    // None`): an empty one, `false` or `0`, now passes.
    if (kind === "if" && /\bnot\s|!\s*[\w$]/.test(r.c) && FAILURE.test(ctx.block(r.l.n).body)) {
      const falsy = r.c.replace(/(?:\bnot\s+|!\s*)([\w$.]+)(?![\w$.(])/g, "¬$1");
      const a = added.find((x) =>
        x.c.replace(
          /([\w$.]+)\s*(?:is\s+None|===?\s*(?:undefined|null|None|nil))(?![\w$])/g,
          "¬$1",
        ) === falsy
      );
      if (a && falsy !== r.c && ctx.secure(r.l.n)) {
        out.push({
          rule: "auth-check-removed",
          n: r.l.n,
          what: `failure narrowed to a missing value: \`${clip(a.c)}\``,
        });
      }
    }
  }
  // An early yes put into a function that checks and could say no.
  const at = h.at ?? removed[0]?.l.n;
  if (removed.length === 0 && at !== undefined) {
    const yes = added.find((a) => /^return\s+(true|True)\b\s*;?$/.test(a.c));
    const fn = ctx.fn(at);
    const checks = isCheckCall(fn) || (SAYS_YES.test(fn) && /^_*(is|has|can)_?[A-Za-z]/.test(fn));
    // (So could one that answers with a check's verdict, `return bcrypt.compare(p, h)`.)
    const couldDeny = /\breturn\s+(false|False)\b|\b(raise|throw)\b/.test(ctx.beforeCode) ||
      /\breturn\s+(await\s+)?[\w$.]*(compare|verify|check|validate|equal)\w*\(/i.test(
        ctx.beforeCode,
      );
    if (
      yes && fn && checks && !SAYS_NO.test(fn) && !PROTECTIVE_NAME.test(fn.replace(/_/g, " ")) &&
      couldDeny && ctx.secure(at)
    ) {
      out.push({ rule: "auth-check-removed", n: at, what: `early yes in ${fn}(): \`${yes.c}\`` });
    }
  }
  return out;
}

/**
 * The name a branch header only tests for being missing or empty (`if not x:`, `if (!x)`,
 * `if x == "" {`, `if x is None`, `if len(x) == 0`), or null.
 */
function emptyTestOf(c: string): string | null {
  if (!/^(}\s*)?(if|elif|else\s+if)\b/.test(c)) return null;
  const t = (condition(c) ?? "").trim();
  // (A negated verdict, `!isMatch`, `not user.is_authenticated`, is a whole check, not a test
  // that a value is there.)
  const negated = /^(?:not\s+|!\s*)([\w$.]+)$/.exec(t);
  if (
    negated && (holdsVerdict(negated[1].split(".").pop() ?? "") ||
      /(^|[._])(is|has|can)_?[A-Za-z]/.test(negated[1]))
  ) {
    return null;
  }
  const m = negated ??
    /^([\w$.]+)\s*(?:===?\s*(?:""|''|nil|null|undefined|None)|is\s+None)$/.exec(t) ??
    /^len\(([\w$.]+)\)\s*==\s*0$/.exec(t);
  return m ? m[1] : null;
}
