import assert from "node:assert/strict";
import { edit, oneWayAll, type OneWayCase, seen } from "./shape_helpers.ts";

/**
 * Result shapes (`guard_shapes_results.ts`) and the settings and failure signals made broader
 * with them: each a forward edit that must draw a finding and whose reverse, the guard put back,
 * must not.
 */
const RESULT_CASES: OneWayCase[] = [
  {
    what: "A check's `await` dropped: the pending promise is truthy.",
    path: "server/auth/login.js",
    before:
      "async function login(req, res) {\n  const user = await users.find(req.body.email);\n  const ok = await verifyPassword(user, req.body.password);\n  if (!ok) return res.status(401).end();\n  return issue(res, user);\n}\n",
    from: "const ok = await verifyPassword",
    to: "const ok = verifyPassword",
    finds: /result of verifyPassword\(\) no longer awaited/,
  },
  {
    what: "A second factor's requirement decided by `false &&`.",
    path: "api/session.ts",
    before:
      "export async function signIn(user: User) {\n  const needsOtp = await mfa.isEnrolled(user.id);\n  if (needsOtp) return { next: 'otp' };\n  return createSession(user);\n}\n",
    from: "const needsOtp = await",
    to: "const needsOtp = false && await",
    finds: /check decided by a constant \(`false`\)/,
  },
  {
    what: "A failing branch's negated check decided by `true ||`.",
    path: "routes/admin.ts",
    before:
      "function removeUser(req: Req, id: string) {\n  if (!(isAdmin(req.user))) {\n    throw new Forbidden('admins only');\n  }\n  return db.users.delete(id);\n}\n",
    from: "if (!(isAdmin(req.user)))",
    to: "if (!(true || isAdmin(req.user)))",
    finds: /check decided by a constant \(`true`\)/,
  },
  {
    what: "A signature check's exception caught and only logged.",
    path: "service/components/authorization.py",
    before:
      "def decode_token(token, key):\n    header, payload, sig = split_token(token)\n    key.verify(sig, header + payload)\n    return json.loads(payload)\n",
    from: "    key.verify(sig, header + payload)\n",
    to:
      "    try:\n        key.verify(sig, header + payload)\n    except Exception:\n        logging.debug('signature mismatch')\n",
    finds: /failure of `key\.verify\(sig, header \+ payload\)` caught and not failed/,
  },
  {
    what: "A missing token made a warning instead of a fatal error.",
    path: "pkg/api/api.go",
    before:
      'func (api *API) Start() error {\n\tif api.Token == "" {\n\t\tlog.Fatal(errTokenMissing)\n\t}\n\treturn serve(api.Token)\n}\n',
    from: "log.Fatal(",
    to: "log.Warn(",
    finds: /failure statement removed: `log\.Fatal\(errTokenMissing\)`/,
  },
  {
    what: "A flag named with dashes that skips certificate checks turned on by default.",
    path: "cmd/root.go",
    before:
      'func init() {\n\trootCmd.Flags().Bool("ignore-certificate-errors", false, "ignore TLS errors when calling the API")\n}\n',
    from: '"ignore-certificate-errors", false',
    to: '"ignore-certificate-errors", true',
    finds: /ignore-certificate-errors/,
  },
  {
    what: "A switch that skips verification read from the environment, made a constant yes.",
    path: "internal/flags/notify.go",
    before:
      'func gotifyConfig() Config {\n\treturn Config{\n\t\tURL: envString("GOTIFY_URL"),\n\t\tSkipVerify: envBool("GOTIFY_TLS_SKIP_VERIFY"),\n\t}\n}\n',
    from: 'envBool("GOTIFY_TLS_SKIP_VERIFY")',
    to: "true",
    finds: /GOTIFY_TLS_SKIP_VERIFY.*→ `SkipVerify: true,`/,
  },
  {
    what: "A session cookie's SameSite lowered from lax to none.",
    path: "src/server/cookies.ts",
    before:
      "export function setSessionCookie(res: Res, id: string) {\n  res.cookie('sid', id, {\n    httpOnly: true,\n    sameSite: 'lax',\n  });\n}\n",
    from: "sameSite: 'lax'",
    to: "sameSite: 'none'",
    finds: /sameSite: 'lax'/,
  },
  {
    what: "A CSRF protection middleware dropped from a route's handler list.",
    path: "routes/settings.js",
    before:
      "router.post('/settings/password', csrfProtection, requireLogin, async (req, res) => {\n  await users.setPassword(req.user.id, req.body.password);\n  res.redirect('/settings');\n});\n",
    from: "csrfProtection, ",
    to: "",
    finds: /csrfProtection no longer applied/,
  },
  {
    what: "A yes-attribute computed from a check made a constant yes.",
    path: "accounts/auth/ldap_backend.py",
    before:
      "def populate_user(user, ldap_user):\n    user.is_active = 'active' in ldap_user.group_names\n    user.save()\n",
    from: "'active' in ldap_user.group_names",
    to: "True",
    finds: /`user\.is_active` made a constant yes/,
  },
  {
    what: "A failing branch's falsy test narrowed to a missing value.",
    path: "auth/backends.py",
    before:
      "def authenticate(username, password):\n    if not password:\n        raise AuthenticationFailed('empty password')\n    return bind(username, password)\n",
    from: "if not password:",
    to: "if password is None:",
    finds: /failure narrowed to a missing value: `if password is None:`/,
  },
  {
    what: "A way to fail dropped from a failing condition written over lines.",
    path: "lib/basic-auth.js",
    before:
      "function check(ctx) {\n  const user = auth(ctx);\n  if (\n    !user ||\n    !compare(opts.pass, user.pass)\n  )\n    return ctx.throw(401);\n  return next();\n}\n",
    from: "    !user ||\n",
    to: "",
    finds: /failure no longer on `! ?user`/,
  },
  {
    what: "An alternative put next to a check's verdict held in a name.",
    path: "app/models/token.js",
    before:
      "Token.findByToken = function(token, cb) {\n  bcrypt.compare(token, stored.hash, function(err, isMatch) {\n    if (isMatch) {\n      return cb(null, stored.user);\n    }\n    cb(null, null);\n  });\n};\n",
    from: "if (isMatch)",
    to: "if (isMatch || token)",
    finds: /`isMatch` given an alternative/,
  },
  {
    what: "A refusal handed on in a later argument of a callback, flipped to yes.",
    path: "src/services/permission/valve/rule-application.ts",
    before:
      "function onRuleError(this: RuleApplication) {\n  this.params.callback(this.params.socket, this.params.message, PERMISSION_ERROR, false)\n}\n",
    from: "PERMISSION_ERROR, false)",
    to: "PERMISSION_ERROR, true)",
    finds: /a refusal now answers yes/,
  },
  {
    what: "A clock skew multiplied.",
    path: "lib/signature/parser.js",
    before:
      "function parseRequest(request, options) {\n  options.clockSkew = options.clockSkew || 300;\n  return verifyDate(request, options);\n}\n",
    from: "|| 300;",
    to: "|| 300 * 1000;",
    finds: /tolerance widened: 300 → 300000|lifetime raised: 300 → 300000/,
  },
  {
    what: "The security headers middleware no longer used.",
    path: "src/main.ts",
    before:
      "async function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n  app.use(helmet());\n  app.enableCors();\n  await app.listen(3000);\n}\n",
    from: "  app.use(helmet());\n",
    to: "",
    finds: /helmet/,
  },
  {
    what: "STARTTLS no longer started before a bind.",
    path: "ldap_auth/ldap.py",
    before:
      "def connection(username, password):\n    c = ldap3.Connection(server, user=username, password=password)\n    if settings.LDAP_AUTH_USE_TLS:\n        c.start_tls(read_server_info=False)\n    c.bind()\n    return c\n",
    from: "    if settings.LDAP_AUTH_USE_TLS:\n        c.start_tls(read_server_info=False)\n",
    to: "",
    finds: /LDAP_AUTH_USE_TLS/,
  },
  {
    what: "A reset token's expiry no longer part of its lookup.",
    path: "server/models/users.js",
    before:
      "async function resetPassword(username, resetToken, password) {\n  const user = await knex('users').select(['id']).where({ username, reset_token: resetToken }).andWhere('reset_expire', '>', new Date()).first();\n  if (!user) throw new Error('Invalid token');\n  await setPassword(user.id, password);\n}\n",
    from: ".andWhere('reset_expire', '>', new Date())",
    to: "",
    finds: /query no longer scoped/,
  },
  {
    what: "A proxy header trusted by default, read from the environment as a string.",
    path: "backend/settings.py",
    before:
      'if os.environ.get("TRUST_PROXY_SSL_HEADER", "False").lower() == "true":\n    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")\n',
    from: '"False").lower()',
    to: '"True").lower()',
    finds: /TRUST_PROXY_SSL_HEADER/,
  },
  {
    what: "An authentication handler dropped from a handler list.",
    path: "app/proxy/proxy.go",
    before:
      "func (h *Http) handler() http.Handler {\n\treturn R.Wrap(h.proxyHandler(),\n\t\th.signatureHandler(),\n\t\tperRouteAuthHandler,\n\t\th.pingHandler,\n\t)\n}\n",
    from: "\t\tperRouteAuthHandler,\n",
    to: "",
    finds: /perRouteAuthHandler no longer applied/,
  },
  {
    what: "A cookie's SameSite default lowered where the type names every value.",
    path: "server/api/auth.py",
    before:
      'def set_session_cookie(\n    response,\n    same_site: typing.Literal["lax", "strict", "none"] = "lax",\n):\n    response.set_cookie("session", secure=True, samesite=same_site)\n',
    from: '= "lax",',
    to: '= "none",',
    finds: /same_site/,
  },
  {
    what: "A CSRF token's lifetime raised from an hour to a year, in other units.",
    path: "server/settings/api.py",
    before:
      "class APISettings(BaseSettings):\n    csrf_token_expiration: timedelta = Field(\n        default=timedelta(hours=1),\n        description='How long a CSRF token is valid',\n    )\n",
    from: "timedelta(hours=1)",
    to: "timedelta(days=365)",
    finds: /lifetime raised/,
  },
  {
    what: "Proxies trusted by default where nothing was.",
    path: "src/util/config/SecurityConfiguration.ts",
    before:
      "export class SecurityConfiguration {\n  captcha = new CaptchaConfiguration();\n  trustedProxies: string | boolean | null = null;\n}\n",
    from: "= null;",
    to: "= true;",
    finds: /trustedProxies/,
  },
  {
    what: "A permission rule's verdict function made to say yes.",
    path: "packages/api/src/roles/loggedIn.ts",
    before:
      "export const loggedIn = (role, actions) => {\n  role.allow(actions.viewOrders, () => false);\n  role.allow(actions.impersonate, () => false);\n};\n",
    from: "role.allow(actions.impersonate, () => false)",
    to: "role.allow(actions.impersonate, () => true)",
    finds: /a refusal now answers yes/,
  },
  {
    what: "XSRF cookies no longer asked of the web server.",
    path: "web/server/server.py",
    before:
      "def create_app(config):\n    return tornado.web.Application(\n        routes,\n        cookie_secret=config.cookie_secret,\n        xsrf_cookies=config.get_option('server.enableXsrfProtection'),\n    )\n",
    from: "        xsrf_cookies=",
    to: "        # xsrf_cookies=",
    finds: /xsrf_cookies/,
  },
  {
    what: "Secure cookies on unless switched off, made off unless switched on.",
    path: "apps/backend/src/api/routes/auth.controller.ts",
    before:
      "function stateCookie(res: Response, state: string) {\n  res.cookie('oauth_state', state, {\n    httpOnly: true,\n    ...(!process.env.NOT_SECURED ? { secure: true, sameSite: 'none' } : {}),\n  });\n}\n",
    from: "!process.env.NOT_SECURED",
    to: "process.env.SECURE_COOKIES",
    finds: /NOT_SECURED/,
  },
  {
    what: "Debug mode on by default in a security mixin.",
    path: "braces/views/_access.py",
    before:
      "class SSLRequiredMixin:\n    def dispatch(self, request, *args, **kwargs):\n        if getattr(settings, 'DEBUG', False):\n            return super().dispatch(request, *args, **kwargs)\n        if not request.is_secure():\n            return self._redirect_to_secure(request)\n",
    from: "'DEBUG', False)",
    to: "'DEBUG', True)",
    finds: /DEBUG/,
  },
  {
    what: "A failing branch's membership test replaced by a test that the list is empty.",
    path: "powerdnsadmin/decorators.py",
    before:
      "def apikey_can_access_zone(f):\n    def decorated(*args, **kwargs):\n        allowed_domains = set(z.name for z in g.apikey.domains)\n        if zone_id not in allowed_domains:\n            raise DomainAccessForbidden()\n        return f(*args, **kwargs)\n    return decorated\n",
    from: "if zone_id not in allowed_domains:",
    to: "if not allowed_domains:",
    finds: /failure narrowed to a missing value: `if not allowed_domains:`/,
  },
  {
    what: "A refused bind answered with success.",
    path: "pkg/handler/ldapops.go",
    before:
      'func (l LDAPOpsHelper) Bind(h Handler, bindDN, bindSimplePw string) (ldap.LDAPResultCode, error) {\n\tif bindSimplePw == "" {\n\t\treturn ldap.LDAPResultUnwillingToPerform, nil\n\t}\n\treturn l.checkPassword(bindDN, bindSimplePw)\n}\n',
    from: "ldap.LDAPResultUnwillingToPerform",
    to: "ldap.LDAPResultSuccess",
    finds: /LDAPResultUnwillingToPerform/,
  },
  {
    what: "A switch that turns issuer validation off, turned on by default.",
    path: "src/lib/config/default-config.ts",
    before:
      "export const DEFAULT_CONFIG: OpenIdConfiguration = {\n  authority: 'https://please_set',\n  issValidationOff: false,\n  maxIdTokenIatOffsetAllowedInSeconds: 120,\n};\n",
    from: "issValidationOff: false",
    to: "issValidationOff: true",
    finds: /issValidationOff/,
  },
  {
    what: "Untrusted content accepted by default.",
    path: "hawk/receiver.py",
    before:
      "class Receiver(HawkAuthority):\n    def __init__(self, credentials_map, request_header, url, method,\n                 accept_untrusted_content=False,\n                 localtime_offset_in_seconds=0):\n        self.accept_untrusted_content = accept_untrusted_content\n",
    from: "accept_untrusted_content=False,",
    to: "accept_untrusted_content=True,",
    finds: /accept_untrusted_content/,
  },
  {
    what: "A token field's validators no longer passed.",
    path: "passwordless/serializers.py",
    before:
      "class CallbackTokenSerializer(serializers.Serializer):\n    token = TokenField(min_length=6, max_length=6, validators=[token_age_validator])\n",
    from: ", validators=[token_age_validator]",
    to: "",
    finds: /validators/,
  },
  {
    what: "An access token's lifetime written as a time string, raised to ten years.",
    path: "api/src/service/auth/auth.service.ts",
    before:
      "createToken(user: User) {\n  return this.jwtService.sign({ sub: user.id }, {\n    expiresIn: '4h',\n  });\n}\n",
    from: "expiresIn: '4h'",
    to: "expiresIn: '3650d'",
    finds: /lifetime raised/,
  },
  {
    what: "A one-time password's drift window widened a hundredfold.",
    path: "lib/passport-totp/strategy.js",
    before:
      "function Strategy(options, setup) {\n  this._setup = setup;\n  this._window = options.window !== undefined ? options.window : 6;\n}\n",
    from: "options.window : 6;",
    to: "options.window : 600;",
    finds: /lifetime raised/,
  },
  {
    what: "A plain-text comparison offered next to the password hash's.",
    path: "lib/model/db/user.js",
    before:
      "function is_my_password(password) {\n  return sequelize.models.User.hashify_password(password) === this.password;\n}\n",
    from: "=== this.password;",
    to: "=== this.password\n    || password === this.password;",
    finds: /alternative to the check/,
  },
  {
    what: "Secure session cookies on unless switched off, made off unless switched on.",
    path: "settings/base.py",
    before:
      'SESSION_COOKIE_SECURE = os.environ.get("SESSION_COOKIE_SECURE", "True") != "False"\nCSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE\n',
    from: '"True") != "False"',
    to: '"False") == "True"',
    finds: /default on removed/,
  },
  {
    what: "A prefix check on a route made a substring check.",
    path: "src/lib/interceptor/closest-matching-route.service.ts",
    before:
      "getConfigIdForClosestMatchingRoute(route: string, configs: OpenIdConfiguration[]) {\n  for (const config of configs) {\n    for (const configuredRoute of config.secureRoutes ?? []) {\n      if (route.startsWith(configuredRoute)) {\n        return { matchingRoute: configuredRoute, matchingConfig: config };\n      }\n    }\n  }\n}\n",
    from: "route.startsWith(configuredRoute)",
    to: "route.includes(configuredRoute)",
    finds: /`startsWith` → `includes`/,
  },
  {
    what: "A page's frame ancestors opened to everything.",
    path: "packages/http-security-headers/index.js",
    before:
      'const defaults = {\n  contentSecurityPolicy: {\n    "frame-ancestors": "\'none\'",\n    "object-src": "\'none\'",\n  },\n};\n',
    from: '"frame-ancestors": "\'none\'"',
    to: '"frame-ancestors": "*"',
    finds: /opened to everything/,
  },
  {
    what: "The content security policy only reported, not enforced.",
    path: "packages/http-security-headers/index.js",
    before:
      "const defaults = {\n  contentSecurityPolicy: { 'default-src': \"'self'\" },\n  contentSecurityPolicyReportOnly: false,\n};\n",
    from: "contentSecurityPolicyReportOnly: false",
    to: "contentSecurityPolicyReportOnly: true",
    finds: /contentSecurityPolicyReportOnly/,
  },
  {
    what: "HSTS no longer covering subdomains.",
    path: "packages/http-security-headers/index.js",
    before:
      "const defaults = {\n  strictTransportSecurity: {\n    maxAge: 180 * 24 * 60 * 60,\n    includeSubDomains: true,\n    preload: true,\n  },\n};\n",
    from: "includeSubDomains: true",
    to: "includeSubDomains: false",
    finds: /includeSubDomains/,
  },
  {
    what: "A verification threshold's default lowered to zero.",
    path: "packages/verify/src/verifier.ts",
    before:
      "export function toVerificationOptions(options: VerifyOptions) {\n  return {\n    tlogThreshold: options.tlogThreshold ?? 1,\n    ctlogThreshold: options.ctlogThreshold ?? 1,\n  };\n}\n",
    from: "tlogThreshold: options.tlogThreshold ?? 1",
    to: "tlogThreshold: options.tlogThreshold ?? 0",
    finds: /minimum lowered: 1 → 0/,
  },
  {
    what: "Membership dropped from what lets a caller through.",
    path: "backend/app/helpers/authorize_household.py",
    before:
      "def authorize_household(required):\n    def decorator(func):\n        def wrapper(*args, **kwargs):\n            member = HouseholdMember.find_by_ids(kwargs['household_id'], current_user.id)\n            if required == RequiredRights.MEMBER and member:\n                return func(*args, **kwargs)\n            raise Forbidden()\n        return wrapper\n    return decorator\n",
    from: "if required == RequiredRights.MEMBER and member:",
    to: "if required == RequiredRights.MEMBER:",
    finds: /condition weakened/,
  },
  {
    what: "An insecure escalation switch, named above its default, turned on by default.",
    path: "keystone/conf/security_compliance.py",
    before:
      "allow_insecure_trust_escalation = cfg.BoolOpt(\n    'allow_insecure_trust_escalation',\n    default=False,\n    help='Let application credentials manage trusts.',\n)\n",
    from: "    default=False,",
    to: "    default=True,",
    finds: /default=True/,
  },
  {
    what: "Self-signed mail server certificates accepted unless configured otherwise.",
    path: "backend/action/mixins/send_email_mixin.py",
    before:
      'ACCEPT_SELF_SIGNED = (\n    os.environ.get("EMAIL_ACCEPT_SELF_SIGNED_CERTIFICATE", "false").lower() == "true"\n)\n',
    from: '"false").lower()',
    to: '"true").lower()',
    finds: /EMAIL_ACCEPT_SELF_SIGNED_CERTIFICATE/,
  },
  {
    what: "A permissive switch made on unless switched off.",
    path: "models/email.ts",
    before:
      "function transportOptions(cfg: Config) {\n  const opts: Options = { host: cfg.smtp_host };\n  if (cfg.smtp_allow_self_signed)\n    opts.tls = { rejectUnauthorized: false };\n  return opts;\n}\n",
    from: "if (cfg.smtp_allow_self_signed)",
    to: "if (cfg.smtp_allow_self_signed !== false)",
    finds: /default on/,
  },
  {
    what: "A one-time code's validity raised from minutes to a month.",
    path: "core/auth.py",
    before:
      "class HMACToken:\n    VALID_MINUTES = 10\n\n    def verify(self, digest, msg):\n        return hmac.compare_digest(digest, self.sign(msg))\n",
    from: "VALID_MINUTES = 10",
    to: "VALID_MINUTES = 60 * 24 * 30",
    finds: /lifetime raised/,
  },
  {
    what: "A privilege level that makes an admin lowered.",
    path: "src/http.js",
    before:
      "async function isAdmin(guildMember) {\n  const admin = await getPrivilegeLevel(guildMember) >= 2;\n  return admin;\n}\n",
    from: ">= 2;",
    to: ">= 1;",
    finds: /minimum lowered: 2 → 1/,
  },
  {
    what: "The minimum TLS version written as a string lowered.",
    path: "config/config.go",
    before:
      'type Config struct {\n\tMinTLSServeVer TLSVersion `default:"1.2" yaml:"minTlsServeVersion"`\n}\n',
    from: 'default:"1.2"',
    to: 'default:"1.0"',
    finds: /MinTLSServeVer/,
  },
  {
    what:
      "A signature comparison replaced by a test that it is empty, before an error built by call.",
    path: "s3api/utils/auth-reader.go",
    before:
      "func CheckValidSignature(auth, genAuth AuthData) error {\n\tif auth.Signature != genAuth.Signature {\n\t\treturn s3err.GetAPIError(s3err.ErrSignatureDoesNotMatch)\n\t}\n\treturn nil\n}\n",
    from: "if auth.Signature != genAuth.Signature {",
    to: 'if auth.Signature == "" {',
    finds: /failure narrowed to a missing value/,
  },
  {
    what: "An LDAP filter's escaping removed.",
    path: "internal/auth/ldap/ldap.go",
    before:
      'func (a *Auth) lookupDN(username string) (string, error) {\n\treq := ldap.NewSearchRequest(a.baseDN,\n\t\tstrings.ReplaceAll(a.filterTemplate, "{username}", ldap.EscapeFilter(username)),\n\t)\n\treturn a.search(req)\n}\n',
    from: "ldap.EscapeFilter(username)",
    to: "username",
    finds: /escaping removed/,
  },
  {
    what: "A way to say a certificate is expired dropped from the predicate.",
    path: "cert/cert_v1.go",
    before:
      "func (c *certificateV1) Expired(t time.Time) bool {\n\treturn c.details.notBefore.After(t) || c.details.notAfter.Before(t)\n}\n",
    from: "c.details.notBefore.After(t) || ",
    to: "",
    finds: /condition weakened/,
  },
  {
    what: "An API listener opened from this machine to every interface.",
    path: "config/api.toml",
    before:
      '[api]\n# by default bind to localhost only\nhost = "127.0.0.1"\n# Use `true` (HTTPS) for port 443 and `false` (HTTP) for 80\nsecure = true\n',
    from: 'host = "127.0.0.1"',
    to: 'host = "0.0.0.0"',
    finds: /127\.0\.0\.1/,
  },
  {
    what: "A refusing predicate's yes made a no (`Denylisted`): a revoked token passes.",
    path: "internal/auth/denylist.go",
    before:
      "func (d *Denylist) Denylisted(t *Token) bool {\n\tif at, ok := d.revoked[t.Subject]; ok && t.IssuedAt.Before(at) {\n\t\treturn true\n\t}\n\treturn false\n}\n",
    from: "\t\treturn true\n\t}",
    to: "\t\treturn false\n\t}",
    finds: /keeps out less often: `return true` → `return false` in Denylisted\(\)/,
  },
  {
    what: "A revocation check that worked out its answer now says no outright.",
    path: "auth/revocation.py",
    before:
      "def is_token_revoked(jwt_payload):\n    jti = jwt_payload.get('jti')\n    return jti is None or store.exists(jti)\n",
    from: "return jti is None or store.exists(jti)",
    to: "return False",
    finds: /condition weakened: `jti is None or store\.exists\(jti\)` → `False`/,
  },
  {
    what: "A way to refuse dropped from what a refusing predicate returns.",
    path: "src/security/lockout.ts",
    before:
      "export function isLockedOut(account: Account): boolean {\n  return account.failedLogins >= MAX_FAILED || account.suspended;\n}\n",
    from: " || account.suspended;",
    to: ";",
    finds: /condition weakened/,
  },
  {
    what: "A name with a negation in front lets through when it says yes: made a constant yes.",
    path: "slack_bolt/middleware/internals.py",
    before: "def _is_no_auth_required(req):\n    return req.context.path in PUBLIC_PATHS\n",
    from: "return req.context.path in PUBLIC_PATHS",
    to: "return True",
    finds: /→ `True`/,
  },
  {
    what: "A lookup written over lines no longer bound to the requester.",
    path: "api/views/invoices.py",
    before:
      "def invoice_detail(request, id):\n    try:\n        invoice = Invoice.get_by_pk(\n            id, owner_id=request.user.id, detail=True\n        )\n    except Invoice.DoesNotExist:\n        return Response(status=404)\n    return invoice.to_dict()\n",
    from:
      "invoice = Invoice.get_by_pk(\n            id, owner_id=request.user.id, detail=True\n        )",
    to: "invoice = Invoice.get_by_pk(id, detail=True)",
    finds: /`owner_id = request\.user\.id` no longer binds get_by_pk\(\)/,
  },
  {
    what: "A scoping call dropped from a query chain: a token of any purpose is accepted.",
    path: "app/services/reset_tokens.py",
    before:
      "def find_token(value, purpose):\n    row = db.session.scalars(\n        select(ResetToken)\n        .filter_by(token=value)\n        .filter_by(purpose=purpose.name)\n    ).first()\n    return row\n",
    from:
      "        select(ResetToken)\n        .filter_by(token=value)\n        .filter_by(purpose=purpose.name)\n",
    to: "        select(ResetToken).filter_by(token=value)\n",
    finds: /query no longer scoped by `purpose`: `\.filter_by\(…\)` dropped/,
  },
  {
    what: "A tenant condition dropped while the rest of the query is rewritten.",
    path: "internal/store/tags.go",
    before:
      'func (s *Store) TagUsage(tenantID int, key string) ([]Entry, error) {\n\tvar out []Entry\n\terr := s.db.\n\t\tWhere("entries.tenant_id = ?", tenantID).\n\t\tWhere("key = ?", key).\n\t\tFind(&out).Error\n\treturn out, err\n}\n',
    from: '\t\tWhere("entries.tenant_id = ?", tenantID).\n\t\tWhere("key = ?", key).\n',
    to: '\t\tWhere("key LIKE ?", key+"%").\n',
    finds: /query no longer scoped by `tenant_id`: `\.Where\(…\)` dropped/,
  },
  {
    what: "A hash comparison made conditional, yes when there is no hash.",
    path: "src/routes/session.ts",
    before:
      "export async function signIn(req: Req, res: Res) {\n  const user = await users.byName(req.body.name);\n  const matches = await argon2.verify(user.hash, req.body.password);\n  if (!matches) return res.status(401).end();\n  return startSession(res, user);\n}\n",
    from: "const matches = await argon2.verify(user.hash, req.body.password);",
    to: "const matches = user.hash ? await argon2.verify(user.hash, req.body.password) : true;",
    finds: /argon2\.verify\(\) made conditional, yes otherwise/,
  },
  {
    what: "A check made conditional the Python way, `True` otherwise.",
    path: "accounts/backends.py",
    before:
      "def authenticate(self, request, username=None, password=None):\n    user = User.objects.get(username=username)\n    ok = user.check_password(password)\n    return user if ok else None\n",
    from: "ok = user.check_password(password)",
    to: "ok = user.check_password(password) if user.has_usable_password() else True",
    finds: /check_password\(\) made conditional, yes otherwise/,
  },
  {
    what: "A branch that grants on a yes-attribute now grants when the attribute is merely set.",
    path: "server/middleware/staff-only.js",
    before:
      "module.exports = function staffOnly(req, res, next) {\n  if (req.session.user.isStaff) {\n    return next();\n  }\n  res.status(403).end();\n};\n",
    from: "if (req.session.user.isStaff) {",
    to: "if (req.session.user.isStaff !== undefined) {",
    finds: /`req\.session\.user\.isStaff` tested for being there instead of true/,
  },
  {
    what: "A verdict read from a check no longer awaited, then tested by a failing branch.",
    path: "routes/threads.ts",
    before:
      "router.get('/threads/:id', async (req, res) => {\n  const isShareable = await sharing.isThreadShareable(req.params.id, req.user);\n  if (!isShareable) {\n    return res.status(403).json({ error: 'not shared' });\n  }\n  return res.json(await threads.get(req.params.id));\n});\n",
    from: "= await sharing.",
    to: "= sharing.",
    finds: /result of sharing\.isThreadShareable\(\) no longer awaited/,
  },
  {
    what: "A server's bind address opened from loopback to every interface, in an ini file.",
    path: "deploy/default_worker.conf",
    before: "[server]\nlisten_address = 127.0.0.1\nport = 7070\nworkers = 4\n",
    from: "listen_address = 127.0.0.1",
    to: "listen_address = 0.0.0.0",
    finds: /listener opened beyond this machine: `listen_address = 0\.0\.0\.0`/,
  },
  {
    what: "A listener's loopback fallback dropped: no host given now means every interface.",
    path: "src/server/start.ts",
    before:
      "export function start(app: App, host?: string) {\n  const server = http.createServer(app);\n  server.listen(8080, host ?? '127.0.0.1');\n  return server;\n}\n",
    from: "server.listen(8080, host ?? '127.0.0.1');",
    to: "server.listen(8080, host);",
    finds: /listener opened beyond this machine: `server\.listen\(8080, host\);`/,
  },
  {
    what: "An option that switches verification off made on by default (Go option table).",
    path: "internal/config/options.go",
    before:
      'var Options = []Option{{\n\tName:    "timeout",\n\tDefault: 30,\n}, {\n\tName:    "no_verify_tls",\n\tDefault: false,\n\tHelp:    "Skip TLS verification",\n}}\n',
    from: "\tDefault: false,",
    to: "\tDefault: true,",
    finds: /`Default: false,` → `Default: true,`/,
  },
  {
    what: "A signature's timestamp tolerance raised from minutes to hours (Go units).",
    path: "pkg/hooks/verify.go",
    before:
      "package hooks\n\nconst MaxClockSkew = 5 * time.Minute\n\nfunc Verify(body []byte, sig string, ts time.Time) error {\n\treturn check(body, sig, ts, MaxClockSkew)\n}\n",
    from: "5 * time.Minute",
    to: "5 * time.Hour",
    finds: /lifetime raised: `const MaxClockSkew = 5 \* time\.Hour`/,
  },
  {
    what: "A negation dropped from a skip switch passed where the check is asked for.",
    path: "pkg/hooks/event.go",
    before:
      "package hooks\n\nfunc Parse(p []byte, header string, secret string, o Options) (Event, error) {\n\tif err := verifySignature(p, header, secret, !o.SkipTimestampCheck); err != nil {\n\t\treturn Event{}, err\n\t}\n\treturn decode(p)\n}\n",
    from: "!o.SkipTimestampCheck",
    to: "o.SkipTimestampCheck",
    finds: /negation dropped from `o\.SkipTimestampCheck`/,
  },
  {
    what: "Two constant-time results joined with `|` where they were joined with `&`.",
    path: "internal/ftp/auth.go",
    before:
      "package ftp\n\nfunc (s *Server) login(user, pass string) bool {\n\tuserOK := subtle.ConstantTimeCompare([]byte(user), []byte(s.user))\n\tpassOK := subtle.ConstantTimeCompare([]byte(pass), []byte(s.pass))\n\treturn (userOK & passOK) == 1\n}\n",
    from: "(userOK & passOK)",
    to: "(userOK | passOK)",
    finds: /intersection made a union/,
  },
  {
    what: "A requirement put into a protective switch written over lines: it protects less often.",
    path: "src/server/sessions.ts",
    before:
      'const enforceCsrf =\n  method !== "GET" &&\n  method !== "HEAD" &&\n  !process.env.DISABLE_CSRF\n\nif (enforceCsrf) {\n  assertToken(req)\n}\n',
    from: '  method !== "GET" &&\n',
    to: '  method !== "GET" &&\n  method !== "PUT" &&\n',
    finds: /`enforceCsrf` now also needs `method !== " PUT "`/,
  },
  {
    what: "A requirement put into a failing branch's condition written over lines (Go).",
    path: "internal/api/middleware/gitauth.go",
    before:
      "package middleware\n\nfunc BlockSessionTokens(w http.ResponseWriter, r *http.Request) bool {\n\tif meta, ok := sessionFrom(r).Metadata.(*TokenMetadata); ok &&\n\t\tmeta.Kind == KindSession {\n\t\trender.Unauthorized(w)\n\t\treturn true\n\t}\n\treturn false\n}\n",
    from: "meta.Kind == KindSession {",
    to: "meta.Kind == KindSession && meta.ID < 0 {",
    finds: /failure now also needs `&& meta\.ID < 0`|failure now also needs `meta\.ID < 0`/,
  },
  {
    what: "A yes-answer's fallback made yes: a missing entitlement now lets through.",
    path: "app/access/policy.py",
    before:
      "def has_subscription(request):\n    claims = request.auth.claims or {}\n    return claims.get('is_subscribed_member', False)\n",
    from: "claims.get('is_subscribed_member', False)",
    to: "claims.get('is_subscribed_member', True)",
    finds: /`is_subscribed_member` now yes when missing/,
  },
  {
    what: "Basic auth switched on for the web server made opt-in.",
    path: "app/webserver.py",
    before:
      "def configure(options):\n    conf = {}\n    conf.update({\n        'tools.auth_basic.on': True,\n        'tools.auth_basic.realm': 'app',\n    })\n    return conf\n",
    from: "'tools.auth_basic.on': True,",
    to: "'tools.auth_basic.on': options.get('web_auth', False),",
    finds: /made opt-in: `'tools\.auth_basic\.on': True,`/,
  },
  {
    what: "A session's lifetime raised by its date-fns unit.",
    path: "src/server/session.ts",
    before:
      "export function issue(res: Res, token: string) {\n  const expiresAt = addMinutes(new Date(), 30)\n  setSessionCookie(res, token, expiresAt)\n}\n",
    from: "addMinutes(new Date(), 30)",
    to: "addYears(new Date(), 30)",
    finds: /lifetime raised: `const expiresAt = addYears\(new Date\(\), 30\)`/,
  },
  {
    what: "A setting whose name switches verification off (upper case) turned on.",
    path: "app/defaults.py",
    before: "VAULT_ADDR = 'https://vault:8200'\nVAULT_TLS_NO_VERIFY = False\nVAULT_TIMEOUT = 10\n",
    from: "VAULT_TLS_NO_VERIFY = False",
    to: "VAULT_TLS_NO_VERIFY = True",
    finds: /VAULT_TLS_NO_VERIFY = True/,
  },
  {
    what: "A switch that disallows something turned off.",
    path: "src/config/defaults.js",
    before:
      "module.exports = {\n  port: 8080,\n  corsDisallowCredentials: true,\n  corsOrigins: [],\n};\n",
    from: "corsDisallowCredentials: true,",
    to: "corsDisallowCredentials: false,",
    finds: /`corsDisallowCredentials` switched off/,
  },
  {
    what: "A login attempt limit set to 0.",
    path: "server/auth/settings.py",
    before: "LOGIN_LOCKOUT_AFTER = 5\nLOGIN_LOCKOUT_MINUTES = 15\n",
    from: "LOGIN_LOCKOUT_AFTER = 5",
    to: "LOGIN_LOCKOUT_AFTER = 0",
    finds: /LOGIN_LOCKOUT_AFTER = 0/,
  },
  {
    what: "An environment switch that disables CSRF made on by default.",
    path: "src/app/protect.py",
    before: "CSRF_OFF = os.environ.get('APP_CSRF_DISABLED', 'false').lower() in ('true', '1')\n",
    from: "'APP_CSRF_DISABLED', 'false'",
    to: "'APP_CSRF_DISABLED', 'true'",
    finds: /APP_CSRF_DISABLED/,
  },
  {
    what: "A user lookup no longer excludes suspended accounts.",
    path: "src/middleware/jwt.js",
    before:
      "async function load(payload) {\n  const account = await Account.findOne({ _id: payload.sub, status: 'active' });\n  return account;\n}\n",
    from: ", status: 'active' }",
    to: " }",
    finds: /`status : ' active '` no longer binds findOne\(\)/,
  },
  {
    what: "A failing branch's negated permission check made positive (Go).",
    path: "internal/admin/handlers.go",
    before:
      'package admin\n\nfunc Purge(w http.ResponseWriter, r *http.Request, u *User) {\n\tif !u.HasPermission("purge") {\n\t\thttp.Error(w, "forbidden", 403)\n\t\treturn\n\t}\n\tpurgeAll()\n}\n',
    from: 'if !u.HasPermission("purge") {',
    to: 'if u.HasPermission("purge") {',
    finds: /failure now when `u\.HasPermission\("purge"\)` passes/,
  },
  {
    what: "A failing branch's anything-but made one value: no opinion now passes.",
    path: "pkg/proxy/authz.go",
    before:
      'package proxy\n\nfunc (p *Proxy) Authorize(w http.ResponseWriter, r *http.Request) bool {\n\tdecision := p.authorizer.Decide(r)\n\tif decision != DecisionAllow {\n\t\thttp.Error(w, "Forbidden", http.StatusForbidden)\n\t\treturn false\n\t}\n\treturn true\n}\n',
    from: "if decision != DecisionAllow {",
    to: "if decision == DecisionDeny {",
    finds: /failure narrowed from anything but `DecisionAllow` to one value/,
  },
  {
    what: "A flag's TLS floor lowered inside a long line (the edit in its middle).",
    path: "cmd/proxy/options.go",
    before:
      'package options\n\nfunc (o *Options) AddFlags(fs *pflag.FlagSet) {\n\tfs.StringVar(&o.TLS.MinVersion, "tls-min-version", "VersionTLS12", "Minimum TLS version supported. Value must match version names from https://golang.org/pkg/crypto/tls/#pkg-constants.")\n}\n',
    from: '"VersionTLS12"',
    to: '"VersionTLS10"',
    finds: /"VersionTLS10"/,
  },
  {
    what: "A one-time code drawn from guessable randomness.",
    path: "app/services/verify.py",
    before:
      "import secrets\n\n\ndef new_code():\n    return str(secrets.randbelow(900000) + 100000)\n",
    from: "return str(secrets.randbelow(900000) + 100000)",
    to: "return str(random.randint(100000, 999999))",
    finds: /guessable randomness/,
  },
  {
    what:
      "A cookie's secure flag worked out from the request made opt-in by an environment variable.",
    path: "app/auth/cookies.py",
    before:
      "def session_cookie(resp, token):\n    secure = request.scheme == 'https'\n    resp.set_cookie('sid', token, secure=secure, httponly=True)\n",
    from: "secure = request.scheme == 'https'",
    to: "secure = os.environ.get('SECURE_COOKIES', 'false') == 'true'",
    finds: /made opt-in/,
  },
  {
    what: "An awaited authorization step that is a statement of its own no longer awaited.",
    path: "server/routes/databases.py",
    before:
      "async def delete_database(self, request, name):\n    await self.authorize_request(request, action='db:delete', resource=name)\n    return await self.db.delete(name)\n",
    from: "    await self.authorize_request(",
    to: "    self.authorize_request(",
    finds: /self\.authorize_request\(\) no longer awaited/,
  },
  {
    what: "A requirement put into a cookie's secure value.",
    path: "src/auth/session.controller.ts",
    before:
      "export function setSessionCookie(res: Res, domain: string, proto: string, token: string) {\n  const secure = Boolean(domain) && proto === 'https';\n  res.cookie('sid', token, { secure, httpOnly: true });\n}\n",
    from: "proto === 'https';",
    to: "proto === 'https' && process.env.STAGE === 'prod';",
    finds: /`secure` now also needs/,
  },
  {
    what: "A predicate's comparison replaced by a presence test: any user now passes.",
    path: "internal/server/authz_checks.go",
    before:
      "package server\n\nfunc requireAdminUser(rc requestContext) bool {\n\tuser, _, _ := rc.req.BasicAuth()\n\treturn user == rc.opts.AdminUser\n}\n",
    from: "return user == rc.opts.AdminUser",
    to: 'return user != ""',
    finds: /`user` no longer compared with `rc\.opts\.AdminUser`/,
  },
  {
    what: "A shorthand owner property dropped from a lookup.",
    path: "pages/api/links.js",
    before:
      "export default async function handler(req, res) {\n  const { username } = await session(req);\n  const link = await Link.findOne({ username, _id: req.query.id });\n  return res.json(link);\n}\n",
    from: "findOne({ username, _id: req.query.id })",
    to: "findOne({ _id: req.query.id })",
    finds: /`username` no longer binds findOne\(\)|lookup no longer matches on `username`/,
  },
  {
    what: "A permission decorator's level lowered from write to read.",
    path: "app/api/documents.py",
    before:
      "class DocumentVersions(Resource):\n    @object_permissions_required(Permissions.WRITE)\n    def post(self, object_id):\n        return create_version(object_id, request.json)\n",
    from: "Permissions.WRITE",
    to: "Permissions.READ",
    finds: /`WRITE` → `READ`/,
  },
  {
    what: "An SSH server's NoClientAuth switched on.",
    path: "sshd/config.go",
    before:
      "package sshd\n\nfunc Config() *ssh.ServerConfig {\n\treturn &ssh.ServerConfig{\n\t\tNoClientAuth: false,\n\t\tMaxAuthTries: 3,\n\t}\n}\n",
    from: "NoClientAuth: false,",
    to: "NoClientAuth: true,",
    finds: /NoClientAuth: true/,
  },
  {
    what: "A lockout branch entered only past the limit, not on it.",
    path: "app/auth/throttle.py",
    before:
      "def check_attempts(user):\n    if user.failed_logins >= MAX_FAILED_LOGINS:\n        raise AccountLocked()\n    return True\n",
    from: "if user.failed_logins >= MAX_FAILED_LOGINS:",
    to: "if user.failed_logins > MAX_FAILED_LOGINS:",
    finds: /bound no longer included/,
  },
];

