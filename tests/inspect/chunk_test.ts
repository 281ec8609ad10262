import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { changedStatements, splitTopLevel } from "../../src/inspect/chunk.ts";
import { loadParsers, parse } from "../../src/inspect/parser.ts";

const texts = (t: string, lang: "python" | "js" | "go" | "") =>
  splitTopLevel(t, lang).map((s) => s.text);

Deno.test("python: except/elif/else/finally at column zero continue the statement", () => {
  const t = "try:\n    f()\nexcept E:\n    g()\nelse:\n    h()\nfinally:\n    i()\n" +
    "if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\nz = 1\n";
  assertEquals(texts(t, "python"), [
    "try:\n    f()\nexcept E:\n    g()\nelse:\n    h()\nfinally:\n    i()\n",
    "if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\n",
    "z = 1\n",
  ]);
  // Without a language the old column-zero rule applies.
  assertEquals(texts(t, "").length, 8);
});

Deno.test("python: lines of a triple-quoted string at column zero stay in it", () => {
  const t = '"""Module.\n\nUsage at column zero\n"""\nimport os\n\ndef f():\n    s = """\n' +
    "x = 1\ndef g():\n'''\n" + '"""\n    return s\n' + "y = '''a\nb'''\n";
  assertEquals(texts(t, "python"), [
    '"""Module.\n\nUsage at column zero\n"""\n',
    "import os\n\n",
    'def f():\n    s = """\nx = 1\ndef g():\n\'\'\'\n"""\n    return s\n',
    "y = '''a\nb'''\n",
  ]);
});

Deno.test("python: brackets, backslashes and multi-line decorators", () => {
  const t =
    "x = foo(\n1,\n2)\nassert a, \\\nb\n@app.route(\n    '/x',\n)\n# note\ndef f():\n    pass\n";
  assertEquals(texts(t, "python"), [
    "x = foo(\n1,\n2)\n",
    "assert a, \\\nb\n",
    "@app.route(\n    '/x',\n)\n# note\ndef f():\n    pass\n",
  ]);
});

Deno.test("js/ts: template literals, block comments, regular expressions, chains", () => {
  const t = "const a = `\nline\n${b ? `x\ny` : 'z'}\nend`;\nfunction f() {\n}\n" +
    "/* block\ncomment */\nfunction g() {}\nconst re = /[`(]/;\nconst n = 1;\n" +
    "@Component({\n  a: 1,\n})\nexport class A {}\npromise\n.then(x)\n";
  assertEquals(texts(t, "js"), [
    "const a = `\nline\n${b ? `x\ny` : 'z'}\nend`;\n",
    "function f() {\n}\n",
    "/* block\ncomment */\nfunction g() {}\n",
    "const re = /[`(]/;\n",
    "const n = 1;\n",
    "@Component({\n  a: 1,\n})\nexport class A {}\n",
    "promise\n.then(x)\n",
  ]);
  // a division is not a regular expression: the backtick after it opens a template
  assertEquals(texts("const q = a / b;\nconst s = `\nx`;\nz\n", "js").length, 3);
});

Deno.test("go: raw strings and block comments at column zero", () => {
  const t = "package x\n\nvar s = `\nraw\n`\n/*\nblock\n*/\nfunc f() {\n}\n";
  assertEquals(texts(t, "go"), [
    "package x\n\n",
    "var s = `\nraw\n`\n",
    "/*\nblock\n*/\nfunc f() {\n}\n",
  ]);
});

Deno.test("split pieces of real-looking Python parse without errors", async () => {
  await loadParsers();
  const before = "def login(request):\n    try:\n        u = auth(request)\n" +
    "    except Error:\n        raise\n\ntry:\n    import fast\nexcept ImportError:\n    fast = None\n" +
    'HELP = """\nUsage:\n  run it\n"""\n';
  const after = before.replace("fast = None", "fast = False");
  const d = changedStatements(before, after, "python");
  assertEquals(d.after.length, 1);
  const r = parse(d.after[0].text, "python");
  if (!r.ok) throw new Error(r.reason);
  assertEquals(r.hasError, false);
  r.release();
});
