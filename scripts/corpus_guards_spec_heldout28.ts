/**
 * Twenty-eighth held-out batch of the guard-removal corpus: removals written by reading the
 * security code of projects not otherwise used by the corpus (Caddy, Gotify, Navidrome, Prometheus
 * exporter-toolkit, go-grpc-middleware, Woodpecker CI, Authorizer, Syncthing, Ory Keto, pypiserver,
 * The Lounge), chosen the way a careless refactor or an attacker would weaken them, before any
 * measurement. Reversed fixes were picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const CAD = "caddyserver/caddy";
const GT = "gotify/server";
const GTA = "auth/authentication.go";
const ND = "navidrome/navidrome";
const NDA = "server/auth.go";
const NDS = "server/subsonic/middlewares.go";
const ET = "prometheus/exporter-toolkit";
const ETT = "web/tls_config.go";
const GM = "grpc-ecosystem/go-grpc-middleware";
const GMA = "interceptors/auth/auth.go";
const WP = "woodpecker-ci/woodpecker";
const WPU = "server/router/middleware/session/user.go";
const WPT = "shared/token/token.go";
const AZ = "authorizerdev/authorizer";
const AZJ = "internal/token/jwt.go";
const AZC = "internal/service/clientauth/clientauth.go";
const ST = "syncthing/syncthing";
const STA = "lib/api/api_auth.go";
const STT = "lib/api/tokenmanager.go";
const KT = "ory/keto";
const PP = "pypiserver/pypiserver";
const PPA = "pypiserver/_app.py";
const TL = "thelounge/thelounge";
const TLL = "server/plugins/auth/ldap.ts";
const TLS = "server/server.ts";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout28");

/** The twenty-eighth held-out batch of edits (split `heldout28`). */
export const EDITS_HELDOUT28: GuardEdit[] = [
  // ---- Caddy (Go)
  E(
    "cad-basicauth-unknown-account-passes",
    CAD,
    "modules/caddyhttp/caddyauth/basicauth.go",
    "credential",
    "\tif err != nil || !same || !accountExists {\n",
    "\tif err != nil || (!same && accountExists) {\n",
  ),
  E(
    "cad-argon2id-plain-compare",
    CAD,
    "modules/caddyhttp/caddyauth/argon2id.go",
    "credential",
    "\treturn subtle.ConstantTimeCompare(storedKey, computedKey) == 1, nil\n",
    "\treturn string(storedKey) == string(computedKey), nil\n",
  ),
  E(
    "cad-auth-handler-falls-through",
    CAD,
    "modules/caddyhttp/caddyauth/caddyauth.go",
    "authn-branch",
    '\t\treturn caddyhttp.Error(http.StatusUnauthorized, fmt.Errorf("not authenticated"))\n\t}\n',
    "\t}\n",
  ),
  E(
    "cad-client-auth-default-if-given",
    CAD,
    "modules/caddytls/connpolicy.go",
    "secure-default",
    "\t\t\tclientauth.CARaw != nil || clientauth.ca != nil {\n\t\t\tcfg.ClientAuth = tls.RequireAndVerifyClientCert\n",
    "\t\t\tclientauth.CARaw != nil || clientauth.ca != nil {\n\t\t\tcfg.ClientAuth = tls.VerifyClientCertIfGiven\n",
  ),
  E(
    "cad-client-cert-verifier-logged-only",
    CAD,
    "modules/caddytls/connpolicy.go",
    "secure-default",
    "\tfor _, verifier := range clientauth.verifiers {\n\t\tif err := verifier.VerifyClientCertificate(rawCerts, cs.VerifiedChains); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n",
    '\tfor _, verifier := range clientauth.verifiers {\n\t\tif err := verifier.VerifyClientCertificate(rawCerts, cs.VerifiedChains); err != nil {\n\t\t\tcaddy.Log().Named("tls.connection_policy").Debug("client certificate verifier", zap.Error(err))\n\t\t}\n\t}\n',
  ),
  // ---- Gotify server (Go)
  E(
    "gt-require-admin-no-admin-check",
    GT,
    GTA,
    "authz",
    "\ta.evaluateOr401(ctx, a.handleUser(a.checkUserAdmin), a.handleClient(a.checkClientAdmin, a.checkClientElevated))\n",
    "\ta.evaluateOr401(ctx, a.handleUser(), a.handleClient(a.checkClientElevated))\n",
  ),
  E(
    "gt-basic-auth-password-unchecked",
    GT,
    GTA,
    "credential",
    "\t\t\t} else if user != nil && password.ComparePassword(user.Pass, []byte(pass)) {\n",
    "\t\t\t} else if user != nil {\n",
  ),
  E(
    "gt-app-token-timestamp-ignored",
    GT,
    GTA,
    "token",
    "\t\tif err != nil || !complexToken.ValidateTimestamp(timeNow().Unix()) {\n\t\t\treturn authStateSkip, err\n\t\t}\n\t\ttoken = complexToken.PublicForm()\n\t}\n\tapp, err",
    "\t\tif err != nil {\n\t\t\treturn authStateSkip, err\n\t\t}\n\t\ttoken = complexToken.PublicForm()\n\t}\n\tapp, err",
  ),
  E(
    "gt-elevation-never-expires",
    GT,
    GTA,
    "token",
    "\tif client.ElevatedUntil == nil || !timeNow().Before(*client.ElevatedUntil) {\n",
    "\tif client.ElevatedUntil == nil {\n",
  ),
  E(
    "gt-cross-origin-check-skipped",
    GT,
    GTA,
    "authz",
    "\tif a.rejectForeignOrigin(ctx) {\n\t\treturn true\n\t}\n",
    "",
  ),
  E(
    "gt-cookie-script-readable",
    GT,
    "auth/cookie.go",
    "secure-default",
    "\t\tHttpOnly: true,\n\t\tSameSite: http.SameSiteStrictMode,\n",
    "\t\tHttpOnly: false,\n\t\tSameSite: http.SameSiteLaxMode,\n",
  ),
  E(
    "gt-enhanced-token-signature-unchecked",
    GT,
    "auth/token.go",
    "token",
    "\tif err := ed25519.VerifyWithOptions(pkOrPubkey, sha512.Sum(nil), signature, &ed25519.Options{Hash: crypto.SHA512}); err != nil {\n\t\treturn nil, errInvalidToken\n\t}\n",
    "\t_ = ed25519.VerifyWithOptions(pkOrPubkey, sha512.Sum(nil), signature, &ed25519.Options{Hash: crypto.SHA512})\n",
  ),
  // ---- Navidrome (Go)
  E(
    "nd-subsonic-jwt-subject-unchecked",
    ND,
    NDS,
    "token",
    "\t\tvalid = err == nil && claims.Subject == user.UserName\n",
    "\t\tvalid = err == nil\n",
  ),
  E(
    "nd-subsonic-admin-only-open",
    ND,
    NDS,
    "authz",
    "\t\tif !loggedUser.IsAdmin {\n\t\t\tsendError(w, r, newError(responses.ErrorAuthorizationFail))\n\t\t\treturn\n\t\t}\n\n",
    "",
  ),
  E(
    "nd-login-password-not-compared",
    ND,
    NDA,
    "credential",
    "\tif u.Password != password {\n\t\treturn nil, nil\n\t}\n",
    "",
  ),
  E(
    "nd-extauth-untrusted-proxy-accepted",
    ND,
    NDA,
    "authn-branch",
    '\t\tlog.Warn(r.Context(), "IP is not whitelisted for external authentication", "proxy-ip", reverseProxyIp, "client-ip", r.RemoteAddr)\n\t\treturn ""\n',
    '\t\tlog.Warn(r.Context(), "IP is not whitelisted for external authentication", "proxy-ip", reverseProxyIp, "client-ip", r.RemoteAddr)\n',
  ),
  E(
    "nd-context-token-error-ignored",
    ND,
    NDA,
    "token",
    "\ttoken, _, err := jwtauth.FromContext(r.Context())\n\tif err != nil || token == nil {\n",
    "\ttoken, _, _ := jwtauth.FromContext(r.Context())\n\tif token == nil {\n",
  ),
  // ---- Prometheus exporter-toolkit (Go)
  E(
    "et-basic-auth-known-user-enough",
    ET,
    "web/handler.go",
    "credential",
    "\t\tif authOk && validUser {\n",
    "\t\tif authOk || validUser {\n",
  ),
  E(
    "et-client-san-check-not-installed",
    ET,
    ETT,
    "secure-default",
    "\t\t// verify that the client cert contains an allowed SAN\n\t\tcfg.VerifyPeerCertificate = c.VerifyPeerCertificate\n",
    "\t\t// verify that the client cert contains an allowed SAN\n\t\t// cfg.VerifyPeerCertificate = c.VerifyPeerCertificate\n",
  ),
  E(
    "et-default-min-tls10",
    ET,
    ETT,
    "secure-default",
    "\t\t\tMinVersion:               tls.VersionTLS12,\n\t\t\tMaxVersion:               tls.VersionTLS13,\n",
    "\t\t\tMinVersion:               tls.VersionTLS10,\n\t\t\tMaxVersion:               tls.VersionTLS13,\n",
  ),
  E(
    "et-require-and-verify-maps-to-any",
    ET,
    ETT,
    "secure-default",
    '\tcase "RequireAndVerifyClientCert":\n\t\tcfg.ClientAuth = tls.RequireAndVerifyClientCert\n',
    '\tcase "RequireAndVerifyClientCert":\n\t\tcfg.ClientAuth = tls.RequireAnyClientCert\n',
  ),
  // ---- go-grpc-middleware (Go)
  E(
    "gm-unary-auth-error-keeps-context",
    GM,
    GMA,
    "authn-branch",
    "\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\treturn handler(newCtx, req)\n",
    "\t\tif err != nil {\n\t\t\tnewCtx = ctx\n\t\t}\n\t\treturn handler(newCtx, req)\n",
  ),
  E(
    "gm-stream-auth-error-dropped",
    GM,
    GMA,
    "authn-branch",
    "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\twrapped := middleware.WrapServerStream(stream)\n",
    "\t\twrapped := middleware.WrapServerStream(stream)\n",
  ),
  E(
    "gm-auth-scheme-not-compared",
    GM,
    "interceptors/auth/metadata.go",
    "token",
    '\tif !strings.EqualFold(scheme, expectedScheme) {\n\t\treturn "", status.Error(codes.Unauthenticated, "Request unauthenticated with "+expectedScheme)\n\t}\n',
    "\t_ = scheme\n",
  ),
  E(
    "gm-example-stream-auth-removed",
    GM,
    "examples/server/main.go",
    "authz",
    "\t\t\tselector.StreamServerInterceptor(auth.StreamServerInterceptor(authFn), selector.MatchFunc(allButHealthZ)),\n",
    "",
  ),
  // ---- Woodpecker CI (Go)
  E(
    "wp-session-csrf-mismatch-tolerated",
    WP,
    WPU,
    "authz",
    "\t\t\t\tif err != nil {\n\t\t\t\t\tc.AbortWithStatus(http.StatusUnauthorized)\n\t\t\t\t\treturn\n\t\t\t\t}\n",
    '\t\t\t\tif err != nil {\n\t\t\t\t\tlog.Debug().Err(err).Msg("csrf token check failed")\n\t\t\t\t}\n',
  ),
  E(
    "wp-must-admin-any-user",
    WP,
    WPU,
    "authz",
    '\t\tcase !user.Admin:\n\t\t\tc.String(http.StatusForbidden, "User not authorized")\n\t\t\tc.Abort()\n',
    "",
  ),
  E(
    "wp-org-admin-membership-enough",
    WP,
    WPU,
    "authz",
    "\t\tif perm == nil || (!admin && !perm.Member) || (admin && !perm.Admin) {\n",
    "\t\tif perm == nil || !perm.Member {\n",
  ),
  E(
    "wp-token-alg-not-pinned",
    WP,
    WPT,
    "token",
    "\t\t// validate the correct algorithm is being used\n\t\tif t.Method.Alg() != SignerAlgo {\n\t\t\treturn nil, jwt.ErrSignatureInvalid\n\t\t}\n\n",
    "",
  ),
  E(
    "wp-token-type-untyped-accepted",
    WP,
    WPT,
    "token",
    "\tif !hasAllowedType {\n",
    '\tif !hasAllowedType && token.Type != "" {\n',
  ),
  E(
    "wp-csrf-post-exempt",
    WP,
    WPT,
    "authz",
    "\tcase http.MethodGet, http.MethodOptions:\n",
    "\tcase http.MethodGet, http.MethodOptions, http.MethodPost:\n",
  ),
  E(
    "wp-hook-repo-mismatch-ignored",
    WP,
    "server/api/hook.go",
    "authz",
    '\tif repo.ForgeRemoteID != repoFromForge.ForgeRemoteID {\n\t\tlog.Warn().Msgf("ignoring hook: repo %s does not match the repo from the token", repo.FullName)\n\t\tc.String(http.StatusBadRequest, "failure to parse token from hook")\n\t\treturn\n\t}\n',
    '\tif repo.ForgeRemoteID != repoFromForge.ForgeRemoteID {\n\t\tlog.Warn().Msgf("hook: repo %s does not match the repo from the token", repo.FullName)\n\t}\n',
  ),
  E(
    "wp-agent-bad-token-continues",
    WP,
    "server/router/middleware/session/agent.go",
    "authn-branch",
    '\t\tc.String(http.StatusInternalServerError, "invalid or empty token. %s", err)\n\t\tc.Abort()\n\t\treturn\n',
    '\t\tc.String(http.StatusInternalServerError, "invalid or empty token. %s", err)\n',
  ),
  // ---- Authorizer (Go)
  E(
    "az-id-token-nonce-unchecked",
    AZ,
    AZJ,
    "token",
    '\tif claims["nonce"] != authTokenConfig.Nonce {\n\t\treturn false, errors.New("invalid nonce")\n\t}\n\n',
    "",
  ),
  E(
    "az-issuer-unchecked-without-nonce",
    AZ,
    AZJ,
    "token",
    '\tif claims["iss"] != authTokenConfig.HostName {\n\t\treturn false, fmt.Errorf("invalid issuer iss[%s] != hostname[%s]", claims["iss"], authTokenConfig.HostName)\n\t}\n\n\tif claims["sub"] != authTokenConfig.User.ID {\n',
    '\tif claims["sub"] != authTokenConfig.User.ID {\n',
  ),
  E(
    "az-hmac-alg-not-pinned",
    AZ,
    AZJ,
    "token",
    '\t\t\tif t.Method.Alg() != signingMethod.Alg() {\n\t\t\t\treturn nil, fmt.Errorf("unexpected signing method: %v", t.Header["alg"])\n\t\t\t}\n\t\t\treturn []byte(secret), nil\n',
    "\t\t\treturn []byte(secret), nil\n",
  ),
  E(
    "az-exp-claim-optional",
    AZ,
    AZJ,
    "token",
    '\texpVal, ok := claims["exp"]\n\tif !ok {\n\t\treturn claims, errors.New("missing exp claim")\n\t}\n\texpFloat, ok := expVal.(float64)\n\tif !ok {\n\t\treturn claims, errors.New("invalid exp claim")\n\t}\n',
    '\texpFloat, _ := claims["exp"].(float64)\n',
  ),
  E(
    "az-admin-session-empty-value-ok",
    AZ,
    "internal/token/admin_session.go",
    "authn-branch",
    '\tif err != nil || val == "" {\n',
    "\tif err != nil {\n",
  ),
  E(
    "az-inactive-client-accepted",
    AZ,
    AZC,
    "authn-branch",
    '\tif !client.IsActive {\n\t\tlog.Debug().Msg("client is inactive")\n\t\treturn client, ErrInvalidClient\n\t}\n\n',
    "",
  ),
  E(
    "az-config-client-empty-secret-ok",
    AZ,
    AZC,
    "credential",
    "\t\tif subtle.ConstantTimeCompare([]byte(secret), []byte(p.Config.ClientSecret)) != 1 {\n",
    '\t\tif secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(p.Config.ClientSecret)) != 1 {\n',
  ),
  E(
    "az-oauth-state-binding-optional",
    AZ,
    "internal/http_handlers/oauth_callback.go",
    "token",
    "\t\tif subtle.ConstantTimeCompare([]byte(boundState), []byte(state)) != 1 {\n",
    '\t\tif boundState != "" && subtle.ConstantTimeCompare([]byte(boundState), []byte(state)) != 1 {\n',
  ),
  // ---- Syncthing (Go)
  E(
    "st-static-auth-any-username",
    ST,
    STA,
    "credential",
    "\treturn guiCfg.CompareHashedPassword(password) == nil && username == guiCfg.User\n",
    "\treturn guiCfg.CompareHashedPassword(password) == nil\n",
  ),
  E(
    "st-ldap-search-ambiguous-match-ok",
    ST,
    STA,
    "authn-branch",
    "\tif len(res.Entries) != 1 {\n",
    "\tif len(res.Entries) == 0 {\n",
  ),
  E(
    "st-ldap-starttls-unverified",
    ST,
    STA,
    "secure-default",
    "\t\terr = connection.StartTLS(&tls.Config{InsecureSkipVerify: cfg.InsecureSkipVerify})\n",
    "\t\terr = connection.StartTLS(&tls.Config{InsecureSkipVerify: true})\n",
  ),
  E(
    "st-csrf-header-presence-only",
    ST,
    "lib/api/api_csrf.go",
    "authz",
    '\ttoken := r.Header.Get("X-CSRF-Token-" + m.unique)\n\tif !m.tokens.Check(token) {\n',
    '\ttoken := r.Header.Get("X-CSRF-Token-" + m.unique)\n\tif token == "" {\n',
  ),
  E(
    "st-bearer-api-key-not-validated",
    ST,
    "lib/api/api_csrf.go",
    "credential",
    '\t\tbearerToken := auth[len("bearer "):]\n\t\treturn validator.IsValidAPIKey(bearerToken)\n',
    '\t\tbearerToken := auth[len("bearer "):]\n\t\treturn bearerToken != ""\n',
  ),
  E(
    "st-session-token-never-expires",
    ST,
    STT,
    "token",
    "\tif expires != 0 && expires < m.timeNow().UnixNano() {\n\t\t// The token is expired.\n\t\tm.saveLocked() // removes expired tokens\n\t\treturn false\n\t}\n\n",
    "",
  ),
  E(
    "st-session-cookie-secure-direct-tls-only",
    ST,
    STT,
    "secure-default",
    "\tuseSecureCookie := connectionIsHTTPS || m.guiCfg.UseTLS()\n",
    "\tuseSecureCookie := r.TLS != nil\n",
  ),
  // ---- pypiserver (Python)
  E(
    "pp-upload-route-auth-removed",
    PP,
    PPA,
    "authz",
    '@app.post("/")\n@auth("update")\ndef update():\n',
    '@app.post("/")\ndef update():\n',
  ),
  E(
    "pp-download-route-auth-removed",
    PP,
    PPA,
    "authz",
    '@auth("download")\ndef server_static(filename):\n',
    "def server_static(filename):\n",
  ),
  E(
    "pp-bad-password-logged-only",
    PP,
    PPA,
    "credential",
    "                if not config.auther(*request.auth):\n                    raise HTTPError(403)\n",
    '                if not config.auther(*request.auth):\n                    log.warning("authentication failed for %r", request.auth[0])\n',
  ),
  E(
    "pp-anonymous-request-passes",
    PP,
    PPA,
    "authn-branch",
    '                if not request.auth or request.auth[1] is None:\n                    raise HTTPError(\n                        401, headers={"WWW-Authenticate": \'Basic realm="pypi"\'}\n                    )\n                if not config.auther(*request.auth):\n                    raise HTTPError(403)\n',
    "                if request.auth and not config.auther(*request.auth):\n                    raise HTTPError(403)\n",
  ),
  E(
    "pp-no-password-file-accepts-all",
    PP,
    "pypiserver/config.py",
    "secure-default",
    "        if self.password_file is None:\n            return lambda _uname, _pw: False\n",
    "        if self.password_file is None:\n            return lambda _uname, _pw: True\n",
  ),
  // ---- The Lounge (TS)
  E(
    "tl-ldap-simple-empty-password",
    TL,
    TLL,
    "authn-branch",
    "\tif (!user || !password) {\n\t\treturn callback(false);\n\t}\n\n\tconst config = Config.values;\n\n\tconst userDN",
    "\tif (!user) {\n\t\treturn callback(false);\n\t}\n\n\tconst config = Config.values;\n\n\tconst userDN",
  ),
  E(
    "tl-ldap-search-group-filter-dropped",
    TL,
    TLL,
    "authz",
    "\t\tfilter: `(&(${config.ldap.primaryKey}=${userFilterValue})${config.ldap.searchDN.filter})`,\n",
    "\t\tfilter: `(${config.ldap.primaryKey}=${userFilterValue})`,\n",
  ),
  E(
    "tl-local-stored-hash-accepted",
    TL,
    "server/plugins/auth/local.ts",
    "credential",
    "\t\t\tcallback(matching);\n",
    "\t\t\tcallback(matching || password === client.config.password);\n",
  ),
  E(
    "tl-session-token-not-looked-up",
    TL,
    TLS,
    "token",
    "\t\tif (Object.prototype.hasOwnProperty.call(client.config.sessions, providedToken)) {\n\t\t\ttoken = providedToken;\n",
    "\t\tif (providedToken) {\n\t\t\ttoken = providedToken;\n",
  ),
  E(
    "tl-auth-failed-continues",
    TL,
    TLS,
    "authn-branch",
    '\t\t\tsocket.emit("auth:failed");\n\t\t\treturn;\n\t\t}\n',
    '\t\t\tsocket.emit("auth:failed");\n\t\t}\n',
  ),
  // ---- additions: Ory Keto, Authorizer, Navidrome (Go)
  E(
    "kt-unknown-membership-allowed",
    KT,
    "internal/check/engine.go",
    "authz",
    "\treturn result.Membership == IsMember, nil\n",
    "\treturn result.Membership != NotMember, nil\n",
  ),
  E(
    "az-app-cookie-secure-default-off",
    AZ,
    "cmd/root.go",
    "secure-default",
    '\tf.BoolVar(&rootArgs.config.AppCookieSecure, "app-cookie-secure", true, "Application secure cookie flag")\n',
    '\tf.BoolVar(&rootArgs.config.AppCookieSecure, "app-cookie-secure", false, "Application secure cookie flag")\n',
  ),
  E(
    "nd-authenticator-error-continues",
    ND,
    NDA,
    "authn-branch",
    '\t\t\tif err != nil {\n\t\t\t\t_ = rest.RespondWithError(w, http.StatusUnauthorized, "Not authenticated")\n\t\t\t\treturn\n\t\t\t}\n\n\t\t\tnext.ServeHTTP(w, r.WithContext(ctx))\n',
    '\t\t\tif err != nil {\n\t\t\t\tlog.Debug(r, "Request not authenticated", err)\n\t\t\t\tctx = r.Context()\n\t\t\t}\n\n\t\t\tnext.ServeHTTP(w, r.WithContext(ctx))\n',
  ),
];

