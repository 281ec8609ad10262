/**
 * Seventy-second held-out batch of the guard-removal corpus: removals written by reading the
 * security code of projects not otherwise used by the corpus (bottle-cork, falcon-auth,
 * django-python3-ldap, fastapi-azure-auth, flask-ldap3-login, fastapi-cloudauth,
 * hapi-auth-bearer-token, node-http-signature, ldapauth-fork, express-jwt-authz, express-gateway),
 * chosen the way a careless refactor or an attacker would weaken them, before any measurement.
 * Reversed fixes were picked by commit message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const CK = "FedericoCeratto/bottle-cork";
const CKP = "cork/cork.py";
const FA = "loanzen/falcon-auth";
const FAB = "falcon_auth/backends.py";
const DPL = "etianen/django-python3-ldap";
const DPLL = "django_python3_ldap/ldap.py";
const AZ = "Intility/fastapi-azure-auth";
const AZA = "fastapi_azure_auth/auth.py";
const FL = "nickw444/flask-ldap3-login";
const FLI = "flask_ldap3_login/__init__.py";
const CA = "tokusumi/fastapi-cloudauth";
const CAV = "fastapi_cloudauth/verification.py";
const HB = "johnbrett/hapi-auth-bearer-token";
const HBI = "lib/index.js";
const HS = "TritonDataCenter/node-http-signature";
const HSP = "lib/parser.js";
const HSV = "lib/verify.js";
const LA = "vesse/node-ldapauth-fork";
const LAL = "lib/ldapauth.js";
const JA = "auth0/express-jwt-authz";
const JAI = "lib/index.js";
const EG = "ExpressGateway/express-gateway";
const EGA = "lib/services/auth.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout72");

/** The seventy-second held-out batch of edits (split `heldout72`). */
export const EDITS_HELDOUT72: GuardEdit[] = [
  // ---- bottle-cork (Python)
  E(
    "ck-login-hash-not-verified",
    CK,
    CKP,
    "credential",
    "            authenticated = self._verify_password(username, password, salted_hash)\n",
    "            authenticated = bool(salted_hash)\n",
  ),
  E(
    "ck-require-role-level",
    CK,
    CKP,
    "authz",
    '            if current_lvl >= threshold_lvl:\n                return\n\n            if fail_redirect is None:\n                raise AuthException("Unauthorized access: ")\n\n            self._redirect(fail_redirect)\n',
    "            if current_lvl >= threshold_lvl:\n                return\n\n            if fail_redirect is not None:\n                self._redirect(fail_redirect)\n",
  ),
  E(
    "ck-current-user-anonymous",
    CK,
    CKP,
    "authn-branch",
    '        username = session.get("username", None)\n        if username is None:\n            raise AuthException("Unauthenticated user")\n        if username is not None and username in self._store.users:\n',
    '        username = session.get("username", None)\n        if username is not None and username in self._store.users:\n',
  ),
  E(
    "ck-reset-code-expiry",
    CK,
    CKP,
    "token",
    '        if time() - tstamp > self.password_reset_timeout:\n            raise AuthException("Expired reset code.")\n',
    '        # if time() - tstamp > self.password_reset_timeout:\n        #     raise AuthException("Expired reset code.")\n',
  ),
  E(
    "ck-create-role-admin-only",
    CK,
    CKP,
    "authz",
    '        if self.current_user.level < 100:\n            raise AuthException("The current user is not authorized to ")\n        if role in self._store.roles:\n',
    "        if role in self._store.roles:\n",
  ),
  E(
    "ck-register-max-level",
    CK,
    CKP,
    "authz",
    '        if self._store.roles[role] > max_level:\n            raise AAAException("Unauthorized role")\n',
    "",
  ),
  E(
    "ck-decorator-require-dropped",
    CK,
    CKP,
    "authz",
    "                def wrapper(*a, **ka):\n                    session_manager.require(\n                        username=username,\n                        role=role,\n                        fixed_role=fixed_role,\n                        fail_redirect=fail_redirect,\n                    )\n                    return func(*a, **ka)\n",
    "                def wrapper(*a, **ka):\n                    return func(*a, **ka)\n",
  ),
  // ---- falcon-auth (Python)
  E(
    "fa-jwt-exp-not-verified",
    FA,
    FAB,
    "token",
    "        self.verify_claims = verify_claims or ['signature', 'exp', 'nbf', 'iat']\n",
    "        self.verify_claims = verify_claims or ['signature', 'nbf', 'iat']\n",
  ),
  E(
    "fa-jwt-signature-option-off",
    FA,
    FAB,
    "token",
    "        options = dict(('verify_' + claim, True) for claim in self.verify_claims)\n",
    "        options = dict(('verify_' + claim, claim != 'signature') for claim in self.verify_claims)\n",
  ),
  E(
    "fa-jwt-unknown-user",
    FA,
    FAB,
    "authn-branch",
    "        user = self.user_loader(payload)\n        if not user:\n            raise falcon.HTTPUnauthorized(\n                description='Invalid JWT Credentials')\n",
    "        user = self.user_loader(payload)\n",
  ),
  E(
    "fa-exempt-safe-methods",
    FA,
    "falcon_auth/middleware.py",
    "secure-default",
    "        self.exempt_methods = exempt_methods or ['OPTIONS']\n",
    "        self.exempt_methods = exempt_methods or ['OPTIONS', 'GET', 'HEAD']\n",
  ),
  E(
    "fa-hawk-scheme-unchecked",
    FA,
    FAB,
    "authn-branch",
    "        if auth_header_prefix.lower() != self.auth_header_prefix.lower():\n            raise falcon.HTTPUnauthorized(\n                description='Invalid Authorization Header: '\n                            'Must start with {0}'.format(self.auth_header_prefix))\n\n        return auth_header\n",
    "        return auth_header\n",
  ),
  // ---- django-python3-ldap (Python)
  E(
    "dpl-empty-password-allowed",
    DPL,
    DPLL,
    "credential",
    "    if not password or frozenset(ldap_kwargs.keys()) != auth_user_lookup_fields:\n",
    "    if frozenset(ldap_kwargs.keys()) != auth_user_lookup_fields:\n",
  ),
  E(
    "dpl-bind-failure-yields-connection",
    DPL,
    DPLL,
    "authn-branch",
    '        logger.warning("LDAP bind failed: {ex}".format(ex=ex))\n        yield None\n',
    '        logger.warning("LDAP bind failed: {ex}".format(ex=ex))\n        yield Connection(c)\n',
  ),
  E(
    "dpl-start-tls-skipped",
    DPL,
    DPLL,
    "secure-default",
    "        # Start TLS, if requested.\n        if settings.LDAP_AUTH_USE_TLS:\n            c.start_tls(read_server_info=False)\n",
    "",
  ),
  // ---- fastapi-azure-auth (Python)
  E(
    "az-guest-with-roles",
    AZ,
    AZA,
    "authz",
    "            if not self.allow_guest_users and user_is_guest:\n",
    "            if not self.allow_guest_users and user_is_guest and not claims.get('roles'):\n",
  ),
  E(
    "az-scope-missing-logged",
    AZ,
    AZA,
    "authz",
    "                if scope not in token_scopes:\n                    raise InvalidAuth('Required scope missing', request=request)\n",
    "                if scope not in token_scopes:\n                    log.debug('Scope %s missing from token', scope)\n",
  ),
  E(
    "az-aud-not-verified",
    AZ,
    AZA,
    "token",
    "                        'verify_aud': True,\n",
    "                        'verify_aud': False,\n",
  ),
  E(
    "az-exp-not-required",
    AZ,
    AZA,
    "token",
    "                    required_claims = ['exp', 'aud', 'iat', 'nbf', 'sub']\n",
    "                    required_claims = ['aud', 'sub']\n",
  ),
  E(
    "az-hs256-accepted",
    AZ,
    AZA,
    "token",
    "                algorithms=[alg],\n",
    "                algorithms=[alg, 'HS256'],\n",
  ),
  E(
    "az-validate-iss-default-off",
    AZ,
    AZA,
    "secure-default",
    "        multi_tenant: bool = False,\n        leeway: int = 0,\n        validate_iss: bool = True,\n",
    "        multi_tenant: bool = False,\n        leeway: int = 0,\n        validate_iss: bool = False,\n",
  ),
  // ---- flask-ldap3-login (Python)
  E(
    "fl-search-bind-no-user-bind",
    FL,
    FLI,
    "credential",
    "                try:\n                    user_connection.bind()\n                    log.debug(\n",
    "                try:\n                    log.debug(\n",
  ),
  E(
    "fl-form-trusted-users",
    FL,
    "flask_ldap3_login/forms.py",
    "authn-branch",
    "        if result.status == AuthenticationResponseStatus.success:\n",
    '        if result.status == AuthenticationResponseStatus.success or username in current_app.config.get(\n            "LDAP_TRUSTED_USERS", ()\n        ):\n',
  ),
  E(
    "fl-direct-credentials-error-success",
    FL,
    FLI,
    "authn-branch",
    "        except Exception as e:\n            log.error(e)\n            response.status = AuthenticationResponseStatus.fail\n            response.exception = e\n\n        self.destroy_connection(connection)\n        return response\n\n    def authenticate_direct_bind(",
    "        except Exception as e:\n            log.error(e)\n            response.status = AuthenticationResponseStatus.success\n            response.exception = e\n\n        self.destroy_connection(connection)\n        return response\n\n    def authenticate_direct_bind(",
  ),
  // ---- fastapi-cloudauth (Python)
  E(
    "ca-signature-result-ignored",
    CA,
    CAV,
    "token",
    "        is_verified: bool = public_key.verify(message.encode(), decoded_sig)\n        if not is_verified:\n            if self.auto_error:\n                raise HTTPException(\n                    status_code=status.HTTP_401_UNAUTHORIZED, detail=NOT_VERIFIED\n                )\n            return False\n",
    "        is_verified: bool = public_key.verify(message.encode(), decoded_sig)\n",
  ),
  E(
    "ca-expired-accepted",
    CA,
    CAV,
    "token",
    "        except jwt.ExpiredSignatureError as e:\n            if self.auto_error:\n                raise HTTPException(\n                    status_code=status.HTTP_401_UNAUTHORIZED, detail=NOT_VERIFIED\n                ) from e\n            return False\n",
    "        except jwt.ExpiredSignatureError:\n            is_verified = True\n",
  ),
  E(
    "ca-all-scopes-any",
    CA,
    CAV,
    "authz",
    "                matched = self.scope_name.issubset(scopes)\n",
    "                matched = len(self.scope_name & scopes) > 0\n",
  ),
  E(
    "ca-scope-not-checked",
    CA,
    CAV,
    "authz",
    "        if self.scope_name:\n            is_verified_scope = self._verify_scope(http_auth)\n            return is_verified_scope\n",
    "",
  ),
  E(
    "ca-auth0-nonce-optional",
    CA,
    "fastapi_cloudauth/auth0.py",
    "token",
    "            if nonce != self._nonce:\n",
    "            if self._nonce is not None and nonce and nonce != self._nonce:\n",
  ),
  E(
    "ca-base-verify-result-ignored",
    CA,
    "fastapi_cloudauth/base.py",
    "authn-branch",
    "        is_verified = await self.verifier.verify_token(http_auth)\n        if not is_verified:\n            return None\n\n        return await self.call(http_auth)\n",
    "        await self.verifier.verify_token(http_auth)\n\n        return await self.call(http_auth)\n",
  ),
  // ---- hapi-auth-bearer-token (JS)
  E(
    "hb-query-token-default",
    HB,
    HBI,
    "secure-default",
    "    allowQueryToken: false,\n",
    "    allowQueryToken: true,\n",
  ),
  E(
    "hb-undefined-isvalid-passes",
    HB,
    HBI,
    "authn-branch",
    "            if (!isValid) {\n",
    "            if (isValid === false) {\n",
  ),
  E(
    "hb-token-type-unchecked",
    HB,
    HBI,
    "authn-branch",
    "            if (!token\n                || tokenType.toLowerCase() !== settings.tokenType.toLowerCase()) {\n",
    "            if (!token) {\n",
  ),
  E(
    "hb-missing-header-anonymous",
    HB,
    HBI,
    "authn-branch",
    "            if (!authorization) {\n                return settings.unauthorized(null, settings.tokenType);\n            }\n",
    "            if (!authorization) {\n                return h.authenticated({ credentials: {} });\n            }\n",
  ),
  // ---- node-http-signature (JS)
  E(
    "hs-key-type-mismatch-allowed",
    HS,
    HSV,
    "credential",
    "    if (alg[0] === 'hmac' || alg[0] !== pubkey.type)\n      return (false);\n\n",
    "",
  ),
  E(
    "hs-hmac-length-only",
    HS,
    HSV,
    "credential",
    "    return (h1.equals(h2));\n",
    "    return (h1.length === h2.length);\n",
  ),
  E(
    "hs-clock-skew-default-wide",
    HS,
    HSP,
    "secure-default",
    "    options.clockSkew = options.clockSkew || 300;\n",
    "    options.clockSkew = options.clockSkew || 300 * 1000;\n",
  ),
  E(
    "hs-expires-not-checked",
    HS,
    HSP,
    "token",
    "    if (parsed.params.expires) {\n      var expiredSince = Math.floor(Date.now() / 1000) - parsed.params.expires;\n      if (expiredSince > options.clockSkew) {\n        throw new ExpiredRequestError('Request expired with skew ' +\n          expiredSince + 's greater than allowed ' + options.clockSkew + 's');\n      }\n    }\n\n",
    "",
  ),
  E(
    "hs-required-headers-unsigned",
    HS,
    HSP,
    "token",
    "      if (parsed.params.headers.indexOf(hdr.toLowerCase()) < 0)\n        throw new MissingHeaderError(hdr + ' was not a signed header');\n",
    "      if (parsed.params.headers.indexOf(hdr.toLowerCase()) < 0)\n        return;\n",
  ),
  E(
    "hs-algorithm-allowlist-commented",
    HS,
    HSP,
    "token",
    "    if (options.algorithms) {\n      if (options.algorithms.indexOf(parsed.params.algorithm) === -1)\n        throw new InvalidParamsError(parsed.params.algorithm +\n          ' is not a supported algorithm');\n    }\n",
    "    // if (options.algorithms) {\n    //   if (options.algorithms.indexOf(parsed.params.algorithm) === -1)\n    //     throw new InvalidParamsError(parsed.params.algorithm +\n    //       ' is not a supported algorithm');\n    // }\n",
  ),
  // ---- ldapauth-fork (JS)
  E(
    "la-empty-password-bind",
    LA,
    LAL,
    "credential",
    "  if (typeof password === 'undefined' || password === null || password === '') {\n",
    "  if (typeof password === 'undefined' || password === null) {\n",
  ),
  E(
    "la-cache-hit-no-compare",
    LA,
    LAL,
    "credential",
    "    if (cached && bcrypt.compareSync(password, cached.password)) {\n",
    "    if (cached) {\n",
  ),
  E(
    "la-bind-error-logged-only",
    LA,
    LAL,
    "authn-branch",
    "        self.log && self.log.trace('ldap authenticate: bind error: %s', bindErr);\n        return callback(bindErr);\n",
    "        self.log && self.log.trace('ldap authenticate: bind error: %s', bindErr);\n",
  ),
  E(
    "la-tls-unverified",
    LA,
    LAL,
    "secure-default",
    "    tlsOptions: opts.tlsOptions,\n",
    "    tlsOptions: Object.assign({ rejectUnauthorized: false }, opts.tlsOptions),\n",
  ),
  // ---- express-jwt-authz (JS)
  E(
    "ja-no-user-next",
    JA,
    JAI,
    "authn-branch",
    "    if (!req[userKey]) {\n      return error(res);\n    }\n",
    "    if (!req[userKey]) {\n      return next();\n    }\n",
  ),
  E(
    "ja-check-all-some",
    JA,
    JAI,
    "authz",
    "      allowed = expectedScopes.every(scope => userScopes.includes(scope));\n",
    "      allowed = expectedScopes.some(scope => userScopes.includes(scope));\n",
  ),
  E(
    "ja-any-scope-allowed",
    JA,
    JAI,
    "authz",
    "    return allowed ? next() : error(res);\n",
    "    return allowed || userScopes.length ? next() : error(res);\n",
  ),
  // ---- express-gateway (JS)
  E(
    "eg-key-secret-not-compared",
    EG,
    EGA,
    "credential",
    "        if (!credential || !credential.isActive || credential.keySecret !== password) {\n",
    "        if (!credential || !credential.isActive) {\n",
  ),
  E(
    "eg-hash-result-dropped",
    EG,
    EGA,
    "credential",
    "      const [consumer, authenticated] = credentialResult;\n\n      if (!authenticated) {\n        return false;\n      }\n\n      return consumer;\n",
    "      const [consumer] = credentialResult;\n      return consumer;\n",
  ),
  E(
    "eg-empty-password",
    EG,
    EGA,
    "credential",
    "  if (!id || !password || !type) {\n",
    "  if (!id || !type) {\n",
  ),
  E(
    "eg-token-password-unchecked",
    EG,
    EGA,
    "token",
    "      } else return tokenObj.tokenDecrypted === tokenPassword ? { token: tokenObj, consumer } : false;\n",
    "      } else return { token: tokenObj, consumer };\n",
  ),
  E(
    "eg-token-scopes-some",
    EG,
    EGA,
    "authz",
    "      return scopes.every(scope => token.scopes.indexOf(scope) !== -1);\n",
    "      return scopes.some(scope => token.scopes.indexOf(scope) !== -1);\n",
  ),
  E(
    "eg-credential-without-scopes",
    EG,
    EGA,
    "authz",
    "        if (!credential.scopes) {\n          return false;\n        }\n",
    "        if (!credential.scopes) {\n          return true;\n        }\n",
  ),
  E(
    "eg-token-consumer-inactive",
    EG,
    EGA,
    "authn-branch",
    "      if (!consumer || !consumer.isActive) {\n        return false;\n      } else return",
    "      if (!consumer) {\n        return false;\n      } else return",
  ),
  E(
    "eg-keyauth-scopes-unenforced",
    EG,
    "lib/policies/key-auth/key-auth.js",
    "authz",
    "          if (!authorized) {\n            return done(null, false, { unauthorized: true });\n          }\n",
    "",
  ),
  E(
    "eg-basic-scopes-unenforced",
    EG,
    "lib/policies/basic-auth/registerStrategy.js",
    "authz",
    "            if (!authorized) {\n              return done(null, false);\n            }\n\n",
    "",
  ),
  E(
    "eg-jwt-inactive-credential",
    EG,
    "lib/policies/jwt/jwt.js",
    "authn-branch",
    "        if (!credential || !credential.isActive) {\n          throw new Error('CREDENTIAL_NOT_FOUND');\n",
    "        if (!credential) {\n          throw new Error('CREDENTIAL_NOT_FOUND');\n",
  ),
  E(
    "eg-jwt-ignore-expiration",
    EG,
    "lib/policies/jwt/jwt.js",
    "token",
    "    algorithms: params.algorithms\n",
    "    algorithms: params.algorithms,\n    ignoreExpiration: true\n",
  ),
  E(
    "eg-jwt-credential-check-default",
    EG,
    "lib/policies/jwt/index.js",
    "secure-default",
    "        default: true,\n        description: 'Value istructing the gateway whether verify the sub against the internal SOC'\n",
    "        default: false,\n        description: 'Value istructing the gateway whether verify the sub against the internal SOC'\n",
  ),
  E(
    "eg-introspect-active-not-false",
    EG,
    "lib/policies/oauth2-introspect/token-introspector.js",
    "token",
    "        if (res.body.active === true) {\n",
    "        if (res.body.active !== false) {\n",
  ),
  E(
    "eg-proxy-tls-verify-off",
    EG,
    "lib/policies/proxy/index.js",
    "secure-default",
    "      secure: {\n        type: 'boolean',\n        default: true,\n",
    "      secure: {\n        type: 'boolean',\n        default: false,\n",
  ),
];

