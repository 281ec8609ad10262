/**
 * Held-out batch 137 of the guard-removal corpus: removals written by reading the security code
 * of projects not otherwise used by the corpus (Temporal, Dragonfly, Corteza, step CLI,
 * Treeherder, Ironic, Socorro, CodeX Docs, Huly platform), chosen the way a careless refactor or
 * an attacker would weaken them, before any measurement. Reversed fixes were picked by commit
 * message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H137 = "heldout137" as const;
const TMP = "temporalio/temporal";
const TMP_AZ = "common/authorization/default_authorizer.go";
const TMP_JWT = "common/authorization/default_jwt_claim_mapper.go";
const TMP_IC = "common/authorization/interceptor.go";
const TMP_TLS = "common/auth/tls_config_helper.go";
const DF = "dragonflyoss/Dragonfly2";
const DF_USER = "manager/service/user.go";
const CTZ = "cortezaproject/corteza";
const CTZ_AUTH = "server/system/service/auth.go";
const SS = "smallstep/cli";
const SS_JWT = "command/crypto/jwt/verify.go";
const TH = "mozilla/treeherder";
const TH_BE = "treeherder/auth/backends.py";
const IR = "openstack/ironic";
const IR_BASIC = "ironic/common/auth_basic.py";
const IR_AGENT = "ironic/conf/agent.py";
const SO = "mozilla/socorro";
const SO_MW = "webapp-django/crashstats/tokens/middleware.py";
const CX = "codex-team/codex.docs";
const CX_AUTH = "src/backend/routes/auth.ts";
const CX_TOK = "src/backend/routes/middlewares/token.ts";
const HC = "hcengineering/platform";
const HC_UTILS = "server/account/src/utils.ts";
const HC_OPS = "server/account/src/operations.ts";
const HC_TOKEN = "foundations/core/packages/token/src/token.ts";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H137);

/** Held-out batch 137 of edits (split `heldout137`). */
export const EDITS_HELDOUT137: GuardEdit[] = [
  // ---- temporalio/temporal (Go)
  E(
    "tmp-nil-claims-allowed",
    TMP,
    TMP_AZ,
    "authz",
    "\tif claims == nil {\n\t\treturn resultDeny, nil\n\t}\n",
    "\tif claims == nil {\n\t\treturn resultAllow, nil\n\t}\n",
  ),
  E(
    "tmp-required-role-readonly",
    TMP,
    TMP_AZ,
    "authz",
    "\tif hasRole >= getRequiredRole(metadata.Access) {\n",
    "\tif hasRole >= getRequiredRole(api.AccessReadOnly) {\n",
  ),
  E(
    "tmp-audience-not-required",
    TMP,
    TMP_JWT,
    "token",
    '\tif strings.TrimSpace(audience) != "" && !claims.VerifyAudience(audience, true) {\n',
    '\tif strings.TrimSpace(audience) != "" && !claims.VerifyAudience(audience, false) {\n',
  ),
  E(
    "tmp-claims-valid-dropped",
    TMP,
    TMP_JWT,
    "token",
    "\tif err := claims.Valid(); err != nil {\n\t\treturn nil, err\n\t}\n",
    "",
  ),
  E(
    "tmp-bearer-scheme-unchecked",
    TMP,
    TMP_JWT,
    "authn-branch",
    '\tif !strings.EqualFold(parts[0], authorizationBearer) {\n\t\treturn nil, serviceerror.NewPermissionDenied("unexpected name in authorization token", "")\n\t}\n',
    "",
  ),
  E(
    "tmp-claims-error-logged",
    TMP,
    TMP_IC,
    "authn-branch",
    '\t\tif err != nil {\n\t\t\ta.logger.Error("Authorization error", tag.Error(err))\n\t\t\t// return a generic error to the caller without disclosing details\n\t\t\treturn nil, errUnauthorized\n\t\t}\n\t\tctx = a.EnhanceContext(ctx, authInfo, claims)\n',
    '\t\tif err != nil {\n\t\t\ta.logger.Warn("Authorization error", tag.Error(err))\n\t\t}\n\t\tctx = a.EnhanceContext(ctx, authInfo, claims)\n',
  ),
  E(
    "tmp-decision-deny-only-with-reason",
    TMP,
    TMP_IC,
    "authz",
    "\tif result.Decision != DecisionAllow {\n",
    '\tif result.Decision != DecisionAllow && result.Reason != "" {\n',
  ),
  // ---- dragonflyoss/Dragonfly2 (Go)
  E(
    "df-rbac-deny-logged",
    DF,
    "manager/middlewares/rbac.go",
    "authz",
    '\t\t} else if !ok {\n\t\t\tc.JSON(http.StatusUnauthorized, gin.H{\n\t\t\t\t"message": "permission deny",\n\t\t\t})\n\t\t\tc.Abort()\n\t\t\treturn\n\t\t}\n',
    '\t\t} else if !ok {\n\t\t\tlogger.Warnf("RBAC permission deny for user %v", id)\n\t\t}\n',
  ),
  E(
    "df-signin-no-password-compare",
    DF,
    DF_USER,
    "credential",
    "\tif err := bcrypt.CompareHashAndPassword([]byte(user.EncryptedPassword), []byte(json.Password)); err != nil {\n\t\treturn nil, err\n\t}\n",
    "",
  ),
  E(
    "df-reset-old-password-ignored",
    DF,
    DF_USER,
    "credential",
    "\tif err := bcrypt.CompareHashAndPassword([]byte(user.EncryptedPassword), []byte(json.OldPassword)); err != nil {\n\t\treturn err\n\t}\n",
    "\t_ = bcrypt.CompareHashAndPassword([]byte(user.EncryptedPassword), []byte(json.OldPassword))\n",
  ),
  E(
    "df-pat-prefix-match",
    DF,
    "manager/middlewares/personal_access_token.go",
    "token",
    'Where("token = ?", personalAccessToken)',
    'Where("token LIKE ?", personalAccessToken+"%")',
  ),
  E(
    "df-identity-missing-id-passes",
    DF,
    "manager/middlewares/jwt.go",
    "authn-branch",
    '\t\t\tif !ok {\n\t\t\t\tc.JSON(http.StatusUnauthorized, gin.H{\n\t\t\t\t\t"message": "Unavailable token: require user id",\n\t\t\t\t})\n\t\t\t\tc.Abort()\n\t\t\t\treturn nil\n\t\t\t}\n',
    "",
  ),
  // ---- cortezaproject/corteza (Go)
  E(
    "ctz-empty-password-login",
    CTZ,
    CTZ_AUTH,
    "authn-branch",
    "\t\tif len(password) == 0 {\n\t\t\t// making sure password is not empty\n\t\t\t// we're not checking for strength here, users might\n\t\t\t// use weak passwords from before the policy was introduced\n\t\t\treturn AuthErrInvalidCredentials()\n\t\t}\n",
    "",
  ),
  E(
    "ctz-suspended-user-login",
    CTZ,
    CTZ_AUTH,
    "authn-branch",
    "\tcase u.SuspendedAt != nil:\n\t\treturn AuthErrFailedForSuspendedUser()\n",
    "",
  ),
  E(
    "ctz-impersonate-unchecked",
    CTZ,
    CTZ_AUTH,
    "authz",
    "\t\tif !svc.ac.CanImpersonateUser(ctx, u) {\n\t\t\treturn AuthErrNotAllowedToImpersonate()\n\t\t}\n",
    "",
  ),
  E(
    "ctz-valid-password-no-hash-compare",
    CTZ,
    "server/system/service/auth_credentials.go",
    "credential",
    "\tcList := credentialsFilter(cc, 1, skipInvalid, compareHashedCredentials(password))\n",
    "\tcList := credentialsFilter(cc, 1, skipInvalid)\n",
  ),
  // ---- mozilla/treeherder (Python)
  E(
    "th-staff-or-readonly-any-user",
    TH,
    "treeherder/webapp/api/permissions.py",
    "authz",
    "        return request.method in permissions.SAFE_METHODS or request.user and request.user.is_staff\n",
    "        return request.method in permissions.SAFE_METHODS or request.user and request.user.is_authenticated\n",
  ),
  E(
    "th-classification-staff-check",
    TH,
    "treeherder/webapp/api/classification.py",
    "authz",
    '        if not request.user.is_staff:\n            return Response("Must be staff or in sheriffing group", status=HTTP_403_FORBIDDEN)\n',
    "",
  ),
  E(
    "th-id-token-audience-dropped",
    TH,
    TH_BE,
    "token",
    "                audience=AUTH0_CLIENTID,\n",
    "",
  ),
  E(
    "th-id-token-hs256-allowed",
    TH,
    TH_BE,
    "token",
    '                algorithms=["RS256"],\n',
    '                algorithms=["RS256", "HS256"],\n',
  ),
  E(
    "th-expired-session-allowed",
    TH,
    TH_BE,
    "token",
    '        if seconds_until_expiry <= 0:\n            logger.error(\n                "Session expiry time has already passed! Current time exceeds token expiration."\n            )\n            raise AuthError("Session expiry time has already passed!")\n',
    '        if seconds_until_expiry <= 0:\n            logger.error(\n                "Session expiry time has already passed! Current time exceeds token expiration."\n            )\n            seconds_until_expiry = settings.AUTH_MAX_SESSION_AGE_SECONDS\n',
  ),
  E(
    "th-bearer-scheme-unchecked",
    TH,
    TH_BE,
    "authn-branch",
    '        if len(parts) != 2 or parts[0].lower() != "bearer":\n',
    "        if len(parts) != 2:\n",
  ),
  // ---- codex-team/codex.docs (TS)
  E(
    "cx-api-no-allow-edit",
    CX,
    "src/backend/routes/index.ts",
    "authz",
    "router.use('/api', verifyToken, allowEdit, api);\n",
    "router.use('/api', verifyToken, api);\n",
  ),
  E(
    "cx-password-any-nonempty",
    CX,
    CX_AUTH,
    "credential",
    "    if (req.body.password !== appConfig.auth.password) {\n",
    "    if (!req.body.password) {\n",
  ),
  E(
    "cx-token-decoded-not-verified",
    CX,
    CX_TOK,
    "token",
    "    const decodedToken = jwt.verify(token, appConfig.auth.password + appConfig.auth.secret);\n",
    "    const decodedToken = jwt.decode(token);\n",
  ),
  E(
    "cx-verify-error-authorizes-cookie",
    CX,
    CX_TOK,
    "authn-branch",
    "  } catch (err) {\n    res.locals.isAuthorized = false;\n",
    "  } catch (err) {\n    res.locals.isAuthorized = !!token;\n",
  ),
  E(
    "cx-auth-cookie-not-httponly",
    CX,
    CX_AUTH,
    "secure-default",
    "      httpOnly: true,\n",
    "      httpOnly: false,\n",
  ),
  E(
    "cx-login-post-no-csrf",
    CX,
    CX_AUTH,
    "authz",
    "router.post('/auth', parseForm, csrfProtection, async (req: Request, res: Response) => {\n",
    "router.post('/auth', parseForm, async (req: Request, res: Response) => {\n",
  ),
  E(
    "cx-edit-page-no-allow-edit",
    CX,
    "src/backend/routes/pages.ts",
    "authz",
    "router.get('/page/edit/:id', verifyToken, allowEdit, async (req: Request, res: Response, next: NextFunction) => {\n",
    "router.get('/page/edit/:id', verifyToken, async (req: Request, res: Response, next: NextFunction) => {\n",
  ),
  E(
    "tmp-client-host-verification-off",
    TMP,
    TMP_TLS,
    "secure-default",
    "\tc := NewTLSConfigForServer(serverName, enableHostVerification)\n",
    "\tc := NewTLSConfigForServer(serverName, false)\n",
  ),
  E(
    "tmp-mtls-cert-if-given",
    TMP,
    "common/rpc/encryption/local_store_tls_provider.go",
    "secure-default",
    "\t\tclientAuthType = tls.RequireAndVerifyClientCert\n",
    "\t\tclientAuthType = tls.VerifyClientCertIfGiven\n",
  ),
  E(
    "df-grpc-server-client-cert-requested",
    DF,
    "pkg/rpc/credential.go",
    "secure-default",
    "\t\tClientAuth:   tls.RequireAndVerifyClientCert,\n",
    "\t\tClientAuth:   tls.RequestClientCert,\n",
  ),
  E(
    "ctz-session-cookie-not-httponly",
    CTZ,
    "server/auth/request/corteza_session_store.go",
    "secure-default",
    "\t\tHttpOnly: true,\n",
    "\t\tHttpOnly: false,\n",
  ),
  E(
    "ctz-csrf-samesite-none",
    CTZ,
    "server/auth/handlers/routes.go",
    "secure-default",
    "\t\t\t\t\tcsrf.SameSite(csrf.SameSiteStrictMode),\n",
    "\t\t\t\t\tcsrf.SameSite(csrf.SameSiteNoneMode),\n",
  ),
  // ---- smallstep/cli (Go)
  E(
    "ss-remote-unverified-without-roots",
    SS,
    "command/certificate/remote.go",
    "secure-default",
    "\tif insecure {\n\t\ttlsConfig.InsecureSkipVerify = true\n\t}\n",
    "\ttlsConfig.InsecureSkipVerify = insecure || rootCAs == nil\n",
  ),
  E(
    "ss-no-exp-check-without-insecure",
    SS,
    SS_JWT,
    "secure-default",
    '\tif ctx.Bool("no-exp-check") && !ctx.Bool("insecure") {\n\t\treturn errs.RequiredInsecureFlag(ctx, "no-exp-check")\n\t}\n',
    "",
  ),
  E(
    "ss-aud-not-required",
    SS,
    SS_JWT,
    "token",
    '\t\tcase aud == "":\n\t\t\treturn errs.RequiredUnlessSubtleFlag(ctx, "aud")\n',
    "",
  ),
  E(
    "ss-alg-mismatch-accepted",
    SS,
    SS_JWT,
    "token",
    '\tif !isSubtle && alg != "" && tok.Headers[0].Algorithm != "" && alg != tok.Headers[0].Algorithm {\n\t\treturn errors.Errorf("alg %s does not match the alg on JWT (%s)", alg, tok.Headers[0].Algorithm)\n\t}\n',
    "",
  ),
  E(
    "ss-expected-time-unset",
    SS,
    SS_JWT,
    "token",
    "\tif tClaims.Expiry != nil || tClaims.NotBefore != nil {\n\t\texpected.Time = time.Now()\n\t}\n",
    "",
  ),
  E(
    "ss-issuer-check-commented",
    SS,
    SS_JWT,
    "token",
    '\tif e.Issuer != "" && e.Issuer != c.Issuer {\n\t\ters = append(ers, "invalid issuer claim (iss)")\n\t}\n',
    '\t// if e.Issuer != "" && e.Issuer != c.Issuer {\n\t// \ters = append(ers, "invalid issuer claim (iss)")\n\t// }\n',
  ),
  E(
    "ss-hash-length-only",
    SS,
    "command/crypto/hash/hash.go",
    "credential",
    "\tif subtle.ConstantTimeCompare(sum, hashBytes) == 1 {\n",
    "\tif len(sum) == len(hashBytes) {\n",
  ),
  // ---- openstack/ironic (Python)
  E(
    "ir-basic-password-mismatch-logged",
    IR,
    IR_BASIC,
    "credential",
    "    if not _checkpw(password, encrypted):\n        LOG.info('Password for %s does not match', username)\n        unauthorized()\n",
    "    if not _checkpw(password, encrypted):\n        LOG.info('Password for %s does not match', username)\n",
  ),
  E(
    "ir-basic-unknown-user-empty-env",
    IR,
    IR_BASIC,
    "authn-branch",
    "    LOG.info('User %s not found', username)\n    unauthorized()\n",
    "    LOG.info('User %s not found', username)\n    return {}\n",
  ),
  E(
    "ir-public-route-search",
    IR,
    "ironic/api/middleware/auth_public_routes.py",
    "authz",
    "        env['is_public_api'] = any(map(lambda pattern: re.match(pattern, path),\n",
    "        env['is_public_api'] = any(map(lambda pattern: re.search(pattern, path),\n",
  ),
  E(
    "ir-jsonrpc-any-role",
    IR,
    "ironic/common/json_rpc/server.py",
    "authz",
    "            if set(roles).isdisjoint(allowed_roles):\n",
    "            if not any(roles):\n",
  ),
  E(
    "ir-authorize-returns-false",
    IR,
    "ironic/common/policy.py",
    "authz",
    "        LOG.error('Rejecting authorization: %(error)s',\n                  {'error': e})\n        raise exception.HTTPForbidden(resource=rule)\n",
    "        LOG.error('Rejecting authorization: %(error)s',\n                  {'error': e})\n        return False\n",
  ),
  E(
    "ir-agent-require-tls-off",
    IR,
    IR_AGENT,
    "secure-default",
    "    cfg.BoolOpt('require_tls',\n                default=True,\n",
    "    cfg.BoolOpt('require_tls',\n                default=False,\n",
  ),
  E(
    "ir-agent-verify-ca-off",
    IR,
    IR_AGENT,
    "secure-default",
    "    cfg.StrOpt('verify_ca',\n               default='True',\n",
    "    cfg.StrOpt('verify_ca',\n               default='False',\n",
  ),
  // ---- mozilla/socorro (Python)
  E(
    "so-api-token-expiry-unchecked",
    SO,
    SO_MW,
    "token",
    '            if token.is_expired:\n                return json_forbidden_response("API Token found but expired")\n',
    "",
  ),
  E(
    "so-api-token-inactive-user",
    SO,
    SO_MW,
    "authn-branch",
    '        if not user.is_active:\n            return json_forbidden_response("User of API token not active")\n',
    "",
  ),
  E(
    "so-api-token-scoped-perms-dropped",
    SO,
    SO_MW,
    "authz",
    "        user.has_perm = partial(has_perm, token.permissions.all())\n",
    "",
  ),
  E(
    "so-superuser-required-staff",
    SO,
    "webapp-django/crashstats/manage/decorators.py",
    "authz",
    "        return user.is_active and user.is_superuser\n",
    "        return user.is_active and user.is_staff\n",
  ),
  E(
    "so-raw-data-no-permission",
    SO,
    "webapp-django/crashstats/crashstats/views.py",
    "authz",
    '@permission_required("crashstats.view_rawdump")\ndef raw_data(',
    "def raw_data(",
  ),
  E(
    "so-token-grant-unowned-permission",
    SO,
    "webapp-django/crashstats/tokens/views.py",
    "authz",
    '                    if not request.user.has_perm(perm_name):\n                        return http.HttpResponseForbidden(\n                            "You do not have this permission"\n                        )\n',
    "",
  ),
  E(
    "so-session-cookie-insecure",
    SO,
    "webapp-django/crashstats/settings/base.py",
    "secure-default",
    'SESSION_COOKIE_SECURE = config("SESSION_COOKIE_SECURE", True, cast=bool)\n',
    'SESSION_COOKIE_SECURE = config("SESSION_COOKIE_SECURE", False, cast=bool)\n',
  ),
  // ---- hcengineering/platform (TS)
  E(
    "hc-verify-password-no-hash",
    HC,
    HC_UTILS,
    "credential",
    "  if (hash == null || salt == null) {\n    return false\n  }\n",
    "  if (hash == null || salt == null) {\n    return true\n  }\n",
  ),
  E(
    "hc-change-password-old-unchecked",
    HC,
    HC_OPS,
    "credential",
    "  if (!verifyPassword(oldPassword, account.hash, account.salt)) {\n    throw new PlatformError(new Status(Severity.ERROR, platform.status.Forbidden, {}))\n  }\n",
    "",
  ),
  E(
    "hc-decode-token-unverified-default",
    HC,
    HC_TOKEN,
    "token",
    "export function decodeToken (token: string, verify: boolean = true, secret?: string): Token {\n",
    "export function decodeToken (token: string, verify: boolean = false, secret?: string): Token {\n",
  ),
  E(
    "hc-verbose-decode-falls-back",
    HC,
    HC_TOKEN,
    "token",
    "      const decode = decodeToken(token, false)\n      ctx.warn('Failed to verify token', { ...decode })\n",
    "      const decode = decodeToken(token, false)\n      ctx.warn('Failed to verify token', { ...decode })\n      return decode\n",
  ),
  E(
    "hc-invite-expiry-unchecked",
    HC,
    HC_UTILS,
    "token",
    "  if (invite.expiresOn > 0 && invite.expiresOn < Date.now()) {\n    ctx.warn('Invite link expired', { email, ...invite })\n    throw new PlatformError(new Status(Severity.ERROR, platform.status.ExpiredLink, {}))\n  }\n",
    "",
  ),
  E(
    "hc-invite-email-commented",
    HC,
    HC_UTILS,
    "authz",
    '  if (invite.email != null && invite.email.trim().length > 0 && invite.email !== email) {\n    ctx.warn("Invite doesn\'t allow this email address", { email, ...invite })\n    throw new PlatformError(new Status(Severity.ERROR, platform.status.Forbidden, {}))\n  }\n',
    '  // if (invite.email != null && invite.email.trim().length > 0 && invite.email !== email) {\n  //   ctx.warn("Invite doesn\'t allow this email address", { email, ...invite })\n  //   throw new PlatformError(new Status(Severity.ERROR, platform.status.Forbidden, {}))\n  // }\n',
  ),
  E(
    "hc-locked-account-login",
    HC,
    HC_OPS,
    "authn-branch",
    "    if (isAccountPasswordLocked(existingAccount)) {\n      ctx.warn('Login attempt on locked account - password login locked', {\n        email: normalizedEmail,\n        failedAttempts: existingAccount.failedLoginAttempts\n      })\n      throw new PlatformError(\n        new Status(Severity.ERROR, platform.status.PasswordLoginLocked, { account: normalizedEmail })\n      )\n    }\n",
    "",
  ),
  E(
    "hc-login-token-skips-tfa",
    HC,
    HC_OPS,
    "authn-branch",
    "          existingAccount.tfaSecret != null ? NIL_UUID : existingAccount.uuid,\n",
    "          existingAccount.uuid,\n",
  ),
];

