import assert from "node:assert/strict";
import { edit, oneWay, type OneWayCase, seen } from "./shape_helpers.ts";

/**
 * Result shapes (`guard_shapes_results.ts`) and the settings and failure signals made broader
 * with them: each a forward edit that must draw a finding and whose reverse, the guard put back,
 * must not.
 */
const RESULT_CASES: OneWayCase[] = [
  {
    what: "A check's `await` dropped: the pending promise is truthy.",
    path: "server/auth/login.js",
    before:
      "async function login(req, res) {\n  const user = await users.find(req.body.email);\n  const ok = await verifyPassword(user, req.body.password);\n  if (!ok) return res.status(401).end();\n  return issue(res, user);\n}\n",
    from: "const ok = await verifyPassword",
    to: "const ok = verifyPassword",
    finds: /result of verifyPassword\(\) no longer awaited/,
  },
  {
    what: "A second factor's requirement decided by `false &&`.",
    path: "api/session.ts",
    before:
      "export async function signIn(user: User) {\n  const needsOtp = await mfa.isEnrolled(user.id);\n  if (needsOtp) return { next: 'otp' };\n  return createSession(user);\n}\n",
    from: "const needsOtp = await",
    to: "const needsOtp = false && await",
    finds: /check decided by a constant \(`false`\)/,
  },
  {
    what: "A failing branch's negated check decided by `true ||`.",
    path: "routes/admin.ts",
    before:
      "function removeUser(req: Req, id: string) {\n  if (!(isAdmin(req.user))) {\n    throw new Forbidden('admins only');\n  }\n  return db.users.delete(id);\n}\n",
    from: "if (!(isAdmin(req.user)))",
    to: "if (!(true || isAdmin(req.user)))",
    finds: /check decided by a constant \(`true`\)/,
  },
  {
    what: "A signature check's exception caught and only logged.",
    path: "service/components/authorization.py",
    before:
      "def decode_token(token, key):\n    header, payload, sig = split_token(token)\n    key.verify(sig, header + payload)\n    return json.loads(payload)\n",
    from: "    key.verify(sig, header + payload)\n",
    to:
      "    try:\n        key.verify(sig, header + payload)\n    except Exception:\n        logging.debug('signature mismatch')\n",
    finds: /failure of `key\.verify\(sig, header \+ payload\)` caught and not failed/,
  },
  {
    what: "A missing token made a warning instead of a fatal error.",
    path: "pkg/api/api.go",
    before:
      'func (api *API) Start() error {\n\tif api.Token == "" {\n\t\tlog.Fatal(errTokenMissing)\n\t}\n\treturn serve(api.Token)\n}\n',
    from: "log.Fatal(",
    to: "log.Warn(",
    finds: /failure statement removed: `log\.Fatal\(errTokenMissing\)`/,
  },
  {
    what: "A flag named with dashes that skips certificate checks turned on by default.",
    path: "cmd/root.go",
    before:
      'func init() {\n\trootCmd.Flags().Bool("ignore-certificate-errors", false, "ignore TLS errors when calling the API")\n}\n',
    from: '"ignore-certificate-errors", false',
    to: '"ignore-certificate-errors", true',
    finds: /ignore-certificate-errors/,
  },
  {
    what: "A switch that skips verification read from the environment, made a constant yes.",
    path: "internal/flags/notify.go",
    before:
      'func gotifyConfig() Config {\n\treturn Config{\n\t\tURL: envString("GOTIFY_URL"),\n\t\tSkipVerify: envBool("GOTIFY_TLS_SKIP_VERIFY"),\n\t}\n}\n',
    from: 'envBool("GOTIFY_TLS_SKIP_VERIFY")',
    to: "true",
    finds: /GOTIFY_TLS_SKIP_VERIFY.*→ `SkipVerify: true,`/,
  },
  {
    what: "A session cookie's SameSite lowered from lax to none.",
    path: "src/server/cookies.ts",
    before:
      "export function setSessionCookie(res: Res, id: string) {\n  res.cookie('sid', id, {\n    httpOnly: true,\n    sameSite: 'lax',\n  });\n}\n",
    from: "sameSite: 'lax'",
    to: "sameSite: 'none'",
    finds: /sameSite: 'lax'/,
  },
  {
    what: "A CSRF protection middleware dropped from a route's handler list.",
    path: "routes/settings.js",
    before:
      "router.post('/settings/password', csrfProtection, requireLogin, async (req, res) => {\n  await users.setPassword(req.user.id, req.body.password);\n  res.redirect('/settings');\n});\n",
    from: "csrfProtection, ",
    to: "",
    finds: /csrfProtection no longer applied/,
  },
];

Deno.test("result shapes: a finding forward, silence when the guard is put back", () => {
  for (const c of RESULT_CASES) {
    try {
      oneWay(c.path, c.before, edit(c.before, c.from, c.to), c.finds);
    } catch (e) {
      throw new Error(`${c.what}\n${(e as Error).message}`);
    }
  }
});

Deno.test("result shapes: the same edits with the other polarity stay silent", () => {
  // `return await` and `return` hand the same promise on.
  const handed = "async function check(t) {\n  return await verifyToken(t);\n}\n";
  assert.deepEqual(seen("auth/check.js", handed, edit(handed, "return await", "return")), []);
  // `True or` on a name that asks for more asks for it always: stricter.
  const otp = "def login(u, p):\n    needs_otp = u.has_device()\n    return needs_otp\n";
  assert.deepEqual(
    seen("auth/login.py", otp, edit(otp, "needs_otp = u", "needs_otp = True or u")),
    [],
  );
  // An early yes in a function whose yes refuses.
  const blocked = "def is_blocked(ip):\n    hits = attempts.count(ip)\n    return hits > LIMIT\n";
  assert.deepEqual(
    seen(
      "security/throttle.py",
      blocked,
      edit(blocked, "    hits =", "    if ip in DENYLIST:\n        return True\n    hits ="),
    ),
    [],
  );
  // A `try` whose handler still fails.
  const still = "def check(token, key):\n    key.verify(token)\n    return True\n";
  assert.deepEqual(
    seen(
      "auth/tokens.py",
      still,
      edit(
        still,
        "    key.verify(token)\n",
        "    try:\n        key.verify(token)\n    except BadSignature:\n        raise Unauthorized()\n",
      ),
    ),
    [],
  );
});
