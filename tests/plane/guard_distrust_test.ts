/**
 * Code that no snapshot follows (a command outside the sandbox) may write anywhere it can, and a
 * hostile one can make inotify drop its events: after it runs through the guard, the next capture
 * of a watching snapshot store must walk the tree. A file tool's write, listed in its effect, does
 * not cost that walk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DirSnapshotStore } from "../../src/snapshot/store.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { fixture, guardFor, type Spy, writeTool } from "./plane_fixture.ts";

Deno.test("guard: a command outside the sandbox makes the next capture walk; a file write does not", async () => {
  const f = fixture();
  const store = new DirSnapshotStore(join(f.dir, "state", "snapshots.db"), { watch: true });
  try {
    Deno.writeTextFileSync(join(f.workspace, "a.txt"), "a");
    await store.capture(f.workspace, []);
    await store.capture(f.workspace, []); // the watcher starts before this walk
    const guard = guardFor(f, { snapshots: store });
    const spy: Spy = { calls: 0 };

    const w = await guard.run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "b.txt", content: "from the write tool" },
      ctx: f.ctx,
    });
    assert.equal(w.result.ok, true, w.result.output);
    await store.capture(f.workspace, []);
    assert.equal(store.lastCapture.mode, "changes");

    // The sandbox is unavailable in this fixture: bash runs on the host, irreversible, approved.
    const b = await guard.run({
      name: "bash",
      tool: bashTool,
      args: { command: "echo host >> a.txt" },
      ctx: f.ctx,
    });
    assert.equal(b.result.ok, true, b.result.output);
    assert.equal(Deno.readTextFileSync(join(f.workspace, "a.txt")), "ahost\n");
    await store.capture(f.workspace, []);
    assert.equal(store.lastCapture.mode, "walk");
    Deno.writeTextFileSync(join(f.workspace, "a.txt"), "edited after");
    await store.capture(f.workspace, []);
    assert.equal(store.lastCapture.mode, "changes", store.lastFallback);
  } finally {
    store.close();
    f.close();
  }
});
