import assert from "node:assert/strict";
import { edit, oneWay, oneWayAll, type OneWayCase, seen } from "./shape_helpers.ts";

Deno.test("shapes: a check's verdict ignored, or replaced by another value", () => {
  const ts = "export function validate(xml: string) {\n  return sig.checkSignature(xml);\n}\n";
  assert.match(
    seen(
      "src/xml.ts",
      ts,
      edit(ts, "  return sig.checkSignature(xml);", "  sig.checkSignature(xml);\n  return true;"),
    ).join(),
    /result of checkSignature\(\) ignored/,
  );
  const go =
    "func load(h []byte) error {\n\tok := verifyMAC(h)\n\tif !ok {\n\t\treturn errBad\n\t}\n}\n";
  assert.match(
    seen(
      "store/cookie.go",
      go,
      edit(go, "\tok := verifyMAC(h)", "\t_ = verifyMAC(h)\n\tok := true"),
    )
      .join(),
    /verifyMAC\(\) (no longer decides|ignored)|result of verifyMAC/,
  );
  const rp =
    "async function check(opts) {\n  const matched = await matchExpectedRPID(hash, opts.rpIDs);\n  return matched;\n}\n";
  assert.match(
    seen(
      "src/authentication/verify.ts",
      rp,
      edit(rp, "await matchExpectedRPID(hash, opts.rpIDs)", "opts.rpIDs[0]"),
    ).join(),
    /matchExpectedRPID\(\) no longer decides `matched`/,
  );
  // The verdict still used, only reformatted: nothing.
  assert.deepEqual(
    seen("src/xml.ts", ts, edit(ts, "sig.checkSignature(xml)", "sig.checkSignature( xml )")),
    [],
  );
});

Deno.test("shapes: an error no longer handed on, or caught and dropped", () => {
  const js =
    "function run(that) {\n  if (that.currentError) {\n    that.done(that.currentError)\n  }\n}\n";
  assert.match(
    seen("lib/auth.js", js, edit(js, "that.done(that.currentError)", "that.done()")).join(),
    /that\.done\(that\.currentError\) no longer passes the error/,
  );
  const py =
    "def authenticate(self, request):\n    token = get_token(request)\n    verify_token(token)\n    return token\n";
  assert.match(
    seen(
      "app/auth.py",
      py,
      edit(
        py,
        "    verify_token(token)\n",
        "    try:\n        verify_token(token)\n    except InvalidToken:\n        pass\n",
      ),
    ).join(),
    /failure caught and ignored: `except InvalidToken:`/,
  );
  // An operating-system error ignored in the same shape is not a check's failure.
  const os = "def cleanup(session_dir):\n    shutil.rmtree(session_dir)\n";
  assert.deepEqual(
    seen(
      "app/session_files.py",
      os,
      edit(
        os,
        "    shutil.rmtree(session_dir)\n",
        "    try:\n        shutil.rmtree(session_dir)\n    except PermissionError:\n        pass\n",
      ),
    ),
    [],
  );
});

Deno.test("shapes: requirements joined with `or`, made optional, given exceptions or inverted", () => {
  const go =
    "func (p *Proxy) callback(s *Session, authorized bool) bool {\n\tif p.Validator(s.Email) && authorized {\n\t\treturn true\n\t}\n\treturn false\n}\n";
  assert.match(
    seen(
      "oauthproxy.go",
      go,
      edit(go, "p.Validator(s.Email) && authorized", "p.Validator(s.Email) || authorized"),
    )
      .join(),
    /`and` → `or`|condition/,
  );
  const basic =
    "func login(user, password string) bool {\n\tif validator.Validate(user, password) {\n\t\treturn true\n\t}\n\treturn false\n}\n";
  assert.match(
    seen(
      "pkg/middleware/basic_session.go",
      basic,
      edit(
        basic,
        "if validator.Validate(user, password) {",
        'if validator.Validate(user, password) || user == "admin" {',
      ),
    ).join(),
    /check made optional|condition narrowed/,
  );
  const ts =
    "function load(ctx, valid, data) {\n  if (typeof valid === 'function' && !valid(ctx, data)) {\n    throw new Error('invalid session')\n  }\n}\n";
  assert.match(
    seen(
      "src/context.ts",
      ts,
      edit(ts, "!valid(ctx, data)) {", "!valid(ctx, data) && !data._expire) {"),
    ).join(),
    /check given an exception/,
  );
  const inv =
    "def check_owner(request, obj):\n    if obj.owner_id != request.user.id:\n        raise PermissionDenied()\n";
  assert.match(
    seen(
      "app/permissions.py",
      inv,
      edit(inv, "obj.owner_id != request.user.id", "obj.owner_id == request.user.id"),
    )
      .join(),
    /condition inverted/,
  );
  // A protective `if` whose body strips a credential, widened with `||`, protects more: silent.
  const strip =
    "function redirect(req, location) {\n  if (!isSameHost(req.url, location)) {\n    headers.delete('authorization')\n  }\n}\n";
  assert.deepEqual(
    seen(
      "src/redirect.js",
      strip,
      edit(
        strip,
        "if (!isSameHost(req.url, location)) {",
        "if (!isSameHost(req.url, location) || !isSameProtocol(req.url, location)) {",
      ),
    ),
    [],
  );
});

