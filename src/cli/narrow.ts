/**
 * Self-narrowing start: retie never keeps a broader outer layer than its own permission flags.
 *
 * When the process holds more than the flags grant (`deno run -A jsr:@retie/cli`, or any grant
 * beyond them), retie re-executes itself once, through `src/exec.ts`, under exactly the flags
 * compiled into the program (`src/core/permission_flags.ts`), passing arguments, stdio, the exit
 * status and signals through. If that is impossible it refuses to start and says how to run it
 * confined; `--unconfined` runs anyway, with a banner and a note in the ledger.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { profileFlags, type ProfileName } from "../core/permission_flags.ts";
import {
  assess,
  denoQuery,
  describeBroader,
  type PermissionQuery,
  setOuterLayer,
} from "../core/outer_layer.ts";
import { runForeground } from "../exec.ts";
import { c } from "../ui/color.ts";
import { errorMessage } from "../core/errors.ts";

const FORWARD: Deno.Signal[] = ["SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"];

/** The variable a narrowed child finds set: what its parent held beyond the flags. */
export const NARROWED_ENV = "RETIE_NARROWED";

/** What {@link planStart} decided. */
export type StartPlan =
  | { action: "run"; status: "confined" | "narrowed"; profile: ProfileName; from?: string }
  | { action: "unconfined"; from: string }
  | { action: "reexec"; cmd: string; args: string[]; profile: ProfileName; from: string }
  | { action: "refuse"; message: string };

/** Everything {@link planStart} looks at; all of it injectable for tests. */
export interface StartInput {
  /** The program's arguments (`Deno.args`). */
  args: readonly string[];
  /** `Deno.mainModule` (`file:`, `https:` or `jsr:` can be run again). */
  mainModule: string;
  /** `Deno.execPath()`. */
  execPath: string;
  /** `Deno.build.standalone`: a `deno compile` binary cannot re-run itself under other flags. */
  standalone: boolean;
  /** Answers a permission probe. */
  query: PermissionQuery;
  /** The value of `RETIE_NARROWED`, set when this process is the narrowed child. */
  narrowed?: string;
  /** A deno.json next to a local main module, passed on so bare imports resolve the same way. */
  configPath?: string;
}

/**
 * The subcommand named in `args` (the first word that is not a global option).
 *
 * @example
 * ```ts
 * import { commandName } from "./narrow.ts";
 * commandName(["--ledger", "x.db", "verify"]); // "verify"
 * ```
 */
export function commandName(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return undefined;
    if (a === "--ledger") {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    return a;
  }
  return undefined;
}

/**
 * True when `--unconfined` is among retie's own options (before any `--`).
 *
 * @example
 * ```ts
 * import { wantsUnconfined } from "./narrow.ts";
 * wantsUnconfined(["sandbox", "--", "cmd", "--unconfined"]); // false
 * ```
 */
export function wantsUnconfined(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).includes("--unconfined");
}

const LOOPBACK_URL = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i;

/**
 * The profile a narrowed retie runs under: `demo` for the demo, `local` when the command line
 * names a model server on loopback (`--base-url http://localhost:11434/v1`), else the shipped
 * `retie` profile.
 *
 * @example
 * ```ts
 * import { targetProfile } from "./narrow.ts";
 * targetProfile(["run", "--base-url", "http://127.0.0.1:11434/v1"], "file:///r/main.ts"); // "local"
 * ```
 */
export function targetProfile(args: readonly string[], mainModule: string): ProfileName {
  if (commandName(args) === "demo" || /\/demo\.ts$/.test(mainModule)) return "demo";
  const end = args.indexOf("--");
  const own = end < 0 ? args : args.slice(0, end);
  if (own.some((a) => LOOPBACK_URL.test(a.replace(/^--base-url=/, "")))) return "local";
  return "retie";
}

/** The profiles a process may hold and still count as confined, strictest first. */
function acceptable(args: readonly string[], mainModule: string): ProfileName[] {
  return targetProfile(args, mainModule) === "demo"
    ? ["retie", "local", "demo"]
    : ["retie", "local"];
}

/** The hosts Deno lets any program import from without `--allow-import`. */
const DEFAULT_IMPORT_HOSTS = [
  "deno.land:443",
  "jsr.io:443",
  "esm.sh:443",
  "cdn.jsdelivr.net:443",
  "raw.githubusercontent.com:443",
  "gist.githubusercontent.com:443",
];

/**
 * The command line that runs `mainModule` under `profile`: `deno run <flags> [--config] main`.
 * A main module served from a host outside Deno's default import list may be imported from that
 * host again (and only from it, besides the defaults).
 *
 * @example
 * ```ts
 * import { confinedCommand } from "./narrow.ts";
 * confinedCommand("retie", "file:///r/main.ts").at(-1); // "/r/main.ts"
 * ```
 */
