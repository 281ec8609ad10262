/**
 * Fortieth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (ory/hydra, ory/kratos, netmaker, headscale,
 * zincsearch, shiori, writefreely, drone, django-auth-adfs), chosen the way a careless refactor or
 * an attacker would weaken them, before any measurement. Reversed fixes were picked by commit
 * message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H40 = "heldout40" as const;
const ZS = "zincsearch/zincsearch";
const SH = "go-shiori/shiori";
const DR = "drone/drone";
const HS = "juanfont/headscale";
const KR = "ory/kratos";
const HY = "ory/hydra";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H40);

/** The fortieth held-out batch of edits (split `heldout40`). */
export const EDITS_HELDOUT40: GuardEdit[] = [
  // ---- zincsearch (Go)
  E(
    "h40-zs-missing-credentials-next",
    ZS,
    "pkg/routes/middleware.go",
    "authn-branch",
    '\t\t} else {\n\t\t\tc.AbortWithStatusJSON(http.StatusUnauthorized, gin.H{"auth": "Missing credentials"})\n\t\t\treturn\n\t\t}\n',
    "\t\t} else {\n\t\t\tc.Next()\n\t\t}\n",
  ),
  E(
    "h40-zs-read-without-permission",
    ZS,
    "pkg/routes/middleware.go",
    "authz",
    "\t\t\t\tif auth.VerifyRoleHasPermission(u.Role, permission) {\n",
    "\t\t\t\tif auth.VerifyRoleHasPermission(u.Role, permission) || c.Request.Method == http.MethodGet {\n",
  ),
  E(
    "h40-zs-password-hash-not-compared",
    ZS,
    "pkg/auth/auth.go",
    "credential",
    "\tincomingEncryptedPassword := GeneratePassword(password, user.Salt)\n\tif incomingEncryptedPassword == user.Password {\n",
    '\tif user.Password != "" {\n',
  ),
  E(
    "h40-zs-unknown-role-allowed",
    ZS,
    "pkg/auth/auth.go",
    "authz",
    "\tpm, ok := ZINC_CACHED_PERMISSIONS.Get(roleId)\n\tif !ok {\n\t\treturn false\n\t}\n",
    "\tpm, ok := ZINC_CACHED_PERMISSIONS.Get(roleId)\n\tif !ok {\n\t\treturn true\n\t}\n",
  ),
  E(
    "h40-zs-admin-prefix",
    ZS,
    "pkg/auth/auth.go",
    "authz",
    '\tif roleId == "admin" {\n',
    '\tif strings.HasPrefix(roleId, "admin") {\n',
  ),
  // ---- shiori (Go)
  E(
    "h40-sh-jwt-alg-not-checked",
    SH,
    "internal/domains/auth.go",
    "token",
    '\t\t// Validate algorithm\n\t\tif _, ok := token.Method.(*jwt.SigningMethodHMAC); !ok {\n\t\t\treturn nil, fmt.Errorf("unexpected signing method: %v", token.Header["alg"])\n\t\t}\n\n',
    "",
  ),
  E(
    "h40-sh-jwt-parse-error-tolerated",
    SH,
    "internal/domains/auth.go",
    "token",
    '\tif err != nil {\n\t\treturn nil, fmt.Errorf("error parsing token: %w", err)\n\t}\n\n\tif claims, ok := token.Claims.(*JWTClaim); ok && token.Valid {\n',
    '\tif err != nil && token == nil {\n\t\treturn nil, fmt.Errorf("error parsing token: %w", err)\n\t}\n\n\tif claims, ok := token.Claims.(*JWTClaim); ok {\n',
  ),
  E(
    "h40-sh-bcrypt-commented",
    SH,
    "internal/domains/auth.go",
    "credential",
    '\tif err := bcrypt.CompareHashAndPassword([]byte(account.Password), []byte(password)); err != nil {\n\t\treturn nil, fmt.Errorf("username or password do not match")\n\t}\n',
    '\t// if err := bcrypt.CompareHashAndPassword([]byte(account.Password), []byte(password)); err != nil {\n\t// \treturn nil, fmt.Errorf("username or password do not match")\n\t// }\n\t_ = bcrypt.DefaultCost\n',
  ),
  E(
    "h40-sh-admin-owner-check-gone",
    SH,
    "internal/http/middleware/auth.go",
    "authz",
    '\tif !account.IsOwner() {\n\t\tresponse.SendError(c, http.StatusForbidden, "Admin access required")\n\t\treturn fmt.Errorf("admin access required")\n\t}\n\n',
    "",
  ),
  E(
    "h40-sh-require-user-get-open",
    SH,
    "internal/http/middleware/auth.go",
    "authn-branch",
    '\tif !c.UserIsLogged() {\n\t\tresponse.SendError(c, http.StatusUnauthorized, "Authentication required")\n',
    '\tif !c.UserIsLogged() && c.Request().Method != http.MethodGet {\n\t\tresponse.SendError(c, http.StatusUnauthorized, "Authentication required")\n',
  ),
  E(
    "h40-sh-sso-any-ip",
    SH,
    "internal/http/middleware/auth_sso_proxy.go",
    "authn-branch",
    '\tif !m.isTrustedIP(requestIP) {\n\t\treturn nil, errors.New("remoteAddr is not a trusted ip")\n\t}\n',
    '\tif !m.isTrustedIP(requestIP) {\n\t\tdeps.Logger().WithField("ip", ip).Warn("sso header from untrusted ip")\n\t}\n',
  ),
  // ---- drone (Go)
  E(
    "h40-dr-authorize-admin-any-user",
    DR,
    "handler/api/acl/acl.go",
    "authz",
    '\t\t} else if !user.Admin {\n\t\t\trender.Forbidden(w, errors.ErrForbidden)\n\t\t\tlogger.FromRequest(r).\n\t\t\t\tDebugln("api: administrative access required")\n\t\t} else {\n',
    "\t\t} else {\n\t\t\t_ = user\n",
  ),
  E(
    "h40-dr-inactive-user-granted",
    DR,
    "handler/api/acl/check.go",
    "authn-branch",
    '\t\t\tcase user.Active == false:\n\t\t\t\trender.Forbidden(w, errors.ErrForbidden)\n\t\t\t\tlog.Debugln("api: active account required")\n',
    "",
  ),
  E(
    "h40-dr-write-with-read-perm",
    DR,
    "handler/api/acl/check.go",
    "authz",
    "\t\t\tcase write == true && perm.Write == false:\n",
    "\t\t\tcase write == true && perm.Write == false && perm.Read == false:\n",
  ),
  E(
    "h40-dr-internal-repo-guest-read",
    DR,
    "handler/api/acl/check.go",
    "authz",
    "\t\t\tcase repo.Visibility == core.VisibilityPublic:\n",
    "\t\t\tcase repo.Visibility != core.VisibilityPrivate:\n",
  ),
  E(
    "h40-dr-session-cookie-script-readable",
    DR,
    "session/session.go",
    "secure-default",
    "\t\tHttpOnly: true,\n\t\tSecure:   s.secure,\n",
    "\t\tHttpOnly: false,\n\t\tSecure:   s.secure,\n",
  ),
  E(
    "h40-dr-legacy-jwt-any-method",
    DR,
    "session/legacy.go",
    "token",
    '\t\t// validate the signing method\n\t\t_, ok := token.Method.(*jwt.SigningMethodHMAC)\n\t\tif !ok {\n\t\t\treturn nil, errors.New("Legacy token: invalid signature")\n\t\t}\n\n\t\tclaims, ok := token.Claims.(jwt.MapClaims)\n',
    "\t\tclaims, ok := token.Claims.(jwt.MapClaims)\n",
  ),
  // ---- headscale (Go)
  E(
    "h40-hs-nodekey-machinekey-unchecked",
    HS,
    "hscontrol/auth.go",
    "authn-branch",
    "\t\t\terr := machineKeyMismatch(node, machineKey)\n\t\t\tif err != nil {\n\t\t\t\treturn nil, err\n\t\t\t}\n\n",
    "",
  ),
  E(
    "h40-hs-key-extension-allowed",
    HS,
    "hscontrol/auth.go",
    "token",
    '\t// The client is trying to extend their key, this is not allowed.\n\tif req.Expiry.After(time.Now()) {\n\t\treturn nil, NewHTTPError(http.StatusBadRequest, "extending key is not allowed", nil)\n\t}\n\n',
    "",
  ),
  E(
    "h40-hs-revoked-preauthkey-valid",
    HS,
    "hscontrol/types/preauth_key.go",
    "token",
    '\tif pak.Revoked != nil {\n\t\treturn PAKError("authkey revoked")\n\t}\n\n',
    "",
  ),
  E(
    "h40-hs-used-preauthkey-reused",
    HS,
    "hscontrol/types/preauth_key.go",
    "token",
    "\tif pak.Used {\n",
    "\tif pak.Used && pak.Ephemeral {\n",
  ),
  E(
    "h40-hs-expired-apikey-authenticates",
    HS,
    "hscontrol/db/api_key.go",
    "token",
    "\tif key.Expiration != nil && key.Expiration.Before(time.Now()) {\n\t\treturn nil, ErrAPIKeyExpired\n\t}\n",
    '\tif key.Expiration != nil && key.Expiration.Before(time.Now()) {\n\t\tlog.Warn().Msg("API key expired")\n\t}\n',
  ),
  E(
    "h40-hs-legacy-apikey-hash-ignored",
    HS,
    "hscontrol/db/api_key.go",
    "credential",
    '\t// Verify bcrypt (key.Hash stores bcrypt of full secret)\n\terr = bcrypt.CompareHashAndPassword(key.Hash, []byte(secret))\n\tif err != nil {\n\t\treturn nil, fmt.Errorf("invalid API key: %w", err)\n\t}\n',
    "\t// Verify bcrypt (key.Hash stores bcrypt of full secret)\n\t_ = bcrypt.CompareHashAndPassword(key.Hash, []byte(secret))\n",
  ),
  E(
    "h40-hs-oidc-state-not-matched",
    HS,
    "hscontrol/oidc.go",
    "token",
    "\tif state != cookieState.Value {\n",
    '\tif cookieState.Value == "" {\n',
  ),
  E(
    "h40-hs-oidc-nonce-not-matched",
    HS,
    "hscontrol/oidc.go",
    "token",
    '\tif idToken.Nonce != nonce.Value {\n\t\thttpUserError(writer, NewHTTPError(http.StatusForbidden, "nonce did not match", nil))\n\t\treturn\n\t}\n\n',
    "\t_ = nonce\n\n",
  ),
  E(
    "h40-hs-oidc-unverified-email-trusted",
    HS,
    "hscontrol/oidc.go",
    "authz",
    "\ttrustEmail := !cfg.EmailVerifiedRequired || bool(claims.EmailVerified)\n",
    "\ttrustEmail := true\n",
  ),
  // ---- ory/kratos (Go)
  E(
    "h40-kr-password-mismatch-logged",
    KR,
    "selfservice/strategy/password/login.go",
    "credential",
    "\t\tif err := hash.Compare(ctx, []byte(p.Password), []byte(o.HashedPassword)); err != nil {\n\t\t\treturn nil, s.handleLoginError(r, f, p, errors.WithStack(x.WrapWithIdentityIDError(schema.NewInvalidCredentialsError(), i.ID)))\n\t\t}\n",
    '\t\tif err := hash.Compare(ctx, []byte(p.Password), []byte(o.HashedPassword)); err != nil {\n\t\t\ts.d.Logger().Warnf("password comparison failed for identity %s: %s", i.ID, err)\n\t\t}\n',
  ),
  E(
    "h40-kr-password-login-csrf-ignored",
    KR,
    "selfservice/strategy/password/login.go",
    "authz",
    "\tif err := flow.EnsureCSRF(s.d, r, f.Type, s.d.Config().DisableAPIFlowEnforcement(ctx), s.d.GenerateCSRFToken, p.CSRFToken); err != nil {\n\t\treturn nil, s.handleLoginError(r, f, p, err)\n\t}\n",
    "\t_ = flow.EnsureCSRF(s.d, r, f.Type, s.d.Config().DisableAPIFlowEnforcement(ctx), s.d.GenerateCSRFToken, p.CSRFToken)\n",
  ),
  E(
    "h40-kr-browser-csrf-empty-token",
    KR,
    "selfservice/flow/request.go",
    "authz",
    "\t\tif !nosurf.VerifyToken(generator(r), actual) {\n",
    '\t\tif actual != "" && !nosurf.VerifyToken(generator(r), actual) {\n',
  ),
  E(
    "h40-kr-inactive-session-returned",
    KR,
    "session/manager_http.go",
    "authn-branch",
    "\tif !se.IsActive() {\n\t\treturn nil, errors.WithStack(NewErrNoActiveSessionFound())\n\t}\n\n",
    "",
  ),
  E(
    "h40-kr-disabled-identity-activated",
    KR,
    "session/manager_http.go",
    "authn-branch",
    '\tif !i.IsActive() {\n\t\treturn errors.WithStack(ErrIdentityDisabled().WithDetail("identity_id", i.ID))\n\t}\n\n',
    "",
  ),
  E(
    "h40-kr-aal1-satisfies-all",
    KR,
    "session/manager_http.go",
    "authn-branch",
    "\t// If we already have AAL2 there is no need to check further because it is the highest AAL.\n\tif sess.AuthenticatorAssuranceLevel == identity.AuthenticatorAssuranceLevel2 {\n",
    "\t// If we already have AAL2 there is no need to check further because it is the highest AAL.\n\tif sess.AuthenticatorAssuranceLevel >= identity.AuthenticatorAssuranceLevel1 {\n",
  ),
  E(
    "h40-kr-session-cookie-insecure-default",
    KR,
    "driver/config/config.go",
    "secure-default",
    "\tif !p.GetProvider(ctx).Exists(ViperKeySessionSecure) {\n\t\treturn !p.IsInsecureDevMode(ctx)\n\t}\n",
    "\tif !p.GetProvider(ctx).Exists(ViperKeySessionSecure) {\n\t\treturn false\n\t}\n",
  ),
  // ---- ory/hydra (Go)
  E(
    "h40-hy-csrf-value-not-compared",
    HY,
    "consent/csrf.go",
    "authz",
    '\t} else if csrf != expectedCSRF {\n\t\treturn errors.WithStack(fosite.ErrRequestForbidden.WithHint("The CSRF value from the token does not match the CSRF value from the data store."))\n\t}\n',
    "\t} else {\n\t\t_ = csrf\n\t}\n",
  ),
  E(
    "h40-hy-csrf-cookie-not-httponly",
    HY,
    "consent/csrf.go",
    "secure-default",
    "\tsession.Options.HttpOnly = true\n",
    "\tsession.Options.HttpOnly = false\n",
  ),
  E(
    "h40-hy-consent-csrf-logged",
    HY,
    "consent/strategy_default.go",
    "authz",
    "\tif err := validateCSRFCookie(ctx, r, s.r.Config(), store, clientSpecificCookieNameConsentCSRF, f.ConsentCSRF.String()); err != nil {\n\t\treturn nil, err\n\t}\n",
    '\tif err := validateCSRFCookie(ctx, r, s.r.Config(), store, clientSpecificCookieNameConsentCSRF, f.ConsentCSRF.String()); err != nil {\n\t\ts.r.Logger().WithError(err).Warn("consent csrf cookie could not be validated")\n\t}\n',
  ),
  E(
    "h40-hy-consent-client-id-unchecked",
    HY,
    "consent/strategy_default.go",
    "authz",
    '\t} else if f.Client.GetID() != r.URL.Query().Get("client_id") {\n\t\treturn nil, errors.WithStack(fosite.ErrInvalidClient.WithHint("The flow client id does not match the authorize request client id."))\n\t}\n',
    "\t}\n",
  ),
  E(
    "h40-hy-max-age-zero-ignored",
    HY,
    "consent/strategy_default.go",
    "authn-branch",
    "\tif maxAge > -1 && time.Time(session.AuthenticatedAt).UTC().Add(time.Second*time.Duration(maxAge)).Before(time.Now().UTC()) {\n",
    "\tif maxAge > 0 && time.Time(session.AuthenticatedAt).UTC().Add(time.Second*time.Duration(maxAge)).Before(time.Now().UTC()) {\n",
  ),
  E(
    "h40-hy-id-token-hint-subject-ignored",
    HY,
    "consent/strategy_default.go",
    "authn-branch",
    '\tif err := s.matchesValueFromSession(ctx, ar.GetClient(), hintSub, session.Subject); errors.Is(err, ErrHintDoesNotMatchAuthentication) {\n\t\treturn errors.WithStack(fosite.ErrLoginRequired.WithHint("Request failed because subject claim from id_token_hint does not match subject from authentication session."))\n\t}\n',
    "\t_ = s.matchesValueFromSession(ctx, ar.GetClient(), hintSub, session.Subject)\n",
  ),
  E(
    "h40-hy-id-token-hint-invalid-accepted",
    HY,
    "consent/strategy_default.go",
    "token",
    "\t} else if err != nil {\n\t\treturn nil, errors.WithStack(fosite.ErrInvalidRequest.WithHint(err.Error()))\n\t}\n\treturn token.Claims, nil\n",
    "\t} else if err != nil && token == nil {\n\t\treturn nil, errors.WithStack(fosite.ErrInvalidRequest.WithHint(err.Error()))\n\t}\n\treturn token.Claims, nil\n",
  ),
  E(
    "h40-hy-cookie-secure-prod-not-forced",
    HY,
    "driver/config/provider.go",
    "secure-default",
    "\tif !p.IsDevelopmentMode(ctx) {\n\t\treturn true\n\t}\n\treturn p.getProvider(ctx).BoolF(KeyCookieSecure, false)\n",
    "\treturn p.getProvider(ctx).BoolF(KeyCookieSecure, false)\n",
  ),
  E(
    "h40-hy-insecure-origins-default-on",
    HY,
    "driver/config/provider.go",
    "secure-default",
    "\treturn p.getProvider(ctx).Bool(KeyFeatureFlagsLegacyAllowInsecureOrigins)\n",
    "\treturn p.getProvider(ctx).BoolF(KeyFeatureFlagsLegacyAllowInsecureOrigins, true)\n",
  ),
];

/** Reversed real security fixes of the fortieth batch (split `history40`), chosen by message only. */
export const REVERSED_FIXES_HISTORY40: ReversedFix[] = [];
