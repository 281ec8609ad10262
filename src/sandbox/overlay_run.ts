/**
 * Runs a sandboxed command against a copy-on-write view of the workspace.
 *
 * Two bwrap processes, one inside the other:
 *
 * - the **outer** one starts a fixed shell script (never the command) as uid 0 of a new user
 *   namespace with `CAP_SYS_ADMIN`, `CAP_DAC_OVERRIDE` and `CAP_SETFCAP` there (in no other
 *   namespace), no seccomp filter, a pid namespace of its own, the host tree read-only and only
 *   the stage directory writable. The script mounts an overlay on the workspace path (lower: the
 *   workspace, upper and work: the stage, `userxattr`, `volatile`), starts the inner bwrap, and
 *   after it exits lists the directories the command replaced (opaque ones: see
 *   {@link OUTER_SCRIPT});
 * - the **inner** one is exactly the confined sandbox `prepareSandboxed` builds for the workspace
 *   (its own user namespace with a non-root id, every capability dropped, no nested namespaces,
 *   the system allowlist, fresh /proc, git's files and retie's state covered), binding the overlay
 *   at the workspace path, and installing our seccomp filter from fd 0 just before it executes the
 *   command. So the command runs under the same filter, ids and mounts as without the overlay; the
 *   mount syscall is made before any filter exists, by code that is not the command's.
 *
 * Why nested bwrap rather than `setpriv` after the mount: installing a seccomp filter needs code
 * (bwrap's `--seccomp`/`--add-seccomp-fd` apply it to the child bwrap starts, which would then be
 * unable to mount), and the inner bwrap re-uses the whole audited argv unchanged.
 *
 * @module
 */
import type { RunResult } from "../exec.ts";
import { STAGE_LAYOUT } from "../core/staging.ts";
import { BWRAP_PATH } from "./check.ts";
import type { SandboxProfile } from "./bwrap_args.ts";
import { type PreparedSandbox, prepareSandboxed, runPrepared } from "./run.ts";
import { errorMessage } from "../core/errors.ts";

/** Exit code of the outer script when the overlay cannot be mounted (the command never ran). */
export const OVERLAY_MOUNT_FAILED = 125;

/**
 * The outer script (POSIX sh: it starts faster than bash). Arguments: workspace, stage dir,
 * overlay options, the {@link OPAQUE_SCAN} script, then the inner bwrap argv. It mounts the
 * overlay and runs the inner bwrap; when the command left anything in the upper layer it hands
 * over to the scan (bash), else it writes an empty `opaque` list.
 */
export const OUTER_SCRIPT = `set -u
ws=$1 st=$2 opts=$3 scan=$4; shift 4
if ! /usr/bin/mount -t overlay overlay -o "$opts" "$ws" 2>"$st/${STAGE_LAYOUT.mountError}"; then
  exit ${OVERLAY_MOUNT_FAILED}
fi
: >"$st/${STAGE_LAYOUT.mounted}"
"$@"
rc=$?
cd "$st/${STAGE_LAYOUT.upper}" || exit $rc
for e in * .[!.]* ..?*; do
  if [ -e "$e" ] || [ -L "$e" ]; then exec /bin/bash -c "$scan" retie-overlay "$ws" "$st" "$rc"; fi
done
: >"$st/${STAGE_LAYOUT.opaque}"
exit $rc`;

/**
 * After a command that left something in the upper layer (run in it, with the overlay still
 * mounted; arguments: workspace, stage dir, the command's exit code): for each directory of the
 * upper layer that is also a directory of the workspace, one workspace entry the upper layer does
 * not mention is looked up in the merged view; when the view does not show it the directory is
 * opaque (the command removed and re-created it), and its upper-relative path is written,
 * NUL-terminated, to `opaque`.
 */
