/**
 * The words and shapes the changed-line guard signals (`guard_lines.ts`) look for: what makes
 * code security code, what a failure, a check, a secure setting or a weakening looks like.
 *
 * @module
 */

/** Words that make code security code, matched against whole words of identifiers and text
 * (`originalUrl` is not about origins; `isOriginAllowed` is). */
export const SECURITY_WORD =
  /^(auth\w*|authn|authz|login|logon|logout|signin|session|sessions|token|tokens|jwt|jws|jwe|jwk|jwks|jose|oauth\w*|oidc|openid|saml|csrf|xsrf|permission\w*|perm|perms|acl|acls|role|roles|admin|staff|superuser|secur\w*|insecure\w*|crypt\w*|encrypt\w*|decrypt\w*|signature|signatures|signed|signer|signing|sign|unsign|verif\w*|password\w*|passwd|credential\w*|secret\w*|tls|ssl|cert|certs|certificate\w*|otp|totp|hotp|mfa|2fa|webauthn|passkey|guard|guards|policy|policies|grant|grants|consent|scope|scopes|nonce|pkce|redirect\w*|origin|origins|cookie|cookies|cors|trust\w*|hmac|digest|claim|claims|issuer|iss|audience|aud|expir\w*|exp|authori[sz]\w*|authentic\w*|principal|principals|lockout|ratelimit|throttle|allowed|denied|deny|forbidden|unauthorized|unauthorised|privilege\w*|owner|ownership|assertion|challenge|verifier|fresh|reauth\w*|reauthenticate|bearer|apikey|api_key|hsts|samesite|httponly|captcha|recaptcha|hcaptcha|enforce\w*|enforcer|blocked|attempts?|throttle\w*|revoke\w*|revocation\w*|bcrypt|scrypt|argon2\w*|pbkdf2\w*|gensalt|hashpw|checkpw)$/i;

/** Security words that are written joined to others (`BadHostKeyException`, `userauth`). */
const SECURITY_COMPOUND =
  /host_?keys?|known_?hosts|user_?auth|pub_?key|public_?key|private_?key|signing_?key|keyring|truststore|keystore|authenticat|authoriz|authoris|passphrase|csrf|xsrf|samesite|api_?key|logged_?in/i;

/** Identifiers already judged by {@link speaksSecurity} (they repeat across lines and edits). */
const judged = new Map<string, boolean>();

/** Whether one identifier, or one of its camelCase parts, is a security word. */
function securityId(id: string): boolean {
  let known = judged.get(id);
  if (known === undefined) {
    known = SECURITY_WORD.test(id) ||
      id.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/).some((w) =>
        w !== id && SECURITY_WORD.test(w)
      );
    if (judged.size >= 100_000) judged.clear();
    judged.set(id, known);
  }
  return known;
}

/** True when `text` holds a security word (identifiers split at `_`, `-`, `.` and camelCase). */
export function speaksSecurity(text: string): boolean {
  for (const id of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) if (securityId(id)) return true;
  // Words that start with a digit (`2fa`) are not identifiers above.
  for (const w of text.match(/(?<![A-Za-z0-9])[0-9][A-Za-z0-9]*/g) ?? []) {
    if (SECURITY_WORD.test(w)) return true;
  }
  return SECURITY_COMPOUND.test(text);
}

/** A regular-expression face of {@link speaksSecurity} for `.test()` call sites. */
export const SECURITY = { test: speaksSecurity };

/** Errors that validate arguments or report a bug, not a denied request. */
export const NOT_A_DENIAL =
  /\b(TypeError|ValueError|RangeError|NotImplementedError|NotImplemented|AssertionError|KeyError|IndexError|AttributeError|LookupError|SyntaxError|DeprecationWarning|UnsupportedAlgorithm|ImportError|ModuleNotFoundError|StopIteration|OverflowError|ZeroDivisionError)\b/;

/** Returns of a bare `false`/`None`: a denial only inside a predicate or a security function. */
export const BARE_RETURN = /^\s*return\s+(false|False|None|null|nil)\s*;?\s*$/;

