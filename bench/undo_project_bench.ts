/**
 * Undo on a real project: a web app with its npm dependencies installed (bench/npm_project.ts),
 * a git repository whose node_modules is ignored. Through the real guard, the real `bash` tool in
 * bubblewrap, the real ledger and stores, for both undo modes:
 *
 * - `overlay`: the command runs on a copy-on-write view; undo records what it changed;
 * - `snapshots`: the whole-tree store (the fallback), for comparison.
 *
 * Reports: the first sandboxed command's overhead, the median overhead of later one-file
 * commands, the state directory's growth after one command, `undo --all` time and exactness, a
 * `git commit` of the same change, and `bash true` against `read` on a 30-file workspace.
 *
 * Run: `deno run -A bench/undo_project_bench.ts [--no-snapshots]` (the first run installs the
 * dependencies from the npm registry into ~/.cache/retie-bench, a few minutes).
 */
import { join } from "node:path";
import { run } from "../src/exec.ts";
import { BlobStore } from "../src/core/blob_store.ts";
import { storePaths } from "../src/core/dirs.ts";
import { generateKeyPair, issueDelegation, openLedger } from "../src/ledger/mod.ts";
import { createGuard } from "../src/plane/guard.ts";
import { defaultPolicy } from "../src/plane/policy.ts";
import { undoAll } from "../src/plane/undo.ts";
import { probeOverlay } from "../src/sandbox/overlay_run.ts";
import { runSandboxed } from "../src/sandbox/run.ts";
import { gitProtectedPaths } from "../src/sandbox/protected_paths.ts";
import { revertGitControl } from "../src/sandbox/git_guard.ts";
import { workspaceProfile } from "../src/sandbox/profile.ts";
import { DirSnapshotStore, OverlayStaging } from "../src/snapshot/mod.ts";
import { bashTool } from "../src/tools/bash.ts";
import { readTool } from "../src/tools/read.ts";
import { freshProject, treeSize } from "./npm_project.ts";

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mib = (b: number) => `${(b / 2 ** 20).toFixed(2)} MiB`;

function dirBytes(p: string): number {
  try {
    const st = Deno.lstatSync(p);
    if (!st.isDirectory) return st.size;
  } catch {
    return 0;
  }
  return treeSize(p).bytes;
}

function stateBytes(ledgerPath: string): number {
  const s = storePaths(ledgerPath);
  return [s.blobs, s.snapshots, s.staging, `${s.snapshots}-wal`, `${s.blobs}-wal`]
    .reduce((n, p) => n + dirBytes(p), 0);
}

function session(ws: string, state: string, mode: "overlay" | "snapshots") {
  const ledgerPath = join(state, "ledger.db");
  const ledger = openLedger(ledgerPath);
  const user = generateKeyPair();
  const agent = generateKeyPair();
  const delegation = issueDelegation(user, agent.publicKey, {
    workspace: ws,
    classes: ["none", "reversible", "irreversible", "unknown"],
    tools: ["*"],
    notBefore: new Date(Date.now() - 60_000),
    expires: new Date(Date.now() + 3600_000),
  });
  const sink = ledger.startSession({
    genesis: {
      objective: "bench",
      provider: "none",
      model: "none",
      policy: defaultPolicy().identity,
      systemPromptDigest: "0".repeat(64),
      instructionsDigest: null,
      sandbox: "bwrap",
      version: "bench",
      workspace: ws,
      mode: "default",
      headless: true,
    },
    userKey: user,
    agentKey: agent,
    delegation,
  });
  const stores = storePaths(ledgerPath);
  const blobs = new BlobStore(stores.blobs);
  const snapshots = mode === "snapshots"
    ? new DirSnapshotStore(stores.snapshots, { watch: true })
    : null;
  const staging = mode === "overlay"
    ? new OverlayStaging(stores.staging, () => probeOverlay(stores.staging, ws))
    : null;
  const guard = createGuard({
    sink,
    policy: defaultPolicy(),
    blobs,
    snapshots,
    staging,
    // As a session does: git's control paths are checked once a staged command's changes
    // reached the workspace (only where the apply wrote).
    afterStagedApply: (effect, touched) => {
      if (!effect.confinement) return null;
      const g = revertGitControl(
        ws,
        effect.confinement.gitIdentity,
        touched ? { changedOnly: touched } : {},
      );
      return g.removed.length ? { note: "git control removed", removed: g.removed } : null;
    },
    approve: () => Promise.resolve(true),
    mode: "default",
    headless: true,
    yes: true,
  });
  const ctx = {
    workspace: ws,
    protectedPaths: [state],
    signal: new AbortController().signal,
    sandbox: { available: true, network: false },
    headless: true,
    sessionId: sink.sessionId,
    services: {},
    // As a session does: with the copy-on-write view, no hard-link scan before each command.
    ...(staging ? { commandsStaged: () => staging.probe().then((r) => r.ok) } : {}),
  };
  return {
    ledgerPath,
    staging,
    bash: (command: string) => guard.run({ name: "bash", tool: bashTool, args: { command }, ctx }),
    read: (path: string) => guard.run({ name: "read", tool: readTool, args: { path }, ctx }),
    undoAll: () =>
      undoAll(sink.sessionId, { ledger, sink, blobs, snapshots, staging, force: false }),
    close() {
      sink.close();
      blobs.close();
      snapshots?.close();
      ledger.close();
    },
  };
}

