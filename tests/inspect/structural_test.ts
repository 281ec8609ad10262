/**
 * The parser path: tree-sitter loads offline from the npm package, every language parses, guard
 * removals are named with construct and line, and a file the parser cannot take falls back to the
 * regular expressions with a note instead of crashing.
 */
import assert from "node:assert/strict";
import {
  inspectChanges,
  inspectText,
  inspectTextNoted,
  loadParsers,
  parserStatus,
} from "../../src/inspect/mod.ts";
import { grammarOf, parse } from "../../src/inspect/parser.ts";

await loadParsers();

Deno.test("parsers load from the npm package and report ready", () => {
  assert.equal(parserStatus(), "ready");
});

Deno.test("every grammar parses its language", () => {
  const samples: [string, string, string][] = [
    ["a.py", "def f(x):\n    return x\n", "module"],
    ["a.js", "function f(x) { return x; }\n", "program"],
    ["a.ts", "function f(x: number): number { return x; }\n", "program"],
    ["a.tsx", "const A = () => <div>{1}</div>;\n", "program"],
    ["a.go", "package a\nfunc F(x int) int { return x }\n", "source_file"],
  ];
  for (const [path, text, root] of samples) {
    const r = parse(text, grammarOf(path)!);
    assert.ok(r.ok, path);
    if (r.ok) {
      assert.equal(r.root.type, root);
      assert.equal(r.hasError, false, path);
      r.release();
    }
  }
});

const one = (path: string, before: string, after: string) =>
  inspectText(path, before, after).filter((f) => f.severity === "high");

Deno.test("python: removed role check is named with function and line", () => {
  const before = "def delete(request, pk):\n    user = request.user\n" +
    "    if not user.is_admin:\n        raise PermissionError('admins only')\n    return remove(pk)\n";
  const after = "def delete(request, pk):\n    user = request.user\n    return remove(pk)\n";
  const f = one("app/views.py", before, after);
  assert.equal(f[0]?.rule, "auth-check-removed");
  assert.equal(f[0].line, 3);
  assert.match(f[0].detail ?? "", /removed from delete\(\) \(views\.py:3\)/);
});

Deno.test("python: a comparison dropped from a condition is a removed credential check", () => {
  const before = "def login(u, p):\n    user = find(u)\n    if user and user.check_password(p):\n" +
    "        return start(user)\n    return None\n";
  const after = before.replace("user and user.check_password(p)", "user");
  assert.match(one("auth.py", before, after)[0]?.detail ?? "", /check_password\(\) call removed/);
});

Deno.test("python: a secure parameter default flipped to False", () => {
  const before = "def decode(token, key, verify_signature=True):\n    return _decode(token, key)\n";
  const after = before.replace("verify_signature=True", "verify_signature=False");
  assert.equal(one("jwt/api.py", before, after)[0]?.rule, "secure-default-weakened");
});

Deno.test("javascript: middleware dropped from a route's handler list", () => {
  const before = "app.get('/admin', restrict, function (req, res) {\n  res.send(render());\n});\n";
  const after = "app.get('/admin', function (req, res) {\n  res.send(render());\n});\n";
  const f = one("server.js", before, after);
  assert.equal(f[0]?.rule, "auth-check-removed");
  assert.match(f[0].detail ?? "", /`restrict` middleware/);
});

Deno.test("typescript: token expiry branch deleted", () => {
  const before = "export function check(payload: Claims, now: number): void {\n" +
    "  if (payload.exp <= now) {\n    throw new TokenExpiredError('jwt expired');\n  }\n}\n";
  const after = "export function check(payload: Claims, now: number): void {\n}\n";
  assert.equal(one("src/verify.ts", before, after)[0]?.rule, "crypto-verification-removed");
});

Deno.test("go: signature check deleted", () => {
  const before =
    "package jwt\n\nfunc (m *HMAC) Verify(s string, sig []byte, key []byte) error {\n" +
    "\tif !hmac.Equal(sig, sum(s, key)) {\n\t\treturn ErrSignatureInvalid\n\t}\n\treturn nil\n}\n";
  const after = "package jwt\n\nfunc (m *HMAC) Verify(s string, sig []byte, key []byte) error {\n" +
    "\treturn nil\n}\n";
  assert.ok(one("hmac.go", before, after).length >= 1);
});

Deno.test("moves and reorderings inside a file stay silent", () => {
  const a =
    "def a(r):\n    if not r.user.is_staff:\n        raise PermissionDenied\n    return 1\n";
  const b = "def b(r):\n    check_permissions(r)\n    return 2\n";
  assert.deepEqual(inspectText("v.py", a + "\n" + b, b + "\n" + a), []);
});

Deno.test("fallback: invalid syntax still inspects, with a note", () => {
  const before =
    "def f(r:\n    if not r.user.is_admin:\n        raise PermissionError()\n    return 1\n";
  const after = "def f(r:\n    return 1\n";
  const r = inspectTextNoted("broken.py", before, after);
  assert.ok(r.notes.some((n) => /syntax errors/.test(n)), r.notes.join());
});

