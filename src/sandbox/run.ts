/**
 * Runs one shell command in the sandbox: bwrap with the profile's mounts, our seccomp filter over
 * stdin, a scratch environment, a timeout and output caps. The only process retie starts is
 * `/usr/bin/bwrap`, through `src/exec.ts`.
 *
 * @module
 */
import { overlaps } from "../core/paths.ts";
import { run, type RunResult } from "../exec.ts";
import { type OverlayRunInfo, runOverlay } from "./overlay_run.ts";
import { basename, dirname, join } from "node:path";
import { errorMessage, RetieError } from "../core/errors.ts";
import { cacheDir } from "../core/dirs.ts";
import {
  buildBwrapArgs,
  type BwrapArgs,
  type HostLayout,
  sandboxEnv,
  type SandboxProfile,
} from "./bwrap_args.ts";
import { buildSeccompFilter, hostSeccompArch } from "./seccomp.ts";
import { BWRAP_PATH } from "./check.ts";
import { ensureEtcView } from "./etc_view.ts";

export type { SandboxProfile } from "./bwrap_args.ts";

/** Options for {@link runSandboxed}. */
export interface SandboxRunOptions {
  profile: SandboxProfile;
  /** Run as `/bin/bash -c command` (`/bin/sh` when bash is missing). */
  command: string;
  timeoutMs?: number;
  /** Cap per stream; the rest is dropped and a marker says how much. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  onStdout?: (c: Uint8Array) => void;
  onStderr?: (c: Uint8Array) => void;
  /**
   * Run over a copy-on-write view whose layers live in this stage directory (`overlay_run.ts`):
   * the workspace is not written; what the command changed is left in the stage.
   */
  stageDir?: string;
}

/** What {@link runSandboxed} returns. */
export interface SandboxRunResult {
  /** Exit code of the command; 128+N when killed by signal N. */
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** True when either stream hit the cap. */
  truncated: boolean;
  /** For a staged run: whether the overlay was mounted (if not, the command did not run). */
  overlay?: OverlayRunInfo;
}

/** A complete bwrap invocation: its arguments, the seccomp filter for fd 0, the environment. */
export interface PreparedSandbox {
  args: BwrapArgs;
  /** The seccomp filter bwrap reads from fd 0 (absent for the unconfined profile). */
  stdin?: Uint8Array;
  env: Record<string, string>;
}

const SYSTEM_TOP = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * The host's system layout: which of /bin, /lib… are symlinks into /usr and which are directories.
 *
 * @example
 * ```ts
 * import { detectHostLayout } from "./run.ts";
 * detectHostLayout().symlinks["/bin"]; // "usr/bin" on merged-/usr systems
 * ```
 */
export function detectHostLayout(): HostLayout {
  const layout: HostLayout = { symlinks: {}, dirs: ["/usr"] };
  for (const p of SYSTEM_TOP) {
    try {
      const st = Deno.lstatSync(p);
      if (st.isSymlink) layout.symlinks[p] = Deno.readLinkSync(p);
      else if (st.isDirectory) layout.dirs.push(p);
    } catch { /* absent */ }
  }
  return layout;
}

/** Real uid/gid of this process from /proc (Deno.uid() would need --allow-sys).
 *
 * @example
 * ```ts
 * import { processIds } from "./run.ts";
 * processIds().uid; // 0 when retie runs as root
 * ```
 */
export function processIds(): { uid: number; gid: number } {
  try {
    const s = Deno.readTextFileSync("/proc/self/status");
    const uid = Number(/^Uid:\s+(\d+)/m.exec(s)?.[1] ?? "1000");
    const gid = Number(/^Gid:\s+(\d+)/m.exec(s)?.[1] ?? "1000");
    return { uid, gid };
  } catch {
    return { uid: 1000, gid: 1000 };
  }
}

/**
 * Runs before the user's command, in the sandboxed shell:
 * - bwrap closes fd 0 after reading the seccomp filter from it: give the command /dev/null;
 * - descriptors retie inherited without CLOEXEC from whatever started it (Deno's own are CLOEXEC)
 *   would leak into the sandbox: close every fd above 2.
 */
