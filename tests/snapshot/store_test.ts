import assert from "node:assert/strict";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { DirSnapshotStore } from "../../src/snapshot/store.ts";
import { runSandboxed } from "../../src/sandbox/run.ts";
import { profileFor } from "../sandbox/fixture.ts";
import { RACY_MARGIN_MS, statMatches } from "../../src/snapshot/tree.ts";

Deno.test("snapshot: racy rule — an index entry not older than the index time is never trusted", () => {
  const e = {
    kind: "f" as const,
    mode: 0o644,
    ref: "h",
    size: 4,
    mtime: 10_000,
    ctime: 10_000,
    ino: 7,
  };
  const seen = { kind: "f" as const, mode: 0o644, size: 4, mtime: 10_000, ctime: 10_000, ino: 7 };
  assert.equal(statMatches(e, seen, 10_000 + RACY_MARGIN_MS + 1001), true);
  assert.equal(
    statMatches(e, seen, 10_000 + RACY_MARGIN_MS + 500),
    false,
    "ctime has 1 s resolution",
  );
  assert.equal(statMatches(e, seen, 10_000), false, "same tick as the index");
  assert.equal(statMatches(e, seen, 10_005), false, "within the coarse-clock margin");
  assert.equal(statMatches({ ...e, ctime: 10_990 }, seen, 11_000), false);
  assert.equal(statMatches(e, { ...seen, ino: 8 }, 20_000), false);
  assert.equal(statMatches(e, { ...seen, mode: 0o755 }, 20_000), false);
  assert.equal(statMatches(e, { ...seen, size: 5 }, 20_000), false);
});

/** Independent tree hash: every path's type, mode, content or link target (never following links). */
function treeHash(root: string, skip: string[] = []): string {
  const lines: string[] = [];
  const walk = (rel: string) => {
    const abs = rel ? join(root, rel) : root;
    const st = Deno.lstatSync(abs);
    const mode = ((st.mode ?? 0) & 0o7777).toString(8);
    if (st.isSymlink) lines.push(`l ${rel} ${Deno.readLinkSync(abs)}`);
    else if (st.isFile) {
      lines.push(
        `f ${rel} ${mode} ${createHash("sha256").update(Deno.readFileSync(abs)).digest("hex")}`,
      );
    } else if (st.isDirectory) {
      lines.push(`d ${rel} ${mode}`);
      for (const e of Deno.readDirSync(abs)) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (!skip.includes(r)) walk(r);
      }
    } else lines.push(`? ${rel}`);
  };
  walk("");
  return createHash("sha256").update(lines.sort().join("\n")).digest("hex");
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

