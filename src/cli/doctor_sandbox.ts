/**
 * The sandbox lines of `retie doctor`: bubblewrap, user namespaces, seccomp, overlay. Deno may not
 * read /proc under retie's flags, so what the kernel offers is read from inside a real sandbox.
 *
 * @module
 */
import { run } from "../exec.ts";
import { BWRAP_PATH, checkSandbox } from "../sandbox/check.ts";
import type { Check } from "./doctor_checks.ts";
import { errorMessage } from "../core/errors.ts";

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * bubblewrap present, and its version.
 *
 * @example
 * ```ts ignore
 * import { checkBwrap } from "./doctor_sandbox.ts";
 * (await checkBwrap()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export async function checkBwrap(): Promise<Check> {
  try {
    const r = await run({ cmd: BWRAP_PATH, args: ["--version"], timeoutMs: 5000 });
    const v = new TextDecoder().decode(r.stdout).trim().replace(/^bubblewrap\s*/, "");
    const [maj, min] = v.split(".").map(Number);
    const old = maj === 0 && min < 8;
    return {
      id: "bubblewrap",
      title: "bubblewrap",
      verdict: r.code !== 0 ? "fail" : old ? "warn" : "ok",
      detail: r.code === 0 ? `${BWRAP_PATH} ${v}` : `${BWRAP_PATH} --version exited ${r.code}`,
      fix: r.code !== 0 || old
        ? "install bubblewrap ≥ 0.8 (apt-get install -y bubblewrap)"
        : undefined,
      data: { version: v },
    };
  } catch (e) {
    return {
      id: "bubblewrap",
      title: "bubblewrap",
      verdict: "fail",
      detail: `${BWRAP_PATH} cannot be started (${errorMessage(e)}); shell commands ` +
        "become irreversible and ask every time",
      fix: Deno.build.os === "linux"
        ? "apt-get install -y bubblewrap (or dnf install bubblewrap)"
        : "bubblewrap is Linux-only: on this system shell commands always ask",
    };
  }
}

/**
 * User namespaces: the kernel settings, and whether bwrap can really enter one.
 *
 * @example
 * ```ts ignore
 * import { checkUserNamespaces } from "./doctor_sandbox.ts";
 * (await checkUserNamespaces()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export async function checkUserNamespaces(): Promise<Check> {
  const max = readText("/proc/sys/user/max_user_namespaces")?.trim();
  const clone = readText("/proc/sys/kernel/unprivileged_userns_clone")?.trim();
  const apparmor = readText("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")?.trim();
  const facts = [
    max !== undefined ? `user.max_user_namespaces=${max}` : undefined,
    clone !== undefined ? `kernel.unprivileged_userns_clone=${clone}` : undefined,
    apparmor !== undefined ? `kernel.apparmor_restrict_unprivileged_userns=${apparmor}` : undefined,
  ].filter(Boolean).join(", ");
  const sb = await checkSandbox();
  return {
    id: "user-namespaces",
    title: "user namespaces",
    verdict: sb.available ? "ok" : "fail",
    detail: sb.available
      ? `bwrap entered a new user namespace${facts ? ` (${facts})` : ""}`
      : `${sb.reason}${facts ? ` (${facts})` : ""}`,
    fix: sb.available ? undefined : "see the reason above; docs/sandbox.md lists the settings",
    data: { maxUserNamespaces: max ?? null, unprivilegedClone: clone ?? null },
  };
}

/** What a sandboxed probe saw of /proc (Deno itself may not read /proc without `-A`). */
interface SandboxFacts {
  /** The Seccomp mode line inside the sandbox, e.g. "2" (filter). */
  seccomp?: string;
  /** /proc/filesystems lists overlay. */
  overlay?: boolean;
  /** Why the probe could not run. */
  error?: string;
}

let facts: Promise<SandboxFacts> | undefined;

/** Runs one command in the real sandbox profile and reads what it reports. Cached. */
function sandboxFacts(): Promise<SandboxFacts> {
  facts ??= (async () => {
    const sb = await checkSandbox();
    if (!sb.available) return { error: `the sandbox is unavailable: ${sb.reason}` };
    const ws = Deno.makeTempDirSync({ prefix: "retie-doctor-" });
    try {
      const { workspaceProfile } = await import("../sandbox/profile.ts");
      const { runSandboxed } = await import("../sandbox/run.ts");
      const r = await runSandboxed({
        profile: workspaceProfile(ws),
        command: "grep -E '^Seccomp:' /proc/self/status; echo; " +
          "grep -c -w overlay /proc/filesystems || true",
        timeoutMs: 10_000,
      });
      const seccomp = /Seccomp:\s*(\d)/.exec(r.stdout)?.[1];
      const overlay = /^(\d+)\s*$/m.exec(r.stdout.split("\n\n").pop() ?? "")?.[1];
      return {
        seccomp,
        overlay: overlay === undefined ? undefined : Number(overlay) > 0,
        error: seccomp === undefined
          ? `the probe printed nothing useful (exit ${r.code})`
          : undefined,
      };
    } catch (e) {
      return { error: errorMessage(e) };
    } finally {
      Deno.removeSync(ws, { recursive: true });
    }
  })();
  return facts;
}

/**
 * Seccomp: retie's own filter is in force inside the sandbox (mode 2, filter).
 *
 * @example
 * ```ts ignore
 * import { checkSeccomp } from "./doctor_sandbox.ts";
 * (await checkSeccomp()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export async function checkSeccomp(): Promise<Check> {
  const f = await sandboxFacts();
  if (f.error !== undefined || f.seccomp === undefined) {
    return {
      id: "seccomp",
      title: "seccomp",
      verdict: "warn",
      detail: `not checked: ${f.error ?? "no answer"}`,
      fix: "fix bubblewrap / user namespaces first; `retie sandbox -- true` shows the error",
    };
  }
  const ok = f.seccomp === "2";
  return {
    id: "seccomp",
    title: "seccomp",
    verdict: ok ? "ok" : "fail",
    detail: ok
      ? "retie's filter is in force inside the sandbox (Seccomp: 2, filter mode)"
      : `a sandboxed command reports Seccomp: ${f.seccomp} (no filter)`,
    fix: ok ? undefined : "the kernel or bubblewrap did not install the filter: use a kernel " +
      "with CONFIG_SECCOMP_FILTER and bubblewrap ≥ 0.8",
    data: { mode: Number(f.seccomp) },
  };
}

/**
 * Overlay file systems: reported for completeness; retie's snapshots do not need them.
 *
 * @example
 * ```ts ignore
 * import { checkOverlay } from "./doctor_sandbox.ts";
 * (await checkOverlay()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export async function checkOverlay(): Promise<Check> {
  const host = readText("/proc/filesystems");
  const has = host !== undefined ? /\boverlay\b/.test(host) : (await sandboxFacts()).overlay;
  const why = "not needed: undo snapshots are taken in-process, without mounts";
  return {
    id: "overlay",
    title: "overlay",
    verdict: "ok",
    detail: has === undefined
      ? `unknown (/proc/filesystems unreadable); ${why}`
      : `${has ? "overlayfs available" : "no overlayfs"}; ${why}`,
    data: { overlay: has ?? null },
  };
}
