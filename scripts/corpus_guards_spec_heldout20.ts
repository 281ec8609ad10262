/**
 * Twentieth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (stripe-python, django-cors-headers, Bolt for
 * Python, pyOpenSSL, Authomatic, Ariadne, gin-jwt, CryptoJWT, django-sesame,
 * djangorestframework-api-key, Flask-CORS), chosen the way a careless refactor or an attacker would
 * weaken them, before any measurement. Reversed fixes were picked by commit message or advisory
 * only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H20 = "heldout20" as const;
const ST = "stripe/stripe-python";
const STW = "stripe/_webhook.py";
const STH = "stripe/_http_client.py";
const CH = "adamchainz/django-cors-headers";
const CHM = "src/corsheaders/middleware.py";
const BO = "slackapi/bolt-python";
const PO = "pyca/pyopenssl";
const POS = "src/OpenSSL/SSL.py";
const AU = "authomatic/authomatic";
const AUO2 = "authomatic/providers/oauth2.py";
const AUC = "authomatic/core.py";
const AR = "mirumee/ariadne";
const ARG = "ariadne/graphql.py";
const GJ = "appleboy/gin-jwt";
const GJF = "auth_jwt.go";
const CJ = "IdentityPython/JWTConnect-Python-CryptoJWT";
const CJT = "src/cryptojwt/jwt.py";
const CJS = "src/cryptojwt/jws/jws.py";
const SE = "aaugustin/django-sesame";
const SET = "src/sesame/tokens_v2.py";
const AK = "florimondmanca/djangorestframework-api-key";
const AKM = "src/rest_framework_api_key/models.py";
const FC = "corydolphin/flask-cors";
const FCC = "flask_cors/core.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H20);

/** The twentieth held-out batch of edits (split `heldout20`). */
export const EDITS_HELDOUT20: GuardEdit[] = [
  // ---- stripe-python (Python)
  E(
    "b20-st-construct-event-unverified",
    ST,
    STW,
    "credential",
    "        WebhookSignature.verify_header(payload, sig_header, secret, tolerance)\n\n        data = json.loads(payload, object_pairs_hook=OrderedDict)\n",
    "        data = json.loads(payload, object_pairs_hook=OrderedDict)\n",
  ),
  E(
    "b20-st-signature-plain-equality",
    ST,
    STW,
    "credential",
    "        if not any(secure_compare(expected_sig, s) for s in signatures):\n",
    "        if not any(expected_sig in s for s in signatures):\n",
  ),
  E(
    "b20-st-default-tolerance-none",
    ST,
    STW,
    "token",
    "    DEFAULT_TOLERANCE = 300\n",
    "    DEFAULT_TOLERANCE = None\n",
  ),
  E(
    "b20-st-http-client-verify-default-off",
    ST,
    STH,
    "secure-default",
    '        verify_ssl_certs: bool = True,\n        proxy: Optional[Union[str, _Proxy]] = None,\n        async_fallback_client: Optional["HTTPClient"] = None,\n        _lib=None,  # used for internal unit testing\n    ):\n        self._verify_ssl_certs = verify_ssl_certs\n',
    '        verify_ssl_certs: bool = False,\n        proxy: Optional[Union[str, _Proxy]] = None,\n        async_fallback_client: Optional["HTTPClient"] = None,\n        _lib=None,  # used for internal unit testing\n    ):\n        self._verify_ssl_certs = verify_ssl_certs\n',
  ),
  E(
    "b20-st-aiohttp-context-no-hostname",
    ST,
    STH,
    "secure-default",
    "                    ssl_context = ssl.create_default_context(\n                        cafile=stripe.ca_bundle_path\n                    )\n",
    "                    ssl_context = ssl.create_default_context(\n                        cafile=stripe.ca_bundle_path\n                    )\n                    ssl_context.check_hostname = False\n                    ssl_context.verify_mode = ssl.CERT_NONE\n",
  ),
  E(
    "b20-st-client-construct-event-swallow",
    ST,
    "stripe/_stripe_client.py",
    "credential",
    '            payload = cast(bytes, payload).decode("utf-8")\n\n        WebhookSignature.verify_header(payload, sig_header, secret, tolerance)\n',
    '            payload = cast(bytes, payload).decode("utf-8")\n\n        try:\n            WebhookSignature.verify_header(payload, sig_header, secret, tolerance)\n        except Exception:\n            pass\n',
  ),
  // ---- django-cors-headers (Python)
  E(
    "b20-ch-origin-check-removed",
    CH,
    CHM,
    "authz",
    "        if (\n            not conf.CORS_ALLOW_ALL_ORIGINS\n            and not self.origin_found_in_white_lists(origin, url)\n            and not self.check_signal(request)\n        ):\n            return response\n\n",
    "",
  ),
  E(
    "b20-ch-whitelist-netloc-suffix",
    CH,
    CHM,
    "authz",
    "            origin.scheme == url.scheme and origin.netloc == url.netloc\n",
    "            origin.scheme == url.scheme and url.netloc.endswith(origin.netloc)\n",
  ),
  E(
    "b20-ch-regex-search",
    CH,
    CHM,
    "authz",
    "            re.match(domain_pattern, origin)\n",
    "            re.search(domain_pattern, origin)\n",
  ),
  E(
    "b20-ch-allow-all-default",
    CH,
    "src/corsheaders/conf.py",
    "secure-default",
    '            getattr(settings, "CORS_ORIGIN_ALLOW_ALL", False),\n',
    '            getattr(settings, "CORS_ORIGIN_ALLOW_ALL", True),\n',
  ),
  // ---- bolt-python (Python)
  E(
    "b20-bo-signature-log-only",
    BO,
    "slack_bolt/middleware/request_verification/request_verification.py",
    "credential",
    "        if self.verifier.is_valid(body, timestamp, signature):\n            return next()\n        else:\n            self._debug_log_error(signature, timestamp, body)\n            return self._build_error_response()\n",
    "        if not self.verifier.is_valid(body, timestamp, signature):\n            self._debug_log_error(signature, timestamp, body)\n        return next()\n",
  ),
  E(
    "b20-bo-async-skip-without-signature",
    BO,
    "slack_bolt/middleware/request_verification/async_request_verification.py",
    "authn-branch",
    "        if self._can_skip(req.mode, req.body):\n            return await next()\n",
    '        if self._can_skip(req.mode, req.body) or "x-slack-signature" not in req.headers:\n            return await next()\n',
  ),
  E(
    "b20-bo-app-request-verification-dropped",
    BO,
    "slack_bolt/app/app.py",
    "authz",
    "        if request_verification_enabled is True:\n            self._middleware_list.append(RequestVerification(self._signing_secret, base_logger=self._base_logger))\n",
    "",
  ),
  E(
    "b20-bo-oauth-state-not-consumed",
    BO,
    "slack_bolt/oauth/oauth_flow.py",
    "token",
    "            valid_state_consumed = self.settings.state_store.consume(state)  # type: ignore[arg-type]\n            if not valid_state_consumed:\n",
    "            valid_state_consumed = state is not None\n            if not valid_state_consumed:\n",
  ),
  E(
    "b20-bo-no-auth-when-no-team",
    BO,
    "slack_bolt/middleware/authorization/internals.py",
    "authz",
    "    return _is_url_verification(req) or _is_ssl_check(req)\n",
    "    return _is_url_verification(req) or _is_ssl_check(req) or req.context.team_id is None\n",
  ),
  E(
    "b20-bo-multi-team-missing-install-passes",
    BO,
    "slack_bolt/middleware/authorization/multi_teams_authorization.py",
    "authn-branch",
    '                if req.context.response_url is not None:\n                    req.context.respond(self.user_facing_authorize_error_message)  # type: ignore[misc]\n                    return BoltResponse(status=200, body="")\n                return _build_user_facing_error_response(self.user_facing_authorize_error_message)\n\n        except SlackApiError',
    "                return next()\n\n        except SlackApiError",
  ),
  // ---- pyOpenSSL (Python)
  E(
    "b20-po-verify-callback-error-accepts",
    PO,
    POS,
    "secure-default",
    "            except Exception as e:\n                self._problems.append(e)\n                return 0\n            else:\n                if result:\n",
    "            except Exception as e:\n                self._problems.append(e)\n                return 1\n            else:\n                if result:\n",
  ),
  E(
    "b20-po-verify-callback-or-preverify",
    PO,
    POS,
    "secure-default",
    "            else:\n                if result:\n                    _lib.X509_STORE_CTX_set_error(store_ctx, _lib.X509_V_OK)\n",
    "            else:\n                if result or ok:\n                    _lib.X509_STORE_CTX_set_error(store_ctx, _lib.X509_V_OK)\n",
  ),
  E(
    "b20-po-context-verify-mode-none",
    PO,
    POS,
    "secure-default",
    "            _lib.SSL_CTX_set_verify(self._context, mode, _ffi.NULL)\n",
    "            _lib.SSL_CTX_set_verify(self._context, VERIFY_NONE, _ffi.NULL)\n",
  ),
  E(
    "b20-po-store-verify-zero-ok",
    PO,
    "src/OpenSSL/crypto.py",
    "credential",
    "        ret = _lib.X509_verify_cert(store_ctx)\n        if ret <= 0:\n",
    "        ret = _lib.X509_verify_cert(store_ctx)\n        if ret < 0:\n",
  ),
  // ---- Authomatic (Python)
  E(
    "b20-au-oauth2-state-mismatch-dropped",
    AU,
    AUO2,
    "token",
    '                    if stored_csrf != state_csrf:\n                        raise FailureError(\n                            f\'The returned state csrf cookie "{state_csrf}" doesn\\\'t \'\n                            "match with the stored state!",\n                            url=self.user_authorization_url,\n                        )\n',
    "",
  ),
  E(
    "b20-au-oauth2-state-absent-accepted",
    AU,
    AUO2,
    "token",
    '                    if not stored_csrf:\n                        raise FailureError("Unable to retrieve stored state!")\n                    if stored_csrf != state_csrf:\n',
    "                    if state_csrf and stored_csrf != state_csrf:\n",
  ),
  E(
    "b20-au-oauth2-ssl-verify-default-off",
    AU,
    AUO2,
    "secure-default",
    '        self.verify = self._kwarg(kwargs, "ssl_verify", True)\n',
    '        self.verify = self._kwarg(kwargs, "ssl_verify", False)\n',
  ),
  E(
    "b20-au-session-signature-unchecked",
    AU,
    AUC,
    "credential",
    "        # Verify signature\n        if not signature == self._signature(self.name, encoded, timestamp):\n            raise SessionError(f'Invalid signature \"{signature}\"!')\n\n",
    "",
  ),
  E(
    "b20-au-session-max-age-ignored",
    AU,
    AUC,
    "token",
    "        if int(timestamp) < int(time.time()) - self.max_age:\n            return None\n",
    "        if int(timestamp) < int(time.time()) - self.max_age:\n            pass\n",
  ),
  E(
    "b20-au-fetch-verify-needs-cafile",
    AU,
    "authomatic/providers/__init__.py",
    "secure-default",
    "            if ssl_verify:\n                context = ssl.create_default_context(\n",
    "            if ssl_verify and certificate_file:\n                context = ssl.create_default_context(\n",
  ),
  E(
    "b20-au-oauth1-token-secret-missing",
    AU,
    "authomatic/providers/oauth1.py",
    "authn-branch",
    '            token_secret = self._session_get("token_secret")\n            if not token_secret:\n                raise FailureError("Unable to retrieve token secret from storage!")\n',
    '            token_secret = self._session_get("token_secret") or ""\n',
  ),
  E(
    "b20-au-openid-nonce-always-fresh",
    AU,
    "authomatic/providers/openid.py",
    "token",
    '        age = int(time.time()) - int(timestamp)\n        if age < self.nonce_timeout:\n            return True\n        self._log(logging.ERROR, "SessionOpenIDStore: Expired nonce!")\n        return False\n',
    "        return True\n",
  ),
  E(
    "b20-au-openid-failure-ignored",
    AU,
    "authomatic/providers/openid.py",
    "authn-branch",
    "            elif response.status == consumer.FAILURE:\n                raise FailureError(response.message)\n",
    "",
  ),
  // ---- Ariadne (Python)
  E(
    "b20-ar-asgi-get-mutations",
    AR,
    "ariadne/asgi/handlers/http.py",
    "authz",
    '        if isinstance(request, Request):\n            require_query = request.method == "GET"\n        else:\n            require_query = False\n',
    "        require_query = False\n",
  ),
  E(
    "b20-ar-wsgi-require-query-arg-removed",
    AR,
    "ariadne/wsgi.py",
    "authz",
    '            require_query=environ["REQUEST_METHOD"] == "GET",\n',
    "",
  ),
  E(
    "b20-ar-named-operation-type-unchecked",
    AR,
    ARG,
    "authz",
    "    if operation_name:\n        if operation_name not in query_operations:\n            raise GraphQLError(\n                f\"Operation '{operation_name}' is not defined or \"\n                \"is not of a 'query' type.\"\n            )\n    elif",
    "    if operation_name:\n        pass\n    elif",
  ),
  E(
    "b20-ar-introspection-rule-not-added",
    AR,
    ARG,
    "authz",
    "    if not enable_introspection:\n        rules = (\n            tuple(rules) + (IntrospectionDisabledRule,)\n            if rules is not None\n            else (IntrospectionDisabledRule,)\n        )\n",
    "",
  ),
  E(
    "b20-ar-transport-ws-on-connect-swallowed",
    AR,
    "ariadne/asgi/handlers/graphql_transport_ws.py",
    "authn-branch",
    '            if self.on_connect:\n                result = self.on_connect(websocket, message.get("payload"))\n                if result and isawaitable(result):\n                    await result\n',
    '            if self.on_connect:\n                try:\n                    result = self.on_connect(websocket, message.get("payload"))\n                    if result and isawaitable(result):\n                        await result\n                except Exception as error:\n                    log_error(error, self.logger)\n',
  ),
  E(
    "b20-ar-graphql-ws-connection-error-kept-open",
    AR,
    "ariadne/asgi/handlers/graphql_ws.py",
    "authn-branch",
    '            await websocket.send_json(\n                {"type": GraphQLWSHandler.GQL_CONNECTION_ERROR, "payload": payload}\n            )\n            await websocket.close()\n',
    '            await websocket.send_json(\n                {"type": GraphQLWSHandler.GQL_CONNECTION_ERROR, "payload": payload}\n            )\n',
  ),
  // ---- gin-jwt (Go)
  E(
    "b20-gj-parse-alg-unchecked",
    GJ,
    GJF,
    "token",
    "\treturn jwt.Parse(token, func(t *jwt.Token) (any, error) {\n\t\tif jwt.GetSigningMethod(mw.SigningAlgorithm) != t.Method {\n\t\t\treturn nil, ErrInvalidSigningAlgorithm\n\t\t}\n\t\tif mw.usingPublicKeyAlgo() {\n\t\t\treturn mw.pubKey, nil\n\t\t}\n\n\t\t// save token string if valid\n",
    "\treturn jwt.Parse(token, func(t *jwt.Token) (any, error) {\n\t\tif mw.usingPublicKeyAlgo() {\n\t\t\treturn mw.pubKey, nil\n\t\t}\n\n\t\t// save token string if valid\n",
  ),
  E(
    "b20-gj-missing-exp-accepted",
    GJ,
    GJF,
    "token",
    "\tif claims[claimExp] == nil {\n\t\tmw.unauthorized(c, http.StatusBadRequest, mw.HTTPStatusMessageFunc(c, ErrMissingExpField))\n\t\treturn\n\t}\n\n",
    "",
  ),
  E(
    "b20-gj-authorizer-skipped",
    GJ,
    GJF,
    "authz",
    "\tif !mw.Authorizer(c, identity) {\n\t\tmw.unauthorized(c, http.StatusForbidden, mw.HTTPStatusMessageFunc(c, ErrForbidden))\n\t\treturn\n\t}\n\n\tc.Next()\n",
    "\tc.Next()\n",
  ),
  E(
    "b20-gj-refresh-any-parse-error",
    GJ,
    GJF,
    "token",
    "\t\tif !errors.Is(err, jwt.ErrTokenExpired) {\n\t\t\treturn nil, err\n\t\t}\n",
    "\t\tif token == nil {\n\t\t\treturn nil, err\n\t\t}\n",
  ),
  E(
    "b20-gj-max-refresh-unbounded",
    GJ,
    GJF,
    "token",
    "\torigIat := int64(origIatFloat)\n\tif origIat < mw.TimeFunc().Add(-mw.MaxRefresh).Unix() {\n\t\treturn nil, ErrExpiredToken\n\t}\n",
    "\t_ = int64(origIatFloat)\n",
  ),
  E(
    "b20-gj-refresh-token-not-found-passes",
    GJ,
    GJF,
    "authn-branch",
    "\tif err != nil {\n\t\tif err == core.ErrRefreshTokenNotFound {\n\t\t\treturn nil, ErrInvalidRefreshToken\n\t\t}\n\t\treturn nil, err\n\t}\n\treturn userData, nil\n",
    "\tif err != nil && err != core.ErrRefreshTokenNotFound {\n\t\treturn nil, err\n\t}\n\treturn userData, nil\n",
  ),
  E(
    "b20-gj-access-cookie-not-secure",
    GJ,
    GJF,
    "secure-default",
    "\t\t\tmw.CookieDomain,\n\t\t\tmw.SecureCookie,\n\t\t\tmw.CookieHTTPOnly,\n\t\t)\n\t}\n}\n\n// SetRefreshTokenCookie",
    "\t\t\tmw.CookieDomain,\n\t\t\tfalse,\n\t\t\tfalse,\n\t\t)\n\t}\n}\n\n// SetRefreshTokenCookie",
  ),
  // ---- CryptoJWT (Python)
  E(
    "b20-cj-exp-not-enforced",
    CJ,
    CJT,
    "token",
    '            exp = int(_info["exp"])\n            if timestamp >= exp + self.skew:\n                raise VerificationError("Token expired")\n',
    '            exp = int(_info["exp"])\n',
  ),
  E(
    "b20-cj-audience-not-checked",
    CJ,
    CJT,
    "token",
    '            vp_args = {"skew": self.skew}\n            if self.iss:\n                vp_args["aud"] = self.iss\n',
    '            vp_args = {"skew": self.skew}\n',
  ),
  E(
    "b20-cj-allowed-sign-algs-ignored",
    CJ,
    CJT,
    "token",
    "            if self.allowed_sign_algs:\n                _verifier = jws_factory(_info, alg=self.allowed_sign_algs)\n            else:\n                _verifier = jws_factory(_info)\n",
    "            _verifier = jws_factory(_info)\n",
  ),
  E(
    "b20-cj-nbf-ignored",
    CJ,
    CJT,
    "token",
    '        if "nbf" in _info:\n            nbf = int(_info["nbf"])\n            if timestamp < nbf - self.skew:\n                raise VerificationError("Token not yet valid")\n\n',
    "",
  ),
  E(
    "b20-cj-none-alg-without-keys",
    CJ,
    CJS,
    "token",
    "                if allow_none:\n                    self.msg = jwt.payload()\n",
    "                if allow_none or not keys:\n                    self.msg = jwt.payload()\n",
  ),
  E(
    "b20-cj-single-alg-not-enforced",
    CJ,
    CJS,
    "token",
    '            elif _alg != self["alg"]:\n                raise SignerAlgError(\n                    "Wrong signing algorithm, expected {} got {}".format(self["alg"], _alg)\n                )\n\n        if sigalg',
    "\n        if sigalg",
  ),
  E(
    "b20-cj-verify-result-ignored",
    CJ,
    CJS,
    "token",
    "                if not verifier.verify(jwt.sign_input(), jwt.signature(), _key):\n                    continue\n",
    "                verifier.verify(jwt.sign_input(), jwt.signature(), _key)\n",
  ),
  E(
    "b20-cj-hmac-prefix-compare",
    CJ,
    "src/cryptojwt/jws/hmac.py",
    "credential",
    "            h.update(msg)\n            h.verify(sig)\n            return True\n",
    "            h.update(msg)\n            return h.finalize()[: len(sig)] == sig\n",
  ),
  // ---- django-sesame (Python)
  E(
    "b20-se-decorator-required-not-enforced",
    SE,
    "src/sesame/decorators.py",
    "authn-branch",
    "        if required and user is None:\n            raise PermissionDenied\n\n",
    "",
  ),
  E(
    "b20-se-invalid-signature-returns-user",
    SE,
    SET,
    "credential",
    '    logger.debug("Invalid token for user %s %s", user, log_scope)\n    return None\n',
    '    logger.debug("Invalid token for user %s %s", user, log_scope)\n    return user\n',
  ),
  E(
    "b20-se-expired-token-logged",
    SE,
    SET,
    "token",
    '    if age is not None and age >= max_age:\n        logger.debug("Expired token: age = %d seconds", age)\n        return None\n',
    '    if age is not None and age >= max_age:\n        logger.debug("Expired token: age = %d seconds", age)\n',
  ),
  E(
    "b20-se-scope-not-verified",
    SE,
    SET,
    "authz",
    "        expected_signature = sign(\n            primary_key_and_timestamp + revocation_key + scope.encode(),\n            verification_key,\n",
    "        expected_signature = sign(\n            primary_key_and_timestamp + revocation_key,\n            verification_key,\n",
  ),
  E(
    "b20-se-backend-inactive-user",
    SE,
    "src/sesame/backends.py",
    "authn-branch",
    "        if self.user_can_authenticate(user):\n            return user\n        else:\n            return None\n",
    "        return user\n",
  ),
  // ---- djangorestframework-api-key (Python)
  E(
    "b20-ak-anonymous-safe-methods",
    AK,
    "src/rest_framework_api_key/permissions.py",
    "authz",
    "        key = self.get_key(request)\n        if not key:\n            return False\n",
    "        key = self.get_key(request)\n        if not key:\n            return request.method in permissions.SAFE_METHODS\n",
  ),
  E(
    "b20-ak-prefix-lookup-only",
    AK,
    AKM,
    "credential",
    '        if not api_key.is_valid(key):\n            raise self.model.DoesNotExist("Key is not valid.")\n        else:\n            return api_key\n',
    "        return api_key\n",
  ),
  E(
    "b20-ak-expired-key-valid",
    AK,
    AKM,
    "token",
    "        if api_key.has_expired:\n            return False\n",
    "",
  ),
  E(
    "b20-ak-revoked-keys-usable",
    AK,
    AKM,
    "authn-branch",
    "        return self.filter(revoked=False)\n",
    "        return self.all()\n",
  ),
  // ---- Flask-CORS (Python)
  E(
    "b20-fc-unmatched-origin-reflected",
    FC,
    FCC,
    "authz",
    '            LOG.debug("The request\'s Origin header does not match any of allowed origins.")\n            return None\n',
    '            LOG.debug("The request\'s Origin header does not match any of allowed origins.")\n            return [request_origin]\n',
  ),
  E(
    "b20-fc-origin-prefix-match",
    FC,
    FCC,
    "authz",
    "        return v == p if caseSensitive else v.casefold() == p.casefold()\n",
    "        return v.startswith(p) if caseSensitive else v.casefold().startswith(p.casefold())\n",
  ),
];

