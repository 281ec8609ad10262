/**
 * How a line reads for the term shapes: what kind of statement it is, whether letting more pass
 * there grants more (a branch that fails, a name that says no, a function whose yes enforces read
 * the other way round), and privilege words by rank inside a name. Pure.
 *
 * @module
 */
import { FAILURE, PERMISSIVE } from "./guard_vocab.ts";
import { condition } from "./guard_text.ts";
import { PROTECTING_FN } from "./guard_shape_vocab.ts";
import type { ShapeContext } from "./guard_shapes.ts";
import { yesKeepsOut } from "./name_polarity.ts";

/** A name that says no: what it holds is a reason to refuse, so more of it is stricter. */
export const SAYS_NO =
  /block|deni|deny|invalid|expir|revok|disabl|\bban|banned|lock|fail|error|reject|forbid|insecure|unsafe|skip|bypass|exempt|ignor|missing|unauth|refus|blacklist|denylist|suspend|anonym|guest|public|optional|open/i;

/** A name that says yes: what it holds lets someone through. */
export const SAYS_YES =
  /\bok\b|_ok\b|Ok\b|valid|allow|trust|verified|authori[sz]|authenticated|permit|grant|access|match|admin|owner|member|\bcan_?|\bhas_?|success|passed|approved/i;

/** A name whose yes asks for more (a second factor, a requirement): `false` there lets through. */
export const ASKS_MORE =
  /2fa|mfa|otp|two_?factor|twoFactor|captcha|^(is_?|has_?)?(needs?|must|requires?|enforce\w*)|should_?(check|verify|validate|enforce|require)|_?required$|Required$/i;

/** Privilege words, strongest first, by the segment of a name they make up. */
const LEVELS: RegExp[] = [
  /^(root|super_?user|superuser|super_?admin|sudo)$/i,
  /^(admin|administrator|administer|owner|master)$/i,
  /^(manager|manage|moderator|maintainer|staff|editor|edit|writer|write|private|internal)$/i,
  /^(member|user|authenticated|authed|auth|reader|read|view|viewer|verified|required|registered|active|logged_?in)$/i,
  /^(guest|public|anonymous|anon|any|optional|everyone|none|unauthenticated|all|read_?only)$/i,
];

/** Qualifiers that say a privilege is the lesser one whatever it qualifies. */
const PLAINLY_LOWER = /^(read_?only|guest|anonymous|optional|unauthenticated)$/i;

/** Segments that are one word split in two (`Logged` `In`, `Read` `Only`), joined. */
function joinedWords(ws: string[]): string[] {
  const out: string[] = [];
  for (const w of ws) {
    const prev = out.at(-1);
    if (
      prev &&
      ((/^logged$/i.test(prev) && /^in$/i.test(w)) || (/^read$/i.test(prev) && /^only$/i.test(w)))
    ) {
      out[out.length - 1] = `${prev}${w}`;
    } else out.push(w);
  }
  return out;
}

/** A word that makes a name a check or a guard (`is_teacher`, `authenticationMixin`). */
export const GATE_WORD =
  /^(is|has|can|auth\w*|authenticat\w*|authori[sz]\w*|require\w*|check\w*|guard|permission\w*|role|roles|access|only|mixin|middleware|policy|required)$/i;

/**
 * What a line is: a branch header, a `return`, an assignment (with the names assigned), or else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kindOf } from "./guard_term_polarity.ts";
 * assert.deepEqual(kindOf("is_ok = a and b"), { kind: "assign", name: "is_ok" });
 * assert.equal(kindOf("if not ok:").kind, "if");
 * ```
 */
export function kindOf(
  line: string,
): { kind: "if" | "return" | "assign" | "other"; name: string } {
  if (condition(line) !== null && /^\s*(}\s*)?(if|elif|else\s+if|while)\b/.test(line)) {
    return { kind: "if", name: "" };
  }
  if (/^\s*(}\s*)?return\b/.test(line)) return { kind: "return", name: "" };
  const m = /^\s*(?:(?:const|let|var)\s+)?([\w$.]+(?:\s*,\s*[\w$.]+)*)\s*(?::=|=(?!=))/.exec(line);
  return m ? { kind: "assign", name: m[1] } : { kind: "other", name: "" };
}

/**
 * Whether more passing at before-line `n` lets more through: false where the branch fails (it
 * then fails less), the name says no, or the function's yes enforces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grantsMore } from "./guard_term_polarity.ts";
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "login", block: () => ({ body: "raise Denied()", after: "" }),
 * };
 * assert.equal(grantsMore(ctx, 2, "if not user.ok:"), false);
 * assert.equal(grantsMore(ctx, 2, "is_ok = a and b"), true);
 * assert.equal(grantsMore(ctx, 2, "is_blocked = a and b"), false);
 * ```
 */
