/**
 * The bubblewrap argv, built by a pure function in commented sections.
 *
 * The confined profile: every namespace unshared (user, pid, ipc, uts, net unless `network`,
 * cgroup), a new session, death with the parent, no capabilities, no nested user namespaces, a
 * read-only allowlist of system paths (/etc: one prepared copy of `ETC_ALLOWLIST`, see
 * `etc_view.ts`, or those entries bound one by one), a fresh /proc (bwrap covers /proc/sys
 * read-only), a minimal /dev, tmpfs /tmp and $HOME, and the workspace as the only writable mount,
 * with git's code-running files read-only and retie's own state hidden, and (with `seccompFd`)
 * our seccomp filter, which bwrap reads from that descriptor and installs just before it executes
 * the command.
 *
 * @module
 */

import { RetieError } from "../core/errors.ts";
import { isBelow, isWithin, overlaps } from "../core/paths.ts";

/** What a sandboxed command may see and do. */
export interface SandboxProfile {
  /** Absolute real path of the workspace: the only writable mount. */
  workspace: string;
  /** Share the host network (re-opens exfiltration; announced by the caller). */
  network: boolean;
  /** Absolute paths inside the workspace mounted read-only (git hooks/config, excluded dirs). */
  readOnly: string[];
  /** Absolute directories inside the workspace mounted on themselves, writable: a mount point
   * cannot be renamed or removed, so a command cannot swap a git dir for one of its own. */
  pinned?: string[];
  /** Absolute paths inside the workspace that must be invisible (retie state, if put there). */
  hidden: string[];
  /** Directories inside the workspace hidden whether or not they exist (the project's `.retie/`):
   * an absent one is covered all the same, so a command cannot create it. */
  reserved?: string[];
  /** false = "unconfined": host filesystem read-write and network, for approved commands. */
  confined: boolean;
  /** The workspace itself mounted read-only (a command that only reads): nothing is writable. */
  workspaceReadOnly?: boolean;
  /** Absolute host paths outside the workspace bound read-only at the same path (an MCP server's
   * install directory, granted in the user's config). */
  extraReadOnly?: string[];
  /** A host directory outside the workspace bound read-write at {@link CHANNEL_DIR}: where a
   * long-running program's stdin/stdout FIFOs live (MCP servers; stdin carries the seccomp
   * filter, so it cannot be the channel). */
  channel?: string;
}

/** Where a sandboxed program finds its channel directory. */
export const CHANNEL_DIR = "/run/retie-channel";

/**
 * The arguments after `/usr/bin/bwrap`, as the builder returns them: a named type so callers see
 * they hold a complete, checked invocation (sections in a fixed order, the command last).
 */
export type BwrapArgs = string[];

/** How the host lays out its system directories (merged /usr or not). */
export interface HostLayout {
  /** Top-level names that are symlinks on the host, with their targets (e.g. bin → usr/bin). */
  symlinks: Record<string, string>;
  /** Top-level system directories that are real directories on the host. */
  dirs: string[];
}

/** Debian/Ubuntu/Fedora merged-/usr layout. */
export const MERGED_USR_LAYOUT: HostLayout = {
  symlinks: { "/bin": "usr/bin", "/sbin": "usr/sbin", "/lib": "usr/lib", "/lib64": "usr/lib64" },
  dirs: ["/usr"],
};

/** Home directory inside the sandbox (a tmpfs). */
export const SANDBOX_HOME = "/home/sandbox";
/** uid/gid inside the sandbox when retie runs as root (never 0: no root-owned surprises). */
export const SANDBOX_ROOT_MAPPED_ID = 1000;

/**
 * Files under /etc that toolchains read and that hold no secrets (no shadow, no ssh keys, no TLS
 * private keys, no npmrc/pip.conf which may carry tokens): the sandbox's whole /etc. Missing ones
 * are skipped. `etc_view.ts` copies exactly these into the view bound at /etc.
 */
export const ETC_ALLOWLIST: readonly string[] = [
  "/etc/alternatives",
  "/etc/bash.bashrc",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/debian_version",
  "/etc/gai.conf",
  "/etc/gitconfig",
  "/etc/group",
  "/etc/host.conf",
  "/etc/hostname",
  "/etc/hosts",
  "/etc/inputrc",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/locale.alias",
  "/etc/localtime",
  "/etc/magic",
  "/etc/mime.types",
  "/etc/nsswitch.conf",
  "/etc/os-release",
  "/etc/passwd",
  "/etc/perl",
  "/etc/profile",
  "/etc/protocols",
  "/etc/python3",
  "/etc/resolv.conf",
  "/etc/services",
  // Not all of /etc/ssl: /etc/ssl/private holds the host's TLS private keys (0710 root:ssl-cert),
  // which a sandbox started by root could read (its files are owned by the sandbox's kuid 0).
  "/etc/ssl/certs",
  "/etc/ssl/openssl.cnf",
  "/etc/timezone",
];

/** Paths the workspace may not be, or contain (it would shadow or expose the system view). */
const SYSTEM_PATHS = ["/", "/usr", "/etc", "/proc", "/dev", "/sys", "/tmp", "/bin", "/lib", "/var"];

