/**
 * The workspace the snapshot benchmarks share, and what they compare with: 19,990 text-like files
 * with lognormal sizes (median ~4 KB) in ~440 directories plus 10 random 17 MB blobs (~314 MB),
 * generated once under $RETIE_BENCH_DIR (default /var/tmp/retie-bench-snapshot), outside the
 * repository, and reused by later runs; a commit into a separate git directory; `cp -a`.
 *
 * @module
 */
import { join } from "node:path";

/** Where the generated workspace lives. */
export const BENCH_ROOT = Deno.env.get("RETIE_BENCH_DIR") ?? "/var/tmp/retie-bench-snapshot";
/** The workspace itself. */
export const BENCH_WS = join(BENCH_ROOT, "ws");
const DONE = join(BENCH_ROOT, "generated-v1");

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/**
 * Generates the workspace unless a previous run did; returns its text files (relative paths).
 *
 * @example
 * ```ts
 * import { ensureWorkspace } from "./bench_workspace.ts";
 * ensureWorkspace().length; // 19990
 * ```
 */
export function ensureWorkspace(): string[] {
  const ROOT = BENCH_ROOT;
  const WS = BENCH_WS;
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

/**
 * Runs a program to completion; throws with its stderr when it fails.
 *
 * @example
 * ```ts
 * import { sh } from "./bench_workspace.ts";
 * sh("true", []);
 * ```
 */
export function sh(cmd: string, args: string[], env: Record<string, string> = {}): void {
  const r = new Deno.Command(cmd, { args, env, stdout: "null", stderr: "piped" }).outputSync();
  if (r.code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
  }
}

/**
 * A git directory under `stateDir` whose work tree is `ws`, with a first (full) commit made; its
 * `commit` is what shadow-git checkpointing costs (`git add -A && git commit`).
 *
 * @example
 * ```ts
 * import { shadowGit } from "./bench_workspace.ts";
 * const git = shadowGit("/tmp/state", "/work/p");
 * git.commit("after the command");
 * ```
 */
export function shadowGit(stateDir: string, ws: string): { commit(message: string): void } {
  const env = {
    GIT_DIR: join(stateDir, "shadow.git"),
    GIT_WORK_TREE: ws,
    HOME: stateDir,
    GIT_AUTHOR_NAME: "b",
    GIT_AUTHOR_EMAIL: "b@b",
    GIT_COMMITTER_NAME: "b",
    GIT_COMMITTER_EMAIL: "b@b",
  };
  sh("git", ["init", "-q"], env);
  // No automatic gc: it repacks the 314 MB in the background, on a core the benches need.
  sh("git", ["config", "gc.auto", "0"], env);
  sh("git", ["config", "maintenance.auto", "false"], env);
  const commit = (message: string) => {
    sh("git", ["add", "-A"], env);
    sh("git", ["commit", "-q", "-m", message], env);
  };
  commit("base");
  return { commit };
}

/**
 * Registers the two comparisons in `group`: a commit into the shadow git directory after
 * `touch20()` changed ~20 files, and `cp -a` of the workspace into `stateDir`.
 *
 * @example
 * ```ts
 * import { BENCH_WS, registerComparisons, shadowGit } from "./bench_workspace.ts";
 * registerComparisons("cycle", "/tmp/state", () => {}, shadowGit("/tmp/state", BENCH_WS));
 * ```
 */
export function registerComparisons(
  group: string,
  stateDir: string,
  touch20: () => void,
  git: { commit(message: string): void },
): void {
  let n = 0;
  Deno.bench({
    name: "git add -A && commit into a separate GIT_DIR (20 files changed)",
    group,
    n: 10,
    warmup: 1,
    fn: (b) => {
      touch20();
      b.start();
      git.commit(`r${n++}`);
      b.end();
    },
  });
  Deno.bench({
    name: "cp -a of the workspace",
    group,
    n: 3,
    warmup: 0,
    fn: (b) => {
      const dest = join(stateDir, `copy-${n++}`);
      b.start();
      sh("cp", ["-a", BENCH_WS, dest]);
      b.end();
      Deno.removeSync(dest, { recursive: true });
    },
  });
}
