import assert from "node:assert/strict";
import { join } from "node:path";
import { outsideLinks } from "../../src/sandbox/hard_links.ts";

Deno.test("outsideLinks: names files linked outside the workspace, not those linked only inside", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    const ws = join(base, "ws");
    const out = join(base, "store");
    Deno.mkdirSync(join(ws, "a", "b"), { recursive: true });
    Deno.mkdirSync(join(ws, "ro"), { recursive: true });
    Deno.mkdirSync(out);
    Deno.writeTextFileSync(join(out, "x"), "x");
    Deno.linkSync(join(out, "x"), join(ws, "a", "b", "x"));
    Deno.linkSync(join(out, "x"), join(ws, "x2")); // two names inside, one outside
    Deno.writeTextFileSync(join(ws, "in"), "in");
    Deno.linkSync(join(ws, "in"), join(ws, "a", "in2")); // both names inside
    Deno.writeTextFileSync(join(out, "y"), "y");
    Deno.linkSync(join(out, "y"), join(ws, "ro", "y")); // under a skipped path
    Deno.symlinkSync(join(out, "x"), join(ws, "link")); // a symlink is not followed
    Deno.writeTextFileSync(join(ws, "plain"), "p");
    const r = outsideLinks(ws, [join(ws, "ro")]);
    assert.deepEqual(r.paths, [join(ws, "a", "b", "x"), join(ws, "x2")]);
    assert.ok(r.walked >= 6);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
