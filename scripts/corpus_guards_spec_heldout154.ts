/**
 * Held-out batch 154 of the guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus (macauthlib, pyramid_macauth, flask-jwt-simple,
 * sanic-auth, django-oidc-rp, custodia, @cfworker/jwt, @mgcrea/fastify-session, authhero), chosen
 * the way a careless refactor or an attacker would weaken them, before any measurement. Reversed
 * fixes were picked by commit message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H154 = "heldout154" as const;
const MAL = "mozilla-services/macauthlib";
const MALI = "macauthlib/__init__.py";
const PMA = "mozilla-services/pyramid_macauth";
const PMAI = "pyramid_macauth/__init__.py";
const FJS = "vimalloc/flask-jwt-simple";
const SA = "pyx/sanic-auth";
const SAI = "sanic_auth/__init__.py";
const ORP = "impak-finance/django-oidc-rp";
const ORPU = "oidc_rp/utils.py";
const CU = "latchset/custodia";
const CUS = "src/custodia/httpd/server.py";
const CUA = "src/custodia/httpd/authenticators.py";
const CF = "cfworker/cfworker";
const CFP = "packages/jwt/src/parse.ts";
const CFO = "packages/examples/src/auth/oauth-flow.ts";
const FS = "mgcrea/fastify-session";
const FSH = "src/crypto/Hmac.ts";
const FSP = "src/plugin.ts";
const AH = "markusahlstrand/authhero";
const AHM = "packages/authhero/src/middlewares/authentication.ts";
const AHJ = "packages/authhero/src/utils/jwt.ts";
const AHP = "packages/authhero/src/authentication-flows/password.ts";
const AHR = "packages/authhero/src/authentication-flows/refresh-token.ts";
const AHS = "packages/authhero/src/helpers/scopes-permissions.ts";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H154);

/** Held-out batch 154 of edits (split `heldout154`). */
export const EDITS_HELDOUT154: GuardEdit[] = [
  // ---- macauthlib (Python)
  E(
    "mal-signature-compare-dropped",
    MAL,
    MALI,
    "credential",
    '        expected_sig = get_signature(request, key, hashmod, params)\n        if utils.strings_differ(params["mac"], expected_sig):\n            return False\n',
    "        expected_sig = get_signature(request, key, hashmod, params)\n",
  ),
  E(
    "mal-nonce-check-disabled",
    MAL,
    MALI,
    "token",
    "        if nonces is not False:\n            if not nonces.check_nonce(id, timestamp, nonce):\n                return False\n",
    "        if nonces is not False:\n            nonces.check_nonce(id, timestamp, nonce)\n",
  ),
  E(
    "mal-scheme-any",
    MAL,
    MALI,
    "authn-branch",
    '    if params.get("scheme") != "MAC":\n        return False\n    # Any KeyError here indicates a missing parameter.\n',
    "    # Any KeyError here indicates a missing parameter.\n",
  ),
  E(
    "mal-strings-differ-length-only",
    MAL,
    "macauthlib/utils.py",
    "credential",
    "    if len(string1) != len(string2):\n        return True\n    invalid_bits = 0\n    for a, b in zip(string1, string2):\n        invalid_bits += ord(a) ^ ord(b)\n    return invalid_bits != 0\n",
    "    return len(string1) != len(string2)\n",
  ),
  E(
    "mal-nonce-replay-allowed",
    MAL,
    "macauthlib/noncecache.py",
    "token",
    "        if nonce in nonces:\n            return False\n",
    "        if nonce in nonces:\n            pass\n",
  ),
  // ---- pyramid_macauth (Python)
  E(
    "pma-authenticated-userid-no-sig",
    PMA,
    PMAI,
    "credential",
    "        if userid is None:\n            return None\n        self._check_signature(request, key)\n        if self.find_groups(userid, request) is None:\n",
    "        if userid is None:\n            return None\n        if self.find_groups(userid, request) is None:\n",
  ),
  E(
    "pma-groupfinder-none-accepted",
    PMA,
    PMAI,
    "authn-branch",
    "        groups = self.find_groups(userid, request)\n        if groups is None:\n            return principals\n",
    "        groups = self.find_groups(userid, request) or []\n",
  ),
  E(
    "pma-invalid-sig-tolerated",
    PMA,
    PMAI,
    "credential",
    '        if not sig_valid:\n            msg = "invalid MAC signature"\n            raise self.challenge(request, msg)\n',
    '        if not sig_valid:\n            msg = "invalid MAC signature"\n            request.environ["macauth.warning"] = msg\n',
  ),
  E(
    "pma-nonce-cache-off",
    PMA,
    PMAI,
    "token",
    "        sig_valid = macauthlib.check_signature(request, key, params=params,\n                                               nonces=self.nonce_cache)\n",
    "        sig_valid = macauthlib.check_signature(request, key, params=params,\n                                               nonces=False)\n",
  ),
  E(
    "pma-bad-mac-id-anonymous",
    PMA,
    PMAI,
    "authn-branch",
    '        except ValueError:\n            msg = "invalid MAC id: %s" % (tokenid,)\n            raise self.challenge(request, msg)\n',
    "        except ValueError:\n            return None, None\n",
  ),
  // ---- flask-jwt-simple (Python)
  E(
    "fjs-decode-no-verify",
    FJS,
    "flask_jwt_simple/utils.py",
    "token",
    "    return jwt.decode(encoded_token, secret, algorithms=[algorithm], audience=audience)\n",
    '    return jwt.decode(encoded_token, secret, algorithms=[algorithm], audience=audience,\n                      options={"verify_signature": False})\n',
  ),
  E(
    "fjs-optional-swallows-invalid",
    FJS,
    "flask_jwt_simple/view_decorators.py",
    "token",
    "        except (NoAuthorizationError, InvalidHeaderError):\n            pass\n",
    "        except Exception:\n            pass\n",
  ),
  E(
    "fjs-required-skips-missing-header",
    FJS,
    "flask_jwt_simple/view_decorators.py",
    "authn-branch",
    "    def wrapper(*args, **kwargs):\n        jwt_data = _decode_jwt_from_headers()\n        ctx_stack.top.jwt = jwt_data\n        return fn(*args, **kwargs)\n",
    "    def wrapper(*args, **kwargs):\n        try:\n            ctx_stack.top.jwt = _decode_jwt_from_headers()\n        except NoAuthorizationError:\n            ctx_stack.top.jwt = {}\n        return fn(*args, **kwargs)\n",
  ),
  E(
    "fjs-empty-secret-allowed",
    FJS,
    "flask_jwt_simple/config.py",
    "secure-default",
    "        key = current_app.config['JWT_SECRET_KEY']\n        if not key:\n            raise RuntimeError('JWT_SECRET_KEY must be set to use '\n                               'symmetric cryptography algorithm '\n                               '\"{}\"'.format(self.algorithm))\n        return key\n",
    "        return current_app.config['JWT_SECRET_KEY'] or ''\n",
  ),
  E(
    "fjs-expiry-one-year",
    FJS,
    "flask_jwt_simple/jwt_manager.py",
    "secure-default",
    "        app.config.setdefault('JWT_EXPIRES', datetime.timedelta(hours=1))\n",
    "        app.config.setdefault('JWT_EXPIRES', datetime.timedelta(days=365))\n",
  ),
  // ---- sanic-auth (Python)
  E(
    "sa-no-user-runs-route",
    SA,
    SAI,
    "authn-branch",
    "            if user is None:\n                if handle_no_auth:\n                    resp = handle_no_auth(request)\n                else:\n                    resp = self.handle_no_auth(request)\n            else:\n",
    "            if False:\n                resp = self.handle_no_auth(request)\n            else:\n",
  ),
  // ---- django-oidc-rp (Python)
  E(
    "orp-issuer-netloc-unchecked",
    ORP,
    ORPU,
    "token",
    "    if iss_parsed_url.netloc != provider_parsed_url.netloc:\n        raise SuspiciousOperation('Invalid issuer')\n",
    "",
  ),
  E(
    "orp-audience-any",
    ORP,
    ORPU,
    "token",
    "    if oidc_rp_settings.CLIENT_ID not in id_token['aud']:\n        raise SuspiciousOperation('Invalid audience')\n",
    "    if not id_token['aud']:\n        raise SuspiciousOperation('Invalid audience')\n",
  ),
  E(
    "orp-claims-validation-skipped",
    ORP,
    ORPU,
    "token",
    "    # Validates the claims embedded in the id_token.\n    _validate_claims(id_token, nonce=nonce, validate_nonce=validate_nonce, access_token=access_token)\n",
    "",
  ),
  E(
    "orp-state-mismatch-ignored",
    ORP,
    "oidc_rp/views.py",
    "token",
    "            if oidc_rp_settings.USE_STATE and callback_params['state'] != state:\n                raise SuspiciousOperation('Invalid OpenID Connect callback state value')\n",
    "",
  ),
  E(
    "orp-inactive-user-login",
    ORP,
    "oidc_rp/views.py",
    "authn-branch",
    "            if user and user.is_active:\n                auth.login(self.request, user)\n",
    "            if user:\n                auth.login(self.request, user)\n",
  ),
  E(
    "orp-state-default-off",
    ORP,
    "oidc_rp/conf/settings.py",
    "secure-default",
    "USE_STATE = getattr(settings, 'OIDC_RP_USE_STATE', True)\n",
    "USE_STATE = getattr(settings, 'OIDC_RP_USE_STATE', False)\n",
  ),
  E(
    "orp-drf-userinfo-error-ignored",
    ORP,
    "oidc_rp/contrib/rest_framework/authentication.py",
    "authn-branch",
    "            userinfo_response.raise_for_status()\n        except HTTPError:\n            raise AuthenticationFailed('Bearer token seems invalid or expired.')\n",
    "        except HTTPError:\n            pass\n",
  ),
  // ---- custodia (Python)
  E(
    "cu-no-authenticator-passes",
    CU,
    CUS,
    "authn-branch",
    "        if valid_once is not True:\n            self.server.auditlog.svc_access(self.__class__.__name__,\n                                            log.AUDIT_SVC_AUTH_FAIL,\n                                            request['client_id'], 'No auth')\n            raise HTTPError(403)\n",
    "        if valid_once is not True:\n            self.server.auditlog.svc_access(self.__class__.__name__,\n                                            log.AUDIT_SVC_AUTH_FAIL,\n                                            request['client_id'], 'No auth')\n",
  ),
  E(
    "cu-authz-neutral-allowed",
    CU,
    CUS,
    "authz",
    "        if authz_ok is not True:\n",
    "        if authz_ok is False:\n",
  ),
  E(
    "cu-authenticator-false-ignored",
    CU,
    CUS,
    "authn-branch",
    "            if valid is False:\n                raise HTTPError(403)\n            elif valid is True:\n                valid_once = True\n",
    "            if valid is True:\n                valid_once = True\n",
  ),
  E(
    "cu-authkey-compare-dropped",
    CU,
    CUA,
    "credential",
    "            if constant_time.bytes_eq(val.encode('utf-8'),\n                                      key.encode('utf-8')):\n                validated = True\n",
    "            validated = True\n",
  ),
  E(
    "cu-header-auth-any-value",
    CU,
    CUA,
    "credential",
    "        if self.value is not None:\n            # pylint: disable=unsupported-membership-test\n            if value not in self.value:\n",
    "        if self.value is not None:\n            # pylint: disable=unsupported-membership-test\n            if not value:\n",
  ),
  E(
    "cu-namespace-check-removed",
    CU,
    "src/custodia/httpd/authorizers.py",
    "authz",
    "        namespace = self.path.rstrip('/') + '/' + name + '/'\n        if not path.startswith(namespace):\n            # Not in the namespace\n            self.audit_svc_access(log.AUDIT_SVC_AUTHZ_FAIL,\n                                  request['client_id'], path)\n            return False\n",
    "        namespace = self.path.rstrip('/') + '/' + name + '/'\n",
  ),
  E(
    "cu-namespace-no-user-neutral",
    CU,
    "src/custodia/httpd/authorizers.py",
    "authz",
    "            # UserNameSpace requires a user ...\n            self.audit_svc_access(log.AUDIT_SVC_AUTHZ_FAIL,\n                                  request['client_id'], path)\n            return False\n",
    "            # UserNameSpace requires a user ...\n            return None\n",
  ),
  E(
    "cu-client-cert-not-required",
    CU,
    CUS,
    "secure-default",
    "        if self.config.get('tls_verify_client', False):\n            verifymode = ssl.CERT_REQUIRED\n        else:\n            verifymode = ssl.CERT_NONE\n",
    "        if self.config.get('tls_verify_client', False):\n            verifymode = ssl.CERT_OPTIONAL\n        else:\n            verifymode = ssl.CERT_NONE\n",
  ),
  E(
    "cu-client-ca-verify-off",
    CU,
    "src/custodia/client.py",
    "secure-default",
    "    def set_ca_cert(self, cafile):\n        self.session.verify = cafile\n",
    "    def set_ca_cert(self, cafile):\n        self.session.verify = False\n",
  ),
  // ---- @cfworker/jwt and examples (TS)
  E(
    "cf-signature-invalid-ignored",
    CF,
    CFP,
    "token",
    "  if (!signatureValid) {\n    return {\n      valid: false,\n      reason: `JWT signature is invalid.`,\n      reasonCode: InvalidJwtReasonCode.Other,\n      decoded\n    };\n  }\n",
    "  if (!signatureValid) {\n    console.warn(`JWT signature is invalid.`);\n  }\n",
  ),
  E(
    "cf-expiry-not-enforced",
    CF,
    CFP,
    "token",
    "  const expired = expiryDate.getTime() <= currentDate.getTime() - skewMs;\n",
    "  const expired = false && expiryDate.getTime() <= currentDate.getTime() - skewMs;\n",
  ),
  E(
    "cf-issuer-check-dropped",
    CF,
    CFP,
    "token",
    "  if (!(iss === issuer || (Array.isArray(issuer) && issuer.includes(iss)))) {\n",
    "  if (!iss) {\n",
  ),
  E(
    "cf-alg-allowlist-removed",
    CF,
    CFP,
    "token",
    "  if (!algToHash[alg]) {\n    return {\n      valid: false,\n      reason: `Invalid JWT algorithm ${JSON.stringify(\n        alg\n      )}. Supported: ${algs}.`,\n      reasonCode: InvalidJwtReasonCode.Other,\n      decoded\n    };\n  }\n",
    "",
  ),
  E(
    "cf-cookie-never-secure",
    CF,
    CFO,
    "secure-default",
    "  const secure = production;\n",
    "  const secure = false;\n",
  ),
  E(
    "cf-cookie-samesite-none-js",
    CF,
    CFO,
    "secure-default",
    "    path: '/',\n    httpOnly: true,\n    secure,\n",
    "    path: '/',\n    httpOnly: false,\n    secure,\n",
  ),
  E(
    "cf-invalid-jwt-trusts-payload",
    CF,
    CFO,
    "authn-branch",
    "  if (!result.valid) {\n    cookies.set('reason', result.reason);\n    await next();\n    return;\n  }\n  const payload = result.payload as any;\n",
    "  if (!result.valid) {\n    cookies.set('reason', result.reason);\n  }\n  const payload = (result.valid ? result.payload : result.decoded?.payload) as any;\n",
  ),
  // ---- @mgcrea/fastify-session (TS)
  E(
    "fs-hmac-verify-failure-ignored",
    FS,
    FSH,
    "credential",
    '    if (!success) {\n      throw createError("VerifyError", "Unable to verify");\n    }\n',
    "    if (!success) {\n      rotated = true;\n    }\n",
  ),
  E(
    "fs-hmac-compare-prefix-only",
    FS,
    FSH,
    "credential",
    "      const verified = crypto.timingSafeEqual(signedBuffer, messageBuffer);\n",
    "      const verified = message.startsWith(cleartext.toString(this.encoding));\n",
  ),
  E(
    "fs-store-expiry-ignored",
    FS,
    "src/session/Session.ts",
    "authn-branch",
    '    if (expiry && expiry <= Date.now()) {\n      throw createError("ExpiredSession", "the store returned an expired session");\n    }\n',
    "",
  ),
  E(
    "fs-missing-secret-allowed",
    FS,
    FSP,
    "secure-default",
    '  if (!key && !secret) {\n    throw new Error("key or secret must specified");\n  }\n',
    "",
  ),
  // ---- authhero (TS)
  E(
    "ah-mgmt-scope-check-removed",
    AH,
    AHM,
    "authz",
    '          if (!hasMatch) {\n            throw new JSONHTTPException(403, { message: "Unauthorized" });\n          }\n',
    "",
  ),
  E(
    "ah-mgmt-scope-any-one-of-permissions",
    AH,
    AHM,
    "authz",
    "        if (requiredPermissions.length) {\n",
    "        if (requiredPermissions.length && permissions.length === 0 && scopes.length === 0) {\n",
  ),
  E(
    "ah-cross-tenant-any-token",
    AH,
    AHM,
    "authz",
    "            if (!cpId || tokenTenantId !== cpId) {\n",
    "            if (cpId && tokenTenantId !== cpId && tokenTenantId !== requestTenantId) {\n",
  ),
  E(
    "ah-missing-bearer-passes",
    AH,
    AHM,
    "authn-branch",
    '      if (!bearer) {\n        throw new JSONHTTPException(401, {\n          message: "Missing bearer token",\n        });\n      }\n',
    "      if (!bearer) {\n        return await next();\n      }\n",
  ),
  E(
    "ah-verify-with-decode",
    AH,
    AHJ,
    "token",
    "    const verifiedPayload = (await verify(\n      token,\n      cryptoKey,\n      alg,\n    )) as unknown as JwtPayload;\n",
    "    const verifiedPayload = decode(token).payload as unknown as JwtPayload;\n",
  ),
  E(
    "ah-safe-compare-length-only",
    AH,
    "packages/authhero/src/utils/safe-compare.ts",
    "credential",
    "  let result = 0;\n  for (let i = 0; i < a.length; i++) {\n    result |= a.charCodeAt(i) ^ b.charCodeAt(i);\n  }\n  return result === 0;\n",
    "  return a.length === b.length;\n",
  ),
  E(
    "ah-client-secret-compare-dropped",
    AH,
    "packages/authhero/src/authentication-flows/client-credentials.ts",
    "credential",
    "    if (!safeCompare(client.client_secret, params.client_secret)) {\n",
    "    if (!params.client_secret.length) {\n",
  ),
  E(
    "ah-client-no-secret-allowed",
    AH,
    "packages/authhero/src/authentication-flows/client-credentials.ts",
    "authn-branch",
    '    if (!client.client_secret) {\n      logMessage(ctx, client.tenant.id, {\n        type: LogTypes.FAILED_EXCHANGE_ACCESS_TOKEN_FOR_CLIENT_CREDENTIALS,\n        description: "Client has no registered secret",\n      });\n      throw new JSONHTTPException(401, {\n        message: "Client authentication failed",\n      });\n    }\n    if (!safeCompare(client.client_secret, params.client_secret)) {\n',
    "    if (client.client_secret && !safeCompare(client.client_secret, params.client_secret)) {\n",
  ),
  E(
    "ah-password-bcrypt-skipped",
    AH,
    AHP,
    "credential",
    "  let valid =\n    password &&\n    (await bcryptjs.compare(authParams.password, password.password));\n",
    "  let valid = !!password && !!authParams.password;\n",
  ),
  E(
    "ah-blocked-user-login",
    AH,
    AHP,
    "authn-branch",
    '    throw new AuthError(403, {\n      message: "User is blocked",\n      code: "USER_BLOCKED",\n    });\n',
    "",
  ),
  E(
    "ah-refresh-client-mismatch",
    AH,
    AHR,
    "token",
    "  } else if (refreshToken.client_id !== client.client_id) {\n",
    "  } else if (!refreshToken.client_id) {\n",
  ),
  E(
    "ah-scim-token-connection-unbound",
    AH,
    "packages/authhero/src/middlewares/scim-auth.ts",
    "authz",
    "  if (!token || token.connection_id !== connection_id) {\n",
    "  if (!token) {\n",
  ),
  E(
    "ah-scim-scope-not-enforced",
    AH,
    "packages/authhero/src/middlewares/scim-auth.ts",
    "authz",
    '  if (token.scopes.length > 0 && !token.scopes.includes(scope)) {\n    throw new ScimError(403, `SCIM token is missing the "${scope}" scope`);\n  }\n',
    '  if (token.scopes.length > 0 && !token.scopes.includes(scope)) {\n    console.warn(`SCIM token is missing the "${scope}" scope`);\n  }\n',
  ),
  E(
    "ah-auth-cookie-insecure",
    AH,
    "packages/authhero/src/utils/cookies.ts",
    "secure-default",
    '  const insecure = isInsecureDevHost(hostname);\n  const baseOptions = {\n    path: "/",\n    httpOnly: true,\n    secure: !insecure,\n    sameSite: (insecure ? "lax" : "none") as "lax" | "none",\n',
    '  const insecure = isInsecureDevHost(hostname);\n  const baseOptions = {\n    path: "/",\n    httpOnly: false,\n    secure: false,\n    sameSite: (insecure ? "lax" : "none") as "lax" | "none",\n',
  ),
  E(
    "ah-dev-host-any",
    AH,
    "packages/authhero/src/utils/cookies.ts",
    "secure-default",
    "function isInsecureDevHost(host: string | undefined): boolean {\n  if (!host) return false;\n",
    "function isInsecureDevHost(host: string | undefined): boolean {\n  if (!host || host) return true;\n",
  ),
  E(
    "ah-totp-wide-window",
    AH,
    "packages/authhero/src/utils/totp.ts",
    "credential",
    "  for (const step of [0, -1, 1]) {\n",
    "  for (let step = -1000; step <= 1000; step++) {\n",
  ),
  // ---- more authorization edits
  E(
    "ah-admin-org-any-audience",
    AH,
    AHS,
    "authz",
    '  const hasDirect = globalUserPermissions.some(\n    (permission) =>\n      permission.permission_name === "admin:organizations" &&\n      permission.resource_server_identifier === MANAGEMENT_API_AUDIENCE,\n  );\n',
    '  const hasDirect = globalUserPermissions.some(\n    (permission) => permission.permission_name === "admin:organizations",\n  );\n',
  ),
  E(
    "ah-client-scope-grant-unchecked",
    AH,
    AHS,
    "authz",
    '    if (unauthorizedScopes.length > 0) {\n      throw new JSONHTTPException(403, {\n        error: "access_denied",\n        error_description: `Client is not authorized for scope(s): ${unauthorizedScopes.join(", ")}`,\n      });\n    }\n',
    "",
  ),
  E(
    "ah-requested-scopes-not-intersected",
    AH,
    AHS,
    "authz",
    "  const allGrantedScopes = grantedScopes.filter((scope) =>\n    definedScopes.includes(scope),\n  );\n",
    "  const allGrantedScopes = [...grantedScopes, ...nonOidcRequestedScopes];\n",
  ),
  E(
    "cu-path-authz-prefix",
    CU,
    "src/custodia/httpd/authorizers.py",
    "authz",
    "            if authz == path:\n",
    "            if path.startswith(authz):\n",
  ),
  E(
    "cu-namespace-outside-path-allowed",
    CU,
    "src/custodia/httpd/authorizers.py",
    "authz",
    "        if not path.startswith(self.path):\n            self.logger.debug('%s is not contained in %s', path, self.path)\n            return None\n",
    "        if not path.startswith(self.path):\n            self.logger.debug('%s is not contained in %s', path, self.path)\n            return True\n",
  ),
  E(
    "pma-no-authorization-policy",
    PMA,
    PMAI,
    "authz",
    "    authz_policy = ACLAuthorizationPolicy()\n    config.set_authorization_policy(authz_policy)\n",
    "",
  ),
];

