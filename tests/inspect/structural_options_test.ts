/**
 * Checking options of verify/decode calls (audience, issuer, algorithms, max_age, Go's
 * `jwt.With…` options) and middleware registered by class or as a global guard, per language:
 * removing one fires, renaming what is passed or reordering the options stays silent.
 */
import assert from "node:assert/strict";
import { inspectText, loadParsers } from "../../src/inspect/mod.ts";

await loadParsers();

const guardFindings = (path: string, before: string, after: string) =>
  inspectText(path, before, after).filter((f) => f.rule !== "hardcoded-secret");
const fires = (path: string, before: string, after: string) => {
  assert.notEqual(after, before, "the edit must change the text");
  const f = guardFindings(path, before, after);
  assert.ok(f.length > 0, `expected a finding for ${path}:\n${after}`);
  return f;
};
// The rules stay silent. (The learned signal's medium findings depend on its weights, retrained
// with each corpus batch; they are measured on the corpora in guard_model_test.ts, not per edit.)
const silent = (path: string, before: string, after: string) =>
  assert.deepEqual(
    guardFindings(path, before, after).filter((f) => !f.detail?.includes("learned signal"))
      .map((f) => f.message),
    [],
  );

const PY = `def decode_id_token(token, key, client_id):
    return jwt.decode(token, key, algorithms=["RS256"], audience=client_id, issuer=ISSUER)


def confirm(token):
    return serializer.loads(token, max_age=3600)
`;

Deno.test("python: audience, issuer, algorithms and max_age options count", () => {
  const f = fires("oidc.py", PY, PY.replace(", audience=client_id", ""));
  assert.equal(f[0].rule, "crypto-verification-removed");
  assert.equal(f[0].severity, "high");
  fires("oidc.py", PY, PY.replace(", max_age=3600", ""));
  silent("oidc.py", PY, PY.replaceAll("client_id", "cid"));
  silent(
    "oidc.py",
    PY,
    PY.replace(
      'algorithms=["RS256"], audience=client_id',
      'audience=client_id, algorithms=["RS256"]',
    ),
  );
});

const JS = `function check(token) {
  return jwt.verify(token, publicKey, { algorithms: ['RS256'], issuer: ISS });
}
`;

Deno.test("js: options of jwt.verify count; reordering them is silent", () => {
  fires("auth.js", JS, JS.replace("algorithms: ['RS256'], ", ""));
  silent(
    "auth.js",
    JS,
    JS.replace("algorithms: ['RS256'], issuer: ISS", "issuer: ISS, algorithms: ['RS256']"),
  );
});

const GO = `package auth

func parse(s string) (*jwt.Token, error) {
	return jwt.Parse(s, keyFunc, jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience(aud))
}
`;

Deno.test("go: jwt.With… parser options count", () => {
  fires("auth.go", GO, GO.replace(`, jwt.WithValidMethods([]string{"RS256"})`, ""));
  silent("auth.go", GO, GO.replace("jwt.WithAudience(aud)", "jwt.WithAudience(audience)"));
});

const PY_APP = `app = Starlette(routes=routes)
app.add_middleware(AuthenticationMiddleware, backend=TokenBackend())
app.add_middleware(GZipMiddleware)
`;

Deno.test("python: an authentication middleware class removed from the app fires", () => {
  fires(
    "app.py",
    PY_APP,
    PY_APP.replace("app.add_middleware(AuthenticationMiddleware, backend=TokenBackend())\n", ""),
  );
  // a non-security middleware removed: silent
  silent("app.py", PY_APP, PY_APP.replace("app.add_middleware(GZipMiddleware)\n", ""));
});

const TS_MODULE = `@Module({
  providers: [
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    AppService,
  ],
})
export class AppModule {}
`;

Deno.test("ts: a global APP_GUARD provider removed fires; moving it is silent", () => {
  fires(
    "app.module.ts",
    TS_MODULE,
    TS_MODULE.replace("    { provide: APP_GUARD, useClass: JwtAuthGuard },\n", ""),
  );
  silent(
    "app.module.ts",
    TS_MODULE,
    TS_MODULE.replace(
      "    { provide: APP_GUARD, useClass: JwtAuthGuard },\n    AppService,\n",
      "    AppService,\n    { provide: APP_GUARD, useClass: JwtAuthGuard },\n",
    ),
  );
});