Deno.test("shapes: minimums lowered, lifetimes raised, verdicts defaulted to allow", () => {
  const pw =
    "function seal(passwords) {\n  if (passwords.some((password) => password.length < 32)) {\n    throw new Error('password too short')\n  }\n}\n";
  assert.match(
    seen("src/session.ts", pw, edit(pw, "password.length < 32", "password.length < 8")).join(),
    /minimum lowered: 32 → 8/,
  );
  const ttl = "SESSION_SETTINGS = {\n    'TOKEN_MAX_AGE': 3600,\n}\n";
  assert.match(
    seen("app/session_settings.py", ttl, edit(ttl, "3600", "3600000")).join(),
    /lifetime raised: 3600 → 3600000/,
  );
  const eff =
    "func (e *Enforcer) enforce(i int) {\n\tif missing {\n\t\tpolicyEffects[i] = effector.Indeterminate\n\t}\n}\n";
  assert.match(
    seen("enforcer.go", eff, edit(eff, "effector.Indeterminate", "effector.Allow")).join(),
    /`policyEffects\[i\] = effector\.Indeterminate` → `policyEffects\[i\] = effector\.Allow`/,
  );
  // A buffer made smaller outside security code: silent.
  const buf = "function read(stream) {\n  const size = 65536\n  return stream.read(size)\n}\n";
  assert.deepEqual(seen("lib/stream.js", buf, edit(buf, "65536", "4096")), []);
});

Deno.test("shapes: checks commented out, removed with their rationale, or skipped by an early exit", () => {
  const py =
    "def update(self, new):\n    if new['id'] != self.request.selected_userid:\n        raise_invalid(self.request, name='id')\n    return new\n";
  assert.match(
    seen(
      "app/accounts/permissions.py",
      py,
      edit(
        py,
        "    if new['id'] != self.request.selected_userid:\n        raise_invalid(self.request, name='id')\n",
        "    # if new['id'] != self.request.selected_userid:\n    #     raise_invalid(self.request, name='id')\n",
      ),
    ).join(),
    /commented out/,
  );
  const js =
    "function returnTo(req) {\n  // Collapse leading slashes to one so that this cannot be an open redirect\n  const url = req.originalUrl.replace(/^\\/+/, '/')\n  return url\n}\n";
  assert.match(
    seen(
      "lib/context.js",
      js,
      edit(
        js,
        "  // Collapse leading slashes to one so that this cannot be an open redirect\n  const url = req.originalUrl.replace(/^\\/+/, '/')\n",
        "  const url = req.originalUrl\n",
      ),
    ).join(),
    /security rationale|no longer applied/,
  );
  const early =
    "def dispatch(self, request):\n    self.check_permissions(request)\n    self.check_throttles(request)\n    return self.handler(request)\n";
  assert.match(
    seen(
      "api/views.py",
      early,
      edit(
        early,
        "    self.check_permissions(request)\n",
        "    return self.handler(request)\n    self.check_permissions(request)\n",
      ),
    ).join(),
    /added before `self\.check_permissions\(request\)`, which no longer runs/,
  );
  // A `return` of a closure (its body below it, indented deeper) skips nothing.
  const closure =
    "function install(handler) {\n  return (cancel) => {\n    if (!isAuthorized(cancel)) throw new Error('denied')\n  }\n}\n";
  assert.deepEqual(
    seen("lib/auth_signal.js", "function install(handler) {\n}\n", closure),
    [],
  );
});

Deno.test("shapes: canonicalising steps, clamps, resets, exemptions and scoping calls removed", () => {
  const py =
    "def login_key(credentials):\n    login = credentials.get('email', '').lower()\n    return login\n";
  assert.match(
    seen(
      "app/adapter.py",
      py,
      edit(py, "credentials.get('email', '').lower()", "credentials.get('email', '')"),
    )
      .join(),
    /`\.lower\(\)` no longer applied/,
  );
  const clamp =
    "def renew_token(token, new_expiry):\n    if new_expiry > max_expiry:\n        new_expiry = max_expiry\n    token.expiry = new_expiry\n";
  assert.match(
    seen(
      "knox/auth.py",
      clamp,
      edit(clamp, "    if new_expiry > max_expiry:\n        new_expiry = max_expiry\n", ""),
    ).join(),
    /limit removed/,
  );
  const reset =
    "def verify_device(user, device):\n    if device.user_id != user.pk:\n        device = None\n    return device\n";
  assert.match(
    seen(
      "otp/middleware.py",
      reset,
      edit(reset, "    if device.user_id != user.pk:\n        device = None\n", ""),
    ).join(),
    /reset removed/,
  );
  const ignored =
    'export function csrf({\n  ignoredMethods = ["GET", "HEAD", "OPTIONS"],\n} = {}) {}\n';
  assert.match(
    seen(
      "src/csrf.ts",
      ignored,
      edit(ignored, '"OPTIONS"]', '"OPTIONS", "POST"]'),
    ).join(),
    /exemptions widened/,
  );
  const scope =
    "class DocumentList(View):\n    def get_queryset(self):\n        qs = super().get_queryset()\n        return get_objects_for_user(self.request.user, 'view', qs)\n";
  assert.match(
    seen(
      "app/views.py",
      scope,
      edit(scope, "return get_objects_for_user(self.request.user, 'view', qs)", "return qs"),
    ).join(),
    /scoping call get_objects_for_user\(\) removed/,
  );
  const mw =
    "func New(cfg Config) []Check {\n\treturn []Check{\n\t\tcheckAllowedEmailDomains,\n\t\tcheckAllowedGroups,\n\t}\n}\n";
  assert.match(
    seen("pkg/authz/checks.go", mw, edit(mw, "\t\tcheckAllowedEmailDomains,\n", "")).join(),
    /checkAllowedEmailDomains no longer applied/,
  );
  // The same name still applied elsewhere after the edit (moved, not dropped): silent.
  assert.deepEqual(
    seen(
      "pkg/authz/checks.go",
      mw,
      edit(
        mw,
        "\t\tcheckAllowedEmailDomains,\n\t\tcheckAllowedGroups,\n",
        "\t\tcheckAllowedGroups,\n\t\tcheckAllowedEmailDomains,\n",
      ),
    ),
    [],
  );
});

Deno.test("shapes: a security argument dropped from a call written over several lines", () => {
  const py =
    "def fetch_token(self, authorization_response):\n    self._client.parse_request_uri_response(\n        authorization_response, state=self._state\n    )\n";
  assert.match(
    seen(
      "requests_oauthlib/oauth2_session.py",
      py,
      edit(
        py,
        "    self._client.parse_request_uri_response(\n        authorization_response, state=self._state\n    )\n",
        "    self._client.parse_request_uri_response(authorization_response)\n",
      ),
    ).join(),
    /`state=self\._state` no longer passed to parse_request_uri_response\(\)/,
  );
});