/** Real security fixes of batch 154's projects, reversed (split `history154`). */
export const REVERSED_FIXES_HISTORY154: ReversedFix[] = [
  {
    id: "ah-org-scoped-role-leak",
    repo: AH,
    commit: "3ad0b798",
    path: "packages/multi-tenancy/src/hooks/provisioning.ts",
    cls: "authz",
    note: "close org-scoped role leak and tighten provisioning audience check",
    split: "history154",
  },
  {
    id: "ah-admin-orgs-bypass-audience",
    repo: AH,
    commit: "8a7b5f1f",
    path: AHR,
    cls: "authz",
    note: "match admin:organizations bypass against Management API audience (#1090)",
    split: "history154",
  },
  {
    id: "ah-trusted-issuer-tenant-bound",
    repo: AH,
    commit: "9b30ea36",
    path: "packages/authhero/src/routes/proxy-control-plane/verify.ts",
    cls: "token",
    note: "bind isTrustedIssuer to the tenant_id claim (#1143)",
    split: "history154",
  },
  {
    id: "ah-trusted-issuer-fail-closed",
    repo: AH,
    commit: "8b1f4884",
    path: "packages/authhero/src/routes/proxy-control-plane/verify.ts",
    cls: "token",
    note: "fail closed when isTrustedIssuer accepts a malformed issuer URL",
    split: "history154",
  },
  {
    id: "ah-security-review-code-grant",
    repo: AH,
    commit: "1fb1bd1f",
    path: "packages/authhero/src/authentication-flows/authorization-code.ts",
    cls: "token",
    note: "fix security review issues (authorization code grant)",
    split: "history154",
  },
  {
    id: "ah-security-review-auth-middleware",
    repo: AH,
    commit: "1fb1bd1f",
    path: AHM,
    cls: "authz",
    note: "fix security review issues (management API auth middleware)",
    split: "history154",
  },
  {
    id: "ah-custom-domains-token-tenant",
    repo: AH,
    commit: "4527f23a",
    path: "packages/authhero/src/routes/proxy-control-plane/custom-domains.ts",
    cls: "authz",
    note: "bind control-plane custom-domain operations to the token's tenant",
    split: "history154",
  },
  {
    id: "ah-logout-cross-client-revoke",
    repo: AH,
    commit: "8103847b",
    path: "packages/authhero/src/routes/auth-api/logout.ts",
    cls: "authz",
    note: "stop front-channel logout from revoking refresh tokens across clients",
    split: "history154",
  },
];
