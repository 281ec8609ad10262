/**
 * Per-command sandbox overhead: `true` inside the full confined profile (namespaces, mounts, our
 * seccomp filter over stdin, the fd-closing prelude) against `true` started bare, both from Deno.
 * Goal: ≤ +15 ms median. Run: `deno bench --allow-all bench/sandbox_bench.ts`.
 */
import { run } from "../src/exec.ts";
import { prepareSandboxed, runSandboxed } from "../src/sandbox/run.ts";
import { buildSeccompFilter } from "../src/sandbox/seccomp.ts";
import { buildBwrapArgs } from "../src/sandbox/bwrap_args.ts";

const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-sbx-bench-" }));
const profile = { workspace: ws, network: false, readOnly: [], hidden: [], confined: true };

// Deno.bench reports mean and percentiles but no median; the goal is stated as a median, so
// measure it directly first (interleaved, so load swings hit both alike).
{
  const bare: number[] = [];
  const boxed: number[] = [];
  for (let i = 0; i < 40; i++) {
    let t = performance.now();
    await run({ cmd: "/usr/bin/true" });
    bare.push(performance.now() - t);
    t = performance.now();
    await runSandboxed({ profile, command: "true" });
    boxed.push(performance.now() - t);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(
    `median over 40 interleaved runs: bare ${med(bare).toFixed(1)} ms, sandboxed ${
      med(boxed).toFixed(1)
    } ms, overhead +${(med(boxed) - med(bare)).toFixed(1)} ms`,
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

globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(ws, { recursive: true });
  } catch { /* best effort */ }
});
