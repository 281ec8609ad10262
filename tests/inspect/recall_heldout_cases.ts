/**
 * Held-out recall cases: written after the rules and the main cases, and run once before any
 * rule was changed for them (the first-run result is published in docs/inspector.md).
 */
import { fakeChars, fakeTokens } from "../../src/inspect/fake_token.ts";
import type { RecallCase } from "./recall_cases.ts";

const v = fakeTokens(44);

/** The held-out cases. */
export const HELDOUT_CASES: RecallCase[] = [
  {
    name: "DRF @permission_classes([IsAuthenticated]) removed",
    path: "api/views.py",
    before:
      "@api_view(['POST'])\n@permission_classes([IsAuthenticated])\ndef refund(request):\n    return Response(do_refund(request.data))\n",
    after:
      "@api_view(['POST'])\ndef refund(request):\n    return Response(do_refund(request.data))\n",
    rule: "auth-check-removed",
  },
  {
    name: "flask-jwt-extended @jwt_required() removed",
    path: "api/routes.py",
    before:
      "@bp.post('/keys')\n@jwt_required()\ndef create_key():\n    return issue_key(get_jwt_identity())\n",
    after: "@bp.post('/keys')\ndef create_key():\n    return issue_key(request.json['user'])\n",
    rule: "auth-check-removed",
  },
  {
    name: "Express router.use(authenticateJWT) removed",
    path: "src/routes/admin.js",
    before:
      "const router = express.Router();\nrouter.use(authenticateJWT);\nrouter.get('/stats', stats);\nmodule.exports = router;\n",
    after:
      "const router = express.Router();\nrouter.get('/stats', stats);\nmodule.exports = router;\n",
    rule: "auth-check-removed",
  },
  {
    name: "Next.js API session check removed",
    path: "pages/api/export.ts",
    before:
      "export default async function handler(req, res) {\n  const session = await getServerSession(req, res, authOptions);\n  if (!session) return res.status(401).end();\n  res.json(await exportAll());\n}\n",
    after: "export default async function handler(req, res) {\n  res.json(await exportAll());\n}\n",
    rule: "auth-check-removed",
  },
  {
    name: "hapi route auth switched off",
    path: "src/routes.js",
    before:
      "server.route({ method: 'DELETE', path: '/users/{id}', options: { auth: 'jwt' }, handler: removeUser });\n",
    after:
      "server.route({ method: 'DELETE', path: '/users/{id}', options: { auth: false }, handler: removeUser });\n",
    rule: "auth-check-removed",
  },
  {
    name: "Django @user_passes_test removed",
    path: "admin_tools/views.py",
    before:
      "@user_passes_test(lambda u: u.is_superuser)\ndef purge(request):\n    Cache.objects.all().delete()\n",
    after: "def purge(request):\n    Cache.objects.all().delete()\n",
    rule: "auth-check-removed",
  },
  {
    name: "NestJS @Roles('admin') removed",
    path: "src/users.controller.ts",
    before:
      "@Delete(':id')\n@Roles('admin')\nremove(@Param('id') id: string) {\n  return this.users.remove(id);\n}\n",
    after:
      "@Delete(':id')\nremove(@Param('id') id: string) {\n  return this.users.remove(id);\n}\n",
    rule: "auth-check-removed",
  },
  {
    name: "urlopen with unverified context",
    path: "tools/fetch.py",
    before: "data = urllib.request.urlopen(url, timeout=10).read()\n",
    after:
      "data = urllib.request.urlopen(url, timeout=10, context=ssl._create_unverified_context()).read()\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "axios.create with an agent that skips verification",
    path: "src/api.ts",
    before: "export const api = axios.create({ baseURL: BASE, timeout: 5000 });\n",
    after:
      "export const api = axios.create({\n  baseURL: BASE,\n  timeout: 5000,\n  httpsAgent: new https.Agent({ rejectUnauthorized: false }),\n});\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "paramiko host key check replaced by AutoAddPolicy",
    path: "ops/ssh.py",
    before: "client.set_missing_host_key_policy(paramiko.RejectPolicy())\n",
    after: "client.set_missing_host_key_policy(paramiko.AutoAddPolicy())\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "check_hostname = False alone",
    path: "net/tls.py",
    before: "ctx = ssl.create_default_context(cafile=CA)\n",
    after: "ctx = ssl.create_default_context(cafile=CA)\nctx.check_hostname = False\n",
    rule: "tls-verify-disabled",
  },
  {
    name: "Twilio auth token in settings",
    path: "sms/settings.py",
    before: "TWILIO_SID = os.environ['TWILIO_SID']\n",
    after: `TWILIO_SID = os.environ['TWILIO_SID']\nTWILIO_AUTH_TOKEN = "${v.hex40.slice(0, 32)}"\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Azure storage connection string",
    path: "src/storage.js",
    before: "const { BlobServiceClient } = require('@azure/storage-blob');\n",
    after:
      `const { BlobServiceClient } = require('@azure/storage-blob');\nconst conn = "DefaultEndpointsProtocol=https;AccountName=shopdata;AccountKey=${
        fakeChars(86, 45)
      }==;EndpointSuffix=core.windows.net";\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Flask JWT secret in app.config subscript",
    path: "app/__init__.py",
    before: "app = Flask(__name__)\n",
    after: `app = Flask(__name__)\napp.config["JWT_SECRET_KEY"] = "${v.password}"\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "Stripe secret in .env",
    path: ".env",
    before: "PORT=3000\n",
    after: `PORT=3000\nSTRIPE_SECRET_KEY=${v.stripe}\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "password in a Python dict literal",
    path: "etl/conn.py",
    before: 'CONN = {"host": "db", "user": "etl"}\n',
    after: `CONN = {"host": "db", "user": "etl", "password": "${v.password}"}\n`,
    rule: "hardcoded-secret",
  },
  {
    name: "jose jwtVerify replaced by decodeJwt",
    path: "src/auth.ts",
    before:
      "const { payload } = await jwtVerify(token, JWKS, { issuer: ISS });\nreturn payload.sub;\n",
    after: "const payload = decodeJwt(token);\nreturn payload.sub;\n",
    rule: "crypto-verification-removed",
  },
  {
    name: "compare_digest replaced by == (secrets module)",
    path: "api/keys.py",
    before: "def check(given, stored):\n    return secrets.compare_digest(given, stored)\n",
    after: "def check(given, stored):\n    return given == stored\n",
    rule: "crypto-verification-removed",
  },
];
