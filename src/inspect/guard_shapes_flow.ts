/**
 * Shape signals about what a check lets through afterwards: a requirement dropped from a
 * condition that grants, a comparison turned the other way, a session or credential no longer
 * invalidated, a query no longer filtering out revoked or expired records, a failure handled
 * but no longer returned from. Called by `guard_shapes.ts` for each hunk; pure.
 *
 * @module
 */
import { FAILURE, NOT_A_DENIAL } from "./guard_vocab.ts";
import {
  callNames,
  clip,
  condition,
  headKind,
  isCheckCall,
  sameBody,
  similarStart,
} from "./guard_text.ts";
import {
  CHECKISH,
  GRANTS,
  PROTECTING_FN,
  STRICT_ARG,
  terms,
  widened,
  words,
} from "./guard_shape_vocab.ts";
import { PUTS_ON } from "./guard_requirements.ts";
import { blockHeader } from "./guard_condition_lines.ts";
import { yesKeepsOut } from "./name_polarity.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";
import { grantShapes } from "./guard_shapes_grants.ts";

/** A requirement term about being allowed: `email['verified']`, `user.is_active`, `hasRole(r)`. */
const REQUIREMENT =
  /allow|verif|valid|active|confirm|approv|authori[sz]|authentic|trust|signed|secure|\bis_?[a-z]|\bhas_?[A-Za-z]|\bcan_?[A-Za-z]|check|perm|role|admin|owner|scope|csrf|expir|revok|\bmatch(es)?\(|\.match(es)?\(/i;

/** Comparison operators whose direction or strictness decides who passes. */
const ORDER = /<=|>=|(?<![-=<>])<(?![<=])|(?<![-=<>])>(?![>=])/g;

/** What an ordering in security code compares: times, counters, levels. */
const ORDERED =
  /weight|priority|grade|tier|score|role|expir|\bexp\b|\bnbf\b|\biat\b|now|time|date|ttl|\bage\b|count|attempt|level|mode|rank|access|limit|nonce|\bnc\w*|until|before|after|since|deadline|window/i;

/** A session, token or credential invalidated: deleted, destroyed, revoked, rotated. */
const INVALIDATES =
  /\b(Storage|storage|store|cache|redis|kv)\.(remove|delete|del|unset|expire)\w*\(|\bsession\w*\.(set|put)\([^,]+,\s*(undefined|null|None|nil)\s*\)|\b[\w.]*Header\.Del\(|\bheaders\.delete\(|\.removeHeader\(|\bdel\s+[\w.]*headers\[|\bdel(?:ete)?\s+[\w$.[\]'"]*(session|user|token|cookie|auth|credential|identity|principal)\w*|\b[\w$.]*(session|token|cookie|credential|auth)\w*\.(destroy|invalidate|revoke|clear|flush|regenerate|expire|cycle_?key|rotate)\w*\(|\b(logout|logOut|log_out|revoke\w*|invalidate\w*|clear_?session\w*|flush_?session\w*|regenerate\w*|rotate_?(session|token|key)\w*)\(/i;

/** A record filter that keeps out what may no longer be used. */
const EXCLUDES =
  /\b[\w$]*(revoked|revocation|expires?_?at|expir(y|ed|es|ation)|is_?active|active|disabled|suspended|banned|blocked|deleted_?at|is_?deleted|valid_?until|not_?before)[\w$]*/i;

/** Where a line builds a query or a filter. */
const QUERY =
  /filter|where|exclude|\$or\b|\$and\b|\$eq\b|\$gt\b|\$lt\b|__isnull|__gt|__lt|__lte|__gte|\.eq\(|\.is\(|\bWHERE\b|\bAND\b|_filter\b|Filter\b/;

/** An alternative that lets an empty value through: `or not pin`, `|| !secret`, `!hash ||`. */
const EMPTY_PASSES =
  /(\|\||\bor\b)\s*(?:!|\bnot\s+)([\w$]+(?:\.[\w$]+)*)(?![\w$.([])|(?:^|[(\s=])(?:!|\bnot\s+)([\w$]+(?:\.[\w$]+)*)\s*(\|\||\bor\b)/;

/** The nearest less-indented line above before-line `n` (the header of its block). */
function enclosingHeader(ctx: ShapeContext, n: number): string {
  const lines = ctx.beforeLines ?? [];
  const at = blockHeader(lines, n);
  return at ? lines[at - 1].trim() : "";
}

/** The text of the call starting at `at` in `line`, up to its closing bracket. */
function callText(line: string, at: number): string {
  let depth = 0;
  for (let i = line.indexOf("(", at); i >= 0 && i < line.length; i++) {
    if (line[i] === "(") depth++;
    else if (line[i] === ")" && --depth === 0) return line.slice(at, i + 1);
  }
  return line.slice(at);
}

/** A name that holds a verdict (`matching`, `isValid`, `ok`, `verified`). */
const VERDICT_WORD =
  /\b[\w$]*(?:[Mm]atch(?:ing|es|ed)?|[Vv]alid|[Vv]erified|[Aa]uthori[sz]ed|[Aa]uthenticated|[Aa]llowed|[Pp]ermitted|[Gg]ranted|[Ss]uccess|is_?[Ss]uper_?[Uu]ser|is_?[Aa]dmin|is_?[Ss]taff|is_?[Oo]wner)\b/g;

/** A test that a value is empty or missing, as a condition's term (spaces removed). */
const EMPTY_TERM = /^(?:!|not)([\w$.]+)$|^([\w$.]+)(?:===?|==)(?:""|''|nil|None|null|undefined)$/;

/** A call that handles a failure: an error handler, a denial, an abort. */
const HANDLES_FAILURE =
  /^return\s+((?:await\s+)?[\w$.]*(?:_?on_?error|onError|error|Error|fail\w*|Fail\w*|deny\w*|Deny\w*|reject\w*|Reject\w*|abort\w*|Abort\w*|unauthori[sz]ed\w*|Unauthori[sz]ed\w*|forbid\w*|Forbid\w*)\s*\(.*\))\s*;?$/;

/** How many lines of `text` read `line` (trimmed). */
function lines(text: string, line: string): number {
  let n = 0;
  for (let i = text.indexOf(line); i >= 0; i = text.indexOf(line, i + 1)) {
    const s = text.lastIndexOf("\n", i - 1) + 1;
    const e = text.indexOf("\n", i);
    if (text.slice(s, e < 0 ? text.length : e).trim() === line) n++;
  }
  return n;
}

/**
 * The flow shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flowShapes } from "./guard_shapes_flow.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(7, "if (nonceCount > stored.count) {")];
 * const added = [line(7, "if (nonceCount >= stored.count) {")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "", block: () => ({ body: "return ok()", after: "" }),
 * };
 * assert.match(flowShapes(v, ctx)[0].what, /comparison changed/);
 * ```
 */
export function flowShapes({ removed, added, addedCodes }: HunkView, ctx: ShapeContext): Shape[] {
  const out: Shape[] = [];
  const push = (n: number, what: string) => out.push({ rule: "auth-check-removed", n, what });
  // Asked of the added lines once per hunk, not once per removed line.
  const anyOr = added.some((a) => /\|\||\bor\b/.test(a.c));
  const returnsTrue = added.some((a) => /^return\s+(true|True)\s*;?$/.test(a.c));
  const anyEmpty = added.some((a) => EMPTY_PASSES.test(a.c));
  for (const { l, c } of removed) {
    if (c === "" || addedCodes.has(c)) continue;
    const kindC = headKind(c);
    const isIf = /^(if|elif|else if)$/.test(kindC ?? "");
    // The block this line heads, and whether it fails: read once per removed line, when asked.
    let blockRead: { body: string; bodyFails: boolean } | undefined;
    const block = () => {
      if (blockRead) return blockRead;
      const { body } = ctx.block(l.n);
      return blockRead = { body, bodyFails: FAILURE.test(body) };
    };
    // A session, token or credential no longer invalidated (`delete req.session.user` at logout,
    // `session.regenerate()` at login): the old one stays usable.
    // (A statement: a value read out of the session on its way, `x = session.pop(k)`, is not.)
    const inv = INVALIDATES.test(c) && !/^[\w$.,\s]+(?<![=!<>])=(?!=)/.test(c);
    if (inv && lines(ctx.afterCode, c) < lines(ctx.beforeCode, c) && ctx.secure(l.n)) {
      push(l.n, `session or credential no longer invalidated: \`${clip(c)}\``);
    }
    // A query no longer keeps out revoked, expired or inactive records.
    const ex = EXCLUDES.exec(c)?.[0];
    if (
      ex && (QUERY.test(c) || QUERY.test(ctx.body(Math.max(1, l.n - 3)))) &&
      words(ctx.afterCode, ex) < words(ctx.beforeCode, ex) && ctx.secure(l.n)
    ) push(l.n, `no longer filtered on \`${ex}\`: \`${clip(c)}\``);
    // A failure handled but no longer returned from: execution goes on past it.
    const h = HANDLES_FAILURE.exec(c)?.[1];
    if (h && !NOT_A_DENIAL.test(c) && added.some((a) => a.c.replace(/;$/, "") === h)) {
      push(l.n, `no longer returns after \`${clip(h)}\`: execution goes on`);
    }
    // What a value or a lookup lets through (guard_shapes_grants.ts).
    out.push(...grantShapes(l, c, added, ctx));
    // A check that now also passes when a value is missing (`check_pin(pin) or not pin`,
    // `!hashed || compare(pw, hashed)`, `a == b` → `(!b || a == b)`): an empty one gets in.
    // Read one way only: in a branch that fails, or a setting that protects, the new
    // alternative makes it stricter (`if !valid || err != nil`, `secure: a || !dev`).
    const failing = isIf && anyEmpty &&
      (block().bodyFails || FAILURE.test(c.replace(/^[^:{]*[:{]/, "")));
    const protective = STRICT_ARG.test(/^[\w$.'"]*?([\w$]+)['"]?\s*[:=]/.exec(c)?.[1] ?? "");
    // (A line that continues a condition or an expression: which way it points is not known.)
    const headed = /^(if|elif|else if|return|=|while)$/.test(kindC ?? "") ||
      /^[\w$.[\]'"]+\s*(:=|=(?!=)|:)/.test(c);
    for (const a of !anyEmpty || failing || protective || !headed ? [] : added) {
      const m = EMPTY_PASSES.exec(a.c);
      if (
        m && !EMPTY_PASSES.test(c) && similarStart(c, a.c.replace(EMPTY_PASSES, "")) &&
        (/[=!]=|\w\(|match|valid|verif|success|\bok\b|auth/i.test(c)) && ctx.secure(l.n)
      ) push(l.n, `now passes when \`${m[2] ?? m[3]}\` is empty: \`${clip(a.c)}\``);
    }
    // An error caught and now counted as success (`except X: pass` → `except X: return True`).
    const handler = returnsTrue ? enclosingHeader(ctx, l.n) : "";
    if (/^(except\b|}?\s*catch\b)/.test(handler) && !/^return\s+(true|True)\b/.test(c)) {
      if (ctx.secure(l.n)) {
        push(l.n, `an error is now success: \`${clip(handler)}\` returns true`);
      }
    }
    // A check given an alternative (`compare(pw, hash)` → `compare(pw, hash) || pw === hash`).
    for (
      const call of anyOr ? callNames(c).filter((x) => isCheckCall(x) || CHECKISH.test(x)) : []
    ) {
      const at = c.indexOf(`${call}(`);
      // (Nor is an error built, `new Unauthorized()`: that is no check.)
      if (at < 0 || /(!|\bnot\s+|\bnew\s+)[\w$.]*$/.test(c.slice(0, at))) continue;
      // The whole call, as written (`bcrypt.compare(command.password, user.password)`).
      const whole = callText(c, at);
      const a = added.find((x) =>
        x.c.includes(whole) &&
        (x.c.match(/\|\||\bor\b/g) ?? []).length > (c.match(/\|\||\bor\b/g) ?? []).length &&
        !new RegExp(`(!|\\bnot\\s+)[\\w$.]*${whole.slice(0, 1).replace(/[.$]/g, "\\$&")}`).test(
          x.c.slice(0, x.c.indexOf(whole) + 1),
        )
      );
      if (!a) continue;
      // (`verify(t) or None` gives no value the check did not: the failure stays one.)
      const after = a.c.slice(a.c.indexOf(whole) + whole.length);
      if (/^\)*\s*(\|\||\bor\b)\s*(None|null|undefined|nil|false|False)\b/.test(after)) continue;
      if (isIf && block().bodyFails) continue;
      if (ctx.secure(l.n)) push(l.n, `\`${call}()\` given an alternative: \`${clip(a.c)}\``);
      break;
    }
    // A verdict handed on given an alternative (`callback(matching)` → `callback(matching || …)`).
    for (const v of anyOr ? c.match(VERDICT_WORD) ?? [] : []) {
      const re = new RegExp(
        `(^|[^\\w$.!])(?<!\\bnot\\s+)(?<![\\w$.])(?:[\\w$]+\\.)*${
          v.replace(/[$]/g, "\\$&")
        }\\s*(\\|\\||\\bor\\b)\\s*(?!!|not\\b)`,
      );
      const a = added.find((x) => re.test(x.c) && !re.test(c) && similarStart(c, x.c));
      if (a && !(isIf && block().bodyFails) && ctx.secure(l.n)) {
        push(l.n, `\`${v}\` given an alternative: \`${clip(a.c)}\``);
        break;
      }
    }
    const cb = condition(c);
    if (!cb) continue;
    // What the condition's own line does after it (`if x: raise …`), and its terms, once per line.
    const inlineFails = FAILURE.test(c.slice(c.indexOf(cb) + cb.length));
    const andB = terms(cb, "and");
    for (const a of added) {
      const ca = condition(a.c);
      if (!ca || headKind(a.c) !== kindC) continue;
      // (A branch turned round with its bodies, an `if`/`else` swapped, says what it said.)
      if (isIf && ctx.beforeLines && !sameBody(ctx.beforeLines, l.n, ctx.afterLines, a.l.n)) {
        continue;
      }
      // A comparison turned round or made (non-)strict (`now < expires` → `now > expires`,
      // `nc > last` → `nc >= last`): who passes changes, in a check about time or counts.
      const ob = cb.match(ORDER) ?? [];
      const oa = ca.match(ORDER) ?? [];
      if (
        ob.length > 0 && ob.length === oa.length && ob.join() !== oa.join() &&
        cb.replace(ORDER, "<").replace(/\s+/g, "") === ca.replace(ORDER, "<").replace(/\s+/g, "") &&
        ORDERED.test(cb) && ctx.secure(l.n)
      ) {
        const k = ob.findIndex((x, i) => x !== oa[i]);
        // Made strict or non-strict: more pass when the branch grants and the test now holds
        // more often (`>` → `>=`), or when it fails and the test holds less often.
        const wider = (ob[k] === ">" && oa[k] === ">=") || (ob[k] === "<" && oa[k] === "<=");
        const narrower = (ob[k] === ">=" && oa[k] === ">") || (ob[k] === "<=" && oa[k] === "<");
        const { body, bodyFails } = block();
        const fails = bodyFails || inlineFails;
        const grants = !fails && (GRANTS.test(body) || kindC === "return");
        if ((wider && fails) || (narrower && grants)) continue;
        push(l.n, `comparison changed: \`${ob[k]}\` → \`${oa[k]}\` in \`${clip(ca)}\``);
      }
      // A check now run only sometimes: a condition whose branch runs a check given one more
      // requirement (`if ssl_verify:` → `if ssl_verify and certificate_file:`).
      if (isIf && widened(cb, ca, "and")) {
        const { body, bodyFails } = block();
        const runsCheck = callNames(body).some((x) =>
          isCheckCall(x) || /csrf|xsrf|verif|validat|permission|authori|authenticat/i.test(x)
        ) ||
          /\b(verify|validate|check|enforce|require)\w*\s*[:=(]/i.test(body);
        const extra = terms(ca, "and").filter((t) =>
          !andB.includes(t)
        );
        // (A new term that is itself a check, or its failure, makes a failure branch of it.)
        const plain = extra.every((t) => !/^(!|not)/.test(t) && !callNames(t).some(isCheckCall));
        if (runsCheck && plain && !bodyFails && ctx.secure(l.n)) {
          push(l.n, `check now runs only when \`${clip(extra.join(" and "))}\``);
        }
      }
      // A failing branch that tests the container for the thing (`!session.user` → `!session`):
      // a session without a user passes.
      if (isIf) {
        const member = /(?:^|[\s(&|])(?:!|not\s+)([\w$]+(?:\.[\w$]+)*)\.([\w$]+)\b(?!\s*\()/.exec(
          cb,
        );
        if (member) {
          const whole = `${member[1]}.${member[2]}`;
          const parent = new RegExp(`(!|not\\s+)${member[1].replace(/[.$]/g, "\\$&")}(?![\\w$.])`);
          if (
            !ca.includes(whole) && parent.test(ca) &&
            (block().bodyFails || inlineFails) && ctx.secure(l.n)
          ) push(l.n, `now tests \`${member[1]}\` instead of \`${whole}\``);
        }
      }
      // A comparison reduced to one of its sides (`user == owner.name` → `user`), or an explicit
      // yes to any truthy value (`res === true` → `res`): more values pass.
      const cmp = /^([\w$.[\]'"()]+)\s*(===?|is)\s*([\w$.[\]'"()]+)$/.exec(cb.trim());
      if (cmp && isIf) {
        const bareA = ca.trim();
        if (
          !(block().bodyFails || inlineFails) && (bareA === cmp[1] || bareA === cmp[3]) &&
          (/^(true|True)$/.test(cmp[3]) || ctx.secure(l.n))
        ) {
          push(l.n, `comparison reduced to a truth test: \`${clip(cb)}\` → \`${clip(ca)}\``);
        }
      }
      // A lookup replaced by a truth test of what was looked up (`has(sessions, token)` → `token`).
      const look =
        /^(?:[\w$.]*\.)?(hasOwnProperty\.call|has|includes|contains|exists|in_?\w*|get)\((.*)\)$/
          .exec(cb.trim());
      if (look && isIf) {
        const args = look[2].split(",").map((x) => x.trim());
        if (args.includes(ca.trim()) && ctx.secure(l.n)) {
          push(l.n, `lookup replaced by a truth test: \`${clip(cb)}\` → \`${clip(ca)}\``);
        }
      }
      // An allow-list test turned into a deny-list test (`m == IsMember` → `m != NotMember`): what
      // is neither now passes.
      const eq = /^(.+?)\s*===?\s*([\w$.]+)$/.exec(cb.trim().replace(/,\s*nil$/, ""));
      const ne = /^(.+?)\s*!==?\s*([\w$.]+)$/.exec(ca.trim().replace(/,\s*nil$/, ""));
      // (In a branch that fails, the same edit fails on more: stricter.)
      if (
        eq && ne && eq[1] === ne[1] && eq[2] !== ne[2] && !/^\d/.test(eq[2] + ne[2]) &&
        !(block().bodyFails || inlineFails) && ctx.secure(l.n)
      ) {
        push(l.n, `only \`${ne[2]}\` is refused now, where only \`${eq[2]}\` passed`);
      }
      // A failing branch that no longer fails on an empty value (`if x == "" || bad` → `if x != "" &&
      // bad`, `|| !cookieToken` dropped for `csrfToken &&`): an empty one now skips the check.
      const emptyTest = terms(cb, "or").map((t) => {
        const m = EMPTY_TERM.exec(t);
        return m?.[1] ?? m?.[2];
      }).find((x) => x);
      if (emptyTest && isIf) {
        const present = terms(ca, "and").some((t) =>
          t === emptyTest || t === `${emptyTest}!=""` || t === `${emptyTest}!==""` ||
          t === `${emptyTest}!=nil`
        );
        if (present && block().bodyFails && ctx.secure(l.n)) {
          push(l.n, `an empty \`${emptyTest}\` now skips the check: \`${clip(ca)}\``);
        }
      }
      // A failure that needed any bad item now needs them all (`.some(` → `.every(`).
      if (
        /\.some\(/.test(cb) && cb.replace(/\.some\(/, ".every(").replace(/\s+/g, "") ===
          ca.replace(/\s+/g, "")
      ) {
        if ((block().bodyFails || /\b(throw|raise)\b/.test(c)) && ctx.secure(l.n)) {
          push(l.n, `failure now needs every item to fail: \`${clip(ca)}\``);
        }
      }
      // A requirement dropped from a condition that grants or selects (`if verified and
      // allowed(e)` → `if allowed(e)`, `return a and b` → `return a`): more pass.
      const tb = andB;
      const ta = terms(ca, "and");
      const dropped = tb.filter((t) => !ta.includes(t));
      if (
        tb.length >= 2 && ta.length >= 1 && ta.every((t) => tb.includes(t)) &&
        dropped.length > 0 &&
        dropped.every((t) => REQUIREMENT.test(t) || /[=!]==?|[<>]/.test(t))
      ) {
        // A branch that fails, or runs a check, is stricter when it is entered more often.
        const { body, bodyFails } = block();
        const fails = bodyFails || inlineFails || callNames(body).some((x) => isCheckCall(x)) ||
          PUTS_ON.test(body);
        const isReturn = kindC === "return";
        // (So is a predicate whose yes keeps someone out, `requires_mfa`, when it says yes more.)
        const keepsOut = isReturn &&
          (PROTECTING_FN.test(ctx.fn(l.n)) || yesKeepsOut(ctx.fn(l.n)));
        if (!fails && !keepsOut && ctx.secure(l.n)) {
          push(l.n, `requirement dropped: \`${clip(dropped.join(" and "))}\` from \`${clip(cb)}\``);
        }
      }
    }
  }
  return out;
}
