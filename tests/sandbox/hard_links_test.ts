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

Deno.test("outsideLinks: a directory needing many mounts with few plain files is one mount", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    const ws = join(base, "ws");
    const out = join(base, "store");
    Deno.mkdirSync(out);
    // pnpm: node_modules/.modules.yaml and .pnpm/lock.yaml are plain; each package is links.
    Deno.mkdirSync(join(ws, "node_modules", ".pnpm"), { recursive: true });
    Deno.writeTextFileSync(join(ws, "node_modules", ".modules.yaml"), "m");
    Deno.writeTextFileSync(join(ws, "node_modules", ".pnpm", "lock.yaml"), "l");
    for (let i = 0; i < 40; i++) {
      const d = join(ws, "node_modules", ".pnpm", `p${i}`, "node_modules", `p${i}`);
      Deno.mkdirSync(d, { recursive: true });
      Deno.writeTextFileSync(join(out, `f${i}`), String(i));
      Deno.linkSync(join(out, `f${i}`), join(d, "index.js"));
    }
    Deno.writeTextFileSync(join(ws, "main.js"), "m");
    const r = outsideLinks(ws, []);
    // .pnpm needs 40 mounts and holds one plain file (lock.yaml): one mount, lock.yaml read-only.
    assert.deepEqual(r.mounts, [join(ws, "node_modules", ".pnpm")]);
    assert.equal(r.plainPinned, 1);
    assert.equal(r.paths.length, 40);
    // Few links among many plain files: each link on its own, no plain file pinned.
    const src = join(ws, "src");
    Deno.mkdirSync(src);
    for (let i = 0; i < 20; i++) Deno.writeTextFileSync(join(src, `s${i}.js`), "s");
    Deno.linkSync(join(out, "f0"), join(src, "shared.js"));
    Deno.linkSync(join(out, "f1"), join(src, "shared1.js"));
    const r2 = outsideLinks(ws, []);
    assert.deepEqual(r2.mounts, [
      join(ws, "node_modules", ".pnpm"),
      join(src, "shared.js"),
      join(src, "shared1.js"),
    ]);
    assert.equal(r2.plainPinned, 1);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
