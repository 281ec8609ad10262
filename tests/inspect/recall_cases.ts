/**
 * Positive cases for the inspector's recall: realistic files with one dangerous edit each.
 * Every fake credential is built at run time (see src/inspect/fake_token.ts) so this file holds
 * no secret-looking literal.
 */
import { fakeTokens } from "../../src/inspect/fake_token.ts";
import {
  CBV,
  DJANGO_INLINE,
  DJANGO_SETTINGS,
  DJANGO_VIEWS,
  DOTENV,
  DRF_VIEWS,
  EXPRESS_APP,
  EXPRESS_INLINE,
  FASTAPI_APP,
  FASTIFY_ROUTES,
  FLASK_APP,
  JWT_NODE,
  KOA_MIDDLEWARE,
  NEST_CONTROLLER,
  NODE_CLIENT,
  NODE_CONFIG,
  PY_CLIENT,
  PYJWT,
  SIGNED_PY,
  STRIPE_NODE,
  TLS_PY,
  VERIFY_NODE,
  WEBHOOK_NODE,
  WEBHOOK_PY,
} from "./recall_fixtures.ts";

export interface RecallCase {
  name: string;
  path: string;
  before: string | null;
  after: string;
  /** The rule that must fire, at high severity. */
  rule: string;
}

const t = fakeTokens(42);
const u = fakeTokens(43);

const add = (base: string, line: string) => base + line;

