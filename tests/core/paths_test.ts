import assert from "node:assert/strict";
import { join } from "node:path";
import {
  isBelow,
  isWithin,
  overlaps,
  realPathOrNull,
  toRealPath,
  trustRealPath,
} from "../../src/core/paths.ts";

Deno.test("isWithin(child, root) is by path component, root last", () => {
  const cases: [string, string, boolean][] = [
    ["/ws", "/ws", true],
    ["/ws/a/b", "/ws", true],
    ["/ws2/a", "/ws", false],
    ["/ws", "/ws/a", false],
    ["/", "/ws", false],
    ["/etc", "/", true],
    ["/", "/", true],
    ["/ws/a", "/ws/", true],
    ["node_modules/x", "node_modules", true],
    ["node_modules2", "node_modules", false],
  ];
  for (const [child, root, want] of cases) {
    assert.equal(isWithin(child, root), want, `isWithin(${child}, ${root})`);
  }
  assert.equal(isBelow("/ws/a", "/ws"), true);
  assert.equal(isBelow("/ws", "/ws"), false);
  assert.equal(isBelow("/wsa", "/ws"), false);
});

Deno.test("overlaps is symmetric and ignores trailing slashes", () => {
  const cases: [string, string, boolean][] = [
    ["/ws", "/ws/", true],
    ["/ws/a", "/ws", true],
    ["/etc", "/", true],
    ["/ws", "/ws2", false],
    ["/a/b", "/a/c", false],
  ];
  for (const [a, b, want] of cases) {
    assert.equal(overlaps(a, b), want, `overlaps(${a}, ${b})`);
    assert.equal(overlaps(b, a), want, `overlaps(${b}, ${a})`);
  }
});

Deno.test("toRealPath resolves symlinks and names a missing path with a fix", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(join(dir, "real"));
    Deno.symlinkSync(join(dir, "real"), join(dir, "link"));
    assert.equal(toRealPath(join(dir, "link")), join(dir, "real"));
    assert.equal(realPathOrNull(join(dir, "link", "..", "real")), join(dir, "real"));
    assert.equal(realPathOrNull(join(dir, "missing")), null);
    assert.throws(
      () => toRealPath(join(dir, "missing")),
      (e: unknown) =>
        e instanceof Error && e.message.includes(join(dir, "missing")) &&
        (e as { hint?: string }).hint === "name a file or directory that exists",
    );
    assert.equal(trustRealPath(dir), dir);
    assert.throws(() => trustRealPath("relative/dir"), /not an absolute path \(relative\/dir\)/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
