/**
 * Twenty-first held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (stripe-node, Bolt for JavaScript, Svix,
 * Standard Webhooks, cookie-parser, cookie-signature, nuxt-auth-utils, Payload, Lucia,
 * twilio-node, Shopify app packages), chosen the way a careless refactor or an attacker would
 * weaken them, before any measurement. Reversed fixes were picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H21 = "heldout21" as const;
const ST = "stripe/stripe-node";
const STW = "src/Webhooks.ts";
const BJ = "slackapi/bolt-js";
const BJV = "src/receivers/verify-request.ts";
const BJA = "src/receivers/AwsLambdaReceiver.ts";
const SX = "svix/svix-webhooks";
const SW = "standard-webhooks/standard-webhooks";
const SWI = "libraries/javascript/src/index.ts";
const CP = "expressjs/cookie-parser";
const CS = "tj/node-cookie-signature";
const NA = "atinux/nuxt-auth-utils";
const NAU = "src/runtime/server/lib/utils.ts";
const PL = "payloadcms/payload";
const PLA = "packages/payload/src/auth";
const SH = "Shopify/shopify-app-js";
const SHA = "packages/apps/shopify-api/lib";
const SHE = "packages/apps/shopify-app-express/src/middlewares";
const TW = "twilio/twilio-node";
const TWW = "src/webhooks/webhooks.ts";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H21);

/** The twenty-first held-out batch of edits (split `heldout21`). */
export const EDITS_HELDOUT21: GuardEdit[] = [
  // ---- stripe-node (TypeScript)
  E(
    "b21-st-signature-found-any",
    ST,
    STW,
    "credential",
    "    const signatureFound = !!details.signatures.filter(\n      platformFunctions.secureCompare.bind(platformFunctions, expectedSignature)\n    ).length;\n",
    "    const signatureFound = details.signatures.length > 0;\n",
  ),
  E(
    "b21-st-tolerance-check",
    ST,
    STW,
    "token",
    "    if (tolerance > 0 && timestampAge > tolerance) {\n      throw new StripeSignatureVerificationError(header, payload, {\n        message: 'Timestamp outside the tolerance zone',\n      });\n    }\n",
    "",
  ),
  E(
    "b21-st-construct-async-no-verify",
    ST,
    STW,
    "credential",
    "      await this.signature.verifyHeaderAsync(\n        payload,\n        header,\n        secret,\n        tolerance || Webhook.DEFAULT_TOLERANCE,\n        cryptoProvider,\n        receivedAt\n      );\n\n      return buildEvent(parsePayload(payload));\n",
    "      return buildEvent(parsePayload(payload));\n",
  ),
  E(
    "b21-st-construct-default-tolerance",
    ST,
    STW,
    "secure-default",
    "        this.signature.verifyHeader(\n          payload,\n          header,\n          secret,\n          tolerance || Webhook.DEFAULT_TOLERANCE,\n",
    "        this.signature.verifyHeader(\n          payload,\n          header,\n          secret,\n          tolerance || 0,\n",
  ),
  E(
    "b21-st-secure-compare-early-exit",
    ST,
    "src/platform/PlatformFunctions.ts",
    "credential",
    "    for (let i = 0; i < len; ++i) {\n      result |= a.charCodeAt(i) ^ b.charCodeAt(i);\n    }\n",
    "    for (let i = 0; i < len; ++i) {\n      if (a.charCodeAt(i) !== b.charCodeAt(i)) {\n        return false;\n      }\n    }\n",
  ),
  // ---- Bolt for JavaScript (TypeScript)
  E(
    "b21-bj-stale-timestamp",
    BJ,
    BJV,
    "token",
    "  // Rule 1: Check staleness\n  if (requestTimestampSec < fiveMinutesAgoSec) {\n    throw new Error(\n      `${verifyErrorPrefix}: x-slack-request-timestamp must differ from system time by no more than ${\n        requestTimestampMaxDeltaMin\n      } minutes or request is stale`,\n    );\n  }\n\n",
    "",
  ),
  E(
    "b21-bj-signature-mismatch-conjunct",
    BJ,
    BJV,
    "credential",
    "  if (!signatureHash || !tsscmp(signatureHash, ourSignatureHash)) {\n",
    "  if (!signatureHash) {\n",
  ),
  E(
    "b21-bj-ssl-check-passthrough",
    BJ,
    "src/receivers/HTTPModuleFunctions.ts",
    "authn-branch",
    "      // ssl_check requests don't require signature verification, but we must\n      // strip any smuggled payload to prevent unauthenticated event injection\n      const sanitized = `ssl_check=${parsedQs.ssl_check}`;\n      bufferedReq.rawBody = Buffer.from(sanitized);\n      return bufferedReq;\n",
    "      // ssl_check requests don't require signature verification\n      return bufferedReq;\n",
  ),
  E(
    "b21-bj-lambda-verification-default",
    BJ,
    BJA,
    "secure-default",
    "    signatureVerification = true,\n    customPropertiesExtractor = (_) => ({}),\n",
    "    signatureVerification = false,\n    customPropertiesExtractor = (_) => ({}),\n",
  ),
  E(
    "b21-bj-lambda-plain-compare",
    BJ,
    BJA,
    "credential",
    "    if (!tsscmp(hash, hmac.digest('hex'))) {\n",
    "    if (hash !== hmac.digest('hex') && hash.length !== 64) {\n",
  ),
  E(
    "b21-bj-express-plain-body-parser",
    BJ,
    "src/receivers/ExpressReceiver.ts",
    "authn-branch",
    "    const bodyParser = this.signatureVerification\n      ? buildVerificationBodyParserMiddleware(this.logger, signingSecret)\n      : buildBodyParserMiddleware(this.logger);\n",
    "    const bodyParser = buildBodyParserMiddleware(this.logger);\n",
  ),
  E(
    "b21-bj-signing-secret-required",
    BJ,
    "src/receivers/verify-signing-secret.ts",
    "authn-branch",
    "  if (signatureVerification && !signingSecret) {\n    throw new AppInitializationError(\n      'signingSecret is required when signature verification is enabled. ' +\n        'You can find your Signing Secret in your Slack App Settings.',\n    );\n  }\n",
    "  if (signatureVerification && !signingSecret) {\n    console.warn(\n      'signingSecret is required when signature verification is enabled. ' +\n        'You can find your Signing Secret in your Slack App Settings.',\n    );\n  }\n",
  ),
  // ---- Svix (TypeScript)
  E(
    "b21-sx-verify-parse-only",
    SX,
    "javascript/src/webhook.ts",
    "credential",
    "    return this.inner.verify(payload, headers);\n",
    "    return JSON.parse(payload.toString());\n",
  ),
  // ---- Standard Webhooks (TypeScript)
  E(
    "b21-sw-timestamp-too-old",
    SW,
    SWI,
    "token",
    '    if (now - timestamp > WEBHOOK_TOLERANCE_IN_SECONDS) {\n      throw new WebhookVerificationError("Message timestamp too old");\n    }\n',
    "",
  ),
  E(
    "b21-sw-no-match-fallback",
    SW,
    SWI,
    "authn-branch",
    '    throw new WebhookVerificationError("No matching signature found");\n',
    "    return JSON.parse(payload.toString());\n",
  ),
  E(
    "b21-sw-prefix-compare",
    SW,
    SWI,
    "credential",
    "      if (timingSafeEqual(encoder.encode(signature), encoder.encode(expectedSignature))) {\n",
    "      if (signature && expectedSignature.startsWith(signature)) {\n",
  ),
  E(
    "b21-sw-timing-equal-length",
    SW,
    "libraries/javascript/src/timing_safe_equal.ts",
    "credential",
    "  if (a.byteLength !== b.byteLength) {\n    return false;\n  }\n",
    "",
  ),
  // ---- cookie-parser (JavaScript)
  E(
    "b21-cp-unsigned-fallback",
    CP,
    "index.js",
    "credential",
    "    if (val !== false) {\n      return val\n    }\n  }\n\n  return false\n}\n",
    "    if (val !== false) {\n      return val\n    }\n  }\n\n  return str.slice(2)\n}\n",
  ),
  E(
    "b21-cp-plain-into-signed",
    CP,
    "index.js",
    "authn-branch",
    "    if (val !== dec) {\n      ret[key] = dec\n      delete obj[key]\n    }\n",
    "    if (dec !== false) {\n      ret[key] = dec\n      delete obj[key]\n    }\n",
  ),
  // ---- cookie-signature (JavaScript)
  E(
    "b21-cs-length-or",
    CS,
    "index.js",
    "credential",
    "    expectedBuffer.length === inputBuffer.length &&\n",
    "    expectedBuffer.length === inputBuffer.length ||\n",
  ),
  E(
    "b21-cs-string-compare",
    CS,
    "index.js",
    "credential",
    "  return (\n    expectedBuffer.length === inputBuffer.length &&\n    crypto.timingSafeEqual(expectedBuffer, inputBuffer)\n   ) ? tentativeValue : false;\n",
    "  return expectedInput === input ? tentativeValue : false;\n",
  ),
  // ---- nuxt-auth-utils (TypeScript)
  E(
    "b21-na-require-session-user",
    NA,
    "src/runtime/server/utils/session.ts",
    "authn-branch",
    "  if (!userSession.user) {\n    if (isEvent(event)) {\n",
    "  if (!userSession) {\n    if (isEvent(event)) {\n",
  ),
  E(
    "b21-na-session-get-secure",
    NA,
    "src/runtime/server/api/session.get.ts",
    "authz",
    "  const { secure, ...data } = session\n\n  return data\n",
    "  return session\n",
  ),
  E(
    "b21-na-verify-password-plain",
    NA,
    "src/runtime/server/utils/password.ts",
    "credential",
    "  return await getHash().verify(hashedPassword, plainPassword)\n",
    "  return hashedPassword === plainPassword || await getHash().verify(hashedPassword, plainPassword)\n",
  ),
  E(
    "b21-na-session-samesite",
    NA,
    "src/module.ts",
    "secure-default",
    "      cookie: {\n        sameSite: 'lax',\n      },\n",
    "      cookie: {\n        sameSite: 'none',\n        secure: false,\n      },\n",
  ),
  E(
    "b21-na-pkce-cookie-httponly",
    NA,
    NAU,
    "secure-default",
    "    setCookie(event, 'nuxt-auth-pkce', verifier, {\n      httpOnly: true,\n",
    "    setCookie(event, 'nuxt-auth-pkce', verifier, {\n      httpOnly: false,\n",
  ),
  E(
    "b21-na-state-cookie-secure",
    NA,
    NAU,
    "secure-default",
    "    secure: sameSite === 'none' || !isDevelopment,\n",
    "    secure: sameSite === 'none',\n",
  ),
  E(
    "b21-na-github-state",
    NA,
    "src/runtime/server/lib/oauth/github.ts",
    "token",
    "    if (query.state !== state) {\n      return handleInvalidState(event, 'github', onError)\n    }\n\n",
    "",
  ),
  E(
    "b21-na-oidc-nonce",
    NA,
    "src/runtime/server/lib/oauth/oidc.ts",
    "token",
    "      if (claims.nonce !== nonce) {\n",
    "      if (nonce && claims.nonce && claims.nonce !== nonce) {\n",
  ),
  E(
    "b21-na-webauthn-verified",
    NA,
    "src/runtime/server/lib/webauthn/authenticate.ts",
    "authn-branch",
    "      if (!verification.verified)\n        throw createError({ statusCode: 400, message: 'Failed to verify registration response' })\n\n",
    "",
  ),
  E(
    "b21-na-verify-jwt-decode",
    NA,
    NAU,
    "token",
    "  const { payload } = await jose.jwtVerify(token, JWKS, {\n    audience: options.audience,\n    issuer: options.issuer,\n  })\n",
    "  const payload = jose.decodeJwt(token)\n",
  ),
  E(
    "b21-na-apple-audience",
    NA,
    "src/runtime/server/lib/oauth/apple.ts",
    "token",
    "        audience: config.clientId,\n        issuer: 'https://appleid.apple.com',\n",
    "        issuer: 'https://appleid.apple.com',\n",
  ),
  // ---- Payload (TypeScript)
  E(
    "b21-pl-execute-access-denied",
    PL,
    `${PLA}/executeAccess.ts`,
    "authz",
    "    if (!resolvedConstraint) {\n      if (!disableErrors) {\n        throw new Forbidden(req.t)\n      }\n    }\n\n",
    "",
  ),
  E(
    "b21-pl-execute-access-anonymous",
    PL,
    `${PLA}/executeAccess.ts`,
    "authz",
    "  if (req.user) {\n    return true\n  }\n\n  if (!disableErrors) {\n    throw new Forbidden(req.t)\n  }\n  return false\n",
    "  return true\n",
  ),
  E(
    "b21-pl-default-access-any-collection",
    PL,
    `${PLA}/defaultAccess.ts`,
    "authz",
    "  Boolean(user) && user!.collection === payload.config.admin.user\n",
    "  Boolean(user)\n",
  ),
  E(
    "b21-pl-local-hash-length-only",
    PL,
    `${PLA}/strategies/local/authenticate.ts`,
    "credential",
    "          if (\n            hashBuffer.length === storedHashBuffer.length &&\n            crypto.timingSafeEqual(hashBuffer, storedHashBuffer)\n          ) {\n",
    "          if (hashBuffer.length === storedHashBuffer.length) {\n",
  ),
  E(
    "b21-pl-csrf-origin-prefix",
    PL,
    `${PLA}/extractJWT.ts`,
    "authz",
    "      if (payload.config.csrf.length === 0 || payload.config.csrf.includes(origin)) {\n",
    "      if (\n        payload.config.csrf.length === 0 ||\n        payload.config.csrf.some((allowed) => origin.startsWith(allowed))\n      ) {\n",
  ),
  E(
    "b21-pl-csrf-fetch-site-missing",
    PL,
    `${PLA}/extractJWT.ts`,
    "authz",
    "    if (secFetchSite === 'same-origin' || secFetchSite === 'same-site' || secFetchSite === 'none') {\n",
    "    if (secFetchSite !== 'cross-site') {\n",
  ),
  E(
    "b21-pl-jwt-session-optional",
    PL,
    `${PLA}/strategies/jwt.ts`,
    "token",
    "        if (!existingSession || !decodedPayload.sid) {\n",
    "        if (decodedPayload.sid && !existingSession) {\n",
  ),
  E(
    "b21-pl-jwt-unverified-user",
    PL,
    `${PLA}/strategies/jwt.ts`,
    "authn-branch",
    "    if (user && (!collection!.config.auth.verify || user._verified)) {\n",
    "    if (user) {\n",
  ),
  E(
    "b21-pl-login-locked",
    PL,
    `${PLA}/operations/login.ts`,
    "authn-branch",
    "  if (isUserLocked(new Date(user.lockUntil))) {\n    throw new LockedAuth(req.t)\n  }\n",
    "",
  ),
  E(
    "b21-pl-login-unverified",
    PL,
    `${PLA}/operations/login.ts`,
    "authn-branch",
    "  if (collectionConfig.auth.verify && user._verified === false) {\n    throw new UnverifiedEmail({ t: req.t })\n  }\n\n",
    "",
  ),
  E(
    "b21-pl-reset-token-expiry",
    PL,
    `${PLA}/operations/resetPassword.ts`,
    "token",
    "        resetPasswordExpiration: { greater_than: new Date().toISOString() },\n",
    "",
  ),
  E(
    "b21-pl-token-cookie-httponly",
    PL,
    `${PLA}/cookies.ts`,
    "secure-default",
    "    expires: getCookieExpiration({ seconds: collectionAuthConfig.tokenExpiration }),\n    httpOnly: true,\n",
    "    expires: getCookieExpiration({ seconds: collectionAuthConfig.tokenExpiration }),\n    httpOnly: false,\n",
  ),
  E(
    "b21-pl-delete-access",
    PL,
    "packages/payload/src/collections/operations/deleteByID.ts",
    "authz",
    "    const accessResults = !overrideAccess\n      ? await executeAccess(\n          { id, slug: collectionConfig.slug, req },\n          collectionConfig.access.delete,\n        )\n      : true\n",
    "    const accessResults = true\n",
  ),
  E(
    "b21-pl-find-by-id-override-default",
    PL,
    "packages/payload/src/collections/operations/findByID.ts",
    "secure-default",
    "    overrideAccess = false,\n    populate,\n",
    "    overrideAccess = true,\n    populate,\n",
  ),
  // ---- Shopify app packages (TypeScript)
  E(
    "b21-sh-hmac-timestamp",
    SH,
    `${SHA}/utils/hmac-validator.ts`,
    "token",
    "    validateHmacTimestamp(normalizedQuery);\n\n",
    "",
  ),
  E(
    "b21-sh-webhook-invalid-hmac",
    SH,
    `${SHA}/utils/hmac-validator.ts`,
    "authn-branch",
    "    if (!validHmac) {\n      return fail(ValidationErrorReason.InvalidHmac, type, config);\n    }\n",
    "",
  ),
  E(
    "b21-sh-session-token-audience-default",
    SH,
    `${SHA}/session/decode-session-token.ts`,
    "secure-default",
    "    {checkAudience = true}: DecodeSessionTokenOptions = {},\n",
    "    {checkAudience = false}: DecodeSessionTokenOptions = {},\n",
  ),
  E(
    "b21-sh-session-token-algorithms",
    SH,
    `${SHA}/session/decode-session-token.ts`,
    "token",
    "          algorithms: ['HS256'],\n",
    "",
  ),
  E(
    "b21-sh-session-token-clock-tolerance",
    SH,
    `${SHA}/session/decode-session-token.ts`,
    "token",
    "const JWT_PERMITTED_CLOCK_TOLERANCE = 10;\n",
    "const JWT_PERMITTED_CLOCK_TOLERANCE = 60 * 60 * 24;\n",
  ),
  E(
    "b21-sh-oauth-state-compare",
    SH,
    `${SHA}/auth/oauth/oauth.ts`,
    "token",
    "  return (\n    (await validateHmac(config)(query)) &&\n    safeCompare(query.state!, stateFromCookie)\n  );\n",
    "  return validateHmac(config)(query);\n",
  ),
  E(
    "b21-sh-oauth-state-cookie-unsigned",
    SH,
    `${SHA}/auth/oauth/oauth.ts`,
    "token",
    "    const stateFromCookie = await cookies.getAndVerify(STATE_COOKIE_NAME);\n",
    "    const stateFromCookie = cookies.get(STATE_COOKIE_NAME);\n",
  ),
  E(
    "b21-sh-session-cookie-secure",
    SH,
    `${SHA}/auth/oauth/oauth.ts`,
    "secure-default",
    "        sameSite: 'lax',\n        secure: true,\n        path: cookiePath,\n",
    "        sameSite: 'lax',\n        secure: false,\n        path: cookiePath,\n",
  ),
  E(
    "b21-sh-express-session-other-shop",
    SH,
    `${SHE}/validate-authenticated-session.ts`,
    "authz",
    "  if (session && shop && session.shop !== shop) {\n    config.logger.debug('Found a session for a different shop in the request', {\n      currentShop: session.shop,\n      requestShop: shop,\n    });\n\n    return redirectToAuth({req, res, api, config});\n  }\n\n",
    "",
  ),
  E(
    "b21-sh-express-session-active",
    SH,
    `${SHE}/validate-authenticated-session.ts`,
    "token",
    "    if (session.isActive(api.config.scopes)) {\n",
    "    if (session.accessToken) {\n",
  ),
  E(
    "b21-sh-express-installed-check",
    SH,
    `${SHE}/ensure-installed-on-shop.ts`,
    "authz",
    "      if (!session && !req.originalUrl.match(exitIframeRE)) {\n        config.logger.debug(\n          'App installation was not found for shop, redirecting to auth',\n          {shop},\n        );\n\n        return redirectToAuth({req, res, api, config});\n      }\n\n",
    "",
  ),
  E(
    "b21-sh-remix-flow-invalid",
    SH,
    "packages/apps/shopify-app-remix/src/server/authenticate/flow/authenticate.ts",
    "authn-branch",
    "    if (!result.valid) {\n      logger.error('Received an invalid flow request', {reason: result.reason});\n\n      throw new Response(undefined, {\n        status: 400,\n        statusText: 'Bad Request',\n      });\n    }\n",
    "    if (!result.valid) {\n      logger.error('Received an invalid flow request', {reason: result.reason});\n    }\n",
  ),
  // ---- twilio-node (TypeScript)
  E(
    "b21-tw-webhook-validate-default",
    TW,
    TWW,
    "secure-default",
    "  if (options.validate == undefined) options.validate = true;\n",
    "  if (options.validate == undefined) options.validate = false;\n",
  ),
  E(
    "b21-tw-body-hash",
    TW,
    TWW,
    "credential",
    '    validateRequest(authToken, twilioHeader, url, {}) &&\n    validateBody(body, urlObject.searchParams.get("bodySHA256") || "")\n',
    "    validateRequest(authToken, twilioHeader, url, {})\n",
  ),
  E(
    "b21-tw-signature-plain-compare",
    TW,
    TWW,
    "credential",
    "  return scmp(Buffer.from(twilioHeader), Buffer.from(signatureWithoutPort));\n",
    "  return twilioHeader === signatureWithoutPort;\n",
  ),
  E(
    "b21-tw-missing-auth-token-continue",
    TW,
    TWW,
    "authn-branch",
    '        console.error(\n          "[Twilio]: Error - Twilio auth token is required for webhook request validation."\n        );\n        response\n          .type("text/plain")\n          .status(500)\n          .send(\n            "Webhook Error - we attempted to validate this request without first configuring our auth token."\n          );\n',
    '        console.warn(\n          "[Twilio]: Warning - no auth token configured, skipping webhook request validation."\n        );\n        next();\n',
  ),
];

/** Real security fixes of the same projects, reversed (split `history21`). */
export const REVERSED_FIXES_HISTORY21: ReversedFix[] = [
];