/** The positive cases. */
export const RECALL_CASES: RecallCase[] = [
  // hardcoded-secret, one per family
  {
    name: "AWS key id in Django settings",
    path: "shop/settings.py",
    before: DJANGO_SETTINGS,
    after: add(DJANGO_SETTINGS, `AWS_ACCESS_KEY_ID = "${t.awsKeyId}"\n`),
    rule: "hardcoded-secret",
  },
  {
    name: "AWS secret key in settings",
    path: "shop/settings.py",
    before: DJANGO_SETTINGS,
    after: add(DJANGO_SETTINGS, `AWS_SECRET_ACCESS_KEY = "${t.awsSecret}"\n`),
    rule: "hardcoded-secret",
  },
  {
    name: "GitHub token in Node config",
    path: "src/config.js",
    before: NODE_CONFIG,
    after: NODE_CONFIG.replace(
      'region: "eu-west-1",',
      `region: "eu-west-1",\n  githubToken: "${t.github}",`,
    ),
    rule: "hardcoded-secret",
  },
  {
    name: "GitHub fine-grained token in workflow",
    path: ".github/workflows/release.yml",
    before: "name: release\non: push\n",
    after: `name: release\non: push\nenv:\n  GH_TOKEN: ${t.githubFine}\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "GitLab token in CI script",
    path: "ci/publish.sh",
    before: "#!/bin/sh\nset -eu\n",
    after:
      `#!/bin/sh\nset -eu\ncurl -H "PRIVATE-TOKEN: ${t.gitlab}" https://gitlab.example/api/v4/projects\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Slack bot token in Python",
    path: "bot/notify.py",
    before: "from slack_sdk import WebClient\n",
    after: `from slack_sdk import WebClient\nclient = WebClient(token="${t.slack}")\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Slack webhook URL in JS",
    path: "src/alerts.js",
    before: NODE_CONFIG,
    after: add(NODE_CONFIG, `export const ALERT_HOOK = "${t.slackWebhook}";\n`),
    rule: "hardcoded-secret",
  },
  {
    name: "Stripe live key in TS",
    path: "src/billing/stripe.ts",
    before: 'import Stripe from "stripe";\n',
    after: `import Stripe from "stripe";\nexport const stripe = new Stripe("${t.stripe}");\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Google API key in frontend config",
    path: "web/src/maps.ts",
    before: "export const MAP_ZOOM = 12;\n",
    after: `export const MAP_ZOOM = 12;\nexport const MAPS_KEY = "${t.google}";\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "OpenAI key in Python",
    path: "ai/client.py",
    before: "from openai import OpenAI\n",
    after: `from openai import OpenAI\nclient = OpenAI(api_key="${t.openai}")\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Anthropic key in .env",
    path: ".env",
    before: DOTENV,
    after: `${DOTENV}ANTHROPIC_API_KEY=${t.anthropic}\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "SendGrid key in settings",
    path: "shop/settings.py",
    before: DJANGO_SETTINGS,
    after: add(DJANGO_SETTINGS, `SENDGRID_API_KEY = "${t.sendgrid}"\n`),
    rule: "hardcoded-secret",
  },
  {
    name: "npm token in .npmrc",
    path: ".npmrc",
    before: "registry=https://registry.npmjs.org/\n",
    after: `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${t.npm}\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "PyPI token in .pypirc",
    path: ".pypirc",
    before: "[distutils]\nindex-servers = pypi\n",
    after:
      `[distutils]\nindex-servers = pypi\n[pypi]\nusername = __token__\npassword = ${t.pypi}\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "private key block in Python",
    path: "deploy/keys.py",
    before: "",
    after: `SIGNING_KEY = """${t.privateKeyHeader}\n${t.keyBody}\n${t.privateKeyFooter}"""\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "private key block in JS",
    path: "src/sign.js",
    before: "",
    after: `export const KEY = \`${t.privateKeyHeader}\n${t.keyBody}\n${t.privateKeyFooter}\`;\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Postgres URL with password in settings",
    path: "shop/settings.py",
    before: DJANGO_SETTINGS,
    after: add(
      DJANGO_SETTINGS,
      `DATABASE_URL = "postgres://shop:${u.password}@db.internal:5432/shop"\n`,
    ),
    rule: "hardcoded-secret",
  },
  {
    name: "MongoDB SRV URL with password in JS",
    path: "src/db.js",
    before: 'import mongoose from "mongoose";\n',
    after:
      `import mongoose from "mongoose";\nawait mongoose.connect("mongodb+srv://app:${u.password}@cluster0.mongodb.net/app");\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Redis URL with password in .env",
    path: ".env",
    before: DOTENV,
    after: `${DOTENV}REDIS_URL=redis://default:${t.password}@cache.internal:6379/0\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "high-entropy password in Python",
    path: "etl/load.py",
    before: "import psycopg\n",
    after: `import psycopg\nDB_PASSWORD = "${t.password}"\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "client secret in JSON config",
    path: "config/oauth.json",
    before: '{\n  "clientId": "web"\n}\n',
    after: `{\n  "clientId": "web",\n  "clientSecret": "${t.hex40}"\n}\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "api key in TS object",
    path: "src/weather.ts",
    before: "export const weather = { base: 'https://api.weather.example' };\n",
    after:
      `export const weather = { base: 'https://api.weather.example', apiKey: '${u.hex40}' };\n`,
    rule: "hardcoded-secret",
  },
  // tls-verify-disabled
  {
    name: "requests verify=False",
    path: "partner/client.py",
    before: PY_CLIENT,
    after: PY_CLIENT.replace("timeout=10)", "timeout=10, verify=False)"),
    rule: "tls-verify-disabled",
  },
  {
    name: "httpx client verify=False",
    path: "partner/client.py",
    before: PY_CLIENT,
    after: add(PY_CLIENT, "\nclient = httpx.Client(base_url=API, verify=False)\n"),
    rule: "tls-verify-disabled",
  },
  {
    name: "urllib3 CERT_NONE",
    path: "partner/pool.py",
    before: "import urllib3\n",
    after: "import urllib3\nhttp = urllib3.PoolManager(cert_reqs='CERT_NONE')\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "unverified SSL context",
    path: "net/tls.py",
    before: TLS_PY,
    after: TLS_PY.replace("ssl.create_default_context()", "ssl._create_unverified_context()"),
    rule: "tls-verify-disabled",
  },
  {
    name: "verify_mode CERT_NONE",
    path: "net/tls.py",
    before: TLS_PY,
    after: TLS_PY.replace(
      "ctx = ssl.create_default_context()\n",
      "ctx = ssl.create_default_context()\n    ctx.check_hostname = False\n    ctx.verify_mode = ssl.CERT_NONE\n",
    ),
    rule: "tls-verify-disabled",
  },
  {
    name: "aiohttp ssl=False",
    path: "net/fetch.py",
    before: "async def get(s, url):\n    return await s.get(url)\n",
    after: "async def get(s, url):\n    return await s.get(url, ssl=False)\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "https.Agent rejectUnauthorized false",
    path: "src/partner.js",
    before: NODE_CLIENT,
    after: NODE_CLIENT.replace(
      "{ keepAlive: true }",
      "{ keepAlive: true, rejectUnauthorized: false }",
    ),
    rule: "tls-verify-disabled",
  },
  {
    name: "NODE_TLS_REJECT_UNAUTHORIZED in code",
    path: "src/index.ts",
    before: NODE_CONFIG,
    after: `process.env["NODE_TLS_REJECT_UNAUTHORIZED"] = "0";\n${NODE_CONFIG}`,
    rule: "tls-verify-disabled",
  },
  {
    name: "NODE_TLS_REJECT_UNAUTHORIZED in .env",
    path: ".env",
    before: DOTENV,
    after: `${DOTENV}NODE_TLS_REJECT_UNAUTHORIZED=0\n`,
    rule: "tls-verify-disabled",
  },
  {
    name: "tls.connect rejectUnauthorized false",
    path: "src/mq.ts",
    before: "const s = tls.connect({ host, port: 5671, servername: host });\n",
    after:
      "const s = tls.connect({ host, port: 5671, servername: host, rejectUnauthorized: false });\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "request strictSSL false",
    path: "src/legacy.js",
    before: "request({ url, json: true }, cb);\n",
    after: "request({ url, json: true, strictSSL: false }, cb);\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "Go InsecureSkipVerify",
    path: "internal/client/http.go",
    before: "tr := &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}\n",
    after:
      "tr := &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: true}}\n",
    rule: "tls-verify-disabled",
  },
  // auth-check-removed
  {
    name: "Flask @login_required removed",
    path: "billing/views.py",
    before: FLASK_APP,
    after: FLASK_APP.replace("@login_required\n", ""),
    rule: "auth-check-removed",
  },
  {
    name: "Django @permission_required removed",
    path: "orders/views.py",
    before: DJANGO_VIEWS,
    after: DJANGO_VIEWS.replace('@permission_required("orders.delete_order")\n', ""),
    rule: "auth-check-removed",
  },
  {
    name: "Django LoginRequiredMixin removed",
    path: "orders/views.py",
    before: DJANGO_VIEWS,
    after: DJANGO_VIEWS.replace(
      "class OrderList(LoginRequiredMixin, ListView):",
      "class OrderList(ListView):",
    ),
    rule: "auth-check-removed",
  },
  {
    name: "DRF IsAuthenticated removed",
    path: "accounts/api.py",
    before: DRF_VIEWS,
    after: DRF_VIEWS.replace("permission_classes = [IsAuthenticated]", "permission_classes = []"),
    rule: "auth-check-removed",
  },
  {
    name: "FastAPI Depends(get_current_user) removed",
    path: "app/payments.py",
    before: FASTAPI_APP,
    after: FASTAPI_APP.replace("user=Depends(get_current_user)", "user_id: int").replace(
      "user.id",
      "user_id",
    ),
    rule: "auth-check-removed",
  },
  {
    name: "Django inline is_authenticated check removed",
    path: "crm/views.py",
    before: DJANGO_INLINE,
    after: DJANGO_INLINE.replace(
      '    if not request.user.is_authenticated:\n        return redirect("login")\n',
      "",
    ),
    rule: "auth-check-removed",
  },
  {
    name: "Express requireAuth removed",
    path: "src/app.js",
    before: EXPRESS_APP,
    after: EXPRESS_APP.replace(
      'app.post("/api/transfers", requireAuth, async',
      'app.post("/api/transfers", async',
    ),
    rule: "auth-check-removed",
  },
  {
    name: "Express passport.authenticate removed",
    path: "src/app.js",
    before: EXPRESS_APP,
    after: EXPRESS_APP.replace('passport.authenticate("jwt", { session: false }), ', ""),
    rule: "auth-check-removed",
  },
  {
    name: "NestJS @UseGuards removed",
    path: "src/billing/billing.controller.ts",
    before: NEST_CONTROLLER,
    after: NEST_CONTROLLER.replace('@UseGuards(AuthGuard("jwt"))\n', ""),
    rule: "auth-check-removed",
  },
  {
    name: "Fastify preHandler auth removed",
    path: "src/routes/orders.js",
    before: FASTIFY_ROUTES,
    after: FASTIFY_ROUTES.replace("    preHandler: [fastify.authenticate],\n", ""),
    rule: "auth-check-removed",
  },
  {
    name: "Koa admin check removed",
    path: "src/middleware/admin.js",
    before: KOA_MIDDLEWARE,
    after: "export async function adminOnly(ctx, next) {\n  await next();\n}\n",
    rule: "auth-check-removed",
  },
  {
    name: "Express inline 401 check removed",
    path: "src/routes/projects.js",
    before: EXPRESS_INLINE,
    after: EXPRESS_INLINE.replace(
      '  if (!req.user) {\n    return res.status(401).json({ error: "login required" });\n  }\n',
      "",
    ),
    rule: "auth-check-removed",
  },
  // crypto-verification-removed
  {
    name: "compare_digest replaced by ==",
    path: "hooks/github.py",
    before: WEBHOOK_PY,
    after: WEBHOOK_PY.replace(
      'not hmac.compare_digest(sig, request.headers.get("X-Hub-Signature-256", ""))',
      'sig != request.headers.get("X-Hub-Signature-256", "")',
    ),
    rule: "crypto-verification-removed",
  },
  {
    name: "jwt.verify replaced by jwt.decode",
    path: "src/auth.js",
    before: JWT_NODE,
    after: JWT_NODE.replace(
      'jwt.verify(token, process.env.JWT_PUBLIC_KEY, { algorithms: ["RS256"] })',
      "jwt.decode(token)",
    ),
    rule: "crypto-verification-removed",
  },
  {
    name: "PyJWT decode replaced by manual parse",
    path: "api/auth.py",
    before: PYJWT,
    after: PYJWT.replace(
      'jwt.decode(token, key, algorithms=["RS256"], audience="api")',
      'json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))',
    ),
    rule: "crypto-verification-removed",
  },
  {
    name: "timingSafeEqual replaced by ===",
    path: "src/slack.js",
    before: WEBHOOK_NODE,
    after: WEBHOOK_NODE.replace(
      "mine.length === theirs.length && crypto.timingSafeEqual(mine, theirs)",
      "mine.toString() === theirs.toString()",
    ),
    rule: "crypto-verification-removed",
  },
  {
    name: "signature verify removed (cryptography)",
    path: "updater/load.py",
    before: SIGNED_PY,
    after: SIGNED_PY.replace(
      "    public_key.verify(signature, blob, padding.PKCS1v15(), hashes.SHA256())\n",
      "",
    ),
    rule: "crypto-verification-removed",
  },
  {
    name: "Stripe constructEvent replaced by JSON.parse",
    path: "src/stripe_webhook.js",
    before: STRIPE_NODE,
    after: STRIPE_NODE.replace(
      'stripe.webhooks.constructEvent(req.rawBody, req.headers["stripe-signature"], endpointSecret)',
      "JSON.parse(req.rawBody)",
    ),
    rule: "crypto-verification-removed",
  },
  {
    name: "createVerify check removed",
    path: "src/release.js",
    before: VERIFY_NODE,
    after: "export function checkRelease(data) {\n  return data;\n}\n",
    rule: "crypto-verification-removed",
  },
  {
    name: "verify=True dropped from a pinned CA call",
    path: "partner/client.py",
    before: PY_CLIENT.replace("timeout=10)", "timeout=10, verify=True)"),
    after: PY_CLIENT,
    rule: "crypto-verification-removed",
  },
  // crypto-verification-disabled
  {
    name: "PyJWT verify_signature False",
    path: "api/auth.py",
    before: PYJWT,
    after: PYJWT.replace(
      'algorithms=["RS256"], audience="api"',
      'options={"verify_signature": False}',
    ),
    rule: "crypto-verification-disabled",
  },
  {
    name: "jsonwebtoken accepts alg none",
    path: "src/auth.js",
    before: JWT_NODE,
    after: JWT_NODE.replace('algorithms: ["RS256"]', 'algorithms: ["RS256", "none"]'),
    rule: "crypto-verification-disabled",
  },
  // variants written after the first run, to probe forms the first rules did not know
  {
    name: "Django method_decorator(login_required) removed",
    path: "reports/views.py",
    before: CBV,
    after: CBV.replace('@method_decorator(login_required, name="dispatch")\n', ""),
    rule: "auth-check-removed",
  },
  {
    name: "Express basicAuth on /admin removed",
    path: "src/server.js",
    before: 'app.use("/admin", basicAuth({ users: adminUsers, challenge: true }), adminRouter);\n',
    after: 'app.use("/admin", adminRouter);\n',
    rule: "auth-check-removed",
  },
  {
    name: "requests Session.verify = False",
    path: "partner/session.py",
    before: "s = requests.Session()\ns.headers['User-Agent'] = 'x'\n",
    after: "s = requests.Session()\ns.verify = False\ns.headers['User-Agent'] = 'x'\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "unquoted password in YAML",
    path: "deploy/values.yaml",
    before: "db:\n  host: db.internal\n  user: app\n",
    after: `db:\n  host: db.internal\n  user: app\n  password: ${u.password}\n`,
    rule: "hardcoded-secret",
  },
  // shell-injection
  {
    name: "subprocess f-string shell=True",
    path: "ops/backup.py",
    before: "import subprocess\n",
    after:
      'import subprocess\n\n\ndef backup(db):\n    subprocess.run(f"pg_dump {db} | gzip > /backups/{db}.gz", shell=True, check=True)\n',
    rule: "shell-injection",
  },
  {
    name: "child_process exec with template",
    path: "src/thumbs.js",
    before: 'const { exec } = require("child_process");\n',
    after:
      'const { exec } = require("child_process");\nexec(`convert ${req.query.file} -resize 200 out.png`, done);\n',
    rule: "shell-injection",
  },
];

export { HELDOUT_CASES } from "./recall_heldout_cases.ts";
