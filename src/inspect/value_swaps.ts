/**
 * One value of a line swapped for another, read by what the value belongs to: a boolean turned
 * the permissive way for the name that holds it (`allow_discovery: false` → `true`,
 * `'online-mode': onlineMode = true` → `false`), a level swapped for a laxer one
 * (`LevelStrict` → `LevelPermissive`, `Block` → `Warn`, `RequestClientCert` → `NoClientCert`),
 * a time window widened or a work factor cut (`WINDOW = 60` → `60 * 60 * 24`, `timeCost: 3` → `1`),
 * a trusting setting given a value where it had none, a wildcard let into a list of who may.
 * The syntax around the value does not matter (an assignment, a key, a call's argument, a
 * default); the words of its owner do. Called by `guard_settings_lines.ts` for each pair of
 * changed lines; pure.
 *
 * @module
 */
import { DENY, EXEMPT } from "./list_items.ts";
import { clip } from "./guard_text.ts";
import { leaning, NEGATE, PERMIT_STRONG, PROTECT_STRONG, words } from "./value_leaning.ts";

/** What a swap weakens, and how it reads. */
export interface ValueSwap {
  rule: "auth-check-removed" | "secure-default-weakened";
  what: string;
}

/** Where the swap sits: what the caller knows around the line. */
export interface SwapPlace {
  /** The lines just above (a bare value, `default: [],`, is named there). */
  above: string;
  /** Whether the path, the function or the lines around speak of security. */
  secure: boolean;
}

/** The changed span of two lines, widened to whole words: before, after and what leads up. */
export function changedSpan(rc: string, ac: string): { pre: string; b: string; a: string } {
  let i = 0;
  while (i < rc.length && i < ac.length && rc[i] === ac[i]) i++;
  let j = 0;
  while (
    j < rc.length - i && j < ac.length - i && rc[rc.length - 1 - j] === ac[ac.length - 1 - j]
  ) {
    j++;
  }
  const word = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);
  while (i > 0 && word(rc[i - 1]) && (word(rc[i]) || word(ac[i]))) i--;
  while (
    j > 0 && word(rc[rc.length - j]) &&
    (word(rc[rc.length - j - 1]) || word(ac[ac.length - j - 1]))
  ) j--;
  return { pre: rc.slice(0, i), b: rc.slice(i, rc.length - j), a: ac.slice(i, ac.length - j) };
}

