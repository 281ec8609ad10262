import assert from "node:assert/strict";
import { globTool } from "../../src/tools/glob.ts";
import { grepTool } from "../../src/tools/grep.ts";
import { lsTool } from "../../src/tools/ls.ts";
import { call, fixture, plant } from "./tool_ctx.ts";

function project(ws: string): void {
  plant(ws, {
    ".gitignore": "*.log\nbuild/\n!keep.log\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/config": "[core]\n",
    "README.md": "# demo\nTODO: write docs\n",
    "app.log": "TODO in a log\n",
    "keep.log": "TODO kept\n",
    "build/out.js": "TODO built\n",
    "src/main.ts": "export const a = 1; // TODO main\n",
    "src/util.ts": "export function f() {}\n",
    "src/.gitignore": "generated/\n*.tmp\n!important.tmp\n",
    "src/generated/g.ts": "// TODO generated\n",
    "src/x.tmp": "TODO tmp\n",
    "src/important.tmp": "TODO important\n",
    "src/deep/nested/leaf.ts": "const leaf = 'TODO leaf';\n",
    "bin/blob.bin": new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0x54, 0x4f, 0x44, 0x4f]),
  });
}

Deno.test("ls lists one directory, hiding .git and ignored entries, with kinds marked", async () => {
  const f = fixture();
  try {
    project(f.ws);
    Deno.symlinkSync("src/main.ts", `${f.ws}/main-link.ts`);
    const r = await call(lsTool, f.ctx, {});
    assert.equal(
      r.output,
      [
        ".gitignore",
        "README.md",
        "bin/",
        "keep.log",
        "main-link.ts -> src/main.ts",
        "src/",
        "[2 entries ignored by .gitignore not shown]",
      ].join("\n"),
    );
    const sub = await call(lsTool, f.ctx, { path: "src" });
    assert.deepEqual(sub.output.split("\n"), [
      ".gitignore",
      "deep/",
      "important.tmp",
      "main.ts",
      "util.ts",
      "[2 entries ignored by .gitignore not shown]",
    ]);
    const lim = await call(lsTool, f.ctx, { limit: 2 });
    assert.match(lim.output, /^\.gitignore\nREADME\.md\n\[4 more entries not shown; raise limit/);
    const ignoredDir = await call(lsTool, f.ctx, { path: "build" });
    assert.equal(ignoredDir.output, "out.js", "a directory named explicitly is listed");
    const notDir = await call(lsTool, f.ctx, { path: "README.md" });
    assert.equal(notDir.ok, false);
  } finally {
    f.cleanup();
  }
});

Deno.test("glob matches names at any depth, or paths with a /; respects nested .gitignore", async () => {
  const f = fixture();
  try {
    project(f.ws);
    const ts = await call(globTool, f.ctx, { pattern: "*.ts" });
    assert.deepEqual(ts.output.split("\n"), [
      "src/deep/nested/leaf.ts",
      "src/main.ts",
      "src/util.ts",
    ]);
    const deep = await call(globTool, f.ctx, { pattern: "src/**/*.{ts,tmp}" });
    assert.deepEqual(deep.output.split("\n"), [
      "src/deep/nested/leaf.ts",
      "src/important.tmp",
      "src/main.ts",
      "src/util.ts",
    ]);
    const within = await call(globTool, f.ctx, { pattern: "nested/*.ts", path: "src/deep" });
    assert.equal(within.output, "src/deep/nested/leaf.ts");
    const logs = await call(globTool, f.ctx, { pattern: "*.log" });
    assert.equal(logs.output, "keep.log");
    const none = await call(globTool, f.ctx, { pattern: "*.py" });
    assert.equal(none.output, "no files match *.py");
    const capped = await call(globTool, f.ctx, { pattern: "**", limit: 3 });
    assert.match(
      capped.output,
      /\n\[\d+ more matches not shown; raise limit or narrow the pattern\]$/,
    );
    const bad = await call(globTool, f.ctx, { pattern: "src/[abc" });
    assert.equal(bad.ok, false);
    assert.match(bad.output, /unclosed "\["/);
  } finally {
    f.cleanup();
  }
});

Deno.test("grep prints path:line:text, skips binaries and ignored files, and is bounded", async () => {
  const f = fixture();
  try {
    project(f.ws);
    const r = await call(grepTool, f.ctx, { pattern: "TODO" });
    assert.deepEqual(r.output.split("\n"), [
      "README.md:2:TODO: write docs",
      "keep.log:1:TODO kept",
      "src/deep/nested/leaf.ts:1:const leaf = 'TODO leaf';",
      "src/important.tmp:1:TODO important",
      "src/main.ts:1:export const a = 1; // TODO main",
    ]);
    assert.equal(r.detail?.skippedBinary, 1);
    const ts = await call(grepTool, f.ctx, { pattern: "todo", ignore_case: true, glob: "*.ts" });
    assert.equal(ts.output.split("\n").length, 2);
    const one = await call(grepTool, f.ctx, { pattern: "a = \\d", path: "src/main.ts" });
    assert.equal(one.output, "src/main.ts:1:export const a = 1; // TODO main");
    const lim = await call(grepTool, f.ctx, { pattern: "TODO", limit: 2 });
    assert.match(lim.output, /\n\[stopped at 2 matches; raise limit or narrow the search\]$/);
    const none = await call(grepTool, f.ctx, { pattern: "zzz" });
    assert.equal(none.output, "no matches for /zzz/");
  } finally {
    f.cleanup();
  }
});

Deno.test("grep reports an invalid pattern clearly", async () => {
  const f = fixture();
  try {
    const r = await call(grepTool, f.ctx, { pattern: "foo(" });
    assert.equal(r.ok, false);
    assert.match(r.output, /^error: invalid regular expression \(foo\(\): /);
    assert.match(r.output, /hint: use JavaScript RegExp syntax/);
  } finally {
    f.cleanup();
  }
});

Deno.test("undeclared arguments are dropped; missing or null required ones are rejected", () => {
  const parsed = grepTool.schema.parse({ pattern: "x", rm_rf: true });
  assert.deepEqual(parsed, { pattern: "x" });
  const missing = grepTool.schema.safeParse({});
  assert.equal(missing.success, false);
  assert.deepEqual(missing.error?.issues[0].path, ["pattern"]);
  const nul = lsTool.schema.safeParse({ path: null });
  assert.equal(nul.success, false);
});
