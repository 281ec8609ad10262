/** Shared helpers for the sandbox tests: temp layouts, running as another user. */
import { join } from "node:path";
import { prepareSandboxed } from "../../src/sandbox/run.ts";
import { ensureEtcView } from "../../src/sandbox/etc_view.ts";
import type { SandboxProfile } from "../../src/sandbox/bwrap_args.ts";
import { buildSeccompFilter, hostSeccompArch } from "../../src/sandbox/seccomp.ts";
import { SYSCALLS } from "../../src/sandbox/seccomp.ts";

/** True when this process is root (the containment tests then also run as an unprivileged uid). */
export function isRoot(): boolean {
  return /^Uid:\s+0\s/m.test(Deno.readTextFileSync("/proc/self/status"));
}

/** A confined profile for `ws`. */
export function profileFor(ws: string, extra: Partial<SandboxProfile> = {}): SandboxProfile {
  return { workspace: ws, network: false, readOnly: [], hidden: [], confined: true, ...extra };
}

/** `perl -e 'syscall(NR, args)'` printing the errno (0 = success), by syscall name for this arch. */
export function perlSyscall(name: string, args: (number | string)[] = []): string {
  const nr = SYSCALLS[hostSeccompArch()][name];
  const a = [nr, ...args].join(", ");
  return `perl -e 'my $r = syscall(${a}); print $r == -1 ? $!+0 : 0'`;
}

/**
 * Runs `command` in the sandbox like runSandboxed does, but as `uid` (via setpriv), spawning bwrap
 * directly. Returns exit code and output. The /etc view is built where `uid` can read it (the
 * default one lives in this user's cache, e.g. under /root).
 */
export async function runAsUser(
  uid: number,
  profile: SandboxProfile,
  command: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = Deno.makeTempDirSync({ prefix: "retie-etc-view-" });
  try {
    Deno.chmodSync(root, 0o755);
    const prep = prepareSandboxed(profile, command, { etcView: ensureEtcView({ root }) });
    const child = new Deno.Command("/usr/bin/setpriv", {
      args: [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "/usr/bin/bwrap", ...prep.args],
      env: prep.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(buildSeccompFilter(hostSeccompArch(), { network: profile.network }));
    await w.close().catch(() => {});
    const out = await child.output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
}

/** Parses `key=value` lines. */
export function kv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf("=");
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

/** A temp base with a workspace, a sibling project with a .env, and a home with secrets. */
export function makeLayout(): { base: string; ws: string; sibling: string; home: string } {
  const base = Deno.makeTempDirSync({ prefix: "retie-sbx-" });
  const ws = join(base, "ws");
  const sibling = join(base, "sibling");
  const home = join(base, "home");
  Deno.mkdirSync(ws);
  Deno.mkdirSync(sibling);
  Deno.mkdirSync(join(home, ".ssh"), { recursive: true });
  Deno.mkdirSync(join(home, ".aws"), { recursive: true });
  Deno.writeTextFileSync(join(sibling, ".env"), "SIBLING_SECRET=sib-123\n");
  Deno.writeTextFileSync(join(home, ".ssh", "id_ed25519"), "SSH-PRIVATE-KEY-456\n");
  Deno.writeTextFileSync(join(home, ".aws", "credentials"), "aws_secret_access_key=AWS-789\n");
  Deno.symlinkSync(join(sibling, ".env"), join(ws, "env-link"));
  Deno.symlinkSync(join(home, ".ssh", "id_ed25519"), join(ws, "key-link"));
  Deno.symlinkSync(home, join(ws, "home-link"));
  return { base: Deno.realPathSync(base), ws: Deno.realPathSync(ws), sibling, home };
}
