/**
 * A real web project for the undo benchmarks: a fixed dependency set (next, react, typescript,
 * eslint, jest, webpack, babel) installed by npm from the registry into a cache directory once,
 * then copied into a fresh git repository (sources committed, node_modules ignored) per run.
 *
 * Run alone to build the cache: `deno run -A bench/npm_project.ts`.
 */
import { join } from "node:path";
import { run } from "../src/exec.ts";

/** The fixed dependency set (exact versions, so every run installs the same tree). */
export const DEPENDENCIES: Record<string, string> = {
  "next": "14.2.5",
  "react": "18.3.1",
  "react-dom": "18.3.1",
  "typescript": "5.5.4",
  "eslint": "8.57.0",
  "jest": "29.7.0",
  "webpack": "5.93.0",
  "@babel/core": "7.24.9",
  "@babel/preset-env": "7.24.8",
  "babel-loader": "9.1.3",
};

function cacheRoot(): string {
  const home = Deno.env.get("HOME") ?? "/root";
  return join(home, ".cache", "retie-bench", "npm-project-v1");
}

async function sh(cmd: string, args: string[], cwd: string, timeoutMs = 900_000): Promise<void> {
  const r = await run({
    cmd,
    args,
    cwd,
    timeoutMs,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/root" },
  });
  if (r.code !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")}: exit ${r.code}\n${new TextDecoder().decode(r.stderr)}`,
    );
  }
}

/** The installed project in the cache (built on first use: a few minutes, needs the registry). */
export async function cachedProject(): Promise<string> {
  const dir = cacheRoot();
  try {
    Deno.statSync(join(dir, ".complete"));
    return dir;
  } catch { /* build it */ }
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      { name: "bench-app", version: "1.0.0", private: true, dependencies: DEPENDENCIES },
      null,
      2,
    ) + "\n",
  );
  for (let i = 0; i < 40; i++) {
    const p = join(dir, "src", `module_${i}.js`);
    Deno.mkdirSync(join(dir, "src"), { recursive: true });
    Deno.writeTextFileSync(p, `export const value${i} = ${i};\n`.repeat(20));
  }
  Deno.writeTextFileSync(join(dir, ".gitignore"), "node_modules/\n");
  await sh("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts"], dir);
  Deno.writeTextFileSync(join(dir, ".complete"), new Date().toISOString());
  return dir;
}

/** A fresh copy of the project as a git repository with one commit; returns its real path. */
export async function freshProject(
  opts: { hardLinks?: boolean } = {},
): Promise<{ ws: string; base: string; store: string }> {
  const src = await cachedProject();
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-npm-bench-" }));
  const ws = join(base, "app");
  // hardLinks: the pnpm layout — every dependency file a hard link into a store outside the
  // workspace (here the cache itself).
  await sh("cp", [opts.hardLinks ? "-al" : "-a", src, ws], base);
  if (opts.hardLinks) {
    // The sources are the project's own: plain copies, as pnpm leaves them.
    Deno.removeSync(join(ws, "src"), { recursive: true });
    await sh("cp", ["-a", join(src, "src"), join(ws, "src")], base);
    for (const f of ["package.json", ".gitignore"]) {
      Deno.removeSync(join(ws, f));
      Deno.copyFileSync(join(src, f), join(ws, f));
    }
  }
  Deno.removeSync(join(ws, ".complete"));
  await sh("git", ["init", "-q"], ws);
  await sh("git", ["add", "-A"], ws);
  await sh("git", ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init"], ws);
  return { ws, base, store: src };
}

/** Files and bytes below `dir`. */
export function treeSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const visit = (p: string) => {
    for (const e of Deno.readDirSync(p)) {
      const f = join(p, e.name);
      const st = Deno.lstatSync(f);
      if (st.isDirectory) visit(f);
      else {
        files++;
        bytes += st.size;
      }
    }
  };
  try {
    visit(dir);
  } catch { /* absent */ }
  return { files, bytes };
}

if (import.meta.main) {
  const t = performance.now();
  const dir = await cachedProject();
  const s = treeSize(join(dir, "node_modules"));
  console.log(
    `${dir}: node_modules ${s.files} files, ${(s.bytes / 2 ** 20).toFixed(0)} MiB (${
      ((performance.now() - t) / 1000).toFixed(1)
    } s)`,
  );
}