/** The environment of a sandboxed command: built from scratch, never the caller's.
 *
 * @example
 * ```ts
 * import { sandboxEnv } from "./bwrap_args.ts";
 * sandboxEnv("xterm-256color").HOME; // "/home/sandbox"
 * ```
 */
export function sandboxEnv(term?: string): Record<string, string> {
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
    HOME: SANDBOX_HOME,
    LANG: "C.UTF-8",
    TERM: term && /^[A-Za-z0-9._+-]{1,64}$/.test(term) ? term : "dumb",
  };
}

/** Number of components of an absolute path. */
function depth(p: string): number {
  return p.split("/").filter((c) => c.length > 0).length;
}

/** A view must be a prepared copy: never the host's /etc (or /), never writable through the
 * workspace (a command could then plant files in every later sandbox's /etc). */
function checkEtcView(view: string, workspace: string): void {
  if (!view.startsWith("/") || view.split("/").includes("..") || overlaps(view, "/etc")) {
    throw new Error(`sandbox etc view (${view}): must be an absolute prepared copy, not /etc`);
  }
  if (overlaps(view, workspace)) {
    throw new Error(`sandbox etc view (${view}): must not overlap the workspace ${workspace}`);
  }
}

function checkProfile(profile: SandboxProfile): void {
  const ws = profile.workspace;
  if (!ws.startsWith("/") || ws.includes("/../") || ws.endsWith("/..")) {
    throw new RetieError(`sandbox workspace (${ws}): must be an absolute real path`, {
      hint: "pass the workspace as an absolute path without `..`",
      exitCode: 2,
    });
  }
  const norm = ws.replace(/\/+$/, "") || "/";
  for (const s of SYSTEM_PATHS) {
    if (norm === s || (s !== "/" && isBelow(s, norm))) {
      throw new RetieError(
        `sandbox workspace (${ws}): a system directory cannot be the workspace`,
        { hint: "run from a project directory, or pass --workspace DIR", exitCode: 2 },
      );
    }
  }
  if (profile.channel && (!profile.channel.startsWith("/") || overlaps(profile.channel, norm))) {
    throw new RetieError(`sandbox channel (${profile.channel}): must be outside the workspace`, {
      exitCode: 2,
    });
  }
  for (const p of profile.extraReadOnly ?? []) {
    if (!p.startsWith("/") || p.split("/").includes("..") || overlaps(p, norm)) {
      throw new RetieError(
        `sandbox read-only grant (${p}): must be an absolute path outside the workspace`,
        { hint: "grant a directory such as the server's install folder", exitCode: 2 },
      );
    }
  }
  for (
    const p of [
      ...profile.readOnly,
      ...profile.hidden,
      ...(profile.pinned ?? []),
      ...(profile.reserved ?? []),
    ]
  ) {
    if (!p.startsWith(norm + "/") && p !== norm) {
      throw new Error(`sandbox path (${p}): not inside the workspace ${ws}`);
    }
  }
}

/**
 * Builds the bwrap arguments (everything after `/usr/bin/bwrap`) that run `argv` under `profile`.
 * Throws on a profile that would not confine (relative or system workspace, paths outside it).
 * With `etcView` (a directory prepared by `etc_view.ts`) /etc is that one read-only bind; without
 * it, each `ETC_ALLOWLIST` entry is bound on its own (same view, one mount per entry).
 *
 * @example
 * ```ts
 * import { buildBwrapArgs } from "./bwrap_args.ts";
 * const args = buildBwrapArgs(
 *   { workspace: "/work/p", network: false, readOnly: ["/work/p/.git/hooks"], hidden: [], confined: true },
 *   ["/bin/bash", "-c", "make"],
 * );
 * args.includes("--unshare-all"); // true
 * const one = buildBwrapArgs(
 *   { workspace: "/work/p", network: false, readOnly: [], hidden: [], confined: true },
 *   ["true"],
 *   { etcView: "/home/me/.cache/retie/sandbox-etc/0123abcd" },
 * );
 * one.filter((x) => x === "/etc").length; // 1
 * ```
 */
