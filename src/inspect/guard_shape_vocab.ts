/**
 * The words and small text tests of the shape signals (`guard_shapes.ts`,
 * `guard_shapes_removed.ts`): what a scoping, sanitising or canonicalising call is, what a
 * security rationale, a log line, a verdict or an exemption list looks like.
 *
 * @module
 */
/** Calls that narrow what a user sees or may reach to what they own or are allowed. */
export const SCOPING_CALL =
  /(?:^|_)(?:for_user|for_request|for_owner|for_principal|for_account|visible_to|accessible_by|permitted|authorized_for|allowed_for|filter_by_(?:user|owner|permission)\w*|owned_by)(?:_|$)/;

/** Calls that make a path or a URL safe to follow. */
export const SANITISING_CALL =
  /^(?:normpath|realpath|abspath|commonpath|safe_join|secure_filename|sanitize\w*|sanitise\w*|escape_?html|html_?escape|clean_?url|is_safe_url|url_has_allowed_host_and_scheme|is_within\w*|is_relative_to)$/;

/** An error handed to a completion callback (`done(err)`, `next(error)`, `this.done(e)`). */
export const ERROR_HANDED =
  /\b((?:[\w$]+\.)?(?:done|callback|cb|next|reject|fail))\(\s*((?:[\w$]+\.)*(?:err|error|e|ex|exc|[a-z]\w*Err(?:or)?|currentError|lastError)|new\s+[\w$.]+\([^)]*\))\s*[,)]/;

/** A comment that says the code below it defends against something. */
export const RATIONALE =
  /\b(attack\w*|vulnerab\w*|CVE-\d+|GHSA-|exploit\w*|spoof\w*|forger\w*|bypass\w*|(path|directory) traversal|escalat\w*|hijack\w*|tamper\w*|injection|open redirects?|fail(s|ing)? (open|closed)|untrusted|malicious|unguessable|homoglyph\w*|smuggl\w*|CSRF|XSRF|XSS|SSRF|security|insecure|unauthori[sz]ed|privilege\w*)\b/i;

/** Weaker words of such a comment, which count next to a security word. */
export const RATIONALE_WEAK = /\b(prevent\w*|protect\w*|leak\w*|unsafe|guard\w*|defen[cs]\w*)\b/i;

/** Errors of the operating system, not of a check. */
export const OS_ERROR =
  /\b(PermissionError|OSError|IOError|FileNotFoundError|ProcessLookupError|EACCES|EPERM)\b/;

