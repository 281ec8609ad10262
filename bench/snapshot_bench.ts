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
import { DirSnapshotStore } from "../src/sandbox/snapshot_store.ts";
import { listTree, listTreeSync, setFindThreshold } from "../src/sandbox/snapshot_walk.ts";

const ROOT = Deno.env.get("RETIE_BENCH_DIR") ?? "/var/tmp/retie-bench-snapshot";
const WS = join(ROOT, "ws");
const DONE = join(ROOT, "generated-v1");

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

function ensureWorkspace(): string[] {
  const files: string[] = [];
  const r = rng(42);
  const dirs: string[] = [];
  for (let a = 0; a < 20; a++) {
    for (let b = 0; b < 21; b++) dirs.push(`pkg${a}/mod${b}`);
    dirs.push(`pkg${a}`);
  }
  dirs.push("assets", "docs");
  for (let i = 0; i < 19_990; i++) files.push(`${dirs[i % dirs.length]}/file${i}.txt`);
  for (let i = 0; i < 10; i++) files.push(`assets/blob${i}.bin`);
  let generated = false;
  try {
    Deno.statSync(DONE);
    generated = true;
  } catch { /* not yet */ }
  if (!generated) {
    try {
      Deno.removeSync(ROOT, { recursive: true });
    } catch { /* absent */ }
    for (const d of dirs) Deno.mkdirSync(join(WS, d), { recursive: true });
    const line =
      "the quick brown fox jumps over the lazy dog 0123456789 lorem ipsum dolor sit amet\n";
    for (const f of files) {
      if (f.endsWith(".bin")) {
        const b = new Uint8Array(17 << 20);
        for (let off = 0; off < b.length; off += 65536) {
          crypto.getRandomValues(b.subarray(off, off + 65536));
        }
        Deno.writeFileSync(join(WS, f), b);
      } else {
        // lognormal, median ~4 KB
        const z = Math.sqrt(-2 * Math.log(r() || 1e-9)) * Math.cos(2 * Math.PI * r());
        const size = Math.min(200_000, Math.max(16, Math.round(4096 * Math.exp(z))));
        Deno.writeTextFileSync(
          join(WS, f),
          line.repeat(Math.ceil(size / line.length)).slice(0, size),
        );
      }
    }
    Deno.writeTextFileSync(DONE, new Date().toISOString());
  }
  return files.filter((f) => f.endsWith(".txt"));
}

const textFiles = ensureWorkspace();
let round = 0;
function touch20(): void {
  round++;
  for (let i = 0; i < 20; i++) {
    const f = textFiles[(round * 97 + i * 1009) % textFiles.length];
    Deno.writeTextFileSync(join(WS, f), `changed in round ${round}\n`, { append: true });
  }
}

function sh(cmd: string, args: string[], env: Record<string, string> = {}): void {
  const r = new Deno.Command(cmd, { args, env, stdout: "null", stderr: "piped" }).outputSync();
  if (r.code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
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

// What dominates: listing the tree. Both strategies.
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

Deno.bench({
  name: "listing 20k paths in-process (readDirSync + lstatSync)",
  group: "listing",
  baseline: true,
  n: 10,
  warmup: 1,
  fn: () => {
    listTreeSync(WS, []);
  },
});
Deno.bench({
  name: "listing 20k paths with find in bwrap (+ parse)",
  group: "listing",
  n: 10,
  warmup: 1,
  fn: async () => {
    setFindThreshold(0);
    await listTree(WS, [], 20_000);
    setFindThreshold(Infinity);
  },
});

// A commit into a separate git dir; the first (full) commit happens untimed.
const gitDir = join(stateDir, "shadow.git");
const gitEnv = {
  GIT_DIR: gitDir,
  GIT_WORK_TREE: WS,
  HOME: stateDir,
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@b",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@b",
};
sh("git", ["init", "-q"], gitEnv);
sh("git", ["add", "-A"], gitEnv);
sh("git", ["commit", "-q", "-m", "base"], gitEnv);
Deno.bench({
  name: "git add -A && commit into a separate GIT_DIR (20 files changed)",
  group: "snapshot+undo",
  n: 10,
  warmup: 1,
  fn: (b) => {
    touch20();
    b.start();
    sh("git", ["add", "-A"], gitEnv);
    sh("git", ["commit", "-q", "-m", `r${round}`], gitEnv);
    b.end();
  },
});

Deno.bench({
  name: "cp -a of the workspace",
  group: "snapshot+undo",
  n: 3,
  warmup: 0,
  fn: (b) => {
    const dest = join(stateDir, `copy-${round++}`);
    b.start();
    sh("cp", ["-a", WS, dest]);
    b.end();
    Deno.removeSync(dest, { recursive: true });
  },
});

globalThis.addEventListener("unload", () => {
  store.close();
  try {
    Deno.removeSync(stateDir, { recursive: true });
  } catch { /* best effort */ }
});
