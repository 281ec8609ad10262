/**
 * Forty-eighth held-out batch of the guard-removal corpus: removals written by reading the
 * security code of projects not otherwise used by the corpus (PyMySQL, asyncpg, websocket-client,
 * Scrapy, Kombu, Vite, http-server, code-server, Deluge, Glances, mongo-express), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const HIST = "history48" as const;
const PM = "PyMySQL/PyMySQL";
const PMC = "pymysql/connections.py";
const AP = "MagicStack/asyncpg";
const APC = "asyncpg/connect_utils.py";
const WC = "websocket-client/websocket-client";
const SC = "scrapy/scrapy";
const SCR = "scrapy/downloadermiddlewares/redirect.py";
const KB = "celery/kombu";
const KBS = "kombu/serialization.py";
const VT = "vitejs/vite";
const VTS = "packages/vite/src/node/server/middlewares/static.ts";
const VTW = "packages/vite/src/node/server/ws.ts";
const HS = "http-party/http-server";
const HSM = "lib/http-server.js";
const CS = "coder/code-server";
const CSH = "src/node/http.ts";
const CSU = "src/node/util.ts";
const CSP = "src/node/routes/pathProxy.ts";
const DL = "deluge-torrent/deluge";
const DLW = "deluge/ui/web/auth.py";
const GL = "nicolargo/glances";
const GLJ = "glances/jwt_utils.py";
const GLR = "glances/outputs/glances_restful_api.py";
const ME = "mongo-express/mongo-express";
const MEA = "lib/auth.js";
const MER = "lib/router.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout48");

/** The forty-eighth held-out batch of edits (split `heldout48`). */
export const EDITS_HELDOUT48: GuardEdit[] = [
  // ---- PyMySQL (Python)
  E(
    "pm-check-hostname-default-off",
    PM,
    PMC,
    "secure-default",
    '        ctx.check_hostname = not hasnoca and sslp.get("check_hostname", True)\n',
    '        ctx.check_hostname = not hasnoca and sslp.get("check_hostname", False)\n',
  ),
  E(
    "pm-verify-cert-true-optional",
    PM,
    PMC,
    "secure-default",
    "            ctx.verify_mode = ssl.CERT_REQUIRED if verify_mode_value else ssl.CERT_NONE\n",
    "            ctx.verify_mode = ssl.CERT_OPTIONAL if verify_mode_value else ssl.CERT_NONE\n",
  ),
  E(
    "pm-required-ssl-plaintext-fallback",
    PM,
    PMC,
    "secure-default",
    '            elif self._ssl_required:\n                raise err.OperationalError(\n                    CR.CR_SSL_CONNECTION_ERROR,\n                    "SSL is required but the server doesn\'t support it",\n                )\n',
    "",
  ),
  E(
    "pm-sha256-cleartext-without-key",
    PM,
    "pymysql/_auth.py",
    "credential",
    "def sha256_password_auth(conn, pkt):\n    if conn._secure:\n",
    "def sha256_password_auth(conn, pkt):\n    if conn._secure or not conn.server_public_key:\n",
  ),
  // ---- asyncpg (Python / Cython)
  E(
    "ap-verify-full-hostname-never",
    AP,
    APC,
    "secure-default",
    "            ssl.check_hostname = sslmode >= SSLMode.verify_full\n",
    "            ssl.check_hostname = sslmode > SSLMode.verify_full\n",
  ),
  E(
    "ap-ssl-refusal-downgrade-any-mode",
    AP,
    APC,
    "secure-default",
    "        elif (self.ssl_is_advisory and\n                self.ssl_context.verify_mode == ssl_module.CERT_NONE and\n                data == b'N'):\n",
    "        elif data == b'N':\n",
  ),
  E(
    "ap-scram-server-signature-ignored",
    AP,
    "asyncpg/protocol/coreproto.pyx",
    "credential",
    "            if not self.scram.verify_server_final_message(server_response):\n                self.result_type = RESULT_FAILED\n                self.result = apg_exc.InterfaceError(\n                    'could not verify server signature for '\n                    'SCRAM authentciation: scram-sha-256',\n                )\n",
    "            self.scram.verify_server_final_message(server_response)\n",
  ),
  E(
    "ap-scram-nonce-prefix-unchecked",
    AP,
    "asyncpg/protocol/scram.pyx",
    "token",
    '        if not self.server_nonce.startswith(self.client_nonce):\n            raise Exception("invalid nonce")\n',
    "",
  ),
  // ---- websocket-client (Python)
  E(
    "wc-default-cert-reqs-none",
    WC,
    "websocket/_http.py",
    "secure-default",
    '    sslopt: dict = {"cert_reqs": ssl.CERT_REQUIRED}\n',
    '    sslopt: dict = {"cert_reqs": ssl.CERT_NONE}\n',
  ),
  E(
    "wc-accept-mismatch-logged",
    WC,
    "websocket/_handshake.py",
    "token",
    "    if hmac.compare_digest(hashed, result):\n        return True, subproto\n    else:\n        return False, None\n",
    '    if not hmac.compare_digest(hashed, result):\n        error("Sec-WebSocket-Accept mismatch")\n    return True, subproto\n',
  ),
  // ---- Scrapy (Python)
  E(
    "sc-authorization-kept-cross-host",
    SC,
    SCR,
    "secure-default",
    "                source_scheme != redirect_scheme\n                or source_host != redirect_host\n                or source_port != redirect_port\n",
    "                source_scheme != redirect_scheme\n",
  ),
  E(
    "sc-proxy-authorization-kept-on-scheme-change",
    SC,
    SCR,
    "secure-default",
    '                redirect_request.headers.pop(b"Proxy-Authorization", None)\n',
    "",
  ),
  E(
    "sc-httpauth-domain-ignored",
    SC,
    "scrapy/downloadermiddlewares/httpauth.py",
    "secure-default",
    "        if self._auth and (\n            not self._domain or url_is_from_any_domain(request.url, [self._domain])\n        ):\n",
    "        if self._auth:\n",
  ),
  // ---- Kombu (Python)
  E(
    "kb-empty-accept-allows-any",
    KB,
    KBS,
    "authz",
    "            if content_type not in _trusted_content \\\n                    and content_type not in accept:\n",
    "            if content_type not in _trusted_content \\\n                    and accept and content_type not in accept:\n",
  ),
  E(
    "kb-disabled-type-force-inverted",
    KB,
    KBS,
    "authz",
    "            if content_type in self._disabled_content_types and not force:\n",
    "            if content_type in self._disabled_content_types and force:\n",
  ),
  E(
    "kb-insecure-serializers-left-enabled",
    KB,
    KBS,
    "secure-default",
    "# Insecure serializers are disabled by default since v3.0\ndisable_insecure_serializers()\n",
    "# Insecure serializers are disabled by default since v3.0\n# disable_insecure_serializers()\n",
  ),
  // ---- Vite (TS)
  E(
    "vt-host-check-only-https",
    VT,
    "packages/vite/src/node/server/index.ts",
    "authz",
    "  if (allowedHosts !== true && !serverConfig.https) {\n",
    "  if (allowedHosts !== true && serverConfig.https) {\n",
  ),
  E(
    "vt-raw-query-single-check",
    VT,
    "packages/vite/src/node/server/middlewares/transform.ts",
    "authz",
    "      checkLoadingAccess(config, cleanUrl(id)) !== 'allowed' ||\n      checkLoadingAccess(config, id) !== 'allowed'\n",
    "      checkLoadingAccess(config, cleanUrl(id)) === 'denied'\n",
  ),
  E(
    "vt-deny-glob-skipped",
    VT,
    VTS,
    "authz",
    "  if (config.fsDenyGlob(filePathWithoutTrailingSlash)) return false\n",
    "",
  ),
  E(
    "vt-ads-colon-path-allowed",
    VT,
    VTS,
    "authz",
    "  if (hasColon) {\n    // the `:` is included in the path which may be used for NTFS ADS\n    return false\n  }\n",
    "",
  ),
  E(
    "vt-readable-outside-allow-falls-back",
    VT,
    VTS,
    "authz",
    "  if (isFileReadable(path)) {\n    return 'denied'\n  }\n",
    "",
  ),
  E(
    "vt-ws-host-check-removed",
    VT,
    VTW,
    "authz",
    "    if (\n      allowedHosts !== true &&\n      !isHostAllowed(req.headers.host, allowedHosts)\n    ) {\n      return false\n    }\n\n",
    "",
  ),
  E(
    "vt-ws-token-prefix-match",
    VT,
    VTW,
    "token",
    "  try {\n    const isValidToken = crypto.timingSafeEqual(\n      Buffer.from(token),\n      Buffer.from(config.webSocketToken),\n    )\n    return isValidToken\n  } catch {} // an error is thrown when the length is incorrect\n  return false\n",
    "  return config.webSocketToken.startsWith(token)\n",
  ),
  E(
    "vt-ws-browser-token-only-warned",
    VT,
    VTW,
    "token",
    "      return hasValidToken(config, parsedUrl)\n",
    "      if (!hasValidToken(config, parsedUrl)) {\n        config.logger.warn('ws connection without a valid token')\n      }\n",
  ),
  // ---- http-server (JS)
  E(
    "hs-password-not-required",
    HS,
    HSM,
    "credential",
    "        if (usernameEqual && passwordEqual) {\n",
    "        if (usernameEqual) {\n",
  ),
  E(
    "hs-password-prefix-match",
    HS,
    HSM,
    "credential",
    "        var passwordEqual = secureCompare(options.password.toString(), credentials.pass);\n",
    "        var passwordEqual = options.password.toString().startsWith(credentials.pass);\n",
  ),
  E(
    "hs-half-configured-auth-disabled",
    HS,
    HSM,
    "authn-branch",
    "  if (options.username || options.password) {\n    if (!options.username || !options.password) {\n      throw new Error('Basic authentication requires both username and password to be specified');\n    }\n\n",
    "  if (options.username && options.password) {\n",
  ),
  E(
    "hs-outside-root-served",
    HS,
    "lib/core/index.js",
    "authz",
    "    if (file.slice(0, root.length) !== root) {\n      status[403](res, next);\n      return;\n    }\n",
    "",
  ),
  // ---- code-server (TS)
  E(
    "cs-ensure-authenticated-no-throw",
    CS,
    CSH,
    "authn-branch",
    '  const isAuthenticated = await authenticated(req)\n  if (!isAuthenticated) {\n    throw new HttpError("Unauthorized", HttpCode.Unauthorized)\n  }\n  if (next) {\n',
    "  await authenticated(req)\n  if (next) {\n",
  ),
  E(
    "cs-cookie-hash-prefix",
    CS,
    CSU,
    "credential",
    "      isValid = safeCompare(cookieKey, hashedPasswordFromArgs)\n",
    "      isValid = !!cookieKey && hashedPasswordFromArgs.startsWith(cookieKey)\n",
  ),
  E(
    "cs-plaintext-unset-password-accepts",
    CS,
    CSU,
    "credential",
    "      const isValid = passwordFromArgs ? safeCompare(passwordFromRequestBody, passwordFromArgs) : false\n",
    "      const isValid = passwordFromArgs ? safeCompare(passwordFromRequestBody, passwordFromArgs) : true\n",
  ),
  E(
    "cs-origin-mismatch-warned",
    CS,
    CSH,
    "authz",
    '  if (host !== origin) {\n    throw new Error(`host "${host}" does not match origin "${origin}"`)\n  }\n',
    '  if (host !== origin) {\n    logger.warn(`host "${host}" does not match origin "${origin}"`)\n  }\n',
  ),
  E(
    "cs-login-rate-limit-removed",
    CS,
    "src/node/routes/login.ts",
    "authn-branch",
    '    // Check to see if they exceeded their login attempts\n    if (!limiter.canTry()) {\n      throw new Error(i18n.t("LOGIN_RATE_LIMIT") as string)\n    }\n\n',
    "",
  ),
  E(
    "cs-mint-key-unauthenticated",
    CS,
    "src/node/routes/vscode.ts",
    "authz",
    'router.post("/mint-key", ensureAuthenticated, async (req, res) => {\n',
    'router.post("/mint-key", async (req, res) => {\n',
  ),
  E(
    "cs-ws-path-proxy-unauthenticated",
    CS,
    CSP,
    "authn-branch",
    "  ensureOrigin(req)\n  await ensureAuthenticated(req)\n",
    "  ensureOrigin(req)\n",
  ),
  E(
    "cs-path-proxy-preflight-flag-any-method",
    CS,
    CSP,
    "authn-branch",
    '  if (req.method === "OPTIONS" && req.args["skip-auth-preflight"]) {\n    // Allow preflight requests with `skip-auth-preflight` flag\n  } else if',
    '  if (req.method === "OPTIONS" || req.args["skip-auth-preflight"]) {\n    // Allow preflight requests with `skip-auth-preflight` flag\n  } else if',
  ),
  // ---- Deluge (Python)
  E(
    "dl-rpc-auth-level-logged-only",
    DL,
    "deluge/core/rpcserver.py",
    "authz",
    "            if auth_level < method_auth_requirement:\n                # This session is not allowed to call this method\n                log.debug(\n                    'Session %s is attempting an unauthorized method call!',\n                    self.transport.sessionno,\n                )\n                raise NotAuthorizedError(auth_level, method_auth_requirement)\n",
    "            if auth_level < method_auth_requirement:\n                # This session is not allowed to call this method\n                log.debug(\n                    'Session %s is attempting an unauthorized method call!',\n                    self.transport.sessionno,\n                )\n",
  ),
  E(
    "dl-empty-password-accepted",
    DL,
    "deluge/core/authmanager.py",
    "credential",
    "        if self.__auth[username].password == password:\n",
    "        if self.__auth[username].password == password or not password:\n",
  ),
  E(
    "dl-unknown-user-default-level",
    DL,
    "deluge/core/authmanager.py",
    "authn-branch",
    "            if username not in self.__auth:\n                raise BadLoginError('Username does not exist', username)\n",
    "            if username not in self.__auth:\n                return AUTH_LEVEL_DEFAULT\n",
  ),
  E(
    "dl-web-no-stored-password-true",
    DL,
    DLW,
    "credential",
    "            log.debug('Failed to find config login details.')\n            return False\n",
    "            log.debug('Failed to find config login details.')\n            return True\n",
  ),
  E(
    "dl-web-missing-level-none",
    DL,
    DLW,
    "authz",
    "        if level is None:\n            raise Exception('No level specified to check against')\n",
    "        if level is None:\n            level = AUTH_LEVEL_NONE\n",
  ),
  E(
    "dl-web-expired-sessions-kept",
    DL,
    DLW,
    "token",
    "            if time.gmtime(session['expires']) < now:\n                del self.config['sessions'][session_id]\n                continue\n",
    "",
  ),
  E(
    "dl-web-change-password-old-unchecked",
    DL,
    DLW,
    "credential",
    "        if not self.check_password(old_password):\n            return False\n        return self._change_password(new_password)\n",
    "        return self._change_password(new_password)\n",
  ),
  E(
    "dl-web-change-password-level-none",
    DL,
    DLW,
    "authz",
    "    @export\n    def change_password(self, old_password, new_password):\n",
    "    @export(AUTH_LEVEL_NONE)\n    def change_password(self, old_password, new_password):\n",
  ),
  // ---- Glances (Python)
  E(
    "gl-jwt-unverified-claims",
    GL,
    GLJ,
    "token",
    "            payload = jwt.decode(token, self._secret_key, algorithms=[self.ALGORITHM])\n",
    "            payload = jwt.get_unverified_claims(token)\n",
  ),
  E(
    "gl-jwt-expiry-not-verified",
    GL,
    GLJ,
    "token",
    "            payload = jwt.decode(token, self._secret_key, algorithms=[self.ALGORITHM])\n",
    '            payload = jwt.decode(token, self._secret_key, algorithms=[self.ALGORITHM], options={"verify_exp": False})\n',
  ),
  E(
    "gl-jwt-fixed-fallback-secret",
    GL,
    GLJ,
    "token",
    "            self._secret_key = secret_key or secrets.token_urlsafe(32)\n",
    '            self._secret_key = secret_key or "glances"\n',
  ),
  E(
    "gl-rest-bearer-any-subject",
    GL,
    GLR,
    "token",
    "                if username is not None and username == self.args.username:\n",
    "                if username is not None:\n",
  ),
  E(
    "gl-mcp-bearer-any-subject",
    GL,
    GLR,
    "token",
    "            return username == self._api.args.username\n",
    "            return username is not None\n",
  ),
  E(
    "gl-mcp-basic-password-ignored",
    GL,
    GLR,
    "credential",
    "                if username == self._api.args.username:\n                    return self._api._password.check_password(\n                        self._api.args.password,\n                        self._api._password.get_hash(password),\n                    )\n",
    "                if username == self._api.args.username:\n                    return bool(password)\n",
  ),
  E(
    "gl-token-endpoint-password-unchecked",
    GL,
    GLR,
    "authn-branch",
    '        # Check password\n        if not self._password.check_password(self.args.password, self._password.get_hash(password)):\n            raise HTTPException(\n                status.HTTP_401_UNAUTHORIZED,\n                "Incorrect authentication",\n                {"WWW-Authenticate": "Bearer"},\n            )\n\n',
    "",
  ),
  E(
    "gl-rest-basic-any-username",
    GL,
    GLR,
    "authn-branch",
    "        if basic_creds.username == self.args.username:\n",
    "        if basic_creds.username:\n",
  ),
  E(
    "gl-mcp-unauthenticated-passed-through",
    GL,
    GLR,
    "authn-branch",
    "        if self._is_authenticated(scope):\n            await self._app(scope, receive, send)\n        else:\n            await self._send_401(scope, receive, send)\n",
    '        if not self._is_authenticated(scope):\n            logger.debug("MCP request without valid credentials")\n        await self._app(scope, receive, send)\n',
  ),
  E(
    "gl-router-auth-dependency-dropped",
    GL,
    GLR,
    "authz",
    "            router = APIRouter(prefix=self.url_prefix, dependencies=[Depends(self.authentication)])\n",
    "            router = APIRouter(prefix=self.url_prefix)\n",
  ),
  // ---- mongo-express (JS)
  E(
    "me-csrf-off-outside-production",
    ME,
    "app.js",
    "authz",
    "  app.use(config.site.baseUrl, csrf(process.env.NODE_ENV === 'test'\n",
    "  app.use(config.site.baseUrl, csrf(process.env.NODE_ENV !== 'production'\n",
  ),
  E(
    "me-credentials-either-matches",
    ME,
    MEA,
    "credential",
    "  return userMatches && passwordMatches;\n",
    "  return userMatches || passwordMatches;\n",
  ),
  E(
    "me-safe-equal-prefix",
    ME,
    MEA,
    "credential",
    "  if (left.length !== right.length) {\n    // Still do the comparison, against ourselves, so the work is the same either way.\n    timingSafeEqual(left, left);\n    return false;\n  }\n\n  return timingSafeEqual(left, right);\n",
    "  if (left.length > right.length) {\n    // Still do the comparison, against ourselves, so the work is the same either way.\n    timingSafeEqual(left, left);\n    return false;\n  }\n\n  return timingSafeEqual(left, right.subarray(0, left.length));\n",
  ),
  E(
    "me-open-paths-substring",
    ME,
    MEA,
    "authn-branch",
    "    if (req.session?.authenticated === true || allowed.has(req.originalUrl.split('?', 1)[0])) {\n",
    "    if (req.session?.authenticated === true || [...allowed].some((path) => req.originalUrl.includes(path))) {\n",
  ),
  E(
    "me-sign-in-limiter-dropped",
    ME,
    MER,
    "authn-branch",
    "    appRouter.post(loginPath(config), signInLimiter, (req, res) => {\n",
    "    appRouter.post(loginPath(config), (req, res) => {\n",
  ),
  E(
    "me-require-login-unmounted",
    ME,
    MER,
    "authz",
    "    appRouter.use(requireLogin(config));\n",
    "    // appRouter.use(requireLogin(config));\n",
  ),
];

