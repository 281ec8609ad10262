import assert from "node:assert/strict";
import { edit, oneWayAll, type OneWayCase, seen, silentEdit } from "./shape_helpers.ts";

/**
 * What now passes where it did not: an error path handing the request on, a failed check given a
 * fallback, an always-on switch made conditional, hours of grace on token times, unsafe methods
 * out of CSRF's reach, a privilege from mere presence or lowered in a name, a restricting option
 * no longer read, a bypass for this machine, a setting or permissive option read the other way
 * round. Each a forward edit that must draw a finding and whose reverse must not.
 */
const PASS_CASES: OneWayCase[] = [
  {
    what: "A key store failure in an auth middleware now hands the request on.",
    path: "server/middleware/auth.ts",
    before:
      "export function requireKey(req, res, next) {\n  lookupKey(req.headers['x-api-key'], (err, key) => {\n    if (err) {\n      res.status(500).send('key store unavailable');\n      return;\n    }\n    if (!key) return res.sendStatus(401);\n    next();\n  });\n}\n",
    from: "      res.status(500).send('key store unavailable');\n",
    to: "      next();\n",
    finds: /an error path now hands the request on: `next\(\);`/,
  },
  {
    what: "A failed session validation given a fallback session.",
    path: "src/server/session.ts",
    before:
      "export async function sessionOf(token: string) {\n  const session = await validateSession(token);\n  if (!session) throw new Unauthorized();\n  return session;\n}\n",
    from: "const session = await validateSession(token);",
    to: "const session = (await validateSession(token)) ?? { user: 'guest' };",
    finds: /a failed check now falls back/,
  },
  {
    what: "A switch that always enforced a scope check made conditional.",
    path: "internal/auth/scopes.go",
    before:
      "func authorize(ctx context.Context, claims Claims, tenant string) error {\n\tenforceTenantCheck := true\n\tif enforceTenantCheck && claims.Tenant != tenant {\n\t\treturn ErrForbidden\n\t}\n\treturn nil\n}\n",
    from: "enforceTenantCheck := true",
    to: 'enforceTenantCheck := tenant != ""',
    finds: /`enforceTenantCheck` no longer always on/,
  },
  {
    what: "A day of clock tolerance given to a token verification.",
    path: "src/auth/jwt.ts",
    before:
      "export async function verifySession(token: string) {\n  return await jwtVerify(token, key, {\n    issuer: ISSUER,\n    clockTolerance: 30,\n  });\n}\n",
    from: "clockTolerance: 30,",
    to: "clockTolerance: 24 * 3600,",
    finds: /token times given a long grace/,
  },
  {
    what: "PATCH taken out of the methods a CSRF check protects.",
    path: "web/csrf.py",
    before:
      "def needs_csrf(request):\n    return request.method in ('POST', 'PUT', 'PATCH', 'DELETE')\n",
    from: "('POST', 'PUT', 'PATCH', 'DELETE')",
    to: "('POST', 'PUT', 'DELETE')",
    finds: /`PATCH` no longer protected/,
  },
  {
    what: "PUT put into the methods an origin check leaves alone.",
    path: "app/middleware.py",
    before:
      "def csrf_middleware(get_response):\n    def middleware(request):\n        if request.method not in ('GET', 'HEAD', 'OPTIONS'):\n            check_origin(request)\n        return get_response(request)\n    return middleware\n",
    from: "('GET', 'HEAD', 'OPTIONS')",
    to: "('GET', 'HEAD', 'OPTIONS', 'PUT')",
    finds: /`PUT` now exempt/,
  },
  {
    what: "Staff status read from having any group at all.",
    path: "accounts/middleware.py",
    before:
      "def attach_roles(request, groups):\n    request.user.is_staff = 'staff' in groups\n    return request\n",
    from: "request.user.is_staff = 'staff' in groups",
    to: "request.user.is_staff = bool(groups)",
    finds: /`request\.user\.is_staff` now from mere presence/,
  },
  {
    what: "A read-only option no longer consulted for the actions offered.",
    path: "src/admin/actions.ts",
    before:
      "export function actionsFor(user: User, opts: Options) {\n  const actions = opts.restrictedMode ? [] : allActions(user);\n  return actions;\n}\n",
    from: "const actions = opts.restrictedMode ? [] : allActions(user);",
    to: "const actions = allActions(user);",
    finds: /`opts\.restrictedMode` no longer restricts/,
  },
  {
    what: "A bypass for requests from localhost put before a login check.",
    path: "server/auth.go",
    before:
      'func requireLogin(next http.Handler) http.Handler {\n\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n\t\tif !loggedIn(r) {\n\t\t\thttp.Redirect(w, r, "/login", http.StatusFound)\n\t\t\treturn\n\t\t}\n\t\tnext.ServeHTTP(w, r)\n\t})\n}\n',
    from: "\t\tif !loggedIn(r) {",
    to:
      '\t\tif strings.HasPrefix(r.RemoteAddr, "127.0.0.1:") {\n\t\t\tnext.ServeHTTP(w, r)\n\t\t\treturn\n\t\t}\n\t\tif !loggedIn(r) {',
    finds: /requests from this machine let through/,
  },
  {
    what: "A cookie's secure flag given the insecure switch without its negation.",
    path: "internal/web/cookies.go",
    before:
      'func sessionCookie(v string, cfg Config) *http.Cookie {\n\treturn &http.Cookie{\n\t\tName:     "sid",\n\t\tValue:    v,\n\t\tSecure:   !cfg.AllowInsecure,\n\t\tHttpOnly: true,\n\t}\n}\n',
    from: "Secure:   !cfg.AllowInsecure,",
    to: "Secure:   cfg.AllowInsecure,",
    finds: /`Secure` inverted/,
  },
  {
    what: "A role lowered inside a route's permission argument.",
    path: "app/views/projects.py",
    before:
      "@view_config(route_name='project_delete', permission='admin')\ndef delete_project(request):\n    request.project.delete()\n",
    from: "permission='admin'",
    to: "permission='view'",
    finds: /`admin` → `view`/,
  },
  {
    what: "An option that lets anonymous users in switched on by default.",
    path: "service/conf.py",
    before:
      "OPTS = [\n    cfg.BoolOpt('allow_anonymous_reads', default=False,\n                help='Let requests without a token read.'),\n]\n",
    from: "default=False,",
    to: "default=True,",
    finds: /allow_anonymous_reads/,
  },
  {
    what: "A token looked up by prefix instead of exactly.",
    path: "api/tokens.go",
    before:
      'func findToken(db *gorm.DB, tok string) error {\n\treturn db.Where("token = ?", tok).First(&Token{}).Error\n}\n',
    from: 'Where("token = ?", tok)',
    to: 'Where("token LIKE ?", tok+"%")',
    finds: /exact comparison made partial/,
  },
];

