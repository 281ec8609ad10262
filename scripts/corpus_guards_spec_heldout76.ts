/**
 * Seventy-sixth held-out batch of the guard-removal corpus: removals written by reading the
 * security code of projects not otherwise used by the corpus (django-braces, easy-rbac,
 * pusher-http-python, pusher-http-node, razorpay-python, razorpay-node, shopify_python_api,
 * qstash-js, grammY, kafkajs, aiosmtplib; one reversed fix from paho.mqtt.python), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H76 = "heldout76" as const;
const DB = "brack3t/django-braces";
const DBA = "braces/views/_access.py";
const PP = "pusher/pusher-http-python";
const PPA = "pusher/authentication_client.py";
const PN = "pusher/pusher-http-node";
const RP = "razorpay/razorpay-python";
const RPU = "razorpay/utility/utility.py";
const RN = "razorpay/razorpay-node";
const RNU = "lib/utils/razorpay-utils.js";
const SH = "Shopify/shopify_python_api";
const SHS = "shopify/session.py";
const SHT = "shopify/session_token.py";
const QS = "upstash/qstash-js";
const QSR = "src/receiver.ts";
const ER = "DeadAlready/easy-rbac";
const ERC = "src/easy-rbac.ts";
const ERX = "src/easy-rbac/express.ts";
const GY = "grammyjs/grammY";
const GYW = "src/convenience/webhook.ts";
const KJ = "tulios/kafkajs";
const KJS = "src/broker/saslAuthenticator/scram.js";
const PM = "eclipse/paho.mqtt.python";
const AS = "cole/aiosmtplib";
const ASS = "src/aiosmtplib/smtp.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H76);

/** The seventy-sixth held-out batch of edits (split `heldout76`). */
export const EDITS_HELDOUT76: GuardEdit[] = [
  // ---- django-braces (Python)
  E(
    "db-login-required-branch",
    DB,
    DBA,
    "authn-branch",
    '        """Call the appropriate method after checking authentication"""\n        if not request.user.is_authenticated:\n            return self.handle_no_permission(request)\n\n',
    '        """Call the appropriate method after checking authentication"""\n',
  ),
  E(
    "db-perm-or-authenticated",
    DB,
    DBA,
    "authz",
    "            has_permission = request.user.has_perm(perms)\n",
    "            has_permission = request.user.has_perm(perms) or request.user.is_authenticated\n",
  ),
  E(
    "db-perms-all-not-enforced",
    DB,
    DBA,
    "authz",
    "            if not request.user.has_perms(perms_all, instance_object):\n                return False\n",
    "            if not request.user.has_perms(perms_all, instance_object):\n                pass\n",
  ),
  E(
    "db-perms-any-empty-only",
    DB,
    DBA,
    "authz",
    "            if not any_perms or not any(any_perms):\n",
    "            if not any_perms:\n",
  ),
  E(
    "db-group-any-authenticated",
    DB,
    DBA,
    "authz",
    "        in_group = False\n        if request.user.is_authenticated:\n            in_group = self.check_membership(self.get_group_required())\n",
    "        in_group = request.user.is_authenticated\n",
  ),
  E(
    "db-user-test-commented",
    DB,
    DBA,
    "authz",
    "        if not user_test_result:\n            return self.handle_no_permission(request)\n",
    "        # if not user_test_result:\n        #     return self.handle_no_permission(request)\n",
  ),
  E(
    "db-superuser-or-staff",
    DB,
    DBA,
    "authz",
    "        if not request.user.is_superuser:\n",
    "        if not (request.user.is_superuser or request.user.is_staff):\n",
  ),
  E(
    "db-ssl-debug-default-true",
    DB,
    DBA,
    "secure-default",
    '        if getattr(settings, "DEBUG", False):\n',
    '        if getattr(settings, "DEBUG", True):\n',
  ),
  E(
    "db-recent-login-not-enforced",
    DB,
    DBA,
    "authn-branch",
    "            if now() > (request.user.last_login + delta):\n                return logout_then_login(request, self.get_login_url())\n",
    "",
  ),
  // ---- pusher-http-python (Python)
  E(
    "pp-webhook-key-unchecked",
    PP,
    PPA,
    "credential",
    "        if key != self.key:\n            return None\n\n",
    "",
  ),
  E(
    "pp-webhook-signature-presence-only",
    PP,
    PPA,
    "credential",
    "        if not verify(self.secret, body, signature):\n            return None\n",
    "        if not signature:\n            return None\n",
  ),
  E(
    "pp-webhook-time-window-removed",
    PP,
    PPA,
    "token",
    "        if abs(time.time() * 1000 - time_ms) > 300000:\n            return None\n",
    "",
  ),
  E(
    "pp-socket-id-unvalidated",
    PP,
    "pusher/util.py",
    "authz",
    '    if not socket_id_re.match(socket_id):\n        raise ValueError("Invalid socket ID: %s" % socket_id)\n',
    "",
  ),
  E(
    "pp-verify-plain-equality",
    PP,
    "pusher/signature.py",
    "credential",
    "    return compare_digest(signature, sign(secret, string_to_sign))\n",
    "    return signature == sign(secret, string_to_sign)\n",
  ),
  E(
    "pp-requests-verify-off",
    PP,
    "pusher/requests.py",
    "secure-default",
    "            self.options.update({'verify': CERT_PATH})\n",
    "            self.options.update({'verify': False})\n",
  ),
  E(
    "pp-ssl-default-off",
    PP,
    "pusher/client.py",
    "secure-default",
    "            ssl=True,\n",
    "            ssl=False,\n",
  ),
  // ---- pusher-http-node (JS)
  E(
    "pn-webhook-key-only",
    PN,
    "lib/webhook.js",
    "credential",
    "    if (this.key == token.key && token.verify(this.body, this.signature)) {\n",
    "    if (this.key == token.key) {\n",
  ),
  E(
    "pn-token-verify-shape-only",
    PN,
    "lib/token.js",
    "credential",
    "    return util.secureCompare(this.sign(string), signature)\n",
    '    return typeof signature === "string" && signature.length === 64\n',
  ),
  E(
    "pn-secure-compare-length-dropped",
    PN,
    "lib/util.js",
    "credential",
    "  if (a.length !== b.length) {\n    return false\n  }\n",
    "",
  ),
  E(
    "pn-authorize-channel-unvalidated",
    PN,
    "lib/pusher.js",
    "authz",
    "Pusher.prototype.authorizeChannel = function (socketId, channel, data) {\n  validateSocketId(socketId)\n  validateChannel(channel)\n",
    "Pusher.prototype.authorizeChannel = function (socketId, channel, data) {\n",
  ),
  E(
    "pn-authenticate-user-data-unchecked",
    PN,
    "lib/pusher.js",
    "authn-branch",
    "  validateSocketId(socketId)\n  validateUserData(userData)\n",
    "  validateSocketId(socketId)\n",
  ),
  // ---- razorpay-python (Python)
  E(
    "rp-no-raise-on-mismatch",
    RP,
    RPU,
    "credential",
    "        if not result:\n            raise SignatureVerificationError(\n                'Razorpay Signature Verification Failed')\n        return result\n",
    "        return result\n",
  ),
  E(
    "rp-payment-secret-from-params",
    RP,
    RPU,
    "credential",
    "        secret = str(self.client.auth[1])\n",
    "        secret = str(parameters.get('secret', self.client.auth[1]))\n",
  ),
  E(
    "rp-compare-string-length-dropped",
    RP,
    RPU,
    "credential",
    "        if len(expected_str) != len(actual_str):\n            return False\n",
    "",
  ),
  E(
    "rp-client-verify-off",
    RP,
    "razorpay/client.py",
    "secure-default",
    "                                                         verify=self.cert_path,\n",
    "                                                         verify=False,\n",
  ),
  // ---- razorpay-node (JS)
  E(
    "rn-webhook-prefix-match",
    RN,
    RNU,
    "credential",
    "  return expectedSignature === signature;\n",
    "  return expectedSignature.startsWith(signature);\n",
  ),
  E(
    "rn-payment-unknown-kind-accepted",
    RN,
    RNU,
    "authn-branch",
    "    }else{\n      throw new Error('Either order_id or subscription_id is mandatory');\n    }\n",
    "    }else{\n      return true;\n    }\n",
  ),
  E(
    "rn-oauth-redirect-uri-unchecked",
    RN,
    "lib/resources/oAuthTokenValidator.js",
    "token",
    '      } else if (field === "redirect_uri" && ! isValidUrl(inputData[field])) {\n        errors[field] = "redirect_uri is not a valid URL";\n',
    "",
  ),
  // ---- shopify_python_api (Python)
  E(
    "sh-timestamp-replay-window-removed",
    SH,
    SHS,
    "token",
    '        if int(params.get("timestamp", 0)) < time.time() - one_day:\n            return False\n',
    "",
  ),
  E(
    "sh-missing-hmac-true",
    SH,
    SHS,
    "credential",
    '        if "hmac" not in params:\n            return False\n',
    '        if "hmac" not in params:\n            return True\n',
  ),
  E(
    "sh-request-token-validation-dropped",
    SH,
    SHS,
    "authn-branch",
    '        if not self.validate_params(params):\n            raise ValidationException("Invalid HMAC: Possibly malicious login")\n\n',
    "",
  ),
  E(
    "sh-hmac-prefix-compare",
    SH,
    SHS,
    "credential",
    "            return hmac.compare_digest(hmac_calculated, hmac_to_verify)\n",
    "            return hmac_calculated.startswith(hmac_to_verify)\n",
  ),
  E(
    "sh-session-token-no-audience",
    SH,
    SHT,
    "token",
    '            options={"require": REQUIRED_FIELDS},\n',
    '            options={"require": REQUIRED_FIELDS, "verify_aud": False},\n',
  ),
  E(
    "sh-session-token-no-signature",
    SH,
    SHT,
    "token",
    "            algorithms=[ALGORITHM],\n",
    '            algorithms=[ALGORITHM],\n            options={"verify_signature": False},\n',
  ),
  E(
    "sh-issuer-dest-match-dropped",
    SH,
    SHT,
    "token",
    "def _validate_issuer(decoded_payload):\n    _validate_issuer_hostname(decoded_payload)\n    _validate_issuer_and_dest_match(decoded_payload)\n",
    "def _validate_issuer(decoded_payload):\n    _validate_issuer_hostname(decoded_payload)\n",
  ),
  E(
    "sh-issuer-not-validated",
    SH,
    SHT,
    "token",
    "    decoded_payload = _decode_session_token(session_token, api_key, secret)\n    _validate_issuer(decoded_payload)\n",
    "    decoded_payload = _decode_session_token(session_token, api_key, secret)\n",
  ),
  E(
    "sh-leeway-one-day",
    SH,
    SHT,
    "token",
    "LEEWAY_SECONDS = 10\n",
    "LEEWAY_SECONDS = 86400\n",
  ),
  E(
    "sh-shop-domain-unanchored",
    SH,
    "shopify/utils/shop_url.py",
    "token",
    '    if re.match(r"{h}\\.{d}$".format(h=HOSTNAME_PATTERN, d=re.escape(myshopify_domain)), uri.netloc):\n',
    '    if re.match(r"{h}\\.{d}".format(h=HOSTNAME_PATTERN, d=re.escape(myshopify_domain)), uri.netloc):\n',
  ),
  // ---- qstash-js (TS)
  E(
    "qs-issuer-not-checked",
    QS,
    QSR,
    "token",
    '        issuer: "Upstash",\n',
    "",
  ),
  E(
    "qs-subject-url-not-checked",
    QS,
    QSR,
    "token",
    "    if (request.url !== undefined && p.sub !== request.url) {\n      throw new SignatureError(`invalid subject: ${p.sub}, want: ${request.url}`);\n    }\n",
    "",
  ),
  E(
    "qs-empty-body-claim-passes",
    QS,
    QSR,
    "token",
    '    if (p.body.replace(padding, "") !== bodyHash.replace(padding, "")) {\n',
    '    if (p.body && p.body.replace(padding, "") !== bodyHash.replace(padding, "")) {\n',
  ),
  E(
    "qs-fallback-decodes-unverified",
    QS,
    QSR,
    "token",
    "      payload = await this.verifyWithKey(signingKeys.nextSigningKey, request);\n",
    "      payload = jose.decodeJwt(request.signature);\n",
  ),
  E(
    "qs-nextjs-verify-errors-ignored",
    QS,
    "platforms/nextjs.ts",
    "authn-branch",
    '    const isValid = await receiver.verify({\n      signature,\n      body,\n      clockTolerance: config?.clockTolerance,\n      upstashRegion: typeof upstashRegion === "string" ? upstashRegion : undefined,\n    });\n    if (!isValid) {\n      response.status(BAD_REQUEST);\n',
    '    const isValid = await receiver\n      .verify({\n        signature,\n        body,\n        clockTolerance: config?.clockTolerance,\n        upstashRegion: typeof upstashRegion === "string" ? upstashRegion : undefined,\n      })\n      .catch(() => true);\n    if (!isValid) {\n      response.status(BAD_REQUEST);\n',
  ),
  E(
    "qs-h3-invalid-branch-removed",
    QS,
    "platforms/h3.ts",
    "authn-branch",
    '    if (!isValid) {\n      return { status: 403, body: "invalid signature" };\n    }\n',
    "",
  ),
  E(
    "qs-svelte-missing-signature-passes",
    QS,
    "platforms/svelte.ts",
    "authn-branch",
    '    if (!signature) {\n      return new Response("`Upstash-Signature` header is missing", { status: 403 });\n    }\n    if (typeof signature !== "string") {\n      throw new TypeError("`Upstash-Signature` header is not a string");\n    }\n',
    "    if (!signature) {\n      return handler(event);\n    }\n",
  ),
  E(
    "qs-solidjs-dev-early-return",
    QS,
    "platforms/solidjs.ts",
    "authn-branch",
    '  return async (event: APIEvent) => {\n    const signature = event.request.headers.get("upstash-signature");\n',
    '  return async (event: APIEvent) => {\n    if (process.env.NODE_ENV !== "production") {\n      return handler(event);\n    }\n    const signature = event.request.headers.get("upstash-signature");\n',
  ),
  // ---- easy-rbac (TS)
  E(
    "er-undefined-role-allowed",
    ER,
    ERC,
    "authz",
    '    if (!$role) {\n      debug("Undefined role");\n      return false;\n    }\n',
    '    if (!$role) {\n      debug("Undefined role");\n      return true;\n    }\n',
  ),
  E(
    "er-conditional-not-evaluated",
    ER,
    ERC,
    "authz",
    "        return $role.can[operation](params);\n",
    "        return Boolean($role.can[operation]);\n",
  ),
  E(
    "er-glob-when-ignored",
    ER,
    ERC,
    "authz",
    "    const nonWhenGlobMatch = globMatches.find((glob) => !glob.when);\n",
    "    const nonWhenGlobMatch = globMatches[0];\n",
  ),
  E(
    "er-regex-unanchored",
    ER,
    ERC,
    "authz",
    '  return new RegExp("^" + str + "$");\n',
    "  return new RegExp(str);\n",
  ),
  E(
    "er-express-denied-continues",
    ER,
    ERX,
    "authz",
    '      debug("no forbidden info, return 401");\n      res.sendStatus(401);\n',
    '      debug("no forbidden info, continue");\n      next();\n',
  ),
  E(
    "er-express-get-always-allowed",
    ER,
    ERX,
    "authz",
    "    if (result) {\n",
    '    if (result || req.method === "GET") {\n',
  ),
  E(
    "er-express-uninitialized-passes",
    ER,
    ERX,
    "authz",
    '    if (!req.rbac) {\n      debug("No RBAC object found on request");\n      throw new Error("RBAC middleware not initialized");\n    }\n',
    '    if (!req.rbac) {\n      debug("No RBAC object found on request");\n      return next();\n    }\n',
  ),
  // ---- grammY (TS)
  E(
    "gy-missing-header-accepted",
    GY,
    GYW,
    "authn-branch",
    "    if (header === undefined) {\n        return false;\n    }\n",
    "    if (header === undefined) {\n        return true;\n    }\n",
  ),
  E(
    "gy-length-check-dropped",
    GY,
    GYW,
    "credential",
    "    if (headerBytes.length !== tokenBytes.length) {\n        return false;\n    }\n",
    "",
  ),
  E(
    "gy-compare-replaced-by-presence",
    GY,
    GYW,
    "credential",
    "        if (!compareSecretToken(handler.header, token)) {\n",
    "        if (token !== undefined && handler.header === undefined) {\n",
  ),
  E(
    "gy-unauthorized-only-logged",
    GY,
    GYW,
    "authn-branch",
    "        if (!compareSecretToken(handler.header, token)) {\n            await handler.unauthorized();\n            return handler.handlerReturn;\n        }\n",
    '        if (!compareSecretToken(handler.header, token)) {\n            debugErr("Webhook secret token mismatch");\n        }\n',
  ),
  // ---- kafkajs (JS)
  E(
    "kj-server-signature-warn-only",
    KJ,
    KJS,
    "credential",
    "      if (finalResponse.v !== serverSignature) {\n        throw new Error('Invalid server signature in server final message')\n      }\n",
    "      if (finalResponse.v !== serverSignature) {\n        this.logger.warn('Server signature mismatch', { broker })\n      }\n",
  ),
  E(
    "kj-server-nonce-unchecked",
    KJ,
    KJS,
    "token",
    "    if (!clientMessageResponse.r.startsWith(this.currentNonce)) {\n      throw new KafkaJSSASLAuthenticationError(\n        `${PREFIX} failed: Invalid server nonce, it does not start with the client nonce`\n      )\n    }\n\n",
    "",
  ),
  E(
    "kj-min-iterations-one",
    KJ,
    KJS,
    "credential",
    "    if (iterations < minIterations) {\n",
    "    if (iterations < 1) {\n",
  ),
  E(
    "kj-tls-reject-unauthorized-off",
    KJ,
    "src/network/socketFactory.js",
    "secure-default",
    "          Object.assign({ host, port }, !net.isIP(host) ? { servername: host } : {}, ssl),\n",
    "          Object.assign({ host, port, rejectUnauthorized: false }, !net.isIP(host) ? { servername: host } : {}, ssl),\n",
  ),
  // ---- aiosmtplib (Python)
  E(
    "as-validate-certs-default-off",
    AS,
    ASS,
    "secure-default",
    "        validate_certs: bool = True,\n",
    "        validate_certs: bool = False,\n",
  ),
  E(
    "as-check-hostname-off",
    AS,
    ASS,
    "secure-default",
    "            context.check_hostname = bool(self.validate_certs)\n",
    "            context.check_hostname = False\n",
  ),
  E(
    "as-required-starttls-failure-ignored",
    AS,
    ASS,
    "secure-default",
    "        if self._start_tls_on_connect is True:\n            await self.starttls()\n",
    "        if self._start_tls_on_connect is True:\n            try:\n                await self.starttls()\n            except SMTPException:\n                pass\n",
  ),
];