export function confinedCommand(
  profile: ProfileName,
  mainModule: string,
  configPath?: string,
): string[] {
  const main = mainModule.startsWith("file:") ? fileURLToPath(mainModule) : mainModule;
  const imports: string[] = [];
  if (/^https?:/.test(mainModule)) {
    const u = new URL(mainModule);
    const host = `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
    if (!DEFAULT_IMPORT_HOSTS.includes(host)) {
      imports.push(`--allow-import=${[host, ...DEFAULT_IMPORT_HOSTS].join(",")}`);
    }
  }
  return [
    "run",
    ...profileFlags(profile),
    ...imports,
    ...(configPath ? ["--config", configPath] : []),
    main,
  ];
}

/**
 * Decides how to start: run as is, re-execute under the flags, run unconfined, or refuse.
 *
 * @example
 * ```ts
 * import { planStart } from "./narrow.ts";
 * const p = planStart({
 *   args: ["doctor"], mainModule: "file:///r/main.ts", execPath: "/usr/bin/deno",
 *   standalone: false, query: () => true, // -A
 * });
 * p.action; // "reexec"
 * ```
 */
export function planStart(i: StartInput): StartPlan {
  for (const profile of acceptable(i.args, i.mainModule)) {
    if (assess(profileFlags(profile), i.query).broader.length === 0) {
      return i.narrowed !== undefined
        ? { action: "run", status: "narrowed", profile, from: i.narrowed }
        : { action: "run", status: "confined", profile };
    }
  }
  const profile = targetProfile(i.args, i.mainModule);
  const from = describeBroader(assess(profileFlags(profile), i.query));
  if (wantsUnconfined(i.args)) return { action: "unconfined", from };
  const howTo = (): string => {
    const cmd = confinedCommand(profile, i.mainModule, i.configPath);
    return `Run it confined: deno ${shellLine(cmd)} …` +
      " — or pass --unconfined to run anyway (announced, and noted in the ledger)";
  };
  if (i.narrowed !== undefined) {
    return {
      action: "refuse",
      message: `re-executed under its own permission flags but still holds ${from}; ` +
        `refusing to start. ${howTo()}`,
    };
  }
  if (i.standalone) {
    return {
      action: "refuse",
      message: `this retie binary holds ${from}, more than the flags it was built with, and ` +
        "cannot re-run itself under other flags; refusing to start. Rebuild it with " +
        "`deno task compile` (which bakes in retie's flags), or pass --unconfined to run anyway",
    };
  }
  if (!/^(file|https?|jsr):/.test(i.mainModule)) {
    return {
      action: "refuse",
      message: `holds ${from} and cannot re-run ${i.mainModule} under its own flags; ` +
        `refusing to start. ${howTo()}`,
    };
  }
  return {
    action: "reexec",
    cmd: i.execPath,
    args: [...confinedCommand(profile, i.mainModule, i.configPath), ...i.args],
    profile,
    from,
  };
}

/**
 * Words as a POSIX shell line: anything beyond plain characters single-quoted.
 *
 * @example
 * ```ts
 * import { shellLine } from "./narrow.ts";
 * shellLine(["--deny-net=[::1]", "main.ts"]); // "'--deny-net=[::1]' main.ts"
 * ```
 */
export function shellLine(words: readonly string[]): string {
  return words.map((w) => /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)
    .join(" ");
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

function localConfig(mainModule: string): string | undefined {
  if (!mainModule.startsWith("file:")) return undefined;
  const p = join(dirname(fileURLToPath(mainModule)), "deno.json");
  try {
    return Deno.statSync(p).isFile ? p : undefined;
  } catch {
    return undefined;
  }
}

function stdinIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

/**
 * The banner `--unconfined` prints: a wall that is down says so.
 *
 * @example
 * ```ts
 * import { unconfinedBanner } from "./narrow.ts";
 * console.error(unconfinedBanner("all permissions (-A / --allow-all)"));
 * ```
 */
export function unconfinedBanner(from: string): string {
  return c.bold(c.red(
    `warning: --unconfined: retie runs with ${from}, beyond its own permission flags. The outer ` +
      "layer (what retie itself may run, read from the environment and reach on the network) is " +
      "not in force; the sandbox and the gate still are. Sessions note this in the ledger.",
  ));
}

/**
 * Starts retie confined: runs `body` here when the outer layer is at most retie's flags,
 * otherwise re-executes (or refuses, or runs unconfined with `--unconfined`). Returns the exit
 * code to end with.
 *
 * @example
 * ```ts ignore
 * import { startConfined } from "./narrow.ts";
 * Deno.exit(await startConfined(Deno.args, () => main(Deno.args)));
 * ```
 */
export async function startConfined(
  args: readonly string[],
  body: () => Promise<number>,
): Promise<number> {
  const plan = planStart({
    args,
    mainModule: Deno.mainModule,
    execPath: Deno.execPath(),
    standalone: Deno.build.standalone,
    query: denoQuery,
    narrowed: readEnv(NARROWED_ENV) || undefined,
    configPath: localConfig(Deno.mainModule),
  });
  switch (plan.action) {
    case "run":
      setOuterLayer({ status: plan.status, profile: plan.profile, from: plan.from });
      return await body();
    case "unconfined":
      setOuterLayer({ status: "unconfined", from: plan.from });
      console.error(unconfinedBanner(plan.from));
      return await body();
    case "refuse":
      console.error(`retie: ${plan.message}`);
      return 2;
    case "reexec": {
      const terminal = stdinIsTerminal();
      try {
        const r = await runForeground({
          cmd: plan.cmd,
          args: plan.args,
          addEnv: { [NARROWED_ENV]: plan.from },
          // A terminal's Ctrl-C reaches the child directly (same process group); passing it on
          // as well would deliver it twice. Without a terminal, a SIGINT was meant for retie.
          forward: terminal ? FORWARD : [...FORWARD, "SIGINT"],
          ignore: terminal ? ["SIGINT"] : [],
        });
        return r.code;
      } catch (e) {
        console.error(
          `retie: holds ${plan.from} and could not re-execute itself under its permission ` +
            `flags (${errorMessage(e)}); refusing to start. Run it confined: ` +
            `deno ${shellLine(plan.args)}`,
        );
        return 2;
      }
    }
  }
}
