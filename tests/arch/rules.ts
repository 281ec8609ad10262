/**
 * The architecture rules, as data, and a checker that any tree can be run through (the real one,
 * and a fixture with planted violations that proves the checker can fail).
 */
import { dirname, join, relative, resolve } from "node:path";

/** Which src folders each src folder may import from (besides itself). */
export const ALLOWED: Record<string, string[]> = {
  core: [],
  "exec.ts": [],
  "version.ts": [],
  ledger: ["core", "version.ts"],
  snapshot: ["core", "version.ts"],
  sandbox: ["core", "snapshot", "exec.ts", "version.ts"],
  net: ["core", "version.ts"],
  inspect: ["core"],
  tools: ["core", "sandbox", "net", "inspect", "version.ts"],
  mcp: ["core", "sandbox", "net", "version.ts"],
  plane: ["core", "inspect", "ledger", "version.ts"],
  providers: ["core", "version.ts"],
  models: ["core", "providers", "version.ts"],
  // The renderer subscribes to the loop's events: it knows their types (agent, providers).
  ui: ["core", "plane", "ledger", "inspect", "agent", "providers", "version.ts"],
  config: ["core"],
  agent: [
    "core",
    "plane",
    "ledger",
    "tools",
    "providers",
    "models",
    "net",
    "inspect",
    "sandbox",
    "snapshot",
    "mcp",
    "config",
    "version.ts",
  ],
  cli: ["*"],
};

/**
 * Folders whose way in is their `mod.ts`: code in another folder imports that file only (worker
 * entry points are loaded by URL, not imported).
 */
export const ENTRY_ONLY = new Set(["ledger", "snapshot", "models", "config"]);

/** Files that may start processes. */
export const SPAWN_ALLOWED = new Set(["src/exec.ts"]);

/** The only file that may call a tool handler: the guard. */
export const HANDLER_CALL_ALLOWED = new Set(["src/plane/guard.ts"]);
const HANDLER_CALL = /\.handler\s*\(/;

const SPAWN = /\bDeno\.Command\b|\bDeno\.run\s*\(|node:child_process|\bDeno\.spawn/;
const IMPORT =
  /(?:import|export)\s[^"'`]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

export interface Violation {
  file: string;
  problem: string;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) walk(p, out);
    else if (e.isFile && p.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The src folder (or top-level file) a path under src/ belongs to. */
function area(relToSrc: string): string {
  return relToSrc.split("/")[0];
}

/** Strips comments so an example in a doc comment does not count as code. */
function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'])\/\/.*$/gm, "$1");
}

/** Checks a repository tree (with `src/`, optional `main.ts`/`demo.ts`) against the rules. */
export function checkTree(root: string): Violation[] {
  const out: Violation[] = [];
  const src = join(root, "src");
  const files = walk(src);
  for (const top of ["main.ts", "demo.ts"]) {
    try {
      Deno.statSync(join(root, top));
      files.push(join(root, top));
    } catch { /* absent */ }
  }
  for (const file of files) {
    const rel = relative(root, file);
    const code = stripComments(Deno.readTextFileSync(file));
    if (SPAWN.test(code) && !SPAWN_ALLOWED.has(rel)) {
      out.push({ file: rel, problem: "starts a process outside src/exec.ts" });
    }
    if (
      HANDLER_CALL.test(code) && !HANDLER_CALL_ALLOWED.has(rel) && !rel.startsWith("src/tools/")
    ) {
      out.push({ file: rel, problem: "calls a tool handler outside the guard" });
    }
    if (!rel.startsWith("src/")) continue;
    const from = area(relative(src, file));
    const allowed = ALLOWED[from];
    if (!allowed) {
      out.push({
        file: rel,
        problem: `src/${from} is not a known folder in the architecture rules`,
      });
      continue;
    }
    for (const m of code.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      const relTarget = relative(src, target);
      if (relTarget.startsWith("..")) {
        out.push({ file: rel, problem: `imports ${spec}, outside src/` });
        continue;
      }
      const to = area(relTarget);
      if (to === from) continue;
      if (ENTRY_ONLY.has(to) && !relTarget.endsWith("/mod.ts")) {
        out.push({
          file: rel,
          problem: `imports ${spec}: src/${to} is entered through its mod.ts`,
        });
      }
      if (to === "cli") out.push({ file: rel, problem: `imports ${spec}: nothing may import cli` });
      else if (!allowed.includes("*") && !allowed.includes(to)) {
        out.push({ file: rel, problem: `imports ${spec}: ${from} may not depend on ${to}` });
      }
    }
  }
  return out;
}
