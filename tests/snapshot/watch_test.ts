/**
 * Captures that look only at what changed (the store's inotify watcher) must give exactly the
 * snapshot a walk of the whole tree gives, and must walk whenever the watcher cannot vouch.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DirSnapshotStore } from "../../src/snapshot/store.ts";
import { coversTree, withinWatchBudget } from "../../src/snapshot/watch_coverage.ts";
import { MAX_EVENTS, TreeWatcher } from "../../src/snapshot/tree_watcher.ts";
import { runSandboxed } from "../../src/sandbox/run.ts";
import type { IndexEntry } from "../../src/snapshot/tree.ts";
import { profileFor } from "../sandbox/fixture.ts";

interface Pair {
  base: string;
  ws: string;
  watched: DirSnapshotStore;
  walked: DirSnapshotStore;
}

function setup(): Pair {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-watch-" }));
  const ws = join(base, "ws");
  Deno.mkdirSync(join(ws, "src", "lib"), { recursive: true });
  for (let i = 0; i < 30; i++) {
    Deno.writeTextFileSync(join(ws, "src", `f${i}.ts`), `export const x = ${i};\n`);
  }
  Deno.writeTextFileSync(join(ws, "src", "lib", "a.ts"), "a");
  return {
    base,
    ws,
    watched: new DirSnapshotStore(join(base, "watched.db"), { watch: true }),
    walked: new DirSnapshotStore(join(base, "walked.db")),
  };
}

function teardown(p: Pair): void {
  p.watched.close();
  p.walked.close();
  Deno.removeSync(p.base, { recursive: true });
}

/** Captures with both stores; the ids must agree. Returns how the watched store found changes. */
async function both(p: Pair, opts: { full?: boolean } = {}): Promise<string> {
  const a = await p.watched.capture(p.ws, [".git/hooks"], opts);
  const b = await p.walked.capture(p.ws, [".git/hooks"]);
  assert.equal(a, b, `watched capture differs from a walk (${p.watched.lastCapture.mode})`);
  return p.watched.lastCapture.mode!;
}

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/** A directory and a file index entry with the given inode, for the pure checks. */
const dirEntry = (ino: number): IndexEntry => ({
  kind: "d",
  mode: 0o755,
  ref: "",
  size: 0,
  mtime: 0,
  ctime: 0,
  ino,
});
const fileEntry = (ino: number): IndexEntry => ({
  ...dirEntry(ino),
  kind: "f",
  mode: 0o644,
  ref: "h",
  size: 1,
});