async function bare(ws: string, command: string): Promise<number> {
  const t = performance.now();
  await runSandboxed({ profile: workspaceProfile(ws), command });
  return performance.now() - t;
}

async function gitStatus(ws: string): Promise<string> {
  const r = await run({
    cmd: "git",
    args: ["status", "--porcelain"],
    cwd: ws,
    env: { PATH: "/usr/bin:/bin" },
  });
  return new TextDecoder().decode(r.stdout);
}

async function measure(mode: "overlay" | "snapshots"): Promise<void> {
  const { ws, base } = await freshProject();
  const state = join(base, "state");
  const nm = treeSize(join(ws, "node_modules"));
  console.log(`\n## ${mode} — workspace ${nm.files} files in node_modules, ${mib(nm.bytes)}`);
  const s = session(ws, state, mode);
  try {
    const bareTimes: number[] = [];
    for (let i = 0; i < 5; i++) bareTimes.push(await bare(ws, `echo // bare >> /tmp/x`));
    const bareMed = med(bareTimes);
    let t = performance.now();
    if (s.staging) {
      const p = await s.staging.probe();
      console.log(`overlay probe: ${ms(performance.now() - t)} (${p.ok ? "ok" : p.why})`);
    }
    const state0 = stateBytes(s.ledgerPath);
    t = performance.now();
    const first = await s.bash("echo '// edit 0' >> src/module_0.js");
    const firstMs = performance.now() - t;
    if (first.status !== "ok") throw new Error(first.result.output);
    const grown = stateBytes(s.ledgerPath) - state0;
    console.log(
      `first command: ${ms(firstMs)} (bare sandbox ${ms(bareMed)}, overhead +${
        ms(firstMs - bareMed)
      })`,
    );
    console.log(`state dir growth after one command: ${mib(grown)}`);
    const per: number[] = [];
    const bares: number[] = [];
    for (let i = 1; i <= 10; i++) {
      bares.push(await bare(ws, `true`));
      t = performance.now();
      const r = await s.bash(`echo '// edit ${i}' >> src/module_${i}.js`);
      per.push(performance.now() - t);
      if (r.status !== "ok") throw new Error(r.result.output);
    }
    console.log(
      `later one-file commands: median ${ms(med(per))} (bare ${ms(med(bares))}, overhead +${
        ms(med(per) - med(bares))
      })`,
    );
    // Shared by both modes and by a bare sandboxed run: git's protected paths are listed when the
    // call is classified (the profile is built from that listing).
    const gp: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      gitProtectedPaths(ws);
      gp.push(performance.now() - t0);
    }
    console.log(`  of which listing git's protected paths (once a command): ${ms(med(gp))}`);
    console.log(`state dir after 11 commands: ${mib(stateBytes(s.ledgerPath) - state0)}`);
    t = performance.now();
    const reports = await s.undoAll();
    const undoMs = performance.now() - t;
    const exact = (await gitStatus(ws)) === "";
    console.log(
      `undo --all: ${ms(undoMs)}, ${reports.filter((r) => r.status === "undone").length} undone, ` +
        `tree ${exact ? "byte for byte as before (git status clean)" : "DIFFERS"}`,
    );
    // The same change committed with git, for scale.
    Deno.writeTextFileSync(join(ws, "src/module_0.js"), "// edit\n", { append: true });
    t = performance.now();
    const env = { PATH: "/usr/bin:/bin" };
    await run({ cmd: "git", args: ["add", "-A"], cwd: ws, env });
    await run({
      cmd: "git",
      args: ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "edit"],
      cwd: ws,
      env,
    });
    console.log(`git add -A && git commit of one edited file: ${ms(performance.now() - t)}`);
  } finally {
    s.close();
    Deno.removeSync(base, { recursive: true });
  }
}

