/**
 * Sixty-sixth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (flask-seasurf, flask-talisman, Flask-pyoidc,
 * pyoidc, hypothesis/h, LinOTP, zou, did-jwt, Papermark, Signal K server, Zipline), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H66 = "heldout66" as const;
const SS = "maxcountryman/flask-seasurf";
const SSF = "flask_seasurf.py";
const FT = "wntrblm/flask-talisman";
const FTF = "flask_talisman/talisman.py";
const FP = "zamzterz/Flask-pyoidc";
const FPF = "src/flask_pyoidc/flask_pyoidc.py";
const FPH = "src/flask_pyoidc/auth_response_handler.py";
const FPS = "src/flask_pyoidc/user_session.py";
const PO = "CZ-NIC/pyoidc";
const POM = "src/oic/oic/message.py";
const POC = "src/oic/utils/authn/client.py";
const HH = "hypothesis/h";
const LO = "LinOTP/LinOTP";
const LOV = "linotp/lib/auth/validate.py";
const ZO = "cgwire/zou";
const ZOA = "zou/app/services/auth_service.py";
const ZOP = "zou/app/utils/permissions.py";
const DJ = "decentralized-identity/did-jwt";
const DJJ = "src/JWT.ts";
const PM = "mfts/papermark";
const PML = "lib/auth/link-session.ts";
const SK = "SignalK/signalk-server";
const SKI = "src/oidc/id-token-validation.ts";
const SKT = "src/tokensecurity.ts";
const ZL = "diced/zipline";
const ZLL = "src/pages/api/auth/login.ts";
const ZLW = "src/lib/middleware/withZipline.ts";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H66);

/** The sixty-sixth held-out batch of edits (split `heldout66`). */
export const EDITS_HELDOUT66: GuardEdit[] = [
  // ---- flask-seasurf (Python)
  E(
    "ss-post-treated-safe",
    SS,
    SSF,
    "authz",
    "        if request.method not in ('GET', 'HEAD', 'OPTIONS', 'TRACE'):\n",
    "        if request.method not in ('GET', 'HEAD', 'OPTIONS', 'TRACE', 'POST'):\n",
  ),
  E(
    "ss-missing-session-token-passes",
    SS,
    SSF,
    "token",
    "        if not self._safe_str_cmp(request_csrf_token, server_csrf_token):\n",
    "        if server_csrf_token and not self._safe_str_cmp(request_csrf_token, server_csrf_token):\n",
  ),
  E(
    "ss-referer-check-default-off",
    SS,
    SSF,
    "secure-default",
    "        self._check_referer = app.config.get('CSRF_CHECK_REFERER', True)\n",
    "        self._check_referer = app.config.get('CSRF_CHECK_REFERER', False)\n",
  ),
  E(
    "ss-same-origin-host-only",
    SS,
    SSF,
    "authz",
    "        return origin1 == origin2\n",
    "        return origin1[1] == origin2[1]\n",
  ),
  E(
    "ss-compare-digest-swapped",
    SS,
    SSF,
    "credential",
    "    from hmac import compare_digest as safe_str_cmp\n",
    "    from operator import eq as safe_str_cmp\n",
  ),
  // ---- flask-talisman (Python)
  E(
    "ft-force-https-default-off",
    FT,
    FTF,
    "secure-default",
    "            force_https=True,\n",
    "            force_https=False,\n",
  ),
  E(
    "ft-session-cookie-httponly-off",
    FT,
    FTF,
    "secure-default",
    "            session_cookie_http_only=True,\n",
    "            session_cookie_http_only=False,\n",
  ),
  E(
    "ft-secure-cookie-only-in-debug",
    FT,
    FTF,
    "secure-default",
    "            if not self.app.debug:\n                self.app.config['SESSION_COOKIE_SECURE'] = True\n",
    "            if self.app.debug:\n                self.app.config['SESSION_COOKIE_SECURE'] = True\n",
  ),
  E(
    "ft-https-redirect-hook-dropped",
    FT,
    FTF,
    "secure-default",
    "        app.before_request(self._force_https)\n",
    "",
  ),
  // ---- Flask-pyoidc (Python)
  E(
    "fp-state-check-removed",
    FP,
    FPH,
    "token",
    "        if auth_response['state'] != auth_request['state']:\n            raise AuthResponseUnexpectedStateError()\n\n",
    "",
  ),
  E(
    "fp-id-token-error-logged",
    FP,
    FPH,
    "token",
    "                        raise InvalidIdTokenError(str(ex)) from ex\n",
    "                        logger.warning('id token verification failed: %s', ex)\n",
  ),
  E(
    "fp-userinfo-sub-mismatch-ignored",
    FP,
    FPH,
    "token",
    "        if id_token_claims and userinfo_claims and userinfo_claims['sub'] != id_token_claims['sub']:\n            raise AuthResponseMismatchingSubjectError('The \\'sub\\' of userinfo does not match \\'sub\\' of ID Token.')\n",
    "",
  ),
  E(
    "fp-introspection-audience-dropped",
    FP,
    FPF,
    "token",
    "        # Check if client_id is in audience claim\n        if client._client.client_id not in result['aud']:\n            # log the exception if client_id is not in audience and returns\n            # False, you can configure audience with Identity Provider\n            logger.info('Token is valid but required audience is missing.')\n            return None\n",
    "",
  ),
  E(
    "fp-any-scope-suffices",
    FP,
    FPF,
    "authz",
    "        if scopes and not set(scopes).issubset(set(result['scope'])):\n",
    "        if scopes and not set(scopes).intersection(set(result['scope'])):\n",
  ),
  E(
    "fp-any-session-item-authenticated",
    FP,
    FPS,
    "authn-branch",
    "        return self._session_storage.get('last_authenticated') is not None\n",
    "        return bool(self._session_storage)\n",
  ),
  // ---- pyoidc (Python)
  E(
    "po-issuer-mismatch-ignored",
    PO,
    POM,
    "token",
    '            if kwargs["iss"] != self["iss"]:\n                raise IssuerMismatch("{} != {}".format(kwargs["iss"], self["iss"]))\n',
    '            # if kwargs["iss"] != self["iss"]:\n            #     raise IssuerMismatch("{} != {}".format(kwargs["iss"], self["iss"]))\n            pass\n',
  ),
  E(
    "po-id-token-expiry-unchecked",
    PO,
    POM,
    "token",
    '        else:\n            if (_now - _skew) > _exp:\n                raise EXPError("Invalid expiration time")\n',
    "",
  ),
  E(
    "po-audience-not-checked",
    PO,
    POM,
    "token",
    '                if kwargs["client_id"] not in self["aud"]:\n                    raise NotForMe(\n                        "{} not in aud:{}".format(kwargs["client_id"], self["aud"]),\n                        self,\n                    )\n',
    "                pass\n",
  ),
  E(
    "po-basic-secret-not-compared",
    PO,
    POC,
    "credential",
    '    if _secret is not None:\n        if _secret != _cinfo["client_secret"]:\n            logger.debug("Incorrect secret")\n            raise FailedAuthentication("Incorrect secret")\n',
    "",
  ),
  E(
    "po-client-secret-verify-returns",
    PO,
    POC,
    "credential",
    '        if self.cli.cdb[client_id]["client_secret"] == areq["client_secret"]:\n            return client_id\n        else:\n            raise AuthnFailure()\n',
    "        return client_id\n",
  ),
  E(
    "po-expired-client-secret-valid",
    PO,
    POC,
    "authn-branch",
    "    if eta != 0 and eta < utc_time_sans_frac():\n        return False\n",
    "",
  ),
  E(
    "po-unknown-assertion-client",
    PO,
    POC,
    "authn-branch",
    '        if cid not in self.cli.cdb:\n            raise AuthnFailure("Unknown client id")\n',
    "",
  ),
  // ---- hypothesis/h (Python)
  E(
    "h-role-in-any-group",
    HH,
    "h/security/predicates.py",
    "authz",
    "        membership.group.id == context.group.id and role in membership.roles\n",
    "        role in membership.roles\n",
  ),
  E(
    "h-admins-remove-owners",
    HH,
    "h/security/predicates.py",
    "authz",
    '        # Only owners can remove admins or other owners.\n        return "owner" in authenticated_users_roles\n',
    '        # Owners and admins can remove admins or other owners.\n        return "owner" in authenticated_users_roles or "admin" in authenticated_users_roles\n',
  ),
  E(
    "h-auth-client-secret-unchecked",
    HH,
    "h/security/policy/_auth_client.py",
    "credential",
    "        if not hmac.compare_digest(auth_client.secret, credentials.password):\n            return None\n",
    "",
  ),
  E(
    "h-forwarded-user-any-authority",
    HH,
    "h/security/policy/_auth_client.py",
    "authz",
    "            if (not user) or user.deleted or (user.authority != auth_client.authority):\n",
    "            if (not user) or user.deleted:\n",
  ),
  E(
    "h-token-never-expires",
    HH,
    "h/services/auth_token.py",
    "token",
    "        if self.expires is None:\n            return True\n\n        return datetime.utcnow() < self.expires  # noqa: DTZ003\n",
    "        return True\n",
  ),
  E(
    "h-deleted-user-bearer",
    HH,
    "h/security/policy/_bearer_token.py",
    "authn-branch",
    "        if user is None or user.deleted:\n            return None\n",
    "        if user is None:\n            return None\n",
  ),
  // ---- LinOTP (Python)
  E(
    "lo-inactive-token-checked",
    LO,
    LOV,
    "authn-branch",
    '            if not token.isActive():\n                audit_entry["action_detail"] = "Token inactive"\n                continue\n\n',
    "",
  ),
  E(
    "lo-failcounter-only-audited",
    LO,
    LOV,
    "authn-branch",
    '                audit_entry["action_detail"] = "Failcounter exceeded"\n                token.incOtpFailCounter()\n                continue\n',
    '                audit_entry["action_detail"] = "Failcounter exceeded"\n                token.incOtpFailCounter()\n',
  ),
  E(
    "lo-path-scope-ignored",
    LO,
    LOV,
    "authz",
    "            if token_path and path not in token_path:\n                continue\n",
    "",
  ),
  E(
    "lo-validity-end-not-enforced",
    LO,
    "linotp/tokens/base/validity_mixin.py",
    "token",
    "            or self.is_expired()\n",
    "",
  ),
  E(
    "lo-no-pin-policy-accepts-any",
    LO,
    LOV,
    "credential",
    "        return len(passw) == 0\n",
    "        return True\n",
  ),
  E(
    "lo-static-password-result-dropped",
    LO,
    "linotp/tokens/passwordtoken.py",
    "credential",
    "        if secObj.compare_password(anOtpVal):\n            return 0\n\n        return -1\n",
    "        secObj.compare_password(anOtpVal)\n        return 0\n",
  ),
  // ---- zou (Python)
  E(
    "zo-inactive-login",
    ZO,
    ZOA,
    "authn-branch",
    '    if not person.get("active", False):\n        raise UnactiveUserException()\n',
    "",
  ),
  E(
    "zo-otp-only-when-asked",
    ZO,
    ZOA,
    "authn-branch",
    "    if not no_otp and person_two_factor_authentication_enabled(person):\n",
    "    if no_otp and person_two_factor_authentication_enabled(person):\n",
  ),
  E(
    "zo-password-mismatch-ignored",
    ZO,
    ZOA,
    "credential",
    "    if not password_matches:\n        raise WrongPasswordException()\n",
    "",
  ),
  E(
    "zo-project-admin-role-kept",
    ZO,
    ZOP,
    "authz",
    '    return role if role not in (None, "admin") else _global_role()\n',
    "    return role if role is not None else _global_role()\n",
  ),
  E(
    "zo-require-admin-commented",
    ZO,
    ZOP,
    "authz",
    "        check_admin_permissions()\n        return function(*args, **kwargs)\n",
    "        # check_admin_permissions()\n        return function(*args, **kwargs)\n",
  ),
  E(
    "zo-jti-less-token-not-revoked",
    ZO,
    "zou/app/__init__.py",
    "token",
    '        jti = payload.get("jti")\n        if jti is None:\n            return True\n',
    '        jti = payload.get("jti")\n        if jti is None:\n            return False\n',
  ),
  E(
    "zo-inactive-identity-logged-only",
    ZO,
    "zou/app/__init__.py",
    "authn-branch",
    '            current_app.logger.error(\n                f"Identity {identity.id} is not active anymore"\n            )\n            raise UnactiveUserException\n',
    '            current_app.logger.error(\n                f"Identity {identity.id} is not active anymore"\n            )\n',
  ),
  E(
    "zo-blocklist-disabled",
    ZO,
    "zou/app/config.py",
    "secure-default",
    "JWT_BLACKLIST_ENABLED = True\n",
    "JWT_BLACKLIST_ENABLED = False\n",
  ),
  // ---- did-jwt (TS)
  E(
    "dj-expiry-not-checked",
    DJ,
    DJJ,
    "token",
    "    if (options.policies?.exp !== false && payload.exp && payload.exp <= now - skewTime) {\n      throw new Error(`${JWT_ERROR.INVALID_JWT}: JWT has expired: exp: ${payload.exp} < now: ${now}`)\n    }\n",
    "",
  ),
  E(
    "dj-audience-falls-back",
    DJ,
    DJJ,
    "token",
    "      const matchedAudience = audArray.find((item) => options.audience === item || options.callbackUrl === item)\n",
    "      const matchedAudience =\n        audArray.find((item) => options.audience === item || options.callbackUrl === item) ?? audArray[0]\n",
  ),
  E(
    "dj-nested-issuer-mix",
    DJ,
    DJJ,
    "token",
    "    if (iss !== payload.iss) throw new Error(`${JWT_ERROR.INVALID_JWT}: multiple issuers`)\n\n",
    "",
  ),
  E(
    "dj-ed25519-first-key",
    DJ,
    "src/VerifierAlgorithm.ts",
    "token",
    "  if (!signer) throw new Error('invalid_signature: Signature invalid for JWT')\n  return signer\n}\n\ntype Verifier",
    "  return signer ?? authenticators[0]\n}\n\ntype Verifier",
  ),
  // ---- Papermark (TS)
  E(
    "pm-link-session-expiry-dropped",
    PM,
    PML,
    "token",
    "    // Check expiration\n    if (sessionData.expiresAt < Date.now()) {\n      await deleteLinkSession(sessionToken, sessionData.viewerId);\n      return null;\n    }\n\n",
    "",
  ),
  E(
    "pm-link-session-any-link",
    PM,
    PML,
    "authz",
    "    // Check link ID matches\n    if (sessionData.linkId !== linkId) {\n      await deleteLinkSession(sessionToken, sessionData.viewerId);\n      return null;\n    }\n",
    "    // Check link ID matches\n    if (sessionData.linkId !== linkId) {\n      console.warn(`link session reused for ${linkId}`);\n    }\n",
  ),
  E(
    "pm-preview-other-user",
    PM,
    "lib/auth/preview-auth.ts",
    "authz",
    "    // Check if the session is for the correct user\n    if (sessionData.userId !== userId) {\n      await redis.del(`preview_session:${sessionToken}`);\n      return null;\n    }\n\n",
    "",
  ),
  E(
    "pm-document-team-membership",
    PM,
    "lib/team/helper.ts",
    "authz",
    '    (user) => user.userId === userId,\n  );\n  if (!teamHasUser) {\n    throw new TeamError("You are not a member of the team");\n  }\n',
    "    (user) => user.userId === userId,\n  );\n",
  ),
  E(
    "pm-doc-route-team-access",
    PM,
    "pages/api/teams/[teamId]/documents/[id]/index.ts",
    "authz",
    '        select: { teamId: true },\n      });\n\n      if (!teamAccess) {\n        return res.status(401).json({ message: "Unauthorized" });\n      }\n\n',
    "        select: { teamId: true },\n      });\n\n",
  ),
  E(
    "pm-login-code-missing-continues",
    PM,
    "app/api/auth/verify-code/route.ts",
    "authn-branch",
    '    if (!loginCodeData) {\n      return NextResponse.json(\n        {\n          error: "Invalid code. Please check your email and try again.",\n          remaining: emailLimit.remaining,\n        },\n        { status: 401 },\n      );\n    }\n\n    const { callbackUrl } = loginCodeData;\n',
    '    const { callbackUrl } = loginCodeData ?? { callbackUrl: "/dashboard" };\n',
  ),
  // ---- Signal K server (TS)
  E(
    "sk-oidc-nonce-unchecked",
    SK,
    SKI,
    "token",
    "  // Validate nonce\n  if (payload.nonce !== expectedNonce) {\n    throw new OIDCError(\n      `ID token nonce mismatch: expected ${expectedNonce}, got ${payload.nonce}`,\n      'INVALID_TOKEN'\n    )\n  }\n\n",
    "",
  ),
  E(
    "sk-oidc-audience-option-dropped",
    SK,
    SKI,
    "token",
    "        issuer: config.issuer,\n        audience: config.clientId,\n",
    "        issuer: config.issuer,\n",
  ),
  E(
    "sk-auth-cookie-not-httponly",
    SK,
    SKT,
    "secure-default",
    "    const authCookieOptions = { ...cookieOptions, httpOnly: true }\n",
    "    const authCookieOptions = { ...cookieOptions }\n",
  ),
  E(
    "sk-cookie-secure-off",
    SK,
    SKT,
    "secure-default",
    "      secure: req.secure || req.headers['x-forwarded-proto'] === 'https'\n",
    "      secure: false\n",
  ),
  E(
    "sk-readonly-may-write",
    SK,
    SKT,
    "authz",
    "          skReq.skPrincipal?.permissions === 'admin' ||\n          skReq.skPrincipal?.permissions === 'readwrite'\n",
    "          skReq.skPrincipal?.permissions === 'admin' ||\n          skReq.skPrincipal?.permissions === 'readwrite' ||\n          skReq.skPrincipal?.permissions === 'readonly'\n",
  ),
  E(
    "sk-any-principal-admin",
    SK,
    SKT,
    "authz",
    "      skReq.skPrincipal !== undefined &&\n      skReq.skPrincipal.permissions === 'admin'\n",
    "      skReq.skPrincipal !== undefined\n",
  ),
  E(
    "sk-login-match-ignored",
    SK,
    SKT,
    "credential",
    "          } else if (matches === true && user && user.password) {\n",
    "          } else if (user && user.password) {\n",
  ),
  // ---- Zipline (TS)
  E(
    "zl-cookie-mac-length-only",
    ZL,
    "src/lib/utils/crypto.ts",
    "token",
    "  return timingSafeEqual(macBuffer, valBuffer) ? str : null;\n",
    "  return macBuffer.length === valBuffer.length ? str : null;\n",
  ),
  E(
    "zl-wrong-password-commented",
    ZL,
    ZLL,
    "credential",
    "  if (!valid) return res.unauthorized('Wrong password');\n",
    "  // if (!valid) return res.unauthorized('Wrong password');\n",
  ),
  E(
    "zl-totp-result-ignored",
    ZL,
    ZLL,
    "credential",
    "    if (!success) return res.badRequest('Invalid code', { totp: true });\n",
    "",
  ),
  E(
    "zl-admin-route-flag-ignored",
    ZL,
    ZLW,
    "authz",
    "        if (api_config.administrator && !user.administrator) return res.forbidden('not an administrator');\n",
    "",
  ),
  E(
    "zl-user-cookie-samesite-none",
    ZL,
    ZLW,
    "secure-default",
    "      res.setCookie('user', id, {\n        sameSite: 'lax',\n",
    "      res.setCookie('user', id, {\n        sameSite: 'none',\n",
  ),
  E(
    "zl-oauth-link-anonymous",
    ZL,
    "src/lib/middleware/withOAuth.ts",
    "authn-branch",
    "      if (!user) return oauthError('You are not logged in, unable to link account.');\n",
    "",
  ),
];