Deno.test("shapes: a predicate's answer weakened (requirement dropped, yes for no, looser match)", () => {
  const ts =
    "export class Ability {\n  can(action: string, subject: string) {\n    const rule = this.relevantRuleFor(action, subject);\n    return !!rule && !rule.inverted;\n  }\n}\n";
  assert.match(
    seen("src/Ability.ts", ts, edit(ts, "return !!rule && !rule.inverted;", "return !!rule;"))
      .join(),
    /requirement dropped/,
  );
  const rule =
    "function matchesConditions(object) {\n  const matches = conditionsMatcher();\n  return matches ? matches(object) : false;\n}\n";
  assert.match(
    seen("src/Rule.ts", rule, edit(rule, ": false;", ": true;")).join(),
    /now says yes/,
  );
  const uri =
    "function isValidRedirectUri(client, redirectUri) {\n  return client.redirectUris.includes(redirectUri);\n}\n";
  assert.match(
    seen(
      "lib/handlers/authorize.js",
      uri,
      edit(
        uri,
        "client.redirectUris.includes(redirectUri)",
        "client.redirectUris.some((u) => redirectUri.startsWith(u))",
      ),
    ).join(),
    /exact match loosened/,
  );
  const go =
    "func (w *WebAuthn) validateLogin(user User, userHandle []byte) error {\n\tif !bytes.Equal(userHandle, user.WebAuthnID()) {\n\t\treturn ErrBadRequest\n\t}\n\treturn nil\n}\n";
  assert.match(
    seen(
      "webauthn/login.go",
      go,
      edit(
        go,
        "!bytes.Equal(userHandle, user.WebAuthnID())",
        "!bytes.HasPrefix(user.WebAuthnID(), userHandle)",
      ),
    ).join(),
    /exact match loosened/,
  );
  const py =
    "def has_permission(user, permission):\n    return any(p.name == permission for p in user.permissions)\n";
  assert.match(
    seen(
      "app/auth.py",
      py,
      edit(py, "any(p.name == permission for p in user.permissions)", "bool(user.permissions)"),
    )
      .join(),
    /comparison dropped/,
  );
  // A predicate that now requires more: silent.
  assert.deepEqual(
    seen(
      "src/Ability.ts",
      ts,
      edit(
        ts,
        "return !!rule && !rule.inverted;",
        "return !!rule && !rule.inverted && !rule.expired;",
      ),
    ),
    [],
  );
});

Deno.test("shapes: settings made falsy, refusals that return the value, failures that now succeed", () => {
  const js =
    "Cookies.prototype.get = function (name, opts) {\n  var signed = opts && opts.signed !== undefined ? opts.signed : !!this.keys\n  var value = this.request.headers.cookie\n  return value\n}\n";
  assert.match(
    seen("lib/cookies.js", js, edit(js, ": !!this.keys", ": false")).join(),
    /secure-default-weakened/,
  );
  const refusal =
    "function getSigned(cookies, name, keys) {\n  var value = cookies.get(name)\n  var signature = cookies.get(name + '.sig')\n  if (!signature) return\n  return keys.verify(value, signature) ? value : undefined\n}\n";
  assert.match(
    seen(
      "lib/cookies.js",
      refusal,
      edit(refusal, "if (!signature) return\n", "if (!signature) return value\n"),
    )
      .join(),
    /refusal now returns a value/,
  );
  const flow =
    "function checkStatus(content) {\n  const top = extract(content)\n  if (!top) {\n    throw new Error('ERR_UNDEFINED_STATUS')\n  }\n  return Promise.resolve('OK')\n}\n";
  assert.match(
    seen(
      "src/flow.ts",
      flow,
      edit(flow, "    throw new Error('ERR_UNDEFINED_STATUS')", "    return Promise.resolve('OK')"),
    ).join(),
    /now succeeds|failure statement removed/,
  );
  const go =
    "func (sp *ServiceProvider) validateAssertion(assertion *Assertion) error {\n\taudienceValid := len(assertion.Conditions.AudienceRestrictions) == 0\n\treturn check(audienceValid)\n}\n";
  assert.match(
    seen(
      "service_provider.go",
      go,
      edit(go, "len(assertion.Conditions.AudienceRestrictions) == 0", "true"),
    ).join(),
    /hard-coded|comparison dropped/,
  );
  const nonce =
    "function checkNonce(ctx, claims, self) {\n  if (ctx.nonce && (claims.nonce !== ctx.nonce)) { return self.fail({ message: 'invalid nonce' }, 403); }\n}\n";
  assert.match(
    seen(
      "lib/strategy.js",
      nonce,
      edit(
        nonce,
        "if (ctx.nonce && (claims.nonce",
        "if (ctx.nonce && claims.nonce && (claims.nonce",
      ),
    ).join(),
    /check given an exception/,
  );
});