/** The pnpm layout: dependencies hard-linked to a store outside the workspace. */
async function measurePnpm(): Promise<void> {
  const { ws, base, store } = await freshProject({ hardLinks: true });
  console.log(`\n## overlay, pnpm layout (node_modules hard-linked to ${store})`);
  const s = session(ws, join(base, "state"), "overlay");
  const rel = "node_modules/react/index.js";
  const storeBefore = Deno.readTextFileSync(join(store, rel));
  try {
    await s.staging?.probe();
    const bareMed = med([await bare(ws, "true"), await bare(ws, "true"), await bare(ws, "true")]);
    const state0 = stateBytes(s.ledgerPath);
    let t = performance.now();
    const one = await s.bash("echo '// edit' >> src/module_0.js");
    const oneMs = performance.now() - t;
    t = performance.now();
    const dep = await s.bash(`echo 'globalThis.poisoned = 1;' >> ${rel}`);
    const depMs = performance.now() - t;
    if (one.status !== "ok" || dep.status !== "ok") throw new Error(dep.result.output);
    const intact = Deno.readTextFileSync(join(store, rel)) === storeBefore;
    console.log(
      `one-file command ${ms(oneMs)}, a write to a hard-linked dependency ${ms(depMs)} ` +
        `(bare sandbox ${ms(bareMed)}); the store's file ${intact ? "untouched" : "CHANGED"}; ` +
        `state dir growth ${mib(stateBytes(s.ledgerPath) - state0)}`,
    );
    t = performance.now();
    await s.undoAll();
    console.log(
      `undo --all ${ms(performance.now() - t)}; tree ${
        (await gitStatus(ws)) === "" && Deno.readTextFileSync(join(ws, rel)) === storeBefore
          ? "as before"
          : "DIFFERS"
      }; store ${
        Deno.readTextFileSync(join(store, rel)) === storeBefore ? "untouched" : "CHANGED"
      }`,
    );
  } finally {
    s.close();
    Deno.removeSync(base, { recursive: true });
  }
}

async function trueVsRead(): Promise<void> {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-bench-30-" }));
  const ws = join(base, "ws");
  Deno.mkdirSync(join(ws, "src"), { recursive: true });
  for (let i = 0; i < 30; i++) {
    Deno.writeTextFileSync(join(ws, "src", `f${i}.ts`), `export const x${i} = ${i};\n`);
  }
  for (const mode of ["overlay", "snapshots"] as const) {
    const s = session(ws, join(base, `state-${mode}`), mode);
    try {
      await s.staging?.probe();
      await s.bash("true");
      const tb: number[] = [];
      const tr: number[] = [];
      for (let i = 0; i < 30; i++) {
        let t = performance.now();
        await s.read("src/f1.ts");
        tr.push(performance.now() - t);
        t = performance.now();
        await s.bash("true");
        tb.push(performance.now() - t);
      }
      console.log(
        `30-file workspace, ${mode}: bash true ${ms(med(tb))}, read ${ms(med(tr))}, +${
          ms(med(tb) - med(tr))
        } (medians of 30, through the guard)`,
      );
    } finally {
      s.close();
    }
  }
  Deno.removeSync(base, { recursive: true });
}

await trueVsRead();
if (Deno.args.includes("--small")) Deno.exit(0);
await measure("overlay");
await measurePnpm();
if (!Deno.args.includes("--no-snapshots")) await measure("snapshots");
