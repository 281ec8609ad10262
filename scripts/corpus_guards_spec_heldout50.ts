/**
 * Fiftieth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (Netflix Dispatch, pypa/warehouse, DefectDojo,
 * GrowthBook, Parse Dashboard, wg-easy, Quart, django-silk, koa-passport), chosen the way a careless
 * refactor or an attacker would weaken them, before any measurement. Reversed fixes were picked by
 * commit message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H50 = "heldout50" as const;
const ND = "Netflix/dispatch";
const NDV = "src/dispatch/auth/views.py";
const NDP = "src/dispatch/plugins/dispatch_core/plugin.py";
const WH = "pypa/warehouse";
const WHC = "warehouse/macaroons/caveats.py";
const WHS = "warehouse/accounts/services.py";
const DD = "DefectDojo/django-DefectDojo";
const DDA = "dojo/authorization/authorization.py";
const DDS = "dojo/settings/settings.dist.py";
const GB = "growthbook/growthbook";
const GBA = "packages/back-end/src/services/auth/index.ts";
const GBO = "packages/back-end/src/services/auth/OpenIdAuthConnection.ts";
const GBM = "packages/back-end/src/middleware/authenticateApiRequestMiddleware.ts";
const PD = "parse-community/parse-dashboard";
const PDA = "Parse-Dashboard/Authentication.js";
const PDP = "Parse-Dashboard/app.js";
const WG = "wg-easy/wg-easy";
const WGS = "src/server/utils/session.ts";
const WGP = "src/shared/utils/permissions.ts";
const QU = "pallets/quart";
const QUS = "src/quart/sessions.py";
const DS = "jazzband/django-silk";
const DSC = "silk/config.py";
const KP = "rkusa/koa-passport";
const KPK = "lib/framework/koa.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H50);

/** The fiftieth held-out batch of edits (split `heldout50`). */
export const EDITS_HELDOUT50: GuardEdit[] = [
  // ---- Netflix Dispatch (Python)
  E(
    "nd-verify-password-any",
    ND,
    "src/dispatch/auth/models.py",
    "credential",
    '        if not password or not self.password:\n            return False\n        return bcrypt.checkpw(password.encode("utf-8"), self.password)\n',
    "        if not password or not self.password:\n            return False\n        return True\n",
  ),
  E(
    "nd-change-password-current-optional",
    ND,
    NDV,
    "credential",
    "    if user.id == current_user.id:\n        if not user.verify_password(password_update.current_password):\n",
    "    if user.id == current_user.id and password_update.current_password:\n        if not user.verify_password(password_update.current_password):\n",
  ),
  E(
    "nd-basic-jwt-unverified-claims",
    ND,
    NDP,
    "token",
    "            data = jwt.decode(token, DISPATCH_JWT_SECRET)\n",
    "            data = jwt.get_unverified_claims(token)\n",
  ),
  E(
    "nd-pkce-audience-ignored",
    ND,
    NDP,
    "token",
    "            if DISPATCH_JWT_AUDIENCE:\n                data = jwt.decode(token, key, audience=DISPATCH_JWT_AUDIENCE, options=jwt_opts)\n            else:\n                data = jwt.decode(token, key, options=jwt_opts)\n",
    '            jwt_opts["verify_aud"] = False\n            data = jwt.decode(token, key, options=jwt_opts)\n',
  ),
  E(
    "nd-alb-signer-mismatch-logged",
    ND,
    NDP,
    "token",
    "            )\n            raise credentials_exception\n\n        # Get the key id from JWT headers (the kid field)\n",
    "            )\n\n        # Get the key id from JWT headers (the kid field)\n",
  ),
  E(
    "nd-pkce-any-scheme",
    ND,
    NDP,
    "authn-branch",
    '        scheme, param = get_authorization_scheme_param(authorization)\n        if not authorization or scheme.lower() != "bearer":\n            raise credentials_exception\n',
    "        scheme, param = get_authorization_scheme_param(authorization)\n        if not authorization:\n            raise credentials_exception\n",
  ),
  E(
    "nd-no-email-falls-back-default-user",
    ND,
    "src/dispatch/auth/service.py",
    "authn-branch",
    '            f"Unable to determine user email based on configured auth provider or no default auth user email defined. Provider: {DISPATCH_AUTHENTICATION_PROVIDER_SLUG}"\n        )\n        raise InvalidCredentialException\n',
    '            f"Unable to determine user email based on configured auth provider or no default auth user email defined. Provider: {DISPATCH_AUTHENTICATION_PROVIDER_SLUG}"\n        )\n        user_email = DISPATCH_AUTHENTICATION_DEFAULT_USER\n',
  ),
  E(
    "nd-update-other-user-any-role",
    ND,
    NDV,
    "authz",
    "    if current_user_organization_role != UserRoles.owner and current_user.id != user_id:\n",
    "    if current_user_organization_role is None and current_user.id != user_id:\n",
  ),
  E(
    "nd-role-change-owner-check-removed",
    ND,
    NDV,
    "authz",
    '            current_user_organization_role = current_user.get_organization_role(organization)\n            if current_user_organization_role != UserRoles.owner:\n                raise HTTPException(\n                    status_code=status.HTTP_403_FORBIDDEN,\n                    detail=[\n                        {\n                            "msg": "You don\'t have permissions to update the user\'s role. Please, contact the organization\'s owner."\n                        }\n                    ],\n                )\n',
    '            log.info("changing role of user %s to %s", user.email, user_in.role)\n',
  ),
  E(
    "nd-manager-permission-includes-member",
    ND,
    "src/dispatch/auth/permissions.py",
    "authz",
    "        if not permission:\n            if self.role == UserRoles.manager:\n                return True\n",
    "        if not permission:\n            if self.role in (UserRoles.manager, UserRoles.member):\n                return True\n",
  ),
  E(
    "nd-mfa-challenge-owner-unchecked",
    ND,
    NDP,
    "authz",
    '        if challenge.dispatch_user_id != current_user.id:\n            raise UserMismatchError(\n                f"Challenge does not belong to the current user: {current_user.email}"\n            )\n',
    "",
  ),
  E(
    "nd-mfa-expired-challenge-accepted",
    ND,
    NDP,
    "token",
    '        if not challenge.valid:\n            raise ExpiredChallengeError("Challenge is no longer valid")\n',
    '        # if not challenge.valid:\n        #     raise ExpiredChallengeError("Challenge is no longer valid")\n',
  ),
  // ---- pypa/warehouse (Python)
  E(
    "wh-csrf-not-required-by-default",
    WH,
    "warehouse/csrf.py",
    "secure-default",
    "    config.set_default_csrf_options(require_csrf=True)\n",
    "    config.set_default_csrf_options(require_csrf=False)\n",
  ),
  E(
    "wh-macaroon-empty-project-list",
    WH,
    WHC,
    "authz",
    "        if project.normalized_name in projects:\n            return True\n",
    "        if not projects or project.normalized_name in projects:\n            return True\n",
  ),
  E(
    "wh-macaroon-signature-error-swallowed",
    WH,
    WHC,
    "token",
    '            raise InvalidMacaroon("invalid macaroon signature")\n',
    "            return True\n",
  ),
  E(
    "wh-macaroon-version-unchecked",
    WH,
    WHC,
    "token",
    '        if data.get("version") != 1:\n            raise InvalidMacaroon("invalidate version in predicate")\n\n',
    "",
  ),
  E(
    "wh-macaroon-any-permission",
    WH,
    "warehouse/macaroons/auth_policy.py",
    "authz",
    '            valid_permissions = ["upload"]\n',
    '            valid_permissions = ["upload", "manage:project", "admin"]\n',
  ),
  E(
    "wh-password-ok-without-hash",
    WH,
    WHS,
    "credential",
    "            # First, check to see if the password that we were given was OK.\n            if ok:\n",
    "            # First, check to see if the password that we were given was OK.\n            if ok or not user.password:\n",
  ),
  E(
    "wh-recovery-code-reusable",
    WH,
    WHS,
    "credential",
    "                self.db.delete(stored_recovery_code)\n                self.db.flush()\n                valid = True\n",
    "                valid = True\n",
  ),
  E(
    "wh-token-service-no-max-age",
    WH,
    WHS,
    "token",
    "                token, max_age=self.max_age, return_timestamp=return_timestamp\n",
    "                token, return_timestamp=return_timestamp\n",
  ),
  E(
    "wh-basic-auth-disabled-account-not-refused",
    WH,
    "warehouse/accounts/__init__.py",
    "authn-branch",
    "        if is_disabled and disabled_for == DisableReason.CompromisedPassword:\n            # This technically violates the contract a little bit, this function is\n            # meant to return None if the user cannot log in. However we want to present\n            # a different error message than is normal when we're denying the log in\n            # because of a compromised password. So to do that, we'll need to raise a\n            # HTTPError that'll ultimately get returned to the client. This is OK to do\n            # here because we've already successfully authenticated the credentials, so\n            # it won't screw up the fall through to other authentication mechanisms\n            # (since we wouldn't have fell through to them anyways).\n            raise _format_exc_status(\n                BasicAuthBreachedPassword(), breach_service.failure_message_plain\n            )\n        elif login_service.check_password(\n",
    "        if login_service.check_password(\n",
  ),
  // ---- DefectDojo (Python)
  E(
    "dd-superuser-only-action-falls-through",
    DD,
    DDA,
    "authz",
    "    if action == Action.SuperuserOnly:\n        return False\n\n    if action in {Action.StaffOnly, Action.Delete}:\n",
    "    if action in {Action.StaffOnly, Action.Delete}:\n",
  ),
  E(
    "dd-object-decorator-check-dropped",
    DD,
    "dojo/authorization/authorization_decorators.py",
    "authz",
    "        obj = get_object_or_404(model.objects.filter(**{lookup: lookup_value}))\n\n        user_has_permission_or_403(request.user, obj, permission)\n",
    "        obj = get_object_or_404(model.objects.filter(**{lookup: lookup_value}))\n",
  ),
  E(
    "dd-login-required-only-for-writes",
    DD,
    "dojo/middleware.py",
    "authn-branch",
    '        if not request.user.is_authenticated:\n            path = request.path_info.lstrip("/")\n',
    '        if not request.user.is_authenticated and request.method not in ("GET", "HEAD"):\n            path = request.path_info.lstrip("/")\n',
  ),
  E(
    "dd-session-cookie-httponly-default-off",
    DD,
    DDS,
    "secure-default",
    "    DD_SESSION_COOKIE_HTTPONLY=(bool, True),\n",
    "    DD_SESSION_COOKIE_HTTPONLY=(bool, False),\n",
  ),
  E(
    "dd-jira-ssl-verify-default-off",
    DD,
    DDS,
    "secure-default",
    "    DD_JIRA_SSL_VERIFY=(bool, True),\n",
    "    DD_JIRA_SSL_VERIFY=(bool, False),\n",
  ),
  // ---- Quart (Python)
  E(
    "qu-session-cookie-no-max-age",
    QU,
    QUS,
    "token",
    "            data = signer.loads(cookie, max_age=max_age)\n",
    "            data = signer.loads(cookie)\n",
  ),
  E(
    "qu-session-httponly-default-off",
    QU,
    "src/quart/app.py",
    "secure-default",
    '            "SESSION_COOKIE_HTTPONLY": True,\n',
    '            "SESSION_COOKIE_HTTPONLY": False,\n',
  ),
  E(
    "qu-session-signed-with-placeholder-key",
    QU,
    QUS,
    "token",
    "        if not app.secret_key:\n            return None\n\n        keys: list[str | bytes] = []\n",
    '        if not app.secret_key:\n            app.secret_key = "quart-dev-secret"\n\n        keys: list[str | bytes] = []\n',
  ),
  // ---- django-silk (Python)
  E(
    "ds-clear-db-post-no-permission",
    DS,
    "silk/views/clear_db.py",
    "authz",
    "    @method_decorator(login_possibly_required)\n    @method_decorator(permissions_possibly_required)\n    def post(self, request, *_, **kwargs):\n",
    "    @method_decorator(login_possibly_required)\n    def post(self, request, *_, **kwargs):\n",
  ),
  E(
    "ds-default-permission-any-authenticated",
    DS,
    DSC,
    "authz",
    "    if user:\n        return user.is_staff\n    return False\n",
    "    if user:\n        return user.is_authenticated\n    return False\n",
  ),
  E(
    "ds-cookies-shown-by-default",
    DS,
    DSC,
    "secure-default",
    "        'SILKY_HIDE_COOKIES': True,\n",
    "        'SILKY_HIDE_COOKIES': False,\n",
  ),
  E(
    "ds-authorization-header-recorded",
    DS,
    "silk/model_factory.py",
    "secure-default",
    "        sensitive_headers.add('authorization')\n",
    "",
  ),
  // ---- koa-passport (JavaScript)
  E(
    "kp-failed-authenticate-calls-next",
    KP,
    KPK,
    "authn-branch",
    "      if (cont !== false) {\n        return next()\n      }\n",
    "      return next()\n",
  ),
  E(
    "kp-strategy-error-resolves",
    KP,
    KPK,
    "authn-branch",
    "      middleware(req, res).then(resolve, reject)\n",
    "      middleware(req, res).then(resolve, () => resolve())\n",
  ),
  E(
    "kp-trust-proxy-always-on",
    KP,
    "lib/framework/request.js",
    "secure-default",
    "          if (key === 'trust proxy') {\n            return ctx.app.proxy\n          }\n",
    "          if (key === 'trust proxy') {\n            return true\n          }\n",
  ),
  // ---- GrowthBook (TypeScript)
  E(
    "gb-revoked-session-still-valid",
    GB,
    GBA,
    "token",
    '  if (!usingOpenId() && user.minTokenDate && info.issuedAt) {\n    if (info.issuedAt < Math.floor(user.minTokenDate.getTime() / 1000)) {\n      throw new Error(\n        "Your session has been revoked. Please refresh the page and login.",\n      );\n    }\n  }\n\n',
    "",
  ),
  E(
    "gb-org-membership-not-required",
    GB,
    GBA,
    "authz",
    '        if (\n          !req.superAdmin &&\n          !req.organization.members.filter((m) => m.id === req.userId).length\n        ) {\n          res.status(403).json({\n            status: 403,\n            message: "You do not have access to that organization",\n          });\n          return;\n        }\n\n',
    "",
  ),
  E(
    "gb-login-method-violation-logged",
    GB,
    GBA,
    "authn-branch",
    "          validateLoginMethod(req.organization, req);\n        } catch (e) {\n          res.status(403).json({\n            status: 403,\n            message: e.message,\n          });\n          return;\n        }\n",
    '          validateLoginMethod(req.organization, req);\n        } catch (e) {\n          logger.warn({ err: e }, "login method not allowed for organization");\n        }\n',
  ),
  E(
    "gb-permission-denied-warns-only",
    GB,
    GBA,
    "authz",
    '    ) {\n      throw new Error("You do not have permission to complete that action.");\n    }\n  };\n',
    '    ) {\n      logger.warn({ permission, project }, "permission check failed");\n    }\n  };\n',
  ),
  E(
    "gb-local-jwt-aud-iss-unchecked",
    GB,
    "packages/back-end/src/services/auth/LocalAuthConnection.ts",
    "token",
    '  secret: JWT_SECRET,\n  audience: "https://api.growthbook.io",\n  issuer: "https://api.growthbook.io",\n  algorithms: ["HS256"],\n',
    '  secret: JWT_SECRET,\n  algorithms: ["HS256"],\n',
  ),
  E(
    "gb-oidc-audience-unchecked",
    GB,
    GBO,
    "token",
    "          secret: getKey,\n          audience: connection.clientId,\n",
    "          secret: getKey,\n",
  ),
  E(
    "gb-oidc-callback-state-unchecked",
    GB,
    GBO,
    "token",
    "        code_verifier: checks.code_verifier,\n        state: checks.state,\n",
    "        code_verifier: checks.code_verifier,\n",
  ),
  E(
    "gb-disabled-api-key-accepted",
    GB,
    GBM,
    "authn-branch",
    '      if (disabled) {\n        throw new Error("This API key has been disabled");\n      }\n',
    '      // if (disabled) {\n      //   throw new Error("This API key has been disabled");\n      // }\n',
  ),
  E(
    "gb-x-organization-any-key",
    GB,
    GBM,
    "authz",
    '      if (xOrganizationHeader) {\n        if (!req.user?.superAdmin) {\n          throw new Error(\n            "Only super admins can use the x-organization header",\n          );\n        } else {\n          asOrg = xOrganizationHeader;\n        }\n      }\n',
    "      if (xOrganizationHeader) {\n        asOrg = xOrganizationHeader;\n      }\n",
  ),
  E(
    "gb-password-hash-plain-compare",
    GB,
    "packages/back-end/src/services/users.ts",
    "credential",
    "  return crypto.timingSafeEqual(keyBuffer, derivedKey);\n",
    '  return derivedKey.toString("hex") === key;\n',
  ),
  E(
    "gb-stats-token-empty-accepted",
    GB,
    "packages/back-end/src/app.ts",
    "credential",
    "        if (!crypto.timingSafeEqual(hash(provided), hash(expected))) {\n",
    "        if (provided && !crypto.timingSafeEqual(hash(provided), hash(expected))) {\n",
  ),
  E(
    "gb-pat-missing-user-accepted",
    GB,
    GBM,
    "authn-branch",
    '        req.user = (await getUserById(userId)) || undefined;\n        if (!req.user) {\n          throw new Error("Could not find user attached to this API key");\n        }\n',
    "        req.user = (await getUserById(userId)) || undefined;\n",
  ),
  // ---- Parse Dashboard (JavaScript)
  E(
    "pd-login-post-without-csrf",
    PD,
    PDA,
    "authz",
    "  app.post('/login',\n    csrf(),\n    (req,res,next) => {\n",
    "  app.post('/login',\n    (req,res,next) => {\n",
  ),
  E(
    "pd-invalid-otp-not-rejected",
    PD,
    PDA,
    "authn-branch",
    "      if (!match.otpValid) {\n        return cb(null, false, { message: JSON.stringify({ text: 'Invalid one-time password.', otpLength: match.otpMissingLength || 6}) });\n      }\n",
    "",
  ),
  E(
    "pd-plaintext-password-not-compared",
    PD,
    PDA,
    "credential",
    "      const passwordMatches = this.useEncryptedPasswords && !usernameOnly ? bcrypt.compareSync(userToTest.pass, user.pass) : userToTest.pass == user.pass;\n",
    "      const passwordMatches = usernameOnly || !this.useEncryptedPasswords || bcrypt.compareSync(userToTest.pass, user.pass);\n",
  ),
  E(
    "pd-totp-wide-window",
    PD,
    PDA,
    "credential",
    "          const valid = totp.validate({\n            token: userToTest.otpCode\n          });\n",
    "          const valid = totp.validate({\n            token: userToTest.otpCode,\n            window: 1000,\n          });\n",
  ),
  E(
    "pd-cookie-session-static-secret",
    PD,
    PDA,
    "secure-default",
    "  const cookieSessionSecret = options.cookieSessionSecret || require('crypto').randomBytes(64).toString('hex');\n",
    "  const cookieSessionSecret = options.cookieSessionSecret || 'parse-dashboard';\n",
  ),
  E(
    "pd-insecure-http-allowed-unless-false",
    PD,
    PDP,
    "secure-default",
    "        if (!req.secure && !options.allowInsecureHTTP) {\n",
    "        if (!req.secure && options.allowInsecureHTTP === false) {\n",
  ),
  E(
    "pd-read-only-app-keeps-master-key",
    PD,
    PDP,
    "authz",
    "              if (isSame && appUserHasAccess.readOnly) {\n                app.masterKey = app.readOnlyMasterKey;\n              }\n",
    "",
  ),
  E(
    "pd-failed-auth-falls-through",
    PD,
    PDP,
    "authn-branch",
    "      if (users) {\n        //They provided incorrect auth\n        return res.sendStatus(401);\n      }\n\n",
    "",
  ),
  // ---- wg-easy (TypeScript)
  E(
    "wg-basic-auth-password-result-unused",
    WG,
    WGS,
    "credential",
    "    if (!foundUser || !passwordValid || foundUser.totpVerified) {\n",
    "    if (!foundUser || foundUser.totpVerified) {\n",
  ),
  E(
    "wg-argon-verify-error-accepted",
    WG,
    "src/server/utils/password.ts",
    "credential",
    "  return argon2.verify(hash, password);\n",
    "  return argon2.verify(hash, password).catch(() => true);\n",
  ),
  E(
    "wg-disabled-user-session-kept",
    WG,
    WGS,
    "authn-branch",
    "  if (!user.enabled) {\n    throw createError({\n      statusCode: 403,\n      statusMessage: 'User is disabled',\n    });\n  }\n\n",
    "",
  ),
  E(
    "wg-session-cookie-not-secure",
    WG,
    WGS,
    "secure-default",
    "      maxAge: rememberMe ? sessionConfig.sessionTimeout : undefined,\n      secure: !WG_ENV.INSECURE,\n",
    "      maxAge: rememberMe ? sessionConfig.sessionTimeout : undefined,\n      secure: false,\n",
  ),
  E(
    "wg-pending-2fa-login-never-expires",
    WG,
    "src/server/api/auth/verify-2fa.post.ts",
    "token",
    "  if (new Date() > new Date(pendingLogin.expires_at)) {\n    await session.update({\n      pendingLogin: undefined,\n    });\n\n    return { status: 'PENDING_LOGIN_EXPIRED' as const };\n  }\n\n",
    "",
  ),
  E(
    "wg-oidc-nonce-not-expected",
    WG,
    "src/server/utils/oauth.ts",
    "token",
    "    expectedNonce:\n      providerConfig.isOIDC === false ? undefined : state.oauth_nonce,\n",
    "    expectedNonce: undefined,\n",
  ),
  E(
    "wg-client-role-views-all-clients",
    WG,
    WGP,
    "authz",
    "      view: (user, client) => user.id === client.userId,\n",
    "      view: true,\n",
  ),
];

