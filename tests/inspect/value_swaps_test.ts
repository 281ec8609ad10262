import assert from "node:assert/strict";
import { edit, oneWayAll, type OneWayCase, silentEdit } from "./shape_helpers.ts";
import { inspectText, loadParsers } from "../../src/inspect/mod.ts";
import { leaning } from "../../src/inspect/value_leaning.ts";

/**
 * One value swapped and read by the words of what holds it, items of a list of who may, a denial
 * swapped for an approval, an `or` made `and` in a failing branch. Each a forward edit that must
 * draw a finding and whose reverse (the guard put back) must not.
 */
const SWAP_CASES: OneWayCase[] = [
  {
    what: "A permissive option's default turned on, read from a lookup's fallback.",
    path: "wsgidav/http_authenticator.py",
    before:
      'class BasicAuth:\n    def __init__(self, auth_conf):\n        self.accept_anonymous = auth_conf.get(\n            "win_accept_anonymous_options", False\n        )\n',
    from: '"win_accept_anonymous_options", False',
    to: '"win_accept_anonymous_options", True',
    finds: /`win_accept_anonymous_options`: False → True/,
  },
  {
    what: "A Go flag that lets exceptions through, on by default.",
    path: "cmd/internal/flag.go",
    before:
      'func initPolicyExceptionsFlags() {\n\tflag.BoolVar(&enablePolicyException, "enablePolicyException", false, "Enable PolicyException feature.")\n}\n',
    from: '"enablePolicyException", false,',
    to: '"enablePolicyException", true,',
    finds: /`enablePolicyException`: false → true/,
  },
  {
    what: "A protection's default turned off in a destructured option.",
    path: "src/server/login.js",
    before:
      "module.exports = function (client, server, options) {\n  const {\n    'online-mode': onlineMode = true,\n    kickTimeout = 30 * 1000,\n  } = options\n  if (onlineMode) verifyWithSessionServer(client)\n}\n",
    from: "onlineMode = true,",
    to: "onlineMode = false,",
    finds: /`onlineMode`: true → false/,
  },
  {
    what: "A verifier's verdict starting at yes.",
    path: "server/verifier.ts",
    before:
      "export function verifySignature(data: string, signature: string): boolean {\n  const verifier = crypto.createVerify('RSA-SHA1');\n  verifier.update(data);\n  let success = false;\n  try {\n    success = verifier.verify(publicKey, signature, 'hex');\n  } catch {}\n  return success;\n}\n",
    from: "let success = false;",
    to: "let success = true;",
    finds: /`success`: false → true/,
  },
  {
    what: "A bare default on its own line, named just above it.",
    path: "session_security/settings.py",
    before:
      "from django.conf import settings\n\nINSECURE = getattr(\n    settings,\n    'SESSION_SECURITY_INSECURE',\n    False\n)\n",
    from: "    False\n)",
    to: "    True\n)",
    finds: /`SESSION_SECURITY_INSECURE`: False → True/,
  },
  {
    what: "A signature verification level made permissive.",
    path: "pkg/verifiers/notary/notary.go",
    before:
      "func buildPolicy() trustpolicy.Document {\n\treturn trustpolicy.Document{\n\t\tSignatureVerification: trustpolicy.SignatureVerification{VerificationLevel: trustpolicy.LevelStrict.Name},\n\t}\n}\n",
    from: "LevelStrict",
    to: "LevelPermissive",
    finds: /`LevelStrict` → laxer `LevelPermissive`/,
  },
  {
    what: "Client certificates no longer requested by a gateway.",
    path: "internal/manifests/gateway_tls.go",
    before:
      'func configureGatewayTLS(gwArgs []string) []string {\n\tgwArgs = append(gwArgs, "--tls.client-auth-type=RequestClientCert")\n\treturn gwArgs\n}\n',
    from: "RequestClientCert",
    to: "NoClientCert",
    finds: /`RequestClientCert` → laxer `NoClientCert`/,
  },
  {
    what: "A scope comparison that needed all scopes now needs any.",
    path: "aiohttp_jwt/permissions.py",
    before:
      "def check_permissions(scopes, permissions_property='scopes', comparison=match_all):\n    def decorator(handler):\n        return handler\n    return decorator\n",
    from: "comparison=match_all",
    to: "comparison=match_any",
    finds: /`match_all` → laxer `match_any`/,
  },
  {
    what: "A clock skew raised to an hour, outside any security-named file.",
    path: "src/index.ts",
    before:
      "export const defaults = Object.freeze({\n  ttl: 0,\n  timestampSkewSec: 60,\n  localtimeOffsetMsec: 0,\n});\n",
    from: "timestampSkewSec: 60,",
    to: "timestampSkewSec: 3600,",
    finds: /`timestampSkewSec` widened: 60 → 3600/,
  },
  {
    what: "An argon2 work factor cut.",
    path: "lib/password_hash.js",
    before:
      "function hashPassword(password) {\n  return argon2.hash(password, {\n    memoryCost: 1 << 16,\n    timeCost: 3,\n  });\n}\n",
    from: "timeCost: 3,",
    to: "timeCost: 1,",
    finds: /`timeCost` cut: 3 → 1/,
  },
  {
    what: "A trusted header configured by default.",
    path: "wsgidav/http_authenticator.py",
    before:
      'class HTTPAuthenticator:\n    def __init__(self, auth_conf):\n        self.trusted_auth_header = auth_conf.get("trusted_auth_header", None)\n',
    from: '"trusted_auth_header", None)',
    to: '"trusted_auth_header", "HTTP_X_REMOTE_USER")',
    finds: /`trusted_auth_header` now set/,
  },
  {
    what: "A wildcard let into the origins CSRF trusts.",
    path: "backend/server/main/settings.py",
    before:
      "CORS_ALLOWED_ORIGINS = ['https://app.example.com']\nCSRF_TRUSTED_ORIGINS = CORS_ALLOWED_ORIGINS\n",
    from: "CSRF_TRUSTED_ORIGINS = CORS_ALLOWED_ORIGINS",
    to: "CSRF_TRUSTED_ORIGINS = CORS_ALLOWED_ORIGINS + ['http://*', 'https://*']",
    finds: /wildcard let in/,
  },
  {
    what: "The error of the call that reads who is asking thrown away.",
    path: "pkg/auth/codec.go",
    before:
      "func (c Codec) DecodeRequest(ctx context.Context, httpReq *http.Request) (Request, error) {\n\tvar err error\n\t_, ctx, err = user.ExtractOrgIDFromHTTPRequest(httpReq)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn decode(ctx, httpReq)\n}\n",
    from: "_, ctx, err = user",
    to: "_, ctx, _ = user",
    finds: /ExtractOrgIDFromHTTPRequest\(\) says went wrong is now thrown away/,
  },
  {
    what: "The permission a read needs emptied.",
    path: "onadata/apps/api/permissions.py",
    before:
      "class ViewDjangoObjectPermissions(DjangoObjectPermissions):\n    def __init__(self, *args, **kwargs):\n        super().__init__(*args, **kwargs)\n        self.perms_map['GET'] = ['%(app_label)s.view_%(model_name)s']\n",
    from: "['%(app_label)s.view_%(model_name)s']",
    to: "[]",
    finds: /what is required emptied/,
  },
  {
    what: "The sender a server set made a mere default (a client can name anyone).",
    path: "src/services/auth/webSocketServer.ts",
    before:
      "function onMessage(client: Client, message: Message) {\n  message.src = client.getId();\n  realm.forward(message);\n}\n",
    from: "message.src = client.getId();",
    to: "message.src ??= client.getId();",
    finds: /`message\.src` now only a default/,
  },
  {
    what: "A tenant appended to the ones a policy agent skips.",
    path: "internal/manifests/openshift/opa_auth.go",
    before:
      'func opaArgs() []string {\n\treturn []string{\n\t\t"--opa.skip-tenants=audit,infrastructure",\n\t}\n}\n',
    from: "audit,infrastructure",
    to: "audit,infrastructure,application",
    finds: /,?application added to/,
  },
  {
    what: "gRPC methods put into the list authentication skips.",
    path: "pkg/loki/modules.go",
    before:
      'func (t *Loki) initServer() {\n\tt.HTTPAuthMiddleware = fakeauth.SetupAuthMiddleware(&t.Cfg.Server, t.Cfg.AuthEnabled,\n\t\t// Also don\'t check auth for these gRPC methods, since a single call serves many users.\n\t\t[]string{\n\t\t\t"/grpc.health.v1.Health/Check",\n\t\t\t"/frontend.Frontend/Process",\n\t\t},\n\t)\n}\n',
    from: '\t\t\t"/frontend.Frontend/Process",\n',
    to: '\t\t\t"/logproto.Querier/Query",\n\t\t\t"/frontend.Frontend/Process",\n',
    finds: /"\/logproto\.Querier\/Query" added to what goes unchecked/,
  },
  {
    what: "Private ranges taken out of what a proxy denies.",
    path: "forwardproxy.go",
    before:
      'func (h *Handler) Provision() error {\n\tfor _, ipDeny := range []string{\n\t\t"10.0.0.0/8",\n\t\t"127.0.0.0/8",\n\t\t"192.168.0.0/16",\n\t} {\n\t\th.addRule(ipDeny, false)\n\t}\n\treturn nil\n}\n',
    from: '\t\t"10.0.0.0/8",\n',
    to: "",
    finds: /"10\.0\.0\.0\/8" no longer refused or protected/,
  },
  {
    what: "A CSRF failure now hands the request on.",
    path: "csrf.go",
    before:
      "func Middleware(errorFunc gin.HandlerFunc) gin.HandlerFunc {\n\treturn func(c *gin.Context) {\n\t\tsalt, ok := c.Get(csrfSalt)\n\t\tif !ok {\n\t\t\terrorFunc(c)\n\t\t\treturn\n\t\t}\n\t\tverify(c, salt)\n\t\tc.Next()\n\t}\n}\n",
    from: "\t\t\terrorFunc(c)\n",
    to: "\t\t\tc.Next()\n",
    finds: /a failure now lets through: `c\.Next\(\)`/,
  },
  {
    what: "Either missing part of a key pair no longer fails the TLS check.",
    path: "internal/handlers/gateway/tls.go",
    before:
      'func validateTLSConfig(tls *TLSSpec) error {\n\tif tls.Certificate == nil || tls.PrivateKey == nil {\n\t\treturn &status.DegradedError{Message: "missing certificate or key"}\n\t}\n\treturn nil\n}\n',
    from: "tls.Certificate == nil || tls.PrivateKey == nil",
    to: "tls.Certificate == nil && tls.PrivateKey == nil",
    finds: /condition narrowed/,
  },
];

