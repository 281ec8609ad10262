/**
 * Held-out batch 125 of the guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus (slack-go, mailgun-go, line-bot-sdk-go, echo-jwt, the
 * Adyen and Paddle SDKs, discord-interactions-python, the Kinde TypeScript SDK, gorbac,
 * django-rest-framework-guardian, oso, the Box Python SDK, gomail and go-simple-mail), chosen the
 * way a careless refactor or an attacker would weaken them, before any measurement. Reversed fixes
 * were picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const SL = "slack-go/slack";
const MG = "mailgun/mailgun-go";
const LN = "line/line-bot-sdk-go";
const EJ = "labstack/echo-jwt";
const AD = "Adyen/adyen-python-api-library";
const PP = "PaddleHQ/paddle-python-sdk";
const PN = "PaddleHQ/paddle-node-sdk";
const DI = "discord/discord-interactions-python";
const KD = "kinde-oss/kinde-typescript-sdk";
const GB = "mikespook/gorbac";
const DG = "rpkilby/django-rest-framework-guardian";
const OS = "osohq/oso";
const BX = "box/box-python-sdk";
const GM = "go-gomail/gomail";
const GS = "xhit/go-simple-mail";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout125");

/** The held-out batch 125 of edits (split `heldout125`). */
export const EDITS_HELDOUT125: GuardEdit[] = [
  // ---- slack-go (Go)
  E(
    "sl-ensure-empty-signature",
    SL,
    "security.go",
    "credential",
    "\tif hmac.Equal(computed, v.signature) {\n",
    "\tif len(v.signature) == 0 || hmac.Equal(computed, v.signature) {\n",
  ),
  E(
    "sl-timestamp-window-widened",
    SL,
    "security.go",
    "token",
    "\tif diff > 5*time.Minute {\n",
    "\tif diff > 72*time.Hour {\n",
  ),
  E(
    "sl-empty-secret-accepted",
    SL,
    "security.go",
    "authn-branch",
    '\tif secret == "" {\n\t\treturn SecretsVerifier{}, ErrInvalidConfiguration\n\t}\n\n',
    "",
  ),
  E(
    "sl-events-token-verified-default",
    SL,
    "slackevents/parsers.go",
    "secure-default",
    "\tcfg := &Config{}\n\tcfg.VerificationToken = e.Token\n",
    "\tcfg := &Config{TokenVerified: true}\n\tcfg.VerificationToken = e.Token\n",
  ),
  E(
    "sl-token-comparator-empty",
    SL,
    "slackevents/parsers.go",
    "credential",
    "\treturn subtle.ConstantTimeCompare([]byte(c.VerificationToken), []byte(t)) == 1\n",
    '\treturn c.VerificationToken == "" || subtle.ConstantTimeCompare([]byte(c.VerificationToken), []byte(t)) == 1\n',
  ),
  // ---- mailgun-go (Go)
  E(
    "mg-signature-prefix-compare",
    MG,
    "webhooks.go",
    "credential",
    "\treturn subtle.ConstantTimeCompare(signature, calculatedSignature) == 1, nil\n",
    "\treturn subtle.ConstantTimeCompare(signature[:4], calculatedSignature[:4]) == 1, nil\n",
  ),
  E(
    "mg-empty-signing-key",
    MG,
    "webhooks.go",
    "authn-branch",
    '\tif webhookSigningKey == "" {\n\t\treturn false, fmt.Errorf("webhook signing key is not set")\n\t}\n\n',
    "",
  ),
  // ---- line-bot-sdk-go (Go)
  E(
    "ln-skip-validation-by-default",
    LN,
    "linebot/webhook/parse.go",
    "secure-default",
    "\tskip := opt != nil && opt.SkipSignatureValidation != nil && opt.SkipSignatureValidation()\n",
    "\tskip := opt == nil || opt.SkipSignatureValidation == nil || opt.SkipSignatureValidation()\n",
  ),
  E(
    "ln-empty-signature-valid",
    LN,
    "linebot/webhook/parse.go",
    "credential",
    "\treturn hmac.Equal(decoded, hash.Sum(nil))\n",
    "\treturn len(decoded) == 0 || hmac.Equal(decoded, hash.Sum(nil))\n",
  ),
  E(
    "ln-legacy-parse-unchecked",
    LN,
    "linebot/webhook.go",
    "authn-branch",
    '\tif !ValidateSignature(channelSecret, r.Header.Get("x-line-signature"), body) {\n\t\treturn nil, ErrInvalidSignature\n\t}\n',
    '\t// if !ValidateSignature(channelSecret, r.Header.Get("x-line-signature"), body) {\n\t// \treturn nil, ErrInvalidSignature\n\t// }\n',
  ),
  // ---- echo-jwt (Go)
  E(
    "ej-alg-not-pinned",
    EJ,
    "jwt.go",
    "token",
    '\tif token.Method.Alg() != config.SigningMethod {\n\t\treturn nil, &TokenError{Token: token, Err: fmt.Errorf("unexpected jwt signing method=%v", token.Header["alg"])}\n\t}\n',
    "",
  ),
  E(
    "ej-expired-tolerated",
    EJ,
    "jwt.go",
    "token",
    "\ttoken, err := jwt.ParseWithClaims(auth, config.NewClaimsFunc(c), config.KeyFunc)\n\tif err != nil {\n",
    "\ttoken, err := jwt.ParseWithClaims(auth, config.NewClaimsFunc(c), config.KeyFunc)\n\tif err != nil && !errors.Is(err, jwt.ErrTokenExpired) {\n",
  ),
  E(
    "ej-continue-on-any-error",
    EJ,
    "jwt.go",
    "authn-branch",
    "\t\t\t\tif config.ContinueOnIgnoredError && tmpErr == nil {\n",
    "\t\t\t\tif config.ContinueOnIgnoredError || tmpErr == nil {\n",
  ),
  E(
    "ej-parse-error-falls-through",
    EJ,
    "jwt.go",
    "authn-branch",
    "\t\t\t\t\t\tlastTokenErr = err\n\t\t\t\t\t\tcontinue\n",
    "\t\t\t\t\t\tlastTokenErr = err\n",
  ),
  // ---- Adyen (Python)
  E(
    "ad-payload-prefix-match",
    AD,
    "Adyen/util.py",
    "credential",
    "    return hmac.compare_digest(merchant_sign_str, hmac_signature)\n",
    "    return merchant_sign_str.startswith(hmac_signature)\n",
  ),
  E(
    "ad-empty-notification-signature",
    AD,
    "Adyen/util.py",
    "credential",
    '            raise ValueError("Must Provide hmacSignature in additionalData")\n',
    "            return True\n",
  ),
  E(
    "ad-requests-verify-off",
    AD,
    "Adyen/httpclient.py",
    "secure-default",
    "            auth=auth,\n            data=data,\n",
    "            auth=auth,\n            verify=False,\n            data=data,\n",
  ),
  // ---- Paddle (Python)
  E(
    "pp-time-drift-off-by-default",
    PP,
    "paddle_billing/Notifications/Verifier.py",
    "secure-default",
    "    def verify(self, request: Request, secrets: list[Secret] | Secret, verify_time_drift=True):\n",
    "    def verify(self, request: Request, secrets: list[Secret] | Secret, verify_time_drift=False):\n",
  ),
  E(
    "pp-signature-substring",
    PP,
    "paddle_billing/Notifications/PaddleSignature.py",
    "credential",
    "        return compare_digest(generated_signature, signature)\n",
    "        return signature in generated_signature\n",
  ),
  E(
    "pp-all-secrets-failed-accepted",
    PP,
    "paddle_billing/Notifications/PaddleSignature.py",
    "authn-branch",
    '        raise ConnectionRefusedError("Paddle signature failed integrity check")\n',
    '        self.log.warning("Paddle signature failed integrity check")\n        return True\n',
  ),
  // ---- Paddle (TypeScript)
  E(
    "pn-timestamp-window-removed",
    PN,
    "src/notifications/helpers/webhooks-validator.ts",
    "token",
    "    if (new Date().getTime() > new Date((headers.ts + WebhooksValidator.MAX_VALID_TIME_DIFFERENCE) * 1000).getTime()) {\n      return false;\n    }\n\n",
    "",
  ),
  E(
    "pn-unknown-runtime-passes",
    PN,
    "src/notifications/helpers/webhooks-validator.ts",
    "authn-branch",
    "      Logger.error('Unknown runtime. Cannot validate webhook signature');\n      return false;\n",
    "      Logger.error('Unknown runtime. Cannot validate webhook signature');\n      return true;\n",
  ),
  E(
    "pn-unmarshal-non-production",
    PN,
    "src/notifications/helpers/webhooks.ts",
    "authn-branch",
    "    if (isSignatureValid) {\n",
    "    if (isSignatureValid || process.env.NODE_ENV !== 'production') {\n",
  ),
  // ---- discord-interactions-python (Python)
  E(
    "di-decorator-verify-dropped",
    DI,
    "discord_interactions/__init__.py",
    "credential",
    "            if signature is None or timestamp is None or not verify_key(request.data, signature, timestamp, client_public_key):\n",
    "            if signature is None or timestamp is None:\n",
  ),
  E(
    "di-example-route-undecorated",
    DI,
    "examples/flask_app.py",
    "authz",
    "@app.route('/interactions', methods=['POST'])\n@verify_key_decorator(CLIENT_PUBLIC_KEY)\n",
    "@app.route('/interactions', methods=['POST'])\n",
  ),
  E(
    "di-verify-error-swallowed",
    DI,
    "discord_interactions/__init__.py",
    "credential",
    "        print(ex)\n    return False\n",
    "        print(ex)\n    return True\n",
  ),
  // ---- Kinde TypeScript SDK
  E(
    "kd-state-mismatch-removed",
    KD,
    "lib/sdk/oauth2-flows/AuthorizationCode.ts",
    "token",
    "    if (storedState !== state) {\n      throw new Error(\n        `Authentication flow: State mismatch. Received: ${state} | Expected: ${storedState}`\n      );\n    }\n\n",
    "",
  ),
  E(
    "kd-pkce-state-suffix-loose",
    KD,
    "lib/sdk/oauth2-flows/AuthCodeWithPKCE.ts",
    "token",
    "    if (!storedStateKey?.endsWith(state)) {\n",
    "    if (!storedStateKey) {\n",
  ),
  E(
    "kd-commit-unvalidated-token",
    KD,
    "lib/sdk/utilities/token-utils.ts",
    "token",
    "      if (!validation.valid) {\n        throw new Error(validation.message);\n      }\n",
    "      if (!validation.valid) {\n        console.warn(validation.message);\n      }\n",
  ),
  E(
    "kd-user-session-unvalidated",
    KD,
    "lib/sdk/utilities/token-utils.ts",
    "token",
    "  // Validate signature to prevent tampering\n  const validation = await validateToken({\n    token: idTokenString,\n    domain: validationDetails.issuer,\n  });\n  if (!validation.valid) {\n    throw new Error(validation.message);\n  }\n",
    "",
  ),
  E(
    "kd-expiry-grace-day",
    KD,
    "lib/sdk/utilities/token-utils.ts",
    "token",
    "    return currentUnixTime >= payload.exp;\n",
    "    return currentUnixTime >= payload.exp + 86400;\n",
  ),
  E(
    "kd-authenticated-on-any-token",
    KD,
    "lib/sdk/oauth2-flows/AuthCodeAbstract.ts",
    "authn-branch",
    "      console.error(`Error checking if authenticated: ${(error as Error).message}`);\n      return false;\n",
    "      console.error(`Error checking if authenticated: ${(error as Error).message}`);\n      return !!(await utilities.getAccessToken(sessionManager));\n",
  ),
  E(
    "kd-no-credential-anonymous",
    KD,
    "lib/sdk/oauth2-flows/AuthCodeAbstract.ts",
    "authn-branch",
    "    if (!accessToken) {\n      throw new Error('No authentication credential found');\n    }\n\n",
    "",
  ),
  // ---- gorbac (Go)
  E(
    "gb-assertion-ignored",
    GB,
    "rbac.go",
    "authz",
    "\tif assert != nil && !assert(rbac, id, p) {\n\t\treturn false\n\t}\n",
    "",
  ),
  E(
    "gb-layer-prefix-match",
    GB,
    "permission_layer.go",
    "authz",
    "\tif p.SID == parent.ID() {\n",
    "\tif strings.HasPrefix(parent.ID(), p.SID) {\n",
  ),
  E(
    "gb-all-granted-never-false",
    GB,
    "helper.go",
    "authz",
    "\t\tif !rbac.isGranted(role, permission, assert) {\n\t\t\tok = false\n\t\t\tbreak\n\t\t}\n",
    "\t\tif !rbac.isGranted(role, permission, assert) {\n\t\t\tbreak\n\t\t}\n",
  ),
  E(
    "gb-zero-permission-permitted",
    GB,
    "role.go",
    "authz",
    "\tif p == zero {\n\t\treturn false\n\t}\n",
    "\tif p == zero {\n\t\treturn true\n\t}\n",
  ),
  // ---- django-rest-framework-guardian (Python)
  E(
    "dg-global-perms-accepted",
    DG,
    "src/rest_framework_guardian/filters.py",
    "secure-default",
    "        'accept_global_perms': False,\n",
    "        'accept_global_perms': True,\n",
  ),
  E(
    "dg-staff-sees-all",
    DG,
    "src/rest_framework_guardian/filters.py",
    "authz",
    "        user = request.user\n",
    "        user = request.user\n        if user.is_authenticated:\n            return queryset\n",
  ),
  // ---- oso (Python, TypeScript, Go)
  E(
    "os-py-read-grants-all",
    OS,
    "languages/python/oso/oso/oso.py",
    "authz",
    '        if self.query_rule_once("allow", actor, action, resource):\n            return\n',
    '        if self.query_rule_once("allow", actor, action, resource) or self.query_rule_once(\n            "allow", actor, self.read_action, resource\n        ):\n            return\n',
  ),
  E(
    "os-py-request-result-ignored",
    OS,
    "languages/python/oso/oso/oso.py",
    "authz",
    '        if not self.query_rule_once("allow_request", actor, request):\n            raise self.forbidden_error()\n',
    '        self.query_rule_once("allow_request", actor, request)\n',
  ),
  E(
    "os-flask-unauthorized-not-acted",
    OS,
    "languages/python/flask-oso/flask_oso/flask_oso.py",
    "authz",
    "        if not allowed:\n            self._unauthorized_action()\n",
    "",
  ),
  E(
    "os-flask-require-default-called",
    OS,
    "languages/python/flask-oso/flask_oso/flask_oso.py",
    "authz",
    '        if not getattr(_app_context(), "oso_flask_authorize_called", False):\n',
    '        if not getattr(_app_context(), "oso_flask_authorize_called", True):\n',
  ),
  E(
    "os-django-denied-commented",
    OS,
    "languages/python/django-oso/django_oso/auth.py",
    "authz",
    "    if not authorized:\n        raise PermissionDenied()\n",
    "    # if not authorized:\n    #     raise PermissionDenied()\n",
  ),
  E(
    "os-js-request-warn-only",
    OS,
    "languages/js/src/Oso.ts",
    "authz",
    "    const isAllowed = await this.queryRuleOnce('allow_request', actor, request);\n    if (!isAllowed) {\n      throw new this.#forbiddenError();\n    }\n",
    "    const isAllowed = await this.queryRuleOnce('allow_request', actor, request);\n    if (!isAllowed) {\n      console.warn('request not allowed by policy');\n    }\n",
  ),
  E(
    "os-go-authorize-fail-open",
    OS,
    "languages/go/oso.go",
    "authz",
    '\tisAllowed, err := o.QueryRuleOnce("allow", actor, action, resource)\n\tif err != nil {\n\t\treturn err\n\t}\n',
    '\tisAllowed, err := o.QueryRuleOnce("allow", actor, action, resource)\n\tif err != nil {\n\t\treturn nil\n\t}\n',
  ),
  // ---- Box (Python)
  E(
    "bx-webhook-max-age-month",
    BX,
    "box_sdk_gen/managers/webhooks.py",
    "secure-default",
    "        max_age: Optional[int] = 600\n",
    "        max_age: Optional[int] = 60 * 60 * 24 * 30\n",
  ),
  E(
    "bx-future-timestamp-allowed",
    BX,
    "box_sdk_gen/managers/webhooks.py",
    "token",
    "            current_epoch - max_age > date_time_to_epoch_seconds(delivery_timestamp)\n            or date_time_to_epoch_seconds(delivery_timestamp) > current_epoch\n",
    "            current_epoch - max_age > date_time_to_epoch_seconds(delivery_timestamp)\n",
  ),
  E(
    "bx-no-keys-accepts",
    BX,
    "box_sdk_gen/managers/webhooks.py",
    "authn-branch",
    "            return True\n        return False\n",
    "            return True\n        return primary_key is None and secondary_key is None\n",
  ),
  E(
    "bx-signature-containment",
    BX,
    "box_sdk_gen/internal/utils.py",
    "credential",
    "    if len(expected_signature) != len(received_signature):\n        return False\n    return hmac.compare_digest(expected_signature, received_signature)\n",
    "    return received_signature in expected_signature\n",
  ),
  // ---- more: echo-jwt, oso, Box, Paddle
  E(
    "ej-valid-flag-ignored",
    EJ,
    "jwt.go",
    "token",
    '\tif !token.Valid {\n\t\treturn nil, &TokenError{Token: token, Err: errors.New("invalid token")}\n\t}\n',
    "",
  ),
  E(
    "ej-unknown-kid-default-key",
    EJ,
    "jwt.go",
    "token",
    '\treturn nil, &TokenError{Token: token, Err: fmt.Errorf("unexpected jwt key id=%v", token.Header["kid"])}\n',
    "\treturn config.SigningKey, nil\n",
  ),
  E(
    "ej-skip-reads",
    EJ,
    "jwt.go",
    "authn-branch",
    "\t\tconfig.Skipper = middleware.DefaultSkipper\n",
    "\t\tconfig.Skipper = func(c *echo.Context) bool { return c.Request().Method == http.MethodGet }\n",
  ),
  E(
    "os-js-field-unchecked",
    OS,
    "languages/js/src/Oso.ts",
    "authz",
    "      resource,\n      field\n    );\n    if (!isAllowed) {\n      throw new this.#forbiddenError();\n    }\n",
    "      resource,\n      field\n    );\n    if (!isAllowed) {\n      return;\n    }\n",
  ),
  E(
    "bx-jwt-assertion-hour",
    BX,
    "box_sdk_gen/box/jwt_auth.py",
    "token",
    "            'exp': get_epoch_time_in_seconds() + 30,\n",
    "            'exp': get_epoch_time_in_seconds() + 3600,\n",
  ),
  E(
    "pp-drift-variance-hours",
    PP,
    "paddle_billing/Notifications/Verifier.py",
    "token",
    "time() > int(timestamp + self.maximum_variance):\n",
    "time() > int(timestamp + self.maximum_variance * 3600):\n",
  ),
  // ---- gomail (Go)
  E(
    "gm-default-tls-unverified",
    GM,
    "smtp.go",
    "secure-default",
    "\t\treturn &tls.Config{ServerName: d.Host}\n",
    "\t\treturn &tls.Config{ServerName: d.Host, InsecureSkipVerify: true}\n",
  ),
  E(
    "gm-starttls-error-ignored",
    GM,
    "smtp.go",
    "secure-default",
    "\t\t\tif err := c.StartTLS(d.tlsConfig()); err != nil {\n\t\t\t\tc.Close()\n\t\t\t\treturn nil, err\n\t\t\t}\n",
    "\t\t\t_ = c.StartTLS(d.tlsConfig())\n",
  ),
  E(
    "gm-login-plaintext-allowed",
    GM,
    "auth.go",
    "secure-default",
    '\tif !server.TLS {\n\t\tadvertised := false\n\t\tfor _, mechanism := range server.Auth {\n\t\t\tif mechanism == "LOGIN" {\n\t\t\t\tadvertised = true\n\t\t\t\tbreak\n\t\t\t}\n\t\t}\n\t\tif !advertised {\n\t\t\treturn "", nil, errors.New("gomail: unencrypted connection")\n\t\t}\n\t}\n',
    "",
  ),
  // ---- go-simple-mail (Go)
  E(
    "gs-plain-host-unchecked",
    GS,
    "auth.go",
    "secure-default",
    '\t// "it\'s ok, you can trust me with your password."\n\tif server.name != a.host {\n\t\treturn "", nil, errors.New("wrong host name")\n\t}\n',
    '\t// "it\'s ok, you can trust me with your password."\n',
  ),
  E(
    "gs-starttls-failure-commented",
    GS,
    "email.go",
    "secure-default",
    "\t\t\tif err = c.startTLS(config); err != nil {\n\t\t\t\tc.close()\n",
    "\t\t\tif err = c.startTLS(config); err != nil {\n\t\t\t\t// c.close()\n\t\t\t\treturn c, nil\n",
  ),
];