export const COMMAND_PRELUDE = "exec </dev/null; for __r in /proc/self/fd/*; do __r=${__r##*/}; " +
  'case $__r in 0|1|2) ;; *) eval "exec $__r>&-" 2>/dev/null ;; esac; done; unset __r';

let host: { ids: { uid: number; gid: number }; shell: string; layout: HostLayout } | undefined;

/** The shell sandboxed commands run in: bash when the host has it. */
export function shellPath(): string {
  try {
    if (Deno.statSync("/bin/bash").isFile) return "/bin/bash";
  } catch { /* fall back */ }
  return "/bin/sh";
}

/** The caller's TERM, if readable. */
export function safeTerm(): string | undefined {
  try {
    return Deno.env.get("TERM");
  } catch {
    return undefined;
  }
}

/**
 * The prepared /etc copy to bind, or undefined for the per-entry binds: when the cache cannot be
 * written (read-only home, full disk) the command still runs, with the same /etc one mount at a
 * time. A view reachable through the workspace (a cache dir inside it) is never used: the command
 * could write it, and so every later sandbox's /etc.
 */
export function etcViewFor(workspace: string): string | undefined {
  try {
    const root = join(cacheDir(), "sandbox-etc");
    if (overlaps(resolvedPath(root), workspace)) return undefined; // and build nothing there
    const view = Deno.realPathSync(ensureEtcView({ root }));
    return overlaps(view, workspace) ? undefined : view;
  } catch {
    return undefined;
  }
}