export function buildBwrapArgs(
  profile: SandboxProfile,
  argv: string[],
  opts: {
    layout?: HostLayout;
    uid?: number;
    gid?: number;
    hiddenFiles?: ReadonlySet<string>;
    /** Host directory holding the allowlisted /etc entries, bound read-only at /etc. */
    etcView?: string;
    /** Descriptor bwrap reads the seccomp filter from (confined profiles only). */
    seccompFd?: number;
  } = {},
): BwrapArgs {
  if (argv.length === 0) throw new Error("sandbox: empty command");
  checkProfile(profile);
  if (profile.confined && opts.etcView !== undefined) {
    checkEtcView(opts.etcView, profile.workspace);
  }
  const layout = opts.layout ?? MERGED_USR_LAYOUT;
  const mapId = (
    id: number | undefined,
  ) => (id === undefined || id === 0 ? SANDBOX_ROOT_MAPPED_ID : id);
  const a: string[] = [];

  // --- Process: own session (no TIOCSTI into our terminal), dies with retie. ---
  a.push("--new-session", "--die-with-parent");

  if (!profile.confined) {
    // --- Unconfined (approved) commands: host filesystem and network as they are. bwrap is only
    // the launcher here (it is the one program retie may start). ---
    a.push("--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc");
    a.push("--chdir", profile.workspace, "--", ...argv);
    return a;
  }

  // --- Namespaces: user, ipc, pid, net, uts, cgroup; a non-root id inside; no capabilities; no
  // nested user namespaces (bwrap sets max_user_namespaces=0 inside and checks it). ---
  a.push("--unshare-all");
  if (profile.network) a.push("--share-net");
  a.push("--unshare-user", "--disable-userns", "--assert-userns-disabled");
  a.push("--uid", String(mapId(opts.uid)), "--gid", String(mapId(opts.gid)));
  a.push("--cap-drop", "ALL");
  a.push("--hostname", "retie-sandbox");

  // --- System paths: read-only allowlist. /home, /root, /mnt, /media, /var, /run, /srv, /opt are
  // simply absent. /etc holds only ETC_ALLOWLIST: one bind of the prepared copy (bwrap re-reads
  // /proc/self/mountinfo per mount, so 31 binds cost ~4 ms per command), else one bind per entry.
  // Either way read-only, and the copy is reachable from no writable mount. ---
  for (const d of layout.dirs) a.push("--ro-bind", d, d);
  for (const [link, target] of Object.entries(layout.symlinks)) a.push("--symlink", target, link);
  if (opts.etcView !== undefined) a.push("--ro-bind", opts.etcView, "/etc");
  else for (const e of ETC_ALLOWLIST) a.push("--ro-bind-try", e, e);
  // Granted read-only extras (never over the workspace, checked in checkProfile).
  for (const p of profile.extraReadOnly ?? []) a.push("--ro-bind", p, p);

  // --- Kernel views: fresh /proc for the new pid namespace (bwrap re-binds /proc/sys,
  // /proc/sysrq-trigger, /proc/irq, /proc/bus read-only), minimal /dev (null, zero, full, random,
  // urandom, tty, pts, shm). ---
  a.push("--proc", "/proc", "--dev", "/dev");
  // bwrap 0.8 covers /proc/sys only when the directory itself is writable; it is 0555, so it
  // skips it, yet the files inside are writable by a sandbox that is host root in disguise (kuid 0
  // when retie runs as root: kernel.core_pattern → host root). Cover it ourselves, read-only.
  a.push("--ro-bind", "/proc/sys", "/proc/sys");
  a.push("--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger");

  // --- Scratch space: tmpfs /tmp and $HOME, both gone after the command. ---
  a.push("--tmpfs", "/tmp", "--dir", "/home", "--tmpfs", SANDBOX_HOME);

  // --- The workspace: the only writable mount, at its real path (read-only for a reader). ---
  const wsRo = profile.confined && profile.workspaceReadOnly === true;
  a.push(wsRo ? "--ro-bind" : "--bind", profile.workspace, profile.workspace);
  if (profile.channel) a.push("--bind", profile.channel, CHANNEL_DIR);
  // Git dirs pinned in place (writable, but not renamable), then paths that run code later outside
  // the sandbox, or that the snapshot does not cover: read-only. Parents before children, and
  // nothing pinned inside a read-only path (a later writable mount would open it again). In a
  // read-only workspace there is nothing to pin or protect: no mount would add anything.
  const ro = wsRo ? [] : [...profile.readOnly];
  const mounts: [string, "--bind" | "--ro-bind"][] = [
    ...(wsRo ? [] : profile.pinned ?? []).filter((p) => !ro.some((r) => isWithin(p, r)))
      .map((p): [string, "--bind"] => [p, "--bind"]),
    ...ro.map((p): [string, "--ro-bind"] => [p, "--ro-bind"]),
  ].sort((x, y) => depth(x[0]) - depth(y[0]) || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  for (const [p, how] of mounts) a.push(how, p, p);
  // retie's own state, if it lives inside the workspace: a directory is covered by an empty
  // read-only tmpfs, a file by /dev/null.
  for (const p of profile.hidden) {
    if (opts.hiddenFiles?.has(p)) a.push("--ro-bind", "/dev/null", p);
    else a.push("--tmpfs", p, "--remount-ro", p);
  }

  // --- Seccomp: bwrap reads the BPF program (seccomp.ts) from this descriptor and installs it,
  // with no_new_privs, just before it executes the command: every process of the command runs
  // under it, bwrap's own mount set-up above does not. ---
  if (opts.seccompFd !== undefined) {
    if (!Number.isInteger(opts.seccompFd) || opts.seccompFd < 0) {
      throw new Error(`sandbox seccomp descriptor (${opts.seccompFd}): not a descriptor number`);
    }
    a.push("--seccomp", String(opts.seccompFd));
  }

  a.push("--chdir", profile.workspace);
  a.push("--", ...argv);
  return a;
}
