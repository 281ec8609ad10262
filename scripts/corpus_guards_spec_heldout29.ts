/**
 * Twenty-ninth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus, chosen the way a careless refactor or an
 * attacker would weaken them, before any measurement. Reversed fixes were picked by commit message
 * or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const AX = "yezz123/authx";
const PC = "casbin/pycasbin";
const ST = "supertokens/supertokens-python";
const STS = "supertokens_python/recipe/session/";
const LD = "sissbruecker/linkding";
const OA = "openauthjs/openauth";
const OAS = "packages/openauth/src/";
const PI = "pocket-id/pocket-id";
const PIB = "backend/internal/";
const HK = "teamhanko/hanko";
const SK = "stack-auth/stack-auth";
const SKA = "apps/backend/src/app/api/latest/auth/";
const SKR = "apps/backend/src/route-handlers/smart-request.tsx";
const SA = "jowilf/starlette-admin";
const WG = "wger-project/wger";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout29");

/** The twenty-ninth held-out batch of edits (split `heldout29`). */
export const EDITS_HELDOUT29: GuardEdit[] = [
  // ---- authx (Python)
  E(
    "ax-decode-no-exp",
    AX,
    "authx/token.py",
    "token",
    '            options={"verify_signature": verify},\n',
    '            options={"verify_signature": verify, "verify_exp": False},\n',
  ),
  E(
    "ax-verify-default-off",
    AX,
    "authx/token.py",
    "secure-default",
    "    issuer: Optional[str] = None,\n    verify: bool = True,\n    data: Optional[dict[str, Any]] = None,\n",
    "    issuer: Optional[str] = None,\n    verify: bool = False,\n    data: Optional[dict[str, Any]] = None,\n",
  ),
  E(
    "ax-no-scopes-passes",
    AX,
    "authx/_internal/_scopes.py",
    "authz",
    "    if provided is None:\n        return len(required) == 0\n",
    "    if provided is None:\n        return True\n",
  ),
  E(
    "ax-blocklist-not-consulted",
    AX,
    "authx/main.py",
    "authn-branch",
    '        if await self.is_token_in_blocklist(request_token.token):\n            raise RevokedTokenError("Token has been revoked", login_type=self.login_type)\n\n',
    "",
  ),
  E(
    "ax-csrf-compare-dropped",
    AX,
    "authx/schema.py",
    "token",
    '            if not compare_digest(self.csrf, payload.csrf):\n                raise CSRFError("CSRF token mismatch")\n',
    '            if not self.csrf:\n                raise CSRFError("CSRF token mismatch")\n',
  ),
  E(
    "ax-scope-check-removed",
    AX,
    "authx/main.py",
    "authz",
    "            if not has_required_scopes(required_scopes, payload.scopes, all_required=all_required):\n",
    "            if not has_required_scopes(required_scopes, payload.scopes, all_required=False):\n",
  ),
  E(
    "ax-cookie-secure-default-off",
    AX,
    "authx/config.py",
    "secure-default",
    "    JWT_COOKIE_SECURE: bool = True\n",
    "    JWT_COOKIE_SECURE: bool = False\n",
  ),
  // ---- pycasbin (Python)
  E(
    "pc-allow-and-deny-no-allow-needed",
    PC,
    "casbin/effect/default_effectors.py",
    "authz",
    "        if Effector.DENY in effects or Effector.ALLOW not in effects:\n",
    "        if Effector.DENY in effects:\n",
  ),
  E(
    "pc-priority-default-allow",
    PC,
    "casbin/effect/default_effectors.py",
    "authz",
    "        if Effector.DENY in effects:\n            return Effector.DENY\n        return Effector.DENY\n",
    "        if Effector.DENY in effects:\n            return Effector.DENY\n        return Effector.ALLOW\n",
  ),
  E(
    "pc-deny-effect-commented",
    PC,
    "casbin/core_enforcer.py",
    "authz",
    '                    elif "deny" == eft:\n                        policy_effects.add(Effector.DENY)\n',
    '                    # elif "deny" == eft:\n                    #     policy_effects.add(Effector.DENY)\n',
  ),
  E(
    "pc-keymatch2-unanchored",
    PC,
    "casbin/util/builtin_operators.py",
    "authz",
    '    if key2 == "*":\n        key2 = "(.*)"\n\n    return regex_match(key1, "^" + key2 + "$")\n',
    '    if key2 == "*":\n        key2 = "(.*)"\n\n    return regex_match(key1, key2)\n',
  ),
  // ---- supertokens-python (Python)
  E(
    "st-v3-signature-off",
    ST,
    STS + "access_token.py",
    "token",
    '                matching_keys[0].key,  # type: ignore\n                algorithms=[decode_algo],\n                options={"verify_signature": True, "verify_exp": True},\n',
    '                matching_keys[0].key,  # type: ignore\n                algorithms=[decode_algo],\n                options={"verify_signature": False, "verify_exp": True},\n',
  ),
  E(
    "st-expiry-check-deleted",
    ST,
    STS + "access_token.py",
    "token",
    '        if expiry_time < get_timestamp_ms():\n            raise Exception("Access token expired")\n\n',
    "",
  ),
  E(
    "st-anti-csrf-mismatch-ignored",
    ST,
    STS + "session_functions.py",
    "token",
    '                if (\n                    anti_csrf_token is None\n                    or anti_csrf_token != access_token_info["antiCsrfToken"]\n                ):\n',
    "                if anti_csrf_token is None:\n",
  ),
  E(
    "st-claims-not-asserted",
    ST,
    STS + "session_request_functions.py",
    "authz",
    "        await session.assert_claims(claim_validators, user_context)\n",
    "",
  ),
  E(
    "st-rid-header-optional",
    ST,
    STS + "session_request_functions.py",
    "authz",
    '            if get_rid_from_header(request) is None:\n                log_debug_message(\n                    "getSession: Returning TRY_REFRESH_TOKEN because custom header (rid) was not passed"\n                )\n                raise_try_refresh_token_exception(\n                    "anti-csrf check failed. Please pass \'rid: \\"session\\"\' header in the request, or set doAntiCsrfCheck to false for this API"\n                )\n',
    '            if get_rid_from_header(request) is None:\n                log_debug_message(\n                    "getSession: custom header (rid) was not passed"\n                )\n',
  ),
  E(
    "st-cookie-secure-default-off",
    ST,
    STS + "utils.py",
    "secure-default",
    '        if config.cookie_secure is not None\n        else app_info.api_domain.get_as_string_dangerous().startswith("https")\n',
    "        if config.cookie_secure is not None\n        else False\n",
  ),
  E(
    "st-fastapi-session-optional-default",
    ST,
    STS + "framework/fastapi/__init__.py",
    "secure-default",
    "    anti_csrf_check: Union[bool, None] = None,\n    session_required: bool = True,\n",
    "    anti_csrf_check: Union[bool, None] = None,\n    session_required: bool = False,\n",
  ),
  // ---- linkding (Python, Django)
  E(
    "ld-retrieve-allow-any",
    LD,
    "bookmarks/api/routes.py",
    "authz",
    '        if self.action == "shared":\n            return [AllowAny()]\n',
    '        if self.action in ("shared", "retrieve"):\n            return [AllowAny()]\n',
  ),
  E(
    "ld-single-entity-any-owner",
    LD,
    "bookmarks/api/routes.py",
    "authz",
    "        # For single entity actions return user owned bookmarks\n        return Bookmark.objects.all().filter(owner=user)\n",
    "        # For single entity actions return bookmarks\n        return Bookmark.objects.all()\n",
  ),
  E(
    "ld-edit-login-required-dropped",
    LD,
    "bookmarks/views/bookmarks.py",
    "authz",
    "@login_required\ndef edit(request: HttpRequest, bookmark_id: int):\n",
    "def edit(request: HttpRequest, bookmark_id: int):\n",
  ),
  E(
    "ld-shared-post-by-non-owner",
    LD,
    "bookmarks/views/access.py",
    "authz",
    '    if request.method == "POST" and not is_owner:\n        raise Http404("Bookmark does not exist")\n',
    "",
  ),
  E(
    "ld-oidc-verify-ssl-default-off",
    LD,
    "bookmarks/settings/base.py",
    "secure-default",
    '    OIDC_VERIFY_SSL = os.getenv("OIDC_VERIFY_SSL", True) in (True, "True", "true", "1")\n',
    '    OIDC_VERIFY_SSL = os.getenv("OIDC_VERIFY_SSL", False) in (True, "True", "true", "1")\n',
  ),
  // ---- openauth (TypeScript)
  E(
    "oa-login-hash-not-verified",
    OA,
    OAS + "provider/password.ts",
    "credential",
    "        if (!password || !hash || !(await hasher.verify(password, hash)))\n",
    "        if (!password || !hash)\n",
  ),
  E(
    "oa-change-code-not-checked",
    OA,
    OAS + "provider/password.ts",
    "authn-branch",
    '          const code = fd.get("code")?.toString()\n          if (!code || !timingSafeCompare(code, provider.code))\n            return transition(provider, { type: "invalid_code" })\n          return transition({\n            type: "update",\n',
    '          return transition({\n            type: "update",\n',
  ),
  E(
    "oa-scrypt-plain-compare",
    OA,
    OAS + "provider/password.ts",
    "credential",
    '      return timingSafeEqual(derivedKey, Buffer.from(compare.hash, "base64"))\n',
    '      return derivedKey.subarray(0, 8).equals(Buffer.from(compare.hash, "base64").subarray(0, 8))\n',
  ),
  E(
    "oa-code-client-binding-dropped",
    OA,
    OAS + "issuer.ts",
    "token",
    '        if (payload.clientID !== form.get("client_id")) {\n          return c.json(\n            {\n              error: "unauthorized_client",\n              error_description:\n                "Client is not authorized to use this authorization code",\n            },\n            403,\n          )\n        }\n',
    "",
  ),
  E(
    "oa-pkce-optional-verifier",
    OA,
    OAS + "issuer.ts",
    "token",
    "        if (payload.pkce) {\n",
    '        if (payload.pkce && form.get("code_verifier")) {\n',
  ),
  E(
    "oa-refresh-not-single-use",
    OA,
    OAS + "issuer.ts",
    "token",
    "          // no reuse interval, remove the refresh token immediately\n          await Storage.remove(storage, key)\n",
    "          // no reuse interval, remove the refresh token immediately\n          // await Storage.remove(storage, key)\n",
  ),
  E(
    "oa-allow-client-skipped",
    OA,
    OAS + "issuer.ts",
    "authz",
    "    if (\n      !(await allow()(\n        {\n          clientID: client_id,\n          redirectURI: redirect_uri,\n          audience,\n        },\n        c.req.raw,\n      ))\n    )\n      throw new UnauthorizedClientError(client_id, redirect_uri)\n",
    "",
  ),
  E(
    "oa-state-cookie-not-httponly",
    OA,
    OAS + "issuer.ts",
    "secure-default",
    "        maxAge,\n        httpOnly: true,\n",
    "        maxAge,\n        httpOnly: false,\n",
  ),
  E(
    "oa-client-verify-no-issuer",
    OA,
    OAS + "client.ts",
    "token",
    "        }>(token, jwks, {\n          issuer,\n        })\n",
    "        }>(token, jwks, {})\n",
  ),
  // ---- pocket-id (Go)
  E(
    "pi-disabled-user-signed-in",
    PI,
    PIB + "middleware/jwt_auth.go",
    "authn-branch",
    '\tif user.Disabled {\n\t\treturn "", false, "", time.Time{}, apperror.UserDisabled()\n\t}\n\n',
    "",
  ),
  E(
    "pi-access-token-type-not-checked",
    PI,
    PIB + "service/jwt_service.go",
    "token",
    "\t\tjwt.WithIssuer(s.envConfig.AppURL),\n\t\tjwt.WithValidator(TokenTypeValidator(AccessTokenJWTType)),\n\t)\n",
    "\t\tjwt.WithIssuer(s.envConfig.AppURL),\n\t)\n",
  ),
  E(
    "pi-api-key-not-found-passes",
    PI,
    PIB + "apikey/service.go",
    "authn-branch",
    '\tif errors.Is(err, gorm.ErrRecordNotFound) {\n\t\treturn model.User{}, apperror.InvalidAPIKey()\n\t} else if err != nil {\n\t\treturn model.User{}, fmt.Errorf("error loading API key: %w", err)\n\t}\n',
    '\tif err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {\n\t\treturn model.User{}, fmt.Errorf("error loading API key: %w", err)\n\t}\n',
  ),
  E(
    "pi-api-key-expiry-ignored",
    PI,
    PIB + "apikey/service.go",
    "token",
    '\t\tWhere("key = ? AND expires_at > ?", hashedKey, datatype.DateTime(now)).\n',
    '\t\tWhere("key = ?", hashedKey).\n',
  ),
  E(
    "pi-bcrypt-secret-error-ignored",
    PI,
    PIB + "oidc/client_secret_hasher.go",
    "credential",
    "\t\treturn bcrypt.CompareHashAndPassword([]byte(encoded), data)\n",
    "\t\t_ = bcrypt.CompareHashAndPassword([]byte(encoded), data)\n\t\treturn nil\n",
  ),
  E(
    "pi-client-assertion-any-audience",
    PI,
    PIB + "oidc/federated_client_auth.go",
    "token",
    "\t\tjwt.WithSubject(subject),\n\t\tjwt.WithAudience(audience),\n",
    "\t\tjwt.WithSubject(subject),\n",
  ),
  E(
    "pi-cookie-not-secure",
    PI,
    PIB + "utils/cookie/add_cookie.go",
    "secure-default",
    '\tc.SetCookie(name, value, maxAge, path, "", true, true)\n',
    '\tc.SetCookie(name, value, maxAge, path, "", false, true)\n',
  ),
  E(
    "pi-pkce-public-clients-optional",
    PI,
    PIB + "oidc/provider.go",
    "secure-default",
    "\t\tEnforcePKCEForPublicClients:             true,\n",
    "\t\tEnforcePKCEForPublicClients:             false,\n",
  ),
  // ---- hanko (Go)
  E(
    "hk-bcrypt-mismatch-tolerated",
    HK,
    "backend/flow_api/services/password.go",
    "credential",
    "\tif err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)); err != nil {\n",
    "\tif err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)); err != nil && !errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {\n",
  ),
  E(
    "hk-no-password-credential-ok",
    HK,
    "backend/flow_api/services/password.go",
    "credential",
    "\tif pw == nil {\n\t\treturn ErrorPasswordInvalid\n\t}\n",
    "\tif pw == nil {\n\t\treturn nil\n\t}\n",
  ),
  E(
    "hk-passcode-expiry-unchecked",
    HK,
    "backend/flow_api/services/passcode.go",
    "authn-branch",
    "\texpirationTime := passcodeModel.CreatedAt.Add(time.Duration(passcodeModel.Ttl) * time.Second)\n\tif expirationTime.Before(time.Now().UTC()) {\n\t\treturn nil, ErrorPasscodeExpired\n\t}\n\n",
    "",
  ),
  E(
    "hk-revoked-session-accepted",
    HK,
    "backend/middleware/session.go",
    "authn-branch",
    '\t\tif sessionModel == nil {\n\t\t\treturn nil, fmt.Errorf("session id not found in database")\n\t\t}\n',
    "\t\tif sessionModel == nil {\n\t\t\treturn token, nil\n\t\t}\n",
  ),
  E(
    "hk-idle-timeout-inverted",
    HK,
    "backend/middleware/session.go",
    "authn-branch",
    "\t\tif idleTimeout > 0 && time.Since(sessionModel.LastUsed) > idleTimeout {\n",
    "\t\tif idleTimeout > 0 && time.Since(sessionModel.LastUsed) < idleTimeout {\n",
  ),
  E(
    "hk-password-rate-limit-lenient",
    HK,
    "backend/flow_api/flow/credential_usage/action_password_login.go",
    "authn-branch",
    '\t\tif !ok {\n\t\t\terr = c.Payload().Set("retry_after", retryAfterSeconds)\n',
    '\t\tif !ok && retryAfterSeconds > 3600 {\n\t\t\terr = c.Payload().Set("retry_after", retryAfterSeconds)\n',
  ),
  E(
    "hk-default-cookie-flags-off",
    HK,
    "backend/config/config_default.go",
    "secure-default",
    '\t\t\t\tHttpOnly:  true,\n\t\t\t\tRetention: "persistent",\n\t\t\t\tSameSite:  "strict",\n\t\t\t\tSecure:    true,\n',
    '\t\t\t\tHttpOnly:  false,\n\t\t\t\tRetention: "persistent",\n\t\t\t\tSameSite:  "strict",\n\t\t\t\tSecure:    false,\n',
  ),
  // ---- Stack Auth (TypeScript)
  E(
    "sk-anonymous-issuer-always-allowed",
    SK,
    "apps/backend/src/lib/tokens.tsx",
    "token",
    "        ...(allowAnonymous ? [getIssuer(projectId, 'anonymous')] : []),\n",
    "        getIssuer(projectId, 'anonymous'),\n",
  ),
  E(
    "sk-refresh-token-expiry-skipped",
    SK,
    "apps/backend/src/lib/tokens.tsx",
    "token",
    "  if (options.refreshTokenObj.expiresAt && options.refreshTokenObj.expiresAt < new Date()) {\n    return null;\n  }\n\n",
    "",
  ),
  E(
    "sk-server-key-not-validated",
    SK,
    SKR,
    "credential",
    '        if (isServerKeyValid.status === "error") throw new KnownErrors.InvalidSecretServerKey(projectId);\n',
    "",
  ),
  E(
    "sk-admin-token-any-project",
    SK,
    SKR,
    "authz",
    "    const allProjects = await listManagedProjectIds(user);\n    if (!allProjects.includes(options.projectId)) {\n      throw new KnownErrors.AdminAccessTokenIsNotAdmin();\n    }\n",
    "    const allProjects = await listManagedProjectIds(user);\n    if (allProjects.length === 0) {\n      throw new KnownErrors.AdminAccessTokenIsNotAdmin();\n    }\n",
  ),
  E(
    "sk-anonymous-user-not-rejected",
    SK,
    SKR,
    "authn-branch",
    "    // Check if anonymous user is allowed\n    if (result.data.isAnonymous && !options.allowAnonymous) {\n      throw new KnownErrors.AnonymousAuthenticationNotAllowed();\n    }\n\n",
    "",
  ),
  E(
    "sk-mfa-required-skipped",
    SK,
    SKA + "password/sign-in/route.tsx",
    "authn-branch",
    "    if (contactChannel.projectUser.requiresTotpMfa) {\n      throw await createMfaRequiredError({\n        project: tenancy.project,\n        branchId: tenancy.branchId,\n        isNewUser: false,\n        userId: contactChannel.projectUser.projectUserId,\n      });\n    }\n\n",
    "",
  ),
  E(
    "sk-old-password-not-confirmed",
    SK,
    SKA + "password/update/route.tsx",
    "credential",
    "      if (!await comparePassword(old_password, authMethod.passwordHash)) {\n        throw new KnownErrors.PasswordConfirmationMismatch();\n      }\n\n",
    "",
  ),
  E(
    "sk-unknown-hash-matches",
    SK,
    "packages/stack-shared/src/utils/hashes.tsx",
    "credential",
    "    default: {\n      return false;\n    }\n",
    "    default: {\n      return true;\n    }\n",
  ),
  E(
    "sk-totp-invalid-logged",
    SK,
    SKA + "mfa/sign-in/verification-code-handler.tsx",
    "authn-branch",
    "    if (!isTotpValid) {\n      throw new KnownErrors.InvalidTotpCode();\n    }\n",
    '    if (!isTotpValid) {\n      console.warn("TOTP code did not verify", { userId: user.projectUserId });\n    }\n',
  ),
  // ---- starlette-admin (Python)
  E(
    "sa-login-not-required-by-default",
    SA,
    "starlette_admin/auth/base.py",
    "authn-branch",
    '            and getattr(current_route.endpoint, "_login_not_required", False)\n',
    '            and getattr(current_route.endpoint, "_login_not_required", True)\n',
  ),
  E(
    "sa-example-verify-identifies-only",
    SA,
    "examples/advanced/04-user-registration/app.py",
    "credential",
    "def verify_password(password: str, stored: str) -> bool:\n    return pwd_context.verify(password, stored)\n",
    "def verify_password(password: str, stored: str) -> bool:\n    return pwd_context.identify(stored) is not None\n",
  ),
  E(
    "sa-example-password-not-compared",
    SA,
    "examples/03-auth/app.py",
    "credential",
    '        if user and password == user["password"]:\n',
    "        if user:\n",
  ),
  // ---- wger (Python, Django)
  E(
    "wg-forwarded-host-trusted-by-default",
    WG,
    "settings/main.py",
    "secure-default",
    "USE_X_FORWARDED_HOST = env.bool('USE_X_FORWARDED_HOST', False)\n",
    "USE_X_FORWARDED_HOST = env.bool('USE_X_FORWARDED_HOST', True)\n",
  ),
  E(
    "wg-global-objects-writable",
    WG,
    "wger/utils/permissions.py",
    "authz",
    "        if not owner_object and request.method in permissions.SAFE_METHODS:\n",
    "        if not owner_object:\n",
  ),
];

/** Reversed real security fixes of the twenty-ninth batch (split `history29`), chosen by message only. */
export const REVERSED_FIXES_HISTORY29: ReversedFix[] = [];