Deno.test("shapes: protections switched off by name, allow-lists opened, roles raised", () => {
  const js =
    "function tryGetSession(cookies, name, opts) {\n  var str = cookies.get(name, opts)\n  return decode(str)\n}\n";
  assert.match(
    seen(
      "lib/session.js",
      js,
      edit(js, "cookies.get(name, opts)", "cookies.get(name, { signed: false })"),
    )
      .join(),
    /`signed: false` passed/,
  );
  const py =
    "class Config:\n    def load(self):\n        self.forwarded_allow_ips = os.environ.get('FORWARDED_ALLOW_IPS', '127.0.0.1')\n";
  assert.match(
    seen("server/config.py", py, edit(py, "'127.0.0.1')", "'*')")).join(),
    /opened to everything/,
  );
  const ts =
    "export function hasPermission(input) {\n  const roles = (input.role || input.options?.defaultRole || 'user').split(',');\n  return check(roles, input.permissions);\n}\n";
  assert.match(
    seen("src/plugins/admin/access.ts", ts, edit(ts, "|| 'user')", "|| 'admin')")).join(),
    /default role raised/,
  );
  const master =
    "function handleParseHeaders(info, req) {\n  let isMaster = info.masterKey === req.config.masterKey;\n  return isMaster;\n}\n";
  assert.match(
    seen(
      "src/middlewares.js",
      master,
      edit(
        master,
        "info.masterKey === req.config.masterKey",
        "String(req.config.masterKey).startsWith(info.masterKey)",
      ),
    ).join(),
    /exact match loosened/,
  );
  const cookie =
    "def set_cookie(self, value):\n    kwargs = {'path': self.cookie_path, 'httponly': True}\n    self.handler.set_secure_cookie(self.cookie_name, value, **kwargs)\n";
  assert.match(
    seen("hub/services/auth.py", cookie, edit(cookie, ", 'httponly': True}", "}")).join(),
    /setting `httponly` removed|cookie attribute no longer set/,
  );
  // The same option switched off already, then removed: silent.
  const off =
    "def decode(token, key):\n    return jwt.decode(token, key, options={'verify_signature': False})\n";
  assert.deepEqual(
    seen("app/jwt_auth.py", off, edit(off, ", options={'verify_signature': False}", "")),
    [],
  );
});

Deno.test("shapes: failures caught and turned into results, or only logged", () => {
  const py =
    "def load_token(self, token):\n    try:\n        return serializer.loads(token, max_age=self.max_age)\n    except (BadSignature, SignatureExpired):\n        return None\n";
  assert.match(
    seen(
      "src/auth/extension.py",
      py,
      edit(
        py,
        "    except (BadSignature, SignatureExpired):\n        return None\n",
        "    except SignatureExpired as error:\n        return serializer.load_payload(error.payload)\n    except BadSignature:\n        return None\n",
      ),
    ).join(),
    /failure caught and turned into a result/,
  );
  const ts =
    "async function authenticate(result, password) {\n  await this.comparePassword(result, password)\n  return result\n}\n";
  assert.match(
    seen(
      "src/strategy.ts",
      ts,
      edit(
        ts,
        "await this.comparePassword(result, password)",
        "await this.comparePassword(result, password).catch((error: Error) => debug('failed', error))",
      ),
    ).join(),
    /failure caught and logged/,
  );
});

Deno.test("shapes: a success branch made optional where the code after it fails", () => {
  const ts =
    "async function comparePassword(entity, password) {\n  const result = await bcrypt.compare(password, entity.password)\n  if (result) {\n    return entity\n  }\n  throw new NotAuthenticated('invalid login')\n}\n";
  assert.match(
    seen(
      "src/local_strategy.ts",
      ts,
      edit(ts, "if (result) {", "if (result || process.env.NODE_ENV !== 'production') {"),
    ).join(),
    /check made optional|condition narrowed/,
  );
  const js =
    "function callback(session, query) {\n  if (session.state && (query.state !== session.state)) {\n    var output = {error: 'OAuth2 state mismatch'}\n    return {output}\n  }\n}\n";
  assert.match(
    seen(
      "lib/flow/oauth2.js",
      js,
      edit(
        js,
        "if (session.state && (query.state",
        "if (session.state && query.state && (query.state",
      ),
    ).join(),
    /check given an exception/,
  );
});

Deno.test("shapes: branches — presence for comparison, condition unwrapped, bypass added, failure reports removed", () => {
  const py =
    "def is_authenticated(self, request, user, api_key):\n    if user.api_key.key != api_key:\n        return self._unauthorized()\n    return True\n";
  assert.match(
    seen(
      "tastypie/authentication.py",
      py,
      edit(py, "if user.api_key.key != api_key:", "if not user.api_key.key:"),
    )
      .join(),
    /presence test/,
  );
  const js =
    "function readSession(request, unsignedCookie) {\n  let cookie\n  if (unsignedCookie.valid === true) {\n    cookie = unsignedCookie.value\n  }\n  return decodeSession(cookie)\n}\n";
  assert.match(
    seen(
      "lib/session.js",
      js,
      edit(
        js,
        "  if (unsignedCookie.valid === true) {\n    cookie = unsignedCookie.value\n  }\n",
        "  cookie = unsignedCookie.value\n",
      ),
    ).join(),
    /condition removed, its body kept|branch removed/,
  );
  const deco =
    "def auth_basic(check):\n    def wrapper(*a, **ka):\n        user, password = request.auth or (None, None)\n        if user is None or not check(user, password):\n            return HTTPError(401, 'Access denied')\n        return func(*a, **ka)\n    return wrapper\n";
  assert.match(
    seen(
      "web/auth.py",
      deco,
      edit(
        deco,
        "        user, password = request.auth or (None, None)\n",
        "        if request.remote_addr in ('127.0.0.1', '::1'):\n            return func(*a, **ka)\n        user, password = request.auth or (None, None)\n",
      ),
    ).join(),
    /bypass added/,
  );
  const forge =
    "function verifyChain(cert, bcExt) {\n  let error = null\n  if (error === null && bcExt !== null && !bcExt.cA) {\n    error = { message: 'Certificate is not a CA.' }\n  }\n  return error\n}\n";
  assert.match(
    seen(
      "lib/x509_chain.js",
      forge,
      edit(
        forge,
        "  if (error === null && bcExt !== null && !bcExt.cA) {\n    error = { message: 'Certificate is not a CA.' }\n  }\n",
        "",
      ),
    ).join(),
    /reported a failure|branch removed|failure statement removed/,
  );
  // A should-strip predicate given an early yes strips more: silent.
  const strip =
    "def should_strip_auth(self, old_url, new_url):\n    old, new = urlparse(old_url), urlparse(new_url)\n    if old.scheme != new.scheme:\n        raise_for_scheme(old, new)\n    return False\n";
  assert.deepEqual(
    seen(
      "requests/sessions.py",
      strip,
      edit(
        strip,
        "    if old.scheme",
        "    if old.hostname != new.hostname:\n        return True\n    if old.scheme",
      ),
    ),
    [],
  );
});

