/**
 * The checks `retie doctor` runs. Each returns a verdict (`ok`, `warn`, `fail`), what it saw, and
 * — when not ok — the fix. None throws: a check that cannot look says so as its verdict.
 *
 * @module
 */
import { join } from "node:path";
import { VERSION } from "../version.ts";
import { configDir } from "../core/dirs.ts";
import { assess, denoQuery, describeBroader, outerLayer } from "../core/outer_layer.ts";
import { profileFlags, type ProfileName } from "../core/permission_flags.ts";
import { run } from "../exec.ts";
import { BWRAP_PATH, checkSandbox } from "../sandbox/check.ts";
import { checkConfigFile } from "./doctor_config.ts";

/** A verdict, strictest last. */
export type Verdict = "ok" | "warn" | "fail";

/** One line of the report. */
export interface Check {
  /** Stable identifier (for `--json` consumers). */
  id: string;
  /** What was checked, as shown. */
  title: string;
  verdict: Verdict;
  /** What was found. */
  detail: string;
  /** What to do about it (when not ok). */
  fix?: string;
  /** Machine-readable facts behind the verdict. */
  data?: Record<string, unknown>;
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** Deno's version: retie is built and tested on 2.9. */
export function checkDeno(version: string = Deno.version.deno): Check {
  const [major, minor] = version.split(".").map(Number);
  const ok = major === 2 && minor >= 9;
  return {
    id: "deno",
    title: "deno",
    verdict: ok ? "ok" : "warn",
    detail: `${version} (v8 ${Deno.version.v8}, typescript ${Deno.version.typescript})`,
    fix: ok ? undefined : "retie is tested on Deno 2.9: npm install -g deno@2.9.6",
  };
}

/** retie's own version. */
export function checkRetie(): Check {
  return { id: "retie", title: "retie", verdict: "ok", detail: VERSION };
}

/**
 * The outer layer: what this process may do, against retie's flags, and how that came about.
 *
 * @example
 * ```ts
 * import { checkOuterLayer } from "./doctor_checks.ts";
 * checkOuterLayer(() => true).verdict; // "fail": everything granted, nothing narrowed
 * ```
 */
export function checkOuterLayer(query = denoQuery): Check {
  const state = outerLayer();
  const profiles: ProfileName[] = state?.profile
    ? [state.profile as ProfileName]
    : ["retie", "local", "demo"];
  const fits = profiles.map((p) => ({ p, a: assess(profileFlags(p), query) }))
    .find((x) => x.a.broader.length === 0);
  const a = fits?.a ?? assess(profileFlags("retie"), query);
  const data = {
    status: fits ? (state?.status === "narrowed" ? "narrowed" : "confined") : "broader",
    recorded: state?.status ?? null,
    profile: fits?.p ?? null,
    from: state?.from ?? null,
    broader: a.broader,
    missing: a.missing,
  };
  if (!fits) {
    return {
      id: "outer-layer",
      title: "outer layer",
      verdict: "fail",
      detail: `not narrowed: holds ${describeBroader(a)} beyond retie's flags` +
        (state?.status === "unconfined" ? " (--unconfined)" : ""),
      fix: "start retie without --unconfined and let it narrow itself, or run it under its " +
        "flags: deno task retie, an installed `retie`, or a release binary",
      data,
    };
  }
  const how = state?.status === "narrowed"
    ? `narrowed: started with ${state.from}, re-executed under the ${fits.p} flags`
    : `confined: started under the ${fits.p} flags`;
  if (a.missing.length > 0) {
    return {
      id: "outer-layer",
      title: "outer layer",
      verdict: "warn",
      detail: `${how}, but without ${a.missing.slice(0, 5).join(", ")}`,
      fix: "some commands will fail for lack of a permission; run retie with its own flags " +
        "(docs/permissions.md)",
      data,
    };
  }
  return { id: "outer-layer", title: "outer layer", verdict: "ok", detail: how, data };
}

/** bubblewrap present, and its version. */
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
      detail: `${BWRAP_PATH} cannot be started (${(e as Error).message}); shell commands ` +
        "become irreversible and ask every time",
      fix: Deno.build.os === "linux"
        ? "apt-get install -y bubblewrap (or dnf install bubblewrap)"
        : "bubblewrap is Linux-only: on this system shell commands always ask",
    };
  }
}

