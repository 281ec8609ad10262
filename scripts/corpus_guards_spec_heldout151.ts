/**
 * Held-out batch 151 of the guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus, chosen the way a careless refactor or an attacker
 * would weaken them, before any measurement. Reversed fixes were picked by commit message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const DOP = "caffeinehit/django-oauth2-provider";
const DOPF = "provider/oauth2/forms.py";
const DOPB = "provider/oauth2/backends.py";
const DA = "jazzband/django-authority";
const DAP = "authority/permissions.py";
const DAD = "authority/decorators.py";
const EA = "nyambati/express-acl";
const EAI = "lib/index.js";
const EAC = "lib/common.js";
const GC = "utrack/gin-csrf";
const GCF = "csrf.go";
const GH = "gorilla/handlers";
const GHC = "cors.go";
const GCC = "gin-contrib/cors";
const GCCC = "config.go";
const DOPV = "provider/views.py";
const DAV = "authority/views.py";
const OC = "badgateway/oauth2-client";
const OCA = "src/client/authorization-code.ts";
const OCF = "src/fetch-wrapper.ts";
const FS = "pallets-eco/flask-session";
const FSB = "src/flask_session/base.py";
const GP = "hashicorp/go-plugin";
const AD = "jsumners/node-activedirectory";
const ADL = "lib/activedirectory.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout151");

/** The held-out batch 151 of edits (split `heldout151`). */
export const EDITS_HELDOUT151: GuardEdit[] = [
  // ---- django-oauth2-provider (Python)
  E(
    "dop-client-secret-not-matched",
    DOP,
    DOPF,
    "credential",
    "            client = Client.objects.get(client_id=data.get('client_id'),\n                client_secret=data.get('client_secret'))\n",
    "            client = Client.objects.get(client_id=data.get('client_id'))\n",
  ),
  E(
    "dop-password-grant-no-user",
    DOP,
    DOPF,
    "authn-branch",
    "        if user is None:\n            raise OAuthValidationError({'error': 'invalid_grant'})\n\n        data['user'] = user\n",
    "        data['user'] = user\n",
  ),
  E(
    "dop-redirect-uri-prefix",
    DOP,
    DOPF,
    "token",
    "            if not redirect_uri == self.client.redirect_uri:\n",
    "            if not redirect_uri.startswith(self.client.redirect_uri):\n",
  ),
  E(
    "dop-refresh-token-expired-accepted",
    DOP,
    DOPF,
    "token",
    "            token = RefreshToken.objects.get(token=token,\n                expired=False, client=self.client)\n",
    "            token = RefreshToken.objects.get(token=token, client=self.client)\n",
  ),
  E(
    "dop-grant-code-no-expiry",
    DOP,
    DOPF,
    "token",
    "                code=code, client=self.client, expires__gt=now())\n",
    "                code=code, client=self.client)\n",
  ),
  E(
    "dop-public-client-type-unchecked",
    DOP,
    DOPF,
    "authz",
    "        if client.client_type != PUBLIC:\n            raise OAuthValidationError({'error': 'invalid_client'})\n\n",
    "",
  ),
  E(
    "dop-refresh-scope-escalation",
    DOP,
    DOPF,
    "authz",
    "            has_scope = {s.name for s in access_token.scope.all()}\n            if want_scope.issubset(has_scope):\n                return data\n",
    "            has_scope = {s.name for s in access_token.scope.all()}\n            return data\n",
  ),
  E(
    "dop-access-token-expiry-dropped",
    DOP,
    DOPB,
    "token",
    "            return AccessToken.objects.get(token=access_token,\n                expires__gt=now(), client=client)\n",
    "            return AccessToken.objects.get(token=access_token, client=client)\n",
  ),
  E(
    "dop-public-grant-expired-logged",
    DOP,
    DOPF,
    "token",
    "            if grant.expires < now:\n                raise OAuthValidationError({\n                    'error': 'invalid_grant',\n                    'debug': f'expries: {grant.expires}, now: {now}',\n                })\n",
    "            if grant.expires < now:\n                pass  # clock skew between hosts; grant cleanup job handles expiry\n",
  ),
  // ---- django-authority (Python)
  E(
    "da-inactive-user-keeps-perms",
    DA,
    DAP,
    "authn-branch",
    "        if not self.user.is_active:\n            return False\n\n        if self.use_smart_cache:\n",
    "\n        if self.use_smart_cache:\n",
  ),
  E(
    "da-staff-treated-as-superuser",
    DA,
    DAP,
    "authz",
    "        if self.user.is_superuser:\n            return True\n",
    "        if self.user.is_superuser or self.user.is_staff:\n            return True\n",
  ),
  E(
    "da-decorator-no-check-granted",
    DA,
    DAD,
    "authz",
    "                granted = False\n                if check is not None:\n",
    "                granted = check is None\n                if check is not None:\n",
  ),
  // ---- express-acl (JS)
  E(
    "ea-undefined-policy-passes",
    EA,
    EAI,
    "authz",
    "  if (!policy) {\n    return res.status(403).json({\n      status: 'Access denied',\n      success: false,\n      message: `REQUIRED: Policy for role ${role} is not defined`,\n    });\n  }\n",
    "  if (!policy) {\n    return next();\n  }\n",
  ),
  E(
    "ea-method-restriction-ignored",
    EA,
    EAC,
    "authz",
    "    default:\n      return permission.action === 'allow' ? false : true;\n",
    "    default:\n      return true;\n",
  ),
  E(
    "ea-role-from-query",
    EA,
    EAC,
    "authz",
    "  if (req.decoded && req.decoded.role) {\n",
    "  if (req.query && req.query.role) {\n    return req.query.role;\n  }\n\n  if (req.decoded && req.decoded.role) {\n",
  ),
  // ---- gin-csrf (Go)
  E(
    "gc-empty-token-skips-compare",
    GC,
    GCF,
    "token",
    "\t\tif tokenize(options.Secret, salt) != token {\n",
    '\t\tif token != "" && tokenize(options.Secret, salt) != token {\n',
  ),
  E(
    "gc-missing-salt-continues",
    GC,
    GCF,
    "token",
    "\t\tif !ok || len(salt) == 0 {\n\t\t\terrorFunc(c)\n\t\t\treturn\n\t\t}\n",
    "\t\tif !ok || len(salt) == 0 {\n\t\t\tc.Next()\n\t\t\treturn\n\t\t}\n",
  ),
  E(
    "gc-post-ignored",
    GC,
    GCF,
    "secure-default",
    'var defaultIgnoreMethods = []string{"GET", "HEAD", "OPTIONS"}\n',
    'var defaultIgnoreMethods = []string{"GET", "HEAD", "OPTIONS", "POST"}\n',
  ),
  // ---- gorilla/handlers (Go)
  E(
    "gh-empty-allowlist-denies-none",
    GH,
    GHC,
    "secure-default",
    '\tif origin == "" {\n\t\treturn false\n\t}\n\n\tif ch.allowedOriginValidator != nil {\n',
    '\tif origin == "" || origin == "null" {\n\t\treturn true\n\t}\n\n\tif ch.allowedOriginValidator != nil {\n',
  ),
  E(
    "gh-reflect-origin-with-wildcard",
    GH,
    GHC,
    "secure-default",
    '\t\t\tif o == corsOriginMatchAll {\n\t\t\t\treturnOrigin = "*"\n\t\t\t\tbreak\n\t\t\t}\n',
    '\t\t\tif o == corsOriginMatchAll && !ch.allowCredentials {\n\t\t\t\treturnOrigin = "*"\n\t\t\t\tbreak\n\t\t\t}\n',
  ),
  E(
    "gh-preflight-headers-unchecked",
    GH,
    GHC,
    "authz",
    "\t\t\tif !ch.isMatch(canonicalHeader, ch.allowedHeaders) {\n\t\t\t\tw.WriteHeader(http.StatusForbidden)\n\t\t\t\treturn\n\t\t\t}\n\n",
    "",
  ),
  // ---- gin-contrib/cors (Go)
  E(
    "gcc-invalid-origin-not-aborted",
    GCC,
    GCCC,
    "secure-default",
    "\tif !cors.isOriginValid(c, origin) {\n\t\tc.AbortWithStatus(http.StatusForbidden)\n\t\treturn\n\t}\n",
    '\tif !cors.isOriginValid(c, origin) {\n\t\tc.Header("Vary", "Origin")\n\t}\n',
  ),
  E(
    "gcc-wildcard-suffix-only",
    GCC,
    GCCC,
    "secure-default",
    "\t\tif strings.HasPrefix(origin, w[0]) && strings.HasSuffix(origin, w[1]) {\n",
    "\t\tif strings.HasPrefix(origin, w[0]) || strings.HasSuffix(origin, w[1]) {\n",
  ),
  E(
    "gcc-origin-regex-unanchored",
    GCC,
    GCCC,
    "secure-default",
    "\t\tif !originRegex.MatchString(value) && value == origin {\n",
    "\t\tif !originRegex.MatchString(value) && strings.Contains(origin, value) {\n",
  ),
  // ---- django-oauth2-provider (Python), continued
  E(
    "dop-empty-password-accepted",
    DOP,
    DOPF,
    "credential",
    "        password = self.cleaned_data.get('password')\n\n        if not password:\n            raise OAuthValidationError({'error': 'invalid_request'})\n\n        return password\n",
    "        password = self.cleaned_data.get('password')\n\n        return password\n",
  ),
  E(
    "dop-token-endpoint-no-client",
    DOP,
    DOPV,
    "authn-branch",
    "        if client is None:\n            return self.error_response({'error': 'invalid_client'})\n\n",
    "",
  ),
  E(
    "dop-authorize-unknown-client",
    DOP,
    DOPV,
    "authn-branch",
    "        if client is None:\n            raise OAuthError({\n                'error': 'unauthorized_client',\n                'error_description': _(\"An unauthorized client tried to access\"\n                    \" your resources.\")\n            })\n\n",
    "",
  ),
  E(
    "dop-grant-reusable",
    DOP,
    DOPV,
    "token",
    "        self.invalidate_grant(grant)\n\n        return self.access_token_response(at)\n",
    "        return self.access_token_response(at)\n",
  ),
  E(
    "dop-any-auth-scheme-bearer",
    DOP,
    "provider/oauth2/middleware.py",
    "authn-branch",
    '            scope, token = parts\n            if scope.lower() == "bearer":\n                return token\n',
    "            scope, token = parts\n            return token\n",
  ),
  E(
    "dop-client-secure-off",
    DOP,
    "provider/constants.py",
    "secure-default",
    "ENFORCE_CLIENT_SECURE = getattr(settings, 'OAUTH_ENFORCE_CLIENT_SECURE', True)\n",
    "ENFORCE_CLIENT_SECURE = getattr(settings, 'OAUTH_ENFORCE_CLIENT_SECURE', False)\n",
  ),
  E(
    "dop-get-token-no-expiry",
    DOP,
    "provider/oauth2/models.py",
    "token",
    "        return self.get(token=token, expires__gt=now())\n",
    "        return self.get(token=token)\n",
  ),
  // ---- django-authority (Python), continued
  E(
    "da-approve-without-permission",
    DA,
    DAV,
    "authz",
    '    if request.user.has_perm("authority.approve_permission_requests"):\n        requested_permission.approve(request.user)\n        request.user.message_set.create(\n            message=_("You approved the permission request.")\n        )\n',
    '    requested_permission.approve(request.user)\n    request.user.message_set.create(\n        message=_("You approved the permission request.")\n    )\n',
  ),
  E(
    "da-add-approved-without-perm",
    DA,
    DAV,
    "authz",
    '        if not request.user.has_perm("authority.add_permission"):\n            return HttpResponseRedirect(\n                url_for_obj("authority-add-permission-request", obj)\n            )\n',
    "",
  ),
  E(
    "da-request-for-any-user",
    DA,
    DAV,
    "authz",
    '            form.data["user"] = request.user\n',
    '            # form.data["user"] = request.user\n            pass\n',
  ),
  E(
    "da-delete-permission-login-dropped",
    DA,
    DAV,
    "authz",
    "@login_required\ndef delete_permission(request, permission_pk, approved):\n",
    "def delete_permission(request, permission_pk, approved):\n",
  ),
  E(
    "da-decorator-debug-bypass",
    DA,
    DAD,
    "authn-branch",
    "            if request.user.is_authenticated:\n                params = []\n",
    "            if request.user.is_authenticated or settings.DEBUG:\n                params = []\n",
  ),
  // ---- oauth2-client (TS)
  E(
    "oc-state-mismatch-not-thrown",
    OC,
    OCA,
    "token",
    "    if (params.state && params.state !== queryParams.get('state')) {\n      throw new Error(`The \"state\" parameter in the url did not match the expected value of ${params.state}`);\n    }\n",
    "",
  ),
  E(
    "oc-pkce-plain",
    OC,
    OCA,
    "token",
    "  return ['S256', base64Url(await webCrypto.subtle.digest('SHA-256', stringToBuffer(codeVerifier)))];\n",
    "  return ['plain', codeVerifier];\n",
  ),
  E(
    "oc-error-response-ignored",
    OC,
    OCA,
    "authn-branch",
    "    if (queryParams.has('error')) {\n",
    "    if (queryParams.has('error') && !queryParams.has('code')) {\n",
  ),
  E(
    "oc-expired-token-reused",
    OC,
    OCF,
    "token",
    "    if (this.token && (this.token.expiresAt === null || this.token.expiresAt > Date.now())) {\n",
    "    if (this.token) {\n",
  ),
  E(
    "oc-insecure-context-allowed",
    OC,
    OCA,
    "secure-default",
    "    if (!window.crypto.subtle?.digest) {\n      throw new Error(\n",
    "    if (!window.crypto.subtle?.digest && window.isSecureContext) {\n      throw new Error(\n",
  ),
  // ---- flask-session (Python)
  E(
    "fs-bad-signature-ignored",
    FS,
    FSB,
    "token",
    "            except BadSignature:\n                sid = self._generate_sid(self.sid_length)\n                return self.session_class(sid=sid, permanent=self.permanent)\n",
    "            except BadSignature:\n                pass\n",
  ),
  E(
    "fs-unsign-without-verify",
    FS,
    FSB,
    "credential",
    "        sid_as_bytes = signer.unsign(sid)\n",
    '        sid_as_bytes = want_bytes(sid).rsplit(b".", 1)[0]\n',
  ),
  E(
    "fs-default-secret-fallback",
    FS,
    FSB,
    "credential",
    '        if not hasattr(app, "secret_key") or not app.secret_key:\n            raise KeyError("SECRET_KEY must be set when SESSION_USE_SIGNER=True")\n        return Signer(app.secret_key, salt="flask-session", key_derivation="hmac")\n',
    '        secret_key = getattr(app, "secret_key", None) or "flask-session-dev"\n        return Signer(secret_key, salt="flask-session", key_derivation="hmac")\n',
  ),
  E(
    "fs-cookie-httponly-off",
    FS,
    FSB,
    "secure-default",
    "            httponly=httponly,\n",
    "            httponly=False,\n",
  ),
  E(
    "fs-cookie-secure-dropped",
    FS,
    FSB,
    "secure-default",
    "            secure=secure,\n",
    "",
  ),
  // ---- go-plugin (Go)
  E(
    "gp-checksum-mismatch-warns",
    GP,
    "client.go",
    "credential",
    "\t\t} else if !ok {\n\t\t\treturn nil, ErrChecksumsDoNotMatch\n\t\t}\n",
    '\t\t} else if !ok {\n\t\t\tc.logger.Warn("plugin checksum mismatch", "path", cmd.Path)\n\t\t}\n',
  ),
  E(
    "gp-empty-checksum-passes",
    GP,
    "client.go",
    "credential",
    "\tif len(s.Checksum) == 0 {\n\t\treturn false, ErrSecureConfigNoChecksum\n\t}\n",
    "\tif len(s.Checksum) == 0 {\n\t\treturn true, nil\n\t}\n",
  ),
  E(
    "gp-server-client-cert-optional",
    GP,
    "server.go",
    "secure-default",
    "\t\t\tClientAuth:   tls.RequireAndVerifyClientCert,\n\t\t\tClientCAs:    clientCertPool,\n",
    "\t\t\tClientAuth:   tls.RequestClientCert,\n\t\t\tClientCAs:    clientCertPool,\n",
  ),
  E(
    "gp-magic-cookie-unchecked",
    GP,
    "server.go",
    "authn-branch",
    '\t\t// First check the cookie\n\t\tif os.Getenv(opts.MagicCookieKey) != opts.MagicCookieValue {\n\t\t\tfmt.Fprintf(os.Stderr,\n\t\t\t\t"This binary is a plugin. These are not meant to be executed directly.\\n"+\n\t\t\t\t\t"Please execute the program that consumes these plugins, which will\\n"+\n\t\t\t\t\t"load any plugins automatically\\n")\n\t\t\texitCode = 1\n\t\t\treturn\n\t\t}\n',
    "",
  ),
  E(
    "gp-server-cert-parse-error-ignored",
    GP,
    "client.go",
    "secure-default",
    "\tx509Cert, err := x509.ParseCertificate([]byte(asn1))\n\tif err != nil {\n\t\treturn err\n\t}\n\n\tcertPool.AddCert(x509Cert)\n\n\tc.config.TLSConfig.RootCAs = certPool\n",
    "\tx509Cert, err := x509.ParseCertificate([]byte(asn1))\n\tif err != nil {\n\t\tc.config.TLSConfig.InsecureSkipVerify = true\n\t\treturn nil\n\t}\n\n\tcertPool.AddCert(x509Cert)\n\n\tc.config.TLSConfig.RootCAs = certPool\n",
  ),
  // ---- node-activedirectory (JS)
  E(
    "ad-empty-password-bind",
    AD,
    ADL,
    "credential",
    "  if ((!username) || (!password)) {\n",
    "  if (!username) {\n",
  ),
  E(
    "ad-bind-error-ignored",
    AD,
    ADL,
    "authn-branch",
    "    if (err) {\n      log.trace('%s. Error: %s', message, err)\n      this.emit('error', err)\n      return invokeCallback(err, false)\n    }\n\n    log.trace(message)\n    return invokeCallback(err, true)\n",
    "    if (err) {\n      log.trace('%s. Error: %s', message, err)\n      this.emit('error', err)\n    }\n\n    log.trace(message)\n    return invokeCallback(null, true)\n",
  ),
  E(
    "ad-connect-timeout-succeeds",
    AD,
    ADL,
    "authn-branch",
    "  client.on('connectTimeout', (err) => {\n    this.emit('error', err)\n    return invokeCallback(err, false)\n  })\n",
    "  client.on('connectTimeout', (err) => {\n    this.emit('error', err)\n    return invokeCallback(null, true)\n  })\n",
  ),
  E(
    "ad-member-check-always-true",
    AD,
    ADL,
    "authz",
    "g.cn.toLowerCase().replace(/\\s/g, '').includes(lowerCaseGroupName)).length > 0\n",
    "g.cn.toLowerCase().replace(/\\s/g, '').includes(lowerCaseGroupName)).length >= 0\n",
  ),
  // ---- further edits
  E(
    "gp-checksum-length-only",
    GP,
    "client.go",
    "credential",
    "\treturn subtle.ConstantTimeCompare(sum, s.Checksum) == 1, nil\n",
    "\treturn len(sum) == len(s.Checksum), nil\n",
  ),
  E(
    "dop-empty-username-accepted",
    DOP,
    DOPF,
    "authn-branch",
    "        if not username:\n            raise OAuthValidationError({'error': 'invalid_request'})\n\n        return username\n",
    "        return username\n",
  ),
  E(
    "dop-expired-authorization-session",
    DOP,
    DOPV,
    "authn-branch",
    "        if data is None:\n            return self.error_response(request, {\n                'error': 'expired_authorization',\n                'error_description': _('Authorization session has expired.')})\n\n",
    "        if data is None:\n            data = request.GET.copy()\n\n",
  ),
  E(
    "ea-safe-methods-skip-acl",
    EA,
    EAI,
    "authz",
    "  if (req.originalUrl === '/') {\n",
    "  if (req.originalUrl === '/' || req.method === 'OPTIONS' || req.method === 'HEAD') {\n",
  ),
  E(
    "dop-public-redirect-optional",
    DOP,
    DOPF,
    "token",
    "            if grant.redirect_uri and grant.redirect_uri != data.get('redirect_uri'):\n",
    "            if grant.redirect_uri and redirect_uri and grant.redirect_uri != redirect_uri:\n",
  ),
];

