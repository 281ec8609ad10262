/**
 * The guard-removal corpus, as edits of real files: each entry names a repository and a file,
 * an exact snippet of the file at the pinned commit, and what the snippet becomes. The builder
 * (`scripts/corpus_guards_build.ts`) cuts an excerpt of the real file around the snippet and
 * stores before/after excerpts in `tests/inspect/corpus/guards.jsonl`.
 *
 * `split`: `dev` cases were used while developing the structural rules; `heldout` cases (whole
 * repositories: fastapi, werkzeug, itsdangerous, csurf, jose, echo) were written before any rule
 * change for them and are reported separately.
 *
 * @module
 */
import { EDITS_HELDOUT7, REVERSED_FIXES_HISTORY7 } from "./corpus_guards_spec_heldout7.ts";

/** One guard-removal edit of a real file. */
export interface GuardEdit {
  id: string;
  repo: string;
  path: string;
  find: string;
  replace: string;
  split: "dev" | "heldout" | "heldout2" | "heldout3" | "heldout7";
  /** The class of removal (issue taxonomy). */
  cls: "credential" | "authz" | "authn-branch" | "token" | "secure-default";
}

const D = "dev" as const;
const H = "heldout" as const;
const H3 = "heldout3" as const;
const DRF = "encode/django-rest-framework";