/** Reversed real security fixes of the sixty-sixth batch (split `history66`), chosen by message only. */
export const REVERSED_FIXES_HISTORY66: ReversedFix[] = [
  {
    id: "ss-hmac-compare-digest",
    repo: SS,
    commit: "05d6d89",
    path: SSF,
    cls: "credential",
    note: "Use 'hmac.compare_digest' if available",
    split: "history66",
  },
  {
    id: "fp-security-fixes-100",
    repo: FP,
    commit: "acda0ef",
    path: FPH,
    cls: "token",
    note: "Security fixes (#100)",
    split: "history66",
  },
  {
    id: "po-GHSA-4fjv-pmhg-3rfg-consumer",
    repo: PO,
    commit: "62f8d753",
    path: "src/oic/oic/consumer.py",
    cls: "token",
    note: "GHSA-4fjv-pmhg-3rfg",
    split: "history66",
  },
  {
    id: "h-hard-code-jwt-algorithms",
    repo: HH,
    commit: "7ba01ee6c",
    path: "h/services/jwt.py",
    cls: "token",
    note: "Hard-code JWT algorithms",
    split: "history66",
  },
  {
    id: "h-hidden-annotation-permissions",
    repo: HH,
    commit: "f46f2e49b",
    path: "h/security/predicates.py",
    cls: "authz",
    note: "Fix permissions for hidden annotations",
    split: "history66",
  },
  {
    id: "sk-logs-require-admin",
    repo: SK,
    commit: "1bee8511",
    path: "src/interfaces/ws.ts",
    cls: "authz",
    note: "fix(security): require admin permission for logs",
    split: "history66",
  },
  {
    id: "sk-server-events-non-admin",
    repo: SK,
    commit: "30481beb",
    path: "src/events.ts",
    cls: "authz",
    note: "fix(security): restrict server events to what non-admins may see",
    split: "history66",
  },
  {
    id: "pm-api-key-timing-safe",
    repo: PM,
    commit: "a0a15410",
    path: "ee/features/billing/cancellation/api/automatic-unpause-route.ts",
    cls: "credential",
    note: "improve API key validation with timing-safe comparison",
    split: "history66",
  },
  {
    id: "pm-file-upload-auth-bypass",
    repo: PM,
    commit: "c322c1a1",
    path: "pages/api/file/tus/[[...file]].ts",
    cls: "authn-branch",
    note: "file upload authentication bypass (PR #2096)",
    split: "history66",
  },
  {
    id: "zl-GHSA-j2cw-9fvc-wr4r",
    repo: ZL,
    commit: "c8625c1",
    path: "src/pages/api/auth/register.ts",
    cls: "authz",
    note: "GHSA-j2cw-9fvc-wr4r: registration allowed without invite",
    split: "history66",
  },
];