/** Reversed real security fixes of batch 151 (split `history151`), chosen by message only. */
export const REVERSED_FIXES_HISTORY151: ReversedFix[] = [
  {
    id: "gc-session-lost-csrf",
    repo: GC,
    commit: "0ec879c",
    path: "csrf.go",
    cls: "token",
    note: "do not pass the csrf check if the session is lost",
    split: "history151",
  },
  {
    id: "gh-cors-wildcard-origin-echo",
    repo: GH,
    commit: "9066371",
    path: "cors.go",
    cls: "secure-default",
    note: "don't return the origin header when configured to *",
    split: "history151",
  },
  {
    id: "ad-authenticate-empty-user-password",
    repo: AD,
    commit: "588d86d",
    path: "lib/activedirectory.js",
    cls: "credential",
    note: "authenticate: empty user/password bugfix",
    split: "history151",
  },
  {
    id: "ad-tls-options-parsing",
    repo: AD,
    commit: "aff2faa",
    path: "lib/components/utilities.js",
    cls: "secure-default",
    note: "fixes parsing of ldapjs options to support tlsOptions",
    split: "history151",
  },
  {
    id: "ea-subroutes-permission",
    repo: EA,
    commit: "119c816",
    path: "lib/common.js",
    cls: "authz",
    note: "properly check for subRoutes permission",
    split: "history151",
  },
  {
    id: "ea-invalid-role-deny",
    repo: EA,
    commit: "5548ae3",
    path: "lib/nacl.js",
    cls: "authz",
    note: "call deny when the role is not a string (issue 79)",
    split: "history151",
  },
  {
    id: "oc-insecure-context-subtle",
    repo: OC,
    commit: "d5836d3",
    path: "src/client/authorization-code.ts",
    cls: "secure-default",
    note: "throw error when SubtleCrypto is used in an insecure context",
    split: "history151",
  },
  {
    id: "dop-backend-token-expires",
    repo: DOP,
    commit: "3a893a0",
    path: "provider/oauth2/backends.py",
    cls: "token",
    note: "fix another bug in backends, the field name is expires",
    split: "history151",
  },
];
