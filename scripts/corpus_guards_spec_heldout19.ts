/**
 * Nineteenth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (oidc-client-ts, node-jose, SvelteKit,
 * koa-csrf, koa-cors, connect-ensure-login, NestJS throttler, cookie, keycloak-js,
 * fastify-helmet, node-oidc-provider and others), chosen the way a careless refactor or an
 * attacker would weaken them, before any measurement. Reversed fixes were picked by commit message
 * or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H19 = "heldout19" as const;
const OC = "authts/oidc-client-ts";
const OCV = "src/ResponseValidator.ts";
const NJ = "cisco/node-jose";
const NJH = "lib/algorithms/hmac.js";
const SK = "sveltejs/kit";
const KCS = "koajs/csrf";
const KCO = "koajs/cors";
const CEL = "jaredhanson/connect-ensure-login";
const NT = "nestjs/throttler";
const NTG = "src/throttler.guard.ts";
const CK = "jshttp/cookie";
const KJ = "keycloak/keycloak-js";
const KJS = "lib/keycloak.js";
const FH = "fastify/fastify-helmet";
const OP = "panva/node-oidc-provider";
const OPC = "lib/shared/client_auth.js";
const OPJ = "lib/shared/jwt_client_auth.js";
const OPG = "lib/helpers/grant_common.js";
const OPU = "lib/actions/userinfo.js";
const HB = "jaredhanson/passport-http-bearer";
const HA = "gevorg/http-auth";
const HAB = "src/auth/basic.js";
const HAD = "src/auth/digest.js";
const S2 = "mscdex/ssh2";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H19);

/** The nineteenth held-out batch of edits (split `heldout19`). */
export const EDITS_HELDOUT19: GuardEdit[] = [
  // ---- oidc-client-ts (TypeScript)
  E(
    "ocl-signout-state-unchecked",
    OC,
    OCV,
    "token",
    '        const logger = this._logger.create("validateSignoutResponse");\n        if (state.id !== response.state) {\n            logger.throw(new Error("State does not match"));\n        }\n',
    '        const logger = this._logger.create("validateSignoutResponse");\n',
  ),
  E(
    "ocl-signin-authority-mismatch",
    OC,
    OCV,
    "token",
    '        // ensure we\'re using the correct authority\n        if (this._settings.authority !== state.authority) {\n            logger.throw(new Error("authority mismatch on settings vs. signin state"));\n        }\n',
    "",
  ),
  E(
    "ocl-nonce-optional-claim",
    OC,
    OCV,
    "token",
    "        if (nonce && incoming.nonce !== nonce) {\n",
    "        if (nonce && incoming.nonce && incoming.nonce !== nonce) {\n",
  ),
  E(
    "ocl-refresh-sub-switch",
    OC,
    OCV,
    "token",
    '            if (incoming.sub !== existing.sub) {\n                logger.throw(new Error("sub in id_token does not match current sub"));\n            }\n',
    "",
  ),
  E(
    "ocl-userinfo-sub-warn-only",
    OC,
    OCV,
    "authn-branch",
    '            logger.throw(new Error("subject from UserInfo response does not match subject in ID Token"));\n',
    '            logger.warn("subject from UserInfo response does not match subject in ID Token");\n',
  ),
  E(
    "ocl-popup-message-any-origin",
    OC,
    "src/navigators/AbstractChildWindow.ts",
    "authz",
    "                if (e.origin !== origin || data?.source !== messageSource) {\n",
    "                if (data?.source !== messageSource) {\n",
  ),
  E(
    "ocl-check-session-any-origin",
    OC,
    "src/CheckSessionIFrame.ts",
    "authz",
    "        if (e.origin === this._frame_origin &&\n            e.source === this._frame.contentWindow\n        ) {\n",
    "        if (e.source === this._frame.contentWindow) {\n",
  ),
  E(
    "ocl-pkce-disabled-default",
    OC,
    "src/OidcClientSettings.ts",
    "secure-default",
    "        disablePKCE = false,\n",
    "        disablePKCE = true,\n",
  ),
  // ---- node-jose (JavaScript)
  E(
    "nj-jws-alg-allow-list",
    NJ,
    "lib/jws/verify.js",
    "token",
    '        // process allowed algorithims\n        if (!algSpec.match(header.alg)) {\n          return Promise.reject(new Error("Algorithm not allowed: " + header.alg));\n        }\n\n',
    "",
  ),
  E(
    "nj-jws-embedded-key-default",
    NJ,
    "lib/jws/verify.js",
    "secure-default",
    '  algorithms: "*",\n  allowEmbeddedKey: false\n',
    '  algorithms: "*",\n  allowEmbeddedKey: true\n',
  ),
  E(
    "nj-jws-embedded-jwk-always",
    NJ,
    "lib/jws/verify.js",
    "token",
    "              if (opts.allowEmbeddedKey && sig.header.jwk) {\n",
    "              if (sig.header.jwk) {\n",
  ),
  E(
    "nj-jws-crit-ignored",
    NJ,
    "lib/jws/verify.js",
    "token",
    '          for (var idx = 0; crit.length > idx; idx++) {\n            if (-1 === handlerKeys.indexOf(crit[idx])) {\n              return Promise.reject(new Error(\n                  "Critical extension is not supported: " + crit[idx]\n              ));\n            }\n          }\n',
    "",
  ),
  E(
    "nj-hmac-node-verify-no-compare",
    NJ,
    NJH,
    "credential",
    '    var sig = hmac.digest();\n    if (!compare(props.length, mac, sig)) {\n      throw new Error("verification failed");\n    }\n',
    "    var sig = hmac.digest();\n",
  ),
  E(
    "nj-hmac-compare-truncated",
    NJ,
    NJH,
    "credential",
    "    var valid = true;\n    for (var idx = 0; len > idx; idx++) {\n",
    "    var valid = true;\n    for (var idx = 0; Math.min(len, expected.length) > idx; idx++) {\n",
  ),
  E(
    "nj-cbc-hmac-tag-swallowed",
    NJ,
    "lib/algorithms/aes-cbc-hmac-sha2.js",
    "credential",
    '      } catch (e) {\n        throw new Error("mac check failed");\n      }\n',
    "      } catch (e) {\n        return null;\n      }\n",
  ),
  // ---- SvelteKit (JavaScript)
  E(
    "sk-csrf-missing-origin-allowed",
    SK,
    "packages/kit/src/runtime/server/csrf.js",
    "authz",
    "\t\t(!request_origin || !trusted_origins.includes(request_origin))\n",
    "\t\t!!request_origin &&\n\t\t!trusted_origins.includes(request_origin)\n",
  ),
  E(
    "sk-remote-cross-site-allowed",
    SK,
    "packages/kit/src/runtime/server/respond.js",
    "authz",
    "\t\tif (remote_id) {\n\t\t\tif (\n\t\t\t\tis_remote_forbidden({\n\t\t\t\t\trequest,\n\t\t\t\t\trequest_origin,\n\t\t\t\t\tself_origin\n\t\t\t\t})\n\t\t\t) {\n\t\t\t\tconst message = 'Cross-site remote requests are forbidden';\n\t\t\t\treturn json({ message }, { status: 403 });\n\t\t\t}\n\t\t} else if (options.csrf_check_origin) {\n",
    "\t\tif (remote_id) {\n\t\t\t// remote functions validate their own arguments\n\t\t} else if (options.csrf_check_origin) {\n",
  ),
  E(
    "sk-cookie-httponly-default-off",
    SK,
    "packages/kit/src/runtime/server/cookie.js",
    "secure-default",
    "\t\thttpOnly: true,\n\t\tpath: '/',\n",
    "\t\thttpOnly: false,\n\t\tpath: '/',\n",
  ),
  E(
    "sk-cookie-secure-default-dropped",
    SK,
    "packages/kit/src/runtime/server/cookie.js",
    "secure-default",
    "\t\tsameSite: 'lax',\n\t\tsecure: !__SVELTEKIT_DEV__ && !(url.hostname === 'localhost' && url.protocol === 'http:')\n",
    "\t\tsameSite: 'lax'\n",
  ),
  E(
    "sk-csrf-check-origin-off",
    SK,
    "packages/kit/src/core/sync/write_server.js",
    "secure-default",
    "\tcsrf_check_origin: ${s(!config.kit.csrf.trustedOrigins.includes('*'))},\n",
    "\tcsrf_check_origin: ${s(config.kit.csrf.trustedOrigins.length === 0)},\n",
  ),
  // ---- koa-csrf (JavaScript)
  E(
    "kcsrf-token-presence-only",
    KCS,
    "index.js",
    "authz",
    "    if (!token || !tokens.verify(ctx.session.secret, token))\n",
    "    if (!token)\n",
  ),
  E(
    "kcsrf-post-excluded-default",
    KCS,
    "index.js",
    "secure-default",
    "    excludedMethods: ['GET', 'HEAD', 'OPTIONS'],\n",
    "    excludedMethods: ['GET', 'HEAD', 'OPTIONS', 'POST'],\n",
  ),
  // ---- @koa/cors (JavaScript)
  E(
    "kcors-origin-fn-reflects",
    KCO,
    "index.js",
    "authz",
    "      origin = await options.origin(ctx);\n      if (!origin) {\n        return await next();\n      }\n",
    "      origin = (await options.origin(ctx)) || requestOrigin;\n",
  ),
  E(
    "kcors-credentials-default-on",
    KCO,
    "index.js",
    "secure-default",
    "      credentials = !!options.credentials;\n",
    "      credentials = options.credentials !== false;\n",
  ),
  // ---- connect-ensure-login (JavaScript)
  E(
    "cel-missing-passport-passes",
    CEL,
    "lib/ensureLoggedIn.js",
    "authn-branch",
    "    if (!req.isAuthenticated || !req.isAuthenticated()) {\n",
    "    if (req.isAuthenticated && !req.isAuthenticated()) {\n",
  ),
  // ---- @nestjs/throttler (TypeScript)
  E(
    "nt-any-throttler-passes",
    NT,
    NTG,
    "authz",
    "    return continues.every((cont) => cont);\n",
    "    return continues.some((cont) => cont);\n",
  ),
  E(
    "nt-blocked-headers-only",
    NT,
    NTG,
    "authz",
    "\n      await this.throwThrottlingException(context, {\n        limit,\n        ttl,\n        key,\n        tracker,\n        totalHits,\n        timeToExpire,\n        isBlocked,\n        timeToBlockExpire,\n      });\n",
    "",
  ),
  // ---- cookie (TypeScript)
  E(
    "ck-secure-attribute-dropped",
    CK,
    "src/index.ts",
    "secure-default",
    '  if (cookie.secure) {\n    str += "; Secure";\n  }\n\n',
    "",
  ),
  E(
    "ck-httponly-commented",
    CK,
    "src/index.ts",
    "secure-default",
    '  if (cookie.httpOnly) {\n    str += "; HttpOnly";\n  }\n',
    '  if (cookie.httpOnly) {\n    // str += "; HttpOnly";\n  }\n',
  ),
  // ---- keycloak-js (JavaScript)
  E(
    "kcjs-nonce-unchecked",
    KJ,
    KJS,
    "token",
    "      if (this.#useNonce && (this.idTokenParsed && this.idTokenParsed.nonce !== oauth.storedNonce)) {\n        this.#logInfo('[KEYCLOAK] Invalid nonce, clearing token')\n        this.clearToken()\n        throw new Error('Invalid nonce.')\n      }\n",
    "",
  ),
  E(
    "kcjs-callback-always-valid",
    KJ,
    KJS,
    "token",
    "    if (oauthState) {\n      oauth.valid = true\n",
    "    oauth.valid = true\n    if (oauthState) {\n",
  ),
  E(
    "kcjs-silent-sso-origin-or",
    KJ,
    KJS,
    "authz",
    "        if (event.origin !== window.location.origin || iframe.contentWindow !== event.source) {\n",
    "        if (event.origin !== window.location.origin && iframe.contentWindow !== event.source) {\n",
  ),
  E(
    "kcjs-token-never-expired",
    KJ,
    KJS,
    "token",
    "      expiresIn -= minValidity\n    }\n    return expiresIn < 0\n",
    "      expiresIn -= minValidity\n    }\n    return false\n",
  ),
  E(
    "kcjs-pkce-default-off",
    KJ,
    KJS,
    "secure-default",
    "  /** @type {KeycloakPkceMethod} */\n  pkceMethod = 'S256'\n",
    "  /** @type {KeycloakPkceMethod} */\n  pkceMethod = false\n",
  ),
  // ---- @fastify/helmet (JavaScript)
  E(
    "fh-global-default-off",
    FH,
    "index.js",
    "secure-default",
    "  const isGlobal = typeof global === 'boolean' ? global : true\n",
    "  const isGlobal = typeof global === 'boolean' ? global : false\n",
  ),
  // ---- node-oidc-provider (JavaScript)
  E(
    "op-client-secret-result-ignored",
    OP,
    OPC,
    "credential",
    "            const matches = await ctx.oidc.client.compareClientSecret(clientSecret);\n            if (!matches) {\n              throw new InvalidClientAuth('invalid secret provided');\n            }\n",
    "            await ctx.oidc.client.compareClientSecret(clientSecret);\n",
  ),
  E(
    "op-constant-equals-shortest",
    OP,
    "lib/helpers/constant_equals.js",
    "credential",
    "  const length = Math.max(a.length, b.length, minComp);\n",
    "  const length = Math.min(a.length, b.length);\n",
  ),
  E(
    "op-client-secret-prefix",
    OP,
    "lib/models/client.js",
    "credential",
    "      return constantEquals(this.clientSecret, actual, 1000);\n",
    "      return this.clientSecret.startsWith(actual);\n",
  ),
  E(
    "op-auth-method-not-registered",
    OP,
    OPC,
    "authn-branch",
    "        if (methods?.includes(ctx.oidc.client.clientAuthMethod) !== true) {\n          throw new InvalidClientAuth('the provided authentication mechanism does not match the registered client authentication method');\n        }\n",
    "",
  ),
  E(
    "op-client-not-found",
    OP,
    OPC,
    "authn-branch",
    "        const client = await provider.Client.find(clientId);\n\n        if (!client) {\n          throw new InvalidClientAuth('client not found');\n        }\n",
    "        const client = await provider.Client.find(clientId);\n",
  ),
  E(
    "op-mtls-cert-unverified",
    OP,
    OPC,
    "authn-branch",
    "            if (!certificateAuthorized(ctx)) {\n              throw new InvalidClientAuth('client certificate was not verified');\n            }\n",
    "",
  ),
  E(
    "op-secret-expiry-skipped",
    OP,
    OPC,
    "authn-branch",
    "            ctx.oidc.client.checkClientSecretExpiration('could not authenticate the client - its client secret is expired');\n",
    "            // ctx.oidc.client.checkClientSecretExpiration('could not authenticate the client - its client secret is expired');\n",
  ),
  E(
    "op-assertion-alg-any",
    OP,
    OPJ,
    "token",
    "    const algorithms = clientAuthSigningAlgValues.filter(filter);\n    if (!algorithms.includes(header.alg)) {\n      throw new InvalidClientAuth('alg mismatch');\n    }\n",
    "    // any configured alg is fine here\n",
  ),
  E(
    "op-assertion-iss-not-client",
    OP,
    OPJ,
    "token",
    "  if (payload.iss !== ctx.oidc.client.clientId) {\n    throw new InvalidClientAuth('iss (JWT issuer) must be the client_id');\n  }\n",
    "",
  ),
  E(
    "op-assertion-replay-allowed",
    OP,
    OPJ,
    "token",
    "  if (!unique) {\n    throw new InvalidClientAuth('client assertion tokens must only be used once');\n  }\n",
    "  if (!unique) {\n    ctx.oidc.provider.emit('replay_detected', ctx, payload.jti);\n  }\n",
  ),
  E(
    "op-assertion-decode-only",
    OP,
    OPJ,
    "token",
    "    await JWT.verify(ctx.oidc.params.client_assertion, keystore, {\n      clockTolerance,\n      ignoreAzp: true,\n    });\n",
    "    JWT.decode(ctx.oidc.params.client_assertion);\n",
  ),
  E(
    "op-pkce-verifier-optional",
    OP,
    "lib/helpers/pkce.js",
    "token",
    "  if (verifier || challenge) {\n",
    "  if (verifier && challenge) {\n",
  ),
  E(
    "op-xsrf-optional",
    OP,
    "lib/shared/xsrf.js",
    "authz",
    "    if (!constantEquals(ctx.oidc.session.state.secret, ctx.oidc.params.xsrf || '')) {\n",
    "    if (ctx.oidc.params.xsrf && !constantEquals(ctx.oidc.session.state.secret, ctx.oidc.params.xsrf)) {\n",
  ),
  E(
    "op-grant-source-other-client",
    OP,
    OPG,
    "authz",
    "  if (source.clientId !== ctx.oidc.client.clientId) {\n    throw new InvalidGrant('client mismatch');\n  }\n\n",
    "",
  ),
  E(
    "op-userinfo-partial-scope",
    OP,
    OPU,
    "authz",
    "      if (missing.length !== 0) {\n",
    "      if (missing.length === ctx.oidc.params.scope.split(' ').length) {\n",
  ),
  E(
    "op-account-mismatch-ignored",
    OP,
    OPG,
    "authz",
    "  if (code.accountId !== grant.accountId) {\n    throw new InvalidGrant('accountId mismatch');\n  }\n",
    "  return code.accountId === grant.accountId;\n",
  ),
  E(
    "op-redirect-uri-unregistered",
    OP,
    "lib/actions/authorization/check_redirect_uri.js",
    "authz",
    "    if (!allowUnregisteredUri(ctx)) {\n      throw new InvalidRedirectUri();\n    }\n\n    validateUnregisteredUri(ctx);\n",
    "    validateUnregisteredUri(ctx);\n",
  ),
  // ---- passport-http-bearer (JavaScript)
  E(
    "phb-no-user-success",
    HB,
    "lib/strategy.js",
    "authn-branch",
    "    if (!user) {\n      if (typeof info == 'string') {\n        info = { message: info }\n      }\n      info = info || {};\n      return self.fail(self._challenge('invalid_token', info.message));\n    }\n",
    "",
  ),
  E(
    "phb-missing-token-pass",
    HB,
    "lib/strategy.js",
    "authn-branch",
    "  if (!token) { return this.fail(this._challenge()); }\n",
    "  if (!token) { return this.pass(); }\n",
  ),
  // ---- http-auth (JavaScript)
  E(
    "ha-basic-username-only",
    HA,
    HAB,
    "credential",
    "        if (user.username === username && this.validate(user.hash, password)) {\n",
    "        if (user.username === username && user.hash) {\n",
  ),
  E(
    "ha-basic-sha-length",
    HA,
    HAB,
    "credential",
    "      return hash === utils.sha1(password);\n",
    "      return hash.length === utils.sha1(password).length;\n",
  ),
  E(
    "ha-digest-response-present-b19",
    HA,
    HAD,
    "credential",
    "    return response === co.response;\n",
    "    return !!response && !!co.response;\n",
  ),
  E(
    "ha-digest-nc-reuse",
    HA,
    HAD,
    "token",
    "            if (ncNum > serverNonce[2]) {\n",
    "            if (ncNum >= serverNonce[2]) {\n",
  ),
  E(
    "ha-checker-undefined-passes",
    HA,
    HAB,
    "authn-branch",
    "            params = [{ user: customUser || username, pass: !!result }];\n",
    "            params = [{ user: customUser || username, pass: result !== false }];\n",
  ),
  E(
    "ha-no-header-passes",
    HA,
    "src/auth/base.js",
    "authn-branch",
    "        } else if (!result.pass) {\n",
    "        } else if (result.pass === false) {\n",
  ),
  // ---- ssh2 (JavaScript)
  E(
    "s2-kex-signature-not-fatal",
    S2,
    "lib/protocol/kex.js",
    "secure-default",
    "          return doFatalError(\n            this._protocol,\n            'Handshake failed: signature verification failed',\n            'handshake',\n            DISCONNECT_REASON.KEY_EXCHANGE_FAILED\n          );\n",
    "",
  ),
];