/** Ordinary edits of the same kinds: nothing a user should be asked about. */
const SILENT: { why: string; path: string; text: string; from: string; to: string }[] = [
  {
    why: "Reading a public key where the private one was read holds data, not a level.",
    path: "src/auth/jwk.ts",
    text: "export function authKey(k: KeyPair) {\n  return k.privateKey;\n}\n",
    from: "k.privateKey",
    to: "k.publicKey",
  },
  {
    why: "A name spelt another way is no laxer level.",
    path: "src/ActionsAuthorizer/index.ts",
    text: "export function deny() {\n  throw new UnauthorizedException('denied')\n}\n",
    from: "UnauthorizedException",
    to: "UnAuthorizedException",
  },
  {
    why: "A switch about reporting sets no protection.",
    path: "src/auth/rule-application.ts",
    text: "export const flags = {\n  MESSAGE_PERMISSION_ERROR: true,\n};\n",
    from: "MESSAGE_PERMISSION_ERROR: true",
    to: "MESSAGE_PERMISSION_ERROR: false",
  },
  {
    why: "A token lifetime doubled is ordinary tuning.",
    path: "internal/httpd/oidc.go",
    text: "const authStateValidity = 1 * 60 * 1000\n",
    from: "const authStateValidity = 1 * 60",
    to: "const authStateValidity = 2 * 60",
  },
  {
    why: "An import list is no list of who may.",
    path: "app/api/routes/login.py",
    text: "from app.models import UserPublic\n\ndef login():\n    return UserPublic()\n",
    from: "import UserPublic",
    to: "import UserPublic, UserUpdate",
  },
  {
    why: "A value added to an allowed-values list is no exemption.",
    path: "middlewares/cross-origin-opener-policy/index.ts",
    text:
      'const ALLOWED_POLICIES = new Set([\n  "same-origin",\n  "same-origin-allow-popups",\n]);\n',
    from: '  "same-origin-allow-popups",\n',
    to: '  "same-origin-allow-popups",\n  "noopener-allow-popups",\n',
  },
  {
    why: "An early return in a click handler is no grant.",
    path: "src/ee/components/grid/grid-cell.tsx",
    text:
      "function handleClick(property, isEditing) {\n  if (!property) return;\n  openEditor(property);\n}\n",
    from: "if (!property)",
    to: "if (!property || isEditing)",
  },
];

