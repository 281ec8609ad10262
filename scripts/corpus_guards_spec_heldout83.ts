/**
 * Eighty-third held-out batch of the guard-removal corpus: removals written by reading the security
 * code of JavaScript/TypeScript server projects not otherwise used by the corpus, chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H83 = "heldout83" as const;
const SK = "soketi/soketi";
const SKW = "src/ws-handler.ts";
const SKH = "src/http-handler.ts";
const HP = "ueberdosis/hocuspocus";
const HPC = "packages/server/src/ClientConnection.ts";
const HPM = "packages/server/src/MessageReceiver.ts";
const GY = "dotansimha/graphql-yoga";
const GYJ = "packages/plugins/jwt/src/plugin.ts";
const CY = "colyseus/colyseus";
const CYA = "packages/auth/src/auth.ts";
const CYJ = "packages/auth/src/JWT.ts";

const GR = "grpc/grpc-node";
const GRC = "packages/grpc-js/src/channel-credentials.ts";
const MA = "mercurius-js/auth";
const MAA = "lib/auth.js";
const HG = "graphql-hive/gateway";
const HGH = "packages/plugins/hmac-upstream-signature/src/index.ts";
const WO = "cloudflare/workers-oauth-provider";
const WOP = "src/oauth-provider.ts";
const BJ = "boxyhq/jackson";
const BJO = "npm/src/controller/oauth.ts";
const MD = "middyjs/middy";
const MDJ = "packages/http-jwt/index.js";
const MDS = "packages/http-security-headers/index.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H83);

/** The eighty-third held-out batch of edits (split `heldout83`). */
export const EDITS_HELDOUT83: GuardEdit[] = [
  // ---- soketi (TS)
  E(
    "sk-private-join-unsigned",
    SK,
    "src/channels/private-channel-manager.ts",
    "authn-branch",
    "            if (!isValid) {\n                return {\n                    ws,\n                    success: false,\n                    errorCode: 4009,\n                    errorMessage: 'The connection is unauthorized.',\n                    authError: true,\n                    type: 'AuthError',\n                };\n            }\n\n",
    "",
  ),
  E(
    "sk-signin-prefix-only",
    SK,
    SKW,
    "credential",
    "            return signatureToCheck === expectedSignature;\n",
    "            return signatureToCheck.split(':')[0] === expectedSignature.split(':')[0];\n",
  ),
  E(
    "sk-api-auth-any-signature",
    SK,
    SKH,
    "credential",
    "            if (valid) {\n                return next(null, res);\n            }\n",
    "            if (valid || res.query.auth_signature) {\n                return next(null, res);\n            }\n",
  ),
  E(
    "sk-terminate-no-auth",
    SK,
    SKH,
    "authz",
    "            this.appMiddleware,\n            this.authMiddleware,\n        ]).then(res => {\n            this.server.adapter.terminateUserConnections",
    "            this.appMiddleware,\n        ]).then(res => {\n            this.server.adapter.terminateUserConnections",
  ),
  E(
    "sk-client-event-not-member",
    SK,
    SKW,
    "authz",
    "            if (!canBroadcast) {\n                return;\n            }\n",
    "            if (!canBroadcast) {\n                Log.warning({ info: 'Client event from a socket outside the channel.', channel });\n            }\n",
  ),
  E(
    "sk-disabled-app-accepted",
    SK,
    SKW,
    "authz",
    "        return Promise.resolve(ws.app.enabled);\n",
    "        return Promise.resolve(true);\n",
  ),
  E(
    "sk-body-not-signed",
    SK,
    "src/app.ts",
    "credential",
    "        if (res.rawBody || res.query['body_md5']) {\n            params['body_md5'] = pusherUtil.getMD5(res.rawBody || '');\n        }\n",
    "        if (res.query['body_md5']) {\n            params['body_md5'] = res.query['body_md5'];\n        }\n",
  ),
  // ---- hocuspocus (TS)
  E(
    "hp-readonly-update-applied",
    HP,
    HPM,
    "authz",
    "\t\t\tcase messageYjsUpdate: {\n\t\t\t\tif (connection?.readOnly) {\n\t\t\t\t\tconnection.send(\n\t\t\t\t\t\tnew OutgoingMessage(messageAddress)\n\t\t\t\t\t\t\t.writeSyncStatus(false)\n\t\t\t\t\t\t\t.toUint8Array(),\n\t\t\t\t\t);\n\t\t\t\t\tbreak;\n\t\t\t\t}\n\n",
    "\t\t\tcase messageYjsUpdate: {\n",
  ),
  E(
    "hp-readonly-step2-flag",
    HP,
    HPM,
    "authz",
    "\t\t\tcase messageYjsSyncStep2: {\n\t\t\t\tif (connection?.readOnly) {\n",
    "\t\t\tcase messageYjsSyncStep2: {\n\t\t\t\tif (connection?.readOnly && document.isLoading) {\n",
  ),
  E(
    "hp-onauthenticate-swallowed",
    HP,
    HPC,
    "authn-branch",
    "\t\t\t\t\t},\n\t\t\t\t);\n\t\t\t\t// All `onAuthenticate` hooks passed.\n",
    "\t\t\t\t\t},\n\t\t\t\t).catch((error) => console.warn(error));\n\t\t\t\t// All `onAuthenticate` hooks passed.\n",
  ),
  E(
    "hp-token-sync-failure-kept-open",
    HP,
    HPC,
    "token",
    "\t\t\t\tconst error = { ...Unauthorized, ...err };\n\t\t\t\tconnection.close({ code: error.code, reason: error.reason });\n",
    "",
  ),
  // ---- graphql-yoga (TS)
  E(
    "gy-jwt-no-alg-allowlist",
    GY,
    "packages/plugins/jwt/src/config.ts",
    "token",
    "    tokenVerification: input.tokenVerification ?? {\n      algorithms: ['RS256', 'HS256'],\n    },\n",
    "    tokenVerification: input.tokenVerification,\n",
  ),
  E(
    "gy-jwt-invalid-not-rejected-default",
    GY,
    "packages/plugins/jwt/src/config.ts",
    "secure-default",
    "      missingToken: true,\n      invalidToken: true,\n",
    "      missingToken: true,\n      invalidToken: false,\n",
  ),
  E(
    "gy-jwt-verify-error-ignored",
    GY,
    GYJ,
    "token",
    "        logger.warn(`Failed to verify authentication token: `, err);\n        reject(unauthorizedError('Unauthenticated'));\n",
    "        logger.warn(`Failed to verify authentication token: `, err);\n        resolve(jsonwebtoken.decode(token) as JwtPayload);\n",
  ),
  E(
    "gy-jwt-unverified-passthrough",
    GY,
    GYJ,
    "token",
    "                if (!verified) {\n                  logger.debug(`Token failed to verify, JWT plugin failed to authenticate.`);\n                  throw unauthorizedError(`Unauthenticated`);\n                }\n\n",
    "",
  ),
  E(
    "gy-csrf-any-header",
    GY,
    "packages/plugins/csrf-prevention/src/index.ts",
    "authz",
    "      if (requestHeaders.some(headerName => request.headers.has(headerName))) {\n        return;\n      }\n      throw createGraphQLError('Required CSRF header(s) not present', {",
    "      if (requestHeaders.some(headerName => request.headers.has(headerName)) || request.method === 'GET') {\n        return;\n      }\n      throw createGraphQLError('Required CSRF header(s) not present', {",
  ),
  // ---- colyseus (TS)
  E(
    "cy-login-password-ignored",
    CY,
    CYA,
    "credential",
    "        if (user && user.password === await Hash.make(req.body.password)) {\n",
    "        if (user && user.password) {\n",
  ),
  E(
    "cy-jwt-verify-resolves-on-error",
    CY,
    CYJ,
    "token",
    "        if (err) reject(err);\n        resolve(decoded as T);\n",
    "        resolve((decoded || jsonwebtoken.decode(token)) as T);\n",
  ),
  E(
    "cy-reset-token-reuse",
    CY,
    CYA,
    "token",
    '        if (matchMaker.presence?.get("reset-password:" + token)) {\n          throw new Error("token_already_used");\n        }\n\n',
    "",
  ),
  E(
    "cy-upgrade-token-decoded",
    CY,
    CYA,
    "token",
    "          options.upgradingToken = await JWT.verify(authToken);\n",
    "          options.upgradingToken = JWT.decode(authToken) as any;\n",
  ),
  E(
    "cy-reset-unknown-email",
    CY,
    CYA,
    "authn-branch",
    '        if (!user) {\n          throw new Error("email_not_found");\n        }\n',
    '        if (!user) {\n          logger.warn("email_not_found");\n        }\n',
  ),
  // ---- grpc-node (TS)
  E(
    "gr-unauthorized-peer-default",
    GR,
    GRC,
    "secure-default",
    "        if ((this.connectionOptions.rejectUnauthorized ?? true) && !tlsSocket.authorized) {\n",
    "        if ((this.connectionOptions.rejectUnauthorized ?? false) && !tlsSocket.authorized) {\n",
  ),
  E(
    "gr-provider-unauthorized-optin",
    GR,
    GRC,
    "secure-default",
    "          if ((this.parent.verifyOptions.rejectUnauthorized ?? true) && !tlsSocket.authorized) {\n",
    "          if (this.parent.verifyOptions.rejectUnauthorized && !tlsSocket.authorized) {\n",
  ),
  E(
    "gr-name-override-skips-identity",
    GR,
    GRC,
    "secure-default",
    "      return originalCheckServerIdentity(sslTargetNameOverride, cert);\n",
    "      return undefined;\n",
  ),
  E(
    "gr-server-client-cert-optional",
    GR,
    "packages/grpc-js/src/server-credentials.ts",
    "secure-default",
    "      rejectUnauthorized: requireClientCertificate,\n",
    "      rejectUnauthorized: false,\n",
  ),
  // ---- mercurius-auth (JS)
  E(
    "ma-falsy-policy-passes",
    MA,
    MAA,
    "authz",
    "      if (!result) {\n        throw new MER_AUTH_ERR_FAILED_POLICY_CHECK(info.fieldName)\n      }\n",
    "",
  ),
  E(
    "ma-replace-error-result-passes",
    MA,
    MAA,
    "authz",
    "      if (result instanceof Error) {\n        throw result\n      }\n      if (!result) {\n        const replacementValue",
    "      if (!result) {\n        const replacementValue",
  ),
  E(
    "ma-reference-resolver-unwrapped",
    MA,
    MAA,
    "authz",
    "                schemaType.resolveReference = this[kMakeProtectedResolver](fieldPolicy, originalResolveReference)\n",
    "                // schemaType.resolveReference = this[kMakeProtectedResolver](fieldPolicy, originalResolveReference)\n",
  ),
  E(
    "ma-gateway-refresh-unprotected",
    MA,
    "index.js",
    "authz",
    "        const authSchema = auth.getPolicy(schema)\n        auth.registerAuthHandlers(schema, authSchema, opts.outputPolicyErrors)\n",
    "        const authSchema = auth.getPolicy(schema)\n",
  ),
  // ---- Hive gateway (TS)
  E(
    "hg-hmac-missing-allowed",
    HG,
    HGH,
    "credential",
    "      if (!extension) {\n        throw new Error(\n          `Missing HMAC signature: extension ${extensionName} not found in request.`,\n        );\n      }\n",
    "      if (!extension) {\n        logger.warn(\n          `Missing HMAC signature: extension ${extensionName} not found in request.`,\n        );\n        return;\n      }\n",
  ),
  E(
    "hg-hmac-mismatch-logged",
    HG,
    HGH,
    "credential",
    "                  '[useHmacSignatureValidation] HMAC signature does not match the body content. short circuit request.',\n                );\n                throw new Error(\n                  `Invalid HMAC signature: extension ${extensionName} does not match the body content.`,\n                );\n",
    "                  '[useHmacSignatureValidation] HMAC signature does not match the body content. short circuit request.',\n                );\n",
  ),
  // ---- workers-oauth-provider (TS)
  E(
    "wo-client-secret-length-only",
    WO,
    WOP,
    "credential",
    "      if (providedSecretHash !== clientInfo.clientSecret) {\n",
    "      if (providedSecretHash.length !== clientInfo.clientSecret.length) {\n",
  ),
  E(
    "wo-pkce-verifier-unchecked",
    WO,
    WOP,
    "token",
    "      if (calculatedChallenge !== grantData.codeChallenge) {\n        return this.createErrorResponse('invalid_grant', { description: 'Invalid PKCE code_verifier' });\n      }\n",
    "",
  ),
  E(
    "wo-code-other-client",
    WO,
    WOP,
    "authz",
    "    // Verify client ID matches before taking any action on the grant\n    if (grantData.clientId !== clientInfo.clientId) {\n      return this.createErrorResponse('invalid_grant', { description: 'Client ID mismatch' });\n    }\n\n",
    "",
  ),
  E(
    "wo-expired-refresh-extended",
    WO,
    WOP,
    "token",
    "      if (grantData.expiresAt - now < KV_MIN_EXPIRATION_TTL_SECONDS) {\n        return this.createErrorResponse('invalid_grant', { description: 'Refresh token has expired' });\n      }\n",
    "      if (grantData.expiresAt - now < KV_MIN_EXPIRATION_TTL_SECONDS) {\n        grantData.expiresAt = now + KV_MIN_EXPIRATION_TTL_SECONDS;\n      }\n",
  ),
  E(
    "wo-unwrap-expired-token",
    WO,
    WOP,
    "token",
    "    const now = Math.floor(Date.now() / 1e3);\n    if (tokenData.expiresAt < now) {\n      return null;\n    }\n",
    "",
  ),
  E(
    "wo-audience-needs-config",
    WO,
    WOP,
    "token",
    "      if (tokenData.audience) {\n",
    "      if (tokenData.audience && this.options.resourceMetadata?.resource) {\n",
  ),
  E(
    "wo-complete-redirect-unchecked",
    WO,
    WOP,
    "authz",
    "    if (!clientInfo || !isValidRedirectUri(redirectUri, clientInfo.redirectUris)) {\n      throw new Error(\n        'Invalid redirect URI. The redirect URI provided does not match any registered URI for this client.'",
    "    if (!clientInfo) {\n      throw new Error(\n        'Invalid redirect URI. The redirect URI provided does not match any registered URI for this client.'",
  ),
  E(
    "wo-plain-pkce-default",
    WO,
    WOP,
    "secure-default",
    "      allowPlainPKCE: this.options.allowPlainPKCE === true,\n",
    "      allowPlainPKCE: this.options.allowPlainPKCE !== false,\n",
  ),
  // ---- SAML Jackson (TS)
  E(
    "bj-pkce-challenge-unchecked",
    BJ,
    BJO,
    "token",
    "        if (codeVal.session.code_challenge !== cv) {\n          throw new JacksonError('Invalid code_verifier', 401);\n        }\n\n",
    "",
  ),
  E(
    "bj-client-secret-dropped",
    BJ,
    BJO,
    "credential",
    "            if (client_id !== codeVal.clientID || client_secret !== codeVal.clientSecret) {\n",
    "            if (client_id !== codeVal.clientID) {\n",
  ),
  E(
    "bj-encoded-client-secret-unverified",
    BJ,
    BJO,
    "credential",
    "            // encoded client_id, verify client_secret\n            if (client_secret !== this.opts.clientSecretVerifier) {\n              throw new JacksonError('Invalid client_secret', 401);\n            }\n",
    "",
  ),
  E(
    "bj-no-client-auth-accepted",
    BJ,
    BJO,
    "authn-branch",
    "      } else if (codeVal && codeVal.session) {\n        throw new JacksonError('Please specify client_secret or code_verifier', 401);\n      }\n",
    "      }\n",
  ),
  E(
    "bj-tenant-product-mismatch",
    BJ,
    BJO,
    "authz",
    "            if (\n              !codeVal.isIdPFlow &&\n              (sp.tenant !== codeVal.requested?.tenant || sp.product !== codeVal.requested?.product)\n            ) {\n              throw new JacksonError('Invalid tenant or product', 401);\n            }\n",
    "",
  ),
  E(
    "bj-redirect-host-suffix",
    BJ,
    "npm/src/controller/oauth/allowed.ts",
    "authz",
    "    if (rUrl.protocol === url.protocol && hostNameAllowed === hostname && rUrl.port === url.port) {\n",
    "    if (hostname.endsWith(hostNameAllowed)) {\n",
  ),
  E(
    "bj-api-key-prefix",
    BJ,
    "lib/auth.ts",
    "credential",
    "  return apiKeys.includes(token);\n",
    "  return apiKeys.some((key) => key.startsWith(token));\n",
  ),
  // ---- middy (JS)
  E(
    "md-alg-none-accepted",
    MD,
    MDJ,
    "token",
    "\t\tif (a === \"none\") {\n\t\t\tthrow new TypeError(`algorithm 'none' is not allowed (${where})`, {\n\t\t\t\tcause: { package: pkg },\n\t\t\t});\n\t\t}\n",
    "",
  ),
  E(
    "md-jwk-alg-outside-allowlist",
    MD,
    MDJ,
    "token",
    "\t\t\t\tif (!entry.algorithms.includes(jwk.alg)) {\n",
    "\t\t\t\tif (entry.algorithms.length === 0) {\n",
  ),
  E(
    "md-issuer-not-verified",
    MD,
    MDJ,
    "token",
    "\t\t\t\tissuer: payload.iss,\n",
    "",
  ),
  E(
    "md-internal-key-alg-unpinned",
    MD,
    MDJ,
    "token",
    '\tif (options.internalKey !== undefined && !topLevelAlgs) {\n\t\tthrow new TypeError("algorithm is required when using internalKey", {\n\t\t\tcause: { package: pkg },\n\t\t});\n\t}\n',
    "",
  ),
  E(
    "md-frame-ancestors-any",
    MD,
    MDS,
    "secure-default",
    '\t\t"frame-ancestors": "\'none\'",\n',
    '\t\t"frame-ancestors": "*",\n',
  ),
  E(
    "md-csp-report-only",
    MD,
    MDS,
    "secure-default",
    "\tcontentSecurityPolicyReportOnly: false,\n",
    "\tcontentSecurityPolicyReportOnly: true,\n",
  ),
  // ---- further edits
  E(
    "bj-scim-groups-length-mismatch-ignored",
    BJ,
    "npm/src/directory-sync/scim/DirectoryGroups.ts",
    "authn-branch",
    "    } catch {\n      return this.respondWithError({ code: 401, message: 'Unauthorized' });\n    }\n",
    "    } catch {\n      // secrets of a different length\n    }\n",
  ),
  E(
    "bj-scim-users-secret-optional",
    BJ,
    "npm/src/directory-sync/scim/DirectoryUsers.ts",
    "authn-branch",
    "      if (!crypto.timingSafeEqual(Buffer.from(directory.scim.secret), Buffer.from(apiSecret || ''))) {\n",
    "      if (apiSecret && !crypto.timingSafeEqual(Buffer.from(directory.scim.secret), Buffer.from(apiSecret))) {\n",
  ),
  E(
    "cy-onauth-falsy-accepted",
    CY,
    "packages/core/src/MatchMaker.ts",
    "authn-branch",
    "    if (!result) {\n      throw new ServerError(ErrorCode.AUTH_FAILED, 'onAuth failed');\n    }\n",
    "",
  ),
  E(
    "wo-unknown-token-falls-through",
    WO,
    WOP,
    "authn-branch",
    "    // No internal token found in KV and no external token validator provided\n    if (!tokenData && !this.options.resolveExternalToken) {\n      return this.createErrorResponse('invalid_token', {\n        description: 'Invalid access token',\n        statusCode: 401,\n        headers: {\n          'WWW-Authenticate': this.buildWwwAuthenticateHeader(resourceMetadataUrl, 'invalid_token'),\n        },\n      });\n    }\n\n",
    "",
  ),
  E(
    "md-verify-failure-logged",
    MD,
    MDJ,
    "authn-branch",
    '\t\t} catch (e) {\n\t\t\tthrow createError(401, "Unauthorized", {\n\t\t\t\tcause: { package: pkg, data: e.message },\n\t\t\t});\n\t\t}\n\t};\n',
    "\t\t} catch (e) {\n\t\t\tconsole.warn(pkg, e.message);\n\t\t}\n\t};\n",
  ),
  E(
    "sk-signin-invalid-when-optional",
    SK,
    SKW,
    "authn-branch",
    "        this.signinTokenIsValid(ws, message.data.user_data, message.data.auth).then(isValid => {\n            if (!isValid) {\n",
    "        this.signinTokenIsValid(ws, message.data.user_data, message.data.auth).then(isValid => {\n            if (!isValid && ws.app.enableUserAuthentication) {\n",
  ),
  E(
    "gy-missing-token-logged",
    GY,
    GYJ,
    "authn-branch",
    "            logger.debug(`Token is missing in incoming HTTP request, JWT plugin failed to locate.`);\n            throw unauthorizedError(`Unauthenticated`);\n",
    "            logger.debug(`Token is missing in incoming HTTP request, JWT plugin failed to locate.`);\n",
  ),
  E(
    "sk-default-app-client-messages",
    SK,
    "src/server.ts",
    "secure-default",
    "                        enableClientMessages: false,\n",
    "                        enableClientMessages: true,\n",
  ),
  E(
    "md-hsts-no-subdomains",
    MD,
    MDS,
    "secure-default",
    "\t\tmaxAge: 180 * 24 * 60 * 60,\n\t\tincludeSubDomains: true,\n",
    "\t\tmaxAge: 180 * 24 * 60 * 60,\n\t\tincludeSubDomains: false,\n",
  ),
];