function exists(p: string): boolean {
  try {
    Deno.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** The real path of `p`, or of its deepest existing ancestor with the rest appended. */
function resolvedPath(p: string): string {
  const rest: string[] = [];
  for (let d = p;; d = dirname(d)) {
    try {
      return join(Deno.realPathSync(d), ...rest);
    } catch {
      if (d === dirname(d)) return p;
      rest.unshift(basename(d));
    }
  }
}

/**
 * The full bwrap invocation for a profile and a shell command, plus the seccomp bytes to pass on
 * stdin (absent for the unconfined profile). Exposed so tests and `retie sandbox` see the same.
 * `opts.etcView`: a prepared /etc copy to bind, `false` for the per-entry /etc binds, or (default)
 * the one `ensureEtcView()` keeps in retie's cache.
 *
 * @example
 * ```ts
 * import { prepareSandboxed } from "./run.ts";
 * const profile = { workspace: Deno.cwd(), network: false, readOnly: [], hidden: [], confined: true };
 * const p = prepareSandboxed(profile, "ls");
 * p.args.at(-1); // the command, after "exec </dev/null"
 * const old = prepareSandboxed(profile, "ls", { etcView: false });
 * old.args.includes("/etc/passwd"); // true: one bind per allowlisted /etc entry
 * ```
 */
export function prepareSandboxed(
  profile: SandboxProfile,
  command: string,
  opts: { etcView?: string | false } = {},
): PreparedSandbox {
  let workspace: string;
  try {
    workspace = Deno.realPathSync(profile.workspace);
    if (!Deno.statSync(workspace).isDirectory) throw new Error("not a directory");
  } catch (e) {
    throw new RetieError(`sandbox workspace (${profile.workspace}): ${errorMessage(e)}`, {
      hint: "pass an existing directory as the workspace",
      exitCode: 2,
    });
  }
  const hiddenFiles = new Set<string>();
  const hidden = profile.hidden.filter((p) => {
    try {
      if (!Deno.lstatSync(p).isDirectory) hiddenFiles.add(p);
      return true;
    } catch {
      return false; // nothing there to hide
    }
  });
  // Reserved directories are covered whether or not they exist: bwrap creates an absent one as
  // the mount point (runSandboxed removes it again when it is still empty).
  for (const r of profile.reserved ?? []) {
    // A read-only workspace cannot hold a mount point bwrap makes, nor let a command make one.
    if (profile.workspaceReadOnly && !exists(r)) continue;
    if (!hidden.includes(r)) hidden.push(r);
    hiddenFiles.delete(r);
  }
  // Facts of the host and of this process: looked up once (about 0.4 ms a command otherwise).
  host ??= { ids: processIds(), shell: shellPath(), layout: detectHostLayout() };
  const ids = host.ids;
  const argv = [host.shell, "-c", `${COMMAND_PRELUDE}\n${command}`];
  const p = { ...profile, workspace, hidden };
  const etcView = !profile.confined || opts.etcView === false
    ? undefined
    : opts.etcView ?? etcViewFor(workspace);
  const args = buildBwrapArgs(p, argv, {
    layout: host.layout,
    uid: ids.uid,
    gid: ids.gid,
    hiddenFiles,
    etcView,
    // The filter goes in on stdin (fd 0); the prelude gives the command /dev/null instead.
    seccompFd: profile.confined ? 0 : undefined,
  });
  const env = sandboxEnv(safeTerm());
  if (!profile.confined) return { args, env };
  return {
    args,
    stdin: buildSeccompFilter(hostSeccompArch(), { network: profile.network }),
    env,
  };
}

/**
 * Runs `command` in the sandbox described by `profile`.
 *
 * @example
 * ```ts
 * import { runSandboxed } from "./run.ts";
 * const r = await runSandboxed({
 *   profile: { workspace: Deno.cwd(), network: false, readOnly: [], hidden: [], confined: true },
 *   command: "ls -la",
 *   timeoutMs: 30_000,
 * });
 * console.log(r.code, r.stdout);
 * ```
 */
export async function runSandboxed(opts: SandboxRunOptions): Promise<SandboxRunResult> {
  // Reserved paths (the workspace's .retie/) are covered whether or not they exist; bwrap makes a
  // mount point for an absent one, which is removed again afterwards.
  const absent = (opts.profile.workspaceReadOnly ? [] : opts.profile.reserved ?? []).filter((p) =>
    !exists(p)
  );
  try {
    if (opts.stageDir !== undefined) {
      // On a copy-on-write view, bwrap would make the mount point in the view's upper layer (a
      // change of the command's, to a protected path): make it in the workspace first instead.
      for (const p of absent) {
        try {
          Deno.mkdirSync(p);
        } catch { /* made meanwhile, or its parent is gone: bwrap reports what matters */ }
      }
      const { r, overlay } = await runOverlay({ ...opts, stageDir: opts.stageDir });
      return { ...result(r), overlay };
    }
    return result(await runPrepared(prepareSandboxed(opts.profile, opts.command), opts));
  } finally {
    for (const p of absent) {
      try {
        Deno.removeSync(p); // only an empty directory: the mount point bwrap made
      } catch { /* not there, or not empty: nothing of ours to remove */ }
    }
  }
}

/**
 * Starts bwrap with a prepared invocation (its filter on fd 0) under the run options' timeout,
 * output cap, cancellation and stream callbacks.
 *
 * @example
 * ```ts
 * import { prepareSandboxed, runPrepared } from "./run.ts";
 * const profile = { workspace: Deno.cwd(), network: false, readOnly: [], hidden: [], confined: true };
 * // const r = await runPrepared(prepareSandboxed(profile, "true"), { timeoutMs: 10_000 });
 * ```
 */
export function runPrepared(
  prep: PreparedSandbox,
  opts: Omit<SandboxRunOptions, "profile" | "command" | "stageDir">,
): Promise<RunResult> {
  return run({
    cmd: BWRAP_PATH,
    args: prep.args,
    env: prep.env,
    stdin: prep.stdin,
    timeoutMs: opts.timeoutMs,
    maxOutputBytes: opts.maxOutputBytes,
    signal: opts.signal,
    onStdout: opts.onStdout,
    onStderr: opts.onStderr,
  });
}

function result(r: RunResult): SandboxRunResult {
  const dec = new TextDecoder();
  return {
    code: r.code,
    stdout: dec.decode(r.stdout),
    stderr: dec.decode(r.stderr),
    timedOut: r.timedOut,
    aborted: r.aborted,
    durationMs: r.durationMs,
    truncated: r.droppedStdout > 0 || r.droppedStderr > 0,
  };
}