/** Reversed real security fixes of the fiftieth batch (split `history50`), chosen by message only. */
export const REVERSED_FIXES_HISTORY50: ReversedFix[] = [
  {
    id: "wh-totp-reuse-window",
    repo: WH,
    commit: "59cd5b54",
    path: WHS,
    cls: "credential",
    note: "don't allow TOTP code reuse within a window",
    split: "history50",
  },
  {
    id: "wh-invalidate-2fa-state-after-login",
    repo: WH,
    commit: "471d9b11",
    path: "warehouse/accounts/views.py",
    cls: "authn-branch",
    note: "invalidate two factor state after login",
    split: "history50",
  },
  {
    id: "dd-finding-template-authz",
    repo: DD,
    commit: "965c80e039",
    path: "dojo/finding/ui/views.py",
    cls: "authz",
    note: "harden authorization on the make-finding-a-template action",
    split: "history50",
  },
  {
    id: "dd-user-account-management-authz",
    repo: DD,
    commit: "ba25a9ca96",
    path: "dojo/user/api/views.py",
    cls: "authz",
    note: "harden user account management authorization",
    split: "history50",
  },
  {
    id: "dd-api-scan-config-permission",
    repo: DD,
    commit: "8b4e9c9f8d",
    path: "dojo/product/api/serializer.py",
    cls: "authz",
    note: "enforce tool-configuration permission on API scan configuration selection",
    split: "history50",
  },
  {
    id: "gb-dimension-datasource-project-access",
    repo: GB,
    commit: "8f55e5d7a8",
    path: "packages/back-end/src/routers/dimension/dimension.controller.ts",
    cls: "authz",
    note: "enforce datasource project access on external dimension read APIs",
    split: "history50",
  },
  {
    id: "wg-totp-security",
    repo: WG,
    commit: "5f54fa3e",
    path: "src/server/api/me/totp.post.ts",
    cls: "credential",
    note: "improve totp security",
    split: "history50",
  },
  {
    id: "wg-basic-auth-when-password-auth-disabled",
    repo: WG,
    commit: "66b292b1",
    path: WGS,
    cls: "authn-branch",
    note: "improve security: disable basic auth when password auth disabled",
    split: "history50",
  },
];
