/**
 * The changed-line signal for conditions (`guard_lines.ts`): a removed `if`/`elif`/`while`/`return`
 * header paired with the added one of the same kind, and read for what it lets through — a
 * conjunct or a check dropped, a constant put in, `false &&` or `|| true` added, a `return` that
 * now says yes — in security code, and never for a requirement dropped from a branch that fails
 * or runs a check (which then runs more often: stricter). Also a failing branch that fails in
 * fewer cases (`err != nil || bad` → `err == nil && bad`, a bound moved, a way to fail dropped from
 * `cond ? reject(…) : resolve()`), a granting branch now also taken on an error, a branch that puts
 * a middleware on needing more, a predicate's roles widened, and counts that no longer count
 * (`length >= 0`, `matched == len(need)` → `matched > 0`).
 *
 * @module
 */
import { CONSTANT, denies, NOT_A_DENIAL, PREDICATE, SECURITY, YES_ARM } from "./guard_vocab.ts";
import {
  assigned,
  bare,
  blockOf,
  callNames,
  clip,
  compares,
  condition,
  conjuncts,
  enclosing,
  headKind,
  type Hunk,
  isCheckCall,
  lastName,
  operands,
  securityWords,
  similarStart,
} from "./guard_text.ts";
import { inverted, terms } from "./guard_shape_vocab.ts";
import { noRequirement, PUTS_ON } from "./guard_requirements.ts";
import { yesKeepsOut } from "./name_polarity.ts";

/** The parts of `cond ? yes : no` on a line (`(err || !ok) ? reject(err) : resolve()`). */
function ternary(line: string): [string, string, string] | null {
  const m = /^(?:return\s+|[\w$.]+\s*[:=]\s*|.*=>\s*)?\(?(.+?)\)?\s+\?\s+(.+?)\s+:\s+(.+?)[;,]?$/
    .exec(line);
  return m ? [m[1], m[2], m[3]] : null;
}

/**
 * A conditional whose failing arm (`reject(…)`, `throw`, an error) is now taken in fewer cases: a
 * way to fail dropped from its condition. `[before, after]` conditions, or null.
 */
function ternaryNarrowed(rc: string, addedCode: string[]): [string, string] | null {
  const tb = ternary(rc);
  if (!tb || !failing(tb[1])) return null;
  for (const t of addedCode) {
    const ta = ternary(t);
    if (!ta || ta[1] !== tb[1] || ta[2] !== tb[2]) continue;
    const bo = terms(tb[0], "or");
    const ao = terms(ta[0], "or");
    if (ao.length < bo.length && ao.every((x) => bo.includes(x))) return [tb[0], ta[0]];
  }
  return null;
}

