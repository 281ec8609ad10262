import assert from "node:assert/strict";
import { edit, oneWayAll, type OneWayCase, seen } from "./shape_helpers.ts";

/**
 * Term shapes (`guard_shapes_terms.ts`) and the signals made broader with them: each a forward
 * edit that must draw a finding and whose reverse, the guard put back, must not.
 */
const TERM_CASES: OneWayCase[] = [
  {
    what: "A requirement dropped from a verdict's assignment.",
    path: "helpdesk/decorators.py",
    before:
      "def check_user_status(u):\n    is_ok = u.is_authenticated and u.is_active\n    return is_ok\n",
    from: " and u.is_active",
    to: "",
    finds: /requirement dropped: `u\.is_active`/,
  },
  {
    what: "A requirement dropped inside a callback.",
    path: "server/authentication.js",
    before:
      "function checkBoardAdmin(board, userId) {\n  const adminAccess = board.members.some(e => e.userId === userId && e.isActive && e.isAdmin);\n  if (!adminAccess) throw new Error('not-authorized');\n}\n",
    from: " && e.isAdmin",
    to: "",
    finds: /requirement dropped: `e\.isAdmin`/,
  },
  {
    what: "A condition dropped from a query in a string (a one-time state reusable).",
    path: "database.go",
    before:
      'func (db *datastore) ValidateOAuthState(ctx context.Context, state string) error {\n\terr := db.QueryRowContext(ctx, "SELECT provider FROM oauth_client_states WHERE state = ? AND used = FALSE", state).Scan(&p)\n\treturn err\n}\n',
    from: " AND used = FALSE",
    to: "",
    finds: /requirement dropped: `used = FALSE`/,
  },
  {
    what: "A binding dropped from a lookup written over several lines.",
    path: "helpdesk/views/public.py",
    before:
      "def view_ticket(request, ticket_id, email, key):\n    ticket = Ticket.objects.get(\n        id=ticket_id,\n        submitter_email__iexact=email,\n        secret_key__iexact=key,\n    )\n    return render(request, ticket)\n",
    from: "        secret_key__iexact=key,\n",
    to: "",
    finds: /`secret_key__iexact = key` no longer binds get\(\)/,
  },
  {
    what: "An alternative put in front of a check.",
    path: "server/model/node.py",
    before:
      "class Node:\n    def check_key(self, key):\n        return bcrypt.checkpw(key.encode('utf8'), self.hashed)\n",
    from: "return bcrypt",
    to: "return settings.DEBUG or bcrypt",
    finds: /alternative to the check: `settings\.DEBUG`|check made optional/,
  },
  {
    what: "A privilege lowered inside a name.",
    path: "server/publications/boards.js",
    before:
      "Meteor.publish('copyBoard', function (boardId) {\n  const board = Boards.findOne(boardId);\n  if (!board.hasAdmin(this.userId)) throw new Meteor.Error('not-authorized');\n  return board.copy();\n});\n",
    from: "hasAdmin",
    to: "hasMember",
    finds: /`hasAdmin` → `hasMember`/,
  },
  {
    what: "A role predicate moved down a rank.",
    path: "users/api/permissions.py",
    before:
      "def validate_membership(user, org):\n    return org and (user.is_superuser or user.is_manager(org))\n",
    from: "is_manager",
    to: "is_member",
    finds: /`is_manager` → `is_member`/,
  },
  {
    what: "A check's result replaced by constants.",
    path: "server/resource/auth_helper.py",
    before:
      "def user_login(user, password):\n    is_blocked, remaining = user.is_blocked(MAX_FAILED, INACTIVATION)\n    if is_blocked:\n        return None, remaining\n    return user\n",
    from: "user.is_blocked(MAX_FAILED, INACTIVATION)",
    to: "False, None",
    finds: /`is_blocked` hard-coded to `False`/,
  },
  {
    what: "A symmetric algorithm let into an allow-list.",
    path: "auth_adfs/backend.py",
    before:
      "def validate_token(token, key):\n    return jwt.decode(\n        token,\n        key,\n        algorithms=['RS256', 'RS384'],\n    )\n",
    from: "'RS384'",
    to: "'RS384', 'HS256'",
    finds: /`HS256` allowed/,
  },
  {
    what: "A session lifetime multiplied, in a condition edited elsewhere too.",
    path: "admin/auth.py",
    before:
      "def is_admin_authorized(request, updated):\n    if updated < time() - (settings.ADMIN_SESSION_EXPIRATION * 60):\n        raise PermissionDenied()\n    return True\n",
    from: "if updated < time() - (settings.ADMIN_SESSION_EXPIRATION * 60):",
    to: "if updated and updated < time() - (settings.ADMIN_SESSION_EXPIRATION * 60 * 24 * 365):",
    finds: /lifetime multiplied/,
  },
  {
    what: "An unsafe method no longer under CSRF protection.",
    path: "server/utils/csrf.ts",
    before:
      "export function csrfCheck(ctx: Ctx) {\n\tif (!['POST', 'PUT'].includes(ctx.method)) return;\n\tverifyToken(ctx);\n}\n",
    from: ", 'PUT'",
    to: "",
    finds: /`PUT` no longer in/,
  },
  {
    what: "A privilege field no longer read-only.",
    path: "users/admin.py",
    before:
      "class UserAdmin(admin.ModelAdmin):\n    def get_readonly_fields(self, request, obj=None):\n        fields = ['last_login']\n        if not request.user.is_superuser:\n            fields = fields + ['user_permissions', 'is_superuser']\n        return fields\n",
    from: ", 'is_superuser'",
    to: "",
    finds: /`is_superuser` no longer in/,
  },
  {
    what: "A verifying name bound to a function that only decodes.",
    path: "src/auth/guards/ws.guard.ts",
    before:
      "import { verify } from 'jsonwebtoken'\nexport function canActivate(token: string) {\n  return verify(token, secret)\n}\n",
    from: "{ verify }",
    to: "{ decode as verify }",
    finds: /`verify` is now `decode`/,
  },
  {
    what: "A failing branch that now also needs something else.",
    path: "auth/tokens.py",
    before:
      "def authenticate(token):\n    if token.expires_at < now():\n        raise AuthenticationFailed('expired')\n    return token.user\n",
    from: "if token.expires_at",
    to: "if token.refreshed and token.expires_at",
    finds: /failure now also needs `token\.refreshed`|check given an exception/,
  },
  {
    what: "A digest comparison cut to a prefix.",
    path: "radius/packet.py",
    before:
      "def verify_message_authenticator(self, expected):\n    return expected == self.hmac.digest()\n",
    from: "return expected == self.hmac.digest()",
    to: "return expected[:4] == self.hmac.digest()[:4]",
    finds: /comparison cut short/,
  },
  {
    what: "A pattern's end anchor dropped.",
    path: "chalice/local_auth.py",
    before:
      "def authorize_arn(resource_regex, arn):\n    resource_regex = '^%s$' % resource_regex\n    return re.match(resource_regex, arn)\n",
    from: "'^%s$'",
    to: "'^%s'",
    finds: /pattern no longer anchored/,
  },
  {
    what: "A refusal handed to a promise now says yes.",
    path: "server/entity/User.ts",
    before:
      "export class User {\n  public passwordMatch(password: string): Promise<boolean> {\n    return new Promise((resolve) => {\n      if (!this.password) {\n        return resolve(false);\n      }\n      resolve(bcrypt.compareSync(password, this.password));\n    });\n  }\n}\n",
    from: "resolve(false)",
    to: "resolve(true)",
    finds: /a refusal now answers yes/,
  },
  {
    what: "An issuer list no longer passed to a token check.",
    path: "src/auth/oauth2client.ts",
    before:
      "async function login(token: string) {\n  const ticket = await verifyIdToken(\n    token,\n    this.issuers,\n    audience,\n  );\n  return ticket;\n}\n",
    from: "this.issuers,",
    to: "undefined,",
    finds: /`this\.issuers` no longer passed/,
  },
  {
    what: "A failure returned as an object spread over lines, removed.",
    path: "auth/AuthenticateUser.ts",
    before:
      "async function authenticate(token: Token) {\n  if (token.expired) {\n    return {\n      success: false,\n      failureType: 'EXPIRED_TOKEN',\n    }\n  }\n  return { success: true }\n}\n",
    from:
      "  if (token.expired) {\n    return {\n      success: false,\n      failureType: 'EXPIRED_TOKEN',\n    }\n  }\n",
    to: "",
    finds: /failure statement removed: `return \{ success: false/,
  },
  {
    what: "A branch removed whose exit comes after a log call spread over lines.",
    path: "server/resource/token.py",
    before:
      "def post(self, task_id):\n    if g.node.collaboration_id != task.collaboration_id:\n        log.warning(\n            f'Node {g.node.id} attempts to generate key for task {task_id}'\n            ' which is outside its collaboration'\n        )\n        return {'msg': 'not within the collaboration'}, HTTPStatus.UNAUTHORIZED\n    return make_token(task)\n",
    from:
      "    if g.node.collaboration_id != task.collaboration_id:\n        log.warning(\n            f'Node {g.node.id} attempts to generate key for task {task_id}'\n            ' which is outside its collaboration'\n        )\n        return {'msg': 'not within the collaboration'}, HTTPStatus.UNAUTHORIZED\n",
    to: "",
    finds: /branch removed/,
  },
  {
    what: "Exempt URLs matched anywhere instead of from the start.",
    path: "csrf/middleware.py",
    before:
      "def _url_is_exempt(self, path):\n    for exempt_url in self.exempt_urls:\n        if exempt_url.match(path):\n            return True\n    return False\n",
    from: "exempt_url.match(path)",
    to: "exempt_url.search(path)",
    finds: /`match` → `search`/,
  },
  {
    what: "HttpOnly dropped from a cookie written as a string.",
    path: "auth/cookies/CookieFactory.ts",
    before:
      "export function accessCookie(dto: Dto) {\n  return `access_token=${dto.token}; HttpOnly; Secure; Path=/;`\n}\n",
    from: " HttpOnly;",
    to: "",
    finds: /cookie attribute no longer set/,
  },
  {
    what: "A fail-open setting defaulted on.",
    path: "ratelimit/core.py",
    before:
      "def get_usage(request):\n    if cache_error:\n        if getattr(settings, 'RATELIMIT_FAIL_OPEN', False):\n            return None\n        raise\n",
    from: "'RATELIMIT_FAIL_OPEN', False",
    to: "'RATELIMIT_FAIL_OPEN', True",
    finds: /RATELIMIT_FAIL_OPEN/,
  },
  {
    what: "Certificate validation defaulted to ignore.",
    path: "winrm/transport.py",
    before:
      'class Transport:\n    def __init__(self, endpoint, server_cert_validation="validate"):\n        self.endpoint = endpoint\n',
    from: '"validate"',
    to: '"ignore"',
    finds: /server_cert_validation/,
  },
  {
    what: "A claim assertion removed.",
    path: "src/jwt/verifyJwt.ts",
    before:
      "export function verifyJwt(token: string, clockSkew: number) {\n  const { exp, alg } = decode(token);\n  assertExpirationClaim(exp, clockSkew);\n  assertHeaderAlgorithm(alg);\n  return token;\n}\n",
    from: "  assertExpirationClaim(exp, clockSkew);\n",
    to: "",
    finds: /assertExpirationClaim\(\) removed/,
  },
  {
    what: "An error no longer returned (Go).",
    path: "v3/bind.go",
    before:
      "func (l *Conn) SimpleBind(req *SimpleBindRequest) (*SimpleBindResult, error) {\n\tpacket, err := l.send(req.Username, req.Password)\n\terr = GetLDAPError(packet)\n\treturn result, err\n}\n",
    from: "return result, err",
    to: "return result, nil",
    finds: /error no longer returned/,
  },
  {
    what: "Symmetric and none algorithms let into a Go allow-list.",
    path: "internal/authn/oidc/oidc.go",
    before:
      'func parse(tok string, key any) (*jwt.Token, error) {\n\treturn jwt.Parse(tok, keyFunc(key),\n\t\tjwt.WithValidMethods([]string{"RS256"}),\n\t)\n}\n',
    from: '[]string{"RS256"}',
    to: '[]string{"RS256", "HS256", "none"}',
    finds: /`HS256` allowed/,
  },
  {
    what: "A method dropped from a list written as words.",
    path: "server/csrf.py",
    before:
      'VALIDATE_METHODS = set("PATCH POST PUT DELETE".split())\n\ndef should_validate(request):\n    return request.method in VALIDATE_METHODS\n',
    from: '"PATCH POST PUT DELETE"',
    to: '"PATCH PUT DELETE"',
    finds: /`POST` no longer in/,
  },
  {
    what: "A check that now also passes when there was no error.",
    path: "lib/passwordless/passwordless.js",
    before:
      "Passwordless.prototype.acceptToken = function (req, next) {\n\tthis._tokenStore.authenticate(token, uid, function (error, valid) {\n\t\tif (valid) {\n\t\t\treq.user = uid\n\t\t\tnext()\n\t\t}\n\t})\n}\n",
    from: "if (valid) {",
    to: "if (valid || !error) {",
    finds: /alternative to the check: `! error`|check made optional/,
  },
  {
    what: "Client certificates requested instead of required.",
    path: "spiffetls/tlsconfig/config.go",
    before:
      "func HookMTLSServerConfig(config *tls.Config) {\n\tconfig.ClientAuth = tls.RequireAnyClientCert\n\tconfig.InsecureSkipVerify = false\n}\n",
    from: "tls.RequireAnyClientCert",
    to: "tls.RequestClientCert",
    finds: /RequireAnyClientCert/,
  },
  {
    what: "A socket's default mode opened to everyone.",
    path: "gunicorn/config.py",
    before:
      'class ControlSocketMode(Setting):\n    """Permissions of the control socket."""\n    name = "control_socket_mode"\n    default = 0o600\n',
    from: "0o600",
    to: "0o666",
    finds: /file mode opened/,
  },
  {
    what: "A protective flag named by what it clears, switched off.",
    path: "src/waitress/adjustments.py",
    before:
      "class Adjustments:\n    trusted_proxy = None\n    clear_untrusted_proxy_headers = True\n",
    from: "clear_untrusted_proxy_headers = True",
    to: "clear_untrusted_proxy_headers = False",
    finds: /clear_untrusted_proxy_headers/,
  },
  {
    what: "Validation switched off inside the options a function returns.",
    path: "internal/auxdata/jwt.go",
    before:
      "func (j *jwtHelper) parseOpts(jwks jwk.Set) ([]jwt.ParseOption, error) {\n\treturn append(opts, jwt.WithKeySet(jwks), jwt.WithValidate(true)), nil\n}\n",
    from: "jwt.WithValidate(true)",
    to: "jwt.WithValidate(false)",
    finds: /WithValidate/,
  },
  {
    what: "A failure branch removed from CoffeeScript.",
    path: "lib/saml2.coffee",
    before:
      "parse_response = (saml_response, cb_wf) ->\n  unless check_status_success(saml_response)\n    return cb_wf new SAMLError('SAML Response was not success!')\n  cb_wf null, saml_response\n",
    from:
      "  unless check_status_success(saml_response)\n    return cb_wf new SAMLError('SAML Response was not success!')\n",
    to: "",
    finds: /SAMLError|check_status_success/,
  },
  {
    what: "An authorization middleware dropped from a router's chain (Go).",
    path: "server/initialize/router.go",
    before:
      "func Routers() *gin.Engine {\n\tPrivateGroup.Use(middleware.JWTAuth()).Use(middleware.CasbinHandler()).Use(middleware.DataScope())\n\treturn Router\n}\n",
    from: ".Use(middleware.CasbinHandler())",
    to: "",
    finds: /middleware no longer used: `\.Use\(middleware\.CasbinHandler\(\)\)`/,
  },
  {
    what: "A queryset no longer scoped to the requesting user.",
    path: "users/api/views.py",
    before:
      "def _get_users_queryset(request):\n    return User.objects.filter(pk=request.user.pk)\n",
    from: "filter(pk=request.user.pk)",
    to: "all()",
    finds: /query no longer scoped/,
  },
  {
    what: "A state lookup's conditions joined with OR.",
    path: "src/accounts/openid.js",
    before:
      "export async function loginWithOpenIdFinalize(body) {\n  const row = db.first(\n    'SELECT code_verifier FROM pending_openid_requests WHERE state = ? AND expiry_time > ?',\n    [body.state, Date.now()],\n  );\n  return row;\n}\n",
    from: "state = ? AND expiry_time",
    to: "state = ? OR expiry_time",
    finds: /query conditions joined with OR/,
  },
  {
    what: "Trusted proxies opened to every address.",
    path: "src/load-config.js",
    before:
      "const defaultConfig = {\n  loginMethod: 'password',\n  trustedProxies: ['10.0.0.0/8', '192.168.0.0/16'],\n};\n",
    from: "['10.0.0.0/8', '192.168.0.0/16']",
    to: "['0.0.0.0/0', '::/0']",
    finds: /allow-list opened to every address/,
  },
  {
    what: "A protective option added, switched off.",
    path: "src/app/routes/auth/auth.ts",
    before:
      "const auth = {\n  required: expressjwt({\n    secret: process.env.JWT_SECRET,\n    algorithms: ['HS256'],\n  }),\n};\n",
    from: "    algorithms: ['HS256'],\n",
    to: "    algorithms: ['HS256'],\n    credentialsRequired: false,\n",
    finds: /`credentialsRequired` switched off/,
  },
  {
    what: "An expected challenge given a fallback the client sends.",
    path: "controllers/webauthn.js",
    before:
      "exports.postLoginVerify = async (req, res) => {\n  const expectedChallenge = req.session.loginChallenge;\n  const result = await verifyAuthenticationResponse({ expectedChallenge });\n  return result;\n};\n",
    from: "req.session.loginChallenge;",
    to: "req.session.loginChallenge || req.body.challenge;",
    finds: /`expectedChallenge` given a fallback/,
  },
  {
    what: "A switch that turns authentication off, defaulted on.",
    path: "config.py",
    before:
      "class Config:\n    SECRET_KEY = os.environ.get('SECRET_KEY')\n    DISABLE_AUTH = as_bool(os.environ.get('DISABLE_AUTH'))\n",
    from: "os.environ.get('DISABLE_AUTH'))",
    to: "os.environ.get('DISABLE_AUTH') or 'yes')",
    finds: /`DISABLE_AUTH` given a fallback/,
  },
  {
    what: "A staff-only mixin dropped from a view's bases.",
    path: "app/views.py",
    before:
      "class UserDelete(\n    StaffOnlyMixin, PermissionRequiredMixin, DeleteView\n):\n    model = User\n",
    from: "StaffOnlyMixin, ",
    to: "",
    finds: /`StaffOnlyMixin` no longer applied/,
  },
  {
    what: "CSRF protection built without the app it protects.",
    path: "app/__init__.py",
    before: "app = Flask(__name__)\ncsrf = CSRFProtect(app)\nlogin_manager.init_app(app)\n",
    from: "CSRFProtect(app)",
    to: "CSRFProtect()",
    finds: /CSRFProtect\(\) no longer given `app`/,
  },
  {
    what: "Every path exempted from CSRF checks.",
    path: "middleware/middleware.go",
    before:
      'var csrfExemptPrefixes = []string{\n\t"/api",\n}\n\nfunc CSRFExceptions(handler http.Handler) http.HandlerFunc {\n\treturn handler\n}\n',
    from: '\t"/api",\n',
    to: '\t"/api",\n\t"/",\n',
    finds: /every path exempted/,
  },
  {
    what: "A role lookup that now falls back to the role asked for.",
    path: "src/server/middlewares/setCurrentRole.ts",
    before:
      "export async function setCurrentRole(ctx, next) {\n  const currentRole = ctx.get('X-Role');\n  const role = userRoles.find((role) => role.name === currentRole)?.name;\n  ctx.state.currentRole = role;\n}\n",
    from: "?.name;",
    to: "?.name ?? currentRole;",
    finds: /a failed lookup now falls back/,
  },
  {
    what: "A permission predicate widened with `|`.",
    path: "core/rules.py",
    before: 'rules.add_perm("core.delete_service", is_service_owner)\n',
    from: "is_service_owner)",
    to: "is_service_owner | is_service_collaborator)",
    finds: /predicate widened/,
  },
  {
    what: "An exempt path cut to a prefix.",
    path: "middleware/auth.go",
    before:
      'var noLogin = []string{"/auth/", "/error/", "/api/config"}\n\nfunc AuthMiddleware(c *gin.Context) {\n\tc.Next()\n}\n',
    from: '"/api/config"',
    to: '"/api/"',
    finds: /exempt path widened/,
  },
];

Deno.test("term shapes: a finding forward, silence when the guard is put back", () => {
  oneWayAll(TERM_CASES);
});

Deno.test("term shapes: the same words with the other polarity stay silent", () => {
  // A safe-methods list losing an unsafe method is stricter.
  const safe =
    "def prepare(self):\n    if self.request.method not in ('GET', 'HEAD', 'OPTIONS', 'POST'):\n        self.check_xsrf_cookie()\n";
  assert.deepEqual(seen("app/csrf.py", safe, edit(safe, ", 'POST'", "")), []);
  // A requirement dropped from a name that says no lets fewer through: stricter.
  const blocked =
    "def login(user):\n    is_blocked = user.failed_logins > 5 and user.locked\n    return is_blocked\n";
  assert.deepEqual(seen("auth/login.py", blocked, edit(blocked, " and user.locked", "")), []);
  // A negated check joined with `or` in a failing branch is one more way to fail.
  const failing =
    "def auth_user_db(user, password):\n    if user is None:\n        raise Unauthorized()\n    return user\n";
  assert.deepEqual(
    seen(
      "security/manager.py",
      failing,
      edit(failing, "if user is None:", "if user is None or not check_password(user, password):"),
    ),
    [],
  );
  // A protective value made to need both sides.
  const tls =
    "class Client {\n  constructor(url) {\n    this.secure = isSecureProtocol || hasTlsOptions;\n  }\n}\n";
  assert.match(
    seen("src/Client.ts", tls, edit(tls, "||", "&&")).join(),
    /`\|\|` → `&&`/,
  );
});