Deno.test("fallback: binary, huge and unknown-language files never crash", () => {
  assert.deepEqual(inspectTextNoted("x.py", "a\0b", "a\0c").findings, []);
  const huge = "x = 1\n".repeat(60_000); // 360 KB: above the parser's limit
  const guard = "def f(user):\n    if not user.is_admin:\n        raise PermissionError()\n";
  // Deleting a huge file: the whole text would need parsing, which is refused with a note.
  const r = inspectTextNoted("big.py", huge + guard, null);
  assert.ok(r.notes.some((n) => /not parsed \(larger than/.test(n)), r.notes.join());
  // Editing it: only the top-level chunk around the edit is parsed, so the removal is found.
  const e = inspectText("big.py", huge + guard, huge + "def f(user):\n    pass\n");
  assert.equal(e[0]?.line, 60_002);
  const res = inspectChanges([{ path: "notes.xyz", before: "a", after: "b" }]);
  assert.deepEqual(res.findings, []);
  assert.equal(res.notes, undefined);
});

Deno.test("secrets: keyword-context literals in JS/TS/Python, placeholders silent", () => {
  const hit = (path: string, text: string) =>
    inspectText(path, null, text).some((f) => f.rule === "hardcoded-secret");
  assert.ok(hit("auth.js", "passport.use(new JwtStrategy({ secretOrKey: 'secret' }, verify));\n"));
  assert.ok(hit("token.ts", "export const t = jwt.sign(payload, 'literal-signing-key');\n"));
  assert.ok(hit("db.py", "DATABASE = {'USER': 'app', 'PASSWORD': 'Tr0ub4dor-and-3'}\n"));
  assert.ok(!hit("db.py", "PASSWORD = os.environ['DB_PASSWORD']\npassword = '<your-password>'\n"));
  assert.ok(!hit("cfg.ts", "const apiKey = process.env.API_KEY ?? 'changeme';\n"));
  assert.ok(!hit("cfg.js", "const token = '********';\nconst secret = 'REDACTED';\n"));
});

Deno.test("an edit inside one method of a large class is still parsed; a rewrite falls back with a note", () => {
  const method = (i: number) =>
    `    def view_${i}(self, request):\n        data = self.load(request, ${i})\n        return self.render(data)\n\n`;
  const filler = Array.from({ length: 400 }, (_, i) => method(i)).join("");
  const guarded = "    def pay(self, request):\n" +
    "        if not request.user.has_perm('pay'):\n            raise PermissionDenied\n" +
    "        return self.render(None)\n\n";
  const open = "    def pay(self, request):\n        return self.render(None)\n\n";
  const before = `class Views:\n${filler}${guarded}${filler}`;
  assert.ok(before.length > 60_000); // one top-level statement, larger than the edit cap
  const small = inspectTextNoted("views.py", before, before.replace(guarded, open));
  assert.deepEqual(small.notes, []);
  assert.ok(small.findings.some((f) => f.rule === "auth-check-removed" && f.severity === "high"));
  assert.ok(small.findings.some((f) => f.detail?.includes("pay")));
  // Every method rewritten: more changed text than the cap, regular expressions only.
  const rewritten = before.replaceAll("return self.render(data)", "return self.render_all(data)")
    .replace(guarded, open);
  const big = inspectTextNoted("views.py", before, rewritten);
  assert.ok(big.notes.some((n) => n.includes("regular expressions only")), big.notes.join("\n"));
});

Deno.test("a predicate whose yes refuses: its `return True` is the failure, `return False` the way in", async () => {
  const { structuralFindings } = await import("../../src/inspect/structural_findings.ts");
  const py =
    "def is_token_revoked(payload):\n    jti = payload.get('jti')\n    if jti is None:\n        return True\n    return store.is_revoked(jti)\n";
  const opened = py.replace("        return True\n", "        return False\n");
  const go =
    'package auth\n\nfunc (d *Denylist) Denylisted(t *Token) bool {\n\tif t.Token == "" {\n\t\treturn true\n\t}\n\treturn d.revoked[t.ID]\n}\n';
  const goOpened = go.replace("\t\treturn true\n", "\t\treturn false\n");
  for (
    const [path, closed, open] of [["auth/tokens.py", py, opened], ["auth/deny.go", go, goOpened]]
  ) {
    const forward = structuralFindings(path, closed, open, false).findings;
    assert.equal(forward.length, 1, `${path}: forward`);
    assert.match(forward[0].message, /branch removed/);
    assert.deepEqual(
      structuralFindings(path, open, closed, false).findings,
      [],
      `${path}: reversed`,
    );
  }
  // The same edit in a function whose yes lets through is the guard put back.
  const allows = py.replace("is_token_revoked", "is_token_valid");
  assert.deepEqual(
    structuralFindings(
      "auth/tokens.py",
      allows,
      allows.replace("return True\n", "return False\n"),
      false,
    )
      .findings,
    [],
  );
});
