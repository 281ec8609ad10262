/**
 * Shape signals about what an edit took away: a canonicalising step, a clamp or a reset, code
 * with its security rationale, a check commented out, a requirement joined with `or`, a minimum
 * lowered, a check no longer named in a list, a security argument, a scoping or sanitising call.
 * Called by `guard_shapes.ts`; pure.
 *
 * @module
 */
import { ownerLeaning } from "./value_swaps.ts";
import { failsAnyway } from "./guard_failures.ts";
import {
  denies,
  FAILURE,
  FALSY,
  NOT_A_DENIAL,
  SECURE_SETTING,
  SECURITY_ARG,
  SETTING_VALUE,
  speaksSecurity,
} from "./guard_vocab.ts";
import {
  args,
  callNames,
  clip,
  code,
  condition,
  headKind,
  isCheckCall,
  lastName,
  occurrences,
  similar,
  similarStart,
  underscored,
} from "./guard_text.ts";
import {
  BYPASS_TERM,
  CHECK_REFERENCE,
  droppedStep,
  durationSeconds,
  ERROR_RESULT,
  EXEMPTIONS,
  GRANTS,
  IDENTITY,
  joins,
  lastNumber,
  LIFETIME_NAME,
  MINIMUM_NAME,
  NEGATIVE,
  PROTECTING_FN,
  quotedItems,
  RATIONALE,
  RATIONALE_WEAK,
  SANITISING_CALL,
  SCOPING_CALL,
  terms,
  uncommented,
  VERDICT_TERM,
  widened,
  words,
} from "./guard_shape_vocab.ts";
import { noRequirement } from "./guard_requirements.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";
import { yesKeepsOut } from "./name_polarity.ts";

/** A line with every `and` and `or` written `||`, without spaces: operands only. */

function orJoined(t: string): string {
  return t.replace(/&&|\band\b/g, "||").replace(/\bor\b/g, "||").replace(/\s+/g, "");
}

