/**
 * Fifty-second held-out batch of the guard-removal corpus: removals written by reading the
 * security code of projects not otherwise used by the corpus (holoviz/panel, mautrix/python,
 * bokeh, pyftpdlib, voila, nicegui, express-admin, lad, imapflow, kuzzle), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H52 = "heldout52" as const;
const PN = "holoviz/panel";
const PNA = "panel/auth.py";
const MX = "mautrix/python";
const MXH = "mautrix/appservice/as_handler.py";
const BK = "bokeh/bokeh";
const BKT = "src/bokeh/util/token.py";
const BKW = "src/bokeh/server/views/ws.py";
const FTP = "giampaolo/pyftpdlib";
const FTPA = "pyftpdlib/authorizers.py";
const FTPC = "pyftpdlib/handlers/ftp/control.py";
const VO = "voila-dashboards/voila";
const NG = "zauberzeug/nicegui";
const EA = "simov/express-admin";
const LAD = "ladjs/lad";
const LADA = "template/app/controllers/web/auth.js";
const IMF = "postalsys/imapflow";
const IMFF = "lib/imap-flow.js";
const KZ = "kuzzleio/kuzzle";
const KZT = "lib/core/security/tokenRepository.ts";
const KZF = "lib/api/funnel.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H52);

/** The fifty-second held-out batch of edits (split `heldout52`). */
export const EDITS_HELDOUT52: GuardEdit[] = [
  // ---- holoviz/panel (Python)
  E(
    "pn-basic-auth-unknown-user",
    PN,
    PNA,
    "credential",
    "            if username not in auth_info:\n                return False\n            return password == auth_info[username]\n",
    "            return password == auth_info.get(username, password)\n",
  ),
  E(
    "pn-oauth-state-mismatch-logged",
    PN,
    PNA,
    "token",
    '            if cookie_state != url_state:\n                log.warning("OAuth state mismatch: %s != %s", cookie_state, url_state)\n                raise HTTPError(401, "OAuth state mismatch. Please restart the authentication flow.", reason=\'state mismatch\')\n',
    '            if cookie_state != url_state:\n                log.warning("OAuth state mismatch: %s != %s", cookie_state, url_state)\n',
  ),
  E(
    "pn-oauth-user-none",
    PN,
    PNA,
    "authn-branch",
    '            if user is None:\n                raise HTTPError(403, "Permissions unknown.")\n',
    "",
  ),
  E(
    "pn-refresh-expiry-ignored",
    PN,
    PNA,
    "token",
    "                    if refresh_json['exp'] < now_ts:\n                        refresh_token = None\n",
    "                    # if refresh_json['exp'] < now_ts:\n                    #     refresh_token = None\n                    pass\n",
  ),
  E(
    "pn-guest-always",
    PN,
    PNA,
    "authn-branch",
    "        if config.oauth_optional and not (uri == self._login_endpoint or '?code=' in uri):\n",
    "        if not (uri == self._login_endpoint or '?code=' in uri):\n",
  ),
  E(
    "pn-authorize-callback-error-allows",
    PN,
    "panel/io/server.py",
    "authz",
    "        except Exception:\n            auth_error = f'Authorization callback errored. Could not validate user {state.user}.'\n            logger.warning(auth_error)\n",
    "        except Exception:\n            logger.warning(f'Authorization callback errored for user {state.user}; continuing.')\n            authorized, auth_error = True, None\n",
  ),
  E(
    "pn-doc-get-unauthenticated",
    PN,
    "panel/io/server.py",
    "authz",
    "    @authenticated\n    async def get(self, *args, **kwargs):\n        # Prevent the browser from caching",
    "    async def get(self, *args, **kwargs):\n        # Prevent the browser from caching",
  ),
  // ---- mautrix/python (Python)
  E(
    "mx-hs-token-compare-dropped",
    MX,
    MXH,
    "credential",
    '        if token != self.hs_token:\n            self.log.debug(f"Incorrect hs_token in request")\n            return False\n',
    '        if token != self.hs_token:\n            self.log.debug(f"Incorrect hs_token in request")\n',
  ),
  E(
    "mx-no-token-returns-true",
    MX,
    MXH,
    "authn-branch",
    '                self.log.debug("No access_token nor Authorization header in request")\n                return False\n',
    '                self.log.debug("No access_token nor Authorization header in request")\n                return True\n',
  ),
  E(
    "mx-query-user-check-removed",
    MX,
    MXH,
    "authn-branch",
    '    async def _http_query_user(self, request: web.Request) -> web.Response:\n        if not self._check_token(request):\n            return web.json_response({"error": "Invalid auth token"}, status=401)\n\n',
    "    async def _http_query_user(self, request: web.Request) -> web.Response:\n",
  ),
  E(
    "mx-transaction-token-unchecked",
    MX,
    MXH,
    "authn-branch",
    "    async def _read_transaction_header(self, request: web.Request) -> tuple[str, dict[str, Any]]:\n        if not self._check_token(request):\n",
    "    async def _read_transaction_header(self, request: web.Request) -> tuple[str, dict[str, Any]]:\n        if False and not self._check_token(request):\n",
  ),
  E(
    "mx-signed-token-checksum-skipped",
    MX,
    "mautrix/util/signed_token.py",
    "token",
    '    if checksum != _get_checksum(key, payload.encode("utf-8")):\n        return None\n',
    "",
  ),
  E(
    "mx-needs-admin-dropped",
    MX,
    "mautrix/bridge/commands/handler.py",
    "authz",
    '        elif self.needs_admin and not evt.sender.is_admin:\n            return "That command is limited to bridge administrators."\n',
    "",
  ),
  E(
    "mx-verify-ssl-default-off",
    MX,
    "mautrix/appservice/appservice.py",
    "secure-default",
    "        verify_ssl: bool = True,\n",
    "        verify_ssl: bool = False,\n",
  ),
  E(
    "mx-device-signature-unchecked",
    MX,
    "mautrix/crypto/device_lists.py",
    "token",
    '        if not verify_signature_json(device_keys.serialize(), user_id, device_id, signing_key):\n            raise DeviceValidationError("invalid signature on device keys")\n',
    '        if not verify_signature_json(device_keys.serialize(), user_id, device_id, signing_key):\n            self.log.warning(f"Invalid signature on device keys of {user_id}/{device_id}")\n',
  ),
  // ---- bokeh/bokeh (Python)
  E(
    "bk-token-signature-only-session",
    BK,
    BKT,
    "token",
    "        return token_valid and session_id_valid\n",
    "        return session_id_valid\n",
  ),
  E(
    "bk-session-id-signature-eq",
    BK,
    BKT,
    "credential",
    "        return hmac.compare_digest(\n            expected_id_signature, provided_id_signature,\n        )\n",
    "        return expected_id_signature.startswith(provided_id_signature)\n",
  ),
  E(
    "bk-ws-expiry-unchecked",
    BK,
    BKW,
    "token",
    "        elif now >= payload['session_expiry']:\n            self.close()\n            raise ProtocolError(\"Token is expired. Configure the app with a larger value for --session-token-expiration if necessary\")\n",
    "",
  ),
  E(
    "bk-ws-signature-logged-only",
    BK,
    BKW,
    "token",
    '            log.error("Token for session %r had invalid signature", session_id)\n            raise ProtocolError("Invalid token signature")\n',
    '            log.error("Token for session %r had invalid signature", session_id)\n',
  ),
  E(
    "bk-ws-origin-allow-all",
    BK,
    BKW,
    "authz",
    "        allowed = check_allowlist(origin_host, allowed_hosts)\n        if allowed:\n",
    "        allowed = check_allowlist(origin_host, allowed_hosts) or bool(origin_host)\n        if allowed:\n",
  ),
  E(
    "bk-ws-open-unauthenticated",
    BK,
    BKW,
    "authz",
    "    @web.authenticated\n    def open(self) -> None:\n",
    "    def open(self) -> None:\n",
  ),
  // ---- giampaolo/pyftpdlib (Python)
  E(
    "ftp-dummy-password-compare",
    FTP,
    FTPA,
    "credential",
    '        if username != "anonymous":\n            if self.user_table[username]["pwd"] != password:\n                raise AuthenticationFailed(msg)\n',
    '        if username != "anonymous":\n            if password and self.user_table[username]["pwd"] != password:\n                raise AuthenticationFailed(msg)\n',
  ),
  E(
    "ftp-unix-crypt-compare",
    FTP,
    FTPA,
    "credential",
    "                else:\n                    if pw1 != pw2:\n                        raise AuthenticationFailed(self.msg_wrong_password)\n",
    "                else:\n                    pass\n",
  ),
  E(
    "ftp-unix-rejected-user",
    FTP,
    FTPA,
    "authn-branch",
    "            if self._is_rejected_user(username):\n                raise AuthenticationFailed(self.msg_rejected_user % username)\n            overridden_password",
    "            overridden_password",
  ),
  E(
    "ftp-has-perm-fallback",
    FTP,
    FTPA,
    "authz",
    '        if path is None:\n            return perm in self.user_table[username]["perm"]\n\n        path = os.path.normcase(path)\n',
    "        if path is None:\n            return True\n\n        path = os.path.normcase(path)\n",
  ),
  E(
    "ftp-cmd-perm-check",
    FTP,
    FTPC,
    "authz",
    '            if perm is not None and cmd != "STOU":\n                if not self.authorizer.has_perm(self.username, perm, arg):\n',
    '            if perm is not None and cmd not in ("STOU", "STOR", "APPE", "DELE"):\n                if not self.authorizer.has_perm(self.username, perm, arg):\n',
  ),
  E(
    "ftp-foreign-addresses-default",
    FTP,
    FTPC,
    "secure-default",
    "    permit_foreign_addresses = False\n",
    "    permit_foreign_addresses = True\n",
  ),
  E(
    "ftp-tls-control-required-ignored",
    FTP,
    "pyftpdlib/handlers/ftps/control.py",
    "secure-default",
    '            if self.tls_control_required and not self._ssl_established:\n                msg = "SSL/TLS required on the control channel."\n                self.respond("550 " + msg)\n                self.log_cmd(cmd, args[0], 550, msg)\n                return\n',
    '            if self.tls_control_required and not self._ssl_established:\n                msg = "SSL/TLS required on the control channel."\n                self.log_cmd(cmd, args[0], 550, msg)\n',
  ),
  E(
    "ftp-pass-auth-error-swallowed",
    FTP,
    FTPC,
    "authn-branch",
    "        except (AuthenticationFailed, AuthorizerError) as err:\n            self.handle_auth_failed(str(err), line)\n        else:\n            self.handle_auth_success(home, line, msg_login)\n",
    "        except AuthorizerError as err:\n            self.handle_auth_failed(str(err), line)\n        except AuthenticationFailed:\n            home = self.authorizer.get_home_dir(self.username)\n            msg_login = self.authorizer.get_msg_login(self.username)\n            self.handle_auth_success(home, line, msg_login)\n        else:\n            self.handle_auth_success(home, line, msg_login)\n",
  ),
  // ---- voila-dashboards/voila (Python)
  E(
    "vo-exec-ws-user-none",
    VO,
    "voila/tornado/execution_request_handler.py",
    "authn-branch",
    '            if user is None:\n                raise HTTPError(403, "Unauthenticated")\n',
    "",
  ),
  E(
    "vo-render-get-unauthenticated",
    VO,
    "voila/tornado/handler.py",
    "authz",
    "    @tornado.web.authenticated\n    async def get(self, path=None):\n",
    "    async def get(self, path=None):\n",
  ),
  E(
    "vo-auth-enabled-false",
    VO,
    "voila/voila_identity_provider.py",
    "authn-branch",
    "        return bool(self.token)\n",
    "        return False\n",
  ),
  E(
    "vo-tracebacks-default-on",
    VO,
    "voila/execute.py",
    "secure-default",
    "    show_tracebacks = Bool(\n        False,\n",
    "    show_tracebacks = Bool(\n        True,\n",
  ),
  // ---- zauberzeug/nicegui (Python)
  E(
    "ng-middleware-prefix-unrestricted",
    NG,
    "examples/authentication/main.py",
    "authz",
    "        if app.storage.user.get('authenticated') or path in unrestricted_page_routes or path.startswith('/_nicegui'):\n",
    "        if app.storage.user.get('authenticated') or path in unrestricted_page_routes or path.startswith('/_nicegui') or path.startswith('/sub'):\n",
  ),
  E(
    "ng-login-password-or",
    NG,
    "examples/authentication/main.py",
    "credential",
    "        if passwords.get(username.value) == password.value:\n",
    "        if username.value in passwords:\n",
  ),
  E(
    "ng-one-tap-aud-dropped",
    NG,
    "examples/google_one_tap_auth/main.py",
    "token",
    "            user_info.get('aud') == GOOGLE_CLIENT_ID,\n",
    "",
  ),
  E(
    "ng-one-tap-claims-unchecked",
    NG,
    "examples/google_one_tap_auth/main.py",
    "token",
    "    if not _is_valid(user_info):\n        raise HTTPException(status_code=400, detail='Invalid token claims')\n",
    "",
  ),
  E(
    "ng-oauth2-exp-dropped",
    NG,
    "examples/google_oauth2/main.py",
    "token",
    "            int(user_info.get('exp', 0)) > int(time.time()),\n",
    "",
  ),
  E(
    "ng-oauth2-page-no-redirect",
    NG,
    "examples/google_oauth2/main.py",
    "authn-branch",
    "    if not _is_valid(user_info):\n        app.storage.user.pop('user_info', None)\n        return await oauth.google.authorize_redirect(request, request.url_for('google_oauth'))\n",
    "    if not user_info:\n        return await oauth.google.authorize_redirect(request, request.url_for('google_oauth'))\n",
  ),
  E(
    "ng-descope-validate-error-true",
    NG,
    "examples/descope_auth/user.py",
    "token",
    "        except AuthException:\n            logging.exception('Could not validate user session.')\n            ui.notify('Wrong username or password', type='negative')\n            return False\n",
    "        except AuthException:\n            logging.exception('Could not validate user session.')\n            return True\n",
  ),
  // ---- simov/express-admin (JS)
  E(
    "ea-restrict-username-session",
    EA,
    "routes/auth.js",
    "authn-branch",
    "  if (req.session.user) return next()\n",
    "  if (req.session.user || req.session.username) return next()\n",
  ),
  E(
    "ea-login-password-truthy",
    EA,
    "routes/auth.js",
    "credential",
    "  if (req.body.password === user.pass) {\n",
    "  if (req.body.password) {\n",
  ),
  E(
    "ea-editview-post-unrestricted",
    EA,
    "app.js",
    "authz",
    "  app.post(_routes.editview, r.auth.restrict, r.editview.post, r.render.admin)\n",
    "  app.post(_routes.editview, r.editview.post, r.render.admin)\n",
  ),
  E(
    "ea-csrf-middleware-dropped",
    EA,
    "app.js",
    "authz",
    "    .use(r.auth.status)// session middleware\n    .use(csrf())\n",
    "    .use(r.auth.status)// session middleware\n",
  ),
  // ---- ladjs/lad (JS)
  E(
    "lad-admin-logged-in-only",
    LAD,
    "template/routes/web/admin.js",
    "authz",
    "router.use(policies.ensureAdmin);\n",
    "router.use(policies.ensureLoggedIn);\n",
  ),
  E(
    "lad-my-account-otp-dropped",
    LAD,
    "template/routes/web/my-account.js",
    "authn-branch",
    "router.use(policies.ensureLoggedIn);\nrouter.use(policies.ensureOtp);\n",
    "router.use(policies.ensureLoggedIn);\n",
  ),
  E(
    "lad-api-account-put-open",
    LAD,
    "template/routes/api/v1/index.js",
    "authz",
    "router.put('/account', policies.ensureApiToken, api.v1.users.update);\n",
    "router.put('/account', api.v1.users.update);\n",
  ),
  E(
    "lad-cookie-httponly-off",
    LAD,
    "template/config/cookies.js",
    "secure-default",
    "  httpOnly: true,\n",
    "  httpOnly: false,\n",
  ),
  E(
    "lad-recovery-key-not-matched",
    LAD,
    LADA,
    "credential",
    "    recoveryKeys.length === 0 ||\n    !recoveryKeys.includes(ctx.request.body.recovery_key)\n  )\n",
    "    recoveryKeys.length === 0\n  )\n",
  ),
  E(
    "lad-reset-token-expiry-dropped",
    LAD,
    LADA,
    "token",
    "  query[config.userFields.resetTokenExpiresAt] = { $gte: new Date() };\n",
    "",
  ),
  E(
    "lad-otp-disable-password-unchecked",
    LAD,
    "template/app/controllers/web/otp/disable.js",
    "credential",
    "    if (!user) throw Boom.badRequest(ctx.translateError('INVALID_PASSWORD'));\n",
    "    // if (!user) throw Boom.badRequest(ctx.translateError('INVALID_PASSWORD'));\n",
  ),
  // ---- postalsys/imapflow (JS)
  E(
    "imf-required-starttls-opportunistic",
    IMF,
    IMFF,
    "secure-default",
    "        if (this.options.doSTARTTLS === true) {\n            // STARTTLS configured as requirement\n            let err = new Error('Server does not support STARTTLS');\n            err.tlsFailed = true;\n            throw err;\n        }\n",
    "        if (this.options.doSTARTTLS === true) {\n            // STARTTLS configured as requirement\n            this.log.warn({ msg: 'Server does not support STARTTLS' });\n        }\n",
  ),
  E(
    "imf-starttls-injection-trailing",
    IMF,
    IMFF,
    "secure-default",
    "        if (this._starttlsHadTrailingData) {\n            throw failSTARTTLSInjection();\n        }\n",
    "",
  ),
  E(
    "imf-starttls-reject-unauthorized-off",
    IMF,
    IMFF,
    "secure-default",
    "                    host: this.host,\n                    servername: this.servername,\n                    port: this.port\n                },\n",
    "                    host: this.host,\n                    servername: this.servername,\n                    port: this.port,\n                    rejectUnauthorized: false\n                },\n",
  ),
  E(
    "imf-logindisabled-ignored",
    IMF,
    IMFF,
    "secure-default",
    "                if (this.capabilities.has('LOGINDISABLED')) {\n                    throw new AuthenticationFailure('Login is disabled');\n                }\n",
    "",
  ),
  // ---- kuzzleio/kuzzle (TS/JS)
  E(
    "kz-jwt-decode-only",
    KZ,
    KZT,
    "token",
    "      decoded = jwt.verify(tokenWithoutPrefix, global.kuzzle.secret);\n",
    "      decoded = jwt.decode(tokenWithoutPrefix);\n",
  ),
  E(
    "kz-revoked-token-accepted",
    KZ,
    KZT,
    "token",
    '    if (userToken === null) {\n      throw securityError.get("invalid");\n    }\n\n',
    "",
  ),
  E(
    "kz-apikey-any-of-user",
    KZ,
    KZT,
    "credential",
    "      (apiKey) => apiKey.fingerprint === fingerprint,\n",
    "      (apiKey) => apiKey.userId === decoded._id,\n",
  ),
  E(
    "kz-no-profile-allowed",
    KZ,
    "lib/model/security/user.ts",
    "authz",
    "    if (this.profileIds === undefined || this.profileIds.length === 0) {\n      return false;\n    }\n",
    "    if (this.profileIds === undefined) {\n      return false;\n    }\n",
  ),
  E(
    "kz-rights-failure-not-thrown",
    KZ,
    KZF,
    "authz",
    '      request.setError(error);\n\n      await global.kuzzle.pipe("request:onUnauthorized", request);\n      throw error;\n    }\n',
    '      await global.kuzzle.pipe("request:onUnauthorized", request);\n    }\n',
  ),
  E(
    "kz-token-cookie-httponly-off",
    KZ,
    "lib/api/controllers/authController.ts",
    "secure-default",
    "            expires: new Date(token.expiresAt),\n            httpOnly: true,\n",
    "            expires: new Date(token.expiresAt),\n            httpOnly: false,\n",
  ),
];

