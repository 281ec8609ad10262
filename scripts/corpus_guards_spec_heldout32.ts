/**
 * Thirty-second held-out batch of the guard-removal corpus: removals written by reading the
 * security code of projects not otherwise used by the corpus (argo-cd, harbor, boundary, concourse,
 * pomerium, minio, smallstep/certificates, portainer, ntfy, traefik, pyload), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H32 = "heldout32" as const;
const ACD = "argoproj/argo-cd";
const ACD_SM = "util/session/sessionmanager.go";
const HBR = "goharbor/harbor";
const HBR_ROBOT = "src/server/middleware/security/robot.go";
const BND = "hashicorp/boundary";
const CNC = "concourse/concourse";
const PMR = "pomerium/pomerium";
const MIN = "minio/minio";
const MIN_AUTH = "cmd/auth-handler.go";
const MIN_SIG = "cmd/signature-v4.go";
const STP = "smallstep/certificates";
const STP_AUTHZ = "authority/authorize.go";
const PTR = "portainer/portainer";
const PTR_BNC = "api/http/security/bouncer.go";
const NTF = "binwiederhier/ntfy";
const TRF = "traefik/traefik";
const TRF_BASIC = "pkg/middlewares/auth/basic_auth.go";
const TRF_FWD = "pkg/middlewares/auth/forward.go";
const PYL = "pyload/pyload";
const PYL_HELP = "src/pyload/webui/app/helpers.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H32);

/** The thirty-second held-out batch of edits (split `heldout32`). */
export const EDITS_HELDOUT32: GuardEdit[] = [
  // ---- argo-cd (Go)
  E(
    "acd-session-parse-any-alg",
    ACD,
    ACD_SM,
    "token",
    '\t\t// Don\'t forget to validate the alg is what you expect:\n\t\tif _, ok := token.Method.(*jwt.SigningMethodHMAC); !ok {\n\t\t\treturn nil, fmt.Errorf("unexpected signing method: %v", token.Header["alg"])\n\t\t}\n',
    "",
  ),
  E(
    "acd-session-disabled-account-token",
    ACD,
    ACD_SM,
    "authn-branch",
    '\tif !account.Enabled {\n\t\treturn nil, "", fmt.Errorf("account %s is disabled", subject)\n\t}\n\n',
    "",
  ),
  E(
    "acd-password-empty-hash-passes",
    ACD,
    ACD_SM,
    "credential",
    "\tvalid, _ := passwordutil.VerifyPassword(password, account.PasswordHash)\n\tif !valid {\n",
    '\tvalid, _ := passwordutil.VerifyPassword(password, account.PasswordHash)\n\tif !valid && account.PasswordHash != "" {\n',
  ),
  E(
    "acd-project-token-other-project",
    ACD,
    "server/rbacpolicy/rbacpolicy.go",
    "authz",
    "\tif projName != proj.Name {\n\t\t// this should never happen (we generated a project token for a different project)\n\t\treturn false\n\t}\n",
    "",
  ),
  // ---- harbor (Go)
  E(
    "hbr-robot-secret-logged-only",
    HBR,
    HBR_ROBOT,
    "credential",
    '\tif utils.Encrypt(secret, robot.Salt, utils.SHA256) != robot.Secret {\n\t\tlog.Errorf("failed to authenticate robot account: %s", name)\n\t\treturn nil\n\t}\n',
    '\tif utils.Encrypt(secret, robot.Salt, utils.SHA256) != robot.Secret {\n\t\tlog.Errorf("failed to authenticate robot account: %s", name)\n\t}\n',
  ),
  E(
    "hbr-robot-disabled-allowed",
    HBR,
    HBR_ROBOT,
    "authn-branch",
    '\tif robot.Disabled {\n\t\tlog.Errorf("failed to authenticate deactivated robot account: %s", name)\n\t\treturn nil\n\t}\n',
    "",
  ),
  E(
    "hbr-token-parse-any-method",
    HBR,
    "src/pkg/token/token.go",
    "token",
    "\tvar parser = jwt.NewParser(jwt.WithLeeway(common.JwtLeeway), jwt.WithValidMethods([]string{opt.SignMethod.Alg()}))\n",
    "\tvar parser = jwt.NewParser(jwt.WithLeeway(common.JwtLeeway))\n",
  ),
  E(
    "hbr-v2token-missing-iat-accepted",
    HBR,
    "src/server/middleware/security/v2_token.go",
    "token",
    '\tif claims.IssuedAt == nil {\n\t\tlogger.Warningf("bearer token missing iat claim, rejecting")\n\t\treturn false\n\t}\n',
    '\tif claims.IssuedAt == nil {\n\t\tlogger.Warningf("bearer token missing iat claim, skipping project creation check")\n\t\treturn true\n\t}\n',
  ),
  E(
    "hbr-csrf-skip-session-api",
    HBR,
    "src/server/middleware/csrf/csrf.go",
    "authz",
    '\tif (strings.HasPrefix(path, "/v2/") ||\n\t\tstrings.HasPrefix(path, "/api/") ||\n\t\tstrings.HasPrefix(path, "/service/")) && !lib.GetCarrySession(req.Context()) {\n',
    '\tif strings.HasPrefix(path, "/v2/") ||\n\t\tstrings.HasPrefix(path, "/api/") ||\n\t\tstrings.HasPrefix(path, "/service/") {\n',
  ),
  E(
    "hbr-authproxy-verify-cert-default-off",
    HBR,
    "src/lib/config/metadata/metadatalist.go",
    "secure-default",
    'Group: HTTPAuthGroup, DefaultValue: "true", ItemType: &BoolType{}, Description: `Verify the HTTP auth provider\'s certificate`},',
    'Group: HTTPAuthGroup, DefaultValue: "false", ItemType: &BoolType{}, Description: `Verify the HTTP auth provider\'s certificate`},',
  ),
  E(
    "hbr-db-auth-nil-user",
    HBR,
    "src/core/auth/db/db.go",
    "authn-branch",
    '\tif u == nil {\n\t\treturn nil, auth.NewErrAuth("Invalid credentials")\n\t}\n',
    "",
  ),
  // ---- boundary (Go)
  E(
    "bnd-authtoken-expiry-dropped",
    BND,
    "internal/authtoken/repository.go",
    "token",
    "\tif now.After(exp.Add(-timeSkew)) || sinceLastAccessed >= r.timeToStaleDuration {\n",
    "\tif sinceLastAccessed >= r.timeToStaleDuration {\n",
  ),
  E(
    "bnd-authtoken-value-not-compared",
    BND,
    "internal/authtoken/repository.go",
    "credential",
    "\tif subtle.ConstantTimeCompare([]byte(retAT.GetToken()), []byte(token)) == 0 {\n\t\treturn nil, nil\n\t}\n",
    "",
  ),
  E(
    "bnd-password-length-only",
    BND,
    "internal/auth/password/repository_password.go",
    "credential",
    "\tif subtle.ConstantTimeCompare(inputKey, acct.DerivedKey) == 0 {\n",
    "\tif len(inputKey) != len(acct.DerivedKey) {\n",
  ),
  E(
    "bnd-authz-failure-ignored-for-users",
    BND,
    "internal/daemon/controller/auth/auth.go",
    "authz",
    "\tif !authResults.Authorized {\n\t\tif v.requestInfo.DisableAuthzFailures {\n",
    "\tif !authResults.Authorized {\n\t\tif v.requestInfo.DisableAuthzFailures || ret.UserId != globals.AnonymousUserId {\n",
  ),
  E(
    "bnd-recovery-token-no-expiry",
    BND,
    "internal/daemon/controller/auth/auth.go",
    "token",
    '\t\tif info.CreationTime.Add(globals.RecoveryTokenValidityPeriod).Before(time.Now()) {\n\t\t\tevent.WriteError(ctx, op, stderrors.New("recovery token has expired (possible replay attack)"))\n\t\t\tv.requestInfo.TokenFormat = uint32(AuthTokenTypeUnknown)\n\t\t\treturn\n\t\t}\n',
    "",
  ),
  // ---- concourse (Go)
  E(
    "cnc-csrf-mismatch-allowed",
    CNC,
    "atc/api/auth/csrf_validation_handler.go",
    "authz",
    '\t\tif csrfToken != csrfHeader {\n\t\t\tlogger.Debug("csrf-token-does-not-match-auth-token", lager.Data{\n\t\t\t\t"auth-csrf-token":    csrfToken,\n\t\t\t\t"request-csrf-token": csrfHeader,\n\t\t\t})\n\t\t\tw.WriteHeader(http.StatusUnauthorized)\n\t\t\treturn\n\t\t}\n',
    '\t\tif csrfToken != csrfHeader {\n\t\t\tlogger.Debug("csrf-token-does-not-match-auth-token", lager.Data{\n\t\t\t\t"auth-csrf-token":    csrfToken,\n\t\t\t\t"request-csrf-token": csrfHeader,\n\t\t\t})\n\t\t}\n',
  ),
  E(
    "cnc-verifier-audience-ignored",
    CNC,
    "atc/api/accessor/verifier.go",
    "token",
    "\tif slices.ContainsFunc(v.audience, claims.Audience.Contains) {\n\t\treturn claims.RawClaims, nil\n\t}\n\n\treturn nil, ErrVerificationInvalidAudience\n",
    "\treturn claims.RawClaims, nil\n",
  ),
  E(
    "cnc-admin-handler-get-open",
    CNC,
    "atc/api/auth/check_admin_handler.go",
    "authz",
    "\t\tif acc.IsAdmin() {\n",
    "\t\tif acc.IsAdmin() || r.Method == http.MethodGet {\n",
  ),
  E(
    "cnc-build-write-unauthenticated",
    CNC,
    "atc/api/auth/check_build_write_access_handler.go",
    "authn-branch",
    "\tacc := accessor.GetAccessor(r)\n\tif !acc.IsAuthenticated() {\n\t\th.rejector.Unauthorized(w, r)\n\t\treturn\n\t}\n\n\tbuildIDStr",
    "\tacc := accessor.GetAccessor(r)\n\n\tbuildIDStr",
  ),
  E(
    "cnc-state-signature-length-only",
    CNC,
    "skymarshal/skyserver/skyserver.go",
    "token",
    "\tif !hmac.Equal([]byte(sig), []byte(expected)) {\n",
    "\tif len(sig) != len(expected) {\n",
  ),
  E(
    "cnc-auth-cookie-script-readable",
    CNC,
    "skymarshal/token/middleware.go",
    "secure-default",
    "\t\tExpires:  expiry,\n\t\tHttpOnly: true,\n\t\tSecure:   m.secureCookies,\n",
    "\t\tExpires:  expiry,\n\t\tHttpOnly: false,\n\t\tSecure:   m.secureCookies,\n",
  ),
  // ---- pomerium (Go)
  E(
    "pmr-signed-url-no-expiry",
    PMR,
    "internal/urlutil/signed.go",
    "token",
    "\tif expiry != nil && now.Add(-DefaultLeeway).After(expiry.Time()) {\n\t\treturn ErrExpired\n\t}\n\n",
    "",
  ),
  E(
    "pmr-check-hmac-plain-compare",
    PMR,
    "pkg/cryptutil/hmac.go",
    "credential",
    "\treturn hmac.Equal(expectedMAC, suppliedMAC)\n",
    "\treturn string(expectedMAC) == string(suppliedMAC)\n",
  ),
  E(
    "pmr-callback-csrf-commented",
    PMR,
    "authenticate/handlers.go",
    "token",
    '\tif state.csrf.ValidateToken(r, statePayload[0]) != nil {\n\t\treturn nil, httputil.NewError(http.StatusBadRequest, fmt.Errorf("invalid CSRF token"))\n\t}\n',
    '\t// if state.csrf.ValidateToken(r, statePayload[0]) != nil {\n\t// \treturn nil, httputil.NewError(http.StatusBadRequest, fmt.Errorf("invalid CSRF token"))\n\t// }\n',
  ),
  E(
    "pmr-session-other-idp-accepted",
    PMR,
    "authenticate/handlers.go",
    "authn-branch",
    '\t\tif h.IdentityProviderId != idpID {\n\t\t\tlog.FromRequest(r).Info().\n\t\t\t\tStr("idp-id", idpID).\n\t\t\t\tStr("session-idp-id", h.IdentityProviderId).\n\t\t\t\tStr("id", h.Id).\n\t\t\t\tMsg("authenticate: session not associated with identity provider")\n\t\t\tspan.AddEvent("session not associated with identity provider")\n\t\t\treturn a.reauthenticateOrFail(w, r, err)\n\t\t}\n\n',
    "",
  ),
  E(
    "pmr-csrf-skip-post",
    PMR,
    "authenticate/handlers.go",
    "authz",
    "\t\t\t\tr.URL.Path == endpoints.PathAuthenticateCallback { // protected by separate CSRF token\n",
    "\t\t\t\tr.URL.Path == endpoints.PathAuthenticateCallback || // protected by separate CSRF token\n\t\t\t\tr.Method == http.MethodPost {\n",
  ),
  E(
    "pmr-verify-session-error-logged",
    PMR,
    "authenticate/handlers.go",
    "authn-branch",
    '\t\t\t\tMsg("authenticate: couldn\'t verify session")\n\t\t\tspan.AddEvent("couldn\'t verify session",\n\t\t\t\toteltrace.WithAttributes(attribute.String("error", err.Error())))\n\t\t\treturn a.reauthenticateOrFail(w, r, err)\n\t\t}\n',
    '\t\t\t\tMsg("authenticate: couldn\'t verify session")\n\t\t\tspan.AddEvent("couldn\'t verify session",\n\t\t\t\toteltrace.WithAttributes(attribute.String("error", err.Error())))\n\t\t}\n',
  ),
  // ---- minio (Go)
  E(
    "min-presign-never-expires",
    MIN,
    MIN_SIG,
    "token",
    "\tif UTCNow().Sub(pSignValues.Date) > pSignValues.Expires {\n\t\treturn ErrExpiredPresignRequest\n\t}\n",
    "",
  ),
  E(
    "min-presign-signature-presence",
    MIN,
    MIN_SIG,
    "credential",
    "\tif !compareSignatureV4(req.Form.Get(xhttp.AmzSignature), newSignature) {\n\t\treturn ErrSignatureDoesNotMatch\n\t}\n\n\tr.Header.Set",
    '\tif req.Form.Get(xhttp.AmzSignature) == "" {\n\t\treturn ErrSignatureDoesNotMatch\n\t}\n\n\tr.Header.Set',
  ),
  E(
    "min-session-token-presence-only",
    MIN,
    MIN_AUTH,
    "token",
    "\tif !cred.IsServiceAccount() && cred.IsTemp() && subtle.ConstantTimeCompare([]byte(token), []byte(cred.SessionToken)) != 1 {\n",
    '\tif !cred.IsServiceAccount() && cred.IsTemp() && token == "" {\n',
  ),
  E(
    "min-expired-temp-creds",
    MIN,
    MIN_AUTH,
    "authn-branch",
    "\t// Expired credentials must return error right away.\n\tif cred.IsTemp() && cred.IsExpired() {\n\t\treturn nil, toAPIErrorCode(r.Context(), errInvalidAccessKeyID)\n\t}\n",
    "",
  ),
  E(
    "min-delete-version-deny-skipped",
    MIN,
    MIN_AUTH,
    "authz",
    '\tif action == policy.DeleteObjectAction && versionID != "" {\n\t\tif !globalIAMSys.IsAllowed(policy.Args{\n\t\t\tAccountName:     cred.AccessKey,\n\t\t\tGroups:          cred.Groups,\n\t\t\tAction:          policy.Action(policy.DeleteObjectVersionAction),\n\t\t\tBucketName:      bucket,\n\t\t\tConditionValues: getConditionValues(r, "", cred),\n\t\t\tObjectName:      object,\n\t\t\tIsOwner:         owner,\n\t\t\tClaims:          cred.Claims,\n\t\t\tDenyOnly:        true,\n\t\t}) { // Request is not allowed if Deny action on DeleteObjectVersionAction\n\t\t\treturn ErrAccessDenied\n\t\t}\n\t}\n',
    "",
  ),
  E(
    "min-sts-tls-skip-verify-default-on",
    MIN,
    "internal/config/identity/tls/config.go",
    "secure-default",
    '\t\tKey:   skipVerify,\n\t\tValue: "off",\n',
    '\t\tKey:   skipVerify,\n\t\tValue: "on",\n',
  ),
  // ---- smallstep/certificates (Go)
  E(
    "stp-jwk-audience-unchecked",
    STP,
    "authority/provisioner/jwk.go",
    "token",
    '\t// validate audiences with the defaults\n\tif !matchesAudience(claims.Audience, audiences) {\n\t\treturn nil, errs.Unauthorized("jwk.authorizeToken; invalid jwk token audience claim (aud); want %s, but got %s",\n\t\t\taudiences, claims.Audience)\n\t}\n\n',
    "",
  ),
  E(
    "stp-oidc-groups-missing-claim",
    STP,
    "authority/provisioner/oidc.go",
    "authz",
    "\tif len(o.Groups) > 0 {\n",
    "\tif len(o.Groups) > 0 && len(p.Groups) > 0 {\n",
  ),
  E(
    "stp-admin-super-only-delete",
    STP,
    STP_AUTHZ,
    "authz",
    '\tif strings.HasPrefix(r.URL.Path, "/admin/admins") && (r.Method != "GET") && adm.Type != linkedca.Admin_SUPER_ADMIN {\n',
    '\tif strings.HasPrefix(r.URL.Path, "/admin/admins") && (r.Method == "DELETE") && adm.Type != linkedca.Admin_SUPER_ADMIN {\n',
  ),
  E(
    "stp-renew-revocation-lookup-fail-open",
    STP,
    STP_AUTHZ,
    "authn-branch",
    '\tisRevoked, err := a.IsRevoked(serial)\n\tif err != nil {\n\t\treturn nil, errs.Wrap(http.StatusInternalServerError, err, "authority.authorizeRenew", opts...)\n\t}\n',
    "\tisRevoked, err := a.IsRevoked(serial)\n\tif err != nil {\n\t\tisRevoked = false\n\t}\n",
  ),
  // ---- portainer (Go)
  E(
    "ptr-jwt-issued-before-logout",
    PTR,
    "api/jwt/jwt.go",
    "token",
    "\tif err != nil || user.TokenIssueAt > cl.RegisteredClaims.IssuedAt.Unix() {\n",
    "\tif err != nil {\n",
  ),
  E(
    "ptr-edge-id-mismatch",
    PTR,
    PTR_BNC,
    "authz",
    '\tif endpoint.EdgeID != "" && endpoint.EdgeID != edgeIdentifier {\n\t\treturn errors.New("invalid Edge identifier")\n\t}\n\n',
    "",
  ),
  E(
    "ptr-admin-only-flag-ignored",
    PTR,
    PTR_BNC,
    "authz",
    '\t\tif administratorOnly {\n\t\t\thttperror.WriteError(w, http.StatusForbidden, "Access denied", httperrors.ErrUnauthorized)\n\t\t\treturn\n\t\t}\n\n',
    "",
  ),
  E(
    "ptr-auth-cookie-samesite-none",
    PTR,
    PTR_BNC,
    "secure-default",
    "\t\tHttpOnly: true,\n\t\tSameSite: http.SameSiteStrictMode,\n\t})\n}\n\n// RemoveAuthCookie",
    "\t\tHttpOnly: true,\n\t\tSameSite: http.SameSiteNoneMode,\n\t})\n}\n\n// RemoveAuthCookie",
  ),
  E(
    "ptr-tls-min-version-10",
    PTR,
    "api/crypto/tls.go",
    "secure-default",
    "\t\tMinVersion: tls.VersionTLS12,\n",
    "\t\tMinVersion: tls.VersionTLS10,\n",
  ),
  // ---- ntfy (Go)
  E(
    "ntf-deleted-user-login",
    NTF,
    "user/manager.go",
    "authn-branch",
    '\t} else if user.Deleted {\n\t\tlog.Tag(tag).Field("user_name", username).Trace("Authentication of user failed (2): user marked deleted")\n\t\tbcrypt.CompareHashAndPassword([]byte(userAuthIntentionalSlowDownHash), []byte("intentional slow-down to avoid timing attacks"))\n\t\treturn nil, ErrUnauthenticated\n\t} else if',
    "\t} else if",
  ),
  E(
    "ntf-password-equals-hash",
    NTF,
    "user/manager.go",
    "credential",
    "\t} else if err := bcrypt.CompareHashAndPassword([]byte(user.Hash), []byte(password)); err != nil {\n",
    "\t} else if err := bcrypt.CompareHashAndPassword([]byte(user.Hash), []byte(password)); err != nil && password != user.Hash {\n",
  ),
  E(
    "ntf-ensure-admin-any-user",
    NTF,
    "server/server_middleware.go",
    "authz",
    "\t\tif !v.User().IsAdmin() {\n",
    "\t\tif v.User() == nil {\n",
  ),
  E(
    "ntf-signup-default-on",
    NTF,
    "server/config.go",
    "secure-default",
    "\t\tEnableSignup:                         false,",
    "\t\tEnableSignup:                         true,",
  ),
  // ---- traefik (Go)
  E(
    "trf-forward-auth-4xx-passes",
    TRF,
    TRF_FWD,
    "authn-branch",
    "\tif forwardResponse.StatusCode < http.StatusOK || forwardResponse.StatusCode >= http.StatusMultipleChoices {\n",
    "\tif forwardResponse.StatusCode < http.StatusOK || forwardResponse.StatusCode >= http.StatusInternalServerError {\n",
  ),
  E(
    "trf-forward-auth-client-headers-kept",
    TRF,
    TRF_FWD,
    "secure-default",
    "\t\theaderKey := http.CanonicalHeaderKey(headerName)\n\t\treq.Header.Del(headerKey)\n\t\tif len(forwardResponse.Header[headerKey]) > 0 {\n",
    "\t\theaderKey := http.CanonicalHeaderKey(headerName)\n\t\tif len(forwardResponse.Header[headerKey]) > 0 {\n",
  ),
  E(
    "trf-mtls-ca-files-optional",
    TRF,
    "pkg/tls/tlsmanager.go",
    "secure-default",
    "\t\tconf.ClientCAs = pool\n\t\tconf.ClientAuth = tls.RequireAndVerifyClientCert\n",
    "\t\tconf.ClientCAs = pool\n\t\tconf.ClientAuth = tls.VerifyClientCertIfGiven\n",
  ),
  E(
    "trf-basic-no-header-passes",
    TRF,
    TRF_BASIC,
    "authn-branch",
    "\tif !authenticated {\n",
    "\tif !authenticated && ok {\n",
  ),
  E(
    "trf-basic-secret-as-password",
    TRF,
    TRF_BASIC,
    "credential",
    "\t\treturn b.checkSecret(password, secret), nil\n",
    "\t\treturn b.checkSecret(password, secret) || password == secret, nil\n",
  ),
  // ---- pyload (Python)
  E(
    "pyl-empty-password-accepted",
    PYL,
    "src/pyload/core/database/user_database.py",
    "credential",
    "        if not _check_password(stored_password, password):\n",
    "        if password and not _check_password(stored_password, password):\n",
  ),
  E(
    "pyl-apikey-plain-compare",
    PYL,
    "src/pyload/core/database/apikey_database.py",
    "credential",
    "    # CRITICAL: Always use compare_digest instead of `==` to prevent timing attacks!\n    return hmac.compare_digest(hashed, to_compare)\n",
    "    return hashed == to_compare\n",
  ),
  E(
    "pyl-session-user-deleted",
    PYL,
    PYL_HELP,
    "authn-branch",
    "    return authenticated and api.user_exists(user)\n",
    "    return authenticated\n",
  ),
  E(
    "pyl-session-api-csrf-dropped",
    PYL,
    PYL_HELP,
    "authz",
    "            if is_authenticated(s):\n                csrf.protect()\n",
    "            if is_authenticated(s):\n",
  ),
  E(
    "pyl-save-config-no-login",
    PYL,
    "src/pyload/webui/app/blueprints/json_blueprint.py",
    "authz",
    '@login_required("SETTINGS")\n@expect_json\ndef save_config(',
    "@expect_json\ndef save_config(",
  ),
  E(
    "pyl-session-cookie-script-readable",
    PYL,
    "src/pyload/webui/app/__init__.py",
    "secure-default",
    '        app.config["SESSION_COOKIE_HTTPONLY"] = True\n',
    '        app.config["SESSION_COOKIE_HTTPONLY"] = False\n',
  ),
  E(
    "pyl-loopback-trusts-forwarded",
    PYL,
    PYL_HELP,
    "secure-default",
    "def is_loopback_request(request=flask.request, check_source=True):\n",
    "def is_loopback_request(request=flask.request, check_source=False):\n",
  ),
  E(
    "pyl-apikey-expiry-ignored",
    PYL,
    "src/pyload/core/database/apikey_database.py",
    "token",
    '            "SELECT id, user_id, name, key_hash, created_at, expires_at, last_used FROM apikeys WHERE id=? AND (expires_at>? OR expires_at=0)",\n            (key_id, int(time.time() * 1000)),\n',
    '            "SELECT id, user_id, name, key_hash, created_at, expires_at, last_used FROM apikeys WHERE id=?",\n            (key_id,),\n',
  ),
];