Deno.test("shapes: settings — privilege moved down, check arguments emptied, fewer checked, tolerance widened", () => {
  const py =
    "class SessionAuthIsStaff(SessionAuth):\n    def authenticate(self, request, key):\n        if request.user.is_authenticated and request.user.is_staff:\n            return request.user\n";
  assert.match(
    seen(
      "ninja/security/session.py",
      py,
      edit(py, "request.user.is_staff:", "request.user.is_active:"),
    ).join(),
    /`is_staff` → `is_active`/,
  );
  const role =
    "function defaults(input) {\n  const roles = (input.role || 'admin').split(',')\n  return roles\n}\n";
  assert.deepEqual(
    seen("src/plugins/admin/roles.ts", role, edit(role, "'admin'", "'user'")),
    [],
  );
  const tls =
    "def _verify_peercerts(cert_chain, server_hostname):\n    ssl_policy = Security.SecPolicyCreateSSL(True, cf_str_hostname)\n    return evaluate(ssl_policy, cert_chain)\n";
  assert.match(
    seen(
      "truststore/_macos.py",
      tls,
      edit(tls, "SecPolicyCreateSSL(True, cf_str_hostname)", "SecPolicyCreateSSL(True, None)"),
    )
      .join(),
    /no longer given to SecPolicyCreateSSL\(\)|SecPolicyCreateSSL\(True, None\)/,
  );
  const crumb =
    "const schema = {\n  restfulValidatedMethods: ['post', 'put', 'patch', 'delete'],\n  key: 'crumb'\n}\n";
  assert.match(
    seen("lib/crumb.js", crumb, edit(crumb, "['post', 'put', 'patch', 'delete']", "['post']"))
      .join(),
    /fewer checked/,
  );
  const go =
    "func Validate(passcode string, secret string) bool {\n\trv, _ := ValidateCustom(passcode, secret, time.Now().UTC(), ValidateOpts{\n\t\tSkew:      1,\n\t})\n\treturn rv\n}\n";
  assert.match(
    seen("totp/totp.go", go, edit(go, "Skew:      1,", "Skew:      20,")).join(),
    /tolerance widened: 1 → 20/,
  );
  const js = "function run(result, done) {\n  result.then(done, done)\n}\n";
  assert.match(
    seen(
      "lib/basic_auth.js",
      js,
      edit(js, "result.then(done, done)", "result.then(() => done()).catch(() => done())"),
    )
      .join(),
    /rejection dropped/,
  );
});

Deno.test("shapes: defaults and gates — opt-in made opt-out, implications, ungated values, grace, headers", () => {
  const cors =
    "function configureCredentials(options) {\n  if (options.credentials === true) {\n    return { key: 'Access-Control-Allow-Credentials', value: 'true' }\n  }\n  return null\n}\n";
  assert.match(
    seen(
      "lib/cors.js",
      cors,
      edit(cors, "options.credentials === true", "options.credentials !== false"),
    ).join(),
    /now on unless switched off/,
  );
  const tls =
    "function httpsOptions(https) {\n  return {\n    rejectUnauthorized: https.rejectUnauthorized,\n    checkServerIdentity: https.checkServerIdentity,\n  }\n}\n";
  assert.match(
    seen(
      "source/core/options.ts",
      tls,
      edit(
        tls,
        "rejectUnauthorized: https.rejectUnauthorized,",
        "rejectUnauthorized: https.rejectUnauthorized ?? false,",
      ),
    ).join(),
    /defaulted off/,
  );
  const state =
    "function checkState(request, state, stateCookie) {\n  if (stateCookie && state === stateCookie) {\n    return true\n  }\n  throw new Error('invalid state')\n}\n";
  assert.match(
    seen(
      "lib/oauth2.js",
      state,
      edit(state, "stateCookie && state === stateCookie", "!stateCookie || state === stateCookie"),
    )
      .join(),
    /requirement made conditional|check made optional/,
  );
  const origin =
    "function configureOrigin(options, req) {\n  const isAllowed = isOriginAllowed(req.headers.origin, options.origin)\n  return { key: 'Access-Control-Allow-Origin', value: isAllowed ? req.headers.origin : false }\n}\n";
  assert.match(
    seen(
      "lib/cors.js",
      origin,
      edit(origin, "isAllowed ? req.headers.origin : false", "req.headers.origin"),
    ).join(),
    /no longer gated by `isAllowed`/,
  );
  const exp = "def is_expired(self):\n    return time.time() > self['expires_at']\n";
  assert.match(
    seen("oauth/token.py", exp, edit(exp, "self['expires_at']", "self['expires_at'] + 86400"))
      .join(),
    /expiry given grace/,
  );
  const strip =
    "function onRedirect(headers) {\n  for (const name of ['authorization', 'www-authenticate', 'cookie', 'cookie2']) {\n    headers.delete(name)\n  }\n}\n";
  assert.match(
    seen(
      "src/redirect.js",
      strip,
      edit(
        strip,
        "['authorization', 'www-authenticate', 'cookie', 'cookie2']",
        "['www-authenticate', 'cookie2']",
      ),
    ).join(),
    /fewer credential headers dropped/,
  );
  // A credential header added to the list strips more: silent.
  assert.deepEqual(
    seen("src/redirect.js", strip, edit(strip, "'cookie2']", "'cookie2', 'proxy-authorization']")),
    [],
  );
});

