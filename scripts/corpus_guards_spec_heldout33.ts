/**
 * Thirty-third held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus, chosen the way a careless refactor or an
 * attacker would weaken them, before any measurement. Reversed fixes were picked by commit message
 * or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const DJ = "jpadilla/django-rest-framework-jwt";
const DJA = "rest_framework_jwt/authentication.py";
const DJS = "rest_framework_jwt/serializers.py";
const RA = "Tivix/django-rest-auth";
const RAS = "rest_auth/serializers.py";
const LT = "jupyterhub/ltiauthenticator";
const LT11 = "ltiauthenticator/lti11/validator.py";
const LT13 = "ltiauthenticator/lti13/validator.py";
const LTH = "ltiauthenticator/lti13/handlers.py";
const CAS = "django-cas-ng/django-cas-ng";
const RK = "rotki/rotki";
const RKT = "rotkehlchen/api/session_token.py";
const RKS = "rotkehlchen/api/server.py";
const FB = "fastify/fastify-bearer-auth";
const FBV = "lib/verify-bearer-auth-factory.js";
const BAC = "expressjs/basic-auth-connect";
const HJ = "dwyl/hapi-auth-jwt2";
const HJI = "lib/index.cjs";
const PA = "auth0/passport-auth0";
const PAJ = "lib/jwt.js";
const EJP = "MichielDeMey/express-jwt-permissions";
const LB = "strongloop/loopback";
const LBU = "common/models/user.js";
const LBT = "common/models/access-token.js";
const LBR = "common/models/role.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout33");

/** The thirty-third held-out batch of edits (split `heldout33`). */
export const EDITS_HELDOUT33: GuardEdit[] = [
  // ---- django-rest-framework-jwt (Python)
  E(
    "drfjwt-verify-default-off",
    DJ,
    "rest_framework_jwt/settings.py",
    "secure-default",
    "    'JWT_VERIFY': True,\n",
    "    'JWT_VERIFY': False,\n",
  ),
  E(
    "drfjwt-verify-expiration-default-off",
    DJ,
    "rest_framework_jwt/settings.py",
    "secure-default",
    "    'JWT_VERIFY_EXPIRATION': True,\n",
    "    'JWT_VERIFY_EXPIRATION': False,\n",
  ),
  E(
    "drfjwt-leeway-default-hour",
    DJ,
    "rest_framework_jwt/settings.py",
    "secure-default",
    "    'JWT_LEEWAY': 0,\n",
    "    'JWT_LEEWAY': 3600,\n",
  ),
  E(
    "drfjwt-auth-inactive-user",
    DJ,
    DJA,
    "authn-branch",
    "        if not user.is_active:\n            msg = _('User account is disabled.')\n            raise exceptions.AuthenticationFailed(msg)\n\n",
    "",
  ),
  E(
    "drfjwt-auth-empty-username",
    DJ,
    DJA,
    "authn-branch",
    "        if not username:\n            msg = _('Invalid payload.')\n            raise exceptions.AuthenticationFailed(msg)\n\n",
    "",
  ),
  E(
    "drfjwt-refresh-without-orig-iat",
    DJ,
    DJS,
    "token",
    "        else:\n            msg = _('orig_iat field is required.')\n            raise serializers.ValidationError(msg)\n",
    "        else:\n            orig_iat = timegm(datetime.utcnow().utctimetuple())\n",
  ),
  E(
    "drfjwt-alg-from-header",
    DJ,
    "rest_framework_jwt/utils.py",
    "token",
    "        algorithms=[api_settings.JWT_ALGORITHM]\n",
    "        algorithms=[jwt.get_unverified_header(token).get('alg', api_settings.JWT_ALGORITHM)]\n",
  ),
  E(
    "drfjwt-login-lookup-only",
    DJ,
    DJS,
    "credential",
    "            user = authenticate(**credentials)\n",
    "            user = User.objects.filter(**{self.username_field: credentials[self.username_field]}).first()\n",
  ),
  // ---- django-rest-auth (Python)
  E(
    "ra-reset-confirm-token-unchecked",
    RA,
    RAS,
    "token",
    "        if not default_token_generator.check_token(self.user, attrs['token']):\n            raise ValidationError({'token': ['Invalid value']})\n",
    "",
  ),
  E(
    "ra-old-password-usable-only",
    RA,
    RAS,
    "credential",
    "            not self.user.check_password(value)\n",
    "            not self.user.has_usable_password()\n",
  ),
  E(
    "ra-login-inactive-user",
    RA,
    RAS,
    "authn-branch",
    "        if user:\n            if not user.is_active:\n                msg = _('User account is disabled.')\n                raise exceptions.ValidationError(msg)\n        else:\n",
    "        if not user:\n",
  ),
  E(
    "ra-login-email-unverified",
    RA,
    RAS,
    "authn-branch",
    "                if not email_address.verified:\n                    raise serializers.ValidationError(_('E-mail is not verified.'))\n",
    "                # if not email_address.verified:\n                #     raise serializers.ValidationError(_('E-mail is not verified.'))\n",
  ),
  E(
    "ra-password-change-permission-dropped",
    RA,
    "rest_auth/views.py",
    "authz",
    "    serializer_class = PasswordChangeSerializer\n    permission_classes = (IsAuthenticated,)\n",
    "    serializer_class = PasswordChangeSerializer\n",
  ),
  E(
    "ra-social-existing-email-linked",
    RA,
    "rest_auth/registration/serializers.py",
    "authz",
    '                if account_exists:\n                    raise serializers.ValidationError(\n                        _("User is already registered with this e-mail address.")\n                    )\n',
    "                if account_exists:\n                    pass\n",
  ),
  E(
    "ra-jwt-cookie-script-readable",
    RA,
    "rest_auth/views.py",
    "secure-default",
    "                                    httponly=True)\n",
    "                                    httponly=False)\n",
  ),
  // ---- ltiauthenticator (Python)
  E(
    "lti11-bad-signature-logged",
    LT,
    LT11,
    "credential",
    '        if not is_valid:\n            raise HTTPError(401, "Invalid oauth_signature")\n',
    '        if not is_valid:\n            self.log.warning("Invalid oauth_signature")\n',
  ),
  E(
    "lti11-nonce-replay-allowed",
    LT,
    LT11,
    "token",
    '            if (\n                ts in LTI11LaunchValidator.nonces\n                and args["oauth_nonce"] in LTI11LaunchValidator.nonces[ts]\n            ):\n                raise HTTPError(401, "oauth_nonce + oauth_timestamp already used")\n',
    "",
  ),
  E(
    "lti13-signature-optional",
    LT,
    LT13,
    "token",
    '            verification_options.get("verify_signature", True) or jwks_endpoint != ""\n',
    '            verification_options.get("verify_signature", True) and jwks_endpoint != ""\n',
  ),
  E(
    "lti13-azp-mismatch-allowed",
    LT,
    LT13,
    "token",
    '        if azp not in client_id:\n            raise InvalidAudienceError("azp claim does not match client_id.")\n',
    "",
  ),
  E(
    "lti13-state-check-commented",
    LT,
    LTH,
    "token",
    "        # constructed in `LTI13LoginInitHandler.post`, prevents CSRF\n        self.check_state()\n",
    "        # constructed in `LTI13LoginInitHandler.post`, prevents CSRF\n        # self.check_state()\n",
  ),
  E(
    "lti13-null-user-redirected",
    LT,
    LTH,
    "authn-branch",
    '        if user is None:\n            raise HTTPError(403, "User missing or null")\n',
    "",
  ),
  E(
    "lti13-state-cookie-readable",
    LT,
    LTH,
    "secure-default",
    "            expires_days=1,\n            httponly=True,\n            encrypted=True,\n",
    "            expires_days=1,\n            httponly=False,\n            encrypted=False,\n",
  ),
  // ---- django-cas-ng (Python)
  E(
    "cas-verify-ssl-default-off",
    CAS,
    "django_cas_ng/__init__.py",
    "secure-default",
    "    'CAS_VERIFY_SSL_CERTIFICATE': True,\n",
    "    'CAS_VERIFY_SSL_CERTIFICATE': False,\n",
  ),
  E(
    "cas-check-next-default-off",
    CAS,
    "django_cas_ng/__init__.py",
    "secure-default",
    "    'CAS_CHECK_NEXT': True,\n",
    "    'CAS_CHECK_NEXT': False,\n",
  ),
  E(
    "cas-inactive-user-authenticates",
    CAS,
    "django_cas_ng/backends.py",
    "authn-branch",
    "        if not self.user_can_authenticate(user):\n            return None\n\n",
    "",
  ),
  E(
    "cas-admin-staff-check-dropped",
    CAS,
    "django_cas_ng/middleware.py",
    "authz",
    "        if request.user.is_authenticated:\n            if request.user.is_staff:\n                return None\n            raise PermissionDenied(_('You do not have staff privileges.'))\n",
    "        if request.user.is_authenticated:\n            return None\n",
  ),
  E(
    "cas-permission-required-any-user",
    CAS,
    "django_cas_ng/decorators.py",
    "authz",
    "    return user_passes_test(lambda u: u.has_perm(perm), login_url=login_url)\n",
    "    return user_passes_test(lambda u: u.is_authenticated, login_url=login_url)\n",
  ),
  // ---- rotki (Python)
  E(
    "rk-session-sig-plain-compare",
    RK,
    RKT,
    "credential",
    "    if not hmac.compare_digest(provided, expected):\n        return None\n",
    "    if provided != expected:\n        return None\n",
  ),
  E(
    "rk-session-exp-unchecked",
    RK,
    RKT,
    "token",
    "    if current_time >= expires_at:\n        return None\n",
    "",
  ),
  E(
    "rk-session-audience-unchecked",
    RK,
    RKT,
    "token",
    "        not isinstance(sid, str) or\n        payload.get('aud') != audience\n    ):\n",
    "        not isinstance(sid, str)\n    ):\n",
  ),
  E(
    "rk-mcp-proof-error-accepted",
    RK,
    RKT,
    "credential",
    "        return hmac.compare_digest(expected, proof)\n    except (TypeError, UnicodeError):\n        return False\n",
    "        return hmac.compare_digest(expected, proof)\n    except (TypeError, UnicodeError):\n        return True\n",
  ),
  E(
    "rk-mcp-revoked-session-accepted",
    RK,
    "rotkehlchen/mcp/auth.py",
    "authn-branch",
    "        if not await asyncio.to_thread(\n            is_persisted_mcp_session_active,\n            self.session_db,\n            claims.username,\n            claims.sid,\n        ):\n            return None\n",
    "",
  ),
  E(
    "rk-session-cookie-flags",
    RK,
    RKT,
    "secure-default",
    "        max_age=SESSION_TOKEN_TTL,\n        httponly=True,\n        samesite='Lax',\n",
    "        max_age=SESSION_TOKEN_TTL,\n        httponly=False,\n        samesite='None',\n",
  ),
  E(
    "rk-credential-other-user",
    RK,
    RKS,
    "authz",
    "                if (\n                        self.rest_api.rotkehlchen.user_is_logged_in and\n                        claims.username != self.rest_api.rotkehlchen.data.username\n                ):\n                    return api_response(\n                        wrap_in_fail_result('Authentication required'),\n                        HTTPStatus.UNAUTHORIZED,\n                    )\n\n",
    "",
  ),
  E(
    "rk-cookie-sid-not-active",
    RK,
    RKS,
    "authn-branch",
    "                cookie_is_active = (\n                    cookie_claims is not None and\n                    self.rest_api.session_store.is_active(\n                        cookie_claims.username,\n                        cookie_claims.sid,\n                    )\n                )\n",
    "                cookie_is_active = cookie_claims is not None\n",
  ),
  E(
    "rk-cookieless-user-patch",
    RK,
    RKS,
    "authz",
    "        (f'{_api_prefix}/users/<string:name>', 'POST'),\n",
    "        (f'{_api_prefix}/users/<string:name>', 'POST'),\n        (f'{_api_prefix}/users/<string:name>', 'PATCH'),\n",
  ),
  // ---- @fastify/bearer-auth (JS)
  E(
    "fba-compare-plain-equality",
    FB,
    "lib/compare.js",
    "credential",
    "  return timingSafeEqual(a, b)\n",
    "  return a.toString() === b.toString()\n",
  ),
  E(
    "fba-key-substring-match",
    FB,
    "lib/authenticate.js",
    "credential",
    "  return keys.findIndex((a) => compare(a, b)) !== -1\n",
    "  return keys.findIndex((a) => a.includes(b)) !== -1\n",
  ),
  E(
    "fba-missing-header-continues",
    FB,
    FBV,
    "authn-branch",
    "    if (!authorizationHeader) {\n      const error = new FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER()\n      return handleUnauthorized(request, reply, done, error)\n    }\n",
    "    if (!authorizationHeader) {\n      return done()\n    }\n",
  ),
  E(
    "fba-auth-throw-accepted",
    FB,
    FBV,
    "authn-branch",
    "      } catch (err) {\n        retVal = Promise.reject(err)\n      }\n",
    "      } catch (err) {\n        request.log.warn(err)\n        retVal = true\n      }\n",
  ),
  E(
    "fba-hook-not-default",
    FB,
    "index.js",
    "secure-default",
    "  if (pluginOptions.addHook === true || pluginOptions.addHook == null) {\n",
    "  if (pluginOptions.addHook === true) {\n",
  ),
  // ---- basic-auth-connect (JS)
  E(
    "bac-password-not-compared",
    BAC,
    "index.js",
    "credential",
    "      return usernameValid && passwordValid;\n",
    "      return usernameValid;\n",
  ),
  E(
    "bac-password-loose-equality",
    BAC,
    "index.js",
    "credential",
    "      const passwordValid = timingSafeCompare(pass, password);\n",
    "      const passwordValid = pass == password;\n",
  ),
  E(
    "bac-async-null-user-accepted",
    BAC,
    "index.js",
    "authn-branch",
    "        if (err || !user) {\n",
    "        if (err) {\n",
  ),
  // ---- hapi-auth-jwt2 (JS)
  E(
    "haj-decode-instead-of-verify",
    HJ,
    HJI,
    "token",
    "      return JWT.verify(token, k, options.verifyOptions);\n",
    "      return JWT.decode(token, { complete: options.complete || false });\n",
  ),
  E(
    "haj-invalid-with-credentials",
    HJ,
    HJI,
    "authn-branch",
    "      if (!isValid) {\n        // invalid credentials\n",
    "      if (!isValid && !credentials) {\n        // invalid credentials\n",
  ),
  E(
    "haj-validate-throw-authenticates",
    HJ,
    HJI,
    "authn-branch",
    "    } catch (validate_err) {\n      return {\n        error: internals.raiseError(\n          options,\n          request,\n          h,\n          'boomify',\n          validate_err,\n          { decoded }\n        ),\n        payload: {\n          credentials: decoded,\n        },\n      };\n    }\n",
    "    } catch (validate_err) {\n      request.log(['auth', 'jwt'], validate_err);\n      return {\n        payload: {\n          credentials: decoded,\n          artifacts: { token, decoded },\n        },\n      };\n    }\n",
  ),
  E(
    "haj-reverify-skipped",
    HJ,
    HJI,
    "token",
    "      const { keys } = await internals.getKeys(decoded, options);\n      internals.verifyJwt(token, keys, options);\n",
    "      await internals.getKeys(decoded, options);\n",
  ),
  // ---- passport-auth0 (JS)
  E(
    "pa0-state-default-off",
    PA,
    "lib/index.js",
    "secure-default",
    "  if (this.options.state === undefined) {\n    this.options.state = true;\n  }\n",
    "  if (this.options.state === undefined) {\n    this.options.state = false;\n  }\n",
  ),
  E(
    "pa0-any-alg-accepted",
    PA,
    PAJ,
    "token",
    "  if (header.alg !== 'RS256' && header.alg !== 'HS256') {\n",
    "  if (!header.alg) {\n",
  ),
  E(
    "pa0-issuer-mismatch-ignored",
    PA,
    PAJ,
    "token",
    '  if (payload.iss !== options.iss) {\n    throw new Error(`Issuer (iss) claim mismatch in the ID token; expected "${options.iss}", found "${payload.iss}"`);\n  }\n',
    "",
  ),
  E(
    "pa0-id-token-unvalidated-req-callback",
    PA,
    "lib/verifyWrapper.js",
    "token",
    "    return function (req, accessToken, refreshToken, params, profile, done) {\n      handleIdTokenValidation(strategyOptions, authParams, params);\n",
    "    return function (req, accessToken, refreshToken, params, profile, done) {\n",
  ),
  // ---- express-jwt-permissions (JS)
  E(
    "ejp-any-permission-suffices",
    EJP,
    "index.js",
    "authz",
    "        return required.every(function (permission) {\n",
    "        return required.some(function (permission) {\n",
  ),
  E(
    "ejp-denial-only-when-strict",
    EJP,
    "index.js",
    "authz",
    "      next(!sufficient ? PermissionError : null)\n",
    "      next(!sufficient && options.strict ? PermissionError : null)\n",
  ),
  E(
    "ejp-no-permissions-passes",
    EJP,
    "index.js",
    "authz",
    "      if (!permissions) {\n        return next(new UnauthorizedError('permissions_not_found', {\n          message: 'Could not find permissions for user. Bad configuration?'\n        }))\n      }\n",
    "      if (!permissions) {\n        return next()\n      }\n",
  ),
  E(
    "ejp-permission-substring",
    EJP,
    "index.js",
    "authz",
    "          return permissions.indexOf(permission) !== -1\n",
    "          return permissions.join(' ').indexOf(permission) !== -1\n",
  ),
  // ---- LoopBack 3 (JS)
  E(
    "lb-eternal-token-always-valid",
    LB,
    LBT,
    "token",
    "      const isValid = isEternalToken ?\n        eternalTokensAllowed :\n        elapsedSeconds < secondsToLive;\n",
    "      const isValid = isEternalToken || elapsedSeconds < secondsToLive;\n",
  ),
  E(
    "lb-invalid-token-resolved",
    LB,
    LBT,
    "token",
    "          } else if (isValid) {\n            cb(null, token);\n          } else {\n            const e = new Error(g.f('Invalid Access Token'));\n            e.status = e.statusCode = 401;\n            e.code = 'INVALID_TOKEN';\n            cb(e);\n          }\n",
    "          } else {\n            cb(null, token);\n          }\n",
  ),
  E(
    "lb-change-password-empty-old",
    LB,
    LBU,
    "credential",
    "      if (err) return cb(err);\n      if (!isMatch) {\n",
    "      if (err) return cb(err);\n      if (!isMatch && oldPassword) {\n",
  ),
  E(
    "lb-login-passwordless-user",
    LB,
    LBU,
    "credential",
    "          } else if (isMatch) {\n            if (self.settings.emailVerificationRequired && !user.emailVerified) {\n",
    "          } else if (isMatch || !user.password) {\n            if (self.settings.emailVerificationRequired && !user.emailVerified) {\n",
  ),
  E(
    "lb-login-unverified-null",
    LB,
    LBU,
    "authn-branch",
    "            if (self.settings.emailVerificationRequired && !user.emailVerified) {\n              // Fail to log in if email verification is not done yet\n",
    "            if (self.settings.emailVerificationRequired && user.emailVerified === false) {\n              // Fail to log in if email verification is not done yet\n",
  ),
  E(
    "lb-create-email-verified-kept",
    LB,
    LBU,
    "authz",
    "      if (body && body.emailVerified) {\n        body.emailVerified = false;\n      }\n",
    "",
  ),
  E(
    "lb-owner-match-empty-ids",
    LB,
    LBR,
    "authz",
    "    if (id1 === undefined || id1 === null || id1 === '' ||\n      id2 === undefined || id2 === null || id2 === '') {\n      return false;\n    }\n",
    "",
  ),
  E(
    "lb-owner-no-user-id",
    LB,
    LBR,
    "authz",
    "    if (!userId) {\n      debug('isOwner(): no user id was set, returning false');\n      process.nextTick(function() {\n        callback(null, false);\n      });\n      return callback.promise;\n    }\n\n",
    "",
  ),
  E(
    "lb-check-access-authenticated",
    LB,
    "lib/model.js",
    "authz",
    "      callback(null, accessRequest.isAllowed());\n",
    "      callback(null, accessRequest.isAllowed() || !!token.userId);\n",
  ),
];