function pick<T>(r: () => number, xs: T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

const NAMES = ["a", "b", "c d", "e.txt", "ünï"];
const DIRS = ["", "d1", "d1/d2", "d3"];

function randomPath(r: () => number): string {
  const d = pick(r, DIRS);
  const n = pick(r, NAMES);
  return d ? `${d}/${n}` : n;
}

function seedTree(root: string, r: () => number): void {
  for (const d of DIRS.slice(1)) Deno.mkdirSync(join(root, d), { recursive: true });
  for (let i = 0; i < 8; i++) {
    const p = join(root, randomPath(r));
    try {
      Deno.writeTextFileSync(p, "x".repeat(Math.floor(r() * 300)) + String(r()));
      Deno.chmodSync(p, pick(r, [0o644, 0o755, 0o600, 0o444]));
    } catch { /* name taken by a dir */ }
  }
  try {
    Deno.symlinkSync(pick(r, ["a", "../d3", "/etc/passwd", "missing"]), join(root, "d1", "ln"));
  } catch { /* exists */ }
  Deno.chmodSync(join(root, "d3"), pick(r, [0o755, 0o555, 0o700]));
}

/** Random file operations as Python (one process per batch instead of one per operation). */
function randomOps(r: () => number, n: number): string {
  const ops: string[] = [];
  const j = JSON.stringify;
  for (let i = 0; i < n; i++) {
    const p = j(randomPath(r));
    const d = j(pick(r, DIRS.slice(1)));
    switch (Math.floor(r() * 10)) {
      case 0:
        ops.push(`open(${p}, "w").write(${j(String(r()))})`);
        break;
      case 1:
        ops.push(`open(${p}, "a").write("more")`);
        break;
      case 2:
        ops.push(`os.remove(${p})`);
        break;
      case 3:
        ops.push(`os.chmod(${p}, 0o${pick(r, ["600", "755", "444", "4755", "700"])})`);
        break;
      case 4:
        ops.push(
          `rm(${p}); os.symlink(${j(pick(r, ["a", "/etc/hostname", "../../x", "d1"]))}, ${p})`,
        );
        break;
      case 5:
        ops.push(
          `os.makedirs(${d} + "/new${i}/deep"); open(${d} + "/new${i}/deep/f", "w").write("n")`,
        );
        break;
      case 6:
        ops.push(`rm(${d})`);
        break;
      case 7:
        ops.push(`os.chmod(${d}, 0o${pick(r, ["555", "700", "750"])})`);
        break;
      case 8:
        ops.push(`rm(${p}); os.mkdir(${p})`);
        break;
      default:
        ops.push(`rm(${d}); open(${d}, "w").write("file")`);
    }
  }
  return ops.map((o) => `try:\n    ${o}\nexcept OSError:\n    pass`).join("\n");
}

const PY_PRELUDE = `import os, shutil
def rm(p):
    if os.path.islink(p) or os.path.isfile(p):
        os.remove(p)
    elif os.path.isdir(p):
        shutil.rmtree(p)
`;

Deno.test("snapshot: property — random operations in the sandbox, then restore (listing or manifest-to-manifest), give the identical tree", async () => {
  // 40 seeds; each seed is its own snapshot root, and one sandbox run per batch of 20 performs
  // every seed's operations (one bwrap start per batch keeps the test fast).
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-snap-" }));
  const store = new DirSnapshotStore(join(base, "state", "snap.db"));
  let changedSeeds = 0;
  try {
    for (let batch = 0; batch < 2; batch++) {
      const parent = join(base, `batch${batch}`);
      Deno.mkdirSync(parent);
      const seeds: { seed: number; ws: string; before: string; id: string; ops: string }[] = [];
      for (let k = 1; k <= 20; k++) {
        const seed = batch * 20 + k;
        const r = rng(seed * 7919);
        const ws = join(parent, `ws${seed}`);
        Deno.mkdirSync(ws);
        seedTree(ws, r);
        const before = treeHash(ws);
        const id = await store.capture(ws, []);
        seeds.push({ seed, ws, before, id, ops: randomOps(r, 12) });
      }
      const py = PY_PRELUDE +
        seeds.map((s) => `os.chdir(${JSON.stringify(s.ws)})\n${s.ops}`).join("\n");
      Deno.writeTextFileSync(join(parent, "ops.py"), py);
      const run = await runSandboxed({
        profile: profileFor(parent),
        command: "python3 ops.py",
        timeoutMs: 30_000,
      });
      assert.equal(run.code, 0, run.stderr);
      for (const { seed, ws, before, id } of seeds) {
        const changed = treeHash(ws) !== before;
        if (changed) changedSeeds++;
        const diff = await store.diff(ws, id);
        assert.equal(diff.length > 0, changed, `seed ${seed}: diff agrees with the tree hash`);
        if (seed % 2 === 0) {
          // The undo path: the tree was captured after the command (the outcome's post-state),
          // found unchanged, and restored from the two manifests without a second listing.
          const after = await store.capture(ws, []);
          assert.deepEqual(await store.diff(ws, after), []);
          await store.restoreFrom(ws, after, id);
        } else await store.restore(ws, id);
        assert.equal(treeHash(ws), before, `seed ${seed}: tree restored exactly`);
        assert.deepEqual(await store.diff(ws, id), [], `seed ${seed}: nothing left to restore`);
        // The next capture of the restored tree is the same snapshot.
        assert.equal(await store.capture(ws, []), id, `seed ${seed}: same manifest id`);
      }
    }
    assert.ok(changedSeeds >= 35, `the operations changed ${changedSeeds}/40 trees`);
  } finally {
    store.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("snapshot: later captures read only what changed", async () => {
  const base = Deno.makeTempDirSync({ prefix: "retie-snap-" });
  const ws = join(base, "ws");
  Deno.mkdirSync(join(ws, "src"), { recursive: true });
  for (let i = 0; i < 200; i++) {
    Deno.writeTextFileSync(join(ws, "src", `f${i}.ts`), `export const x${i} = ${i};\n`);
  }
  const store = new DirSnapshotStore(join(base, "snap.db"));
  try {
    await store.capture(ws, []);
    assert.equal(store.lastCapture.hashed, 200);
    // Past the racy window (margin + 1 s for Deno's whole-second ctime), an unchanged tree costs
    // only the walk.
    await new Promise((r) => setTimeout(r, 1100));
    await store.capture(ws, []);
    await store.capture(ws, []);
    assert.equal(store.lastCapture.hashed, 0);
    assert.equal(store.lastCapture.walked, 202);
    Deno.writeTextFileSync(join(ws, "src", "f7.ts"), "changed\n");
    Deno.writeTextFileSync(join(ws, "src", "new.ts"), "new\n");
    await store.capture(ws, []);
    assert.equal(store.lastCapture.hashed, 2);
  } finally {
    store.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("snapshot: racy git — a same-size rewrite in the same clock tick is still seen", async () => {
  const base = Deno.makeTempDirSync({ prefix: "retie-snap-" });
  const ws = join(base, "ws");
  Deno.mkdirSync(ws);
  const f = join(ws, "f");
  const store = new DirSnapshotStore(join(base, "snap.db"));
  try {
    for (let i = 0; i < 20; i++) {
      Deno.writeTextFileSync(f, "aaaa");
      const id = await store.capture(ws, []);
      Deno.writeTextFileSync(f, "bbbb");
      const id2 = await store.capture(ws, []);
      assert.notEqual(id2, id, `round ${i}`);
      await store.restore(ws, id);
      assert.equal(Deno.readTextFileSync(f), "aaaa");
    }
  } finally {
    store.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("snapshot: restore never writes through a symlink planted by the command", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-snap-" }));
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  Deno.mkdirSync(join(ws, "d"), { recursive: true });
  Deno.mkdirSync(outside);
  Deno.writeTextFileSync(join(ws, "a"), "original a");
  Deno.writeTextFileSync(join(ws, "d", "inner"), "original inner");
  Deno.writeTextFileSync(join(outside, "target"), "outside");
  const store = new DirSnapshotStore(join(base, "snap.db"));
  try {
    const id = await store.capture(ws, []);
    // Simulate what a command could leave (from the host: the sandbox cannot see `outside`).
    Deno.removeSync(join(ws, "a"));
    Deno.symlinkSync(join(outside, "target"), join(ws, "a"));
    Deno.removeSync(join(ws, "d"), { recursive: true });
    Deno.symlinkSync(outside, join(ws, "d"));
    await store.restore(ws, id);
    assert.equal(Deno.readTextFileSync(join(outside, "target")), "outside");
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["target"]);
    assert.ok(Deno.lstatSync(join(ws, "a")).isFile);
    assert.equal(Deno.readTextFileSync(join(ws, "a")), "original a");
    assert.ok(Deno.lstatSync(join(ws, "d")).isDirectory);
    assert.equal(Deno.readTextFileSync(join(ws, "d", "inner")), "original inner");
  } finally {
    store.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("snapshot: excluded paths are neither captured nor restored; a missing blob fails verify, a corrupted one stops the restore before any change", async () => {
  const base = Deno.makeTempDirSync({ prefix: "retie-snap-" });
  const ws = join(base, "ws");
  Deno.mkdirSync(join(ws, "node_modules", "pkg"), { recursive: true });
  Deno.writeTextFileSync(join(ws, "node_modules", "pkg", "i.js"), "dep");
  Deno.writeTextFileSync(join(ws, "main.ts"), "main");
  Deno.writeTextFileSync(join(ws, "util.ts"), "util");
  const db = join(base, "snap.db");
  const store = new DirSnapshotStore(db);
  try {
    const id = await store.capture(ws, ["./node_modules/"]);
    assert.equal(store.lastCapture.walked, 3); // ".", main.ts and util.ts
    Deno.writeTextFileSync(join(ws, "node_modules", "pkg", "i.js"), "changed dep");
    assert.deepEqual(await store.diff(ws, id), []);
    assert.equal(await store.verify(id), true);
    assert.equal(await store.verify("0".repeat(64)), false);
    const sha = (s: string) => createHash("sha256").update(s).digest("hex");
    const raw = new DatabaseSync(db);
    raw.prepare("UPDATE blobs SET data = ? WHERE hash = ?").run(
      new TextEncoder().encode("evil"),
      sha("main"),
    );
    raw.prepare("DELETE FROM blobs WHERE hash = ?").run(sha("util"));
    raw.close();
    // A fresh store (another process) looks every blob up once: the deleted one is missing.
    const other = new DirSnapshotStore(db);
    try {
      assert.equal(await other.verify(id), false);
    } finally {
      other.close();
    }
    // The corrupted blob is found when the restore reads it, before the tree is touched.
    Deno.writeTextFileSync(join(ws, "main.ts"), "edited");
    Deno.writeTextFileSync(join(ws, "new.ts"), "new");
    await assert.rejects(store.restore(ws, id), /corrupted/);
    assert.equal(Deno.readTextFileSync(join(ws, "main.ts")), "edited");
    assert.equal(Deno.readTextFileSync(join(ws, "new.ts")), "new");
    await assert.rejects(store.capture(ws, ["../x"]), /must be a relative path/);
  } finally {
    store.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("snapshot: the store refuses to live inside the tree it captures", async () => {
  const ws = Deno.makeTempDirSync({ prefix: "retie-snap-" });
  const store = new DirSnapshotStore(join(ws, ".state", "snap.db"));
  try {
    await assert.rejects(store.capture(ws, []), /lies inside the workspace/);
  } finally {
    store.close();
    Deno.removeSync(ws, { recursive: true });
  }
});