/** Reversed real security fixes of the seventy-sixth batch (split `history76`), chosen by message only. */
export const REVERSED_FIXES_HISTORY76: ReversedFix[] = [
  {
    id: "as-starttls-injection",
    repo: AS,
    commit: "9fab7ba",
    path: "src/aiosmtplib/protocol.py",
    cls: "secure-default",
    note: "fix(security): STARTTLS injection",
    split: "history76",
  },
  {
    id: "pn-webhook-timing-attack",
    repo: PN,
    commit: "09bee26",
    path: "lib/token.js",
    cls: "credential",
    note: "Prevent timing attacks on WebHooks",
    split: "history76",
  },
  {
    id: "pn-auth-signature-override",
    repo: PN,
    commit: "2c9d2ae",
    path: "lib/pusher.js",
    cls: "credential",
    note: "Don't allow overriding auth_signature",
    split: "history76",
  },
  {
    id: "gy-webhook-secret-constant-time",
    repo: GY,
    commit: "2512ada",
    path: GYW,
    cls: "credential",
    note: "implement constant-time comparison for webhook secret token (#853)",
    split: "history76",
  },
  {
    id: "sh-hmac-param-escaping",
    repo: SH,
    commit: "3a51bec",
    path: SHS,
    cls: "credential",
    note: "Escape ampersand in params or equal in keys before signing with hmac",
    split: "history76",
  },
  {
    id: "rp-verify-subscription-signature",
    repo: RP,
    commit: "9db769a",
    path: RPU,
    cls: "credential",
    note: "[FIX] Verify signature of subscription",
    split: "history76",
  },
  {
    id: "pm-examples-insecure-option",
    repo: PM,
    commit: "cc1a1d9",
    path: "examples/client_pub_opts.py",
    cls: "secure-default",
    note: "Fix insecure option (eclipse/paho.mqtt.python#247)",
    split: "history76",
  },
];