/** User namespaces: the kernel settings, and whether bwrap can really enter one. */
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
      return { error: (e as Error).message };
    } finally {
      Deno.removeSync(ws, { recursive: true });
    }
  })();
  return facts;
}

/** Seccomp: retie's own filter is in force inside the sandbox (mode 2, filter). */
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

/** Overlay file systems: reported for completeness; retie's snapshots do not need them. */
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

/** The user key and its folder must be private (0600 / 0700). */
export function checkKeyModes(dir: string = configDir()): Check {
  const key = join(dir, "user_key.json");
  let keyMode: number;
  try {
    keyMode = Deno.statSync(key).mode ?? 0;
  } catch {
    return {
      id: "key-modes",
      title: "key files",
      verdict: "ok",
      detail: `no user key yet (${key}); the first session creates it, mode 600`,
    };
  }
  const problems: string[] = [];
  const fixes: string[] = [];
  if ((keyMode & 0o077) !== 0) {
    problems.push(`${key} is mode ${(keyMode & 0o777).toString(8)}`);
    fixes.push(`chmod 600 ${key} (and consider it exposed: delete it to make a new one)`);
  }
  let dirMode = 0o700;
  try {
    dirMode = Deno.statSync(dir).mode ?? 0o700;
  } catch { /* the key exists, so the folder does */ }
  if ((dirMode & 0o022) !== 0) {
    problems.push(`${dir} is mode ${(dirMode & 0o777).toString(8)} (others may replace the key)`);
    fixes.push(`chmod 700 ${dir}`);
  }
  return {
    id: "key-modes",
    title: "key files",
    verdict: problems.length ? "fail" : "ok",
    detail: problems.length ? problems.join("; ") : `${key} is private (mode 600)`,
    fix: fixes.length ? fixes.join("; ") : undefined,
  };
}

/** The config file: absent, valid, or what is wrong with it. */
export function checkConfig(path?: string): Check {
  const r = checkConfigFile(path);
  return {
    id: "config",
    title: "config",
    verdict: r.state === "invalid" ? "fail" : "ok",
    detail: r.state === "absent"
      ? `no config file (${r.path}); the defaults apply`
      : r.state === "valid"
      ? `${r.path} is valid`
      : `${r.path}: ${r.problem}`,
    fix: r.state === "invalid"
      ? `correct ${r.path}, or move it aside to use the defaults`
      : undefined,
  };
}

/** The ledger: absent, verified, or the first bad entry. */
export async function checkLedger(path: string): Promise<Check> {
  try {
    Deno.statSync(path);
  } catch {
    return {
      id: "ledger",
      title: "ledger",
      verdict: "ok",
      detail: `no ledger yet (${path}); the first session creates it`,
    };
  }
  try {
    const { verifyLedger } = await import("../ledger/mod.ts");
    const r = verifyLedger(path);
    return {
      id: "ledger",
      title: "ledger",
      verdict: r.ok ? "ok" : "fail",
      detail: r.ok
        ? `${path} verifies: ${r.entries} entries, ${r.sessions} sessions, head #${r.headSeq}`
        : `${path} does not verify: entry #${r.firstBad?.seq}: ${r.firstBad?.problem}`,
      fix: r.ok ? undefined : `retie verify --ledger ${path} shows every problem; keep the file ` +
        "as evidence and start a new ledger with --ledger or RETIE_LEDGER",
      data: { entries: r.entries, sessions: r.sessions, headSeq: r.headSeq, ok: r.ok },
    };
  } catch (e) {
    return {
      id: "ledger",
      title: "ledger",
      verdict: "fail",
      detail: `${path} cannot be read as a retie ledger: ${(e as Error).message}`,
      fix: `check the path; retie verify --ledger ${path} says more`,
    };
  }
}
