/**
 * The only place in retie that starts a process.
 *
 * Everything that runs a program (the sandbox, and nothing else in the shipped flags) goes through
 * {@link run}: argv arrays only, never a shell string; the environment cleared unless the caller
 * passes one; stdin closed unless bytes are given; a wall-clock timeout and an AbortSignal that kill
 * the whole process group; stdout and stderr capped with an explicit truncation marker.
 *
 * @module
 */

/** Options for {@link run}. */
export interface RunOptions {
  /** Absolute path (or PATH-resolved name) of the program. */
  cmd: string;
  /** Arguments, passed as they are: no shell ever parses them. */
  args?: readonly string[];
  /** Working directory. */
  cwd?: string;
  /** The whole environment of the child. Nothing of the caller's leaks unless listed here. */
  env?: Record<string, string>;
  /** Bytes written to the child's stdin, which is then closed. Without it stdin is /dev/null. */
  stdin?: Uint8Array;
  /** Kill the process group after this many milliseconds. */
  timeoutMs?: number;
  /** Cap on bytes kept per stream (stdout, stderr); the rest is counted and dropped. */
  maxOutputBytes?: number;
  /** Cancels the run: the process group gets SIGKILL. */
  signal?: AbortSignal;
  /** Called with each chunk of stdout as it arrives (before capping). */
  onStdout?: (chunk: Uint8Array) => void;
  /** Called with each chunk of stderr as it arrives (before capping). */
  onStderr?: (chunk: Uint8Array) => void;
}

/** What {@link run} returns. */
export interface RunResult {
  /** Exit code; 128+N when killed by signal N. */
  code: number;
  /** The signal that ended the child, if any. */
  signal: Deno.Signal | null;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Bytes dropped beyond the cap, per stream. */
  droppedStdout: number;
  droppedStderr: number;
  /** True when the wall-clock timeout fired. */
  timedOut: boolean;
  /** True when the AbortSignal fired. */
  aborted: boolean;
  /** Wall-clock duration in milliseconds. */
  durationMs: number;
}

/** Marker appended to a capped stream, saying how much was dropped. */
export function truncationMarker(dropped: number): string {
  return `\n[… ${dropped} more bytes truncated by retie]\n`;
}

const DEFAULT_CAP = 1 << 20;

/**
 * Runs a program and collects its output.
 *
 * The child is started in its own process group (`setsid` semantics via `detached`), so a timeout or
 * an abort kills it and everything it started.
 *
 * @example
 * ```ts
 * import { run } from "./exec.ts";
 * const r = await run({ cmd: "/usr/bin/bwrap", args: ["--version"], timeoutMs: 5000 });
 * console.log(r.code, new TextDecoder().decode(r.stdout));
 * ```
 */
export async function run(opts: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const cap = opts.maxOutputBytes ?? DEFAULT_CAP;
  const child = new Deno.Command(opts.cmd, {
    args: opts.args ? [...opts.args] : [],
    cwd: opts.cwd,
    env: opts.env ?? {},
    clearEnv: true,
    stdin: opts.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();

  let timedOut = false;
  let aborted = false;
  const killGroup = () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }
  };
  const timer = opts.timeoutMs !== undefined
    ? setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs)
    : undefined;
  const onAbort = () => {
    aborted = true;
    killGroup();
  };
  if (opts.signal) {
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener("abort", onAbort, { once: true });
  }

  const writeStdin = async () => {
    if (!opts.stdin) return;
    const w = child.stdin.getWriter();
    try {
      await w.write(opts.stdin);
      await w.close();
    } catch { /* the child may close stdin early (bwrap does after --seccomp 0) */ }
  };

  const [out, err] = await Promise.all([
    collect(child.stdout, cap, opts.onStdout),
    collect(child.stderr, cap, opts.onStderr),
    writeStdin(),
  ]);
  const status = await child.status;
  if (timer !== undefined) clearTimeout(timer);
  opts.signal?.removeEventListener("abort", onAbort);
  // The leader is gone; make sure nothing it left in its group keeps running.
  if (timedOut || aborted) killGroup();
  return {
    code: status.code,
    signal: status.signal,
    stdout: out.bytes,
    stderr: err.bytes,
    droppedStdout: out.dropped,
    droppedStderr: err.dropped,
    timedOut,
    aborted,
    durationMs: performance.now() - started,
  };
}

async function collect(
  stream: ReadableStream<Uint8Array>,
  cap: number,
  onChunk?: (c: Uint8Array) => void,
): Promise<{ bytes: Uint8Array; dropped: number }> {
  const parts: Uint8Array[] = [];
  let kept = 0;
  let dropped = 0;
  for await (const chunk of stream) {
    onChunk?.(chunk);
    const room = cap - kept;
    if (room >= chunk.length) {
      parts.push(chunk);
      kept += chunk.length;
    } else {
      if (room > 0) {
        parts.push(chunk.subarray(0, room));
        kept += room;
      }
      dropped += chunk.length - Math.max(room, 0);
    }
  }
  const marker = dropped > 0 ? new TextEncoder().encode(truncationMarker(dropped)) : undefined;
  const bytes = new Uint8Array(kept + (marker?.length ?? 0));
  let off = 0;
  for (const p of parts) {
    bytes.set(p, off);
    off += p.length;
  }
  if (marker) bytes.set(marker, off);
  return { bytes, dropped };
}

/** Options for {@link runForeground}. */
export interface ForegroundOptions {
  /** Absolute path of the program. */
  cmd: string;
  /** Arguments, passed as they are. */
  args: readonly string[];
  /** Variables added to (or replacing) the inherited environment. */
  addEnv?: Record<string, string>;
  /** Signals that, sent to this process, are passed on to the child. */
  forward?: readonly Deno.Signal[];
  /** Signals this process catches and drops while the child runs (the child gets its own). */
  ignore?: readonly Deno.Signal[];
}

/** What {@link runForeground} returns. */
export interface ForegroundResult {
  /** Exit code; 128+N when killed by signal N. */
  code: number;
  /** The signal that ended the child, if any. */
  signal: Deno.Signal | null;
}

/**
 * Runs a program in this process's place: same stdin, stdout, stderr, working directory and
 * environment (plus `addEnv`), in the same process group (so a terminal's Ctrl-C reaches it
 * directly). Each signal in `forward` sent to this process is passed on to the child; this
 * process stays alive until the child ends. Used once: retie re-executing itself under its own
 * permission flags.
 *
 * @example
 * ```ts ignore
 * import { runForeground } from "./exec.ts";
 * const r = await runForeground({ cmd: Deno.execPath(), args: ["--version"] });
 * Deno.exit(r.code);
 * ```
 */
export async function runForeground(opts: ForegroundOptions): Promise<ForegroundResult> {
  const child = new Deno.Command(opts.cmd, {
    args: [...opts.args],
    env: opts.addEnv,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const listeners: [Deno.Signal, () => void][] = [];
  const handled = [
    ...(opts.forward ?? []).map((s) => [s, true] as const),
    ...(opts.ignore ?? []).map((s) => [s, false] as const),
  ];
  for (const [sig, forward] of handled) {
    const pass = () => {
      if (!forward) return;
      try {
        child.kill(sig);
      } catch { /* already gone */ }
    };
    try {
      Deno.addSignalListener(sig, pass);
      listeners.push([sig, pass]);
    } catch { /* a signal this platform cannot listen for */ }
  }
  try {
    const status = await child.status;
    return { code: status.code, signal: status.signal };
  } finally {
    for (const [sig, pass] of listeners) Deno.removeSignalListener(sig, pass);
  }
}
