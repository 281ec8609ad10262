/**
 * Per-command sandbox overhead: `true` inside the full confined profile (namespaces, mounts, our
 * seccomp filter over stdin, the fd-closing prelude) against `true` started bare, both from Deno.
 * Goal: ≤ +15 ms median. Run: `deno bench --allow-all bench/sandbox_bench.ts`.
 * /etc is one bind of the prepared view (`etc_view.ts`); the per-entry binds it replaced are
 * measured alongside, interleaved, so load swings hit all three alike.
 */
import { run } from "../src/exec.ts";
import { prepareSandboxed, runSandboxed } from "../src/sandbox/run.ts";
import { buildSeccompFilter } from "../src/sandbox/seccomp.ts";
import { buildBwrapArgs } from "../src/sandbox/bwrap_args.ts";
import { buildEtcView, ensureEtcView } from "../src/sandbox/etc_view.ts";

const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-sbx-bench-" }));
const profile = { workspace: ws, network: false, readOnly: [], hidden: [], confined: true };

// Deno.bench reports mean and percentiles but no median; the goal is stated as a median, so
// measure it directly first (interleaved, so load swings hit all three alike).
ensureEtcView(); // built once per process (see the "etc view" group), not per command
{
  const bare: number[] = [];
  const bareShell: number[] = [];
  const boxed: number[] = [];
  const perEntry: number[] = [];
  for (let i = 0; i < 40; i++) {
    let t = performance.now();
    await run({ cmd: "/usr/bin/true" });
    bare.push(performance.now() - t);
    // The shell the bash tool starts in any case, for the sandbox's own share of the cost.
    t = performance.now();
    await run({ cmd: "/bin/bash", args: ["-c", "true"] });
    bareShell.push(performance.now() - t);
    t = performance.now();
    await runSandboxed({ profile, command: "true" });
    boxed.push(performance.now() - t);
    t = performance.now();
    const old = prepareSandboxed(profile, "true", { etcView: false }); // what runSandboxed did
    await run({ cmd: "/usr/bin/bwrap", args: old.args, env: old.env, stdin: old.stdin });
    perEntry.push(performance.now() - t);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(
    `median over 40 interleaved runs: bare ${med(bare).toFixed(1)} ms, sandboxed ${
      med(boxed).toFixed(1)
    } ms, overhead +${(med(boxed) - med(bare)).toFixed(1)} ms; with the 31 per-entry /etc binds ${
      med(perEntry).toFixed(1)
    } ms (+${(med(perEntry) - med(bare)).toFixed(1)} ms); bare \`bash -c true\` ${
      med(bareShell).toFixed(1)
    } ms (the sandbox alone: +${(med(boxed) - med(bareShell)).toFixed(1)} ms)`,
  );
}

Deno.bench({
  name: "bare /usr/bin/true (exec.ts run)",
  group: "per-command",
  baseline: true,
  fn: async () => {
    await run({ cmd: "/usr/bin/true" });
  },
});

Deno.bench({
  name: "sandboxed `true` (runSandboxed: bwrap + seccomp + prelude)",
  group: "per-command",
  fn: async () => {
    const r = await runSandboxed({ profile, command: "true" });
    if (r.code !== 0) throw new Error(r.stderr);
  },
});

Deno.bench({
  name: "sandboxed `true`, --network (no new netns)",
  group: "per-command",
  fn: async () => {
    await runSandboxed({ profile: { ...profile, network: true }, command: "true" });
  },
});

Deno.bench({
  name: "bwrap profile without seccomp, exec /usr/bin/true directly",
  group: "per-command",
  fn: async () => {
    const args = prepareSandboxed(profile, "true").args;
    const i = args.indexOf("--seccomp");
    args.splice(i, 2);
    args.splice(args.indexOf("--") + 1, Infinity, "/usr/bin/true");
    await run({ cmd: "/usr/bin/bwrap", args });
  },
});

Deno.bench({
  name: "build argv + seccomp filter (pure)",
  group: "pure",
  fn: () => {
    buildBwrapArgs(profile, ["/bin/bash", "-c", "true"]);
    buildSeccompFilter("x86_64", { network: false });
  },
});

Deno.bench({
  name: "etc view: fingerprint check, nothing changed (ensureEtcView)",
  group: "etc view",
  fn: () => {
    ensureEtcView();
  },
});

const viewRoots = Deno.makeTempDirSync({ prefix: "retie-etc-bench-" });
let rebuilds = 0;
Deno.bench({
  name: "etc view: rebuild into an empty cache (walk + copy + rename)",
  group: "etc view",
  n: 20,
  warmup: 2,
  fn: () => {
    buildEtcView({ root: `${viewRoots}/${rebuilds++}` });
  },
});

globalThis.addEventListener("unload", () => {
  for (const d of [ws, viewRoots]) {
    try {
      Deno.removeSync(d, { recursive: true });
    } catch { /* best effort */ }
  }
});