export function grantsMore(ctx: ShapeContext, n: number, line: string): boolean {
  const { kind, name } = kindOf(line);
  if (kind === "if") return !FAILURE.test(ctx.block(n).body);
  if (kind === "return") {
    const fn = ctx.fn(n);
    return !yesKeepsOut(fn) && !PROTECTING_FN.test(fn);
  }
  // A switch that turns a protection off (`DISABLE_AUTH`) lets more through when it is on.
  // (A name that asks for more, `needs_otp`, lets fewer through when it is on.)
  if (kind === "assign") {
    const first = name.split(",")[0];
    return PERMISSIVE.test(name) ||
      (!SAYS_NO.test(first) && !ASKS_MORE.test(first) && !yesKeepsOut(first));
  }
  return !SAYS_NO.test(line.slice(0, 40));
}

/**
 * The segments of a name: `hasAdminRole` → has, Admin, Role; `is_manager` → is, manager.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { segments } from "./guard_term_polarity.ts";
 * assert.deepEqual(segments("hasAdminRole"), ["has", "Admin", "Role"]);
 * ```
 */
export function segments(name: string): string[] {
  return name.split(/_|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/).filter((x) => x);
}

/** The last word of a name that holds a verdict (`isPasswordValid`, `ok`, `authenticated`). */
const VERDICT =
  /^(ok|valid|match|matches|matched|allowed|authenticated|authori[sz]ed|verified|success|granted|permitted|same|equal)$/i;

/**
 * Whether a name holds a check's verdict: its last word says so (`isMatch`, `is_valid`, `ok`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdsVerdict } from "./guard_term_polarity.ts";
 * assert.ok(holdsVerdict("isPasswordValid") && holdsVerdict("ok"));
 * assert.ok(!holdsVerdict("allowed_domains"));
 * ```
 */
export function holdsVerdict(name: string): boolean {
  return VERDICT.test(segments(name).at(-1) ?? "");
}

/**
 * The level of a privilege word (0 strongest), or -1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { level } from "./guard_term_polarity.ts";
 * assert.ok(level("admin") < level("member"));
 * assert.equal(level("widget"), -1);
 * ```
 */
export function level(word: string): number {
  return LEVELS.findIndex((re) => re.test(word));
}

/**
 * `[from, to]` when name `a` is name `b` with one privilege segment moved down, else null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loweredPrivilege } from "./guard_term_polarity.ts";
 * assert.deepEqual(loweredPrivilege("hasAdmin", "hasMember"), ["hasAdmin", "hasMember"]);
 * assert.equal(loweredPrivilege("hasMember", "hasAdmin"), null);
 * ```
 */
export function loweredPrivilege(
  b: string,
  a: string,
  single = false,
): [string, string] | null {
  const sb = joinedWords(segments(b));
  const sa = joinedWords(segments(a));
  // A plainly lesser qualifier put on a privilege or a check (`Access` → `AccessReadOnly`).
  if (
    sa.length === sb.length + 1 && PLAINLY_LOWER.test(sa.at(-1)!) &&
    sb.every((w, i) => w === sa[i]) && sb.some((w) => GATE_WORD.test(w) || level(w) >= 0)
  ) return [b, a];
  // A check's privilege word dropped (`adminAuthenticationMixin` → `authenticationMixin`,
  // `is_super_teacher` → `is_teacher`): any holder of the rest passes.
  if (sb.length === sa.length + 1 && sa.some((w) => GATE_WORD.test(w))) {
    const lb = sb.map((w) => w.toLowerCase());
    const la = sa.map((w) => w.toLowerCase());
    const k = lb.findIndex((w, i) => w !== la[i]);
    if (
      (level(lb[k]) === 0 || level(lb[k]) === 1 || lb[k] === "super") &&
      lb.filter((_, i) => i !== k).every((x, i) => x === la[i])
    ) return [b, a];
  }
  // (A bare privilege word, `WRITE` → `READ`, counts where the caller knows it names one.)
  if (sb.length !== sa.length || (sb.length < 2 && !single)) {
    // `AuthenticatorAssuranceLevel2` → `…Level1`: a level number lowered.
    const nb = /^(.*(?:Level|level|LEVEL|Aal|AAL|aal|Tier|tier))(\d+)$/.exec(b);
    const na = /^(.*(?:Level|level|LEVEL|Aal|AAL|aal|Tier|tier))(\d+)$/.exec(a);
    return nb && na && nb[1] === na[1] && Number(na[2]) < Number(nb[2]) ? [b, a] : null;
  }
  const diff = sb.map((_, k) => k).filter((k) => sb[k] !== sa[k]);
  if (diff.length !== 1) return null;
  const [k] = diff;
  const lb = level(sb[k]);
  const la = level(sa[k]);
  return lb >= 0 && la > lb ? [b, a] : null;
}