/** An assignment that denies (`allow = False`, `req.authorized = false`). */
export const DENY_ASSIGN =
  /\b[\w$.]*(allow|allowed|authori[sz]ed|authenticated|valid|verified|permitted|granted|ok)\w*\s*:?=(?!=)\s*(false|False)\b|\b[\w$.]*(result|status|verdict|decision|outcome|effect)\s*:?=(?!=)\s*[\w$.]*\b\w*(FAIL|DENIED|DENY|INVALID|REJECT|UNAUTHORI[SZ]ED|FORBIDDEN)\w*\b|\b(invalid|denied|failed|rejected|unauthori[sz]ed|forbidden|blocked|locked)\s*:?=(?!=)\s*(true|True)\b/i;

/** A 401 or 403 status set, sent or aborted with: a denied request whatever the code around it says. */
export const DENIED_STATUS = /\b(status|code|abort|sendStatus)\w*\W{1,4}(\w+\s*,\s*)?40[137]\b/i;

/** A statement that fails a check: raises, throws, aborts, denies, or returns an error. */
export const FAILURE =
  /\b(raise|throw|abort|panic)\b|\breturn\s+[\w.]*(Unwilling|InsufficientAccess|InvalidCredentials|AccessDenied|PermissionDenied|Refused)\w*|\b(log|logger|logrus|klog|glog|slog|zap|l)\.(Fatal|Fatalf|Fatalln|Panic|Panicf|Panicln)\(|\bos\.Exit\(\s*[1-9]|\bsys\.exit\(\s*([1-9]|['"])|\bprocess\.exit\(\s*[1-9]|\breturn\s+['"](fail|failed|failure|deny|denied|forbidden|unauthori[sz]ed|reject|rejected)['"]|\breturn\s+(false|False|None|null|nil\s*,|err\b|\w*(Err|Error|Exception)\b|errors?\.|fmt\.Errorf|new\s+\w*(Error|Exception)|res\.status|c\.(?!Next\b)|ctx\.(?!Next\b)|http\.|Response\(|HttpResponse\w*\(|JsonResponse\(|redirect\(|reject|deny|unauthori[sz]ed|forbidden)|\.status\(\s*40[0-9]\s*\)|(status|code)(_code)?\s*[:=]\s*40[13]\b|Status(Unauthorized|Forbidden|BadRequest)|HTTP_40[13]|\bUnauthori[sz]ed\b|\bForbidden\b|PermissionDenied|AccessDenied|\bnext\(\s*(err|new\s|create|\w*Error)|\bAbortWith|\bhttp\.Error\(|\bdeny\(|\breject\(|_unauthz|_unauthn|_reauthn|\bflash\(|\breturn\s+[\w.]*\bErr(or)?[A-Z]\w*|\breturn\s+\w+\.(WithStack|Wrap\w*|New\w*)\(|\b(callback|cb|done|next|reject)\(\s*(null\s*,\s*false|new\s+\w*(Error|Exception))|\bnew\s+\w*(Unauthori[sz]ed|Forbidden|Untrusted|Invalid|Denied|Expired|Auth\w*)\w*(Error|Exception)\b|\b_?\w*(error_?response|permission_denied|handle_no_permission|access_denied|forbidden|unauthori[sz]ed)\w*\(|\.fail\(|\bfail\(|\b_+(abort|deny|reject|fail|raise|forbid)\w*\(|\breturn\s+([\w.]+\s*,\s*)*err[A-Z]\w*\b|\b(deny|reject|abort|forbid|refuse|fail)[A-Z]\w*\(|\breturn\s+(await\s+)?[\w$.]*[A-Za-z](Error|Failure|Denied|Rejected|Unauthori[sz]ed|Forbidden)\w*\(|\b(raise|abort|deny|reject|fail)_\w+\(|\b(callback|cb|done|next|reject|\w+\.done)\(\s*(err|error|e|ex|\w*[Ee]rr(or)?|currentError|[\w.]+\(\s*e\s*\))\s*[,)]|\breturn\b[^;\n]*,\s*(fmt\.Errorf|errors\.New|\w*\.?Err[A-Z]\w*)|\bHTTP_4\d\d(_[A-Z_]+)?\b|\w*_40[13]\w*\(|\breturn\s+(await\s+)?\w*(invalid|fail|deny|reject|unauthori[sz]ed|forbidden)\w*\(|\bset_status\(\s*40[13]|\breturn\s+\w+\(\s*(err|error)\s*\)|\.response\s*=\s*\w*(auth_required|unauthori[sz]ed|forbidden|denied)\w*\(|\b(send|write|respond|render|reply)_?\w*(AuthRequired|AuthenticationRequired|auth_required|Unauthori[sz]ed|unauthori[sz]ed|Forbidden|forbidden|Denied|denied)\w*\(/;

/**
 * Whether code fails as a denial: a {@link FAILURE} statement that is not an argument check or a
 * bug report ({@link NOT_A_DENIAL}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denies } from "./guard_vocab.ts";
 * assert.ok(denies("raise PermissionDenied()"));
 * assert.ok(!denies("raise TypeError('x must be int')"));
 * ```
 */
export function denies(code: string): boolean {
  return FAILURE.test(code) && !NOT_A_DENIAL.test(code);
}

/** A statement that leaves the branch: returns, raises, continues, or calls a failing helper. */
export const EXIT =
  /\b(return|raise|throw|continue|break|abort|panic)\b|\b(raise|abort|deny|reject|fail)_\w+\(|\bnext\(|AbortWith/;

/** A conditional with a constant yes in one arm (`c ? check() : true`, `check() if c else True`). */
export const YES_ARM =
  /\?[^:?]*:\s*(true|True)\b|\?\s*(true|True)\s*:|\belse\s+True\b|\bTrue\s+if\b/;

/** A listener kept on this machine: a loopback address where a server binds or listens. */
export const LOOPBACK_LISTENER =
  /(bind|listen|host|address|interface|\baddr)\w*[^\n]*?(127\.0\.0\.1|localhost|::1|IPv4\(\s*127\s*,\s*0\s*,\s*0\s*,\s*1\s*\))(?![\w.:])/i;

/** Randomness fit for secrets, and randomness an attacker can predict. */
export const SECURE_RANDOM =
  /\bsecrets\.\w+|\bSystemRandom\b|\bcrypto\.(randomBytes|randomInt|randomUUID|getRandomValues)\b|["']crypto\/rand["']|\bos\.urandom\b|\brand\.Read\b/;
export const WEAK_RANDOM =
  /\brandom\.(choice|choices|randint|random|randrange|getrandbits|sample)\b|\bimport random\b|\bMath\.random\(|["']math\/rand["']|\brand\.(Intn|Int63|Int|Read)\b/;

/** A call that checks something: its name says so. */
export const CHECK_CALL =
  /^(.*[._])?(check\w*|\w*_check|verify\w*|\w*[vV]erif\w*|validate\w*|\w*_validate|is_?valid\w*|ensure_?\w+|require_?(auth|login|perm|role|scope|admin|user|csrf|token|fresh|https|secure)\w*|assert_?(auth|perm|role|scope|admin|user|csrf|token|owner|allowed|valid|claim)\w*|assert[A-Z]\w*(Claim|Algorithm|Signature|Token|Audience|Issuer|Expir|Auth|Perm|Role|Scope|Owner|Access|Nonce|State)\w*|required?_?[A-Z]?\w*(Auth|Login|Perm|Role|Scope|Admin|Owner|Maintainer|Member|Access|Csrf|Token|Session)\w*|authori[sz]e\w*|authenticate\w*|enforce\w*|protect\w*|guard\w*|permit\w*|unsign\w*|compare_?digest|timing_?safe_?equal|constant_?time\w*|bytes_eq|strings_equal|safe_str_cmp|secure_compare|time_?safe_?\w*|safe_?compare\w*|safe_?equal\w*|fixed_?time\w*|\w+Check(?=[A-Z])\w*|require_?condition|require_?that|ensure_?that|safe\w*(Compare|Equal)\w*|\w+Validat(e|ion)(?=[A-Z]|$)\w*|assert_?that|assertThat|invariant|\w*_?fold|compare_?(password|hash|digest|secret|token|signature|key)\w*|hmac\.?equal|same_?origin\w*|is_?same_?origin\w*|is_?trusted\w*|\w*_?trusted|is_?(admin|staff|superuser|active|authenticated|authorized|allowed|owner|expired|public|safe_url|safe)\w*|has_?(perm|role|scope|access|permission|privilege)\w*|can_?(access|view|edit|read|write|delete|manage|admin|change)\w*|\w*(Authori[sz]ed|Authenticated|Permitted|Granted|Allowed|Trusted)|auth|authn|authz|require_?auth\w*|ensure_?auth\w*|with_?auth\w*|login_?required|(otp|mfa|2fa|two_factor|verified|staff|superuser|admin)_?required|raise_for_status|block_(ip|user|address|account|request)\w*|lock_?out\w*|ban_\w+|throttle\w*|revoke\w*|start_?tls|starttls)$/i;

/** Words of a setting whose strict value is the safe one. */
export const SECURE_SETTING =
  /\bexp\b|\bnbf\b|secur|set_?cookie|SetCookie|passw\w*_?hash|hash(ing)?_?(alg\w*|scheme\w*|method)|http_?only|same_?site|verify|validat|check|strict|require|enforce|csrf|xsrf|auth|sign|ssl|tls|https|lock|protect|safe|expir|audience|issuer|nonce|pkce|hsts|trust|reject|encrypt|always_?validate|fresh|unauthori|forbid|fingerprint|include_?sub_?domains|includeSubDomains|preload/i;

/** Options whose removal from a call or a config weakens a check. */
export const SECURITY_OPTION =
  /^\s*['"]?(issuer|iss|audience|aud|exp|expires_?in|expiresIn|expiration|min_?version|MinVersion|minVersion|ssl_?version|tls_?version|nonce|expected_?nonce|expectedNonce|algorithms|algs|max_?age|maxAge|clock_?tolerance|clockTolerance|verify_\w+|verify[A-Z]\w*|secure|http_?only|httpOnly|same_?site|sameSite|required|\w+_required|\w+Required|strict\w*|check_\w+|check[A-Z]\w*|validate_\w+|validate[A-Z]\w*|enforce\w*|signed|leeway|subject|checks|pkce\w*|code_?challenge\w*|jwks?_?\w*|public_?key|secretOrKey|require_\w+|read_?only|readOnly|is_?read_?only|isReadOnly|xsrf_?cookies|csrf_?protection|csrfProtection|validators)['"]?\s*[:=](?!=)\s*(?!(bytes|str|int|float|bool|dict|list|tuple|Any|Optional|Union|typing|string|number|boolean)\b)/i;

export const STRONG_TO_WEAK: [RegExp, RegExp][] = [
  [/\b(true|True|TRUE)\b/, /\b(false|False|FALSE|None|null|nil|undefined)\b/],
  [/\bCERT_REQUIRED\b/, /\bCERT_(NONE|OPTIONAL)\b/],
  [/\bVERIFY_PEER\b/, /\bVERIFY_NONE\b/],
  [/['"]strict['"]/i, /['"](lax|none)['"]/i],
  [/['"]lax['"]/i, /['"]none['"]/i],
  [/\bSameSite(Strict|Lax)Mode\b/, /\bSameSite(None|Default)Mode\b/],
  [/['"]mandatory['"]/i, /['"](optional|none)['"]/i],
  [
    /['"]\w*(pbkdf2|bcrypt|argon2|scrypt|sha(256|512)_crypt)\w*['"]/i,
    /['"](plaintext|plain|md5|sha1|none|clear)['"]/i,
  ],
  [
    /['"](required|require|verify_?full|verify_?ca)['"]/i,
    /['"](none|optional|prefer|allow|disable)['"]/i,
  ],
  [
    /\b(VersionTLS1[23]|TLSv1_[23]|TLSv1\.[23]|TLS1[23]|PROTOCOL_TLS_CLIENT|PROTOCOL_TLSv1_[23])\b/,
    /\b(VersionTLS1[01]|VersionSSL30|TLSv1(_[01])?|TLSv1\.[01]|SSLv[23]\w*|TLS1[01]|PROTOCOL_TLS|PROTOCOL_SSLv23|PROTOCOL_TLSv1(_1)?)\b/,
  ],
  [
    /\bRequireAndVerifyClientCert\b/,
    /\b(NoClientCert|RequestClientCert|RequireAnyClientCert|VerifyClientCertIfGiven)\b/,
  ],
  [/\bRequireAnyClientCert\b/, /\b(NoClientCert|RequestClientCert|VerifyClientCertIfGiven)\b/],
  // A listener opened from this machine to every interface.
  [/['"](127\.0\.0\.1|localhost|::1)['"]/, /['"](0\.0\.0\.0|::|\*)['"]/],
  // (A digit of a dotted number, `0.3.1` → `0.3.2`, is no switch.)
  [/(?<![\d.])\b1\b(?![.\d])/, /(?<![\d.])\b0\b(?![.\d])/],
  [
    /['"](validate|verify|strict|enforce|auth|deny|reject)['"]/i,
    /['"](ignore|skip|off|allow|permit|accept|none|disabled?)['"]/i,
  ],
  [/['"](yes|on|enabled?)['"]/i, /['"](no|off|disabled?)['"]/i],
  [/['"]https:?['"]/i, /['"]http:?['"]/i],
  [/['"](TLSv?)?1\.[23]['"]/i, /['"](TLSv?|SSLv?)?(1\.[01]|[23](\.0)?)['"]/i],
  [/['"]wss['"]/i, /['"]ws['"]/i],
];

/** A condition's subject that is itself a verdict (`if is_safe:`, `if (!allowed)`). */
export const CHECK_SUBJECT =
  /\b(is_?|has_?|can_?)?(safe|valid|allowed|authori[sz]ed|authenticated|trusted|verified|permitted|owner|admin|staff|member|membership|same_?origin)\w*\b(?!\s*=(?!=))/i;

/** A function whose job is to check: what it removes is a check. */
export const CHECKER_FN =
  /^_*(verify|validate|check|authori[sz]e|authenticate|allow|permit|trust|ensure|require|assert|enforce|protect|guard)/i;

/** A function that answers a yes/no question about access or validity. */
export const PREDICATE =
  /^(is|has|can|should|may|must|allow|allows|check|verify|valid|validate|trust|permit|authori[sz]e|authenticate|matches|compare|constant_?time|timing_?safe|safe_?(str_?)?(eq|equal|compare))|(allowed|valid|trusted|authori[sz]ed|permitted|granted|permission|access|_?equal|Equal|_?equals|Equals|_compare|Compare)$/i;

/** Lines longer than this, or more changed lines than this on a side, are not looked at. */
export const MAX_LINE = 400;
export const MAX_CHANGED = 250;

export const CONSTANT =
  /^\(?\s*(False|false|True|true|0|1|None|nil|null|undefined)\s*\)?;?$|^(async\s*)?(\([^)]*\)|\w+)\s*=>\s*(true|false)\s*;?$|^lambda[^:]*:\s*(True|False)$/;

/** A setting and its value: `"verify_iss": bool(x)`, `verify_iss=x`, `TOKEN_TTL: timedelta(…)`. */
export const SETTING_VALUE =
  /(?<![\w$])['"]?((?:verify|check|validate|require|enforce)_?\w*|\w*(?:_ttl|ttl|expir\w*|max_?age|lifetime|timeout|secure|http_?only|same_?site|strict\w*))['"]?\s*[:=](?!=)\s*([^,}\n]+)/i;

/** Values that switch a setting off. */
export const FALSY = /^\s*(False|false|None|null|nil|undefined|0|''|"")\s*[,;)]?\s*$/;

/** Settings whose `true` turns a protection off. */
export const PERMISSIVE =
  /(?:^|_)no_(?:verify|check)|(?:csrf|auth|verify|tls|ssl)_?(?:disabled|off)\b|\bNo[A-Z]\w*(?:Auth|Verify|Check)\b|\bno_?(check|verify|verif\w*|validat\w*|auth\w*|tls|ssl|csrf|sign\w*)\w*|\bNo(Check|Verify|Verif|Validat|Auth|TLS|SSL|Csrf|Sign)\w*|\bdebug\b|\bDEBUG\b|self_?signed|SelfSigned|report_?only|reportOnly|ReportOnly|(validation|verification|check)_?off\b|(Validation|Verification|Check)Off\b|accept_?untrusted\w*|behind_?(reverse_?)?proxy|trust_?proxy|trusted_?prox\w*|supports_?credentials|allow_?credentials|allowCredentials|allow_?(unsecured|insecure|unsigned|any|all|none|http\b)|unsecured|insecure|unsafe|skip_?\w*(verif|check|valid|auth|csrf)|disable_?\w*(verif|check|valid|auth|csrf|ssl|tls|pkce|nonce|state|signature|https)|allow_?embedded\w*|trust_?all|accept_?any|allow_?remote\w*|allow_?\w*(unauthenticated|anonymous|public|origins?|hosts?)\b|forward_?\w*(auth\w*|credential\w*|cookie\w*)|\blax\s*[:=]|allow_?unsolicited|unsolicited|permit_?empty\w*|allow_?empty_?pass\w*|accept_?(empty|ro|read_?only|any|all|unsigned|unverified|expired|invalid|insecure|none)\b\w*|enable_?sign_?up|allow_?sign_?up|open_?registration|allow_?registration|registration_?enabled|use_?x_?forwarded_?\w*|x_?forwarded_?(host|for|proto)|trust_?forwarded\w*|proxy_?headers|allow_?\w*(unconfirmed|unverified)\w*|dangerous\w*|fail_?open|allow_?non_?(staff|admin|member|owner|auth\w*)\w*|allow_?empty\w*|_optional\b|[a-z]Optional\b|\bignore_?[a-z]\w*|\bignore[A-Z]\w*|with_?(deactivated|disabled|inactive|revoked|deleted|expired|unverified)\w*|with(Deactivated|Disabled|Inactive|Revoked|Deleted|Expired|Unverified)\w*|\bpublic_\w+|\bPUBLIC_\w+|sign_?ups?_?enabled|SIGNUPS?_ENABLED|registration_?enabled|reuse_?\w*(token|nonce|code|otp|password)\w*|allow_?reuse\w*|(accept|allow|trust)_?(global|unknown|external|foreign|guest)_?\w*|allow_?(anonymous|unauthenticated|guest)_?\w*|\bno_\w+_check\b|unprotected/i;

/** A name that clears, strips or refuses: its `true` protects, whatever else it names. */
export const PROTECTIVE_NAME =
  /\b(clear|strip|drop|remove|reject|deny|block|forbid|disallow|prevent)_?\w*/i;

/** A condition or value that keeps an option on unless it is switched off explicitly. */
export const DEFAULT_ON =
  /(===?\s*(undefined|null|None)|\bis\s+None)\s*(\|\||\bor\b)|\?\?\s*true\b|!==?\s*false\b|!==?\s*['"](false|False|0|no|off)['"]|\.get\([^)]*,\s*True\)|(!|\bnot\s)\s*(process\.env\.|os\.environ\.get\(\s*['"]|os\.getenv\(\s*['"])(NOT|NO|DISABLE|SKIP)_/;

/** Setting one of the headers that tell a browser to protect the page. */
export const SECURITY_HEADER =
  /\b(set_?header|setHeader|header|headers?\[|\.set)\b.*\b(strict-transport-security|content-security-policy|x-frame-options|x-content-type-options|referrer-policy|permissions-policy|cross-origin-(opener|embedder|resource)-policy)\b|\b(xFrameOptions|strictTransportSecurity|contentSecurityPolicy|xContentTypeOptions|referrerPolicy|noSniff|frameguard|hsts|helmet)\(/i;

/** Words that switch a protection off. */
export const WEAKENING =
  /\w*(unsafe|unverified|without_?verif\w*|Without\w*(Validation|Verification|Check)\w*|insecure|exempt|skip_?\w*(check|verif|valid|auth|csrf)\w*|skip[A-Z]\w*(Check|Verif|Valid|Auth|Csrf)\w*|no_?verify|noverify|disable_?\w*(verif|check|csrf|auth)\w*|allow_?(all|any)_?\w*|trust_?all\w*|accept_?any\w*|bypass\w*|ignore_?\w*(cert|ssl|tls|verif|check|invalid|hostname|signature|expir)\w*)\w*/i;

/** {@link WEAKENING} for `.test()` alone: the same words without the `\w*` around them (which only
 * widen a match, never decide one), so a line without them is passed over in one scan. */
export const WEAKENING_TEST = new RegExp(WEAKENING.source.slice(3, -3), "i");

export function WEAKENING_G(text: string): string[] {
  return (text.match(new RegExp(WEAKENING.source, "gi")) ?? []).map((w) => w.toLowerCase());
}

/** A limit whose larger value lets more through (failed logins, attempts, retries). */
export const LIMIT_NAME =
  /failure_?limit|max_?(attempts|failures|retries|tries)|lock_?out\w*|attempt\w*_limit|LOCK_?OUT\w*/i;

/** An argument that carries a check: a state, nonce, issuer, audience, expiry or key. */
export const SECURITY_ARG =
  /^(state|nonce|issuer|iss|audience|aud|max_?age\w*|maxAge\w*|expir\w*|ttl|leeway|algorithms|key|secret|verify\w*|revoked\w*|code_?verifier|trust_?root|ca_?certs?|cafile)\s*=|^(max_?age|state|nonce|expected_?\w*|code_?verifier|verifier)$|\b(self\.|this\.)_?(state|nonce|max_?age)\b/;
