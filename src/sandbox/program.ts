/**
 * A long-running program in the sandbox with a byte channel to retie: how a stdio MCP server runs.
 * Same namespaces, system-path allowlist, /etc view and seccomp filter as a shell command, started
 * the same way (bwrap is the one program retie may start; the filter arrives on bwrap's stdin,
 * which bwrap reads to its end). Because stdin is spent on the filter, the channel is a pair of
 * FIFOs in a private directory bound at {@link CHANNEL_DIR}:
 *
 * - inside, a prelude closes inherited descriptors above 2, makes `in` and `out` with `mkfifo`,
 *   opens them as its stdin and stdout and `exec`s the program with its arguments as given (no
 *   shell parses them);
 * - retie waits for the FIFOs, opens `in` for writing and `out` for reading, and from then on the
 *   program reads and writes its stdio as usual. Its stderr comes back through bwrap's.
 *
 * The directory is retie's (in its cache, never in the workspace), one per program, removed when
 * the program ends; no other sandbox can see it.
 *
 * @module
 */
import { join } from "node:path";
import { cacheDir } from "../core/dirs.ts";
import { RetieError } from "../core/errors.ts";
import { run } from "../exec.ts";
import { buildBwrapArgs, CHANNEL_DIR, sandboxEnv, type SandboxProfile } from "./bwrap_args.ts";
import { BWRAP_PATH } from "./check.ts";
import { detectHostLayout, etcViewFor, processIds, safeTerm, shellPath } from "./run.ts";
import { buildSeccompFilter, hostSeccompArch } from "./seccomp.ts";

/** Runs in the sandboxed shell before the program: descriptors, FIFOs, then `exec "$@"`. */
export const PROGRAM_PRELUDE = "exec </dev/null; for __r in /proc/self/fd/*; do __r=${__r##*/}; " +
  'case $__r in 0|1|2) ;; *) eval "exec $__r>&-" 2>/dev/null ;; esac; done; unset __r; ' +
  `mkfifo ${CHANNEL_DIR}/in ${CHANNEL_DIR}/out && exec <${CHANNEL_DIR}/in >${CHANNEL_DIR}/out ` +
  '&& exec "$@"';

/** What to run, and under which profile. */
export interface SandboxedProgram {
  profile: SandboxProfile;
  /** The program (a path inside the sandbox's view, or a name found on its PATH). */
  program: string;
  args: readonly string[];
  /** Variables added to the sandbox's minimal environment (PATH, HOME, LANG, TERM). */
  env?: Record<string, string>;
  /** How long the program may take to open its channel (ms). */
  startTimeoutMs?: number;
}

/** A running sandboxed program. */
export interface SandboxedChild {
  /** Writes bytes to the program's stdin. */
  write(bytes: Uint8Array): Promise<void>;
  /** The program's stdout. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** The last 8 KB of its stderr. */
  stderr(): string;
  /** Resolves with the exit code once bwrap has ended. */
  readonly exited: Promise<number>;
  /** Closes its stdin, gives it a second to leave, then kills everything it started. */
  kill(): Promise<void>;
}

/**
 * The bwrap arguments that run a program with its channel directory bound, and the seccomp
 * filter to write to bwrap's stdin.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { programArgs } from "./program.ts";
 * const { args, filter } = programArgs({
 *   profile: { workspace: "/tmp", network: false, readOnly: ["/tmp"], hidden: [], confined: true,
 *     channel: "/var/cache/retie-channel-1" },
 *   program: "node",
 *   args: ["server.js", "--flag"],
 * });
 * assert.ok(args.includes("/run/retie-channel"));
 * assert.deepEqual(args.slice(-4), ["mcp-server", "node", "server.js", "--flag"]);
 * assert.ok(filter.length > 0);
 * ```
 */
