/**
 * The counting semantics, risk and formatting of the inspector, and its helpers.
 */
import assert from "node:assert/strict";
import {
  formatFinding,
  inspectChanges,
  inspectText,
  maxSeverityOf,
  riskOf,
} from "../../src/inspect/mod.ts";
import { definitionSpans, isTestPath, langOf, stripComments } from "../../src/inspect/count.ts";
import { entropy } from "../../src/inspect/rules_secrets.ts";

const THREE =
  "@login_required\ndef a(r): ...\n@login_required\ndef b(r): ...\n@login_required\ndef c(r): ...\n";

Deno.test("guard rule: dropping one of three fires with the counts", () => {
  const after = THREE.replace("@login_required\ndef b", "def b");
  const f = inspectText("views.py", THREE, after);
  assert.equal(f.length, 1);
  assert.deepEqual([f[0].rule, f[0].before, f[0].after], ["auth-check-removed", 3, 2]);
  assert.equal(formatFinding(f[0]), "⚑ high: auth-check-removed (3 → 2)");
});

Deno.test("guard rule: adding a guard or keeping the count is silent", () => {
  assert.deepEqual(inspectText("views.py", THREE, THREE + "@login_required\ndef d(r): ...\n"), []);
  assert.deepEqual(inspectText("views.py", THREE, THREE.replace("def c(r)", "def c(request)")), []);
});

Deno.test("pattern rule: fires on a rise, silent when the count falls", () => {
  const a = "requests.get(u, verify=False)\n";
  assert.equal(inspectText("c.py", "", a)[0].rule, "tls-verify-disabled");
  assert.deepEqual(inspectText("c.py", a, ""), []);
});

Deno.test("created and deleted files: null before / after", () => {
  assert.equal(inspectText("c.py", null, "requests.get(u, verify=False)\n").length, 1);
  const del = inspectText("views.py", THREE, null);
  assert.deepEqual([del[0].rule, del[0].before, del[0].after], ["auth-check-removed", 3, 0]);
  // Deleting the whole file takes the guarded code with it: reported, but not high.
  assert.equal(del[0].severity, "medium");
  assert.match(del[0].message, /file deleted/);
});

Deno.test("binary content and identical content are skipped", () => {
  assert.deepEqual(inspectText("x.py", "a\0b", "verify=False\0"), []);
  assert.deepEqual(inspectText("x.py", THREE, THREE), []);
});

Deno.test("language by path: Python patterns do not fire on JS and vice versa", () => {
  assert.deepEqual(inspectText("a.js", "", "requests.get(u, verify=False)\n"), []);
  assert.deepEqual(inspectText("a.py", "", "new Agent({ rejectUnauthorized: false })\n"), []);
  // Unknown path: every language's patterns count.
  assert.equal(inspectText("", "", "new Agent({ rejectUnauthorized: false })\n").length, 1);
});

Deno.test("inspectChanges: risk and maxSeverity from the findings", () => {
  const r = inspectChanges([
    { path: "/w/views.py", before: THREE, after: "" }, // emptied, not deleted: still high
    { path: "/w/c.py", before: "", after: "requests.get(u, verify=False)\n" },
    { path: "/w/ok.py", before: "x = 1\n", after: "x = 2\n" },
  ]);
  assert.equal(r.findings.length, 2);
  assert.equal(r.maxSeverity, "high");
  assert.equal(r.risk, 80);
  assert.deepEqual(inspectChanges([]), { findings: [], risk: 0, maxSeverity: null });
});

Deno.test("inspectChanges with root: a workspace under tests/ keeps high findings", () => {
  const root = "/srv/tests/shop";
  const change = {
    path: `${root}/src/client.py`,
    before: "",
    after: "requests.get(u, verify=False)\n",
  };
  assert.equal(inspectChanges([change], { root }).maxSeverity, "high");
  const fixture = { ...change, path: `${root}/tests/fixtures/client.py` };
  assert.equal(inspectChanges([fixture], { root }).maxSeverity, "medium");
});

Deno.test("riskOf and maxSeverityOf", () => {
  const f = (severity: "high" | "medium" | "low") => ({
    rule: "r",
    severity,
    path: "p",
    before: 0,
    after: 1,
    message: "",
  });
  assert.equal(riskOf([]), 0);
  assert.equal(riskOf([f("low")]), 15);
  assert.equal(riskOf([f("medium"), f("low")]), 50);
  assert.equal(riskOf([f("high"), f("high"), f("high"), f("high"), f("high")]), 100);
  assert.equal(maxSeverityOf([f("low"), f("medium")]), "medium");
});

Deno.test("stripComments keeps strings and drops comments", () => {
  assert.equal(stripComments("a = '#x'  # c\n", "python"), "a = '#x'  \n");
  assert.equal(
    stripComments('s = """\n# not a comment\n"""\n', "python"),
    's = """\n# not a comment\n"""\n',
  );
  assert.equal(stripComments('a("//x"); // c\n', "js"), 'a("//x"); \n');
  assert.equal(stripComments("a = /\\/\\//g; /* b\n c */ d\n", "js"), "a = /\\/\\//g; \n d\n");
  assert.equal(stripComments("# not stripped\n", "other"), "# not stripped\n");
});

Deno.test("langOf and isTestPath", () => {
  assert.equal(langOf("a/b.py"), "python");
  assert.equal(langOf("a/b.tsx"), "js");
  assert.equal(langOf("Dockerfile"), "other");
  assert.equal(langOf(""), null);
  for (
    const p of [
      "tests/a.py",
      "pkg/test_x.py",
      "x_test.py",
      "src/a.spec.ts",
      "__tests__/a.js",
      "conftest.py",
    ]
  ) {
    assert.ok(isTestPath(p), p);
  }
  for (const p of ["src/testing_utils.ts", "latest/a.py", "contest.py"]) {
    assert.ok(!isTestPath(p), p);
  }
  // Only the part inside the project decides: a workspace under ~/test/ is not all test code.
  assert.ok(!isTestPath("/home/me/test/shop/src/app.py"));
  assert.ok(isTestPath("/home/me/test/shop/tests/test_app.py"));
  assert.ok(isTestPath("/home/me/shop/tests/fixtures/key.py", "/home/me/shop"));
  assert.ok(!isTestPath("/home/me/tests/shop/src/key.py", "/home/me/tests/shop"));
});

Deno.test("definitionSpans finds Python and JS verifier bodies", () => {
  const py =
    "class A:\n    def verify(\n        self, x\n    ) -> None:\n        check(x)\n\n    def other(self):\n        pass\n";
  const s = definitionSpans(py, "python", /verif/i);
  assert.equal(s.length, 1);
  assert.ok(py.slice(s[0].start, s[0].end).includes("check(x)"));
  assert.ok(!py.slice(s[0].start, s[0].end).includes("other"));
  const js = "function verifySig(a) { if (a) { return ok(a); } }\nfunction next() {}\n";
  const j = definitionSpans(js, "js", /verif/i);
  assert.equal(
    js.slice(j[0].start, j[0].end),
    "function verifySig(a) { if (a) { return ok(a); } }",
  );
});

Deno.test("entropy", () => {
  assert.equal(entropy("aaaa"), 0);
  assert.equal(entropy("abcd"), 2);
});