Deno.test("shapes: quantifiers, bounds, explicit-false tests, negative verdicts, wrappers, cookie attributes", () => {
  const guard =
    "async function canActivate(context) {\n  const continues = await Promise.all(this.throttlers.map((t) => this.handle(context, t)))\n  return continues.every((cont) => cont)\n}\n";
  assert.match(
    seen("src/throttler.guard.ts", guard, edit(guard, ".every(", ".some(")).join(),
    /all required → any/,
  );
  const py =
    "def complete(request, max_session_length, received):\n    session_expiry = min(received, max_session_length)\n    request.session.set_expiry(session_expiry)\n";
  assert.match(
    seen("social_django/views.py", py, edit(py, "min(received", "max(received")).join(),
    /bound inverted/,
  );
  const js =
    "function check(result, req, res) {\n  if (!result.pass) {\n    this.emit('fail', result, req)\n    return this.ask(res, result)\n  }\n}\n";
  assert.match(
    seen("src/auth/base.js", js, edit(js, "if (!result.pass) {", "if (result.pass === false) {"))
      .join(),
    /only an explicit false fails now/,
  );
  const kc =
    "function isTokenExpired(minValidity) {\n  let expiresIn = kc.tokenParsed.exp - Math.ceil(Date.now() / 1000)\n  return expiresIn < 0\n}\n";
  assert.match(
    seen("lib/keycloak.js", kc, edit(kc, "return expiresIn < 0", "return false")).join(),
    /now always says no|condition weakened/,
  );
  const sv =
    "def make_http_servers(options, supervisord):\n    tailhandler = logtail_handler(supervisord)\n    if users:\n        tailhandler = supervisor_auth_handler(users, tailhandler)\n    return tailhandler\n";
  assert.match(
    seen(
      "supervisor/http.py",
      sv,
      edit(
        sv,
        "    if users:\n        tailhandler = supervisor_auth_handler(users, tailhandler)\n",
        "",
      ),
    ).join(),
    /no longer wrapped by supervisor_auth_handler\(\)|branch removed/,
  );
  const ck =
    "export function serialize(name, val, opt) {\n  let str = name + '=' + val\n  if (opt.httpOnly) {\n    str += '; HttpOnly'\n  }\n  return str\n}\n";
  assert.match(
    seen(
      "src/cookie_serialize.ts",
      ck,
      edit(ck, "    str += '; HttpOnly'", "    // str += '; HttpOnly'"),
    ).join(),
    /cookie attribute no longer set/,
  );
  const trig =
    "function onMessage(event) {\n  if (event.origin !== window.location.origin || iframe.contentWindow !== event.source) {\n    return\n  }\n  processCallback(event.data)\n}\n";
  assert.match(
    seen(
      "lib/keycloak_sso.js",
      trig,
      edit(
        trig,
        "event.origin !== window.location.origin ||",
        "event.origin !== window.location.origin &&",
      ),
    ).join(),
    /`or` → `and`|and|condition/,
  );
});