/** Whether a block's code fails (`raise`, `throw`, a 401, an error response), as a denial. */
function failing(body: string): boolean {
  return denies(body) || (/\bbad_?request\w*\(/i.test(body) && !NOT_A_DENIAL.test(body));
}

/** A test of a role or a privilege, whole (`user.is_manager`, `hasRole('admin')`). */
const ROLE_TERM =
  /^[\w$.]*\b(is_?|has_?)(admin|administrator|staff|superuser|super_?admin|owner|manager|moderator|maintainer|root)\w*$|^[\w$.]*\b(has_?role|hasRole|has_?perm\w*|hasPerm\w*|has_?any_?role|in_?group|inGroup)\(.*\)$/i;

/**
 * Whether a condition is roles alone joined by `or` (`user.is_manager or user.is_reviewer`), a
 * privileged one among them: its yes lets in.
 */
function rolesOnly(cond: string): boolean {
  const ts = terms(cond, "or");
  return ts.some((t) => ROLE_TERM.test(t)) &&
    ts.every((t) =>
      ROLE_TERM.test(t) ||
      (/^[\w$.]*\b(is|has)_?[A-Za-z]\w*$/.test(t) && !yesKeepsOut(lastName(t)))
    );
}

/**
 * Whether a failing branch's bound moved so it fails in fewer cases: `count > 0` → `count > 1`,
 * `age < 60` → `age < 30` (the same test, one number changed).
 */
function eased(cb: string, ca: string): boolean {
  const re = /(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\b/g;
  const mb = [...cb.matchAll(re)];
  const ma = [...ca.matchAll(re)];
  if (mb.length !== 1 || ma.length !== 1 || mb[0][1] !== ma[0][1]) return false;
  if (cb.replace(re, "#") !== ca.replace(re, "#")) return false;
  const [nb, na] = [Number(mb[0][2]), Number(ma[0][2])];
  return mb[0][1].startsWith(">") ? na > nb : na < nb;
}

/** A test that an error happened (`err != nil`, `error`, `e is not None`). */
const ERROR_PRESENT = /^(err|error|e|ex|exc)\w*(!=nil|!==?(null|undefined)|isnotNone)?$/i;

/** A size compared with zero: `>= 0` holds for every size. */
const SIZE = String
  .raw`(?:\.length|\.size\(?\)?|\blen\([^()]*(?:\([^()]*\)[^()]*)*\)|\bcount\w*|\w*[cC]ount|\bmatched\w*)`;
const SIZE_ANY = new RegExp(`${SIZE}\\s*>=\\s*0\\b`);
const SIZE_ALL = new RegExp(
  `${SIZE}\\s*[=!]==?\\s*(?:len\\(|[\\w$.]+\\.length\\b|[\\w$.]+\\.size\\b)`,
);
const SIZE_SOME = new RegExp(`${SIZE}\\s*(?:>\\s*0|>=\\s*1)\\b`);

/**
 * A test of how many loosened: a size now compared `>= 0` (always true) where it was not, or a
 * count of all required (`matched == len(need)`) made a count of any (`matched > 0`).
 */
function countLoosened(cb: string, ca: string): boolean {
  if (SIZE_ANY.test(ca) && !SIZE_ANY.test(cb)) return true;
  return SIZE_ALL.test(cb) && !SIZE_ALL.test(ca) && SIZE_SOME.test(ca) && !SIZE_SOME.test(cb);
}

/** What the caller knows about the edit around a hunk. */
export interface ConditionEnv {
  /** The before-text's lines. */
  bl: string[];
  /** Whether the file's path speaks of security. */
  pathSecure: boolean;
  /** The changed lines, or the function before-line `n` sits in, speak of security. */
  strong(n: number): boolean;
  /** Security code at before-line `n`: the path, the function, or the text around the hunk. */
  secure(n: number): boolean;
}

/**
 * Conditions weakened in one hunk, each with the before-line it is about.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { weakenedConditions } from "./guard_conditions.ts";
 * const bl = ["def view(request, user, p):", "    if user is not None and user.check_password(p):", "        return ok()"];
 * const h = {
 *   removed: [{ n: 2, text: bl[1] }],
 *   added: [{ n: 2, text: "    if user is not None:" }],
 * };
 * const env = { bl, pathSecure: true, strong: () => true, secure: () => true };
 * assert.match(weakenedConditions(h, [bl[1].trim()], ["if user is not None:"], env)[0].what, /condition weakened/);
 * ```
 */
export function weakenedConditions(
  h: Hunk,
  removedCode: string[],
  addedCode: string[],
  env: ConditionEnv,
): { n: number; what: string }[] {
  const out: { n: number; what: string }[] = [];
  for (let i = 0; i < h.removed.length; i++) {
    const r = h.removed[i];
    const rc = removedCode[i];
    const tern = ternaryNarrowed(rc, addedCode);
    if (tern && env.secure(r.n)) {
      out.push({ n: r.n, what: `condition weakened: \`${clip(tern[0])}\` → \`${clip(tern[1])}\`` });
      continue;
    }
    const cb = condition(rc) ?? assigned(rc);
    if (cb === null || cb === "") continue;
    const kind = headKind(rc);
    const close = addedCode.find((t) =>
      headKind(t) === kind &&
      (similarStart(rc, t) || CONSTANT.test((condition(t) ?? assigned(t) ?? "").trim()))
    );
    // A header that replaced the only removed line is its partner however it starts, for the
    // narrowing read alone (`err != nil || bad` → `err == nil && bad`).
    const loose = close === undefined && removedCode.length === 1 && addedCode.length === 1 &&
      headKind(addedCode[0]) === kind;
    const partner = loose ? addedCode[0] : close;
    if (partner === undefined) continue;
    const ca = condition(partner) ?? assigned(partner);
    if (ca === null) continue;
    // (A yes for the case a check was skipped, `check() if c else True`, taken out: stricter.)
    if (
      YES_ARM.test(cb) && !YES_ARM.test(ca) && !CONSTANT.test(ca.trim()) && cb.includes(ca.trim())
    ) continue;
    const fn = bare(enclosing(env.bl, r.n));
    const inCheck = PREDICATE.test(fn) || SECURITY.test(fn);
    if ((kind === "return" || kind === "=") && !inCheck && !env.pathSecure) continue;
    const lost = callNames(cb).filter((c) => !ca.includes(lastName(c)));
    const fewerCompares = compares(ca) < compares(cb);
    // A predicate whose yes keeps someone out (`Denylisted`, `is_revoked`) is weakened when it
    // says no where it said yes or where it worked out its answer; its other answers are for
    // the no-way read below.
    // (Whatever the predicate's name, `manager_required`, a role it returns is a yes that lets in.)
    const keepsOut = kind === "return" && yesKeepsOut(fn) && !rolesOnly(cb);
    const saysNo = /^\(?\s*(False|false|0|None|nil|null|undefined)\s*\)?;?$/.test(ca.trim());
    const weaker = keepsOut
      ? saysNo && (!CONSTANT.test(cb.trim()) || /^(true|True)\b/.test(cb.trim()))
      : (CONSTANT.test(ca.trim()) && !CONSTANT.test(cb.trim())) ||
        (CONSTANT.test(ca.trim()) && CONSTANT.test(cb.trim()) && ca.trim() !== cb.trim() &&
          kind === "return" && inCheck && /^\(?\s*(true|True|1)\b/.test(ca.trim())) ||
        // A check that now says yes where it said no.
        (kind === "return" && /^(false|False)\b/.test(cb.trim()) &&
          /^(true|True)\b/.test(ca.trim())) ||
        // `false &&` or `|| true` put into a condition.
        (/^(false|False)\s*(&&|and\b)|(\|\||\bor)\s*(true|True)\s*$/.test(
          ca.trim().replace(/^.*;\s*/, ""),
        ) &&
          !/(false|False)\s*(&&|and)|(\|\||or)\s*(true|True)/.test(cb)) ||
        (operands(ca) < operands(cb) &&
          (lost.some((c) => isCheckCall(c) || SECURITY.test(c)) ||
            securityWords(ca) < securityWords(cb) || (fewerCompares && inCheck) ||
            // A whole conjunct dropped from an `if` (`a and b` → `b`): one requirement fewer.
            (kind !== "return" && kind !== "=" && conjuncts(ca) < conjuncts(cb) &&
              ca.split(/&&|\band\b/).every((p) => cb.includes(p.trim())))));
    const flipped = kind === "return" &&
      (keepsOut ? /^(false|False)\b/ : /^(true|True)\b/).test(ca.trim());
    // A way to say no dropped from what a predicate that says no returns (`return notBefore(t)
    // || notAfter(t)` → `return notAfter(t)` in `Expired`).
    const noWayDropped = keepsOut &&
      terms(ca, "or").length < terms(cb, "or").length &&
      terms(ca, "or").every((t) => terms(cb, "or").includes(t));
    // A comparison or a check dropped from a branch's requirements, in security code.
    const bt = terms(cb, "and");
    const at = terms(ca, "and");
    const droppedCheck = kind !== "return" && kind !== "=" && at.length < bt.length &&
      at.every((t) => bt.includes(t)) &&
      bt.filter((t) => !at.includes(t)).some((t) =>
        /[=!<>]=|[<>]|\bin\b|\bis\b/.test(t) || callNames(t).some((c) => isCheckCall(c))
      );
    // A requirement dropped from a branch that fails, or runs a check, lets it run more often:
    // stricter, not weaker (`if ssl_verify and cafile: verify()` → `if ssl_verify: verify()`).
    const body = kind === "return" || kind === "=" ? "" : blockOf(env.bl, r.n).body;
    const protects = denies(body) ||
      callNames(body).some((c) => isCheckCall(c)) || PUTS_ON.test(body);
    const onlyDropped = at.length < bt.length && at.every((t) => bt.includes(t));
    if (protects && onlyDropped && !flipped) continue;
    // A way in dropped from a branch that lets through (`if (isMatch || token) return cb(null,
    // user)` → `if (isMatch)`) is stricter too.
    const bo = terms(cb, "or");
    const ao = terms(ca, "or");
    const wayInDropped = kind !== "return" && kind !== "=" && ao.length < bo.length &&
      ao.every((t) => bo.includes(t));
    const grants =
      /\breturn\s+(true|True)\b|\b(cb|callback|done)\(\s*null\s*,\s*(?!false\b|null\b)\w/
        .test(body);
    if (wayInDropped && grants && !protects && !flipped) continue;
    // (So is a role dropped from the roles a predicate lets in.)
    if (
      kind === "return" && rolesOnly(cb) && ao.length < bo.length && ao.every((t) => bo.includes(t))
    ) {
      continue;
    }
    // A branch that fails now fails in fewer cases: `err != nil || bad` made `err == nil && bad`,
    // one way to fail turned round and made a requirement of the other. (A requirement added
    // beside the old ones is `guard_shapes_removed.ts`'s check given an exception.)
    // (The branch's block read further than `body`, when a shape below asks for it.)
    let longRead: string | undefined;
    const longBody = () => longRead ??= blockOf(env.bl, r.n, 16).body;
    const addedTerms = at.filter((t) => !bt.includes(t) && !bo.includes(t));
    const narrowed = kind !== "return" && kind !== "=" && !flipped && addedTerms.length > 0 &&
      bo.length > 1 && ao.length === 1 && at.some((t) => bo.includes(t)) &&
      addedTerms.some((t) => bo.some((o) => inverted(o, t))) && failing(longBody());
    // A predicate's yes widened with more roles (`return user.is_manager` → `… or
    // user.is_reviewer`): each added holder passes what only the first did.
    const widened = kind === "return" && bo.length >= 1 &&
      ao.length > bo.length && bo.every((t) => ao.includes(t)) && rolesOnly(cb);
    // A branch that grants now also taken on an error (`if validKey {` → `if validKey || err !=
    // nil {`), or one that puts a protection on now needing more (`if (user && pass)
    // app.use(basicAuth(…))` gains `&& process.env.BASIC_AUTH === 'true'`).
    const branch = kind !== "return" && kind !== "=" && !loose;
    const errorLetsIn = branch && ao.length > bo.length && bo.every((t) => ao.includes(t)) &&
      ao.some((t) => !bo.includes(t) && ERROR_PRESENT.test(t)) && !failing(longBody()) &&
      /\breturn\b|\b(success|next|resolve|done|cb|callback)\(/.test(longBody());
    const thresholdMoved = branch && eased(cb, ca) && failing(longBody());
    const protectionNarrowed = branch && at.length > bt.length && bt.every((t) => at.includes(t)) &&
      at.some((t) => !bt.includes(t) && !noRequirement(t)) && !failing(longBody()) &&
      PUTS_ON.test(longBody());
    if (
      ((widened && !loose) || countLoosened(cb, ca)) && (env.secure(r.n) || PREDICATE.test(fn)) ||
      ((errorLetsIn || protectionNarrowed || thresholdMoved) && env.secure(r.n))
    ) {
      out.push({ n: r.n, what: `condition weakened: \`${clip(cb)}\` → \`${clip(ca)}\`` });
      continue;
    }
    if (loose) {
      if (narrowed && env.secure(r.n)) {
        out.push({ n: r.n, what: `condition weakened: \`${clip(cb)}\` → \`${clip(ca)}\`` });
      }
      continue;
    }
    if (
      (weaker && (env.strong(r.n) || (flipped && env.secure(r.n)))) ||
      (droppedCheck && env.secure(r.n)) || (noWayDropped && env.secure(r.n)) ||
      (narrowed && env.secure(r.n))
    ) {
      out.push({ n: r.n, what: `condition weakened: \`${clip(cb)}\` → \`${clip(ca)}\`` });
    }
  }
  return out;
}