export const OPAQUE_SCAN = `set -u
ws=$1 st=$2 rc=$3
shopt -s nullglob dotglob
/usr/bin/find . -mindepth 1 -type d -printf '%P\\0' | while IFS= read -r -d '' d; do
  lo="$st/${STAGE_LAYOUT.lower}/$d"
  [ -d "$lo" ] && [ ! -L "$lo" ] || continue
  for e in "$lo"/*; do
    n=\${e##*/}
    if [ -e "$d/$n" ] || [ -L "$d/$n" ]; then continue; fi
    if [ ! -e "$ws/$d/$n" ] && [ ! -L "$ws/$d/$n" ]; then printf '%s\\0' "$d"; fi
    break
  done
done >"$st/${STAGE_LAYOUT.opaque}"
exit $rc`;

/** Escapes a path for an overlay mount option (`,`, `:` and `\\` are separators there). */
function optPath(p: string): string {
  return p.replace(/[\\,:]/g, (c) => `\\${c}`);
}

/**
 * The outer bwrap argv for running `command` under `profile` with the overlay's layers in
 * `stageDir` (which must exist and hold empty `upper`, `work` and `lower` directories).
 *
 * @example
 * ```ts
 * import { prepareOverlayRun } from "./overlay_run.ts";
 * const profile = { workspace: Deno.cwd(), network: false, readOnly: [], hidden: [], confined: true };
 * const p = prepareOverlayRun(profile, "make", "/tmp/stage");
 * p.args.includes("CAP_SYS_ADMIN"); // true: for the outer script's mount only
 * ```
 */
export function prepareOverlayRun(
  profile: SandboxProfile,
  command: string,
  stageDir: string,
  opts: { etcView?: string | false } = {},
): PreparedSandbox {
  if (!profile.confined) throw new Error("sandbox overlay: only confined commands are staged");
  const inner = prepareSandboxed(profile, command, opts);
  const ws = inner.args[inner.args.indexOf("--chdir") + 1];
  const env: string[] = ["--clearenv"];
  for (const [k, v] of Object.entries(inner.env)) env.push("--setenv", k, v);
  const L = STAGE_LAYOUT;
  const mountOpts = [
    `lowerdir=${optPath(ws)}`,
    `upperdir=${optPath(`${stageDir}/${L.upper}`)}`,
    `workdir=${optPath(`${stageDir}/${L.work}`)}`,
    // Extended attributes in the user.* namespace: what an overlay mounted in a user namespace
    // may use. volatile: no sync of the upper layer on unmount (retie reads it right away).
    "userxattr",
    "volatile",
  ].join(",");
  const args = [
    "--new-session",
    "--die-with-parent",
    // A user namespace (for the mount), a mount namespace (implied), and a pid namespace (so that
    // killing it kills the inner bwrap and the command too). No other namespace: the inner bwrap
    // unshares network, ipc, uts and cgroup for the command (a network namespace made and torn
    // down here too would cost ~10 ms a command for nothing).
    "--unshare-user",
    "--unshare-pid",
    "--uid",
    "0",
    "--gid",
    "0",
    "--cap-add",
    "CAP_SYS_ADMIN",
    // Overlayfs works in its work directory (whose inner `work` is mode 000) with the mounter's
    // credentials: without DAC override the mount fails ("upper fs does not support tmpfile")
    // for every user but real root. The command never has it: the inner bwrap drops all.
    "--cap-add",
    "CAP_DAC_OVERRIDE",
    // The inner bwrap maps the command's id to this namespace's uid 0: since Linux 5.12 writing
    // a map that covers uid 0 of the parent namespace takes CAP_SETFCAP there.
    "--cap-add",
    "CAP_SETFCAP",
    // The host read-only (the script and the inner bwrap need their programs); /proc as the
    // host's, so that the inner bwrap may mount a fresh one (a covered /proc would forbid it).
    "--ro-bind",
    "/",
    "/",
    "--bind",
    "/proc",
    "/proc",
    "--dev",
    "/dev",
    "--bind",
    stageDir,
    stageDir,
    "--ro-bind",
    ws,
    `${stageDir}/${L.lower}`,
    "--chdir",
    "/",
    "--",
    "/bin/sh",
    "-c",
    OUTER_SCRIPT,
    "retie-overlay",
    ws,
    stageDir,
    mountOpts,
    OPAQUE_SCAN,
    BWRAP_PATH,
    ...env,
    ...inner.args,
  ];
  return { args, stdin: inner.stdin, env: inner.env };
}