const PY_MIXIN = `class StaffOnly(UserPassesTestMixin, View):
    def test_func(self):
        return self.request.user.is_staff
`;

Deno.test("python: a return deciding by a role read, replaced by True, fires; renaming is silent", () => {
  fires("views.py", PY_MIXIN, PY_MIXIN.replace("return self.request.user.is_staff", "return True"));
  silent("views.py", PY_MIXIN, PY_MIXIN.replace("StaffOnly", "StaffOnlyView"));
});

const FASTIFY = `fastify.register(async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onSend', compress);
  app.get('/me', handler);
});
`;

Deno.test("js: an auth hook (Fastify) and a default strategy (hapi) removed fire", () => {
  fires("app.js", FASTIFY, FASTIFY.replace("  app.addHook('onRequest', app.authenticate);\n", ""));
  silent("app.js", FASTIFY, FASTIFY.replace("  app.addHook('onSend', compress);\n", ""));
  const hapi =
    "async function init(server) {\n  server.auth.strategy('jwt', 'jwt', opts);\n  server.auth.default('jwt');\n}\n";
  fires("server.js", hapi, hapi.replace("  server.auth.default('jwt');\n", ""));
});

const NEXTAUTH = `export const authOptions = {
  callbacks: {
    async signIn({ user }) {
      return user.email.endsWith('@corp.example');
    },
  },
};
`;

Deno.test("ts: a signIn callback that returns true instead of its check fires", () => {
  const f = fires(
    "auth.ts",
    NEXTAUTH,
    NEXTAUTH.replace("return user.email.endsWith('@corp.example');", "return true;"),
  );
  assert.equal(f[0].rule, "auth-check-removed");
  silent(
    "auth.ts",
    NEXTAUTH,
    NEXTAUTH.replace("return user.email.endsWith('@corp.example');", "return isCorp(user.email);"),
  );
});

Deno.test("a generic-subject failure branch is high inside a login function, medium elsewhere", () => {
  const login =
    "def require_login():\n    if 'user_id' not in session:\n        return redirect(url_for('login'))\n";
  const f = fires(
    "app.py",
    login,
    login.replace(
      "    if 'user_id' not in session:\n        return redirect(url_for('login'))\n",
      "    pass\n",
    ),
  );
  assert.equal(f[0].severity, "high");
  const other =
    "def render_menu():\n    if 'user_id' not in session:\n        return None\n    return menu()\n";
  const g = fires(
    "app.py",
    other,
    other.replace("    if 'user_id' not in session:\n        return None\n", ""),
  );
  assert.equal(g[0].severity, "medium");
});

Deno.test("redirect allow-list call, Go bcrypt compare and an OAuth state comparison count", () => {
  const dj =
    'def login_view(request):\n    next_url = request.GET.get("next", "/")\n    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):\n        next_url = "/"\n    return redirect(next_url)\n';
  fires("views.py", dj, dj.replace(/ {4}if not url_has[^\n]*\n {8}next_url = "\/"\n/, ""));
  const go =
    "package auth\n\nfunc Login(u *User, pw string) error {\n\tif err := bcrypt.CompareHashAndPassword(u.Hash, []byte(pw)); err != nil {\n\t\treturn ErrBadLogin\n\t}\n\treturn nil\n}\n";
  fires("login.go", go, go.replace(/\tif err := bcrypt[^}]*}\n/, ""));
  const state =
    'package h\n\nfunc callback(w http.ResponseWriter, r *http.Request) {\n\tsess := store.Get(r)\n\tif r.FormValue("state") != sess.State {\n\t\thttp.Error(w, "invalid state", http.StatusBadRequest)\n\t\treturn\n\t}\n\texchange(w, r)\n}\n';
  fires("oauth.go", state, state.replace(/\tif r\.FormValue[^}]*}\n/, ""));
  silent(
    "oauth.go",
    state,
    state.replace('r.FormValue("state") != sess.State', 'sess.State != r.FormValue("state")'),
  );
});
