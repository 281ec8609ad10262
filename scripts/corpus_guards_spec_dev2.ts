/**
 * Guard-removal corpus, batch `dev2`: real guard code of seven projects not used before (Tornado,
 * Starlette, lestrrat-go/jwx, @nestjs/passport and @nestjs/jwt, auth0/node-jwks-rsa,
 * Flask-HTTPAuth, python-social-auth), one protection removed or weakened per case the way the
 * issue's five classes describe. Written by reading each project's guard code, measured once with
 * the rules unchanged (the first-run figure in docs/inspector.md), then used for development.
 *
 * @module
 */
import type { GuardEdit } from "./corpus_guards_spec.ts";

const D2 = "dev2" as const;
const TORNADO = "tornadoweb/tornado";
const STAR = "encode/starlette";
const JWX = "lestrrat-go/jwx";
const HA = "miguelgrinberg/Flask-HTTPAuth";
const SOC = "python-social-auth/social-core";
const JWKS = "auth0/node-jwks-rsa";

/** The dev2 edits. */
export const DEV2_EDITS: GuardEdit[] = [
  // ---- Tornado
  {
    id: "tornado-xsrf-compare-digest",
    repo: TORNADO,
    path: "tornado/web.py",
    cls: "authz",
    split: D2,
    find:
      '        if not hmac.compare_digest(utf8(token), utf8(expected_token)):\n            raise HTTPError(403, "XSRF cookie does not match POST argument")\n',
    replace: "",
  },
  {
    id: "tornado-execute-check-xsrf",
    repo: TORNADO,
    path: "tornado/web.py",
    cls: "authz",
    split: D2,
    find:
      '            ) and self.application.settings.get("xsrf_cookies"):\n                self.check_xsrf_cookie()\n',
    replace:
      '            ) and self.application.settings.get("xsrf_cookies"):\n                pass\n',
  },
  {
    id: "tornado-authenticated-403",
    repo: TORNADO,
    path: "tornado/web.py",
    cls: "authn-branch",
    split: D2,
    find:
      "                self.redirect(url)\n                return None\n            raise HTTPError(403)\n        return method(self, *args, **kwargs)",
    replace:
      "                self.redirect(url)\n                return None\n        return method(self, *args, **kwargs)",
  },
  {
    id: "tornado-signed-v1-signature",
    repo: TORNADO,
    path: "tornado/web.py",
    cls: "token",
    split: D2,
    find:
      '    if not hmac.compare_digest(parts[2], signature):\n        gen_log.warning("Invalid cookie signature %r", value)\n        return None\n',
    replace: "",
  },
  {
    id: "tornado-signed-v2-expiry",
    repo: TORNADO,
    path: "tornado/web.py",
    cls: "token",
    split: D2,
    find:
      "    if timestamp < clock() - max_age_days * 86400:\n        # The signature has expired.\n        return None\n",
    replace: "",
  },
  {
    id: "tornado-signed-v2-name-field",
    repo: TORNADO,
    path: "tornado/web.py",
    cls: "token",
    split: D2,
    find: "    if name_field != utf8(name):\n        return None\n",
    replace: "",
  },
  {
    id: "tornado-websocket-check-origin-true",
    repo: TORNADO,
    path: "tornado/websocket.py",
    cls: "authz",
    split: D2,
    find:
      "        # Check to see that origin matches host directly, including ports\n        return origin == host\n",
    replace:
      "        # Check to see that origin matches host directly, including ports\n        return True\n",
  },
  {
    id: "tornado-websocket-origin-branch",
    repo: TORNADO,
    path: "tornado/websocket.py",
    cls: "authz",
    split: D2,
    find:
      '        if origin is not None and not self.check_origin(origin):\n            self.set_status(403)\n            log_msg = "Cross origin websockets not allowed"\n            self.finish(log_msg)\n            gen_log.debug(log_msg)\n            return\n',
    replace: "",
  },
  {
    id: "tornado-oauth-request-token-mismatch",
    repo: TORNADO,
    path: "tornado/auth.py",
    cls: "token",
    split: D2,
    find:
      '        if cookie_key != request_key:\n            raise AuthError("Request token does not match cookie")\n',
    replace: "",
  },
  // ---- Starlette
  {
    id: "starlette-requires-async",
    repo: STAR,
    path: "starlette/authentication.py",
    cls: "authz",
    split: D2,
    find:
      '                if not has_required_scope(request, scopes_list):\n                    if redirect is not None:\n                        orig_request_qparam = urlencode({"next": str(request.url)})\n                        next_url = f"{request.url_for(redirect)}?{orig_request_qparam}"\n                        return RedirectResponse(url=next_url, status_code=303)\n                    raise HTTPException(status_code=status_code)\n                return await func(*args, **kwargs)',
    replace: "                return await func(*args, **kwargs)",
  },
  {
    id: "starlette-has-required-scope-true",
    repo: STAR,
    path: "starlette/authentication.py",
    cls: "authz",
    split: D2,
    find:
      "    for scope in scopes:\n        if scope not in conn.auth.scopes:\n            return False\n    return True\n",
    replace: "    return True\n",
  },
  {
    id: "starlette-requires-websocket",
    repo: STAR,
    path: "starlette/authentication.py",
    cls: "authz",
    split: D2,
    find:
      "                if not has_required_scope(websocket, scopes_list):\n                    await websocket.close()\n                else:\n                    await func(*args, **kwargs)",
    replace: "                await func(*args, **kwargs)",
  },
  {
    id: "starlette-trustedhost-valid-default",
    repo: STAR,
    path: "starlette/middleware/trustedhost.py",
    cls: "secure-default",
    split: D2,
    find: "        is_valid_host = False\n",
    replace: "        is_valid_host = True\n",
  },
  {
    id: "starlette-trustedhost-pattern",
    repo: STAR,
    path: "starlette/middleware/trustedhost.py",
    cls: "authz",
    split: D2,
    find:
      '            if host == pattern or (pattern.startswith("*") and host.endswith(pattern[1:])):',
    replace: '            if pattern.startswith("*"):',
  },
  {
    id: "starlette-auth-middleware-authenticate",
    repo: STAR,
    path: "starlette/middleware/authentication.py",
    cls: "authn-branch",
    split: D2,
    find:
      '        try:\n            auth_result = await self.backend.authenticate(conn)\n        except AuthenticationError as exc:\n            response = self.on_error(conn, exc)\n            if scope["type"] == "websocket":\n                await send({"type": "websocket.close", "code": 1000})\n            else:\n                await response(scope, receive, send)\n            return\n',
    replace: "        auth_result = None\n",
  },
  {
    id: "starlette-session-unsign",
    repo: STAR,
    path: "starlette/middleware/sessions.py",
    cls: "token",
    split: D2,
    find: "                data = self.signer.unsign(data, max_age=self.max_age)\n",
    replace: '                data = data.rsplit(b".", 2)[0]\n',
  },
  // ---- lestrrat-go/jwx
  {
    id: "jwx-validate-validators-loop",
    repo: JWX,
    path: "jwt/validate.go",
    cls: "token",
    split: D2,
    find: "\t\tif err := v.Validate(ctx, t); err != nil {\n\t\t\treturn err\n\t\t}\n",
    replace: "\t\t_ = v.Validate(ctx, t)\n",
  },
  {
    id: "jwx-exp-expired",
    repo: JWX,
    path: "jwt/validate.go",
    cls: "token",
    split: D2,
    find: "\tif !now.Before(ttv.Add(skew)) {\n\t\treturn ErrTokenExpired()\n\t}\n",
    replace: "",
  },
  {
    id: "jwx-nbf-not-yet-valid",
    repo: JWX,
    path: "jwt/validate.go",
    cls: "token",
    split: D2,
    find: "\tif now.Before(ttv) {\n\t\treturn ErrTokenNotYetValid()\n\t}\n",
    replace: "",
  },
  {
    id: "jwx-claim-value-mismatch",
    repo: JWX,
    path: "jwt/validate.go",
    cls: "token",
    split: D2,
    find:
      "\tif v != cv.value {\n\t\treturn cv.makeErr(fmt.Errorf(`%q not satisfied: values do not match`, cv.name))\n\t}\n",
    replace: "",
  },
  {
    id: "jwx-parse-verify-jws",
    repo: JWX,
    path: "jwt/jwt.go",
    cls: "token",
    split: D2,
    find:
      "(pedantic)`)\n\t\t\t}\n\n\t\t\tif i == 0 {\n\t\t\t\t// We were NOT enveloped in other formats\n\t\t\t\tif !ctx.skipVerification {\n\t\t\t\t\tif _, _, err := verifyJWS(ctx, payload); err != nil {\n\t\t\t\t\t\treturn nil, err\n\t\t\t\t\t}\n\t\t\t\t}\n",
    replace:
      "(pedantic)`)\n\t\t\t}\n\n\t\t\tif i == 0 {\n\t\t\t\t// We were NOT enveloped in other formats\n",
  },
  {
    id: "jwx-parse-validate-default",
    repo: JWX,
    path: "jwt/jwt.go",
    cls: "secure-default",
    split: D2,
    find: "\tctx.validate = true\n",
    replace: "\tctx.validate = false\n",
  },
  {
    id: "jwx-parse-verification-default",
    repo: JWX,
    path: "jwt/jwt.go",
    cls: "secure-default",
    split: D2,
    find: "\tverification := true\n",
    replace: "\tverification := false\n",
  },
  // ---- NestJS
  {
    id: "nestjs-passport-handle-request",
    repo: "nestjs/passport",
    path: "lib/auth.guard.ts",
    cls: "authn-branch",
    split: D2,
    find:
      "      if (err || !user) {\n        throw err || new UnauthorizedException();\n      }\n      return user;",
    replace: "      return user;",
  },
  {
    id: "nestjs-passport-handle-request-user-dropped",
    repo: "nestjs/passport",
    path: "lib/auth.guard.ts",
    cls: "authn-branch",
    split: D2,
    find: "      if (err || !user) {\n",
    replace: "      if (err) {\n",
  },
  {
    id: "nestjs-jwt-verify-decode",
    repo: "nestjs/jwt",
    path: "lib/jwt.service.ts",
    cls: "token",
    split: D2,
    find: "    return jwt.verify(token, secret, verifyOptions as jwt.VerifyOptions) as T;",
    replace: "    return jwt.decode(token) as T;",
  },
  // ---- node-jwks-rsa
  {
    id: "jwks-express-alg-allow-list",
    repo: JWKS,
    path: "src/integrations/express.js",
    cls: "token",
    split: D2,
    find: "    if (!header || !supportedAlg.includes(header.alg)) {\n",
    replace: "    if (!header) {\n",
  },
  {
    id: "jwks-passport-alg-allow-list",
    repo: JWKS,
    path: "src/integrations/passport.js",
    cls: "token",
    split: D2,
    find: "    if (!decoded || !supportedAlg.includes(decoded.header.alg)) {\n",
    replace: "    if (!decoded) {\n",
  },
  {
    id: "jwks-kid-ambiguous",
    repo: JWKS,
    path: "src/JwksClient.js",
    cls: "token",
    split: D2,
    find:
      "    if (!kidDefined && keys.length > 1) {\n      logger('No KID specified and JWKS endpoint returned more than 1 key');\n      throw new SigningKeyNotFoundError('No KID specified and JWKS endpoint returned more than 1 key');\n    }\n",
    replace: "",
  },
  {
    id: "jwks-kid-match",
    repo: JWKS,
    path: "src/JwksClient.js",
    cls: "token",
    split: D2,
    find: "    const key = keys.find(k => !kidDefined || k.kid === kid);\n",
    replace: "    const key = keys[0];\n",
  },
  // ---- Flask-HTTPAuth
  {
    id: "httpauth-authorize-role",
    repo: HA,
    path: "src/flask_httpauth.py",
    cls: "authz",
    split: D2,
    find:
      "                    elif not self.authorize(role, user, auth):\n                        status = 403\n",
    replace: "",
  },
  {
    id: "httpauth-user-none-401",
    repo: HA,
    path: "src/flask_httpauth.py",
    cls: "authn-branch",
    split: D2,
    find:
      "                    if user in (False, None):\n                        status = 401\n                    elif not self.authorize(role, user, auth):",
    replace: "                    if not self.authorize(role, user, auth):",
  },
  {
    id: "httpauth-basic-compare-digest",
    repo: HA,
    path: "src/flask_httpauth.py",
    cls: "credential",
    split: D2,
    find:
      "        return auth.username if client_password is not None and \\\n            stored_password is not None and \\\n            hmac.compare_digest(client_password, stored_password) else None",
    replace: "        return auth.username if client_password is not None else None",
  },
  {
    id: "httpauth-digest-nonce-opaque",
    repo: HA,
    path: "src/flask_httpauth.py",
    cls: "credential",
    split: D2,
    find:
      "        if not self.verify_nonce_callback(auth.nonce) or \\\n                not self.verify_opaque_callback(auth.opaque):\n            return False\n",
    replace: "",
  },
  {
    id: "httpauth-digest-response",
    repo: HA,
    path: "src/flask_httpauth.py",
    cls: "credential",
    split: D2,
    find: "        return hmac.compare_digest(response, auth.response)\n",
    replace: "        return True\n",
  },
  // ---- python-social-auth
  {
    id: "social-validate-state-compare",
    repo: SOC,
    path: "social_core/backends/oauth.py",
    cls: "authz",
    split: D2,
    find:
      "        if not constant_time_compare(request_state, state):\n            raise AuthStateForbidden(self)\n",
    replace: "",
  },
  {
    id: "social-oidc-nonce",
    repo: SOC,
    path: "social_core/backends/open_id_connect.py",
    cls: "token",
    split: D2,
    find:
      '        nonce_obj = self.get_nonce(nonce)\n        if nonce_obj:\n            self.remove_nonce(nonce_obj.id)\n        else:\n            raise AuthTokenError(self, "Incorrect id_token: nonce")\n',
    replace: "",
  },
  {
    id: "social-oidc-at-hash",
    repo: SOC,
    path: "social_core/backends/open_id_connect.py",
    cls: "token",
    split: D2,
    find:
      '        if not self.validate_at_hash(claims, access_token, key):\n            raise AuthTokenError(self, "Invalid access token")\n',
    replace: "",
  },
  {
    id: "social-oidc-key-signature",
    repo: SOC,
    path: "social_core/backends/open_id_connect.py",
    cls: "token",
    split: D2,
    find:
      '                if rsakey.Algorithm.verify(\n                    message.encode("utf-8"), rsakey.key, decoded_sig\n                ):\n                    return key\n',
    replace: "                return key\n",
  },
  {
    id: "social-oidc-iat",
    repo: SOC,
    path: "social_core/backends/open_id_connect.py",
    cls: "token",
    split: D2,
    find:
      '        if "iat" not in id_token or utc_timestamp > id_token["iat"] + iat_leeway:\n            raise AuthTokenError(self, "Incorrect id_token: iat")\n',
    replace: "",
  },
  {
    id: "social-oidc-validate-claims-call",
    repo: SOC,
    path: "social_core/backends/open_id_connect.py",
    cls: "token",
    split: D2,
    find:
      "        claims = self.decode_and_validate_id_token(id_token, access_token)\n        self.validate_claims(claims)\n",
    replace: "        claims = self.decode_and_validate_id_token(id_token, access_token)\n",
  },
  {
    id: "social-auth-allowed-whitelist",
    repo: SOC,
    path: "social_core/backends/base.py",
    cls: "authz",
    split: D2,
    find: "                allowed = email in emails or domain in domains\n",
    replace: "                allowed = True\n",
  },
];