/** Reversed real security fixes of the fifty-second batch (split `history52`), chosen by message only. */
export const REVERSED_FIXES_HISTORY52: ReversedFix[] = [
  {
    id: "imf-starttls-hardening",
    repo: IMF,
    commit: "35eca81",
    path: IMFF,
    cls: "secure-default",
    note:
      "harden STARTTLS upgrade (plaintext-injection guard), literal bounds and connection error paths",
    split: "history52",
  },
  {
    id: "mx-double-puppet-token-reuse",
    repo: MX,
    commit: "5a441ee",
    path: "mautrix/bridge/custom_puppet.py",
    cls: "token",
    note: "reject reusing access tokens when enabling double puppeting",
    split: "history52",
  },
  {
    id: "pn-ws-unauthenticated-403",
    repo: PN,
    commit: "ea7d17ee3",
    path: "panel/io/server.py",
    cls: "authn-branch",
    note: "return a clean 403 for unauthenticated WebSocket connections",
    split: "history52",
  },
  {
    id: "pn-oauth-refresh-state-reset",
    repo: PN,
    commit: "5553a51dc",
    path: PNA,
    cls: "token",
    note: "reset the user's OAuth state after failing to refresh the access token",
    split: "history52",
  },
  {
    id: "kz-apikey-fingerprint",
    repo: KZ,
    commit: "c9cb2b869",
    path: KZT,
    cls: "credential",
    note: "do not store API keys in the internal index, use a fingerprint instead",
    split: "history52",
  },
  {
    id: "ftp-ssl-security-378",
    repo: FTP,
    commit: "a889c8e",
    path: "pyftpdlib/handlers.py",
    cls: "secure-default",
    note: "fix #378: greatly improve SSL security",
    split: "history52",
  },
  {
    id: "vo-GHSA-2q59-h24c-w6fg",
    repo: VO,
    commit: "5542e4a",
    path: "voila/app.py",
    cls: "authz",
    note: "GHSA-2q59-h24c-w6fg: do not serve the filesystem root as the static path",
    split: "history52",
  },
  {
    id: "ea-filter-form-csrf",
    repo: EA,
    commit: "c8d5ba1",
    path: "views/listview.html",
    cls: "authz",
    note: "CSRF token for the filter form",
    split: "history52",
  },
];