/** What {@link runOverlay} adds to a run's result. */
export interface OverlayRunInfo {
  /** false: the overlay could not be mounted and the command did not run. */
  mounted: boolean;
  /** The mount's error, when it failed. */
  mountError?: string;
}

/**
 * Runs `command` over the overlay in `stageDir`; the workspace itself is not written.
 *
 * @example
 * ```ts
 * import { runOverlay } from "./overlay_run.ts";
 * const profile = { workspace: Deno.cwd(), network: false, readOnly: [], hidden: [], confined: true };
 * // const r = await runOverlay({ profile, command: "make", stageDir: "/tmp/stage" });
 * // r.overlay.mounted; // true when the overlay could be mounted
 * ```
 */
export async function runOverlay(opts: {
  profile: SandboxProfile;
  command: string;
  stageDir: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  onStdout?: (c: Uint8Array) => void;
  onStderr?: (c: Uint8Array) => void;
}): Promise<{ r: RunResult; overlay: OverlayRunInfo }> {
  for (const d of [STAGE_LAYOUT.upper, STAGE_LAYOUT.work, STAGE_LAYOUT.lower]) {
    Deno.mkdirSync(`${opts.stageDir}/${d}`, { recursive: true, mode: 0o700 });
  }
  const r = await runPrepared(prepareOverlayRun(opts.profile, opts.command, opts.stageDir), opts);
  let mounted = false;
  try {
    Deno.statSync(`${opts.stageDir}/${STAGE_LAYOUT.mounted}`);
    mounted = true;
  } catch { /* never mounted */ }
  if (mounted) return { r, overlay: { mounted } };
  let mountError = "";
  try {
    mountError = Deno.readTextFileSync(`${opts.stageDir}/${STAGE_LAYOUT.mountError}`).trim();
  } catch { /* bwrap failed before the script ran */ }
  if (!mountError) mountError = new TextDecoder().decode(r.stderr).trim() || `exit code ${r.code}`;
  return { r, overlay: { mounted, mountError } };
}

/**
 * Whether a sandboxed command can run on an overlay here: mounts one (in a scratch stage under
 * `stagingRoot`) and runs `true` on it. Resolves `{ ok: false, why }` when not, never throws.
 *
 * @example
 * ```ts
 * import { probeOverlay } from "./overlay_run.ts";
 * // const { ok, why } = await probeOverlay("/state/ledger.db.staging", "/work/p");
 * ```
 */
export async function probeOverlay(
  stagingRoot: string,
  workspace: string,
): Promise<{ ok: boolean; why?: string }> {
  let dir: string | null = null;
  try {
    Deno.mkdirSync(stagingRoot, { recursive: true, mode: 0o700 });
    dir = Deno.makeTempDirSync({ dir: stagingRoot, prefix: "probe-" });
    const profile = { workspace, network: false, readOnly: [], hidden: [], confined: true };
    const { r, overlay } = await runOverlay({
      profile,
      command: "true",
      stageDir: dir,
      timeoutMs: 10_000,
    });
    if (!overlay.mounted) return { ok: false, why: `overlay mount failed: ${overlay.mountError}` };
    if (r.code !== 0) {
      const err = new TextDecoder().decode(r.stderr).trim();
      return { ok: false, why: `a command on the overlay failed (exit ${r.code}): ${err}` };
    }
    return { ok: true };
  } catch (e) {
    return { ok: false, why: errorMessage(e) };
  } finally {
    if (dir) {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* left for the next start */ }
    }
  }
}
