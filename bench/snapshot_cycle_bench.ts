/**
 * The snapshot cost of one sandboxed command as a session pays it, with the store watching the
 * workspace (`new DirSnapshotStore(db, { watch: true })`, as `retie run` opens it): the capture
 * before the command (only what changed since the last capture), the capture after it (a full walk:
 * the command is untrusted), and the undo of that command (the clobber check through the watcher,
 * then a restore from the two manifests). Compared with `cp -a` and a commit into a separate git
 * directory on the same 20k-file / ~314 MB workspace that bench/snapshot_bench.ts generates.
 *
 * Run: `deno bench --allow-all bench/snapshot_cycle_bench.ts` (the workspace is generated on the
 * first run, see `bench_workspace.ts`).
 */
import { join } from "node:path";
import { DirSnapshotStore } from "../src/snapshot/store.ts";
import {
  BENCH_WS as WS,
  ensureWorkspace,
  registerComparisons,
  shadowGit,
} from "./bench_workspace.ts";

const textFiles = ensureWorkspace().map((f) => join(WS, f));
let round = 0;
/** ~20 files changed, as a command (or the person between commands) would. */
function touch20(): void {
  round++;
  for (let i = 0; i < 20; i++) {
    const f = textFiles[(round * 7 + i) % textFiles.length];
    Deno.writeTextFileSync(f, `changed in round ${round}\n`, { append: true });
  }
}

const stateDir = Deno.makeTempDirSync({ prefix: "retie-cycle-bench-" });
const store = new DirSnapshotStore(join(stateDir, "snapshots.db"), { watch: true });
await store.capture(WS, []); // everything read once
await store.capture(WS, []); // the watcher starts before this walk

Deno.bench({
  name: "before a command: capture of what changed (20 files)",
  group: "cycle",
  baseline: true,
  n: 20,
  warmup: 2,
  fn: async (b) => {
    touch20();
    b.start();
    await store.capture(WS, []);
    b.end();
    if (store.lastCapture.mode !== "changes") throw new Error(`walked: ${store.lastFallback}`);
  },
});

Deno.bench({
  name: "after a command: full walk (20 files changed by it)",
  group: "cycle",
  n: 20,
  warmup: 2,
  fn: async (b) => {
    await store.capture(WS, []);
    touch20();
    b.start();
    await store.capture(WS, [], { full: true });
    b.end();
  },
});

const git = shadowGit(stateDir, WS);

// Deno.bench reports means; the cycle is also measured directly, interleaved with a git commit so
// that load swings hit both alike, and reported as medians.
{
  const runs = {
    before: [] as number[],
    after: [] as number[],
    undo: [] as number[],
    git: [] as number[],
  };
  for (let i = 0; i < 15; i++) {
    touch20(); // the person's edits since the last capture
    let t = performance.now();
    const before = await store.capture(WS, []);
    runs.before.push(performance.now() - t);
    touch20(); // the command
    t = performance.now();
    const after = await store.capture(WS, [], { full: true });
    runs.after.push(performance.now() - t);
    t = performance.now();
    if ((await store.diff(WS, after)).length > 0) throw new Error("clobbered");
    await store.restoreFrom(WS, after, before);
    runs.undo.push(performance.now() - t);
    touch20();
    t = performance.now();
    git.commit(`m${round}`);
    runs.git.push(performance.now() - t);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const [bf, af, un, gi] = [med(runs.before), med(runs.after), med(runs.undo), med(runs.git)];
  console.log(
    `medians over 15 cycles: before ${bf.toFixed(1)} ms, after ${af.toFixed(1)} ms, ` +
      `undo ${un.toFixed(1)} ms; per command ${(bf + af).toFixed(1)} ms, with its undo ` +
      `${(bf + af + un).toFixed(1)} ms; git commit ${gi.toFixed(1)} ms`,
  );
}
registerComparisons("cycle", stateDir, touch20, git);

globalThis.addEventListener("unload", () => {
  store.close();
  try {
    Deno.removeSync(stateDir, { recursive: true });
  } catch { /* best effort */ }
});