/** An argument that protects what it is given to: the permissions, roles or checks it needs. */
const PROTECTIVE_ARG =
  /^\s*['"]?(permissions?|permission_classes|permission_required|required_permissions?|roles|required_roles|allowed_roles|guards|policies|required_scopes|authentication_classes|dependencies|pre_?[hH]andlers?|onRequest|beforeEnter|canActivate|canLoad)['"]?\s*[=:](?!=)\s*\S/;

/**
 * What the branch a removed header opens does: its body (lines below, or after the condition on
 * the header's own line), whether it fails, whether the code after it fails (so a value it returns
 * is the way through), and whether its function picks what to strip or deny.
 */
function readBranch(c: string, cb: string, n: number, ctx: ShapeContext) {
  const { body, after } = ctx.block(n);
  const inline = c.slice(c.indexOf(cb) + cb.length);
  // A negated check leading to an empty return is a failure too (`if not check(p): return {}`).
  const emptyExit = /^return\s*(\{\}|\[\]|""|''|None|null|nil|false|False)?\s*;?$/.test(
    body.trim().split("\n")[0],
  ) && terms(cb, "and").some((t) => /^(!|not)/.test(t) && callNames(t).some(isCheckCall));
  const fails = (FAILURE.test(body) || FAILURE.test(inline) || ERROR_RESULT.test(body) ||
    emptyExit) && !NOT_A_DENIAL.test(body);
  const through = /^return\s+(?!(None|null|nil|false|False|undefined)\b)\S/.test(body.trim()) &&
    FAILURE.test(after);
  // A predicate that picks what to strip, deny or redact protects more when it says yes more.
  const protects = PROTECTING_FN.test(ctx.fn(n));
  return { body, fails, through, protects };
}

/** Whether the block a header at before-line `n` opens fails further down than the shapes read. */
function failsFurther(n: number, ctx: ShapeContext): boolean {
  return denies(ctx.block(n, 16).body);
}

/**
 * The removal shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { removalShapes } from "./guard_shapes_removed.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(2, "  login = creds.get('email').lower()")];
 * const added = [line(2, "  login = creds.get('email')")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "", fn: () => "",
 *   block: () => ({ body: "", after: "" }),
 * };
 * assert.match(removalShapes(v, ctx)[0].what, /\.lower\(\)` no longer applied/);
 * ```
 */
export function removalShapes(
  { h, removed, added, addedCodes }: HunkView,
  ctx: ShapeContext,
): Shape[] {
  const out: Shape[] = [];
  // A value no longer normalised before it is compared or looked up (`.lower()`, `normalize`,
  // `.replace(/^\/+/, '/')`, `filepath.Clean`): what was one identity or one path can be two.
  for (const { l, c } of removed) {
    for (const a of added) {
      const step = droppedStep(c, a.c);
      if (step && (ctx.secure(l.n) || IDENTITY.test(c))) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `\`${clip(step)}\` no longer applied`,
        });
      }
    }
  }

  // A branch removed that clamped a limit (`if exp > max: exp = max`) or cleared what failed a
  // check (`if device.user_id != user.pk: device = None`).
  for (let i = 0; i + 1 < removed.length; i++) {
    const cond = condition(removed[i].c);
    if (!cond || !/^(if|elif|else\s+if)$/.test(headKind(removed[i].c) ?? "")) continue;
    const body = removed[i + 1].c;
    const m = /^([\w$.\[\]]+)\s*:?=(?!=)\s*([^;]+?);?$/.exec(body);
    if (!m || addedCodes.has(removed[i].c)) continue;
    const target = m[1];
    const cmp = new RegExp(
      `${target.replace(/[.$[\]]/g, "\\$&")}\\s*[<>]=?\\s*${
        m[2].replace(/[.$()[\]*+?]/g, "\\$&")
      }|${m[2].replace(/[.$()[\]*+?]/g, "\\$&")}\\s*[<>]=?\\s*${
        target.replace(/[.$[\]]/g, "\\$&")
      }`,
    );
    const clamp = cmp.test(cond);
    // What was cleared was tested, or is itself a credential (`session_data = None`).
    const cleared = FALSY.test(m[2]) &&
      (cond.includes(target.split(/[.[]/)[0]) || speaksSecurity(target));
    if ((clamp || cleared) && ctx.secure(removed[i].l.n)) {
      out.push({
        rule: "auth-check-removed",
        n: removed[i].l.n,
        what: `${clamp ? "limit" : "reset"} removed: \`${clip(removed[i].c)}\``,
      });
    }
  }

  // Code removed together with the comment that said what it protects against.
  const codeGone = removed.some(({ c }) => c !== "" && !addedCodes.has(c));
  if (codeGone) {
    const kept = new Set(h.added.map((a) => a.text.trim()));
    const why = h.removed.find((l) =>
      code(l.text) === "" && !kept.has(l.text.trim()) &&
      (RATIONALE.test(l.text) || (RATIONALE_WEAK.test(l.text) && speaksSecurity(l.text)))
    );
    if (why) {
      out.push({
        rule: "auth-check-removed",
        n: why.n,
        what: `code removed with its security rationale: \`${clip(why.text)}\``,
      });
    }
  }

  // A check commented out: a removed line that fails or checks comes back as a comment.
  const commented = new Set(added.map((a) => uncommented(a.l.text)).filter((t) => t));
  for (const { l, c } of removed) {
    if (c === "" || !commented.has(c)) continue;
    const checks = denies(c) ||
      callNames(c).some((x) => isCheckCall(x) || /csrf|xsrf|auth|permission|verif/i.test(x)) ||
      /\b(deny|denied|reject\w*|forbid\w*|unauthori[sz]ed|revoke\w*)\b/i.test(c) ||
      // …or a strict setting (`config.ClientAuth = tls.RequireAndVerifyClientCert`).
      (/^[\w$.[\]'"]+\s*:?=(?!=)/.test(c) &&
        /\b(true|True|CERT_REQUIRED|Require\w*|\w*Verify\w*|Strict\w*)\b/.test(
          c.split(/=/).pop()!,
        ) &&
        SECURE_SETTING.test(c.split(/=/)[0]));
    if (checks) {
      out.push({ rule: "auth-check-removed", n: l.n, what: `\`${c.slice(0, 60)}\` commented out` });
    }
  }

  // What each added line is, asked once per hunk rather than once per removed line.
  const addedFacts = added.map((a) => ({
    setting: SETTING_VALUE.exec(a.c),
    cond: condition(a.c),
    kind: headKind(a.c),
    joins: joins(a.c),
  }));
  for (const { l, c } of removed) {
    if (c === "" || addedCodes.has(c)) continue;
    const kb = SETTING_VALUE.exec(c);
    const cb = condition(c);
    const kindC = headKind(c);
    const jb = joins(c);
    // The branch a removed header opens, read once per line (only when a header pairs up).
    let branch: ReturnType<typeof readBranch> | undefined;
    for (const [i, a] of added.entries()) {
      if (a.c === "") continue;
      const facts = addedFacts[i];
      // A security setting now falsy (`"verify_iss": False`, `TOKEN_TTL: None`), where it was not.
      const ka = facts.setting;
      // (A trusting setting given no value, `trusted_auth_header: None`, is the safe side.)
      if (
        kb && ka && kb[1].toLowerCase() === ka[1].toLowerCase() && FALSY.test(ka[2]) &&
        !FALSY.test(kb[2]) &&
        ownerLeaning(c, a.c, { above: "", secure: ctx.secure(l.n) }) <= 0
      ) {
        out.push({
          rule: "secure-default-weakened",
          n: l.n,
          what: `\`${clip(c)}\` → \`${clip(a.c)}\``,
        });
      }
      // A check made optional (`if ok(x)` → `if ok(x) || y`) or given an exception where it fails
      // (`if a && bad` → `if a && b && bad`): the old terms all still there, one more beside them.
      const ca = facts.cond;
      if (cb && ca && kindC === facts.kind && cb.trim() !== ca.trim()) {
        branch ??= readBranch(c, cb, l.n, ctx);
        const { body, fails, through, protects } = branch;
        // (A predicate that says no, `Expired`, says it in more cases: stricter.)
        const alt = widened(cb, ca, "or") && !(kindC === "return" && protects) &&
          !(kindC === "return" && yesKeepsOut(ctx.fn(l.n))) &&
          (kindC !== "return" ||
            terms(ca, "or").filter((t) => !terms(cb, "or").includes(t)).every((t) =>
              !NEGATIVE.test(t)
            ));
        // (A kind of error let through, `err != nil && !errors.Is(err, ErrNotFound)`, or a value
        // tested for being there, `info != nil && …`, is error handling, not an exception; a
        // check's failure made the condition, `if do_verify and not verify(t)`, a check added.)
        const exception = widened(cb, ca, "and") &&
          !terms(ca, "and").some((t) => !terms(cb, "and").includes(t) && noRequirement(t));
        const checky = callNames(cb).some((x) =>
          isCheckCall(x) || /valid|verif|auth|allow|perm|confirm|equal|compare|match/i.test(x)
        );
        const isReturn = kindC === "return";
        // The alternative is a debug, environment or allowance switch, or what it widens is a
        // verdict alone (`if (success)` → `if (success || devMode)`): a way around the check.
        const added = terms(ca, "or").filter((t) => !terms(cb, "or").includes(t));
        const around = alt && !fails && !protects &&
          (added.every((t) => BYPASS_TERM.test(t)) ||
            terms(cb, "or").every((t) => VERDICT_TERM.test(t) && !t.startsWith("!")) ||
            terms(cb, "or").every((t) =>
              /^[\w$.]*(allow|Allow|insecure|Insecure|skip|Skip|unsafe|Unsafe)\w*$/.test(t)
            ));
        if (
          ((alt && (isReturn || around || (!fails && (GRANTS.test(body) || through)))) ||
            (exception && !isReturn && (fails || failsFurther(l.n, ctx)))) &&
          (checky || ctx.secure(l.n))
        ) {
          const how = alt ? "made optional" : "given an exception";
          out.push({
            rule: "auth-check-removed",
            n: l.n,
            what: `check ${how}: \`${clip(cb)}\` → \`${clip(ca)}\``,
          });
        }
      }
      // `and` turned into `or` with the same operands: one requirement enough where both were.
      // (In a branch that fails, `if a == nil && b == nil { return err }`, it fails in more
      // cases: stricter.)
      const ja = facts.joins;
      if (
        jb.and > ja.and && ja.or > jb.or &&
        orJoined(c) === orJoined(a.c) &&
        ctx.secure(l.n) &&
        !(cb && failsAnyway(branch ??= readBranch(c, cb, l.n, ctx)))
      ) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `\`and\` → \`or\`: \`${a.c.slice(0, 60)}\``,
        });
      }
      if (!similar(c, a.c)) continue;
      // (A duration in units, `'4h'`, `timedelta(hours=1)`, is read in seconds; unit keywords
      // outside such a call are the grant shapes' to read.)
      const inUnits = (t: string) => UNITS_CALL.test(t) ? durationSeconds(t) : null;
      const nb = inUnits(c) ?? lastNumber(c);
      const na = inUnits(a.c) ?? lastNumber(a.c);
      if (!(nb > 0) || !(na >= 0) || nb === na) continue;
      // A minimum lowered (a password length, a key size, a work factor) by half or more.
      if (MINIMUM_NAME.test(c) && na * 2 <= nb && !LIFETIME_NAME.test(c) && ctx.secure(l.n)) {
        out.push({
          rule: "secure-default-weakened",
          n: l.n,
          what: `minimum lowered: ${nb} → ${na}`,
        });
      }
      // A lifetime raised tenfold (a token's expiry, a session's age), its name on the line or
      // on one of the two above (`csrf_token_expiration = Field(` / `default=timedelta(hours=1)`),
      // durations read in seconds.
      const above = (ctx.beforeLines ?? []).slice(Math.max(0, l.n - 3), l.n - 1).join(" ");
      if (
        (LIFETIME_NAME.test(c) || LIFETIME_NAME.test(above)) && na >= nb * 10 && ctx.secure(l.n)
      ) {
        out.push({
          rule: "secure-default-weakened",
          n: l.n,
          what: `lifetime raised: ${nb} → ${na}`,
        });
      }
    }
  }

  // A check named in a list (middleware, validators, a route's handlers) and no longer named.
  for (const { l, c } of removed) {
    if (/^\s*(import|from|export|package|using|#include)\b|\brequire\(/.test(c)) continue;
    // (A list of checks by their names, `['isVerified', 'verifyNotExpired']`, one a line.)
    const quoted = /^['"]([A-Za-z_$][\w$]{5,})['"],?$/.exec(c);
    const found = quoted
      ? [quoted[1]]
      : [...c.matchAll(/(?<![\w$.'"])([A-Za-z_$][\w$]{5,})(?![\w$]|\s*[(.:=])/g)].map((m) => m[1]);
    for (const name of found) {
      if (!CHECK_REFERENCE.test(underscored(name))) {
        continue;
      }
      if (words(ctx.afterCode, name) >= words(ctx.beforeCode, name)) continue;
      if (
        !ctx.secure(l.n) && !/auth|perm|role|admin|csrf|xsrf|token|login|owner|access/i.test(name)
      ) continue;
      out.push({ rule: "auth-check-removed", n: l.n, what: `${name} no longer applied` });
    }
  }

  // A protective argument of a route, view, link or handler dropped, one a line
  // (`permissions=(p_edit,),`, `dependencies=[Depends(admin)],`, `preHandler: [auth],`).
  for (const { l, c } of removed) {
    const m = PROTECTIVE_ARG.exec(c);
    if (!m || !/,\s*$/.test(c)) continue;
    const key = new RegExp(`(^|[^\\w$])${m[1]}\\s*[=:](?!=)`, "g");
    if ((ctx.afterCode.match(key) ?? []).length >= (ctx.beforeCode.match(key) ?? []).length) {
      continue;
    }
    if (ctx.secure(l.n)) {
      out.push({ rule: "auth-check-removed", n: l.n, what: `\`${m[1]}\` dropped: \`${clip(c)}\`` });
    }
  }

  // A security argument dropped from a call written over several lines.
  if (h.removed.length <= 8 && h.added.length <= 8 && h.removed.length > 1) {
    const rb = removed.map((x) => x.c).join(" ");
    const ra = added.map((x) => x.c).join(" ");
    for (const call of new Set(callNames(rb))) {
      if (!callNames(ra).includes(call)) continue;
      const before = args(rb, call);
      const after = args(ra, call);
      const sec = before.find((x) => SECURITY_ARG.test(x) && !after.includes(x));
      if (sec && after.length < before.length && ctx.secure(h.removed[0].n)) {
        out.push({
          rule: "secure-default-weakened",
          n: h.removed[0].n,
          what: `\`${clip(sec)}\` no longer passed to ${lastName(call)}()`,
        });
      }
    }
  }

  // A list of what goes unchecked grew (`ignoredMethods`, `exempt`, `public_paths`, `skip`).
  for (const { l, c } of removed) {
    if (!EXEMPTIONS.test(c)) continue;
    for (const a of added) {
      if (!similarStart(c, a.c) || !EXEMPTIONS.test(a.c)) continue;
      // (Quoted words passed to a call, `envBool("SKIP_VERIFY")`, are no list.)
      const listed = /[\[{]|(?<![\w$])\(/.test(a.c);
      if (quotedItems(a.c) > quotedItems(c) && listed && ctx.secure(l.n)) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `exemptions widened: \`${clip(a.c)}\``,
        });
      }
    }
  }

  // A scoping or sanitising call dropped (fewer after the edit than before).
  for (const { l, c } of removed) {
    for (const call of callNames(c)) {
      const name = lastName(call);
      const snake = underscored(name).replace(/^_+/, "");
      const scoping = SCOPING_CALL.test(snake);
      if (!scoping && !SANITISING_CALL.test(snake)) continue;
      if (occurrences(ctx.afterCode, name) >= occurrences(ctx.beforeCode, name)) continue;
      out.push({
        rule: "auth-check-removed",
        n: l.n,
        what: `${scoping ? "scoping" : "sanitising"} call ${name}() removed`,
      });
    }
  }
  return out;
}

/** A duration written as a time string or a call in units (`'4h'`, `timedelta(hours=1)`). */
const UNITS_CALL = /['"`]\d[\d.]*\s*(ms|s|m|h|d|w|y)['"`]|\b(timedelta|Duration|relativedelta)\(/;