Deno.test("value swaps: a finding forward, silence when the guard is put back", () => {
  oneWayAll(SWAP_CASES);
});

Deno.test("value swaps: ordinary edits of the same kinds stay silent", () => {
  for (const c of SILENT) silentEdit(c.path, c.text, c.from, c.to);
});

Deno.test("value swaps: a name's leaning reads its words, negations and what lets through", () => {
  assert.equal(leaning("InsecureSkipVerify", false), 1);
  assert.equal(leaning("skip_verify", false), 1);
  assert.equal(leaning("verify_ssl", false), -1);
  assert.equal(leaning("disableSignUp", false), -1);
  assert.equal(leaning("issValidationOff", true), 1);
  assert.equal(leaning("EMAIL_ACCEPT_SELF_SIGNED_CERTIFICATE", false), 1);
  assert.equal(leaning("TRUST_PROXY_SSL_HEADER", false), 1);
  assert.equal(leaning("EnforcePKCEForPublicClients", true), -1);
  assert.equal(leaning("USER_ALLOW_LOGIN_WITHOUT_CONFIRMED_EMAIL", true), 1);
  assert.equal(leaning("success", true), 0);
  assert.equal(leaning("success", true, true), 1);
  assert.equal(leaning("allow_redirects", false), 0);
});