/** Reversed real security fixes of the nineteenth batch (split `history19`), chosen by message only. */
export const REVERSED_FIXES_HISTORY19: ReversedFix[] = [
  {
    id: "kcors-GHSA-qxrj-hx23-xp82",
    repo: KCO,
    commit: "f31dac9",
    path: "index.js",
    cls: "secure-default",
    note: "GHSA-qxrj-hx23-xp82: stop reflecting the request origin by default",
    split: "history19",
  },
  {
    id: "kcjs-cordova-oauth-state",
    repo: KJ,
    commit: "dd74194",
    path: KJS,
    cls: "token",
    note: "validate OAuth state in Cordova adapter login callbacks",
    split: "history19",
  },
  {
    id: "nt-throttle-limit-bypass",
    repo: NT,
    commit: "2e7ab10",
    path: NTG,
    cls: "authz",
    note: "rewrite throttler logic to prevent throttle limit bypassing",
    split: "history19",
  },
  {
    id: "ha-digest-replay",
    repo: HA,
    commit: "78be73f",
    path: HAD,
    cls: "token",
    note: "fixed replay vulnerability in digest authentication",
    split: "history19",
  },
  {
    id: "ha-basic-timing-safe-equal",
    repo: HA,
    commit: "d34a9ab",
    path: HAB,
    cls: "credential",
    note: "timingSafeEqual added to basic auth",
    split: "history19",
  },
  {
    id: "sk-csrf-non-production-env",
    repo: SK,
    commit: "ffa0e3b06e",
    path: "packages/kit/src/runtime/server/respond.js",
    cls: "authz",
    note: "don't disable CSRF protection in builds with a non-production NODE_ENV",
    split: "history19",
  },
  {
    id: "op-basic-loose-decoding",
    repo: OP,
    commit: "f1bb868d",
    path: OPC,
    cls: "authn-branch",
    note: "client-auth: reject loosely decoded Basic credentials",
    split: "history19",
  },
  {
    id: "op-jwt-audience-members",
    repo: OP,
    commit: "d5f4a278",
    path: "lib/helpers/jwt.js",
    cls: "token",
    note: "jwt: validate audience claim members",
    split: "history19",
  },
  {
    id: "ocl-id-token-nonce",
    repo: OC,
    commit: "ff801698",
    path: OCV,
    cls: "token",
    note: "add nonce validation for ID tokens",
    split: "history19",
  },
];
