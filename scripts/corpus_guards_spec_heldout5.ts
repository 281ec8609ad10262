/**
 * Fifth held-out batch of the guard-removal corpus (split `heldout5`) and its reversed real fixes
 * (split `history5`), from projects no earlier batch used: flask-security, pyotp, django-axes,
 * fosite, go-jose, zitadel/oidc, express-openid-connect, express-session, axios and oauth2orize.
 * The removals were chosen by reading each project's security code as a careless refactor or an
 * attacker would change it, and the fixes by their advisories and commit messages, before any
 * measurement. `scripts/corpus_guards_spec.ts` appends both lists to its own.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";

const S = "heldout5" as const;
const FS = "pallets-eco/flask-security";
const OTP = "pyauth/pyotp";
const AXES = "jazzband/django-axes";
const FOS = "ory/fosite";
const JOSE = "go-jose/go-jose";
const ZOIDC = "zitadel/oidc";
const EOC = "auth0/express-openid-connect";
const SESS = "expressjs/session";
const AX = "axios/axios";
const O2 = "jaredhanson/oauth2orize";

/** Guard removals written against the mirrored heads of the projects above. */
export const HELDOUT5_EDITS: GuardEdit[] = [
  // ---- flask-security (Python)
  {
    id: "fs-http-auth-inactive-user",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "authn-branch",
    split: S,
    find:
      "    user = lookup_identity(auth.username)\n    if user and not user.active:\n        return False\n\n",
    replace: "    user = lookup_identity(auth.username)\n\n",
  },
  {
    id: "fs-http-auth-password-conjunct",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "credential",
    split: S,
    find: "    if user and user.verify_and_update_password(auth.password):\n",
    replace: "    if user:\n",
  },
  {
    id: "fs-roles-required-loop",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "authz",
    split: S,
    find: "            perms = [Permission(RoleNeed(role)) for role in roles]\n" +
      "            for perm in perms:\n" +
      "                if not perm.can():\n" +
      "                    return _security._unauthz_handler(\n" +
      "                        roles_required.__name__, list(roles)\n" +
      "                    )\n",
    replace: "",
  },
  {
    id: "fs-permissions-required-commented",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "authz",
    split: S,
    find: "            for perm in perms:\n" +
      "                if not perm.can():\n" +
      "                    return _security._unauthz_handler(\n" +
      "                        permissions_required.__name__, list(fsperms)\n" +
      "                    )\n",
    replace: "            # for perm in perms:\n" +
      "            #     if not perm.can():\n" +
      "            #         return _security._unauthz_handler(\n" +
      "            #             permissions_required.__name__, list(fsperms)\n" +
      "            #         )\n",
  },
  {
    id: "fs-auth-required-freshness",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "authn-branch",
    split: S,
    find: "                    if not check_and_update_authn_fresh(within, grace, method):\n" +
      "                        return _security._reauthn_handler(within, grace)\n",
    replace: "",
  },
  {
    id: "fs-handle-csrf-protect-commented",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "authz",
    split: S,
    find: "                _csrf.protect()  # type: ignore\n",
    replace: "                # _csrf.protect()  # type: ignore\n",
  },
  {
    id: "fs-check-session-via",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "authn-branch",
    split: S,
    find: '    if get_request_attr("fs_authn_via") != "session":\n        return False\n',
    replace: "",
  },
  {
    id: "fs-parse-auth-token-exp",
    repo: FS,
    path: "flask_security/utils.py",
    cls: "token",
    split: S,
    find: '        if ts := tdata.get("exp"):\n' +
      "            if ts < int(time.time()):\n" +
      '                raise SignatureExpired("token[exp] value expired")\n',
    replace: "",
  },
  {
    id: "fs-token-status-loads-unsafe",
    repo: FS,
    path: "flask_security/utils.py",
    cls: "token",
    split: S,
    find: "        data = serializer.loads(token, max_age=max_age)\n",
    replace: "        d, data = serializer.loads_unsafe(token)\n",
  },
  {
    id: "fs-verify-password-plain-eq",
    repo: FS,
    path: "flask_security/utils.py",
    cls: "credential",
    split: S,
    find: "    return _pwd_context.verify(password, password_hash)\n",
    replace: "    return password == password_hash\n",
  },
  {
    id: "fs-authn-fresh-future-window",
    repo: FS,
    path: "flask_security/utils.py",
    cls: "authn-branch",
    split: S,
    find: "    if within > delta > -within:\n",
    replace: "    if within > delta:\n",
  },
  {
    id: "fs-redirect-subdomain-suffix",
    repo: FS,
    path: "flask_security/utils.py",
    cls: "token",
    split: S,
    find: "                url_next.netloc == base_domain\n" +
      '                or url_next.netloc.endswith(f".{base_domain}")\n',
    replace: "                url_next.netloc.endswith(base_domain)\n",
  },
  {
    id: "fs-default-two-factor-always-validate",
    repo: FS,
    path: "flask_security/core.py",
    cls: "secure-default",
    split: S,
    find: '    "TWO_FACTOR_ALWAYS_VALIDATE": True,\n',
    replace: '    "TWO_FACTOR_ALWAYS_VALIDATE": False,\n',
  },
  {
    id: "fs-tf-validity-cookie-insecure",
    repo: FS,
    path: "flask_security/core.py",
    cls: "secure-default",
    split: S,
    find:
      '    "TWO_FACTOR_VALIDITY_COOKIE": {\n        "httponly": True,\n        "secure": True,\n',
    replace:
      '    "TWO_FACTOR_VALIDITY_COOKIE": {\n        "httponly": True,\n        "secure": False,\n',
  },
  {
    id: "fs-check-token-user-truthy",
    repo: FS,
    path: "flask_security/decorators.py",
    cls: "authn-branch",
    split: S,
    find: "    if is_user_authenticated(user):\n        identity_changed.send(\n",
    replace: "    if user:\n        identity_changed.send(\n",
  },
  // ---- pyotp (Python)
  {
    id: "pyotp-strings-equal-plain",
    repo: OTP,
    path: "src/pyotp/utils.py",
    cls: "credential",
    split: S,
    find: '    return compare_digest(s1.encode("utf-8"), s2.encode("utf-8"))\n',
    replace: "    return s1 == s2\n",
  },
  {
    id: "pyotp-hotp-verify-true",
    repo: OTP,
    path: "src/pyotp/hotp.py",
    cls: "credential",
    split: S,
    find: "        return utils.strings_equal(str(otp), str(self.at(counter)))\n",
    replace: "        return True\n",
  },
  {
    id: "pyotp-totp-window-fallthrough",
    repo: OTP,
    path: "src/pyotp/totp.py",
    cls: "credential",
    split: S,
    find: "                if utils.strings_equal(str(otp), str(self.at(for_time, i))):\n" +
      "                    return True\n            return False\n",
    replace: "                if utils.strings_equal(str(otp), str(self.at(for_time, i))):\n" +
      "                    return True\n            return True\n",
  },
  // ---- django-axes (Python)
  {
    id: "axes-is-allowed-locked",
    repo: AXES,
    path: "axes/handlers/base.py",
    cls: "authn-branch",
    split: S,
    find: "        if self.is_locked(request, credentials):\n            return False\n",
    replace: "",
  },
  {
    id: "axes-is-allowed-blacklisted",
    repo: AXES,
    path: "axes/handlers/base.py",
    cls: "authz",
    split: S,
    find: "        if self.is_blacklisted(request, credentials):\n            return False\n",
    replace: "",
  },
  {
    id: "axes-backend-raise-pass",
    repo: AXES,
    path: "axes/backends.py",
    cls: "authn-branch",
    split: S,
    find: "        raise AxesBackendPermissionDenied(\n" +
      '            "AxesBackend detected that the given user is locked out"\n' +
      "        )\n",
    replace: "        pass\n",
  },
  {
    id: "axes-default-lock-out-at-failure",
    repo: AXES,
    path: "axes/conf.py",
    cls: "secure-default",
    split: S,
    find:
      'settings.AXES_LOCK_OUT_AT_FAILURE = getattr(settings, "AXES_LOCK_OUT_AT_FAILURE", True)\n',
    replace:
      'settings.AXES_LOCK_OUT_AT_FAILURE = getattr(settings, "AXES_LOCK_OUT_AT_FAILURE", False)\n',
  },
  // ---- fosite (Go)
  {
    id: "fosite-hmac-signature-string-compare",
    repo: FOS,
    path: "token/hmac/hmacsha.go",
    cls: "credential",
    split: S,
    find: "\tif !hmac.Equal(expectedMAC, decodedTokenSignature) {\n",
    replace: "\tif string(expectedMAC) != string(decodedTokenSignature) {\n",
  },
  {
    id: "fosite-bcrypt-compare-dropped",
    repo: FOS,
    path: "hash_bcrypt.go",
    cls: "credential",
    split: S,
    find: "\tif err := bcrypt.CompareHashAndPassword(hash, data); err != nil {\n" +
      "\t\treturn errorsx.WithStack(err)\n\t}\n\treturn nil\n",
    replace: "\treturn nil\n",
  },
  {
    id: "fosite-pkce-s256-mismatch",
    repo: FOS,
    path: "handler/pkce/handler.go",
    cls: "token",
    split: S,
    find: "\t\tif base64.RawURLEncoding.EncodeToString(hash.Sum([]byte{})) != challenge {\n" +
      "\t\t\treturn errorsx.WithStack(fosite.ErrInvalidGrant.\n" +
      '\t\t\t\tWithHint("The PKCE code challenge did not match the code verifier."))\n' +
      "\t\t}\n\t\tbreak\n",
    replace: "\t\tbreak\n",
  },
  {
    id: "fosite-pkce-public-clients-false",
    repo: FOS,
    path: "handler/pkce/handler.go",
    cls: "token",
    split: S,
    find: "\tif c.Config.GetEnforcePKCEForPublicClients(ctx) && client.IsPublic() {\n",
    replace: "\tif false {\n",
  },
  {
    id: "fosite-authcode-client-mismatch",
    repo: FOS,
    path: "handler/oauth2/flow_authorize_code_token.go",
    cls: "token",
    split: S,
    find: "\tif authorizeRequest.GetClient().GetID() != request.GetClient().GetID() {\n" +
      '\t\treturn errorsx.WithStack(fosite.ErrInvalidGrant.WithHint("The OAuth 2.0 Client ID from this request does not match the one from the authorize request."))\n' +
      "\t}\n",
    replace: "",
  },
  {
    id: "fosite-authcode-redirect-uri-commented",
    repo: FOS,
    path: "handler/oauth2/flow_authorize_code_token.go",
    cls: "token",
    split: S,
    find:
      '\tif forcedRedirectURI != "" && forcedRedirectURI != request.GetRequestForm().Get("redirect_uri") {\n' +
      '\t\treturn errorsx.WithStack(fosite.ErrInvalidGrant.WithHint("The \\"redirect_uri\\" from this request does not match the one from the authorize request."))\n' +
      "\t}\n",
    replace:
      '\t// if forcedRedirectURI != "" && forcedRedirectURI != request.GetRequestForm().Get("redirect_uri") {\n' +
      '\t// \treturn errorsx.WithStack(fosite.ErrInvalidGrant.WithHint("The \\"redirect_uri\\" from this request does not match the one from the authorize request."))\n' +
      "\t// }\n",
  },
  {
    id: "fosite-authcode-grant-type-allowed",
    repo: FOS,
    path: "handler/oauth2/flow_authorize_code_token.go",
    cls: "authz",
    split: S,
    find: '\tif !request.GetClient().GetGrantTypes().Has("authorization_code") {\n' +
      '\t\treturn errorsx.WithStack(fosite.ErrUnauthorizedClient.WithHint("The OAuth 2.0 Client is not allowed to use authorization grant \\"authorization_code\\"."))\n' +
      "\t}\n",
    replace: "",
  },
  {
    id: "fosite-validate-authorize-code",
    repo: FOS,
    path: "handler/oauth2/flow_authorize_code_token.go",
    cls: "token",
    split: S,
    find:
      "\tif err := c.AuthorizeCodeStrategy.ValidateAuthorizeCode(ctx, request, code); err != nil {\n" +
      "\t\treturn errorsx.WithStack(fosite.ErrInvalidGrant.WithWrap(err).WithDebug(err.Error()))\n" +
      "\t}\n",
    replace: "",
  },
  {
    id: "fosite-client-assertion-audience",
    repo: FOS,
    path: "client_authentication.go",
    cls: "token",
    split: S,
    find: "\t\tif !audienceMatchesTokenURLs(claims, f.Config.GetTokenURLs(ctx)) {\n" +
      "\t\t\treturn nil, errorsx.WithStack(ErrInvalidClient.WithHintf(\n" +
      "\t\t\t\t\"Claim 'audience' from 'client_assertion' must match the authorization server's token endpoint '%s'.\",\n" +
      "\t\t\t\tstrings.Join(f.Config.GetTokenURLs(ctx), \"' or '\")))\n" +
      "\t\t}\n",
    replace: "",
  },
  {
    id: "fosite-client-secret-unchecked",
    repo: FOS,
    path: "client_authentication.go",
    cls: "credential",
    split: S,
    find: "\t// Enforce client authentication\n" +
      "\tif err := f.checkClientSecret(ctx, client, []byte(clientSecret)); err != nil {\n" +
      "\t\treturn nil, errorsx.WithStack(ErrInvalidClient.WithWrap(err).WithDebug(err.Error()))\n" +
      "\t}\n",
    replace: "",
  },
  {
    id: "fosite-authorize-scope-check",
    repo: FOS,
    path: "authorize_request_handler.go",
    cls: "authz",
    split: S,
    find: "\t\tif !f.Config.GetScopeStrategy(ctx)(request.Client.GetScopes(), permission) {\n" +
      "\t\t\treturn errorsx.WithStack(ErrInvalidScope.WithHintf(\"The OAuth 2.0 Client is not allowed to request scope '%s'.\", permission))\n" +
      "\t\t}\n",
    replace: "",
  },
  // ---- go-jose (Go)
  {
    id: "gojose-claims-expiry",
    repo: JOSE,
    path: "jwt/validation.go",
    cls: "token",
    split: S,
    find: "\tif c.Expiry != nil && validationTime.Add(-leeway).After(c.Expiry.Time()) {\n" +
      "\t\treturn ErrExpired\n\t}\n",
    replace: "",
  },
  {
    id: "gojose-claims-issuer-commented",
    repo: JOSE,
    path: "jwt/validation.go",
    cls: "token",
    split: S,
    find: '\tif e.Issuer != "" && e.Issuer != c.Issuer {\n\t\treturn ErrInvalidIssuer\n\t}\n',
    replace:
      '\t// if e.Issuer != "" && e.Issuer != c.Issuer {\n\t// \treturn ErrInvalidIssuer\n\t// }\n',
  },
  {
    id: "gojose-claims-audience",
    repo: JOSE,
    path: "jwt/validation.go",
    cls: "token",
    split: S,
    find: "\t\tif !intersection {\n\t\t\treturn ErrInvalidAudience\n\t\t}\n",
    replace: "",
  },
  {
    id: "gojose-hmac-bytes-equal",
    repo: JOSE,
    path: "symmetric.go",
    cls: "credential",
    split: S,
    find: "\tmatch := subtle.ConstantTimeCompare(mac, expected)\n\tif match != 1 {\n",
    replace: "\tif !bytes.Equal(mac, expected) {\n",
  },
  {
    id: "gojose-detached-verify-error-ignored",
    repo: JOSE,
    path: "signing.go",
    cls: "token",
    split: S,
    find: "\terr = verifier.verifyPayload(input, signature.Signature, alg)\n" +
      "\tif err != nil {\n\t\treturn ErrCryptoFailure\n\t}\n\n\treturn nil\n}\n\n// VerifyMulti",
    replace:
      "\t_ = verifier.verifyPayload(input, signature.Signature, alg)\n\n\treturn nil\n}\n\n// VerifyMulti",
  },
  {
    id: "gojose-jwt-payload-unverified",
    repo: JOSE,
    path: "jwt/jwt.go",
    cls: "token",
    split: S,
    find: "\t\tpayload:           sig.Verify,\n",
    replace:
      "\t\tpayload:           func(interface{}) ([]byte, error) { return sig.UnsafePayloadWithoutVerification(), nil },\n",
  },
  {
    id: "gojose-alg-allowlist",
    repo: JOSE,
    path: "jws.go",
    cls: "token",
    split: S,
    find: "\t\talg := SignatureAlgorithm(signature.Header.Algorithm)\n" +
      "\t\tif !containsSignatureAlgorithm(signatureAlgorithms, alg) {\n" +
      "\t\t\treturn nil, newErrUnexpectedSignatureAlgorithm(alg, signatureAlgorithms)\n" +
      "\t\t}\n",
    replace: "",
  },
  {
    id: "gojose-embedded-jwk-public-conjunct",
    repo: JOSE,
    path: "jws.go",
    cls: "token",
    split: S,
    find: "\t\tjwk := signature.Header.JSONWebKey\n" +
      "\t\tif jwk != nil && (!jwk.Valid() || !jwk.IsPublic()) {\n",
    replace: "\t\tjwk := signature.Header.JSONWebKey\n\t\tif jwk != nil && !jwk.Valid() {\n",
  },
  // ---- zitadel/oidc (Go)
  {
    id: "zitadel-rp-id-token-signature",
    repo: ZOIDC,
    path: "pkg/client/rp/verifier.go",
    cls: "token",
    split: S,
    find:
      "\tif err = oidc.CheckSignature(ctx, decrypted, payload, claims, v.SupportedSignAlgs, v.KeySet); err != nil {\n" +
      "\t\treturn nilClaims, err\n\t}\n",
    replace: "",
  },
  {
    id: "zitadel-rp-nonce-commented",
    repo: ZOIDC,
    path: "pkg/client/rp/verifier.go",
    cls: "token",
    split: S,
    find: "\tif v.Nonce != nil {\n" +
      "\t\tif err = oidc.CheckNonce(claims, v.Nonce(ctx)); err != nil {\n" +
      "\t\t\treturn nilClaims, err\n\t\t}\n\t}\n",
    replace: "\t// if v.Nonce != nil {\n" +
      "\t// \tif err = oidc.CheckNonce(claims, v.Nonce(ctx)); err != nil {\n" +
      "\t// \t\treturn nilClaims, err\n\t// \t}\n\t// }\n",
  },
  {
    id: "zitadel-rp-at-hash",
    repo: ZOIDC,
    path: "pkg/client/rp/verifier.go",
    cls: "token",
    split: S,
    find: "\tif actual != atHash {\n\t\treturn oidc.ErrAtHash\n\t}\n",
    replace: "",
  },
  {
    id: "zitadel-cookie-secure-default",
    repo: ZOIDC,
    path: "pkg/http/cookie.go",
    cls: "secure-default",
    split: S,
    find: "\t\tsecurecookie: securecookie.New(hashKey, encryptKey),\n\t\tsecureOnly:   true,\n",
    replace: "\t\tsecurecookie: securecookie.New(hashKey, encryptKey),\n\t\tsecureOnly:   false,\n",
  },
  {
    id: "zitadel-https-redirect-unchecked",
    repo: ZOIDC,
    path: "pkg/op/auth_request.go",
    cls: "token",
    split: S,
    find: '\tif strings.HasPrefix(uri, "https://") {\n' +
      "\t\treturn checkURIAgainstRedirects(client, uri)\n\t}\n",
    replace: '\tif strings.HasPrefix(uri, "https://") {\n\t\treturn nil\n\t}\n',
  },
  {
    id: "zitadel-client-secret-ignored",
    repo: ZOIDC,
    path: "pkg/op/token_request.go",
    cls: "credential",
    split: S,
    find: "\terr := storage.AuthorizeClientIDSecret(ctx, clientID, clientSecret)\n" +
      "\tif err != nil {\n" +
      '\t\treturn oidc.ErrInvalidClient().WithDescription("invalid client_id / client_secret").WithParent(err)\n' +
      "\t}\n\treturn nil\n",
    replace: "\treturn nil\n",
  },
  // ---- express-openid-connect (JS)
  {
    id: "eoc-requires-auth-next",
    repo: EOC,
    path: "middleware/requiresAuth.js",
    cls: "authz",
    split: S,
    find:
      "    next(\n      createError.Unauthorized('Authentication is required for this route.'),\n" +
      "    );\n    return;\n",
    replace: "    return next();\n",
  },
  {
    id: "eoc-cookie-httponly-default",
    repo: EOC,
    path: "lib/config.js",
    cls: "secure-default",
    split: S,
    find: "      httpOnly: Joi.boolean().optional().default(true),\n",
    replace: "      httpOnly: Joi.boolean().optional().default(false),\n",
  },
  {
    id: "eoc-cookie-secure-https-default",
    repo: EOC,
    path: "lib/config.js",
    cls: "secure-default",
    split: S,
    find: "        then: Joi.boolean()\n          .default(true)\n",
    replace: "        then: Joi.boolean()\n          .default(false)\n",
  },
  {
    id: "eoc-id-token-alg-none-allowed",
    repo: EOC,
    path: "lib/config.js",
    cls: "token",
    split: S,
    find: "  idTokenSigningAlg: Joi.string()\n    .insensitive()\n    .not('none')\n",
    replace: "  idTokenSigningAlg: Joi.string()\n    .insensitive()\n",
  },
  {
    id: "eoc-verify-cookie-signature",
    repo: EOC,
    path: "lib/crypto.js",
    cls: "token",
    split: S,
    find: "  if (await verifySignature(cookie, value, signature, keystore)) {\n" +
      "    return value;\n  }\n\n  return undefined;\n",
    replace: "  return value;\n",
  },
  {
    id: "eoc-logout-token-issuer-audience",
    repo: EOC,
    path: "lib/context.js",
    cls: "token",
    split: S,
    find: "        issuer: serverMetadata.issuer,\n        audience: config.clientID,\n" +
      "        algorithms: [config.idTokenSigningAlg],\n",
    replace: "        algorithms: [config.idTokenSigningAlg],\n",
  },
  {
    id: "eoc-code-grant-nonce",
    repo: EOC,
    path: "lib/context.js",
    cls: "token",
    split: S,
    find: "              expectedNonce: checks.nonce,\n",
    replace: "",
  },
  {
    id: "eoc-auth-required-default",
    repo: EOC,
    path: "lib/config.js",
    cls: "secure-default",
    split: S,
    find: "  authRequired: Joi.boolean().optional().default(true),\n",
    replace: "  authRequired: Joi.boolean().optional().default(false),\n",
  },
  {
    id: "eoc-backchannel-logged-out-ignored",
    repo: EOC,
    path: "middleware/auth.js",
    cls: "authn-branch",
    split: S,
    find:
      "          if (loggedOut) {\n            req[config.session.name] = undefined;\n          }\n",
    replace: "",
  },
  // ---- express-session (JS)
  {
    id: "session-cookie-httponly-default",
    repo: SESS,
    path: "session/cookie.js",
    cls: "secure-default",
    split: S,
    find: "  this.httpOnly = true;\n",
    replace: "  this.httpOnly = false;\n",
  },
  {
    id: "session-unsigned-cookie-accepted",
    repo: SESS,
    path: "index.js",
    cls: "token",
    split: S,
    find:
      "          val = undefined;\n        }\n      } else {\n        debug('cookie unsigned')\n" +
      "      }\n    }\n  }\n\n  // back-compat read from cookieParser() signedCookies data\n",
    replace: "          val = undefined;\n        }\n      } else {\n        val = raw\n" +
      "      }\n    }\n  }\n\n  // back-compat read from cookieParser() signedCookies data\n",
  },
  {
    id: "session-unsigncookie-no-verify",
    repo: SESS,
    path: "index.js",
    cls: "token",
    split: S,
    find: "    var result = signature.unsign(val, secrets[i]);\n",
    replace: "    var result = val.slice(0, val.lastIndexOf('.'));\n",
  },
  {
    id: "session-secure-cookie-over-http",
    repo: SESS,
    path: "index.js",
    cls: "secure-default",
    split: S,
    find: "      // only send secure cookies via https\n" +
      "      if (req.session.cookie.secure && !issecure(req, trustProxy)) {\n" +
      "        debug('not secured');\n        return;\n      }\n",
    replace: "",
  },
  // ---- axios (JS)
  {
    id: "axios-xsrf-any-origin",
    repo: AX,
    path: "lib/helpers/resolveConfig.js",
    cls: "secure-default",
    split: S,
    find:
      "    if (withXSRFToken || (withXSRFToken !== false && isURLSameOrigin(newConfig.url))) {\n",
    replace: "    if (withXSRFToken !== false) {\n",
  },
  {
    id: "axios-same-origin-host-dropped",
    repo: AX,
    path: "lib/helpers/isURLSameOrigin.js",
    cls: "secure-default",
    split: S,
    find: "    origin.protocol === url.protocol &&\n    origin.host === url.host &&\n",
    replace: "    origin.protocol === url.protocol &&\n",
  },
  {
    id: "axios-redirect-proxy-not-reapplied",
    repo: AX,
    path: "lib/adapters/http.js",
    cls: "secure-default",
    split: S,
    find: "  options.beforeRedirects.proxy = function beforeRedirect(redirectOptions) {\n" +
      "    // Configure proxy for redirected request, passing the original config proxy to apply\n" +
      "    // the exact same logic as if the redirected request was performed by axios directly.\n" +
      "    setProxy(redirectOptions, configProxy, redirectOptions.href);\n  };\n",
    replace: "",
  },
  // ---- oauth2orize (JS)
  {
    id: "oauth2orize-authorization-unauthorized-client",
    repo: O2,
    path: "lib/middleware/authorization.js",
    cls: "authz",
    split: S,
    find:
      "        if (!client) { return next(new AuthorizationError('Unauthorized client', 'unauthorized_client')); }\n",
    replace: "",
  },
  {
    id: "oauth2orize-txn-not-in-session",
    repo: O2,
    path: "lib/txn/session.js",
    cls: "authz",
    split: S,
    find:
      "  if (!txn) { return cb(new ForbiddenError('Unable to load OAuth 2.0 transaction: ' + tid)); }\n",
    replace: "",
  },
  {
    id: "oauth2orize-code-grant-denied-false",
    repo: O2,
    path: "lib/grant/code.js",
    cls: "authz",
    split: S,
    find: "    if (!txn.res.allow) {\n      var params = { error: 'access_denied' };\n",
    replace: "    if (false) {\n      var params = { error: 'access_denied' };\n",
  },
  {
    id: "oauth2orize-code-exchange-invalid",
    repo: O2,
    path: "lib/exchange/authorizationCode.js",
    cls: "token",
    split: S,
    find:
      "      if (!accessToken) { return next(new TokenError('Invalid authorization code', 'invalid_grant')); }\n",
    replace: "",
  },
  {
    id: "oauth2orize-decision-cancel-ignored",
    repo: O2,
    path: "lib/middleware/decision.js",
    cls: "authz",
    split: S,
    find: "        if (!req.body[cancelField]) { req.oauth2.res.allow = true; }\n" +
      "        else { req.oauth2.res.allow = false; }\n",
    replace: "        req.oauth2.res.allow = true;\n",
  },
];

