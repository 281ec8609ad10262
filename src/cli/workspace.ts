/**
 * Where retie works: the directory the person ran it from, and a question before a workspace so
 * broad that "only the workspace is writable" stops meaning anything (`/`, `$HOME`, …).
 *
 * @module
 */
import { dirname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { RetieError } from "../core/errors.ts";
import { c } from "../ui/color.ts";
import { isWithin } from "../core/paths.ts";

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

function real(p: string): string | undefined {
  try {
    return Deno.realPathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The directory to work from when retie was started from its source checkout by `deno task`:
 * `deno task` runs every task in the folder holding deno.json and leaves the person's directory in
 * `INIT_CWD`. Anywhere else (an installed `retie`, a binary, a JSR run, a task of the person's own
 * project) the working directory already is theirs, and this returns undefined.
 *
 * @example
 * ```ts
 * import { invocationDir } from "./workspace.ts";
 * invocationDir("file:///src/retie/main.ts", "/src/retie", "/home/me/proj"); // "/home/me/proj"
 * invocationDir("https://jsr.io/@retie/cli/0.1.0/main.ts", "/x", "/y"); // undefined
 * ```
 */
export function invocationDir(
  mainModule: string,
  cwd: string,
  initCwd: string | undefined,
): string | undefined {
  if (!initCwd || !mainModule.startsWith("file:")) return undefined;
  const checkout = dirname(fileURLToPath(mainModule));
  const here = real(cwd) ?? cwd;
  if (here !== (real(checkout) ?? checkout)) return undefined;
  const there = real(initCwd);
  return there && there !== here ? there : undefined;
}

/**
 * Moves into the person's directory when `deno task` moved retie out of it (see
 * {@link invocationDir}), so `retie run`, relative paths and every "current directory" default
 * mean the directory they ran it from.
 *
 * @example
 * ```ts ignore
 * import { enterInvocationDir } from "./workspace.ts";
 * enterInvocationDir(Deno.mainModule);
 * ```
 */
export function enterInvocationDir(mainModule: string): void {
  const init = readEnv("INIT_CWD");
  const cwd = Deno.cwd();
  if (init && mainModule.startsWith("file:")) {
    const checkout = dirname(fileURLToPath(mainModule));
    if ((real(cwd) ?? cwd) === (real(checkout) ?? checkout)) taskCheckout = checkout;
  }
  const dir = invocationDir(mainModule, cwd, init);
  if (dir) Deno.chdir(dir);
}

let taskCheckout: string | undefined;

/**
 * The source checkout when this retie was started by `deno task` in it (so `deno task -q retie`
 * is how the person runs it), else undefined.
 *
 * @example
 * ```ts
 * import { startedByTask } from "./workspace.ts";
 * startedByTask(); // undefined unless enterInvocationDir saw a deno task start
 * ```
 */
export function startedByTask(): string | undefined {
  return taskCheckout;
}

/**
 * Why `dir` (a real path) is too broad to be a workspace, or undefined when it is not: the root,
 * a directory right under it (`/etc`, `/usr`, `/tmp`, `/home`), your home directory or a folder
 * holding it, or a configuration folder directly in your home (`~/.ssh`, `~/.config`).
 *
 * @example
 * ```ts
 * import { broadWorkspace } from "./workspace.ts";
 * broadWorkspace("/", "/home/me"); // "the whole file system"
 * broadWorkspace("/home/me/proj", "/home/me"); // undefined
 * ```
 */
export function broadWorkspace(dir: string, home: string | undefined): string | undefined {
  const d = resolve(dir);
  if (d === sep || d === "/") return "the whole file system";
  const h = home ? resolve(home) : undefined;
  if (h && d === h) return "your whole home directory";
  if (h && isWithin(h, d)) return "a folder that holds your home directory";
  const parts = d.split("/").filter(Boolean);
  if (parts.length === 1) return `a top-level system directory (${d})`;
  if (h && dirname(d) === h && parts[parts.length - 1].startsWith(".")) {
    return "a configuration folder of your home directory";
  }
  return undefined;
}

/** How the person can answer, for {@link confirmWorkspace}. */
export interface ConfirmOptions {
  headless: boolean;
  yes: boolean;
  /** Asks a yes/no question at the terminal; undefined when nobody can answer. */
  ask?: (question: string) => Promise<boolean>;
  /** How to name another directory with this command (default: `retie run ./my-project`). */
  instead?: string;
}

/**
 * Lets a broad workspace through only when someone agreed: `--yes`, or a yes at the terminal.
 * Headless, or without a terminal, it refuses.
 *
 * @example
 * ```ts
 * import { confirmWorkspace } from "./workspace.ts";
 * await confirmWorkspace("/home/me/proj", { headless: true, yes: false }); // fine: not broad
 * ```
 */
export async function confirmWorkspace(dir: string, o: ConfirmOptions): Promise<void> {
  const why = broadWorkspace(dir, readEnv("HOME"));
  if (!why) return;
  const what = `${dir} is ${why}: as the workspace, every file in it is readable and writable ` +
    "by what retie runs";
  const instead = o.instead ?? "retie run ./my-project";
  if (o.yes) {
    console.error(c.bold(c.yellow(`warning: ${what} (accepted with --yes)`)));
    return;
  }
  if (!o.headless && o.ask) {
    if (await o.ask(`${what}. Use it anyway?`)) return;
    throw new RetieError(`not using ${dir} as the workspace`, {
      hint: `run retie in your project's directory, or name it: ${instead}`,
      exitCode: 2,
    });
  }
  throw new RetieError(`refusing to use ${dir} as the workspace: ${what}`, {
    hint: `name a project directory (${instead}), or pass --yes to use it anyway`,
    exitCode: 2,
  });
}