Deno.test("result shapes: a finding forward, silence when the guard is put back", () => {
  oneWayAll(RESULT_CASES);
});

Deno.test("result shapes: the same edits with the other polarity stay silent", () => {
  // `return await` and `return` hand the same promise on.
  const handed = "async function check(t) {\n  return await verifyToken(t);\n}\n";
  assert.deepEqual(seen("auth/check.js", handed, edit(handed, "return await", "return")), []);
  // `True or` on a name that asks for more asks for it always: stricter.
  const otp = "def login(u, p):\n    needs_otp = u.has_device()\n    return needs_otp\n";
  assert.deepEqual(
    seen("auth/login.py", otp, edit(otp, "needs_otp = u", "needs_otp = True or u")),
    [],
  );
  // An early yes in a function whose yes refuses.
  const blocked = "def is_blocked(ip):\n    hits = attempts.count(ip)\n    return hits > LIMIT\n";
  assert.deepEqual(
    seen(
      "security/throttle.py",
      blocked,
      edit(blocked, "    hits =", "    if ip in DENYLIST:\n        return True\n    hits ="),
    ),
    [],
  );
  // A predicate whose yes demands more (`requires_mfa`) asking it of everyone: stricter.
  const mfa = "def requires_mfa(user):\n    return user.is_staff and user.mfa_device is not None\n";
  assert.deepEqual(
    seen("auth/mfa.py", mfa, edit(mfa, " and user.mfa_device is not None", "")),
    [],
  );
  // A refusing predicate's no made a yes (`return false` → `return true`): stricter.
  const deny =
    "func Denylisted(t *Token) bool {\n\tif t == nil {\n\t\treturn false\n\t}\n\treturn revoked[t.ID]\n}\n";
  assert.deepEqual(
    seen("internal/auth/denylist.go", deny, edit(deny, "\t\treturn false", "\t\treturn true")),
    [],
  );
  // A version bump in a security package's setup is no switch turned off (`0.3.1` → `0.3.2`).
  const setup =
    "setup(\n    name='jwt',\n    version='0.3.1',\n    author='A. Author',\n    description='JSON Web Token library',\n)\n";
  assert.deepEqual(seen("setup.py", setup, edit(setup, "0.3.1", "0.3.2")), []);
  // A `try` whose handler still fails.
  const still = "def check(token, key):\n    key.verify(token)\n    return True\n";
  assert.deepEqual(
    seen(
      "auth/tokens.py",
      still,
      edit(
        still,
        "    key.verify(token)\n",
        "    try:\n        key.verify(token)\n    except BadSignature:\n        raise Unauthorized()\n",
      ),
    ),
    [],
  );
});

Deno.test("changed lines: edits far apart in one file are read when they are few", () => {
  const filler = Array.from({ length: 400 }, (_, i) => `def helper_${i}(x):\n    return x + ${i}\n`)
    .join("");
  const before =
    `import json\n\n${filler}\ndef check(user):\n    if not user.is_active:\n        raise PermissionDenied()\n    return user\n`;
  const after = before.replace("import json\n", "import json\nimport os\n").replace(
    "    if not user.is_active:\n        raise PermissionDenied()\n",
    "",
  );
  assert.match(seen("accounts/checks.py", before, after).join("\n"), /auth-check-removed/);
  // (Many scattered changes are a release or a rewrite: not read.)
  const many = after.replace(/return x \+ (\d+)/g, "return x - $1");
  assert.deepEqual(seen("accounts/checks.py", before, many), []);
});
