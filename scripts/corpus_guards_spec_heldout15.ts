/**
 * Fifteenth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (@hapi/hapi, @hapi/jwt, ws, node-forge,
 * jsrsasign, oauth4webapi, node-casbin, accesscontrol, passport-http, pquerna/otp, dj-rest-auth),
 * chosen the way a careless refactor or an attacker would weaken them, before any measurement.
 * Reversed fixes were picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H15 = "heldout15" as const;
const HAPI = "hapijs/hapi";
const HAPI_AUTH = "lib/auth.js";
const HJWT = "hapijs/jwt";
const HJWT_TOKEN = "lib/token.js";
const HJWT_PLUGIN = "lib/plugin.js";
const WS = "websockets/ws";
const WS_CLIENT = "lib/websocket.js";
const WS_SERVER = "lib/websocket-server.js";
const FORGE = "digitalbazaar/forge";
const FORGE_X509 = "lib/x509.js";
const JRS = "kjur/jsrsasign";
const JRS_JWS = "src/jws-3.3.js";
const O4W = "panva/oauth4webapi";
const O4W_INDEX = "src/index.ts";
const CASBIN = "casbin/node-casbin";
const AC = "onury/accesscontrol";
const AC_GRANTS = "src/utils/grants.ts";
const PH = "jaredhanson/passport-http";
const PH_BASIC = "lib/passport-http/strategies/basic.js";
const PH_DIGEST = "lib/passport-http/strategies/digest.js";
const OTP = "pquerna/otp";
const DRA = "iMerica/dj-rest-auth";
const DRA_SER = "dj_rest_auth/serializers.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H15);

/** The fifteenth held-out batch of edits (split `heldout15`). */
export const EDITS_HELDOUT15: GuardEdit[] = [
  // ---- @hapi/hapi (JS)
  E(
    "hapi-route-access-step-commented",
    HAPI,
    "lib/route.js",
    "authz",
    "        if (this._core.auth._enabled(this, 'access')) {\n            this._cycle.push(Auth.access);\n        }\n",
    "        // if (this._core.auth._enabled(this, 'access')) {\n        //     this._cycle.push(Auth.access);\n        // }\n",
  ),
  E(
    "hapi-scope-forbidden-dropped",
    HAPI,
    HAPI_AUTH,
    "authz",
    "                if (!internals.validateScope(credentials, scope, 'required') ||\n                    !internals.validateScope(credentials, scope, 'selection') ||\n                    !internals.validateScope(credentials, scope, 'forbidden')) {\n",
    "                if (!internals.validateScope(credentials, scope, 'required') ||\n                    !internals.validateScope(credentials, scope, 'selection')) {\n",
  ),
  E(
    "hapi-access-unauthenticated-no-throw",
    HAPI,
    HAPI_AUTH,
    "authz",
    "            throw Boom.forbidden('Request is unauthenticated');\n",
    "            return false;\n",
  ),
  E(
    "hapi-missing-auth-required-mode",
    HAPI,
    HAPI_AUTH,
    "authn-branch",
    "        const err = Boom.unauthorized('Missing authentication', errors);\n        if (config.mode === 'required') {\n            throw err;\n        }\n",
    "        const err = Boom.unauthorized('Missing authentication', errors);\n",
  ),
  E(
    "hapi-validate-error-returns",
    HAPI,
    HAPI_AUTH,
    "authn-branch",
    "    request._log(['auth', 'unauthenticated', 'error', name], err);\n    throw err;\n",
    "    request._log(['auth', 'unauthenticated', 'error', name], err);\n    return;\n",
  ),
  E(
    "hapi-verify-auth-error-ignored",
    HAPI,
    HAPI_AUTH,
    "authn-branch",
    "        const auth = request.auth;\n\n        if (auth.error) {\n            throw auth.error;\n        }\n\n",
    "        const auth = request.auth;\n\n",
  ),
  // ---- @hapi/jwt (JS)
  E(
    "hjwt-verify-signature-call",
    HJWT,
    HJWT_TOKEN,
    "token",
    "    exports.verifySignature(artifacts, secret);\n",
    "",
  ),
  E(
    "hjwt-alg-allowlist",
    HJWT,
    HJWT_TOKEN,
    "token",
    "    if (!algorithms.includes(decoded.header.alg)) {\n        throw new Error('Unsupported algorithm');\n    }\n",
    "",
  ),
  E(
    "hjwt-exp-check",
    HJWT,
    HJWT_TOKEN,
    "token",
    "        if (payload.exp <= nowSec - skewSec) {\n            throw new Error('Token expired');\n        }\n",
    "",
  ),
  E(
    "hjwt-audience-no-match-returns",
    HJWT,
    HJWT_TOKEN,
    "token",
    "    throw new Error('Token audience is not allowed');\n",
    "    return;\n",
  ),
  E(
    "hjwt-hmac-plain-compare",
    HJWT,
    "lib/crypto.js",
    "credential",
    "            return Cryptiles.fixedTimeComparison(signature, compare);\n",
    "            return signature === compare;\n",
  ),
  E(
    "hjwt-jwks-reject-unauthorized-default",
    HJWT,
    HJWT_PLUGIN,
    "secure-default",
    "                rejectUnauthorized: Joi.boolean().default(true),\n",
    "                rejectUnauthorized: Joi.boolean().default(false),\n",
  ),
  E(
    "hjwt-validate-invalid-ignored",
    HJWT,
    HJWT_PLUGIN,
    "authn-branch",
    "                if (!isValid) {\n                    return h.unauthenticated(unauthorized('Invalid credentials'), result);\n                }\n",
    "",
  ),
  E(
    "hjwt-no-keys-continues",
    HJWT,
    HJWT_PLUGIN,
    "authn-branch",
    "            if (!result.artifacts.keys) {\n                return h.unauthenticated(unauthorized(''), result);\n            }\n",
    "",
  ),
  // ---- ws (JS)
  E(
    "ws-verifyclient-callback-ignored",
    WS,
    WS_SERVER,
    "authz",
    "          if (!verified) {\n            return abortHandshake(socket, code || 401, message, headers);\n          }\n\n",
    "",
  ),
  E(
    "ws-verifyclient-sync-result-unused",
    WS,
    WS_SERVER,
    "authz",
    "      if (!this.options.verifyClient(info)) return abortHandshake(socket, 401);\n",
    "      this.options.verifyClient(info);\n",
  ),
  E(
    "ws-verifyclient-secure-flag",
    WS,
    WS_SERVER,
    "secure-default",
    "        secure: !!(req.socket.authorized || req.socket.encrypted),\n",
    "        secure: true,\n",
  ),
  E(
    "ws-redirect-strip-only-on-downgrade",
    WS,
    WS_CLIENT,
    "secure-default",
    "      if (!isSameHost || (websocket._originalSecure && !isSecure)) {\n",
    "      if (websocket._originalSecure && !isSecure) {\n",
  ),
  E(
    "ws-redirect-authorization-kept",
    WS,
    WS_CLIENT,
    "secure-default",
    "        delete opts.headers.authorization;\n        delete opts.headers.cookie;\n",
    "        delete opts.headers.cookie;\n",
  ),
  // ---- node-forge (JS)
  E(
    "forge-chain-self-signed-trusted",
    FORGE,
    FORGE_X509,
    "secure-default",
    "      if(error === null && (!parent || selfSigned) &&\n        !caStore.hasCertificate(cert)) {\n",
    "      if(error === null && !parent &&\n        !caStore.hasCertificate(cert)) {\n",
  ),
  E(
    "forge-chain-verify-exception-accepts",
    FORGE,
    FORGE_X509,
    "secure-default",
    "          } catch(ex) {\n            // failure to verify, don't care why, try next one\n          }\n",
    "          } catch(ex) {\n            // failure to verify, don't care why\n            verified = true;\n          }\n",
  ),
  E(
    "forge-chain-validity-date-default",
    FORGE,
    FORGE_X509,
    "secure-default",
    "  if(typeof validityCheckDate === 'undefined') {\n    validityCheckDate = new Date();\n  }\n",
    "  if(typeof validityCheckDate === 'undefined') {\n    validityCheckDate = null;\n  }\n",
  ),
  E(
    "forge-chain-ca-flag",
    FORGE,
    FORGE_X509,
    "secure-default",
    "      // basic constraints cA flag must be set\n      if(error === null && bcExt !== null && !bcExt.cA) {\n        // bad certificate\n        error = {\n          message:\n            'Certificate basicConstraints indicates the certificate ' +\n            'is not a CA.',\n          error: pki.certificateError.bad_certificate\n        };\n      }\n",
    "",
  ),
  E(
    "forge-p12-mac-throw-commented",
    FORGE,
    "lib/pkcs12.js",
    "credential",
    "      throw new Error('PKCS#12 MAC could not be verified. Invalid password?');\n",
    "      // throw new Error('PKCS#12 MAC could not be verified. Invalid password?');\n",
  ),
  E(
    "forge-p12-mac-missing-accepted",
    FORGE,
    "lib/pkcs12.js",
    "credential",
    "  } else if(Array.isArray(obj.value) && obj.value.length > 2) {\n    /* This is pfx data that should have mac and verify macDigest */\n    throw new Error('Invalid PKCS#12. macData field present but MAC was not validated.');\n  }\n",
    "  }\n",
  ),
  // ---- jsrsasign (JS)
  E(
    "jrs-jwt-alg-accept-list",
    JRS,
    JRS_JWS,
    "token",
    "    if (! _inArray(pHeader.alg, acceptField.alg)) return false;\n",
    "",
  ),
  E(
    "jrs-jwt-aud-string-logged",
    JRS,
    JRS_JWS,
    "token",
    "\t    if (! _inArray(pPayload.aud, acceptField.aud))\n\t\treturn false;\n",
    '\t    if (! _inArray(pPayload.aud, acceptField.aud))\n\t\tconsole.warn("jwt: unexpected aud " + pPayload.aud);\n',
  ),
  E(
    "jrs-jwt-exp",
    JRS,
    JRS_JWS,
    "token",
    "    // 8.1 expired time 'exp' check\n    if (pPayload.exp !== undefined && typeof pPayload.exp == \"number\") {\n\tif (pPayload.exp + acceptField.gracePeriod < now) return false;\n    }\n",
    "",
  ),
  E(
    "jrs-jwt-signature-result-unused",
    JRS,
    JRS_JWS,
    "token",
    "    if (! _KJUR_jws_JWS.verify(sJWT, key, acceptField.alg)) return false;\n",
    "    _KJUR_jws_JWS.verify(sJWT, key, acceptField.alg);\n",
  ),
  E(
    "jrs-hmac-plain-compare",
    JRS,
    JRS_JWS,
    "credential",
    "\treturn timingSafeEqual(hSig, hSig2);\n",
    "\treturn hSig == hSig2;\n",
  ),
  // ---- oauth4webapi (TS)
  E(
    "o4w-state-presence-only",
    O4W,
    O4W_INDEX,
    "token",
    "      if (state !== expectedState) {\n",
    "      if (state === undefined) {\n",
  ),
  E(
    "o4w-auth-response-iss",
    O4W,
    O4W_INDEX,
    "token",
    "  if (iss && iss !== as.issuer) {\n    throw OPE('unexpected \"iss\" (issuer) response parameter value', INVALID_RESPONSE, {\n      expected: as.issuer,\n      parameters,\n    })\n  }\n\n",
    "",
  ),
  E(
    "o4w-jws-signature-warns",
    O4W,
    O4W_INDEX,
    "token",
    "  if (!verified) {\n    throw OPE('JWT signature verification failed', INVALID_RESPONSE, {\n",
    "  if (!verified) {\n    console.warn('JWT signature verification failed', INVALID_RESPONSE, {\n",
  ),
  E(
    "o4w-aud-array-nonempty",
    O4W,
    O4W_INDEX,
    "token",
    "    if (!result.claims.aud.includes(expected)) {\n",
    "    if (!result.claims.aud.length) {\n",
  ),
  E(
    "o4w-alg-unconfigured-accepted",
    O4W,
    O4W_INDEX,
    "token",
    "  throw OPE(\n    'missing client or server configuration to verify used JWT \"alg\" header parameter',\n    undefined,\n    { client, issuer, fallback },\n  )\n",
    "  return\n",
  ),
  E(
    "o4w-https-opt-in",
    O4W,
    O4W_INDEX,
    "secure-default",
    "  checkProtocol(url, options?.[allowInsecureRequests] !== true)\n",
    "  checkProtocol(url, options?.[allowInsecureRequests] === false)\n",
  ),
  // ---- node-casbin (TS)
  E(
    "casbin-allow-and-deny-deny-branch",
    CASBIN,
    "src/effect/defaultEffectorStream.ts",
    "authz",
    "        } else if (eft === Effect.Deny) {\n          this.res = false;\n          this.done = true;\n          this.rec = true;\n        } else {\n          this.rec = false;\n        }\n",
    "        } else {\n          this.rec = false;\n        }\n",
  ),
  E(
    "casbin-matcher-unknown-result-allows",
    CASBIN,
    "src/coreEnforcer.ts",
    "authz",
    "          default:\n            throw new Error('matcher result should only be of type boolean, number, or string');\n",
    "          default:\n            eftRes = Effect.Allow;\n",
  ),
  E(
    "casbin-enforcer-enabled-default",
    CASBIN,
    "src/coreEnforcer.ts",
    "secure-default",
    "  protected enabled = true;\n",
    "  protected enabled = false;\n",
  ),
  E(
    "casbin-policy-deny-effect-as-indeterminate",
    CASBIN,
    "src/coreEnforcer.ts",
    "authz",
    "          } else if (eft === 'deny') {\n            eftRes = Effect.Deny;\n          } else {\n",
    "          } else if (eft === 'deny') {\n            eftRes = Effect.Indeterminate;\n          } else {\n",
  ),
  // ---- accesscontrol (TS)
  E(
    "ac-own-record-gate",
    AC,
    AC_GRANTS,
    "authz",
    "  if (s.possession === 'own' && rPoss === 'own' && !ownsRecord(ctx, s.resource, options)) {\n    flags.ownFail = true;\n    return;\n  }\n",
    "",
  ),
  E(
    "ac-deny-rule-commented",
    AC,
    AC_GRANTS,
    "authz",
    "    if (rPoss === s.possession) acc.denied = NotationGlob.union(acc.denied, rule.attributes);\n",
    "    // if (rPoss === s.possession) acc.denied = NotationGlob.union(acc.denied, rule.attributes);\n",
  ),
  E(
    "ac-own-grant-applies-to-any",
    AC,
    AC_GRANTS,
    "authz",
    "    const applies = s.possession === 'any' ? rPoss === 'any' : true;\n",
    "    const applies = true;\n",
  ),
  E(
    "ac-negated-attributes-grant",
    AC,
    AC_GRANTS,
    "authz",
    "  return attributes.length > 0 && attributes.some((a) => a.trim().slice(0, 1) !== '!');\n",
    "  return attributes.length > 0;\n",
  ),
  // ---- passport-http (JS)
  E(
    "ph-basic-empty-password",
    PH,
    PH_BASIC,
    "credential",
    "  if (!userid || !password) {\n",
    "  if (!userid) {\n",
  ),
  E(
    "ph-basic-no-user-succeeds",
    PH,
    PH_BASIC,
    "authn-branch",
    "    if (!user) { return self.fail(self._challenge()); }\n    self.success(user);\n",
    "    self.success(user);\n",
  ),
  E(
    "ph-digest-response-presence",
    PH,
    PH_DIGEST,
    "credential",
    "    if (creds.response != digest) {\n",
    "    if (!creds.response) {\n",
  ),
  E(
    "ph-digest-nonce-validate-ignored",
    PH,
    PH_DIGEST,
    "token",
    "            if (err) { return self.error(err); }\n            if (!valid) { return self.fail(self._challenge()); }\n            self.success(user);\n",
    "            if (err) { return self.error(err); }\n            self.success(user);\n",
  ),
  E(
    "ph-digest-uri-mismatch",
    PH,
    PH_DIGEST,
    "authn-branch",
    "  if (req.url !== creds.uri) {\n    return this.fail(400);\n  }\n",
    "",
  ),
  E(
    "ph-digest-unknown-user",
    PH,
    PH_DIGEST,
    "authn-branch",
    "    if (err) { return self.error(err); }\n    if (!user) { return self.fail(self._challenge()); }\n    \n    var ha1;\n",
    "    if (err) { return self.error(err); }\n    \n    var ha1;\n",
  ),
  // ---- pquerna/otp (Go)
  E(
    "otp-hotp-prefix-compare",
    OTP,
    "hotp/hotp.go",
    "credential",
    "\tif len(passcode) != opts.Digits.Length() {\n\t\treturn false, otp.ErrValidateInputInvalidLength\n\t}\n\n\totpstr, err := GenerateCodeCustom(secret, counter, opts)\n\tif err != nil {\n\t\treturn false, err\n\t}\n\n\tif subtle.ConstantTimeCompare([]byte(otpstr), []byte(passcode)) == 1 {\n",
    "\totpstr, err := GenerateCodeCustom(secret, counter, opts)\n\tif err != nil {\n\t\treturn false, err\n\t}\n\n\tif len(passcode) <= len(otpstr) && subtle.ConstantTimeCompare([]byte(otpstr[:len(passcode)]), []byte(passcode)) == 1 {\n",
  ),
  E(
    "otp-totp-validate-skew",
    OTP,
    "totp/totp.go",
    "credential",
    "\t\ttime.Now().UTC(),\n\t\tValidateOpts{\n\t\t\tPeriod:    30,\n\t\t\tSkew:      1,\n",
    "\t\ttime.Now().UTC(),\n\t\tValidateOpts{\n\t\t\tPeriod:    30,\n\t\t\tSkew:      20,\n",
  ),
  E(
    "otp-totp-error-counter-accepts",
    OTP,
    "totp/totp.go",
    "credential",
    "\t\tif err != nil {\n\t\t\treturn false, err\n\t\t}\n\n\t\tif rv == true {\n\t\t\treturn true, nil\n\t\t}\n",
    "\t\tif err != nil || rv == true {\n\t\t\treturn true, err\n\t\t}\n",
  ),
  // ---- dj-rest-auth (Python)
  E(
    "dra-login-no-user",
    DRA,
    DRA_SER,
    "authn-branch",
    "        if not user:\n            msg = _('Unable to log in with provided credentials.')\n            raise exceptions.ValidationError(msg)\n\n",
    "",
  ),
  E(
    "dra-login-inactive-user",
    DRA,
    DRA_SER,
    "authn-branch",
    "        # Did we get back an active user?\n        self.validate_auth_user_status(user)\n\n",
    "",
  ),
  E(
    "dra-login-email-verification",
    DRA,
    DRA_SER,
    "authn-branch",
    "        if (\n            allauth_account_settings.EMAIL_VERIFICATION == allauth_account_settings.EmailVerificationMethod.MANDATORY and not user.emailaddress_set.filter(email=user.email, verified=True).exists()\n        ):\n            raise serializers.ValidationError(_('E-mail is not verified.'))\n",
    "        pass\n",
  ),
  E(
    "dra-reset-token-check",
    DRA,
    DRA_SER,
    "token",
    "        if not default_token_generator.check_token(self.user, attrs['token']):\n            raise ValidationError({'token': [_('Invalid value')]})\n",
    "",
  ),
  E(
    "dra-old-password-check",
    DRA,
    DRA_SER,
    "credential",
    "            self.user,\n            not self.user.check_password(value),\n        )\n",
    "            self.user,\n        )\n",
  ),
  E(
    "dra-jwt-httponly-default",
    DRA,
    "dj_rest_auth/app_settings.py",
    "secure-default",
    "    'JWT_AUTH_HTTPONLY': True,\n",
    "    'JWT_AUTH_HTTPONLY': False,\n",
  ),
  E(
    "dra-jwt-cookie-csrf",
    DRA,
    "dj_rest_auth/jwt_auth.py",
    "authz",
    "                elif raw_token is not None and api_settings.JWT_AUTH_COOKIE_USE_CSRF:\r\n                    self.enforce_csrf(request)\r\n",
    "",
  ),
];