/** Real security fixes of the same projects, reversed; chosen by advisory and commit message. */
export const HISTORY5_FIXES: ReversedFix[] = [
  {
    id: "pyotp-timing-safe-compare",
    repo: OTP,
    commit: "fd5ca5448eb3380eb4f8ca14fb714c7ddee871c4",
    path: "src/pyotp/hotp.py",
    cls: "credential",
    note: "timing-attack-resistant OTP comparison",
    split: "history5",
  },
  {
    id: "flask-security-GHSA-97r5-oauth-other-user",
    repo: FS,
    commit: "24d5e347",
    path: "flask_security/oauth_glue.py",
    cls: "authz",
    note: "oauth response email must match the current user when verifying",
    split: "history5",
  },
  {
    id: "flask-security-GHSA-f66q-webauthn-other-user",
    repo: FS,
    commit: "d1b61e49",
    path: "flask_security/webauthn.py",
    cls: "authz",
    note: "webauthn verify assertion must belong to the current user",
    split: "history5",
  },
  {
    id: "fosite-GHSA-7mqr-revocation-client",
    repo: FOS,
    commit: "03dd5581",
    path: "handler/oauth2/revocation.go",
    cls: "authz",
    note: "a client may only revoke its own tokens",
    split: "history5",
  },
  {
    id: "fosite-GHSA-v3q9-client-assertion",
    repo: FOS,
    commit: "0c9e0f6d",
    path: "client_authentication.go",
    cls: "token",
    note: "client assertion JWT checks (advisory GHSA-v3q9-2p3m-7g43)",
    split: "history5",
  },
  {
    id: "eoc-GHSA-7p99-returnto-open-redirect",
    repo: EOC,
    commit: "0947b92",
    path: "lib/context.js",
    cls: "token",
    note: "collapse leading slashes of returnTo to prevent open redirects",
    split: "history5",
  },
  {
    id: "axios-CVE-2023-45857-xsrf-leak",
    repo: AX,
    commit: "96ee232b",
    path: "lib/adapters/xhr.js",
    cls: "secure-default",
    note: "XSRF token sent only to same-origin requests",
    split: "history5",
  },
  {
    id: "axios-CVE-2024-39338-protocol-relative",
    repo: AX,
    commit: "6b6b605e",
    path: "lib/helpers/isAbsoluteURL.js",
    cls: "secure-default",
    note: "protocol-relative URLs treated as absolute (SSRF)",
    split: "history5",
  },
  {
    id: "axios-ssrf-redirect-proxy",
    repo: AX,
    commit: "c7329fef",
    path: "lib/adapters/http.js",
    cls: "secure-default",
    note: "redirected requests keep going through the configured proxy (SSRF)",
    split: "history5",
  },
  {
    id: "gojose-jwe-enc-allowlist",
    repo: JOSE,
    commit: "e976912",
    path: "jwe.go",
    cls: "token",
    note: "check the enc header against the allowed content encryptions",
    split: "history5",
  },
  {
    id: "zitadel-pkce-downgrade",
    repo: ZOIDC,
    commit: "4f0ed79",
    path: "pkg/op/token_request.go",
    cls: "token",
    note: "PKCE downgrade: a verifier without a challenge is rejected",
    split: "history5",
  },
  {
    id: "zitadel-signature-error-propagated",
    repo: ZOIDC,
    commit: "49664bf",
    path: "pkg/oidc/verifier.go",
    cls: "token",
    note: "signature verification errors are propagated",
    split: "history5",
  },
];