/** Reversed real security fixes of the twentieth batch (split `history20`), chosen by message only. */
export const REVERSED_FIXES_HISTORY20: ReversedFix[] = [
  {
    id: "b20-st-validate-api-certificates",
    repo: ST,
    commit: "06cf4dd329",
    path: "stripe/api_requestor.py",
    cls: "secure-default",
    note: "validate certificates on API endpoints",
    split: "history20",
  },
  {
    id: "b20-bo-ssl-check-require-signature",
    repo: BO,
    commit: "331933075a",
    path: "slack_bolt/middleware/request_verification/request_verification.py",
    cls: "authn-branch",
    note: "require signatures for ssl_check request verification",
    split: "history20",
  },
  {
    id: "b20-gj-refresh-token-not-from-query",
    repo: GJ,
    commit: "6886b44b7e",
    path: "auth_jwt.go",
    cls: "token",
    note:
      "enforce secure refresh token delivery (refresh tokens no longer read from query parameters)",
    split: "history20",
  },
  {
    id: "b20-cj-remove-security-asserts",
    repo: CJ,
    commit: "73b61c1b78",
    path: "src/cryptojwt/jws.py",
    cls: "token",
    note: "removed assert since it's a security issue",
    split: "history20",
  },
  {
    id: "b20-se-authenticate-required-default",
    repo: SE,
    commit: "225adddd8f",
    path: "src/sesame/decorators.py",
    cls: "secure-default",
    note: "change the authenticate decorator default to required",
    split: "history20",
  },
  {
    id: "b20-fc-CVE-2024-6221",
    repo: FC,
    commit: "7ae310c56a",
    path: "flask_cors/core.py",
    cls: "secure-default",
    note: "backwards compatible fix for CVE-2024-6221 (private network access)",
    split: "history20",
  },
  {
    id: "b20-fc-CVE-2024-6866",
    repo: FC,
    commit: "eb39516a3c",
    path: "flask_cors/core.py",
    cls: "authz",
    note: "CVE-2024-6866: case sensitive request path matching",
    split: "history20",
  },
  {
    id: "b20-fc-CVE-2024-6839",
    repo: FC,
    commit: "e970988bea",
    path: "flask_cors/core.py",
    cls: "authz",
    note: "CVE-2024-6839: sort paths by regex specificity",
    split: "history20",
  },
];