/** Reversed real security fixes of the thirty-third batch (split `history33`), chosen by message only. */
export const REVERSED_FIXES_HISTORY33: ReversedFix[] = [
  {
    id: "lti-GHSA-8mxq-nonce-ttl",
    repo: LT,
    commit: "05a04b8",
    path: LT11,
    cls: "token",
    note: "GHSA-8mxq-7xr7-2fxj: use cachetools.TTLCache to expire nonces",
    split: "history33",
  },
  {
    id: "lti-reject-unsecured-jwt",
    repo: LT,
    commit: "8870a94",
    path: LT13,
    cls: "token",
    note: "reject unsecured JWT if JWKS endpoint is specified",
    split: "history33",
  },
  {
    id: "lti-GHSA-mcgx-verify-jwt",
    repo: LT,
    commit: "7b533f7",
    path: LT13,
    cls: "token",
    note: "GHSA-mcgx-2gcr-p3hp: explicitly verify JWT tokens for LTI 1.3",
    split: "history33",
  },
  {
    id: "fba-GHSA-376v-timing-safe-equal",
    repo: FB,
    commit: "f921a05",
    path: "plugin.js",
    cls: "credential",
    note: "GHSA-376v-xgjx-7mfr: correctly use crypto.timingSafeEqual",
    split: "history33",
  },
  {
    id: "fba-constant-time-key-check",
    repo: FB,
    commit: "abacbdc",
    path: "plugin.js",
    cls: "credential",
    note: "implement constant time key check",
    split: "history33",
  },
  {
    id: "bac-timing-safe-compare",
    repo: BAC,
    commit: "bac1e6a",
    path: "index.js",
    cls: "credential",
    note: "add timing safe equal comparison",
    split: "history33",
  },
  {
    id: "haj-reverify-long-running",
    repo: HJ,
    commit: "e718e23",
    path: "lib/index.js",
    cls: "token",
    note: "verify the token is still valid in a long running request",
    split: "history33",
  },
  {
    id: "pa0-id-token-validation",
    repo: PA,
    commit: "7f50103",
    path: "lib/index.js",
    cls: "token",
    note: "adding ID token validation",
    split: "history33",
  },
  {
    id: "lb-isowner-multi-principal",
    repo: LB,
    commit: "2aead13f",
    path: LBR,
    cls: "authz",
    note: "fix isOwner() bug in multiple-principal setup",
    split: "history33",
  },
];