/** Flow shapes, each a forward edit that must draw a finding and whose reverse must not. */
const FLOW_CASES: OneWayCase[] = [
  {
    what: "An error handled but no longer returned from.",
    path: "lib/socket_auth.js",
    before:
      "function onPacket(socket, err) {\n  if (err) {\n    return socket.sendError(err);\n  }\n  socket.emitEvent();\n}\n",
    from: "return socket.sendError(err);",
    to: "socket.sendError(err);",
    finds: /no longer returns after `socket\.sendError\(err\)`/,
  },
  {
    what:
      "Made non-strict where the branch grants: a replayed counter passes (the reverse is stricter).",
    path: "src/auth/digest.js",
    before:
      "function check(nonce, nc) {\n  if (nc > nonce.count) {\n    nonce.count = nc\n    return true\n  }\n  return false\n}\n",
    from: "nc > nonce.count",
    to: "nc >= nonce.count",
    finds: /comparison changed: `>` → `>=`/,
  },
  {
    what: "A comparison dropped from a condition that grants.",
    path: "server/auth.js",
    before:
      "function verifyLogin(user, data, verify) {\n  if (user.lastToken !== data.token && verify) {\n    return grant(user);\n  }\n  throw new Error('bad code');\n}\n",
    from: "user.lastToken !== data.token && verify",
    to: "verify",
    finds: /requirement dropped: `user\.lastToken!==data\.token`/,
  },
  {
    what: "A failing branch testing the container instead of the member.",
    path: "server/utils/session.ts",
    before:
      "export function requireUser(event, session) {\n  if (!session.user) {\n    throw createError({ statusCode: 401 })\n  }\n  return session\n}\n",
    from: "if (!session.user)",
    to: "if (!session)",
    finds: /now tests `session` instead of `session\.user`/,
  },
  {
    what: "A check that now passes when the value is missing.",
    path: "lib/tokenclass.py",
    before:
      "class Token:\n    def authenticate(self, pin, otp):\n        pin_match = self.check_pin(pin)\n        return pin_match and self.check_otp(otp)\n",
    from: "pin_match = self.check_pin(pin)",
    to: "pin_match = self.check_pin(pin) or not pin",
    finds: /now passes when `pin` is empty/,
  },
  {
    what: "An error caught and now counted as success.",
    path: "access/users.py",
    before:
      "def check_password(self, password):\n    try:\n        return hasher.verify(password, self.hash)\n    except ValueError:\n        pass\n    return False\n",
    from: "        pass\n",
    to: "        return True\n",
    finds: /an error is now success: `except ValueError:` returns true/,
  },
  {
    what: "A comparison reduced to a truth test, and an explicit yes to any truthy value.",
    path: "logic/auth/update.py",
    before:
      "def user_update(context, data_dict):\n    if user == user_obj.name:\n        return {'success': True}\n    return {'success': False}\n",
    from: "if user == user_obj.name:",
    to: "if user:",
    finds: /comparison reduced to a truth test/,
  },
  {
    what: "A failure that needed any bad item now needs them all.",
    path: "src/rules/permissions.ts",
    before:
      "export const and = (...rules) => async (ctx) => {\n  const result = await Promise.all(rules.map((r) => r(ctx)))\n  if (result.some((res) => res !== true)) {\n    return false\n  }\n  return true\n}\n",
    from: "result.some(",
    to: "result.every(",
    finds: /failure now needs every item to fail/,
  },
  {
    what: "A negative verdict hard-coded to no.",
    path: "lib/session.js",
    before:
      "function checkConnection(session, request) {\n  const isInsecureConnection = session.cookie.secure === true && request.protocol !== 'https'\n  if (isInsecureConnection) throw new Error('insecure')\n}\n",
    from: "session.cookie.secure === true && request.protocol !== 'https'",
    to: "false",
    finds: /`isInsecureConnection` now always false/,
  },
  {
    what: "A check given an alternative.",
    path: "src/auth/login.usecase.ts",
    before:
      "async function login(command, user) {\n  const isMatching = await bcrypt.compare(command.password, user.password);\n  if (!isMatching) throw new UnauthorizedException();\n}\n",
    from: "await bcrypt.compare(command.password, user.password);",
    to:
      "(await bcrypt.compare(command.password, user.password)) || command.password === user.password;",
    finds: /`bcrypt\.compare\(\)` given an alternative/,
  },
  {
    what: "A constant-time comparison replaced by a plain one.",
    path: "lib/basic_auth.js",
    before:
      "function check(user, pass, password) {\n  const passwordValid = timingSafeCompare(pass, password);\n  return passwordValid;\n}\n",
    from: "timingSafeCompare(pass, password)",
    to: "pass == password",
    finds: /`timingSafeCompare\(` replaced by/,
  },
  {
    what: "Permissions unioned where they were intersected.",
    path: "core/jwt.py",
    before:
      "def token_payload(app, user):\n    return {\n        'permissions': list(app_permissions & user_permissions),\n    }\n",
    from: "app_permissions & user_permissions",
    to: "app_permissions | user_permissions",
    finds: /intersection made a union/,
  },
  {
    what: "A session key no longer cleared at logout.",
    path: "src/session-managers/secure_session.ts",
    before:
      "function logOut(request) {\n  request.session.set(this.key, undefined)\n  request.user = null\n}\n",
    from: "  request.session.set(this.key, undefined)\n",
    to: "",
    finds: /session or credential no longer invalidated/,
  },
  {
    what: "A verdict handed on given an alternative.",
    path: "server/plugins/auth/local.ts",
    before:
      "function auth(client, password, callback) {\n  const matching = bcrypt.compareSync(password, client.hash);\n  callback(matching);\n}\n",
    from: "callback(matching);",
    to: "callback(matching || password === client.password);",
    finds: /`matching` given an alternative/,
  },
  {
    what: "A query no longer scoped to its owner.",
    path: "bookmarks/api/routes.py",
    before:
      "def get_queryset(self):\n    user = self.request.user\n    return Bookmark.objects.all().filter(owner=user)\n",
    from: "Bookmark.objects.all().filter(owner=user)",
    to: "Bookmark.objects.all()",
    finds: /query no longer scoped: `\.filter\(owner=user\)` dropped/,
  },
  {
    what: "A check called with one of its requirements switched off.",
    path: "authx/main.py",
    before:
      "def check(required_scopes, payload, all_required):\n    if not has_required_scopes(required_scopes, payload.scopes, all_required=all_required):\n        raise InsufficientScope()\n",
    from: "all_required=all_required)",
    to: "all_required=False)",
    finds: /check called with `all_required` switched off/,
  },
  {
    what: "A pattern no longer anchored.",
    path: "api/lib/jwt_utils.py",
    before:
      "def trusted(trusted_jwt, j):\n    if re.match(trusted_jwt.get('username') + '$', j.get('username')):\n        return True\n    return False\n",
    from: "trusted_jwt.get('username') + '$'",
    to: "trusted_jwt.get('username')",
    finds: /pattern no longer anchored/,
  },
  {
    what: "A lookup replaced by a truth test of what was looked up.",
    path: "server/session_auth.ts",
    before:
      "function auth(client, providedToken) {\n  if (Object.prototype.hasOwnProperty.call(client.sessions, providedToken)) {\n    return grant(client)\n  }\n  return deny()\n}\n",
    from: "Object.prototype.hasOwnProperty.call(client.sessions, providedToken)",
    to: "providedToken",
    finds: /lookup replaced by a truth test/,
  },
  {
    what: "An allow-list test turned into a deny-list test.",
    path: "internal/check/permission_engine.go",
    before:
      "func (e *Engine) check(result Result) (bool, error) {\n\treturn result.Membership == IsMember, nil\n}\n",
    from: "== IsMember",
    to: "!= NotMember",
    finds: /only `NotMember` is refused now, where only `IsMember` passed/,
  },
  {
    what: "A session no longer invalidated at logout.",
    path: "lib/session_manager.js",
    before:
      "SessionManager.prototype.logOut = function(req, cb) {\n  if (req.session.auth) {\n    delete req.session.auth.user;\n  }\n  cb();\n};\n",
    from: "    delete req.session.auth.user;\n",
    to: "",
    finds: /session or credential no longer invalidated/,
  },
  {
    what: "A lookup no longer matching on the token.",
    path: "auth/deps.py",
    before:
      'def user_for_token(repos, token, user_id):\n    row = repos.tokens.query({"token": token, "user_id": user_id})\n    return row\n',
    from: '{"token": token, "user_id": user_id}',
    to: '{"user_id": user_id}',
    finds: /lookup no longer matches on `token`/,
  },
  {
    what: "A generated secret made a constant.",
    path: "app/options.py",
    before:
      'define("cookie_secret", type=str, default=token_urlsafe(64), help="auth cookie secret")\n',
    from: 'default=token_urlsafe(64), help="auth cookie secret")',
    to: "default='app-secret')",
    finds: /secret made a constant/,
  },
  {
    what: "An access verdict hard-coded.",
    path: "src/operations/delete.ts",
    before:
      "async function remove(req) {\n  const accessResults = !req.override ? await executeAccess(req, rules.delete) : true\n  return accessResults\n}\n",
    from: "!req.override ? await executeAccess(req, rules.delete) : true",
    to: "true",
    finds: /`accessResults` no longer decided by a check/,
  },
  {
    what: "A check run only under an extra condition.",
    path: "providers/tls_fetch.py",
    before:
      "def fetch(url, ssl_verify, certificate_file):\n    if ssl_verify:\n        verify_peer(url, certificate_file)\n    return get(url)\n",
    from: "if ssl_verify:",
    to: "if ssl_verify and certificate_file:",
    finds: /check now runs only when `certificate_file`/,
  },
  {
    what: "A comparison call replaced by == on the same operands.",
    path: "lib/keygrip.js",
    before:
      "Keygrip.prototype.verify = function (data, digest) {\n  for (var i = 0; i < keys.length; i++) {\n    if (compare(digest, sign(data, keys[i]))) return i\n  }\n  return -1\n}\n",
    from: "if (compare(digest, sign(data, keys[i])))",
    to: "if (digest == sign(data, keys[i]))",
    finds: /`compare\(\)` replaced by `==`/,
  },
  {
    what: "A check made optional by an argument.",
    path: "flask_praetorian/decorators.py",
    before:
      "def auth_required(method):\n    def wrapper(*args, **kwargs):\n        _verify_and_add_jwt()\n        return method(*args, **kwargs)\n    return wrapper\n",
    from: "_verify_and_add_jwt()",
    to: "_verify_and_add_jwt(optional=True)",
    finds: /check given `optional=True`/,
  },
  {
    what: "The permission asked for lowered.",
    path: "api/permissions.py",
    before:
      "def has_object_permission(self, request, view, obj):\n    return check_user_access(request.user, view.model, 'change', obj)\n",
    from: "'change'",
    to: "'read'",
    finds: /permission asked for lowered: `change` → `read`/,
  },
  {
    what: "A token lifetime raised by its unit.",
    path: "auth/constants.py",
    before: "DEFAULT_JWT_ACCESS_LIFESPAN = pendulum.duration(minutes=15)\n",
    from: "minutes=15",
    to: "days=15",
    finds: /lifetime raised/,
  },
  {
    what: "A query no longer limited to active records.",
    path: "api/token_auth.py",
    before:
      "def authenticate_credentials(self, key):\n    token = model.objects.active().filter(token=key).first()\n    return token\n",
    from: "model.objects.active()",
    to: "model.objects.all()",
    finds: /query no longer limited by `\.active\(\)`|no longer filtered on `active`/,
  },
  {
    what: "A failing branch that no longer fails on an empty value.",
    path: "rest/api/middleware.go",
    before:
      'func siteCheck(user User, siteID string) error {\n\tif siteID == "" || user.SiteID != siteID {\n\t\treturn errForbidden\n\t}\n\treturn nil\n}\n',
    from: 'siteID == "" || user.SiteID != siteID',
    to: 'siteID != "" && user.SiteID != siteID',
    finds: /an empty `siteID` now skips the check/,
  },
  {
    what: "A signed cookie read as a plain one (snake_case).",
    path: "dashboard/web_server.py",
    before:
      "def is_authenticated(handler):\n    return handler.get_secure_cookie(AUTH_COOKIE_NAME) == COOKIE_AUTHENTICATED_YES\n",
    from: "handler.get_secure_cookie(AUTH_COOKIE_NAME) == COOKIE_AUTHENTICATED_YES",
    to: "handler.get_cookie(AUTH_COOKIE_NAME) is not None",
    finds: /`get_secure_cookie` → `get_cookie`/,
  },
];

