/**
 * Parent-swap races, as properties: for random trees, a random directory on the way to the paths a
 * restore must write is swapped for a symlink to a directory outside (after the snapshot was
 * listed, before the restore). Whether the restore goes through the listing or from the
 * manifests, nothing outside changes, and a refused restore says which path is a symlink. The same
 * for the primitives the files undo uses.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { trustRealPath } from "../../src/core/paths.ts";
import { DirSnapshotStore } from "../../src/snapshot/mod.ts";
import {
  checkDirChain,
  ConfinementError,
  removeNoFollow,
  writeFileNoFollow,
} from "../../src/core/nofollow.ts";

function treeHash(root: string): string {
  const h = createHash("sha256");
  const walk = (dir: string, rel: string) => {
    for (const name of [...Deno.readDirSync(dir)].map((e) => e.name).sort()) {
      const p = join(dir, name);
      const st = Deno.lstatSync(p);
      h.update(`${rel}/${name}\0${st.mode}\0`);
      if (st.isSymlink) h.update(Deno.readLinkSync(p));
      else if (st.isDirectory) walk(p, `${rel}/${name}`);
      else h.update(Deno.readFileSync(p));
    }
  };
  walk(root, "");
  return h.digest("hex");
}

/** A small seeded generator, so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function randomTree(ws: string, r: () => number): string[] {
  const dirs = ["a", "a/b", "a/b/c", "d", "d/e"];
  for (const d of dirs) Deno.mkdirSync(join(ws, d), { recursive: true });
  const files: string[] = [];
  for (const d of dirs) {
    for (let i = 0; i < 1 + Math.floor(r() * 3); i++) {
      const f = `${d}/f${i}.txt`;
      Deno.writeTextFileSync(join(ws, f), `content ${f} ${r()}\n`);
      files.push(f);
    }
  }
  return dirs;
}

for (const via of ["listing", "manifests"] as const) {
  Deno.test(`restore (${via}): a parent swapped for a symlink is never followed (40 random trees)`, async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-swap-" }));
      try {
        const ws = join(base, "ws");
        const outside = join(base, "outside");
        Deno.mkdirSync(ws);
        Deno.mkdirSync(outside);
        const dirs = randomTree(ws, r);
        // The outside holds the same names, so a followed link would land on them.
        for (const d of dirs) Deno.mkdirSync(join(outside, d), { recursive: true });
        for (const d of dirs) Deno.writeTextFileSync(join(outside, d, "f0.txt"), "OUTSIDE\n");
        const store = new DirSnapshotStore(join(base, "snap.db"));
        try {
          const before = await store.capture(ws, []);
          // The action: change files under every directory.
          for (const d of dirs) Deno.writeTextFileSync(join(ws, d, "f0.txt"), "changed\n");
          Deno.writeTextFileSync(join(ws, dirs[Math.floor(r() * dirs.length)], "new.txt"), "n");
          const after = await store.capture(ws, [], { full: true });
          // The swap, after the listing: a random directory becomes a link to its outside twin.
          const victim = dirs[Math.floor(r() * dirs.length)];
          Deno.renameSync(join(ws, victim), join(base, "moved"));
          Deno.symlinkSync(join(outside, victim), join(ws, victim));
          const outsideBefore = treeHash(outside);
          let refused: unknown = null;
          try {
            if (via === "listing") await store.restore(ws, before);
            else await store.restoreFrom!(ws, after, before);
          } catch (e) {
            refused = e;
          }
          assert.equal(treeHash(outside), outsideBefore, `seed ${seed}: outside changed`);
          if (via === "manifests") {
            // The manifests say a directory is there: the link is found and the restore refused.
            assert.ok(refused instanceof ConfinementError, `seed ${seed}: ${refused}`);
            assert.match((refused as Error).message, /symlink/);
          } else if (refused === null) {
            // A fresh listing sees the link and replaces it by the directory, as it was.
            assert.ok(Deno.lstatSync(join(ws, victim)).isDirectory, `seed ${seed}`);
          }
        } finally {
          store.close();
        }
      } finally {
        Deno.removeSync(base, { recursive: true });
      }
    }
  });
}

Deno.test("restore: a root that now resolves elsewhere is refused, nothing restored", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-swap-" }));
  try {
    const ws = join(base, "ws");
    Deno.mkdirSync(ws);
    Deno.writeTextFileSync(join(ws, "a"), "a\n");
    const store = new DirSnapshotStore(join(base, "snap.db"));
    try {
      const id = await store.capture(ws, []);
      Deno.renameSync(ws, join(base, "moved"));
      Deno.mkdirSync(join(base, "elsewhere"));
      Deno.symlinkSync(join(base, "elsewhere"), ws);
      await assert.rejects(store.restore(ws, id), /reached through a symlink/);
      assert.deepEqual([...Deno.readDirSync(join(base, "elsewhere"))], []);
    } finally {
      store.close();
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("no-follow primitives: every depth of swapped parent is refused with its name", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-swap-" }));
  try {
    const ws = trustRealPath(join(base, "ws"));
    const outside = join(base, "outside");
    Deno.mkdirSync(join(ws, "p/q/r"), { recursive: true });
    Deno.mkdirSync(join(outside, "q/r"), { recursive: true });
    Deno.writeTextFileSync(join(outside, "q/r/f"), "OUTSIDE\n");
    Deno.writeTextFileSync(join(outside, "f"), "OUTSIDE\n");
    for (const depth of ["p", "p/q", "p/q/r"]) {
      Deno.removeSync(join(ws, "p"), { recursive: true });
      Deno.mkdirSync(join(ws, "p/q/r"), { recursive: true });
      Deno.removeSync(join(ws, depth), { recursive: true });
      Deno.symlinkSync(outside, join(ws, depth));
      const before = treeHash(outside);
      const target = join(ws, "p/q/r/f");
      assert.throws(
        () => writeFileNoFollow(ws, target, new TextEncoder().encode("x"), 0o644, true),
        (e: unknown) => e instanceof ConfinementError && e.message.includes(join(ws, depth)),
      );
      assert.throws(() => removeNoFollow(ws, target), ConfinementError);
      assert.throws(() => checkDirChain(ws, join(ws, "p/q/r")), ConfinementError);
      assert.equal(treeHash(outside), before, depth);
    }
    // Outside the root, or with "..": refused whatever is on disk.
    assert.throws(() => checkDirChain(ws, outside), /outside/);
    assert.throws(() => checkDirChain(ws, `${ws}/p/../../outside`), ConfinementError);
    // A symlink at the file itself is replaced, not followed.
    Deno.removeSync(join(ws, "p"), { recursive: true });
    Deno.mkdirSync(join(ws, "p"));
    Deno.symlinkSync(join(outside, "f"), join(ws, "p/f"));
    writeFileNoFollow(ws, join(ws, "p/f"), new TextEncoder().encode("inside\n"), 0o644);
    assert.equal(Deno.readTextFileSync(join(outside, "f")), "OUTSIDE\n");
    assert.equal(Deno.readTextFileSync(join(ws, "p/f")), "inside\n");
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
