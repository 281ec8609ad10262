/**
 * How the person started retie, so every hint it prints is a command that works as printed:
 * `deno task -q retie …` from a checkout, the binary's path, `deno run -A jsr:@retie/cli@V …`, or
 * `deno run -A /path/to/main.ts …` (which narrows itself).
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { startedByTask } from "./workspace.ts";

/** What {@link invocation} looks at; injectable for tests. */
export interface InvocationFacts {
  mainModule: string;
  execPath: string;
  standalone: boolean;
  /** The checkout `deno task` ran retie from, if it did. */
  taskCheckout?: string;
  /** The person's working directory. */
  cwd: string;
}

function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command prefix that runs this retie again (`task` picks the `deno task` to name: `retie`
 * or `demo`).
 *
 * @example
 * ```ts
 * import { invocation } from "./invocation.ts";
 * invocation({
 *   mainModule: "https://jsr.io/@retie/cli/0.1.0/main.ts", execPath: "/usr/bin/deno",
 *   standalone: false, cwd: "/home/me",
 * }); // "deno run -A jsr:@retie/cli@0.1.0"
 * ```
 */
export function invocation(f: InvocationFacts, task: "retie" | "demo" = "retie"): string {
  if (f.standalone) return quote(f.execPath);
  if (f.taskCheckout) {
    const rel = relative(f.taskCheckout, f.cwd);
    const inside = rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
    const config = inside ? "" : ` --config ${quote(join(f.taskCheckout, "deno.json"))}`;
    return `deno task -q${config} ${task}`;
  }
  const jsr = /^https:\/\/jsr\.io\/(@[^/]+\/[^/]+)\/([^/]+)\//.exec(f.mainModule);
  if (jsr) return `deno run -A jsr:${jsr[1]}@${jsr[2]}${task === "demo" ? " demo" : ""}`;
  if (f.mainModule.startsWith("jsr:")) {
    return `deno run -A ${f.mainModule.replace(/\/main\.ts$/, "")}${
      task === "demo" ? " demo" : ""
    }`;
  }
  if (f.mainModule.startsWith("file:")) {
    const main = join(dirname(fileURLToPath(f.mainModule)), "main.ts");
    return `deno run -A ${quote(main)}${task === "demo" ? " demo" : ""}`;
  }
  return task === "demo" ? "retie demo" : "retie";
}

/**
 * {@link invocation} for this process.
 *
 * @example
 * ```ts ignore
 * import { thisInvocation } from "./invocation.ts";
 * console.log(`replay it: ${thisInvocation()} replay --last`);
 * ```
 */
export function thisInvocation(task: "retie" | "demo" = "retie"): string {
  return invocation({
    mainModule: Deno.mainModule,
    execPath: Deno.execPath(),
    standalone: Deno.build.standalone,
    taskCheckout: startedByTask(),
    cwd: Deno.cwd(),
  }, task);
}
