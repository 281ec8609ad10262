/**
 * The vocabulary the structural counter recognises protections by: names of check calls, words
 * of conditions that guard a failure branch, security parameters whose default is the secure
 * value. Names are compared in snake_case (`requireAuth` → `require_auth`), so one list serves
 * Python, JavaScript/TypeScript and Go.
 *
 * @module
 */

/**
 * A name in snake_case, lower case: `checkPassword` → `check_password`, `VerifyExpiresAt` →
 * `verify_expires_at`, `_check_perms` → `check_perms`.
 *
 * @example
 * ```ts
 * snake("requireAuth"); // "require_auth"
 * snake("VerifyExpiresAt"); // "verify_expires_at"
 * ```
 */
export function snake(name: string): string {
  let s = snakes.get(name);
  if (s === undefined) {
    s = name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
      .toLowerCase()
      .replace(/^_+/, "");
    // Names repeat across a file's nodes and across edits: remembered, up to a bound.
    if (snakes.size >= 20_000) snakes.clear();
    snakes.set(name, s);
  }
  return s;
}

const snakes = new Map<string, string>();

/** Calls that check a credential or a permission (snake_case callee name). */
export const AUTH_CALL =
  /^(?:check_(?:object_)?perm(?:ission)?s?|has_(?:object_)?perms?|has_(?:object_)?permissions?|has_(?:any_)?roles?|check_roles?|has_\w*(?:scope|perm|role|access|right|privilege)\w*|check_\w*(?:xsrf|origin|scope|referr?er)\w*|require_(?:auth\w*|login|logged_in|user|admin|role\w*|perm\w*|scope\w*|token|session|csrf|xsrf|https|ssl|signature|api_key|owner\w*|staff|superuser|mfa|otp|verified)|ensure_(?:logged_in|auth\w*|admin|permissions?|user)|is_authori[sz]ed|authori[sz]e\w*|authenticate\w*|(?:perform|do|run|check|verify|ensure|require|enforce|validate)_\w*(?:authent|authori|perm|login|csrf|xsrf|access|role|owner)\w*|check_auth\w*|verify_auth\w*|compare_hash_and_password|password_verify|\w*allowed_host\w*|is_safe_url|is_same_origin|same_origin|validate_host|validate_redirect\w*|is_valid_redirect\w*|check_(?:host|redirect)\w*|\w*_can_(?:authenticate|login|log_in|access)\w*|login_required|permission_required|user_passes_test|check_password\w*|verify_password\w*|checkpw|check_pw|enforce_[cx]srf|[cx]srf_protect|check_[cx]srf\w*|verify_[cx]srf\w*|validate_[cx]srf\w*|[cx]srf_check|is_allowed|check_access|has_access|can_access|verify_api_key|check_api_key|validate_api_key|is_authenticated|ensure_authenticated|check_token|validate_token|verify_user|check_user|check_owner\w*|is_owner|restrict\w*|deny_unless\w*)$/;

/** Receivers whose compare/verify/check methods check a password hash. */
export const HASH_RECEIVER =
  /(?:bcrypt|argon2|scrypt|pbkdf2|passlib|pwd_context|hasher|password_hasher|crypt)$/i;

/** Calls that verify a token, a signature or a certificate (snake_case callee name). */
export const VERIFY_CALL =
  /^(?:\w+_verification_(?:for_|of_)?(?:token|jwt|signature|claims?)\w*|validate_code_challenge|verify|unsign\w*|\w+_unsign|verify_(?:\w*(?:sig|exp|aud|iss|nbf|iat|claim|token|jwt|jws|jwe|jwk|alg|hmac|digest|mac|cert|host|sign|key|chain|peer|nonce|opaque|origin|hash)\w*)|(?:validate|check)_(?:\w*(?:sig|exp|aud|iss|nbf|iat|claim|token|jwt|jws|alg|hmac|digest|cert|host|sign|nonce|hash)\w*)|verify_hostname|match_hostname|check_hostname|construct_event|compare_digest|timing_safe_equal|constant_time_\w+|safe_str_cmp|secure_compare|safe_compare|bytes_eq)$/;

/** Words (of a condition, snake_case tokens) that make a failure branch an auth/security check. */
export const COND_WORDS = new Set(
  (
    "user users admin staff superuser owner role roles perm perms permission permissions auth " +
    "authenticated authorized authorization unauthorized token tokens password passwd pwd " +
    "credential credentials session csrf api_key apikey secret login logged signature sig hmac " +
    "digest mac nonce expired exp iss aud nbf iat issuer audience alg algorithm algorithms claims " +
    "claim scope scopes cert certificate fingerprint hostname verified active inactive banned " +
    "locked disabled mfa otp principal identity account jwt kid anonymous allowed forbidden " +
    "valid signed key origin referer referrer same_origin trusted xsrf"
  ).split(" "),
);

