/**
 * What self-narrowing costs at start-up: `retie --version` started under retie's own flags (no
 * re-exec) against the same started with `-A` (it re-executes itself under the flags once).
 * Goal: ≤ 150 ms median added. Run: `deno bench --allow-all bench/reexec_bench.ts`.
 *
 * Both start a fresh Deno process; the difference is the second process and the permission
 * probes. Measured interleaved, so load swings hit both alike; the median is printed first
 * (Deno.bench reports means and percentiles, not medians).
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { run } from "../src/exec.ts";
import { profileFlags } from "../src/core/permission_flags.ts";

const main = fromFileUrl(new URL("../main.ts", import.meta.url));
const env = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  HOME: Deno.env.get("HOME") ?? "/root",
  ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
};
const confined = ["run", ...profileFlags("retie"), main, "--version"];
const allowAll = ["run", "-A", main, "--version"];

async function once(args: string[]): Promise<number> {
  const t = performance.now();
  const r = await run({ cmd: Deno.execPath(), args, env, timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(new TextDecoder().decode(r.stderr));
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
{
  await once(confined); // warm the module cache
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 15; i++) {
    a.push(await once(confined));
    b.push(await once(allowAll));
  }
  console.log(
    `retie --version: under its flags ${median(a).toFixed(0)} ms, with -A (re-exec) ${
      median(b).toFixed(0)
    } ms median: re-exec adds ${(median(b) - median(a)).toFixed(0)} ms`,
  );
}

Deno.bench(
  "start under retie's flags (no re-exec)",
  { group: "start", baseline: true },
  async () => {
    await once(confined);
  },
);
Deno.bench("start with -A (re-exec under the flags)", { group: "start" }, async () => {
  await once(allowAll);
});