Deno.test("pass shapes: a finding forward, silence when the guard is put back", () => {
  oneWayAll(PASS_CASES);
});

Deno.test("pass shapes: a failing branch whose grouped term now also needs another", () => {
  // (The reverse edit, the term taken out again, draws the coarser condition reading too.)
  const before =
    "func login(u *User, pw string) error {\n\tif u == nil || bcrypt.CompareHashAndPassword(u.Hash, []byte(pw)) != nil {\n\t\treturn ErrInvalidCredentials\n\t}\n\treturn nil\n}\n";
  const after = edit(
    before,
    "u == nil || bcrypt.CompareHashAndPassword(u.Hash, []byte(pw)) != nil {",
    "u == nil || (pw != u.Plain && bcrypt.CompareHashAndPassword(u.Hash, []byte(pw)) != nil) {",
  );
  assert.match(
    seen("auth/login.go", before, after).join("\n"),
    /failure now also needs `pw != u\.Plain`/,
  );
});

Deno.test("pass shapes: a branch read the other way round draws a finding both ways", () => {
  // Nothing in the line says which way is right: either way the branch runs when it should not.
  const before =
    "func client(c Config) *http.Client {\n\tif !c.Insecure {\n\t\treturn nil\n\t}\n\treturn insecureClient()\n}\n";
  const after = edit(before, "if !c.Insecure {", "if c.Insecure {");
  assert.match(seen("cmd/tls.go", before, after).join("\n"), /condition inverted/);
  assert.match(seen("cmd/tls.go", after, before).join("\n"), /condition inverted/);
});

