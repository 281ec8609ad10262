/**
 * The cost of pinning hard-linked files read-only in the snapshot fallback, on a pnpm-style
 * layout: `FILES` workspace files, `LINKED` of them hard links to a store outside the workspace.
 * Measures the scan (`outsideLinks`) and a sandboxed `true` with 0, 1, 100, 500 and 1,000 files
 * bound read-only. Run: deno run -A bench/hard_links_bench.ts [FILES]
 */
import { join } from "node:path";
import { outsideLinks } from "../src/sandbox/hard_links.ts";
import { runSandboxed } from "../src/sandbox/run.ts";
import { workspaceSandbox } from "../src/sandbox/profile.ts";

const FILES = Number(Deno.args[0] ?? 16_000);
const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-bench-links-" }));
const ws = join(base, "app");
const store = join(base, "store");
Deno.mkdirSync(store);
// pnpm's own plain files beside the packages.
Deno.mkdirSync(join(ws, "node_modules", ".pnpm"), { recursive: true });
Deno.writeTextFileSync(join(ws, "node_modules", ".modules.yaml"), "layoutVersion: 5\n");
Deno.writeTextFileSync(join(ws, "node_modules", ".pnpm", "lock.yaml"), "lockfileVersion: 9\n");
for (let i = 0; i < FILES; i++) {
  const dir = join(ws, "node_modules", ".pnpm", `p${i % 400}`, "node_modules", `p${i % 400}`);
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(join(store, `f${i}`), `module.exports = ${i};\n`);
  Deno.linkSync(join(store, `f${i}`), join(dir, `f${i}.js`));
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const scans: number[] = [];
let found = 0;
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  found = outsideLinks(ws, []).paths.length;
  scans.push(performance.now() - t);
}
const mounts = outsideLinks(ws, []).mounts.length;
console.log(
  `scan of ${FILES} hard-linked files in 400 packages: median ${median(scans).toFixed(0)} ms ` +
    `(${found} files, ${mounts} mount(s))`,
);
const { profile } = workspaceSandbox(ws, { network: false, hide: [] });
const all = outsideLinks(ws, []).paths;
for (const n of [0, 1, 100, 500, 1_000]) {
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) {
    const p = { ...profile, readOnly: [...profile.readOnly, ...all.slice(0, n)] };
    const t = performance.now();
    const r = await runSandboxed({ profile: p, command: "true", timeoutMs: 60_000 });
    ms.push(performance.now() - t);
    if (r.code !== 0) throw new Error(`sandbox failed: ${r.stderr}`);
  }
  console.log(`sandboxed true with ${n} read-only files: median ${median(ms).toFixed(0)} ms`);
}
Deno.removeSync(base, { recursive: true });