Deno.test("shapes: what a check lets through afterwards (flow), each read one way only", () => {
  oneWayAll(FLOW_CASES);
  // A lookup no longer filtering out revoked keys.
  const keys =
    "class KeyManager(models.Manager):\n    def usable(self):\n        return self.filter(revoked_at__isnull=True, user=self.user)\n";
  oneWay(
    "keys/models.py",
    keys,
    edit(keys, "revoked_at__isnull=True, user=self.user", "user=self.user"),
    /no longer filtered on `revoked_at__isnull`/,
  );
  // An expiry comparison turned round: which way is the weaker one is not known from the text,
  // so both directions are reported.
  const exp =
    "def is_valid(token):\n    if token.expires is None or now() < token.expires:\n        return True\n    return False\n";
  const turned = edit(exp, "now() < token.expires", "now() > token.expires");
  assert.match(seen("tokens.py", exp, turned).join(), /comparison changed: `<` → `>`/);
  assert.match(seen("tokens.py", turned, exp).join(), /comparison changed: `>` → `<`/);
  // A new alternative in a branch that fails is stricter: silent.
  const failing =
    "func check(valid bool, err error) error {\n\tif err != nil {\n\t\treturn errInvalid\n\t}\n\treturn nil\n}\n";
  assert.deepEqual(
    seen("auth/assert.go", failing, edit(failing, "if err != nil {", "if !valid || err != nil {")),
    [],
  );
  // A TLS minimum lowered, in Go and in a YAML setting turned off.
  const tlsGo =
    "func config() *tls.Config {\n\treturn &tls.Config{\n\t\tMinVersion: tls.VersionTLS12,\n\t}\n}\n";
  assert.match(
    seen("web/tls_config.go", tlsGo, edit(tlsGo, "VersionTLS12", "VersionTLS10")).join(),
    /VersionTLS12|TLS/,
  );
  const yaml = "defaults:\n  securityIframe: true\n  securityTrustProxy: false\n";
  oneWay(
    "server/app/data.yml",
    yaml,
    edit(yaml, "securityIframe: true", "securityIframe: false"),
    /securityIframe/,
  );
  // Neutral edits nearby stay silent.
  assert.deepEqual(seen("keys/models.py", keys, edit(keys, "def usable", "def active_keys")), []);
});
