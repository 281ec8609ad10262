/**
 * Pinned negatives: ordinary edits that must stay silent (or not reach high), most of them taken
 * from the false-positive corpus where a rule was at fault once.
 */
import assert from "node:assert/strict";
import { inspectText } from "../../src/inspect/mod.ts";
import { fakeTokens } from "../../src/inspect/fake_token.ts";

const highs = (path: string, before: string | null, after: string | null) =>
  inspectText(path, before, after).filter((f) => f.severity === "high");

Deno.test("seed lesson: timeout=5 appended to a call that still says verify=True is silent", () => {
  const before = "import requests\n\nr = requests.get(URL, verify=True)\n";
  const after = "import requests\n\nr = requests.get(URL, verify=True, timeout=5)\n";
  assert.deepEqual(inspectText("client.py", before, after), []);
});

Deno.test("corpus (passport-local 0.1.0→0.1.1): this.verify renamed to this._verify is silent", () => {
  const before = "Strategy.prototype.authenticate = function(req) {\n" +
    "  this.verify(username, password, function(err, user) { done(err, user); });\n};\n";
  const after = before.replace("this.verify(", "this._verify(");
  assert.deepEqual(highs("lib/passport-local/strategy.js", before, after), []);
});

Deno.test("corpus (cryptography 38→48): verifier implementation moved to Rust is medium, not high", () => {
  const before = `from cryptography.hazmat.primitives import constant_time


class HKDF:
    def derive(self, key_material):
        return self._hkdf(key_material)

    def verify(self, key_material, expected_key):
        if not constant_time.bytes_eq(self.derive(key_material), expected_key):
            raise InvalidKey
`;
  const after = "from cryptography.hazmat.bindings._rust import openssl as rust_openssl\n\n" +
    "HKDF = rust_openssl.kdf.HKDF\n";
  const f = inspectText("cryptography/hazmat/primitives/kdf/hkdf.py", before, after);
  assert.equal(f.length, 1);
  assert.equal(f[0].rule, "crypto-verification-removed");
  assert.equal(f[0].severity, "medium");
});

Deno.test("a verifier gutted in place (definition kept, check gone) stays high", () => {
  const before = "def verify_sig(sig, body, key):\n" +
    "    return hmac.compare_digest(sig, sign(body, key))\n";
  const after = "def verify_sig(sig, body, key):\n    return True\n";
  const f = highs("hooks.py", before, after);
  assert.equal(f.length, 1);
  assert.equal(f[0].rule, "crypto-verification-removed");
});

Deno.test("a caller that stops verifying stays high even when the helper is deleted too", () => {
  const before = "def verify_webhook(req):\n    return hmac.compare_digest(a(req), b(req))\n\n\n" +
    "def handle(req):\n    verify_webhook(req)\n    return process(req)\n";
  const after = "def handle(req):\n    return process(req)\n";
  const f = highs("hooks.py", before, after);
  assert.ok(f.some((x) => x.rule === "crypto-verification-removed"));
});

Deno.test("comparisons with ssl.CERT_NONE are not disabling verification", () => {
  const before = "def mode(ctx):\n    return 'x'\n";
  const after =
    "def mode(ctx):\n    if ctx.verify_mode == ssl.CERT_NONE:\n        return 'none'\n    return 'x'\n";
  assert.deepEqual(highs("net/util.py", before, after), []);
});

Deno.test("header names mentioning authenticate are not route middleware", () => {
  const before = "const h = headers.get('www-authenticate');\nuse(h);\n";
  const after = "use(null);\n";
  assert.deepEqual(highs("lib/client.js", before, after), []);
});

Deno.test("secrets: env lookups, templates and placeholders stay silent", () => {
  const after = [
    "const token = process.env.GITHUB_TOKEN;",
    'const password = "<your password here>";',
    'const apiKey = "${API_KEY}";',
    "const dsn = `postgres://app:${pw}@db/app`;",
    'const secret = "changeme-in-prod-2024";',
  ].join("\n") + "\n";
  assert.deepEqual(highs("src/config.js", "", after), []);
});

Deno.test("secrets: a fake key in a test fixture is reported, but not as high", () => {
  const t = fakeTokens(3);
  const f = inspectText("tests/fixtures/config.py", "", `KEY = "${t.awsKeyId}"\n`);
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, "medium");
});

Deno.test("TLS off in a test against a self-signed server is medium, not high", () => {
  const f = inspectText(
    "test/server.test.js",
    "",
    "const agent = new https.Agent({ rejectUnauthorized: false });\n",
  );
  assert.equal(f[0].severity, "medium");
});

Deno.test("moving a decorator to another line keeps the count and is silent", () => {
  const before = "@app.get('/x')\n@login_required\ndef x():\n    pass\n";
  const after = "@login_required\n@app.get('/x')\ndef x():\n    pass\n";
  assert.deepEqual(inspectText("views.py", before, after), []);
});

Deno.test("a string that merely mentions verify=False is not code only when commented", () => {
  // The count includes strings on purpose (config dicts are strings); comments are not counted.
  const before = "x = 1\n";
  const after = "x = 1  # do not use verify=False\n";
  assert.deepEqual(inspectText("a.py", before, after), []);
});

Deno.test("corpus (passport-local 0.1.6→1.0.0): a file deleted in a move is not high", () => {
  const before = "Strategy.prototype.authenticate = function(req) {\n" +
    "  this._verify(username, password, verified);\n  this._verify(u, p, verified);\n};\n";
  assert.deepEqual(highs("lib/passport-local/strategy.js", before, null), []);
});