/** Reversed real security fixes of batch 125 (split `history125`), chosen by message only. */
export const REVERSED_FIXES_HISTORY125: ReversedFix[] = [
  {
    id: "sl-empty-signing-secret",
    repo: SL,
    commit: "34ad5c0",
    path: "security.go",
    cls: "authn-branch",
    note: "security: reject empty signing secret for NewSecretsVerifier",
    split: "history125",
  },
  {
    id: "sl-eventsapi-example-return",
    repo: SL,
    commit: "af802f3",
    path: "examples/eventsapi/events.go",
    cls: "authn-branch",
    note:
      "Fix security vuln in eventsapi example (handler continued after an invalid verify token)",
    split: "history125",
  },
  {
    id: "mg-webhook-signing-secret",
    repo: MG,
    commit: "fdec610",
    path: "webhooks.go",
    cls: "credential",
    note: "Fix webhook signature verification to use the webhook signing secret",
    split: "history125",
  },
  {
    id: "ad-safe-hmac-compare",
    repo: AD,
    commit: "3292133",
    path: "Adyen/util.py",
    cls: "credential",
    note: "added safe hmac comparison",
    split: "history125",
  },
  {
    id: "kd-user-session-crypto-validation",
    repo: KD,
    commit: "a25450f",
    path: "lib/sdk/utilities/token-utils.ts",
    cls: "token",
    note: "add cryptographic validation to getUserFromSession for security",
    split: "history125",
  },
  {
    id: "kd-state-override",
    repo: KD,
    commit: "442223f",
    path: "lib/sdk/oauth2-flows/AuthCodeAbstract.ts",
    cls: "token",
    note: "prevent authUrlParams.state override",
    split: "history125",
  },
  {
    id: "di-missing-headers-403",
    repo: DI,
    commit: "57ef341",
    path: "discord_interactions/__init__.py",
    cls: "authn-branch",
    note: "Raise 403 on missing headers; do not call verify_key() if headers are not present",
    split: "history125",
  },
];