Deno.test("snapshot watch: captures from reported changes equal walks over random host edits", async () => {
  const p = setup();
  try {
    assert.equal(await both(p), "walk"); // no index yet: nothing to watch from
    assert.equal(await both(p), "walk"); // the watcher starts before this walk
    const r = rng(7);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
    let changes = 0;
    for (let round = 0; round < 40; round++) {
      const n = round;
      const f = join(p.ws, "src", `f${Math.floor(r() * 30)}.ts`);
      const op = pick([
        "write",
        "append",
        "chmod",
        "newdir",
        "rmfile",
        "mvfile",
        "symlink",
        "hardlink",
        "dirmode",
        "emptyfile",
        "nested-new",
      ]);
      try {
        switch (op) {
          case "write":
            Deno.writeTextFileSync(f, `round ${n}\n`);
            break;
          case "append":
            Deno.writeTextFileSync(f, `more ${n}\n`, { append: true });
            break;
          case "chmod":
            Deno.chmodSync(f, r() < 0.5 ? 0o600 : 0o755);
            break;
          case "newdir":
            Deno.mkdirSync(join(p.ws, `d${n}`, "x", "y"), { recursive: true });
            Deno.writeTextFileSync(join(p.ws, `d${n}`, "x", "y", "deep.txt"), "deep");
            Deno.writeTextFileSync(join(p.ws, `d${n}`, "top.txt"), "top");
            break;
          case "rmfile":
            Deno.removeSync(f);
            break;
          case "mvfile":
            Deno.renameSync(f, join(p.ws, "src", "lib", `moved${n}.ts`));
            break;
          case "symlink":
            Deno.symlinkSync(`../src/f${n % 30}.ts`, join(p.ws, "src", `ln${n}`));
            break;
          case "hardlink": {
            // A second name of a file, then a write through it: both names changed.
            const other = join(p.ws, `hl${n}`);
            Deno.linkSync(join(p.ws, "src", "lib", "a.ts"), other);
            Deno.writeTextFileSync(other, `through the link ${n}`);
            break;
          }
          case "dirmode":
            Deno.chmodSync(join(p.ws, "src", "lib"), r() < 0.5 ? 0o700 : 0o755);
            break;
          case "emptyfile":
            Deno.writeFileSync(join(p.ws, `empty${n}`), new Uint8Array());
            break;
          case "nested-new": {
            // Created, written and renamed within a new directory before any capture.
            const d = join(p.ws, `n${n}`);
            Deno.mkdirSync(d);
            Deno.writeTextFileSync(join(d, "tmp"), "t");
            Deno.renameSync(join(d, "tmp"), join(d, "final"));
            break;
          }
        }
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
      if ((await both(p)) === "changes") changes++;
    }
    assert.ok(changes >= 35, `only ${changes} of 40 captures used the reported changes`);
  } finally {
    teardown(p);
  }
});

Deno.test("snapshot watch: a moved or removed directory, full captures and many changes make it walk", async () => {
  const p = setup();
  try {
    await both(p);
    await both(p);
    Deno.renameSync(join(p.ws, "src", "lib"), join(p.ws, "lib2"));
    assert.equal(await both(p), "walk");
    assert.match(p.watched.lastFallback, /moved or vanished/);
    // After a walk the watcher vouches again.
    Deno.writeTextFileSync(join(p.ws, "lib2", "a.ts"), "edited in the moved directory");
    assert.equal(await both(p), "walk", "a moved directory drops the watcher");
    Deno.writeTextFileSync(join(p.ws, "lib2", "a.ts"), "edited again");
    assert.equal(await both(p), "changes");
    Deno.removeSync(join(p.ws, "lib2"), { recursive: true });
    assert.equal(await both(p), "walk");
    assert.equal(await both(p, { full: true }), "walk");
    assert.equal(p.watched.lastFallback, "");
    // More events than MAX_EVENTS since the last capture: the kernel queue may have overflowed.
    const many = Math.ceil(MAX_EVENTS / 2) + 10; // create + write (+ close) per file
    const r = await runSandboxed({
      profile: profileFor(p.ws),
      command: `mkdir -p bulk && cd bulk && for i in $(seq ${many}); do echo x > f$i; done`,
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await both(p), "walk");
    assert.match(p.watched.lastFallback, /changes|dropped/);
  } finally {
    teardown(p);
  }
});

Deno.test("snapshot watch: events the watcher dropped (its queue overflowed) make it walk", async () => {
  const p = setup();
  try {
    await both(p);
    await both(p);
    // Written from this thread, so the consumer cannot keep up: Deno's queue of 1024 overflows.
    Deno.mkdirSync(join(p.ws, "burst"));
    for (let i = 0; i < 1500; i++) Deno.writeTextFileSync(join(p.ws, "burst", `b${i}`), "b");
    assert.equal(await both(p), "walk");
    // Usually Deno's queue overflows; when its dispatch lags behind the burst instead, the count
    // alone (4,500 events) makes it walk.
    assert.match(p.watched.lastFallback, /dropped events|more than \d+ changes/);
    // That walk started a fresh watcher first. Under load it may still be handed the tail of the
    // burst and overflow too (then it walks again, correctly); it soon vouches again.
    let mode = "";
    for (let i = 0; i < 5 && mode !== "changes"; i++) {
      Deno.writeTextFileSync(join(p.ws, "burst", "b1"), `after ${i}`);
      mode = await both(p);
    }
    assert.equal(mode, "changes");
  } finally {
    teardown(p);
  }
});

Deno.test("snapshot watch: a tree holding a symlink to a directory is always walked", async () => {
  const p = setup();
  try {
    Deno.symlinkSync("src/lib", join(p.ws, "lib-link"));
    for (let i = 0; i < 3; i++) {
      Deno.writeTextFileSync(join(p.ws, "src", "lib", "a.ts"), `v${i}`);
      assert.equal(await both(p), "walk");
    }
    Deno.removeSync(join(p.ws, "lib-link"));
    await both(p);
    await both(p);
    Deno.writeTextFileSync(join(p.ws, "src", "lib", "a.ts"), "v4");
    assert.equal(await both(p), "changes");
    // A new directory that holds one: this capture walks, and the watcher is dropped.
    Deno.mkdirSync(join(p.ws, "pkg"));
    Deno.symlinkSync("../src", join(p.ws, "pkg", "src-link"));
    assert.equal(await both(p), "walk");
    assert.match(p.watched.lastFallback, /symlink to a directory/);
    Deno.writeTextFileSync(join(p.ws, "src", "lib", "a.ts"), "v5");
    assert.equal(await both(p), "walk");
  } finally {
    teardown(p);
  }
});

Deno.test("snapshot watch: after a sandboxed command the capture walks; host edits after it are reported", async () => {
  const p = setup();
  try {
    await both(p);
    await both(p);
    const r = await runSandboxed({
      profile: profileFor(p.ws),
      // The pause lets the watcher add its watch on `made` before `deeper` appears in it, so
      // both directories are announced by an event.
      command: "mkdir made && sleep 0.3 && mkdir made/deeper && echo new > made/deeper/n.txt && " +
        "echo changed > src/f1.ts && rm src/f2.ts",
      timeoutMs: 30_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await both(p, { full: true }), "walk");
    // Every directory the command made was announced: the watcher is kept and covers them.
    Deno.writeTextFileSync(join(p.ws, "made", "deeper", "n.txt"), "edited by the person");
    assert.equal(await both(p), "changes");
    // diff through the watcher: a capture compared with the snapshot.
    const id = await p.watched.capture(p.ws, [".git/hooks"]);
    Deno.writeTextFileSync(join(p.ws, "src", "f3.ts"), "edited");
    Deno.writeTextFileSync(join(p.ws, "src", "extra.ts"), "new");
    assert.deepEqual(await p.watched.diff(p.ws, id), [
      { path: "src/extra.ts", change: "added" },
      { path: "src/f3.ts", change: "modified" },
    ]);
    assert.equal(p.watched.lastCapture.mode, "changes");
    assert.deepEqual(await p.walked.diff(p.ws, id), await p.watched.diff(p.ws, id));
  } finally {
    teardown(p);
  }
});

Deno.test("snapshot watch: after a walk the watcher is kept only if every new directory was announced and none moved", () => {
  const prev = {
    entries: new Map([[".", dirEntry(1)], ["a", dirEntry(2)], ["a/x", fileEntry(3)], [
      "b",
      dirEntry(4),
    ]]),
  };
  const same = { entries: new Map(prev.entries) };
  assert.equal(coversTree("/w", prev, same, new Set()), true);
  const withNew = {
    entries: new Map([...prev.entries, ["c", dirEntry(5)], ["c/y", fileEntry(6)]]),
  };
  assert.equal(
    coversTree("/w", prev, withNew, new Set()),
    false,
    "a new directory nobody announced",
  );
  assert.equal(coversTree("/w", prev, withNew, new Set(["/w/c"])), true);
  // b removed and made again (another inode): announced or not.
  const remade = { entries: new Map([...prev.entries, ["b", dirEntry(9)]]) };
  assert.equal(coversTree("/w", prev, remade, new Set()), false);
  assert.equal(coversTree("/w", prev, remade, new Set(["/w/b"])), true);
  // a moved to z (same inode): later events inside would carry the old path.
  const moved = {
    entries: new Map(
      [[".", dirEntry(1)], ["z", dirEntry(2)], ["z/x", fileEntry(3)], ["b", dirEntry(4)]] as [
        string,
        IndexEntry,
      ][],
    ),
  };
  assert.equal(coversTree("/w", prev, moved, new Set(["/w/z", "/w/a"])), false);
  // a deleted: nothing stale remains.
  const deleted = {
    entries: new Map([[".", dirEntry(1)], ["b", dirEntry(4)]] as [string, IndexEntry][]),
  };
  assert.equal(coversTree("/w", prev, deleted, new Set()), true);
});

Deno.test("snapshot watch: a watcher's barrier is its own, not another watcher's sentinel", async () => {
  // A watcher closed after a burst can still have sentinel events in flight when the next one
  // starts; here two live watchers share the sentinel directory, which shows the same thing.
  const p = setup();
  const sentinel = join(p.base, "sentinel");
  Deno.mkdirSync(sentinel);
  const first = new TreeWatcher(p.ws, sentinel);
  const second = new TreeWatcher(p.ws, sentinel);
  try {
    for (let i = 0; i < 5; i++) {
      for (let k = 0; k < 3; k++) assert.equal((await first.drain()).ok, true);
      const f = join(p.ws, "src", `f${i}.ts`);
      Deno.writeTextFileSync(f, `edit ${i}`);
      const d = await second.drain();
      assert.ok(d.ok && d.paths.has(f), `drain ${i} returned before the edit of ${f} arrived`);
    }
  } finally {
    first.close();
    second.close();
    teardown(p);
  }
});

Deno.test("snapshot watch: with nothing changed a capture is the previous snapshot, and writes nothing", async () => {
  const p = setup();
  try {
    await both(p);
    const id = await p.watched.capture(p.ws, [".git/hooks"]);
    const db = join(p.base, "watched.db");
    const size = () => Deno.statSync(db).size + Deno.statSync(`${db}-wal`).size;
    const before = size();
    assert.equal(await p.watched.capture(p.ws, [".git/hooks"]), id);
    assert.equal(p.watched.lastCapture.mode, "changes");
    assert.deepEqual(await p.watched.diff(p.ws, id), []);
    assert.equal(size(), before, "a capture of an unchanged tree wrote to the store");
    // Touched but equal (same bytes rewritten): looked at, found the same content, same id.
    Deno.writeTextFileSync(
      join(p.ws, "src", "f1.ts"),
      Deno.readTextFileSync(join(p.ws, "src", "f1.ts")),
    );
    assert.equal(await p.watched.capture(p.ws, [".git/hooks"]), id);
    assert.equal(await both(p), "changes");
  } finally {
    teardown(p);
  }
});

Deno.test("snapshot watch: a tree that would take more than a quarter of the user's inotify watches is not watched", () => {
  const entries = new Map<string, IndexEntry>();
  for (let i = 0; i < 2048; i++) entries.set(`d${i}`, dirEntry(i));
  assert.equal(withinWatchBudget({ entries }, 0, 8192), true);
  assert.equal(withinWatchBudget({ entries }, 1, 8192), false, "excluded directories count too");
  entries.set("one-more", dirEntry(9999));
  assert.equal(withinWatchBudget({ entries }, 0, 8192), false);
  assert.equal(withinWatchBudget({ entries }, 0, 192_536), true);
});
