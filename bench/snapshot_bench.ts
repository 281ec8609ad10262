/**
 * Snapshot + undo on a 20k-file / ~300 MB workspace with ~20 files changed, against `cp -a` of the
 * workspace and against a commit into a separate git directory (`GIT_DIR=… git add -A && commit`).
 * Goal: capture + restore ≤ 5% of `cp -a` and below the git commit.
 *
 * The workspace (19,990 text-like files with lognormal sizes, median ~4 KB, in ~440 directories,
 * plus 10 random 17 MB blobs) is generated once under $RETIE_BENCH_DIR (default
 * /var/tmp/retie-bench-snapshot), outside the repository, and reused by later runs.
 * Run: `deno bench --allow-all bench/snapshot_bench.ts`.
 */
import { join } from "node:path";
import { DirSnapshotStore } from "../src/snapshot/store.ts";
import { listTree, listTreeSync } from "../src/snapshot/walk.ts";
import {
  BENCH_WS as WS,
  ensureWorkspace,
  registerComparisons,
  shadowGit,
} from "./bench_workspace.ts";

const textFiles = ensureWorkspace();
let round = 0;
function touch20(): void {
  round++;
  for (let i = 0; i < 20; i++) {
    const f = textFiles[(round * 97 + i * 1009) % textFiles.length];
    Deno.writeTextFileSync(join(WS, f), `changed in round ${round}\n`, { append: true });
  }
}

const stateDir = Deno.makeTempDirSync({ prefix: "retie-snap-bench-" });
const store = new DirSnapshotStore(join(stateDir, "snapshots.db"));
let t = performance.now();
let id = await store.capture(WS, []);
console.log(
  `first capture (reads everything): ${
    (performance.now() - t).toFixed(0)
  } ms, ${store.lastCapture.hashed} files, ${(store.lastCapture.hashedBytes / 1e6).toFixed(0)} MB`,
);
t = performance.now();
await store.capture(WS, []);
console.log(
  `second capture, nothing changed: ${
    (performance.now() - t).toFixed(0)
  } ms, hashed ${store.lastCapture.hashed}`,
);

// The undo cycle of one command: capture (20 files changed since the last capture), the command
// changes 20 files, restore. The 20 writes are inside the timing; their cost alone is the next bench.
Deno.bench({
  name: "retie capture + restore (20 files changed)",
  group: "snapshot+undo",
  baseline: true,
  n: 20,
  warmup: 2,
  fn: async (b) => {
    touch20();
    b.start();
    id = await store.capture(WS, []);
    touch20();
    await store.restore(WS, id);
    b.end();
  },
});

Deno.bench({
  name: "(the 20 writes alone, to subtract)",
  group: "snapshot+undo",
  n: 20,
  warmup: 2,
  fn: () => {
    touch20();
  },
});

Deno.bench({
  name: "retie capture only (20 files changed)",
  group: "snapshot+undo",
  n: 20,
  warmup: 2,
  fn: async (b) => {
    touch20();
    b.start();
    await store.capture(WS, []);
    b.end();
  },
});

Deno.bench({
  name: "retie restore only (20 files changed by the command)",
  group: "snapshot+undo",
  n: 20,
  warmup: 2,
  fn: async (b) => {
    touch20();
    const sid = await store.capture(WS, []);
    touch20();
    b.start();
    await store.restore(WS, sid);
    b.end();
  },
});

Deno.bench({
  name: "retie per command: capture before + capture after (the outcome's post-state)",
  group: "snapshot+undo",
  n: 20,
  warmup: 2,
  fn: async (b) => {
    touch20();
    b.start();
    await store.capture(WS, []);
    touch20();
    await store.capture(WS, []);
    b.end();
  },
});

Deno.bench({
  name: "retie undo of that command: clobber check + restore from the two manifests",
  group: "snapshot+undo",
  n: 20,
  warmup: 2,
  fn: async (b) => {
    touch20();
    const before = await store.capture(WS, []);
    touch20();
    const after = await store.capture(WS, []);
    b.start();
    await store.diff(WS, after);
    await store.restoreFrom(WS, after, before);
    b.end();
  },
});

// What dominates a capture: listing the tree. One thread against two (this one and the
// persistent listing worker, which the first large listing starts, after it, before the timings).
const listed = await listTree(WS, [], 20_000);
const previous = new Map(listed.map((l) => [l.rel, l]));
await new Promise((r) => setTimeout(r, 100));
{
  // The groups below run one after the other, and this VM's load drifts between them: the same
  // three ways, interleaved, give a fairer comparison.
  const ways: [string, () => unknown][] = [
    ["one thread", () => listTreeSync(WS, [])],
    ["two threads", () => listTree(WS, [], listed.length)],
    ["two threads + hint", () => listTree(WS, [], listed.length, { hint: previous })],
  ];
  const times = ways.map(() => [] as number[]);
  for (let round = 0; round < 15; round++) {
    for (let i = 0; i < ways.length; i++) {
      const t0 = performance.now();
      await ways[i][1]();
      times[i].push(performance.now() - t0);
    }
  }
  for (let i = 0; i < ways.length; i++) {
    const ts = times[i].sort((a, b) => a - b);
    const mean = ts.reduce((a, b) => a + b, 0) / ts.length;
    console.log(
      `listing 20k paths, ${ways[i][0]}, interleaved: median ${ts[7].toFixed(0)} ms, mean ${
        mean.toFixed(0)
      } ms, min ${ts[0].toFixed(0)} ms`,
    );
  }
}
Deno.bench({
  name: "listing 20k paths on one thread (readDirSync + lstatSync)",
  group: "listing",
  baseline: true,
  n: 20,
  warmup: 2,
  fn: () => {
    listTreeSync(WS, []);
  },
});
Deno.bench({
  name: "listing 20k paths on two threads (main + persistent worker)",
  group: "listing",
  n: 20,
  warmup: 2,
  fn: async () => {
    await listTree(WS, [], listed.length);
  },
});
Deno.bench({
  name: "listing 20k paths on two threads, split by the previous listing's counts",
  group: "listing",
  n: 20,
  warmup: 2,
  fn: async () => {
    await listTree(WS, [], listed.length, { hint: previous });
  },
});

// Around the threshold: a ~2,000-path tree (200 directories of 9 files), both ways.
const small = join(stateDir, "small");
for (let d = 0; d < 200; d++) {
  Deno.mkdirSync(join(small, `top${d % 10}`, `d${d}`), { recursive: true });
  for (let f = 0; f < 9; f++) {
    Deno.writeTextFileSync(join(small, `top${d % 10}`, `d${d}`, `${f}`), "");
  }
}
Deno.bench({
  name: "listing 2k paths on one thread",
  group: "listing 2k",
  baseline: true,
  n: 50,
  warmup: 5,
  fn: () => {
    listTreeSync(small, []);
  },
});
Deno.bench({
  name: "listing 2k paths on two threads",
  group: "listing 2k",
  n: 50,
  warmup: 5,
  fn: async () => {
    await listTree(small, [], 0, { threshold: 0 });
  },
});

const git = shadowGit(stateDir, WS);
registerComparisons("snapshot+undo", stateDir, touch20, git);

globalThis.addEventListener("unload", () => {
  store.close();
  try {
    Deno.removeSync(stateDir, { recursive: true });
  } catch { /* best effort */ }
});
