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