/** The name that owns a value: the last name or string before it (`getattr(r, 'allowCookie', `). */
function owner(pre: string, place: SwapPlace): string {
  // (What a function returns is its verdict, read where returns are; a callback's argument,
  // `verify(false)`, is its verdict too, unlike a setter's, `setSecure(false)`.)
  if (/^\s*return\s*$/.test(pre)) return "";
  const call = /([\w$]+)\(\s*$/.exec(pre);
  if (call && !/^(set|enable|disable|use|with|allow)/i.test(call[1])) return "";
  const names = [...pre.matchAll(/['"`]([\w$.:-]+)['"`]|([A-Za-z_$][\w$]*)/g)].map((m) =>
    m[1] ?? m[2]
  );
  const own = names.filter((n) =>
    !/^(default|value|fallback|initial|const|let|var|get|getattr|os|environ|env|process|self|this)$/
      .test(n)
  );
  if (own.length) return own.at(-1)!;
  if (!/^\s*(['"]?(default|value)['"]?\s*[:=]\s*)?$/.test(pre)) return "";
  // (A bare default is named by the key that opens its block, `"verify_ssl": {`, or by the
  // name given just above it, `define("disable_hijack_protection",` / `'SESSION_INSECURE',`.)
  for (const line of place.above.split("\n").reverse()) {
    const key = /^\s*['"]?([\w$.-]+)['"]?\s*[:=]\s*(\{|dict\(|\w*\()?\s*$/.exec(line) ??
      /^\s*(?:[\w$.]+\(\s*)?['"]([\w$.-]+)['"]\s*,\s*$/.exec(line);
    if (key) return key[1];
  }
  return "";
}

const BOOL = /^(['"]?)(true|false|True|False)\1$/;

/** Level words, the strict one first, each with the laxer words that may replace it. */
const LAXER: [RegExp, RegExp][] = [
  [
    /^strict$/,
    /^(permissive|lax|loose|relaxed|audit|warn|log|skip|off|disabled|optional|none|any|ignore|insecure)$/,
  ],
  [
    /^(block|deny|reject|enforce|fail|forbid|refuse|drop)$/,
    /^(warn|allow|audit|log|ignore|accept|permit|pass|skip|continue|none|dryrun)$/,
  ],
  [
    /^(required|require|mandatory|must)$/,
    /^(optional|request|requested|no|none|allow|any|off|skip|may|want|prefer)$/,
  ],
  [
    /^(ungranted|denied|forbidden|unauthorized|unauthenticated|rejected)$/,
    /^(granted|allowed|authorized|ok|authenticated|accepted|success)$/,
  ],
  [/^verify$/, /^(require|prefer|allow|disable|none|skip|no)$/],
  [/^all$/, /^any$/],
];

/** A level word swapped for a laxer one, or a negation put before the same words. */
function laxerLevel(b: string, a: string): [string, string] | null {
  if (!/^['"`]?[\w$.:-]+['"`]?$/.test(b) || !/^['"`]?[\w$.:-]+['"`]?$/.test(a)) return null;
  const wb = words(b);
  const wa = words(a);
  const gone = wb.filter((w) => !wa.includes(w));
  const fresh = wa.filter((w) => !wb.includes(w));
  for (const [strict, lax] of LAXER) {
    if (gone.some((w) => strict.test(w)) && fresh.some((w) => lax.test(w))) return [b, a];
  }
  // (`RequestClientCert` → `NoClientCert`: the same thing, now with a no.)
  const neg = fresh.filter((w) => /^(no|non|none|skip|insecure|disable|disabled|without)$/.test(w));
  if (
    neg.length && !wb.some((w) => NEGATE.test(w)) &&
    wa.filter((w) => !neg.includes(w)).every((w) => wb.includes(w)) && wa.length > neg.length
  ) return [b, a];
  return null;
}

/** Names whose number is a window: larger lets more through. */
const WINDOW =
  /^(window|leeway|skew|lifetime|ttl|expiry|expires|expiration|tolerance|validity|attempts)$/;
/** Names whose number is work or length an attacker must beat: smaller lets more through. */
const WORK = /^(cost|rounds|iterations|iter|factor|parallelism|bits|keysize|saltlen)$/;

/** The value of a small arithmetic of numbers (`60 * 60 * 24`, `1 << 16`), or NaN. */
function arithmetic(t: string): number {
  const s = t.replace(/_/g, "").trim();
  if (!/^\d+(\s*(\*|<<)\s*\d+)*$/.test(s)) return NaN;
  return s.split("*").reduce((p, f) => {
    const [x, sh] = f.split("<<").map((v) => Number(v.trim()));
    return p * (sh === undefined ? x : x * 2 ** sh);
  }, 1);
}

/** A call that establishes who someone is or checks it (`ExtractOrgIDFromHTTPRequest`). */
const SECURITY_CALL =
  /auth|verif|valid|check|token|sign|cert|perm|role|org_?id|tenant|user|session|login|password|claims/i;

/**
 * An identity the code set itself, made a mere default (`message.src = client.getId()` →
 * `message.src ??= client.getId()`, `x = x || v`, `x = x or v`): the value a request brought
 * now wins. Null when the pair is not that.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { madeDefault } from "./value_swaps.ts";
 * assert.match(madeDefault("message.src = client.getId();", "message.src ??= client.getId();")!, /src/);
 * assert.equal(madeDefault("message.src ??= id;", "message.src = id;"), null);
 * ```
 */
export function madeDefault(rc: string, ac: string): string | null {
  // (Only a line that falls back can: most pairs are turned away before a pattern is built.)
  if (!/\?\?|\|\||\bor\b/.test(ac)) return null;
  const m = /^\s*(?:(?:const|let|var)\s+)?([\w$.]+(?:\[['"][\w-]+['"]\])?)\s*=\s*(.+?)\s*;?$/.exec(
    rc,
  );
  if (!m || /^[=>]/.test(m[2])) return null;
  const esc = m[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const value = m[2].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const fallback = new RegExp(
    `^\\s*${esc}\\s*(\\?\\?=|\\|\\|=|=\\s*${esc}\\s*(\\|\\||\\?\\?|\\bor\\b)|=\\s*\\w+\\.get\\([^)]*\\)\\s*(or|\\|\\|))\\s*${value}\\s*;?$`,
  );
  if (!fallback.test(ac)) return null;
  const last = m[1].split(/[.[]/).pop()!.replace(/\W/g, "");
  return /^(src|source|from|sender|user|user_?id|owner|author|id|uid|role|roles|tenant|tenant_?id|org|org_?id|account|account_?id|subject|sub|issuer|principal|identity)$/i
      .test(last)
    ? m[1]
    : null;
}

/** A wildcard in a list of who or what may (`'*'`, `"#"`, `".*"`, `'https://*'`, `0.0.0.0/0`). */
const WILDCARD = /['"`](\*|#|\.\*|\^\.\*\$|\*\*|\*\.\*|\w+:\/\/\*|0\.0\.0\.0\/0|::\/0)['"`]/;
const WHO_MAY =
  /origin|cors|host|acl|allow|trust|topic|scope|permission|role|domain|\bips?\b|cidr|whitelist|allowlist|redirect|audience|issuer|subject|namespace|tenant|csrf/i;

/**
 * Which way the name that owns the value `rc` → `ac` swaps leans (see {@link leaning}): a
 * permissive owner's value turned off is the strict side, whatever the value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownerLeaning } from "./value_swaps.ts";
 * const place = { above: "", secure: true };
 * assert.equal(ownerLeaning("let success = true;", "let success = false;", place), 1);
 * assert.equal(ownerLeaning("verify_ssl = True", "verify_ssl = False", place), -1);
 * ```
 */
export function ownerLeaning(rc: string, ac: string, place: SwapPlace): number {
  const { pre, b, a } = changedSpan(rc, ac);
  // (Only a value for a value: `=== "1"` → `!== "0"` turns a switch on by default, whatever it is.)
  const literal = /^\s*(true|false|True|False|None|null|nil|undefined|-?\d+|(['"`])[^'"`]*\2)\s*$/;
  if (!literal.test(b) || !literal.test(a)) return 0;
  const name = owner(pre, place);
  return name ? leaning(name, place.secure, DECLARED.test(pre)) : 0;
}

/** A declaration's start (`let success = `): a verdict's name leans only where it is declared. */
const DECLARED = /^\s*((let|var|const)\s+)?[\w$]+\s*:?=\s*$/;

/**
 * How `ac` weakens `rc` by swapping one value, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueSwap } from "./value_swaps.ts";
 * const place = { above: "", secure: false };
 * const on = valueSwap(
 *   `        "win_accept_anonymous_options", False`,
 *   `        "win_accept_anonymous_options", True`,
 *   place,
 * );
 * assert.match(on!.what, /win_accept_anonymous_options/);
 * assert.equal(valueSwap(`  verify_ssl=False,`, `  verify_ssl=True,`, place), null);
 * const strict = `VerificationLevel: trustpolicy.LevelStrict.Name,`;
 * const lax = valueSwap(strict, strict.replace("Strict", "Permissive"), place);
 * assert.match(lax!.what, /laxer/);
 * ```
 */
export function valueSwap(rc: string, ac: string, place: SwapPlace): ValueSwap | null {
  const { pre, b, a } = changedSpan(rc, ac);
  if (b.length > 60 || a.length > 60 || rc.trim() === ac.trim()) return null;
  // (A comparison is a condition's, read where conditions are.)
  if (/(==|!=|\bis|\bis\s+not|<|>)\s*$/.test(pre)) return null;
  // (The owner and its leaning are read only where a swap needs them: most pairs need neither.)
  let named: string | undefined;
  const name = () => named ??= owner(pre, place);
  // (A verdict's name leans only where it is declared: `let success = false` is the safe start,
  // `{ success: false }` an answer.)
  let leaned: number | undefined;
  const lean = () => leaned ??= name() ? leaning(name(), place.secure, DECLARED.test(pre)) : 0;
  const vb = BOOL.exec(b.trim())?.[2]?.toLowerCase();
  const va = BOOL.exec(a.trim())?.[2]?.toLowerCase();
  if (vb && va && vb !== va && lean() !== 0) {
    const weaker = lean() > 0 ? va === "true" : va === "false";
    if (weaker) {
      return { rule: "secure-default-weakened", what: `\`${name()}\`: ${b.trim()} → ${a.trim()}` };
    }
    return null;
  }
  // A protection's value made a constant off (`this._enableProof = options.enableProof` → `false`).
  if (va === "false" && !vb && /^[\w$.]+$/.test(b.trim()) && /[:=]\s*$/.test(pre) && lean() < 0) {
    return { rule: "secure-default-weakened", what: `\`${name()}\` now always off` };
  }
  // A trusting setting given a value where it had none (`trusted_auth_header`: None → a header).
  if (
    /^(None|null|nil|undefined|''|""|\[\])$/.test(b.trim()) &&
    /^(['"`][^'"`]+['"`]|\[\s*\S.*\])$/.test(a.trim()) && lean() > 0
  ) return { rule: "secure-default-weakened", what: `\`${name()}\` now set: ${a.trim()}` };
  // (`UnauthorizedException` → `UnAuthorizedException` is a name spelt another way.)
  const lax = b.toLowerCase() === a.toLowerCase() ? null : laxerLevel(b.trim(), a.trim());
  if (
    lax && (place.secure || words(rc).some((w) => PROTECT_STRONG.test(w) || PERMIT_STRONG.test(w)))
  ) {
    return { rule: "secure-default-weakened", what: `\`${lax[0]}\` → laxer \`${lax[1]}\`` };
  }
  // A window widened or a work factor cut (`60` → `60 * 60 * 24`; `int(…)` → `int(…) * 60`).
  const nb = b.trim() === "" ? 1 : arithmetic(b);
  const na = b.trim() === "" ? arithmetic(a.replace(/^\s*\*\s*/, "")) : arithmetic(a);
  if (
    Number.isFinite(nb) && Number.isFinite(na) && nb > 0 && (b.trim() !== "" || /^\s*\*/.test(a))
  ) {
    const ws = words(name() || pre);
    if (
      ws.some((w) => WINDOW.test(w)) && na >= nb * 4 &&
      // (A clock's skew, leeway or tolerance is a check's grace wherever it is set.)
      (place.secure ||
        ws.some((w) => PROTECT_STRONG.test(w) || /^(skew|leeway|tolerance)$/.test(w)))
    ) {
      return {
        rule: "secure-default-weakened",
        what: `\`${name()}\` widened: ${b.trim() || "1"} → ${a.trim()}`,
      };
    }
    if (ws.some((w) => WORK.test(w)) && na < nb && place.secure) {
      return {
        rule: "secure-default-weakened",
        what: `\`${name()}\` cut: ${b.trim()} → ${a.trim()}`,
      };
    }
  }
  // An item put into a one-line list of what goes unchecked (`--opa.skip-tenants=a,b` → `a,b,c`),
  // or taken from what is refused.
  // (Items are strings, or words inside one: `"a,b"`; an import's names are no list of who may.)
  const inString = ((pre.match(/['"`]/g) ?? []).length % 2) === 1;
  const item = inString
    ? /^\s*,\s*[\w$./:*-]+\s*$|^\s*[\w$./:*-]+\s*,\s*$/
    : /^\s*,\s*['"`][\w$./:*-]+['"`]\s*$|^\s*['"`][\w$./:*-]+['"`]\s*,\s*$/;
  const added = b.trim() === "" && item.test(a);
  const taken = a.trim() === "" && item.test(b);
  const list = added || taken ? `${pre} ${name()}` : "";
  if (place.secure && !/\bimport\b/.test(pre) && EXEMPT.test(list) !== DENY.test(list)) {
    if (added && EXEMPT.test(list)) {
      return {
        rule: "auth-check-removed",
        what: `${a.replace(/[\s,]/g, "")} added to \`${name()}\``,
      };
    }
    if (taken && DENY.test(list)) {
      return {
        rule: "auth-check-removed",
        what: `${b.replace(/[\s,]/g, "")} taken from \`${name()}\``,
      };
    }
  }
  // A check's error now thrown away (`_, ctx, err = user.ExtractOrgID(r)` → `_, ctx, _ = …`).
  const call = /^\s*:?=\s*(?:await\s+)?([\w$.]+)\(/.exec(
    rc.slice(pre.length + b.length).replace(/^[\s,\w$]*(?=:?=)/, ""),
  );
  if (
    /^(err|error|ok)$/.test(b.trim()) && a.trim() === "_" && call &&
    (place.secure || SECURITY_CALL.test(call[1]))
  ) {
    return {
      rule: "auth-check-removed",
      what: `what ${call[1]}() says went wrong is now thrown away`,
    };
  }
  // What a request needs emptied (`perms_map['GET'] = ['…view…']` → `[]`).
  const emptied = /^(.*?[^=!<>]=|.*?:)\s*(\[\s*\]|\(\s*\)|\{\s*\}|set\(\)|list\(\))\s*[,;]?$/.exec(
    ac.trim(),
  );
  if (
    emptied && rc.trim().startsWith(emptied[1]) &&
    /^\s*[[({]\s*\S.*[\])}]\s*[,;]?$/.test(rc.trim().slice(emptied[1].length)) &&
    /perm|role|scope|required|privilege/i.test(emptied[1]) &&
    !/allow|white|trust/i.test(emptied[1]) && place.secure
  ) {
    return { rule: "auth-check-removed", what: `what is required emptied: \`${clip(ac.trim())}\`` };
  }
  // A wildcard let into who may (`allowed_origins: []` → `['*']`, `acl.get(u, [])` → `["#"]`).
  // (A wildcard compared with is a condition's: `p == "*"`.)
  const compared = /==|!=|indexOf|includes|\bin\s/.test(a);
  if (
    WILDCARD.test(a) && !WILDCARD.test(b) && !compared &&
    (WHO_MAY.test(rc) || WHO_MAY.test(place.above))
  ) {
    return { rule: "secure-default-weakened", what: `wildcard let in: \`${a.trim()}\`` };
  }
  return null;
}