export const EDITS: GuardEdit[] = [
  // ---- Django REST framework
  {
    id: "drf-initial-check-permissions",
    repo: DRF,
    path: "rest_framework/views.py",
    cls: "authz",
    split: D,
    find: "        self.perform_authentication(request)\n        self.check_permissions(request)\n",
    replace: "        self.perform_authentication(request)\n",
  },
  {
    id: "drf-initial-perform-authentication",
    repo: DRF,
    path: "rest_framework/views.py",
    cls: "authz",
    split: D,
    find: "        self.perform_authentication(request)\n        self.check_permissions(request)\n",
    replace: "        self.check_permissions(request)\n",
  },
  {
    id: "drf-check-permissions-loop",
    repo: DRF,
    path: "rest_framework/views.py",
    cls: "authz",
    split: D,
    find:
      "            if not permission.has_permission(request, self):\n                self.permission_denied(",
    replace: "            if False:\n                self.permission_denied(",
  },
  {
    id: "drf-get-object-object-permissions",
    repo: DRF,
    path: "rest_framework/generics.py",
    cls: "authz",
    split: D,
    find:
      "        # May raise a permission denied\n        self.check_object_permissions(self.request, obj)\n",
    replace: "",
  },
  {
    id: "drf-basic-user-none",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if user is None:\n            raise exceptions.AuthenticationFailed(_('Invalid username/password.'))\n\n",
    replace: "",
  },
  {
    id: "drf-basic-inactive",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if not user.is_active:\n            raise exceptions.AuthenticationFailed(_('User inactive or deleted.'))\n\n        return (user, None)",
    replace: "        return (user, None)",
  },
  {
    id: "drf-session-enforce-csrf",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authz",
    split: D,
    find: "        self.enforce_csrf(request)\n",
    replace: "",
  },
  {
    id: "drf-token-inactive",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if not token.user.is_active:\n            raise exceptions.AuthenticationFailed(_('User inactive or deleted.'))\n",
    replace: "",
  },
  {
    id: "drf-isadmin-return-true",
    repo: DRF,
    path: "rest_framework/permissions.py",
    cls: "credential",
    split: D,
    find: "        return bool(request.user and request.user.is_staff)",
    replace: "        return True",
  },
  {
    id: "drf-isauthenticated-return-true",
    repo: DRF,
    path: "rest_framework/permissions.py",
    cls: "credential",
    split: D,
    find:
      "    def has_permission(self, request, view):\n        return bool(request.user and request.user.is_authenticated)",
    replace: "    def has_permission(self, request, view):\n        return True",
  },
  {
    id: "drf-session-inactive-dropped",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find: "        if not user or not user.is_active:\n            return None\n",
    replace: "        if not user:\n            return None\n",
  },
  // ---- PyJWT
  {
    id: "pyjwt-validate-exp",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '        if "exp" in payload and options["verify_exp"]:\n            self._validate_exp(payload, now, leeway)\n\n',
    replace: "",
  },
  {
    id: "pyjwt-validate-iss",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find: '        if options["verify_iss"]:\n            self._validate_iss(payload, issuer)\n\n',
    replace: "",
  },
  {
    id: "pyjwt-validate-aud",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '        if options["verify_aud"]:\n            self._validate_aud(\n                payload, audience, strict=options.get("strict_aud", False)\n            )\n\n',
    replace: "",
  },
  {
    id: "pyjwt-exp-compare",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '        if exp <= (now - leeway):\n            raise ExpiredSignatureError("Signature has expired")\n',
    replace: "",
  },
  {
    id: "pyjwt-iss-compare",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '            if iss != issuer:\n                raise InvalidIssuerError("Invalid issuer")\n',
    replace: "            pass\n",
  },
  {
    id: "pyjwt-alg-allowlist",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "token",
    split: D,
    find:
      '        if not alg or (algorithms is not None and alg not in algorithms):\n            raise InvalidAlgorithmError("The specified alg value is not allowed")\n',
    replace: "",
  },
  {
    id: "pyjwt-signature-branch",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "token",
    split: D,
    find:
      '        if not alg_obj.verify(signing_input, prepared_key, signature):\n            raise InvalidSignatureError("Signature verification failed")\n',
    replace: "",
  },
  {
    id: "pyjwt-verify-signature-default",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "secure-default",
    split: D,
    find: '        return {"verify_signature": True, "enforce_minimum_key_length": False}',
    replace: '        return {"verify_signature": False, "enforce_minimum_key_length": False}',
  },
  {
    id: "pyjwt-decode-verify-call",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "token",
    split: D,
    find:
      "        if verify_signature:\n            self._verify_signature(signing_input, header, signature, key, algorithms)\n",
    replace: "",
  },
  // ---- requests / httpx / urllib3
  {
    id: "requests-strip-auth-redirect",
    repo: "psf/requests",
    path: "src/requests/sessions.py",
    cls: "secure-default",
    split: D,
    find: '            # authentication headers.\n            del headers["Authorization"]\n',
    replace: "            # authentication headers.\n            pass\n",
  },
  {
    id: "requests-should-strip-return-false",
    repo: "psf/requests",
    path: "src/requests/sessions.py",
    cls: "secure-default",
    split: D,
    find: "        if old_parsed.hostname != new_parsed.hostname:\n            return True\n",
    replace: "",
  },
  {
    id: "requests-session-verify-default",
    repo: "psf/requests",
    path: "src/requests/sessions.py",
    cls: "secure-default",
    split: D,
    find: "        self.verify = True\n",
    replace: "        self.verify = False\n",
  },
  {
    id: "httpx-strip-auth-redirect",
    repo: "encode/httpx",
    path: "httpx/_client.py",
    cls: "secure-default",
    split: D,
    find: '                headers.pop("Authorization", None)\n',
    replace: "                pass\n",
  },
  {
    id: "httpx-request-verify-default",
    repo: "encode/httpx",
    path: "httpx/_api.py",
    cls: "secure-default",
    split: D,
    find:
      '    follow_redirects: bool = False,\n    verify: ssl.SSLContext | str | bool = True,\n    trust_env: bool = True,\n) -> Response:\n    """\n    Sends an HTTP request.',
    replace:
      '    follow_redirects: bool = False,\n    verify: ssl.SSLContext | str | bool = False,\n    trust_env: bool = True,\n) -> Response:\n    """\n    Sends an HTTP request.',
  },
  {
    id: "urllib3-fingerprint-compare",
    repo: "urllib3/urllib3",
    path: "src/urllib3/util/ssl_.py",
    cls: "secure-default",
    split: D,
    find:
      '    if not hmac.compare_digest(cert_digest, fingerprint_bytes):\n        raise SSLError(\n            f\'Fingerprints did not match. Expected "{fingerprint}", got "{cert_digest.hex()}"\'\n        )\n',
    replace: "",
  },
  {
    id: "urllib3-cert-required-default",
    repo: "urllib3/urllib3",
    path: "src/urllib3/util/ssl_.py",
    cls: "secure-default",
    split: D,
    find: "    if candidate is None:\n        return CERT_REQUIRED\n",
    replace: "    if candidate is None:\n        return CERT_NONE\n",
  },
  {
    id: "urllib3-context-cert-required",
    repo: "urllib3/urllib3",
    path: "src/urllib3/util/ssl_.py",
    cls: "secure-default",
    split: D,
    find: "    cert_reqs = ssl.CERT_REQUIRED if cert_reqs is None else cert_reqs",
    replace: "    cert_reqs = ssl.CERT_NONE if cert_reqs is None else cert_reqs",
  },
  // ---- flask-login
  {
    id: "flasklogin-login-required-branch",
    repo: "maxcountryman/flask-login",
    path: "src/flask_login/utils.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if request.method in EXEMPT_METHODS:\n            pass\n        elif not current_user.is_authenticated:\n            return current_app.login_manager.unauthorized()\n\n",
    replace: "",
  },
  {
    id: "flasklogin-fresh-branch",
    repo: "maxcountryman/flask-login",
    path: "src/flask_login/utils.py",
    cls: "authn-branch",
    split: D,
    find:
      "        elif not login_fresh():\n            return current_app.login_manager.needs_refresh()\n",
    replace: "",
  },
  // ---- express / passport / express-jwt / jsonwebtoken
  {
    id: "express-restrict-middleware",
    repo: "expressjs/express",
    path: "examples/auth/index.js",
    cls: "authz",
    split: D,
    find: "app.get('/restricted', restrict, function(req, res){",
    replace: "app.get('/restricted', function(req, res){",
  },
  {
    id: "express-restrict-body",
    repo: "expressjs/express",
    path: "examples/auth/index.js",
    cls: "authn-branch",
    split: D,
    find:
      "  if (req.session.user) {\n    next();\n  } else {\n    req.session.error = 'Access denied!';\n    res.redirect('/login');\n  }",
    replace: "  next();",
  },
  {
    id: "expressjwt-credentials-required-default",
    repo: "auth0/express-jwt",
    path: "src/index.ts",
    cls: "secure-default",
    split: D,
    find:
      "typeof options.credentialsRequired === 'undefined' ? true : options.credentialsRequired;",
    replace:
      "typeof options.credentialsRequired === 'undefined' ? false : options.credentialsRequired;",
  },
  {
    id: "expressjwt-revoked-branch",
    repo: "auth0/express-jwt",
    path: "src/index.ts",
    cls: "token",
    split: D,
    find:
      "      if (isRevoked) {\n        throw new UnauthorizedError('revoked_token', { message: 'The token has been revoked.' });\n      }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-alg-allowlist",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "    if (options.algorithms.indexOf(decodedToken.header.alg) === -1) {\n      return done(new JsonWebTokenError('invalid algorithm'));\n    }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-invalid-signature",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "    if (!valid) {\n      return done(new JsonWebTokenError('invalid signature'));\n    }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-exp",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "      if (clockTimestamp >= payload.exp + (options.clockTolerance || 0)) {\n        return done(new TokenExpiredError('jwt expired', new Date(payload.exp * 1000)));\n      }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-nbf",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "      if (payload.nbf > clockTimestamp + (options.clockTolerance || 0)) {\n        return done(new NotBeforeError('jwt not active', new Date(payload.nbf * 1000)));\n      }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-signature-required",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "    if (!hasSignature && secretOrPublicKey){\n      return done(new JsonWebTokenError('jwt signature is required'));\n    }\n",
    replace: "",
  },
  // ---- golang-jwt
  {
    id: "golangjwt-verify-exp",
    repo: "golang-jwt/jwt",
    path: "validator.go",
    cls: "token",
    split: D,
    find:
      "\tif err = v.verifyExpiresAt(claims, now, v.requireExp); err != nil {\n\t\terrs = append(errs, err)\n\t}\n",
    replace: "",
  },
  {
    id: "golangjwt-verify-aud",
    repo: "golang-jwt/jwt",
    path: "validator.go",
    cls: "token",
    split: D,
    find:
      "\t\tif err = v.verifyAudience(claims, v.expectedAud, v.expectAllAud); err != nil {\n\t\t\terrs = append(errs, err)\n\t\t}\n",
    replace: "",
  },
  {
    id: "golangjwt-verify-iss",
    repo: "golang-jwt/jwt",
    path: "validator.go",
    cls: "token",
    split: D,
    find:
      "\t\tif err = v.verifyIssuer(claims, v.expectedIss, true); err != nil {\n\t\t\terrs = append(errs, err)\n\t\t}\n",
    replace: "",
  },
  {
    id: "golangjwt-signing-method",
    repo: "golang-jwt/jwt",
    path: "parser.go",
    cls: "token",
    split: D,
    find:
      '\t\tif !signingMethodValid {\n\t\t\t// signing method is not in the listed set\n\t\t\treturn token, newError(fmt.Sprintf("signing method %v is invalid", alg), ErrTokenSignatureInvalid)\n\t\t}\n',
    replace: "",
  },
  {
    id: "golangjwt-signature-err",
    repo: "golang-jwt/jwt",
    path: "parser.go",
    cls: "token",
    split: D,
    find: '\tif err != nil {\n\t\treturn token, newError("", ErrTokenSignatureInvalid, err)\n\t}\n',
    replace: "",
  },
  {
    id: "golangjwt-hmac-equal",
    repo: "golang-jwt/jwt",
    path: "hmac.go",
    cls: "token",
    split: D,
    find: "\tif !hmac.Equal(sig, hasher.Sum(nil)) {\n\t\treturn ErrSignatureInvalid\n\t}\n",
    replace: "",
  },
  // ==== held-out (not looked at while developing the rules)
  {
    id: "fastapi-basic-missing-auth",
    repo: "fastapi/fastapi",
    path: "fastapi/security/http.py",
    cls: "authn-branch",
    split: H,
    find:
      '        if not authorization or scheme.lower() != "basic":\n            if self.auto_error:\n                raise self.make_not_authenticated_error()\n            else:\n                return None\n',
    replace: "",
  },
  {
    id: "fastapi-oauth2-missing-auth",
    repo: "fastapi/fastapi",
    path: "fastapi/security/oauth2.py",
    cls: "authn-branch",
    split: H,
    find:
      "        if not authorization:\n            if self.auto_error:\n                raise self.make_not_authenticated_error()\n            else:\n                return None\n        return authorization\n",
    replace: "        return authorization\n",
  },
  {
    id: "fastapi-api-key-missing",
    repo: "fastapi/fastapi",
    path: "fastapi/security/api_key.py",
    cls: "authn-branch",
    split: H,
    find:
      "        if not api_key:\n            if self.auto_error:\n                raise self.make_not_authenticated_error()\n            return None\n        return api_key\n",
    replace: "        return api_key\n",
  },
  {
    id: "werkzeug-check-password-hash",
    repo: "pallets/werkzeug",
    path: "src/werkzeug/security.py",
    cls: "credential",
    split: H,
    find: "    return hmac.compare_digest(_hash_internal(method, salt, password)[0], hashval)",
    replace: "    return True",
  },
  {
    id: "itsdangerous-unsign-verify",
    repo: "pallets/itsdangerous",
    path: "src/itsdangerous/signer.py",
    cls: "token",
    split: H,
    find:
      '        if self.verify_signature(value, sig):\n            return value\n\n        raise BadSignature(f"Signature {sig!r} does not match", payload=value)',
    replace: "        return value",
  },
  {
    id: "itsdangerous-verify-signature-true",
    repo: "pallets/itsdangerous",
    path: "src/itsdangerous/signer.py",
    cls: "credential",
    split: H,
    find: "        return hmac.compare_digest(sig, self.get_signature(key, value))",
    replace: "        return True",
  },
  {
    id: "itsdangerous-max-age",
    repo: "pallets/itsdangerous",
    path: "src/itsdangerous/timed.py",
    cls: "token",
    split: H,
    find:
      '            if age > max_age:\n                raise SignatureExpired(\n                    f"Signature age {age} > {max_age} seconds",\n                    payload=value,\n                    date_signed=self.timestamp_to_datetime(ts_int),\n                )\n\n',
    replace: "",
  },
  {
    id: "jose-iss-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "  if (\n    issuer !== undefined &&\n    !((Array.isArray(issuer) ? issuer : [issuer]) as unknown[]).includes(payload.iss!)\n  ) {\n    unexpectedClaim(payload, 'iss')\n  }\n",
    replace: "",
  },
  {
    id: "jose-aud-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "  if (\n    audience !== undefined &&\n    !checkAudiencePresence(payload.aud, typeof audience === 'string' ? [audience] : audience)\n  ) {\n    unexpectedClaim(payload, 'aud')\n  }\n",
    replace: "",
  },
  {
    id: "jose-nbf-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "    if (nbf > now + tolerance) {\n      throw new JWTClaimValidationFailed(\n        '\"nbf\" claim timestamp check failed',\n        payload,\n        'nbf',\n        checkFailed,\n      )\n    }\n",
    replace: "",
  },
  {
    id: "jose-exp-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "    if (exp <= now - tolerance) {\n      throw new JWTExpired('\"exp\" claim timestamp check failed', payload, 'exp', checkFailed)\n    }\n",
    replace: "",
  },
  {
    id: "jose-required-claims",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "    if (!Object.hasOwn(payload, claim)) {\n      throw new JWTClaimValidationFailed(\n        `missing required \"${claim}\" claim`,\n        payload,\n        claim,\n        'missing',\n      )\n    }\n",
    replace: "",
  },
  {
    id: "echo-keyauth-invalid",
    repo: "labstack/echo",
    path: "middleware/key_auth.go",
    cls: "authn-branch",
    split: H,
    find:
      "\t\t\t\t\tif !valid {\n\t\t\t\t\t\tlastValidatorErr = ErrInvalidKey\n\t\t\t\t\t\tcontinue\n\t\t\t\t\t}\n",
    replace: "",
  },
  {
    id: "echo-basic-unauthorized",
    repo: "labstack/echo",
    path: "middleware/basic_auth.go",
    cls: "authn-branch",
    split: H,
    find:
      '\t\t\tc.Response().Header().Set(echo.HeaderWWWAuthenticate, basic+" realm="+realm)\n\t\t\treturn echo.ErrUnauthorized\n',
    replace: "\t\t\treturn next(c)\n",
  },
  {
    id: "echo-csrf-constant-time",
    repo: "labstack/echo",
    path: "middleware/csrf.go",
    cls: "credential",
    split: H,
    find: "\treturn subtle.ConstantTimeCompare([]byte(token), []byte(clientToken)) == 1",
    replace: "\treturn true",
  },
  {
    id: "echo-csrf-validate-call",
    repo: "labstack/echo",
    path: "middleware/csrf.go",
    cls: "authz",
    split: H,
    find: "\t\t\t\t\t\tif validateCSRFToken(token, clientToken) {\n",
    replace: "\t\t\t\t\t\tif true {\n",
  },

  // ==== held-out, second batch (written after all rule changes; measured once)
  {
    id: "simplejwt-token-verify-call",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find: "            if verify:\n                self.verify()\n",
    replace: "",
  },
  {
    id: "simplejwt-check-exp-call",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find:
      "        # claim.  We don't want any zombie tokens walking around.\n        self.check_exp()\n",
    replace: "        # claim.  We don't want any zombie tokens walking around.\n",
  },
  {
    id: "simplejwt-exp-compare",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find:
      "        if claim_time <= current_time - leeway:\n            raise TokenError(format_lazy(_(\"Token '{}' claim has expired\"), claim))\n",
    replace: "",
  },
  {
    id: "simplejwt-token-type",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find:
      '        if self.token_type != token_type:\n            raise TokenError(_("Token has wrong type"))\n',
    replace: "",
  },
  {
    id: "simplejwt-user-inactive",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/authentication.py",
    cls: "authn-branch",
    split: "heldout2",
    find:
      '        if api_settings.CHECK_USER_IS_ACTIVE and not user.is_active:\n            raise AuthenticationFailed(_("User is inactive"), code="user_inactive")\n',
    replace: "",
  },
  {
    id: "simplejwt-revoked-password",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/authentication.py",
    cls: "authn-branch",
    split: "heldout2",
    find:
      '        if api_settings.CHECK_REVOKE_TOKEN:\n            if validated_token.get(\n                api_settings.REVOKE_TOKEN_CLAIM\n            ) != get_md5_hash_password(user.password):\n                raise AuthenticationFailed(\n                    self.default_error_messages["password_changed"],\n                    code="password_changed",\n                )\n',
    replace: "",
  },
  {
    id: "simplejwt-decode-verify-default",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/backends.py",
    cls: "secure-default",
    split: "heldout2",
    find: "    def decode(self, token: Token, verify: bool = True) -> dict[str, Any]:",
    replace: "    def decode(self, token: Token, verify: bool = False) -> dict[str, Any]:",
  },
  {
    id: "koajwt-missing-token",
    repo: "koajs/jwt",
    path: "lib/index.js",
    cls: "authn-branch",
    split: "heldout2",
    find:
      "        if (!token && !passthrough) {\n            ctx.throw(401, debug ? 'Token not found' : 'Authentication Error');\n        }\n",
    replace: "",
  },
  {
    id: "koajwt-revoked",
    repo: "koajs/jwt",
    path: "lib/index.js",
    cls: "token",
    split: "heldout2",
    find:
      "                if (tokenRevoked) {\n                    throw new Error('Token revoked');\n                }\n",
    replace: "",
  },
  {
    id: "gorillacsrf-compare-tokens",
    repo: "gorilla/csrf",
    path: "csrf.go",
    cls: "authz",
    split: "heldout2",
    find:
      "\t\tif !compareTokens(requestToken, realToken) {\n\t\t\tr = envError(r, ErrBadToken)\n\t\t\tcs.opts.ErrorHandler.ServeHTTP(w, r)\n\t\t\treturn\n\t\t}\n",
    replace: "",
  },
  {
    id: "gorillacsrf-origin",
    repo: "gorilla/csrf",
    path: "csrf.go",
    cls: "authz",
    split: "heldout2",
    find:
      "\t\t\tif !sameOrigin(&requestURL, parsedOrigin) && !slices.Contains(cs.opts.TrustedOrigins, parsedOrigin.Host) {\n\t\t\t\tr = envError(r, ErrBadOrigin)\n\t\t\t\tcs.opts.ErrorHandler.ServeHTTP(w, r)\n\t\t\t\treturn\n\t\t\t}\n",
    replace: "",
  },
  {
    id: "gorillacsrf-http-referer",
    repo: "gorilla/csrf",
    path: "csrf.go",
    cls: "authz",
    split: "heldout2",
    find:
      '\t\t\tif referer.Scheme == "http" {\n\t\t\t\tr = envError(r, ErrBadReferer)\n\t\t\t\tcs.opts.ErrorHandler.ServeHTTP(w, r)\n\t\t\t\treturn\n\t\t\t}\n',
    replace: "",
  },
  {
    id: "passportlocal-no-user",
    repo: "jaredhanson/passport-local",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: "heldout2",
    find: "    if (!user) { return self.fail(info); }\n",
    replace: "",
  },
  {
    id: "passportlocal-missing-credentials",
    repo: "jaredhanson/passport-local",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: "heldout2",
    find:
      "  if (!username || !password) {\n    return this.fail({ message: options.badRequestMessage || 'Missing credentials' }, 400);\n  }\n",
    replace: "",
  },
  // ---- third held-out batch: flask-jwt-extended, passport-jwt, go-chi/jwtauth, python-jose,
  // oauthlib, django-oauth-toolkit (written and measured once before any rule change)
  {
    id: "fje-fresh-bool",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      '        if not fresh:\n            raise FreshTokenRequired("Fresh token required", jwt_header, jwt_data)\n',
    replace: "        pass\n",
  },
  {
    id: "fje-fresh-expired",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      '        if fresh < now:\n            raise FreshTokenRequired("Fresh token required", jwt_header, jwt_data)\n',
    replace: "",
  },
  {
    id: "fje-required-verify-call",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "authz",
    split: H3,
    find:
      "            verify_jwt_in_request(\n                optional, fresh, refresh, locations, verify_type, skip_revocation_check\n            )\n",
    replace: "",
  },
  {
    id: "fje-user-lookup-none",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "authn-branch",
    split: H3,
    find:
      '    if user is None:\n        error_msg = "user_lookup returned None for {}".format(identity)\n        raise UserLookupError(error_msg, jwt_header, jwt_data)\n',
    replace: "",
  },
  {
    id: "fje-revocation-check",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      "    if not skip_revocation_check:\n        verify_token_not_blocklisted(jwt_header, decoded_token)\n",
    replace: "",
  },
  {
    id: "fje-custom-verification",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      "    custom_verification_for_token(jwt_header, decoded_token)\n\n    return decoded_token",
    replace: "    return decoded_token",
  },
  {
    id: "fje-blocklist-branch",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/internal_utils.py",
    cls: "token",
    split: H3,
    find:
      "    if jwt_manager._token_in_blocklist_callback(jwt_header, jwt_data):\n        raise RevokedTokenError(jwt_header, jwt_data)\n",
    replace: "",
  },
  {
    id: "fje-token-type-refresh",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/internal_utils.py",
    cls: "token",
    split: H3,
    find:
      '    if not refresh and decoded_token["type"] == "refresh":\n        raise WrongTokenError("Only non-refresh tokens are allowed")\n    elif refresh',
    replace: "    if refresh",
  },
  {
    id: "pjwt-no-token",
    repo: "mikenicholson/passport-jwt",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: H3,
    find: '    if (!token) {\n        return self.fail(new Error("No auth token"));\n    }\n',
    replace: "",
  },
  {
    id: "pjwt-verify-error",
    repo: "mikenicholson/passport-jwt",
    path: "lib/strategy.js",
    cls: "token",
    split: H3,
    find:
      "                if (jwt_err) {\n                    return self.fail(jwt_err);\n                } else {",
    replace: "                {",
  },
  {
    id: "pjwt-no-user",
    repo: "mikenicholson/passport-jwt",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: H3,
    find:
      "                        } else if (!user) {\n                            return self.fail(info);\n                        } else {",
    replace: "                        } else {",
  },
  {
    id: "jwtauth-validate",
    repo: "go-chi/jwtauth",
    path: "jwtauth.go",
    cls: "token",
    split: H3,
    find:
      "\tif err := jwt.Validate(token, ja.validateOptions...); err != nil {\n\t\treturn token, ErrorReason(err)\n\t}\n",
    replace: "",
  },
  {
    id: "jwtauth-authenticator-err",
    repo: "go-chi/jwtauth",
    path: "jwtauth.go",
    cls: "authn-branch",
    split: H3,
    find:
      "\t\t\tif err != nil {\n\t\t\t\thttp.Error(w, err.Error(), http.StatusUnauthorized)\n\t\t\t\treturn\n\t\t\t}\n\n\t\t\tif token == nil {",
    replace: "\t\t\tif token == nil {",
  },
  {
    id: "jwtauth-authenticator-nil",
    repo: "go-chi/jwtauth",
    path: "jwtauth.go",
    cls: "authn-branch",
    split: H3,
    find:
      "\t\t\tif token == nil {\n\t\t\t\thttp.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)\n\t\t\t\treturn\n\t\t\t}\n",
    replace: "",
  },
  {
    id: "pyjose-verify-signature-default",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "secure-default",
    split: H3,
    find: '    verify_signature = defaults.get("verify_signature", True)\n',
    replace: '    verify_signature = defaults.get("verify_signature", False)\n',
  },
  {
    id: "pyjose-exp",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '    if exp < (now - leeway):\n        raise ExpiredSignatureError("Signature has expired.")\n',
    replace: "",
  },
  {
    id: "pyjose-aud-branch",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '    if audience not in audience_claims:\n        raise JWTClaimsError("Invalid audience")\n',
    replace: "",
  },
  {
    id: "pyjose-iss-branch",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '        if claims.get("iss") not in issuer:\n            raise JWTClaimsError("Invalid issuer")\n',
    replace: "        pass\n",
  },
  {
    id: "pyjose-at-hash",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '    if claims["at_hash"] != expected_hash:\n        raise JWTClaimsError("at_hash claim does not match access_token.")\n',
    replace: "",
  },
  {
    id: "pyjose-alg-allowlist",
    repo: "mpdavis/python-jose",
    path: "jose/jws.py",
    cls: "token",
    split: H3,
    find:
      '    if algorithms is not None and alg not in algorithms:\n        raise JWSError("The specified alg value is not allowed")\n',
    replace: "",
  },
  {
    id: "pyjose-sig-matches",
    repo: "mpdavis/python-jose",
    path: "jose/jws.py",
    cls: "token",
    split: H3,
    find:
      "        if not _sig_matches_keys(keys, signing_input, signature, alg):\n            raise JWSSignatureError()\n",
    replace: "        _sig_matches_keys(keys, signing_input, signature, alg)\n",
  },
  {
    id: "oauthlib1-check-access-token",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth1/rfc5849/endpoints/resource.py",
    cls: "token",
    split: H3,
    find:
      "        if not self.request_validator.check_access_token(\n                request.resource_owner_key):\n            return False, request\n\n",
    replace: "",
  },
  {
    id: "oauthlib1-nonce",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth1/rfc5849/endpoints/resource.py",
    cls: "token",
    split: H3,
    find:
      "        if not self.request_validator.validate_timestamp_and_nonce(\n                request.client_key, request.timestamp, request.nonce, request,\n                access_token=request.resource_owner_key):\n            return False, request\n",
    replace: "",
  },
  {
    id: "oauthlib1-hmac-compare",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth1/rfc5849/signature.py",
    cls: "credential",
    split: H3,
    find:
      "    match = safe_string_equals(signature, request.signature)\n    if not match:\n        log.debug('Verify HMAC failed: signature base string: %s', sig_base_str)\n    return match\n",
    replace: "    return True\n",
  },
  {
    id: "oauthlib2-validate-code",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth2/rfc6749/grant_types/authorization_code.py",
    cls: "authz",
    split: H3,
    find:
      "        if not self.request_validator.validate_code(request.client_id,\n                                                    request.code, request.client, request):\n            log.debug('Client, %r (%r), is not allowed access to scopes %r.',\n                      request.client_id, request.client, request.scopes)\n            raise errors.InvalidGrantError(request=request)\n",
    replace: "",
  },
  {
    id: "oauthlib2-pkce-verifier",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth2/rfc6749/grant_types/authorization_code.py",
    cls: "token",
    split: H3,
    find:
      "            if not self.validate_code_challenge(challenge,\n                                                challenge_method,\n                                                request.code_verifier):\n                log.debug('request provided a invalid code_verifier.')\n                raise errors.InvalidGrantError(request=request)\n",
    replace: "",
  },
  {
    id: "oauthlib2-redirect-uri",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth2/rfc6749/grant_types/authorization_code.py",
    cls: "authz",
    split: H3,
    find:
      "        if not self.request_validator.confirm_redirect_uri(request.client_id, request.code,\n                                                           request.redirect_uri, request.client,\n                                                           request):\n            log.debug('Redirect_uri (%r) invalid for client %r (%r).',\n                      request.redirect_uri, request.client_id, request.client)\n            raise errors.MismatchingRedirectURIError(request=request)\n",
    replace: "",
  },
  {
    id: "dot-has-scope-valid",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/contrib/rest_framework/permissions.py",
    cls: "authz",
    split: H3,
    find: "            if token.is_valid(required_scopes):\n                return True\n",
    replace: "            return True\n",
  },
  {
    id: "dot-protected-resource",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/decorators.py",
    cls: "authz",
    split: H3,
    find:
      "            valid, oauthlib_req = core.verify_request(request, scopes=_scopes)\n            if valid:\n                request.resource_owner = oauthlib_req.user\n                return view_func(request, *args, **kwargs)\n            return HttpResponseForbidden()\n\n        return _validate\n\n    return decorator\n\n\ndef rw",
    replace:
      "            return view_func(request, *args, **kwargs)\n\n        return _validate\n\n    return decorator\n\n\ndef rw",
  },
  {
    id: "dot-basic-secret",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/oauth2_validators.py",
    cls: "credential",
    split: H3,
    find:
      '        elif not self._check_secret(client_secret, request.client.client_secret):\n            log.debug("Failed basic auth: wrong client secret %s" % client_secret)\n            return False\n',
    replace: "",
  },
  {
    id: "dot-validate-user-active",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/oauth2_validators.py",
    cls: "credential",
    split: H3,
    find: "        if u is not None and u.is_active:\n",
    replace: "        if u is not None:\n",
  },
  {
    id: "dot-bearer-valid",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/oauth2_validators.py",
    cls: "token",
    split: H3,
    find:
      "        if access_token and access_token.is_valid(scopes):\n            request.client = access_token.application",
    replace: "        if access_token:\n            request.client = access_token.application",
  },
  ...EDITS_HELDOUT7,
];