/** Ordinary edits of the same kinds, each with why it is no weakening: `from` → `to` in `text`. */
const SILENT: { why: string; path: string; text: string; from: string; to: string }[] = [
  {
    why: "An if/else swapped round keeps its meaning: the bodies move with the condition.",
    path: "cmd/tls.go",
    text:
      "func client(c Config) *http.Client {\n\tif !c.Insecure {\n\t\treturn nil\n\t} else {\n\t\treturn insecureClient()\n\t}\n}\n",
    from: "\tif !c.Insecure {\n\t\treturn nil\n\t} else {\n\t\treturn insecureClient()\n",
    to: "\tif c.Insecure {\n\t\treturn insecureClient()\n\t} else {\n\t\treturn nil\n",
  },
  {
    why: "The same in Python, where the branch fails: still the same meaning.",
    path: "admin/views.py",
    text:
      "def handle(user):\n    if not user.is_admin:\n        raise Forbidden()\n    else:\n        return panel()\n",
    from:
      "    if not user.is_admin:\n        raise Forbidden()\n    else:\n        return panel()\n",
    to: "    if user.is_admin:\n        return panel()\n    else:\n        raise Forbidden()\n",
  },
  {
    why: "Reading instead of writing data is no privilege lowered.",
    path: "auth/export.py",
    text: "def export_keys(auth_path):\n    data = writeFile(auth_path)\n    return data\n",
    from: "writeFile",
    to: "readFile",
  },
  {
    why: "A read timeout for a write timeout is no privilege lowered.",
    path: "auth/server.go",
    text:
      "func serveAuth(cfg *Config) *http.Server {\n\treturn &http.Server{WriteTimeout: cfg.AuthTimeout}\n}\n",
    from: "WriteTimeout",
    to: "ReadTimeout",
  },
  {
    why: "A key's public half for its private half is no privilege lowered.",
    path: "src/auth/jwk.ts",
    text: "export function authKey(k: Keys) {\n  return exportJwk(k.privateKey);\n}\n",
    from: "k.privateKey",
    to: "k.publicKey",
  },
  {
    why: "A fallback that is still no value keeps the failure a failure.",
    path: "src/auth/tokens.ts",
    text:
      "export async function load(token: string) {\n  const claims = await verifyToken(token);\n  return claims;\n}\n",
    from: "await verifyToken(token)",
    to: "(await verifyToken(token)) ?? null",
  },
  {
    why: "`or None` gives nothing the check did not.",
    path: "auth/tokens.py",
    text: "def load(token):\n    claims = verify_token(token)\n    return claims\n",
    from: "verify_token(token)",
    to: "verify_token(token) or None",
  },
  {
    why: "A route that now also answers POST is no CSRF exemption.",
    path: "web/auth.py",
    text: "@app.route('/login', methods=['GET', 'HEAD'])\ndef login():\n    return form()\n",
    from: "['GET', 'HEAD']",
    to: "['GET', 'HEAD', 'POST']",
  },
  {
    why: "A skip switch made conditional is the fix, not a weakening.",
    path: "net/tls.go",
    text:
      "func dial(cfg Config) *tls.Config {\n\tInsecureSkipVerify := true\n\treturn mk(InsecureSkipVerify)\n}\n",
    from: "InsecureSkipVerify := true",
    to: "InsecureSkipVerify := cfg.Skip",
  },
  {
    why: "Seconds of leeway given where there were none are ordinary.",
    path: "auth/jwt.py",
    text: "def decode(t):\n    return jwt.decode(t, KEY, algorithms=['RS256'])\n",
    from: "algorithms=['RS256']",
    to: "algorithms=['RS256'], leeway=30",
  },
];

Deno.test("pass shapes: ordinary edits of the same kinds stay silent", () => {
  for (const c of SILENT) silentEdit(c.path, c.text, c.from, c.to);
});