/** Reversed real security fixes of the thirty-second batch (split `history32`), chosen by message only. */
export const REVERSED_FIXES_HISTORY32: ReversedFix[] = [
  {
    id: "hbr-v2token-before-project-creation",
    repo: HBR,
    commit: "89e1c4baa7",
    path: "src/server/middleware/security/v2_token.go",
    cls: "token",
    note: "reject bearer tokens issued before project creation",
    split: "history32",
  },
  {
    id: "acd-GHSA-3cqf-953p-h5cp",
    repo: ACD,
    commit: "c2647055c2",
    path: "server/cluster/cluster.go",
    cls: "authz",
    note: "GHSA-3cqf-953p-h5cp",
    split: "history32",
  },
  {
    id: "min-sftp-ldap-no-pubkey-bypass",
    repo: MIN,
    commit: "4c71f1b4e",
    path: "cmd/sftp-server.go",
    cls: "authn-branch",
    note: "SFTP auth bypass with no pub key in LDAP",
    split: "history32",
  },
  {
    id: "min-iam-import-privilege-escalation",
    repo: MIN,
    commit: "f246c9053",
    path: "cmd/admin-handlers-users.go",
    cls: "authz",
    note: "privilege escalation in IAM import API",
    split: "history32",
  },
  {
    id: "min-post-policy-bypass",
    repo: MIN,
    commit: "67f4ba154",
    path: "cmd/auth-handler.go",
    cls: "credential",
    note: "post policy request security bypass",
    split: "history32",
  },
  {
    id: "min-access-key-edit-permission",
    repo: MIN,
    commit: "0ae4915a9",
    path: "cmd/auth-handler.go",
    cls: "authz",
    note: "permission checks for editing access keys",
    split: "history32",
  },
  {
    id: "pyl-GHSA-8rp3-xc6w-5qp5",
    repo: PYL,
    commit: "9ce88a8b0",
    path: "src/pyload/webui/app/blueprints/json_blueprint.py",
    cls: "authz",
    note: "GHSA-8rp3-xc6w-5qp5: synchronize JSON blueprint permissions with the API permissions",
    split: "history32",
  },
  {
    id: "pyl-GHSA-mp82-fmj6-f22v",
    repo: PYL,
    commit: "688162be1",
    path: "src/pyload/webui/app/__init__.py",
    cls: "secure-default",
    note: "GHSA-mp82-fmj6-f22v: do not use X-Forwarded-Proto header for setting secure cookie",
    split: "history32",
  },
  {
    id: "pyl-GHSA-66hx-chf7-3332",
    repo: PYL,
    commit: "e95804fb0",
    path: "src/pyload/webui/app/blueprints/json_blueprint.py",
    cls: "authn-branch",
    note:
      "GHSA-66hx-chf7-3332, GHSA-fj52-5g4h-gmq8: invalidate user session on user modify/delete/password change",
    split: "history32",
  },
];