/** A security fix from a project's history, reversed: the edit re-introduces the vulnerability. */
export interface ReversedFix {
  id: string;
  repo: string;
  /** The fixing commit; the edit goes from this commit's file to its parent's. */
  commit: string;
  path: string;
  cls: GuardEdit["cls"];
  note: string;
  /** Which batch; `history` when absent. */
  split?: "history" | "history7";
}

/**
 * Held-out, second kind: real security fixes reversed (chosen from the histories by their commit
 * messages and advisories, not by what the rules detect; measured once).
 */
export const REVERSED_FIXES: ReversedFix[] = [
  {
    id: "pyjwt-GHSA-ffqj-hmac-pem-key",
    repo: "jpadilla/pyjwt",
    commit: "9c52867",
    path: "jwt/algorithms.py",
    cls: "token",
    note: "HMAC key confusion: refuse PEM/SSH keys as HMAC secrets",
  },
  {
    id: "jsonwebtoken-GHSA-8cf7-sign-key-type",
    repo: "auth0/node-jsonwebtoken",
    commit: "e1fa9dc",
    path: "sign.js",
    cls: "token",
    note: "validate key type against algorithm when signing",
  },
  {
    id: "jsonwebtoken-asym-key-hs-token",
    repo: "auth0/node-jsonwebtoken",
    commit: "1bb584b",
    path: "index.js",
    cls: "token",
    note: "reject HS token verified with an asymmetric key",
  },
  {
    id: "jsonwebtoken-alg-none-with-key",
    repo: "auth0/node-jsonwebtoken",
    commit: "dfddaa4",
    path: "index.js",
    cls: "token",
    note: "alg none must fail when a key is given",
  },
  {
    id: "golangjwt-aud-empty-bypass",
    repo: "golang-jwt/jwt",
    commit: "8e9d9eb",
    path: "map_claims.go",
    cls: "token",
    note: "audience check bypass with []interface{}",
  },
  {
    id: "urllib3-GHSA-34jh-proxy-auth-redirect",
    repo: "urllib3/urllib3",
    commit: "accff72e",
    path: "src/urllib3/util/retry.py",
    cls: "secure-default",
    note: "strip Proxy-Authorization on cross-origin redirects",
  },
  {
    id: "drf-admin-renderer-permissions",
    repo: "encode/django-rest-framework",
    commit: "9e82afc98",
    path: "rest_framework/renderers.py",
    cls: "authz",
    note: "AdminRenderer checks GET permissions before rendering data",
  },
  {
    id: "werkzeug-debugger-trusted-hosts",
    repo: "pallets/werkzeug",
    commit: "71b69dfb",
    path: "src/werkzeug/debug/__init__.py",
    cls: "authz",
    note: "debugger restricted to trusted hosts",
  },
  {
    id: "echo-encoded-separator-bypass",
    repo: "labstack/echo",
    commit: "8d1ae9d3",
    path: "middleware/static.go",
    cls: "authz",
    note: "reject encoded path separators bypassing route middleware",
  },
  {
    id: "echo-encoded-separator-router",
    repo: "labstack/echo",
    commit: "8d1ae9d3",
    path: "echo.go",
    cls: "authz",
    note: "reject encoded path separators bypassing route middleware",
  },
  ...REVERSED_FIXES_HISTORY7,
];
