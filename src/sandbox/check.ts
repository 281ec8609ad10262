/**
 * Can retie sandbox commands here? bwrap present, and user namespaces usable.
 *
 * @module
 */
import { run } from "../exec.ts";
import { errorMessage } from "../core/errors.ts";

/** Where retie expects bubblewrap (the only program its permissions let it start). */
export const BWRAP_PATH = "/usr/bin/bwrap";

/** The result of {@link checkSandbox}. */
export interface SandboxCheck {
  available: boolean;
  /** Why not, in words the user can act on. */
  reason?: string;
}

let cached: Promise<SandboxCheck> | undefined;

/**
 * Probes the sandbox once per process (bwrap present, a user namespace can be created and entered
 * with the same flags the real profile uses). Never throws.
 *
 * @example
 * ```ts
 * import { checkSandbox } from "./check.ts";
 * const c = await checkSandbox();
 * if (!c.available) console.error(`sandbox unavailable: ${c.reason}`);
 * ```
 */
export function checkSandbox(): Promise<SandboxCheck> {
  cached ??= probe();
  return cached;
}

/** Explains a failed probe from bwrap's stderr. Exported for tests.
 *
 * @example
 * ```ts
 * import { explainProbeFailure } from "./check.ts";
 * explainProbeFailure("bwrap: No permissions to create new namespace"); // "user namespaces are disabled…"
 * ```
 */
export function explainProbeFailure(stderr: string): string {
  if (
    /No permissions to create new namespace|setting up uid map|unprivileged_userns|Operation not permitted|Permission denied/i
      .test(stderr)
  ) {
    return "user namespaces are disabled or restricted: sysctl kernel.unprivileged_userns_clone=1 " +
      "(and user.max_user_namespaces > 0; on Ubuntu 24.04+ also " +
      "kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap)" +
      ` — bwrap said: ${stderr.trim().split("\n")[0]}`;
  }
  if (/Unknown option/i.test(stderr)) {
    return `bubblewrap is too old: install bubblewrap ≥ 0.8 — bwrap said: ${
      stderr.trim().split("\n")[0]
    }`;
  }
  return `bubblewrap cannot start a sandbox here: ${stderr.trim().split("\n")[0] || "no message"}`;
}

async function probe(): Promise<SandboxCheck> {
  try {
    const info = Deno.statSync(BWRAP_PATH);
    if (!info.isFile) throw new Error("not a file");
  } catch {
    return {
      available: false,
      reason:
        `${BWRAP_PATH} not found: install bubblewrap (apt-get install bubblewrap / dnf install bubblewrap)`,
    };
  }
  try {
    const r = await run({
      cmd: BWRAP_PATH,
      args: [
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--assert-userns-disabled",
        "--cap-drop",
        "ALL",
        "--new-session",
        "--die-with-parent",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--",
        "/usr/bin/true",
      ],
      timeoutMs: 10_000,
    });
    if (r.code === 0) return { available: true };
    return { available: false, reason: explainProbeFailure(new TextDecoder().decode(r.stderr)) };
  } catch (e) {
    return { available: false, reason: `cannot start ${BWRAP_PATH}: ${errorMessage(e)}` };
  }
}
