import assert from "node:assert/strict";
import { closestLine, lineAt, occurrences, planEdit } from "../../src/tools/edit_match.ts";
import { globToRegExp, matchGlob } from "../../src/tools/glob_match.ts";
import { isWithin } from "../../src/core/paths.ts";
import { displayPath, protectedCover, protectedInside } from "../../src/tools/paths.ts";
import { formatSize, guessBinaryType, looksBinary } from "../../src/tools/text.ts";

Deno.test("isWithin is by path component, not by string prefix", () => {
  assert.equal(isWithin("/ws", "/ws"), true);
  assert.equal(isWithin("/ws/a", "/ws"), true);
  assert.equal(isWithin("/ws2/a", "/ws"), false);
  assert.equal(isWithin("/", "/ws"), false);
  assert.equal(isWithin("/etc", "/"), true);
  assert.equal(protectedCover("/s/ledger.db", ["/x", "/s"]), "/s");
  assert.equal(protectedCover("/sx/ledger.db", ["/s"]), null);
  assert.deepEqual(protectedInside("/ws", ["/ws/.retie", "/etc/retie", "/ws"]), [
    "/ws/.retie",
    "/ws",
  ]);
  assert.equal(displayPath("/ws", "/ws/a/b"), "a/b");
  assert.equal(displayPath("/ws", "/wsx/a"), "/wsx/a");
});

Deno.test("globs compile to the expected matches", () => {
  const yes: [string, string][] = [
    ["*.ts", "a.ts"],
    ["src/**/*.ts", "src/a.ts"],
    ["src/**/*.ts", "src/x/y/a.ts"],
    ["**/test_*.py", "test_a.py"],
    ["a?c", "abc"],
    ["[ab]x", "bx"],
    ["[!ab]x", "cx"],
    ["*.{js,ts}", "m.js"],
    ["src/**", "src/a/b"],
    ["a.b", "a.b"],
    ["\\*x", "*x"],
  ];
  const no: [string, string][] = [
    ["*.ts", "a/b.ts"],
    ["src/**/*.ts", "lib/a.ts"],
    ["a?c", "a/c"],
    ["[!ab]x", "ax"],
    ["a.b", "axb"],
    ["*.{js,ts}", "m.py"],
  ];
  for (const [g, p] of yes) assert.equal(globToRegExp(g).test(p), true, `${g} ~ ${p}`);
  for (const [g, p] of no) assert.equal(globToRegExp(g).test(p), false, `${g} !~ ${p}`);
  assert.equal(matchGlob("*.ts")("deep/er/x.ts"), true);
  assert.equal(matchGlob("./src/*.ts")("src/x.ts"), true);
  assert.throws(() => globToRegExp("{a,b"), /unclosed "\{"/);
});

Deno.test("edit planning: exactly one match, else counts, lines and the nearest line", () => {
  assert.deepEqual(occurrences("abab", "ab"), [0, 2]);
  assert.deepEqual(occurrences("aaa", "aa"), [0, 1]);
  assert.equal(lineAt("a\nb\nc", 4), 3);
  const ok = planEdit("x\ny\nz\n", "y", "Y\nY2");
  assert.deepEqual(ok, {
    ok: true,
    after: "x\nY\nY2\nz\n",
    line: 2,
    oldLines: 1,
    newLines: 2,
    crlf: false,
  });
  const many = planEdit("a\na\nb\na\n", "a", "c");
  assert.equal(many.ok, false);
  if (!many.ok) assert.deepEqual([many.matches, many.lines], [3, [1, 2, 4]]);
  const empty = planEdit("a", "", "b");
  assert.equal(empty.ok, false);
  assert.equal(closestLine(["alpha", "beta gamma", ""], "beta gama")?.line, 2);
  assert.equal(closestLine(["zz"], "q"), null);
});

Deno.test("binary sniffing and naming", () => {
  assert.equal(looksBinary(new TextEncoder().encode("plain ascii\n")), false);
  assert.equal(looksBinary(new TextEncoder().encode("ü€😀")), false);
  assert.equal(looksBinary(new TextEncoder().encode("€").subarray(0, 2)), false, "cut at the end");
  assert.equal(looksBinary(new Uint8Array([0x61, 0x00, 0x62])), true);
  assert.equal(looksBinary(new Uint8Array([0xff, 0xfe, 0x41])), true);
  assert.equal(
    guessBinaryType(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2]), "a.out"),
    "ELF executable or library",
  );
  assert.equal(
    guessBinaryType(new TextEncoder().encode("SQLite format 3\0"), "x"),
    "SQLite database",
  );
  assert.equal(guessBinaryType(new Uint8Array([1, 2, 3]), "x.dat"), "binary data (.dat)");
  assert.equal(formatSize(1023), "1023 B");
  assert.equal(formatSize(1536), "1.5 KB");
  assert.equal(formatSize(5 * 1024 * 1024), "5.0 MB");
});