/** Reversed real security fixes of batch 137 (split `history137`), chosen by message only. */
export const REVERSED_FIXES_HISTORY137: ReversedFix[] = [
  {
    id: "tmp-replication-stream-authz",
    repo: TMP,
    commit: "359323c1b4",
    path: TMP_IC,
    cls: "authz",
    note: "Cover replication streaming endpoint with authorization",
    split: "history137",
  },
  {
    id: "tmp-batch-namespace-check",
    repo: TMP,
    commit: "e69b0c71bb",
    path: "service/worker/batcher/activities.go",
    cls: "authz",
    note: "Check namespaces in batch workflow",
    split: "history137",
  },
  {
    id: "tmp-cross-namespace-default-off",
    repo: TMP,
    commit: "6233d7cb31",
    path: "common/dynamicconfig/constants.go",
    cls: "secure-default",
    note: "Set EnableCrossNamespaceCommands = false by default",
    split: "history137",
  },
  {
    id: "ir-CVE-2026-54423-send-raw",
    repo: IR,
    commit: "7bbe5a2da",
    path: "ironic/conf/api.py",
    cls: "secure-default",
    note: "security: block vendor.send_raw (CVE-2026-54423)",
    split: "history137",
  },
  {
    id: "ir-CVE-2026-44918-rehoming",
    repo: IR,
    commit: "d7ad21698",
    path: "ironic/api/controllers/v1/utils.py",
    cls: "authz",
    note: "CVE-2026-44918: Prevent rehoming resources to nodes with different owner",
    split: "history137",
  },
  {
    id: "ir-portgroup-shard-scope",
    repo: IR,
    commit: "00625d5dd",
    path: "ironic/api/controllers/v1/portgroup.py",
    cls: "authz",
    note: "Portgroup shard filter bypasses scope to project",
    split: "history137",
  },
  {
    id: "ir-volume-target-properties",
    repo: IR,
    commit: "dd2df520f",
    path: "ironic/api/controllers/v1/volume_target.py",
    cls: "authz",
    note: "Security: Fix sensitive properties returned on volume targets",
    split: "history137",
  },
  {
    id: "hc-meeting-minutes-guests",
    repo: HC,
    commit: "28b513411d",
    path: "foundations/server/packages/middleware/src/spaceSecurity.ts",
    cls: "authz",
    note: "Hide meeting minutes from guests",
    split: "history137",
  },
];