/** Reversed real security fixes of the forty-eighth batch (split `history48`), chosen by message only. */
export const REVERSED_FIXES_HISTORY48: ReversedFix[] = [
  {
    id: "vt-fs-deny-trailing-slash",
    repo: VT,
    commit: "f479cc57c4",
    path: VTS,
    cls: "authz",
    note: "fix(dev): trim trailing slash before server.fs.deny check (#20968)",
    split: HIST,
  },
  {
    id: "vt-dns-rebinding-host-check",
    repo: VT,
    commit: "bd896fb5f3",
    path: "packages/vite/src/node/server/index.ts",
    cls: "authz",
    note:
      "fix!: check host header to prevent DNS rebinding attacks and introduce server.allowedHosts",
    split: HIST,
  },
  {
    id: "vt-fs-allow-reencode-url",
    repo: VT,
    commit: "b8356991c0",
    path: VTS,
    cls: "authz",
    note: "fix: re-encode url to prevent fs.allow bypass (fixes #8498) (#8979)",
    split: HIST,
  },
  {
    id: "vt-fs-deny-double-slash",
    repo: VT,
    commit: "813ddd6155",
    path: VTS,
    cls: "authz",
    note: "fix: fs.deny with leading double slash (#13348)",
    split: HIST,
  },
  {
    id: "sc-authorization-cross-domain-redirect",
    repo: SC,
    commit: "080fecd89",
    path: SCR,
    cls: "secure-default",
    note: "Drop the Authorization header on cross-domain redirect",
    split: HIST,
  },
  {
    id: "sc-GHSA-9x8m-2xpf-crp3",
    repo: SC,
    commit: "af7dd16d8",
    path: "scrapy/downloadermiddlewares/httpproxy.py",
    cls: "secure-default",
    note: "Merge pull request from GHSA-9x8m-2xpf-crp3 (proxy credentials handling)",
    split: HIST,
  },
  {
    id: "sc-GHSA-mfjm-vh54-3f96",
    repo: SC,
    commit: "e865c4430",
    path: "scrapy/downloadermiddlewares/cookies.py",
    cls: "secure-default",
    note: "Merge pull request from GHSA-mfjm-vh54-3f96 (cookie domain handling)",
    split: HIST,
  },
  {
    id: "sc-GHSA-cjvr-mfj7-j4j8",
    repo: SC,
    commit: "8ce01b3b7",
    path: SCR,
    cls: "secure-default",
    note: "Merge pull request from GHSA-cjvr-mfj7-j4j8 (headers on cross-domain redirect)",
    split: HIST,
  },
  {
    id: "hs-password-without-user-fails",
    repo: HS,
    commit: "d2c7a5f",
    path: HSM,
    cls: "authn-branch",
    note: "fix: fail fast on --password without --user (#937)",
    split: HIST,
  },
];