export function programArgs(p: SandboxedProgram): { args: string[]; filter: Uint8Array } {
  if (!p.profile.confined) throw new Error("sandboxed program: the profile must be confined");
  if (!p.profile.channel) throw new Error("sandboxed program: the profile needs a channel dir");
  const argv = [shellPath(), "-c", PROGRAM_PRELUDE, "mcp-server", p.program, ...p.args];
  const ids = processIds();
  const args = buildBwrapArgs(p.profile, argv, {
    layout: detectHostLayout(),
    uid: ids.uid,
    gid: ids.gid,
    etcView: etcViewFor(p.profile.workspace),
  });
  args.splice(args.indexOf("--chdir"), 0, "--seccomp", "0");
  return { args, filter: buildSeccompFilter(hostSeccompArch(), { network: p.profile.network }) };
}

const STDERR_KEEP = 8192;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a program in the sandbox and opens its channel. Throws RetieError when it exits or does
 * not open the channel within `startTimeoutMs` (with the tail of its stderr).
 *
 * @example
 * ```ts ignore
 * const child = await spawnSandboxed({ profile, program: "node", args: ["/opt/srv/index.js"] });
 * await child.write(new TextEncoder().encode('{"jsonrpc":"2.0",...}\n'));
 * await child.kill();
 * ```
 */
export async function spawnSandboxed(p: SandboxedProgram): Promise<SandboxedChild> {
  const root = join(cacheDir(), "sandbox-channels");
  Deno.mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = Deno.makeTempDirSync({ dir: root, prefix: "ch-" });
  const cleanup = () => Deno.remove(dir, { recursive: true }).catch(() => {});
  let tail = "";
  const dec = new TextDecoder();
  const ac = new AbortController();
  let finished = false;
  let exited: Promise<number>;
  try {
    const { args, filter } = programArgs({ ...p, profile: { ...p.profile, channel: dir } });
    exited = run({
      cmd: BWRAP_PATH,
      args,
      env: { ...sandboxEnv(safeTerm()), ...(p.env ?? {}) },
      stdin: filter,
      signal: ac.signal,
      maxOutputBytes: 4096,
      onStderr: (c) => {
        tail = (tail + dec.decode(c, { stream: true })).slice(-STDERR_KEEP);
      },
    }).then((r) => r.code, () => 127).finally(() => {
      finished = true;
      void cleanup();
    });
  } catch (e) {
    await cleanup();
    throw e;
  }
  const fail = (why: string) =>
    new RetieError(
      `${p.program}: ${why}${tail.trim() ? `; its stderr: ${tail.trim().slice(-500)}` : ""}`,
    );
  const inPath = join(dir, "in");
  const outPath = join(dir, "out");
  const deadline = Date.now() + (p.startTimeoutMs ?? 15_000);
  while (!(await exists(inPath) && await exists(outPath))) {
    if (finished) throw fail(`exited (code ${await exited}) before it started`);
    if (Date.now() > deadline) {
      ac.abort();
      throw fail("did not start in time");
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  // Opening a FIFO waits for the other end; if the program dies first, open the other ends
  // ourselves so neither open is left waiting.
  const opening = Promise.all([
    Deno.open(inPath, { write: true }),
    Deno.open(outPath, { read: true }),
  ]);
  const died = exited.then(async (code) => {
    for (const [path, o] of [[inPath, { read: true }], [outPath, { write: true }]] as const) {
      try {
        (await Deno.open(path, o)).close();
      } catch { /* already gone */ }
    }
    return code;
  });
  const first = await Promise.race([opening.then((f) => ({ f })), died.then((code) => ({ code }))]);
  if ("code" in first) {
    opening.then(([a, b]) => (a.close(), b.close()), () => {});
    throw fail(`exited (code ${first.code}) before it opened its channel`);
  }
  const [stdin, stdout] = first.f;
  let stdinOpen = true;
  const closeStdin = () => {
    if (!stdinOpen) return;
    stdinOpen = false;
    try {
      stdin.close();
    } catch { /* closed */ }
  };
  return {
    async write(bytes) {
      if (!stdinOpen) throw new Error("the program's stdin is closed");
      let off = 0;
      while (off < bytes.length) off += await stdin.write(bytes.subarray(off));
    },
    stdout: stdout.readable,
    stderr: () => tail,
    exited,
    async kill() {
      closeStdin();
      if (!finished) {
        const t = setTimeout(() => ac.abort(), 1000);
        await exited;
        clearTimeout(t);
      }
      ac.abort();
    },
  };
}
