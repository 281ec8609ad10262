/**
 * What a snapshot cannot hold: sockets/FIFOs/devices and over-long paths are left out, sparse files
 * keep no contents; each capture says so (`lastNotes`), and a restore names what it could not
 * bring back instead of failing or claiming it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DirSnapshotStore } from "../../src/snapshot/mod.ts";

function sh(cwd: string, script: string): void {
  const r = new Deno.Command("bash", { args: ["-c", script], cwd, stderr: "piped" }).outputSync();
  if (r.code !== 0) throw new Error(new TextDecoder().decode(r.stderr));
}

Deno.test("snapshot: FIFOs, over-long paths and sparse files are noted, the store stays small", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-limits-" }));
  const ws = join(base, "ws");
  Deno.mkdirSync(ws);
  Deno.writeTextFileSync(join(ws, "a.txt"), "a\n");
  sh(ws, "truncate -s 64M sparse.img; echo tail >> sparse.img");
  const store = new DirSnapshotStore(join(base, "snap.db"));
  try {
    const before = await store.capture(ws, []);
    assert.match(store.lastNotes().join("\n"), /sparse\.img: a sparse file/);
    sh(
      ws,
      "mkfifo pipe; truncate -s 1G big.img; echo more >> sparse.img; " +
        `d=$(printf 'y%.0s' $(seq 1 250)); for i in $(seq 1 18); do mkdir $d && cd $d; done; echo z > f`,
    );
    const after = await store.capture(ws, [], { full: true });
    const notes = store.lastNotes().join("\n");
    assert.match(notes, /pipe: a socket, FIFO or device/);
    assert.match(notes, /big\.img: a sparse file/);
    assert.match(notes, /longer than the system allows/);
    assert.ok(await store.verify(after));
    assert.ok(Deno.statSync(join(base, "snap.db")).size < 8 * 1024 * 1024);
    // The diff sees the sparse file changed (its size), not the FIFO (left out).
    const d = await store.diff(ws, before);
    assert.ok(d.some((x) => x.path === "sparse.img" && x.change === "modified"));
    assert.ok(!d.some((x) => x.path === "pipe"));
    const back = await store.restore(ws, before);
    // Made by the action: gone. Changed by it, contents never kept: named, not claimed.
    assert.throws(() => Deno.lstatSync(join(ws, "big.img")));
    assert.throws(() => Deno.lstatSync(join(ws, "y".repeat(250))));
    const missed = back.filter((x) => x.notRestored !== undefined).map((x) => x.path);
    assert.deepEqual(missed, ["sparse.img"]);
    assert.ok(Deno.lstatSync(join(ws, "pipe")).isFifo, "a FIFO is neither removed nor opened");
    assert.equal(Deno.readTextFileSync(join(ws, "a.txt")), "a\n");
  } finally {
    store.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("snapshot: past the store's total cap, contents are not kept, said so, and never claimed restored", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-cap-" }));
  const ws = join(base, "ws");
  Deno.mkdirSync(ws);
  const rand = (n: number) => {
    const out = new Uint8Array(n);
    for (let o = 0; o < n; o += 65536) crypto.getRandomValues(out.subarray(o, o + 65536));
    return out;
  };
  const small = rand(10_000);
  Deno.writeFileSync(join(ws, "small.bin"), small);
  const db = join(base, "snap.db");
  const store = new DirSnapshotStore(db, { maxBytes: 1024 * 1024 });
  try {
    const first = await store.capture(ws, []);
    assert.deepEqual(store.lastNotes(), []);
    // 3 MiB of new contents cannot fit under a 1 MiB cap.
    Deno.writeFileSync(join(ws, "big.bin"), rand(3 * 1024 * 1024));
    Deno.writeFileSync(join(ws, "small.bin"), rand(10_000));
    const second = await store.capture(ws, [], { full: true });
    const notes = store.lastNotes().join("\n");
    assert.match(notes, /big\.bin: the snapshot store holds .* its cap is 1 MiB \(undoMaxMiB/);
    assert.ok(Deno.statSync(db).size < 1024 * 1024 + 64 * 1024, "the store stayed under its cap");
    assert.ok(await store.verify(second));
    // Change both again: the one kept is restored, the one not kept is named, not claimed.
    Deno.writeFileSync(join(ws, "big.bin"), rand(100));
    Deno.writeFileSync(join(ws, "small.bin"), rand(10));
    const back = await store.restore(ws, second);
    const missed = back.filter((x) => x.notRestored !== undefined).map((x) => x.path);
    assert.deepEqual(missed, ["big.bin"]);
    assert.ok(await store.verify(first));
  } finally {
    store.close();
    Deno.removeSync(base, { recursive: true });
  }
});