/** Of those, words that make it a token/signature check (rule crypto-verification-removed). */
export const TOKEN_WORDS = new Set(
  "signature sig hmac digest mac nonce expired exp iss aud nbf iat issuer audience alg algorithm algorithms claims claim jwt kid signed verify bytes_eq compare_digest timing_safe_equal constant_time"
    .split(" "),
);

/** Words that make it a TLS check (rule tls-check-removed). */
export const TLS_WORDS = new Set(
  "cert certificate fingerprint hostname authorized ssl tls peer pin pinned".split(" "),
);

/** A branch body that fails: raises, throws, denies, returns an error or nothing. */
export const FAIL =
  /\braise\b|\bthrow\b|\babort\s*\(|\breturn\s+(?:nil\s*,\s*|false\s*,\s*|None\s*,\s*)?(?:False|false|None|null|undefined|nil|[Ee]rr\w*|error\w*|fmt\.Errorf|errors\.New|&?\w*Err(?:or)?\b|-1|0|self\.\w*(?:fail|deny|error|unauth|forbid)\w*)\b|\breturn\s*;|\breturn\s*$|\breturn\s+\w*(?:Unauthori[sz]ed|Forbidden|Denied|Error|Fail)\w*|status\s*\(\s*4\d\d|\b40[13]\b|Unauthori[sz]ed|Forbidden|Denied|http\.Error|\bpanic\s*\(|\bnext\s*\(\s*(?:new\s+\w*Error|err\w*)|\bdone\s*\(\s*(?:null\s*,\s*false|err)|\b(?:callback|cb)\s*\(\s*(?:new\s+|err)|\breject\s*\(|\b(?:ws|websocket|socket|conn\w*)\.close\s*\(|\b(?:cb|callback|done)\s*\(\s*null\s*,\s*(?:null|false|undefined)\s*\)|\.destroy\s*\(|emit\s*\(\s*["']error|\bfail\w*\s*\(|\bdeny\w*\s*\(|redirect\w*\s*\([^)]*login|\breturn\b[^\n]*\b(?:new\w*Error|\w*Err(?:or)?\b|errors?\.\w+|fmt\.Errorf)|\breturn\b[^\n]*(?:unauthori[sz]ed|needs_refresh|challenge|login|den(?:y|ied)|reject|abort|fail|forbid|invalid)|append\s*\(\s*errs?\b|^\s*\{?\s*(?:[\w$]+\.)*[\w$]*(?:unexpected|invalid|fail|deny|reject|forbid|unauthori[sz]|abort|throw)\w*\s*\(|(?:last\w*)?[Ee]rr\w*\s*=\s*\w*(?:Err|Error)\w*/mi;

/**
 * Receivers whose validity predicate (`token.is_valid(scopes)`, `jwt.isExpired()`) is a token
 * check (snake_case receiver name).
 */
export const TOKEN_RECEIVER = /(?:^|_)(?:token|jwt|jws|signature|grant|credentials?)$/;

/** A branch body that is unmistakably an auth failure, whatever its condition says. */
export const STRONG_FAIL =
  /\b40[13]\b|\w*(?:Token|Jwt|JWT|Jws|JWS|Signature|Claims?|Grant|Credentials?|Permission|Scope|Nonce|RedirectU(?:RI|ri)|Csrf|CSRF|Revoked|Unauthenticated)(?:[A-Z]\w*)?(?:Error|Exception|Required|Denied|Failed|Failure)\b|Unauthori[sz]ed|Forbidden|PermissionDenied|NotAuthenticated|AuthenticationFailed|AuthenticationError|AccessDenied|InvalidToken|ExpiredSignature|InvalidSignature|InvalidAudience|InvalidIssuer|ImmatureSignature|InvalidAlgorithm|InvalidKey|BadSignature|SignatureExpired|TokenExpired|JsonWebTokenError|NotBeforeError|CsrfViewMiddleware|REASON_\w*CSRF|csrf_failure|HTTP_40[13]|redirect_to_login|SignatureInvalid|TokenInvalid|Err\w*(?:Signature|Token|Auth|Unauthori|Forbidden|Permission|Credential|Expired|Audience|Issuer)\w*/;

/** An unmistakable auth failure inside a raise/throw/return/abort/error statement. */
export const STRONG_FAIL_STMT = new RegExp(
  String
    .raw`(?:\braise\b|\bthrow\b|\breturn\b|\babort\b|\breject\b|\bnext\s*\(|\bdone\s*\(|\bhttp\.Error\b|\berrs?\s*=|\bstatus\s*\()[^\n]*(?:` +
    STRONG_FAIL.source + ")",
);

/** Condition words specific enough that a failure branch guarded by them is surely a check. */
export const STRONG_WORDS = new Set(
  (
    "admin staff superuser owner role roles perm perms permission permissions authenticated " +
    "authorized authorization unauthorized password passwd credential credentials csrf api_key " +
    "apikey login logged signature exp expired iss issuer aud audience nbf alg algorithms claims " +
    "jwt kid fingerprint hostname verified inactive banned locked mfa otp " +
    "anonymous forbidden is_active is_admin is_staff is_superuser is_authenticated claim token " +
    "tokens revoked expires expiry origin referer referrer same_origin"
  ).split(" "),
);

/** Security parameters whose default is the secure value (snake_case names). */
export const SEC_PARAM =
  /^(?:verify\w*|verification\w*|\w+_verif(?:y|ication)|verify|check_\w+|\w+_required|strict\w*|secure|validate\w*|require_(?:auth\w*|login|logged_in|user|admin|role\w*|perm\w*|scope\w*|token|session|csrf|https|ssl|signature|api_key|owner\w*|staff|superuser|mfa|otp|verified)|reject_unauthorized|enforce_\w+|csrf\w*|http_only|httponly|signed|cert_reqs|verify_mode|ssl_verify|tls_verify|authori[sz]ed|check_hostname|credentials_required|check_author|strip_auth\w*|remove_auth\w*)$/;

/** Constants that say "verify the peer". */
export const SECURE_CONST =
  /^(?:CERT_REQUIRED|VERIFY_PEER|VERIFY_FAIL_IF_NO_PEER_CERT|RequireAndVerifyClientCert|VerifyClientCertIfGiven)$/;

/** Header names whose removal on redirect keeps credentials from leaking to another host. */
export const CRED_HEADER = /^(?:authorization|proxy-authorization|cookie|www-authenticate)$/i;

/** HTTP-routing methods: `app.get(path, mw, handler)`. */
export const ROUTE_METHOD = /^(?:get|post|put|patch|delete|del|all|options|head|use|route)$/;

/** Middleware names that are auth/CSRF/role guards (snake_case). */
export const AUTH_MW =
  /(?:^|_)(?:auth\w*|authenticate\w*|authori[sz]\w*|login\w*|logged_in|admin|role\w*|perm\w*|guard|protect\w*|restrict\w*|csrf\w*|jwt\w*|token\w*|session\w*|verify\w*|require\w*|ensure\w*|passport|acl|rbac|can|allow\w*|owner\w*|api_key)(?:_|$)/;

/** Python decorators and TS decorators that guard what they decorate (snake_case last name). */
export const AUTH_DECORATOR =
  /(?:^|_)(?:login|auth\w*|permission\w*|perms?|roles?|admin|staff|superuser|csrf_protect|requires?|authori[sz]\w*|authenticated|jwt|scope\w*|user_passes_test|use_guards|auth_guard|secured)(?:_|$)/;

/** Settings strings naming security middleware (Django `MIDDLEWARE = […]`). */
export const SEC_MIDDLEWARE_STRING =
  /(?:Csrf|Authentication|Security|Clickjacking|XFrameOptions|LoginRequired|Permission)\w*Middleware/;

/** Predicate functions whose body must not become `return True`. */
export const PREDICATE_FN =
  /^(?:should_\w*(?:strip|verify|check|deny|reject|block|auth)\w*|has_\w*perm\w*|has_\w*permission\w*|is_authori[sz]ed|is_allowed|can_\w+|check_\w*(?:perm|auth|access|password|owner|role|token|sig)\w*|verify\w*|authori[sz]e\w*|authenticate\w*|is_valid_\w*(?:token|sig|signature|password|key)\w*|validate_\w*(?:token|sig|signature|password|key)\w*|check_password|has_access|user_can\w*|sign_in|can_sign_in|check_\w*(?:origin|host|referr?er|[cx]srf|scope|nonce|state)\w*|has_\w*scopes?\w*|is_\w*(?:allowed|trusted|permitted|same_origin|safe_url)\w*|(?:auth|access|host|origin|user|email|domain|redirect|scope|ip|client|request|login)_allowed)$/;

/**
 * Which guard rule a condition's words point to: TLS words win, then token words, else auth.
 *
 * @example
 * ```ts
 * familyOf(["payload", "exp"]); // "token"
 * familyOf(["user", "is_admin"]); // "auth"
 * ```
 */
export function familyOf(words: Iterable<string>): "auth" | "token" | "tls" {
  let token = false;
  for (const w of words) {
    if (TLS_WORDS.has(w)) return "tls";
    if (TOKEN_WORDS.has(w)) token = true;
  }
  return token ? "token" : "auth";
}