/** True when `y` is `x` with one comparison turned into its opposite. */
export function inverted(x: string, y: string): boolean {
  const pairs: [RegExp, string][] = [
    [/!==/g, "==="],
    [/===/g, "!=="],
    [/!=/g, "=="],
    [/==/g, "!="],
    [/\bis not\b/g, "is"],
    [/\bis\b(?! not)/g, "is not"],
    [/\bnot in\b/g, "in"],
    [/(?<!not )\bin\b/g, "not in"],
    [/\bif not\b/g, "if"],
    [/\bif (?!not\b)/g, "if not "],
    [/\(!/g, "("],
    [/\breturn !/g, "return "],
  ];
  for (const [re, to] of pairs) {
    for (const m of x.matchAll(re)) {
      const swapped = x.slice(0, m.index) + to + x.slice(m.index! + m[0].length);
      if (swapped.replace(/\s+/g, "") === y.replace(/\s+/g, "")) return true;
    }
  }
  return false;
}

/** Names of identities and places, whose spelling must be made canonical before comparing. */
export const IDENTITY =
  /\b\w*(user_?name|email|login|domain|host|origin|redirect|return_?to|next_?url|url|path|file_?name|principal|subject)\w*\b/i;

/** A canonicalising step: a chained call, or a wrapping function, that makes a value canonical. */
const STEP_CHAINED =
  /\.(lower|casefold|upper|toLowerCase|toUpperCase|toLocaleLowerCase|normalize|strip|trim|replace|replaceAll)\((?:[^()]|\([^()]*\))*\)/g;
const STEP_WRAPPER =
  /\b(strings\.ToLower|strings\.ToUpper|strings\.TrimSpace|strings\.EqualFold|unicodedata\.normalize|os\.path\.normpath|os\.path\.realpath|os\.path\.abspath|filepath\.Clean|path\.Clean|path\.normalize|path\.resolve|posixpath\.normpath)\(/;

/** The canonicalising step `after` lacks where it is otherwise `before`, or null. */
export function droppedStep(before: string, after: string): string | null {
  if (before === after || before.length - after.length > 120) return null;
  for (const m of before.matchAll(STEP_CHAINED)) {
    const without = before.slice(0, m.index) + before.slice(m.index! + m[0].length);
    if (without.replace(/\s+/g, "") === after.replace(/\s+/g, "")) return m[0];
  }
  const w = STEP_WRAPPER.exec(before);
  if (w) {
    // `f(x)` → `x`: the argument left where the call was.
    const start = w.index + w[0].length;
    let depth = 1;
    let k = start;
    for (; k < before.length && depth > 0; k++) {
      if (before[k] === "(") depth++;
      else if (before[k] === ")") depth--;
    }
    const inner =
      before.slice(start, k - 1).split(/,(?![^(]*\))/)[w[1] === "unicodedata.normalize" ? 1 : 0];
    const unwrapped = before.slice(0, w.index) + (inner ?? "").trim() + before.slice(k);
    if (unwrapped.replace(/\s+/g, "") === after.replace(/\s+/g, "")) return `${w[1]}(…)`;
  }
  return null;
}

/** A line that only logs. */
export const LOGGING =
  /^\s*((?:[\w$]+\s*:?=\s*)?[\w$.]*\b(?:log|logger|logging|console|debug|warn|warning|info|print|printf|println|Printf|Println|Infof|Warnf|Debugf|Errorf|RequestLogger|trace)\b[\w$.]*\s*\(.*\)\s*;?|print\s.*)$/i;

/** An assignment of a verdict: `result = …`, `allowed = …`, `effects[i] = …`. */
export const VERDICT_SET =
  /^\s*(?:(?:const|let|var)\s+)?([\w$.]*(?:result|results|allow\w*|ok|valid\w*|authori[sz]ed|granted|permitted|effects?|decision|verdict|match\w*|pass\w*)\w*)(?:\[[^\]]*\])?\s*:?=(?!=)\s*([^;]+?)\s*;?$/i;

/** Values that say no, and values that say yes. */
export const DENY_VALUE =
  /^(?:0|false|False|None|nil|null|[\w$.]*\b(?:Deny|Denied|Indeterminate|Reject\w*|Forbid\w*|Block\w*|NoMatch|Disallow\w*))$/;
export const ALLOW_VALUE =
  /^(?:1|true|True|[\w$.]*\b(?:Allow\w*|Accept\w*|Permit\w*|Grant\w*|Match|Indeterminate|NotApplicable|Abstain\w*|Neutral))$/;

/** A setting that lists what a check lets through unchecked. */
export const EXEMPTIONS =
  /\b[\w$]*(?:ignor|skip|exempt|unprotected|anonymous|public_?(?:paths|routes|urls|endpoints)|whitelist|allow_?list|bypass|safe_?methods|unauthenticated|exclud)\w*\s*[:=(]/i;

/** A name that applies a check when passed along (a middleware, a validator, a guard). */
export const CHECK_REFERENCE =
  /^_*(?:(?:check|verify|validate|ensure|require|authori[sz]e|authenticate|enforce|protect|guard|restrict|deny|permit)[A-Z]\w*|(?:check|verify|validate|ensure|require|authori[sz]e|authenticate|enforce|protect|guard|restrict|deny|permit)_[a-z]\w*|\w*_?(?:auth\w*|perm\w*|roles?|admin|csrf|xsrf|login|owner\w*|access|otp|mfa|2fa|two_factor|verified|staff|superuser)(?:_\w+)?_?(?:required|check\w*|guard|middleware|validator|verifier|protect\w*|handler|interceptor|filter))$/;

/** How many times `name` occurs as a whole word in `text`. */
export function words(text: string, name: string): number {
  const re = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`, "g");
  return (text.match(re) ?? []).length;
}

/** Words of a size whose larger value is the stronger one (a minimum length, a work factor). */
export const MINIMUM_NAME =
  /\b(?:min\w*|\w*length|len|size|bits|key_?size|_?\w*(?:nonce|salt|key|token|secret|otp|code)_?(?:size|len|bytes|bits)|\w*rounds|\w*iterations|cost|work_?factor|entropy|salt\w*|strength|\w*threshold|(privilege|permission|access|role|auth\w*|admin|trust)_?level\w*)\b|\.length\b|(Privilege|Permission|Access|Role|Admin|Trust)Level\b/i;

/** Words of a lifetime whose smaller value is the stronger one. */
export const LIFETIME_NAME =
  /\bexp\b|\b\w*(?:ttl|expir\w*|max_?age|lifetime|timeout|valid_?for|duration|window|expires_?in|expiresIn|valid_?(minutes|hours|days|seconds|secs|mins)|validity|(time|timestamp|clock|age)\w*_?threshold)\b/i;

/** Seconds per unit of a duration written as a string (`'4h'`, `"3650d"`: `ms`, `jsonwebtoken`). */
const SPAN_UNIT: Record<string, number> = {
  ms: 0.001,
  s: 1,
  m: 60,
  h: 3600,
  d: 86400,
  w: 604800,
  y: 31557600,
};

/** Seconds per unit of a duration written with keywords (`minutes=15`, `timedelta(days=30)`). */
const DATE_FNS_UNIT: Record<string, number> = {
  Seconds: 1,
  Minutes: 60,
  Hours: 3600,
  Days: 86400,
  Weeks: 604800,
  Months: 2629800,
  Years: 31557600,
};

const KEYWORD_UNIT: Record<string, number> = {
  millisecond: 0.001,
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86400,
  week: 604800,
};

/**
 * The seconds a line's duration stands for: a time string (`'4h'`), or its unit keywords summed
 * (`timedelta(days=1, hours=2)`, `minutes: 15`); null when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationSeconds } from "./guard_shape_vocab.ts";
 * assert.equal(durationSeconds("default=timedelta(hours=1),"), 3600);
 * assert.equal(durationSeconds("expiresIn: '4h',"), 14400);
 * assert.equal(durationSeconds("TTL = 300"), null);
 * ```
 */
export function durationSeconds(line: string): number | null {
  const span = /['"`](\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w|y)['"`]/.exec(line);
  if (span) return Number(span[1]) * SPAN_UNIT[span[2]];
  let total = 0;
  for (
    const m of line.matchAll(
      /\b(millisecond|second|minute|hour|day|week)s?\s*[=:]\s*(\d+(?:\.\d+)?)/gi,
    )
  ) total += Number(m[2]) * KEYWORD_UNIT[m[1].toLowerCase()];
  // date-fns: `addMinutes(new Date(), 15)`, `addYears(now, 30)`.
  const add =
    /\badd(Seconds|Minutes|Hours|Days|Weeks|Months|Years)\s*\([^,()]*(?:\([^()]*\))?[^,()]*,\s*(\d+(?:\.\d+)?)\s*\)/
      .exec(line);
  if (add) total += Number(add[2]) * DATE_FNS_UNIT[add[1]];
  // Go: `300 * time.Second`, `time.Hour * 24`.
  for (
    const m of line.matchAll(
      /\b(\d+(?:\.\d+)?)\s*\*\s*time\.(Millisecond|Second|Minute|Hour)\b|\btime\.(Millisecond|Second|Minute|Hour)\s*\*\s*(\d+(?:\.\d+)?)\b/g,
    )
  ) total += Number(m[1] ?? m[4]) * KEYWORD_UNIT[(m[2] ?? m[3]).toLowerCase()];
  return total > 0 ? total : null;
}

/**
 * The number a line compares with or assigns (its last integer literal, a product of literals
 * multiplied out: `60 * 60 * 24` → 86400), or NaN.
 */
export function lastNumber(line: string): number {
  const m = /(?<![\w.])(\d+(?:\s*\*\s*\d+)*)(?![\w.])(?!.*(?<![\w.])\d+(?![\w.]))/.exec(line);
  return m ? m[1].split("*").reduce((p, x) => p * Number(x.trim()), 1) : NaN;
}

/** How many quoted items a line holds (`['GET', 'HEAD']` → 2). */
export function quotedItems(line: string): number {
  return (line.match(/['"`][^'"`]*['"`]/g) ?? []).length;
}

/** `&&`/`and` and `||`/`or` counts of a line. */
export function joins(line: string): { and: number; or: number } {
  return {
    and: (line.match(/&&|\band\b/g) ?? []).length,
    or: (line.match(/\|\||\bor\b/g) ?? []).length,
  };
}

/** The text of a comment line without its marker, or null when the line is not a comment. */
export function uncommented(line: string): string | null {
  const m = /^\s*(?:#|\/\/)\s?(.*)$/.exec(line);
  return m ? m[1].trim() : null;
}

/**
 * The top-level terms of a condition joined by `op` (`and`: `&&`/`and`, `or`: `||`/`or`),
 * outside brackets and strings, each without outer brackets and spaces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(terms("a && (b || c) && d(e, f)", "and"), ["a", "b||c", "d(e,f)"]);
 * ```
 */
export function terms(cond: string, op: "and" | "or"): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let cur = "";
  const t = cond.trim();
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if (quote) {
      if (ch === quote && t[i - 1] !== "\\") quote = "";
      cur += ch;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    if (depth === 0) {
      const rest = t.slice(i);
      const m = op === "and" ? /^(&&|and\b)/.exec(rest) : /^(\|\||or\b)/.exec(rest);
      const wordStart = i === 0 || !/[\w$]/.test(t[i - 1]);
      if (m && (m[0].length === 2 && !/\w/.test(m[0]) || wordStart)) {
        out.push(cur);
        cur = "";
        i += m[0].length - 1;
        continue;
      }
    }
    cur += ch;
  }
  out.push(cur);
  return out.map(bareTerm).filter((x) => x !== "");
}

/** A term without spaces and without brackets around all of it. */
function bareTerm(x: string): string {
  let t = x.replace(/\s+/g, "");
  while (t.startsWith("(") && t.endsWith(")") && balanced(t.slice(1, -1))) t = t.slice(1, -1);
  return t;
}

function balanced(t: string): boolean {
  let d = 0;
  for (const ch of t) {
    if (ch === "(") d++;
    else if (ch === ")" && --d < 0) return false;
  }
  return d === 0;
}

/**
 * True when `after` keeps every `op`-term of `before` and adds at least one more: with `or`, a
 * requirement made optional; with `and`, a failing branch given an exception.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.ok(widened("ok(x)", "ok(x) || admin", "or"));
 * assert.ok(widened("a && !valid", "a && b && !valid", "and"));
 * assert.ok(!widened("a && b", "a", "and"));
 * ```
 */
export function widened(before: string, after: string, op: "and" | "or"): boolean {
  const b = terms(before, op);
  const a = terms(after, op);
  if (a.length <= b.length) return false;
  const left = [...a];
  for (const t of b) {
    const i = left.indexOf(t);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** An assignment to a name that holds a verdict: `valid := …`, `const isAllowed = …`. */
export const VERDICT_NAME =
  /^\s*(?:(?:const|let|var)\s+)?([\w$.]*(?<!un|in|not_?|dis)(?:valid|verified|allowed|authori[sz]ed|authenticated|permitted|granted|trusted|matches|matched|applies|owned|owns|is_?(?:master|admin|root|superuser|staff|owner|member))\w*)\s*(?::=|=(?!=))\s*(.+)$/i;

/** A verdict about privilege (`isMaster`, `is_admin`): what it decides is security whatever the file. */
export const PRIVILEGE_NAME = /\bis_?(master|admin|root|superuser|staff|owner)\b/i;

/** A branch body that reports a failure as a value (`{error: 'state mismatch'}`). */
export const ERROR_RESULT =
  /\b(error|err)\s*:\s*['"`{]|\bmismatch\b|\binvalid\b|\bredirect\w*\b.*\blog_?in|\blogin_?url\b|\bsign_?in\b/i;

/** A test that something is wrong or missing (`!x`, `a != b`, `x is None`, `not ok`). */
export const NEGATIVE =
  /^!|!==?|\bnot\b|\bis None\b|===?\s*(undefined|null|nil)\b|\b(undefined|null|nil)\s*===?/;

/** A branch body that lets the caller through (grants, passes on, says yes). */
export const GRANTS =
  /\breturn\s+(true|True)\b|\bnext(\.\w+)?\(|\b(c|ctx)\.Next\(\)|\breturn\s+\w+\(\s*(self|req|request|ctx|c)\b|\b(ok|allowed?|valid|authori[sz]ed|authenticated|granted)\s*:?=\s*(true|True)\b|\breturn\s+(user|principal|identity|session)\b|\bpass\b|\bcontinue\b/;

/** An alternative that lets a check be skipped: a debug or environment switch, a fallback, an
 * allowance (`|| process.env.NODE_ENV !== "production"`, `|| cfg.AllowFallbackToPlaintext`). */
export const BYPASS_TERM =
  /\b(NODE_ENV|DEBUG|debug|dev|development|testing|test_?mode|insecure|unsafe|bypass\w*|skip\w*|fallback\w*|plaintext|plain_?text)\b|\b[\w$.]*(Allow|allow_|Insecure|Bypass|Skip|Fallback|Plaintext|Debug)\w*/;

/** A condition that is a verdict and nothing else (`success`, `isValid`, `ok`, `verified`). */
export const VERDICT_TERM =
  /^!?[\w$.]*(success|succeeded|valid|verified|authori[sz]ed|authenticated|allowed|permitted|granted|matche[sd]|ok|passed)$/i;

/** A function whose `true` protects: it picks what to strip, deny, block or redact. */
export const PROTECTING_FN =
  /strip|remove|redact|sensitive|deny|block|reject|forbid|invalid|unsafe|drop|clean|sanitiz|mask|should_?(strip|remove|drop|block|deny|reject)/i;

/** Privilege words, strongest first: a check moved down this list lets more people through. */
export const PRIVILEGE_RANK = [
  /^(is_?)?(super_?user|superuser|root)$/i,
  /^(is_?)?(admin|administrator|staff|owner|master)$/i,
  /^(is_?)?(member|verified|confirmed|approved)$/i,
  /^(is_?)?(active|authenticated|logged_?in|user|anonymous)$/i,
];

/** Settings that list what is checked (`restfulValidatedMethods`, `protected_paths`). */
export const CHECKED_LIST =
  /\b[\w$]*(validat|protect|check|require|enforce|secure|guard|verif|restrict)\w*['"]?\s*[:=(]/i;

/** A tolerance whose larger value accepts more (clock skew, leeway, a code window). */
export const TOLERANCE_NAME = /\b\w*(skew|leeway|tolerance|drift|grace|window)\w*\b/i;

/** A failure reported by assignment (`error = {…}`, `err = new Error(…)`, `result = AUTH_FAILED`). */
export const FAILURE_ASSIGN =
  /^\s*(?:[\w$]+\.)?(error|err)\s*=\s*(\{|new\s|\w*Error\b|Err[A-Z]\w*|[\w$.]+\.Err[A-Z]\w*|['"`])/;

/** A branch body that lets the caller straight through (`return func(*a, **ka)`, `return next()`). */
export const BYPASS_EXIT =
  /^return\s+(true|True)\b|^return\s+next\(\s*\)|^(await\s+)?next\(\s*\);?$|^return\s+[\w$.]+\(\s*\*\w+\s*,\s*\*\*\w+\s*\)$|^return\s+(func|fn|f|view|view_func|handler|wrapped|method)\((self|request|req|ctx)?\b|^[\w$.]*\.ServeHTTP\(\s*\w+\s*,\s*\w+\s*\)$|^(c|ctx)\.Next\(\)$/;

/** An argument whose name says it protects (`SecureCookie`, `httpOnly`, `verifySsl`). */
export const STRICT_ARG =
  /^(secure\w*|\w*Secure\w*|http_?only\w*|\w*HTTPOnly|\w*HttpOnly|verify\w*|\w*Verify\w*|strict\w*|\w*Strict\w*|require\w*|\w*Required|validate\w*)$/i;

/** Names of calls that decide whether a secret or a permission matches. */
export const CHECKISH = /compare|check|verif|valid|match|equal|authori|permi|scope|role|required/i;

/** A yes-attribute by its last name (`user.is_active`, `verified`, `staff`). */
export const YES_ATTRIBUTE =
  /(^|[._])(is_?)?(active|verified|valid|authori[sz]ed|authenticated|allowed|approved|confirmed|trusted|permitted|admin|staff|super_?user)$/i;