Deno.test("value swaps: templates and JSON settings are read; tool and translation JSON is not", async () => {
  await loadParsers();
  const guard = (path: string, before: string, after: string) =>
    inspectText(path, before, after).filter((f) =>
      f.rule === "auth-check-removed" || f.rule === "secure-default-weakened"
    );
  const route =
    "app.get('/users', {{#if security.length}}authenticateMiddleware({{json security}}),{{/if}} function (req, res, next) {\n  try {\n    handler(req, res);\n  } catch (error) {\n    next(error);\n  }\n});\n";
  assert.equal(
    guard("templates/express.hbs", route, edit(route, "next(error);", "next();")).length,
    1,
  );
  const conf =
    '{\n  "services": {\n    "requestDefaults": {\n      "rejectUnauthorized": true\n    }\n  }\n}\n';
  const weakened = edit(conf, '"rejectUnauthorized": true', '"rejectUnauthorized": false');
  assert.equal(guard("Common/config/default.json", conf, weakened).length, 1);
  assert.equal(guard("Common/config/default.json", weakened, conf).length, 0);
  const ts = '{\n  "compilerOptions": {\n    "strict": true,\n    "checkJs": true\n  }\n}\n';
  assert.deepEqual(
    guard("packages/app/tsconfig.json", ts, edit(ts, '"checkJs": true', '"checkJs": false')),
    [],
  );
  const msg = '{\n  "users": "Users",\n  "allow_all": "Allow all"\n}\n';
  assert.deepEqual(
    guard("frontend/messages/en.json", msg, edit(msg, '"users": "Users",\n', "")),
    [],
  );
});