const H28 = "history28" as const;

/** Reversed real security fixes of the batch 28 projects (split `history28`). */
export const REVERSED_FIXES_HISTORY28: ReversedFix[] = [
  {
    id: "cad-GHSA-7r4p-vjf4-gxv4",
    repo: CAD,
    commit: "2dbcdefbbe",
    path: "modules/caddyhttp/reverseproxy/forwardauth/caddyfile.go",
    cls: "authn-branch",
    note:
      "GHSA-7r4p-vjf4-gxv4: forward_auth copy_headers did not strip client-supplied identity headers",
    split: H28,
  },
  {
    id: "cad-url-pattern-encoded-slash-bypass",
    repo: CAD,
    commit: "789f60e337",
    path: "modules/caddyhttp/urlpatternmatcher.go",
    cls: "authz",
    note: "fix url_pattern authorization bypass via encoded-slash traversal",
    split: H28,
  },
  {
    id: "et-GHSA-7rg2-cxvp-9p7p",
    repo: ET,
    commit: "5b1eab3448",
    path: "web/handler.go",
    cls: "credential",
    note:
      "GHSA-7rg2-cxvp-9p7p (CVE-2022-46146): authentication bypass if the stored password hash is known",
    split: H28,
  },
  {
    id: "gt-app-ownership-security-endpoint",
    repo: GT,
    commit: "5e81bed709",
    path: "api/application.go",
    cls: "authz",
    note: "fix(security): check app ownership in security endpoint",
    split: H28,
  },
  {
    id: "nd-share-ownership-checks",
    repo: ND,
    commit: "6b8fcc37c6",
    path: "persistence/share_repository.go",
    cls: "authz",
    note: "fix(share): add ownership checks to Delete and Update",
    split: H28,
  },
  {
    id: "nd-transcoding-admin-only-reads",
    repo: ND,
    commit: "11640f2e4d",
    path: "persistence/transcoding_repository.go",
    cls: "authz",
    note: "fix(security): restrict transcoding config reads to admins",
    split: H28,
  },
  {
    id: "wp-agent-rpc-workflow-agent-id",
    repo: WP,
    commit: "d31c27a0e1",
    path: "server/rpc/rpc.go",
    cls: "authz",
    note: "Harden agent rpc to check agentID on workflow",
    split: H28,
  },
  {
    id: "az-oauth-state-opaque-handle",
    repo: AZ,
    commit: "9b4cb3d0a6",
    path: "internal/http_handlers/oauth_callback.go",
    cls: "token",
    note: "security(oauth): make social-login state an opaque handle",
    split: H28,
  },
  {
    id: "az-totp-recovery-code-resurrection",
    repo: AZ,
    commit: "e035554d30",
    path: "internal/authenticators/totp/totp.go",
    cls: "credential",
    note: "security(totp): stop Validate from resurrecting a consumed recovery code",
    split: H28,
  },
];
