/**
 * Windows of large statements (`structure_window.ts`) and what the parser path does with them:
 * a window is the innermost block around the change under plain definition headers, a statement
 * whose enclosing lines may count (an object literal, an `if`) gets none, and a guard removed
 * inside a large class or test suite is still found, at its line, while an edit elsewhere in it
 * finds nothing. Also: a text with astral characters re-parses incrementally to the same tree as
 * a fresh parse.
 */
import assert from "node:assert/strict";
import { inspectText, loadParsers } from "../../src/inspect/mod.ts";
import { type Grammar, parse, parseShared, walk } from "../../src/inspect/parser.ts";
import { WINDOW_MIN_CHARS, windowOf } from "../../src/inspect/structure_window.ts";

await loadParsers();

const filler = (line: string, chars = WINDOW_MIN_CHARS) =>
  line.repeat(Math.ceil(chars / line.length));

function pyClass(body: string): string {
  return "class Api:\n    def helper(self):\n" + filler("        x = 1\n") +
    "    def view(self, request):\n" + body + "        return ok()\n" +
    "    def other(self):\n" + filler("        y = 2\n") + "        return y\n";
}

Deno.test("a Python method edited in a large class gets a window of the class header and that method", () => {
  const text = pyClass("        z = 3\n");
  const at = text.indexOf("z = 3");
  const w = windowOf(text, [at, at + 5], "python");
  assert.ok(w);
  assert.ok(w.text.startsWith("class Api:\n    def view(self, request):\n"));
  assert.ok(!w.text.includes("x = 1") && !w.text.includes("y = 2"));
  assert.equal(w.text.slice(w.range[0], w.range[1]), "z = 3");
});

Deno.test("a JS test inside a large describe gets a window with the suite headers and closers", () => {
  const text = `describe("api", () => {\n${filler("  it('x', () => {\n    f();\n  });\n")}` +
    `  it("guards", () => {\n    g();\n  });\n});\n`;
  const at = text.indexOf("g();");
  const w = windowOf(text, [at, at + 4], "javascript");
  assert.ok(w);
  assert.equal(w.text.slice(w.range[0], w.range[1]), "g();");
  const r = parse(w.text, "javascript");
  assert.ok(r.ok && !r.hasError);
  if (r.ok) r.release();
});

Deno.test("no window under an enclosing line that may count, in small statements or Go", () => {
  const obj = `const o = {\n${filler("  a: 1,\n")}  b: () => {\n    g();\n  },\n};\n`;
  const at = obj.indexOf("g();");
  assert.equal(windowOf(obj, [at, at + 4], "javascript"), null);
  const cond = `if x:\n${filler("    a = 1\n")}    def f():\n        g()\n`;
  const at2 = cond.indexOf("g()");
  assert.equal(windowOf(cond, [at2, at2 + 3], "python"), null);
  const small = "class A:\n    def f(self):\n        g()\n";
  assert.equal(windowOf(small, [30, 33], "python"), null);
  assert.equal(windowOf(pyClass(""), [100, 101], "go"), null);
});

Deno.test("a guard removed inside a large class is found at its line; an edit elsewhere finds none", () => {
  const guard = "        if not request.user.is_staff:\n            raise PermissionDenied()\n";
  const before = pyClass(guard);
  const after = pyClass("");
  const f = inspectText("app/views.py", before, after);
  const auth = f.find((x) => x.rule === "auth-check-removed");
  assert.ok(auth, JSON.stringify(f));
  const line = before.slice(0, before.indexOf("if not request")).split("\n").length;
  assert.equal(auth.line, line);
  const benign = inspectText(
    "app/views.py",
    pyClass("        z = 3\n"),
    pyClass("        z = 4\n"),
  );
  assert.deepEqual(benign.filter((x) => x.rule === "auth-check-removed"), []);
});

Deno.test("a guard removed inside a large describe is found", () => {
  const suite = (body: string) =>
    `describe("api", () => {\n${filler("  it('x', () => {\n    f();\n  });\n")}` +
    `  it("guards", () => {\n${body}    g();\n  });\n});\n`;
  const guard = "    if (!jwt.verify(token, key)) {\n      throw new UnauthorizedError();\n    }\n";
  const f = inspectText("src/api.js", suite(guard), suite(""));
  assert.ok(f.some((x) => x.rule === "crypto-verification-removed"), JSON.stringify(f));
});

Deno.test("astral characters: an incremental re-parse gives the tree a fresh parse gives", () => {
  const shape = (g: Grammar, text: string) => {
    const r = parse(text, g);
    assert.ok(r.ok);
    const out: string[] = [];
    walk(r.root, (type, node) => {
      const n = node();
      out.push(`${type}:${n.startIndex}:${n.endIndex}:${n.startPosition.row}`);
    });
    r.release();
    return out.join(" ");
  };
  const cases: [Grammar, string, string][] = [
    ["python", "a = '😀'\nb = 1\n", "a = '😁'\nb = 1\nc = '💩'\n"],
    ["javascript", "const a = '😀';\nf(a);\n", "const a = '😀😁';\nf(a, '𝒳');\n"],
  ];
  for (const [g, before, after] of cases) {
    parseShared(before, g);
    const inc = parseShared(after, g, before);
    assert.ok(inc.ok);
    const out: string[] = [];
    walk(inc.root, (type, node) => {
      const n = node();
      out.push(`${type}:${n.startIndex}:${n.endIndex}:${n.startPosition.row}`);
    });
    assert.equal(out.join(" "), shape(g, after));
  }
});