/** Reversed real security fixes of the seventy-second batch (split `history72`), chosen by message only. */
export const REVERSED_FIXES_HISTORY72: ReversedFix[] = [
  {
    id: "dpl-empty-password-anonymous-bind",
    repo: DPL,
    commit: "17a94be",
    path: DPLL,
    cls: "credential",
    note:
      "fix for security issue: valid username with an empty password authenticated via anonymous bind",
    split: "history72",
  },
  {
    id: "dpl-plaintext-before-starttls",
    repo: DPL,
    commit: "a250194",
    path: DPLL,
    cls: "secure-default",
    note: "fix security vulnerability: credentials could be sent in plain text before starting TLS",
    split: "history72",
  },
  {
    id: "az-no-signing-keys-skip",
    repo: AZ,
    commit: "5639da3",
    path: "intility_auth_fastapi/auth.py",
    cls: "token",
    note: "fix bug where no signing keys would skip token validation",
    split: "history72",
  },
  {
    id: "az-evil-token-kid",
    repo: AZ,
    commit: "97a4908",
    path: AZA,
    cls: "token",
    note: "choose the validation key by kid; test for an evil token with the correct kid",
    split: "history72",
  },
  {
    id: "az-default-deny-guests",
    repo: AZ,
    commit: "194bbce",
    path: AZA,
    cls: "authz",
    note: "default deny to guest users in single- and multi-tenant applications",
    split: "history72",
  },
  {
    id: "hs-verify-timing-leak",
    repo: HS,
    commit: "78ab1da",
    path: HSV,
    cls: "credential",
    note: "ensure verifySignature does not leak useful timing information",
    split: "history72",
  },
  {
    id: "eg-auth-code-expiry-checked",
    repo: EG,
    commit: "4cb42ce",
    path: "lib/services/authorization-codes/authorization-code.service.js",
    cls: "token",
    note: "authorization code expireDate is now set and checked",
    split: "history72",
  },
  {
    id: "la-sanitize-user-input",
    repo: LA,
    commit: "3feea43",
    path: LAL,
    cls: "authn-branch",
    note: "sanitize user input in the LDAP search filter",
    split: "history72",
  },
];