/** Real security fixes from the batch's projects, reversed (split `history15`). */
export const REVERSED_FIXES_HISTORY15: ReversedFix[] = [
  {
    id: "forge-GHSA-2328-basic-constraints",
    repo: FORGE,
    commit: "2e49283",
    path: FORGE_X509,
    cls: "secure-default",
    note: "chain verification rejects non-leaf certificates without basicConstraints",
    split: "history15",
  },
  {
    id: "forge-GHSA-ppp5-rsa-padding",
    repo: FORGE,
    commit: "af094e6",
    path: "lib/rsa.js",
    cls: "token",
    note: "RSA padding and DigestInfo length checks (GHSA-ppp5-5v6c-4jwp)",
    split: "history15",
  },
  {
    id: "forge-rsa-signature-verification",
    repo: FORGE,
    commit: "3f0b49a",
    path: "lib/rsa.js",
    cls: "token",
    note: "RSA PKCS#1 v1.5 signature verification issues allowing forgery",
    split: "history15",
  },
  {
    id: "jrs-CVE-2022-25898-jws-validation",
    repo: JRS,
    commit: "4536a6e",
    path: JRS_JWS,
    cls: "token",
    note: "CVE-2022-25898 security fix in JWS and JWT validation",
    split: "history15",
  },
  {
    id: "ws-redirect-drop-sensitive-headers",
    repo: WS,
    commit: "6946f5fe",
    path: WS_CLIENT,
    cls: "secure-default",
    note: "drop sensitive headers when following redirects",
    split: "history15",
  },
  {
    id: "ws-insecure-redirect-drop-headers",
    repo: WS,
    commit: "d68ba9e1",
    path: WS_CLIENT,
    cls: "secure-default",
    note: "drop sensitive headers when following insecure redirects",
    split: "history15",
  },
  {
    id: "ws-unix-redirect-same-host",
    repo: WS,
    commit: "bc8bd34e",
    path: WS_CLIENT,
    cls: "secure-default",
    note: "fix same host check for ws+unix: redirects",
    split: "history15",
  },
  {
    id: "dra-jwt-cookie-csrf-checks",
    repo: DRA,
    commit: "0bf7111",
    path: "dj_rest_auth/jwt_auth.py",
    cls: "authz",
    note: "CSRF checks on authenticated views when the client uses JWT cookie auth",
    split: "history15",
  },
  {
    id: "dra-httponly-refresh-not-in-body",
    repo: DRA,
    commit: "4416ee1",
    path: "dj_rest_auth/jwt_auth.py",
    cls: "secure-default",
    note: "remove tokens from the response body when the httpOnly cookie is used",
    split: "history15",
  },
  {
    id: "otp-hotp-constant-time-compare",
    repo: OTP,
    commit: "f3382e7",
    path: "hotp/hotp.go",
    cls: "credential",
    note: "use subtle.ConstantTimeCompare for the passcode comparison",
    split: "history15",
  },
];