/** Security fixes of these projects, reversed (split `history83`). */
export const REVERSED_FIXES_HISTORY83: ReversedFix[] = [
  {
    id: "bj-pkce-verifier-required",
    repo: BJ,
    commit: "fb78baebc",
    path: BJO,
    cls: "token",
    note: "pkce flow requires a code_verifier for token exchange",
    split: "history83",
  },
  {
    id: "bj-timing-safe-scim-users",
    repo: BJ,
    commit: "e21858592",
    path: "npm/src/directory-sync/scim/DirectoryUsers.ts",
    cls: "credential",
    note: "protect against timing attacks during login checks",
    split: "history83",
  },
  {
    id: "bj-timing-safe-login",
    repo: BJ,
    commit: "e21858592",
    path: "pages/api/auth/[...nextauth].ts",
    cls: "credential",
    note: "protect against timing attacks during login checks",
    split: "history83",
  },
  {
    id: "bj-federation-pkce-client-secret",
    repo: BJ,
    commit: "ece4a4fca",
    path: BJO,
    cls: "credential",
    note: "verify client id and secret in OIDC Federation pkce flow",
    split: "history83",
  },
  {
    id: "bj-basic-auth-check",
    repo: BJ,
    commit: "a86668505",
    path: BJO,
    cls: "credential",
    note: "fixed basic auth check",
    split: "history83",
  },
  {
    id: "bj-setup-link-steps",
    repo: BJ,
    commit: "d9868d725",
    path: "pages/setup/[token]/sso-connection/new.tsx",
    cls: "authz",
    note: "fix for bypassing allowed steps in Setup Links",
    split: "history83",
  },
  {
    id: "gr-unauthorized-tls",
    repo: GR,
    commit: "b44b14d8",
    path: GRC,
    cls: "secure-default",
    note: "handle unauthorized TLS connections correctly",
    split: "history83",
  },
  {
    id: "wo-registered-auth-method",
    repo: WO,
    commit: "94cc3db",
    path: WOP,
    cls: "authn-branch",
    note: "enforce registered token auth method",
    split: "history83",
  },
  {
    id: "wo-validation-gaps",
    repo: WO,
    commit: "cd5e96a",
    path: "src/ema/validators.ts",
    cls: "token",
    note: "close recent OAuth validation gaps",
    split: "history83",
  },
];
