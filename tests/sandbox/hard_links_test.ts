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
    // a/b holds only an outside link: one mount; a holds a plain file, and x2 sits beside others.
    assert.deepEqual(r.mounts, [join(ws, "a", "b"), join(ws, "x2")]);
    assert.ok(r.walked >= 6);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("outsideLinks: a pnpm tree of links is one mount, a mixed directory one per file", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    const ws = join(base, "ws");
    const out = join(base, "store");
    Deno.mkdirSync(out);
    for (let i = 0; i < 50; i++) {
      const d = join(ws, "node_modules", ".pnpm", `p${i % 7}`, "node_modules", `p${i % 7}`);
      Deno.mkdirSync(d, { recursive: true });
      Deno.writeTextFileSync(join(out, `f${i}`), String(i));
      Deno.linkSync(join(out, `f${i}`), join(d, `f${i}.js`));
    }
    Deno.symlinkSync(".pnpm/p0/node_modules/p0", join(ws, "node_modules", "p0"));
    Deno.mkdirSync(join(ws, "src"));
    Deno.writeTextFileSync(join(out, "shared"), "s");
    Deno.linkSync(join(out, "shared"), join(ws, "src", "shared.js"));
    Deno.writeTextFileSync(join(ws, "src", "main.js"), "m");
    const r = outsideLinks(ws, []);
    assert.equal(r.paths.length, 51);
    assert.deepEqual(r.mounts, [join(ws, "node_modules"), join(ws, "src", "shared.js")]);
    // A plain file in a package directory splits the mount below it.
    Deno.writeTextFileSync(join(ws, "node_modules", ".pnpm", "p3", "node_modules", "p3", "x"), "");
    const r2 = outsideLinks(ws, []);
    assert.ok(r2.mounts.includes(join(ws, "node_modules", ".pnpm", "p0")));
    assert.ok(!r2.mounts.includes(join(ws, "node_modules", ".pnpm", "p3")));
    assert.equal(r2.mounts.filter((m) => m.includes("/p3/")).length, 7); // its linked files
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
