import assert from "node:assert/strict";
import { join } from "node:path";
import { createSocket } from "node:dgram";
import { runSandboxed } from "../../src/sandbox/run.ts";
import { isRoot, kv, makeLayout, perlSyscall, profileFor, runAsUser } from "./fixture.ts";

/** One shell script that probes every wall and prints key=value (errno 1 = EPERM). */
function probeScript(
  o: {
    base: string;
    sibling: string;
    home: string;
    tcp: number;
    udp: number;
    sock: string;
    hostPid: number;
    shmKey: string;
  },
): string {
  const t = (name: string, cmd: string) =>
    `if ${cmd} >/dev/null 2>&1; then echo ${name}=yes; else echo ${name}=no; fi`;
  return [
    `echo "seccomp=$(grep -E '^Seccomp:' /proc/self/status | tr -d '\\t ' | cut -d: -f2)"`,
    `echo "capeff=$(grep -E '^CapEff:' /proc/self/status | tr -d '\\t ' | cut -d: -f2)"`,
    `echo "nonewprivs=$(grep -E '^NoNewPrivs:' /proc/self/status | tr -d '\\t ' | cut -d: -f2)"`,
    `echo "uid=$(id -u)"`,
    // secrets outside the workspace, directly and through symlinks planted in it
    t("read_sibling_env", `cat ${o.sibling}/.env`),
    t("read_ssh_key", `cat ${o.home}/.ssh/id_ed25519`),
    t("read_aws", `cat ${o.home}/.aws/credentials`),
    t("read_env_link", "cat env-link"),
    t("read_key_link", "cat key-link"),
    t("list_home_link", "ls home-link/"),
    t("root_exists", "test -e /root"),
    t("home_has_users", "test -n \"$(ls /home | grep -v '^sandbox$')\""),
    t("mnt_exists", "test -e /mnt -o -e /media"),
    t("shadow_readable", "cat /etc/shadow"),
    // the host's TLS private keys (readable by a sandbox that root started, were they mounted)
    t("ssl_private_visible", "test -e /etc/ssl/private"),
    // writes and deletes outside
    // (this succeeds inside: the workspace's parents exist only in the sandbox's /tmp tmpfs; the
    // host-side assertion checks that nothing reached the host)
    t("write_outside", `touch ${o.base}/planted`),
    t("delete_outside", `test -e ${o.sibling}/.env && rm -f ${o.sibling}/.env`),
    t("write_through_link", "echo pwned > env-link"),
    t("write_usr", "touch /usr/planted"),
    t("write_workspace", "echo ok | tee inside.txt"),
    // network
    t("tcp_host", `exec 3<>/dev/tcp/127.0.0.1/${o.tcp}`),
    t("udp_host", `echo hi > /dev/udp/127.0.0.1/${o.udp}`),
    t("dns", "getent hosts example.com"),
    `echo "raw_socket_errno=$(perl -e 'use Socket; print socket(my $s, PF_INET, SOCK_RAW, 1) ? 0 : $!+0')"`,
    `echo "inet_socket_errno=$(perl -e 'use Socket; print socket(my $s, PF_INET, SOCK_STREAM, 0) ? 0 : $!+0')"`,
    `echo "unix_socket_errno=$(perl -e 'use Socket; print socket(my $s, PF_UNIX, SOCK_STREAM, 0) ? 0 : $!+0')"`,
    t(
      "host_unix_socket",
      `perl -e 'use Socket; socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die; connect($s, pack_sockaddr_un("${o.sock}")) or die'`,
    ),
    // host processes
    t("proc_host_pid", `test -e /proc/${o.hostPid}/cmdline`),
    t("kill_host_pid", `kill -0 ${o.hostPid}`),
    `echo "ptrace_errno=$(${perlSyscall("ptrace", [0, 0, 0, 0])})"`,
    `echo "pvr_errno=$(${perlSyscall("process_vm_readv", [1, 0, 0, 0, 0, 0])})"`,
    // IPC
    t("host_shm_visible", `ipcs -m | grep -qi ${o.shmKey}`),
    `echo "keyctl_errno=$(${perlSyscall("keyctl", [0, -3, 0])})"`,
    `echo "add_key_errno=$(${perlSyscall("add_key", [0, 0, 0, 0, 0])})"`,
    // /proc/sys
    t("write_core_pattern", "echo '|/tmp/x' > /proc/sys/kernel/core_pattern"),
    // environment
    `echo "env_names=$(env | cut -d= -f1 | sort | tr '\\n' ',')"`,
    // nested namespaces
    t("unshare_user", "unshare -U true"),
    t("unshare_net", "unshare -n true"),
    t("unshare_mount", "unshare -m true"),
    `echo "clone_newuser_errno=$(${perlSyscall("clone", [0x10000011, 0, 0, 0, 0])})"`,
    `echo "clone3_errno=$(${perlSyscall("clone3", [0, 0])})"`,
    // terminal injection: EPERM from the filter, not ENOTTY (25) from the kernel
    `echo "tiocsti_errno=$(${perlSyscall("ioctl", [1, 0x5412, 0])})"`,
    // kernel interfaces the filter blocks
    `echo "bpf_errno=$(${perlSyscall("bpf", [0, 0, 0])})"`,
    `echo "perf_errno=$(${perlSyscall("perf_event_open", [0, 0, -1, -1, 0])})"`,
    `echo "uffd_errno=$(${perlSyscall("userfaultfd", [0])})"`,
    `echo "io_uring_errno=$(${perlSyscall("io_uring_setup", [1, 0])})"`,
    `echo "mount_errno=$(${perlSyscall("mount", [0, 0, 0, 0, 0])})"`,
    `echo "obha_errno=$(${perlSyscall("open_by_handle_at", [0, 0, 0])})"`,
    `echo "finit_module_errno=$(${perlSyscall("finit_module", [0, 0, 0])})"`,
    // ordinary tools work
    t("tool_ls", "ls /usr/bin"),
    t("tool_python", "/usr/bin/python3 -c 'print(1+1)'"),
    t(
      "tool_git",
      "git init -q repo-made-inside && git -C repo-made-inside -c user.name=a -c user.email=a@b commit -q --allow-empty -m x",
    ),
    t("tool_fork", "sh -c 'echo child' | cat"),
  ].join("\n");
}

async function withHostServices<T>(
  fn: (
    o: { tcp: number; udp: number; sock: string; hostPid: number; shmKey: string },
  ) => Promise<T>,
  base: string,
): Promise<{ r: T; tcpAccepted: number; udpReceived: number }> {
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let tcpAccepted = 0;
  (async () => {
    for await (const c of tcp) {
      tcpAccepted++;
      c.close();
    }
  })().catch(() => {});
  const udp = createSocket("udp4");
  let udpReceived = 0;
  udp.on("message", () => udpReceived++);
  await new Promise<void>((res) => udp.bind(0, "127.0.0.1", () => res()));
  const sock = join(base, "host.sock");
  const unix = Deno.listen({ transport: "unix", path: sock });
  const shm = new Deno.Command("ipcmk", { args: ["-M", "4096"], stdout: "piped", stderr: "piped" })
    .outputSync();
  const shmId = /(\d+)/.exec(new TextDecoder().decode(shm.stdout))?.[1] ?? "0";
  const shmKey = /key\s+\|?\s*(0x[0-9a-f]+)/i.exec(
    new TextDecoder().decode(
      new Deno.Command("ipcs", { args: ["-m", "-i", shmId], stdout: "piped" }).outputSync()
        .stdout,
    ),
  )?.[1] ?? "0xnone";
  try {
    const r = await fn({
      tcp: (tcp.addr as Deno.NetAddr).port,
      udp: udp.address().port,
      sock,
      hostPid: Deno.pid,
      shmKey,
    });
    return { r, tcpAccepted, udpReceived };
  } finally {
    tcp.close();
    udp.close();
    unix.close();
    new Deno.Command("ipcrm", { args: ["-m", shmId], stderr: "null" }).outputSync();
  }
}

function assertContained(v: Record<string, string>, label: string) {
  const no = [
    "read_sibling_env",
    "read_ssh_key",
    "read_aws",
    "read_env_link",
    "read_key_link",
    "list_home_link",
    "root_exists",
    "home_has_users",
    "mnt_exists",
    "shadow_readable",
    "ssl_private_visible",
    "delete_outside",
    "write_through_link",
    "write_usr",
    "tcp_host",
    "udp_host",
    "dns",
    "host_unix_socket",
    "proc_host_pid",
    "kill_host_pid",
    "host_shm_visible",
    "write_core_pattern",
    "unshare_user",
    "unshare_net",
    "unshare_mount",
  ];
  for (const k of no) assert.equal(v[k], "no", `${label}: ${k} must fail (got ${v[k]})`);
  for (const k of ["write_workspace", "tool_ls", "tool_python", "tool_git", "tool_fork"]) {
    assert.equal(v[k], "yes", `${label}: ${k} must work`);
  }
  assert.equal(v.seccomp, "2", `${label}: seccomp filter mode`);
  assert.equal(v.capeff, "0000000000000000", `${label}: no capabilities`);
  assert.equal(v.nonewprivs, "1");
  assert.notEqual(v.uid, "0", `${label}: not root inside`);
  for (
    const k of [
      "raw_socket_errno",
      "inet_socket_errno",
      "ptrace_errno",
      "pvr_errno",
      "keyctl_errno",
      "add_key_errno",
      "clone_newuser_errno",
      "tiocsti_errno",
      "bpf_errno",
      "perf_errno",
      "uffd_errno",
      "io_uring_errno",
      "mount_errno",
      "obha_errno",
      "finit_module_errno",
    ]
  ) assert.equal(v[k], "1", `${label}: ${k} must be EPERM (got ${v[k]})`);
  assert.equal(v.clone3_errno, "38", `${label}: clone3 → ENOSYS`);
  assert.equal(v.unix_socket_errno, "0", `${label}: AF_UNIX sockets allowed`);
  assert.deepEqual(
    v.env_names.split(",").filter((s) => s),
    ["HOME", "LANG", "OLDPWD", "PATH", "PWD", "SHLVL", "TERM", "_"].filter((n) =>
      v.env_names.includes(n + ",")
    ),
  );
  assert.ok(!v.env_names.includes("RETIE_TEST_SECRET"), `${label}: caller env leaked`);
}

Deno.test("containment: secrets, writes, network, processes, IPC, /proc/sys, env, namespaces, TIOCSTI, filtered syscalls", async () => {
  const L = makeLayout();
  Deno.env.set("RETIE_TEST_SECRET", "leak-me");
  const corePattern = Deno.readTextFileSync("/proc/sys/kernel/core_pattern");
  try {
    const { r, tcpAccepted, udpReceived } = await withHostServices(async (o) => {
      return await runSandboxed({
        profile: profileFor(L.ws),
        command: probeScript({ ...o, base: L.base, sibling: L.sibling, home: L.home }),
        timeoutMs: 30_000,
      });
    }, L.base);
    assert.equal(r.code, 0, r.stderr);
    const v = kv(r.stdout);
    assertContained(v, "root");
    assert.equal(tcpAccepted, 0);
    assert.equal(udpReceived, 0);
    // Host side: nothing changed outside the workspace.
    assert.equal(Deno.readTextFileSync(join(L.sibling, ".env")), "SIBLING_SECRET=sib-123\n");
    assert.throws(() => Deno.statSync(join(L.base, "planted")));
    assert.equal(Deno.readTextFileSync("/proc/sys/kernel/core_pattern"), corePattern);
    assert.equal(Deno.readTextFileSync(join(L.ws, "inside.txt")), "ok\n");
  } finally {
    Deno.env.delete("RETIE_TEST_SECRET");
    Deno.removeSync(L.base, { recursive: true });
  }
});

Deno.test({
  name: "containment: the same walls hold for an unprivileged user (setpriv uid 65534)",
  ignore: !isRoot(),
  fn: async () => {
    const L = makeLayout();
    Deno.chmodSync(L.base, 0o755);
    Deno.chownSync(L.ws, 65534, 65534);
    try {
      const { r } = await withHostServices(async (o) => {
        return await runAsUser(
          65534,
          profileFor(L.ws),
          probeScript({ ...o, base: L.base, sibling: L.sibling, home: L.home }),
        );
      }, L.base);
      assert.equal(r.code, 0, r.stderr);
      assertContained(kv(r.stdout), "uid 65534");
    } finally {
      Deno.removeSync(L.base, { recursive: true });
    }
  },
});

Deno.test("containment: a setuid file left in the workspace gains nothing", async () => {
  const L = makeLayout();
  try {
    Deno.copyFileSync("/usr/bin/bash", join(L.ws, "sbash"));
    Deno.chmodSync(join(L.ws, "sbash"), 0o4755);
    const r = await runSandboxed({
      profile: profileFor(L.ws),
      command: "./sbash -p -c 'id -u; grep CapEff /proc/self/status'; ls -l sbash",
      timeoutMs: 10_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const [uid] = r.stdout.split("\n");
    assert.notEqual(uid, "0");
    assert.match(r.stdout, /CapEff:\s+0000000000000000/);
  } finally {
    Deno.removeSync(L.base, { recursive: true });
  }
});

Deno.test("containment: a command cannot leave a setuid or setgid file in the workspace", async () => {
  // As root, the sandbox's files belong to host root: a setuid copy of bash left behind would make
  // root of any local user who can reach the workspace.
  const L = makeLayout();
  try {
    const r = await runSandboxed({
      profile: profileFor(L.ws),
      command: [
        "cp /usr/bin/bash sb",
        "chmod 4755 sb 2>/dev/null && echo chmod-suid",
        "chmod g+s sb 2>/dev/null && echo chmod-sgid",
        `perl -e 'sysopen(my $f, "created", 0101, 04755) and print "open-suid\n"'`,
        `perl -e 'use Fcntl; chmod(06755, "sb") and print "perl-chmod\n"'`,
        "install -m 4755 /usr/bin/true inst 2>/dev/null && echo install-suid",
        "chmod 755 sb && echo plain-chmod",
      ].join("\n"),
      timeoutMs: 10_000,
    });
    assert.equal(r.stdout, "plain-chmod\n", r.stderr);
    for (const e of Deno.readDirSync(L.ws)) {
      const mode = Deno.lstatSync(join(L.ws, e.name)).mode! & 0o7777;
      assert.equal(mode & 0o6000, 0, `${e.name} has mode ${mode.toString(8)}`);
    }
  } finally {
    Deno.removeSync(L.base, { recursive: true });
  }
});

Deno.test("containment: --network shares the host network (positive control for the TCP check)", async () => {
  const L = makeLayout();
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = (async () => {
    const c = await tcp.accept();
    c.close();
    return true;
  })();
  try {
    const r = await runSandboxed({
      profile: profileFor(L.ws, { network: true }),
      command: `exec 3<>/dev/tcp/127.0.0.1/${(tcp.addr as Deno.NetAddr).port} && echo connected`,
      timeoutMs: 10_000,
    });
    assert.equal(r.stdout.trim(), "connected", r.stderr);
    assert.equal(await accepted, true);
  } finally {
    tcp.close();
    Deno.removeSync(L.base, { recursive: true });
  }
});

Deno.test("containment: hidden paths are empty and read-only", async () => {
  const L = makeLayout();
  try {
    Deno.mkdirSync(join(L.ws, ".retie-state"));
    Deno.writeTextFileSync(join(L.ws, ".retie-state", "ledger.db"), "LEDGER");
    Deno.writeTextFileSync(join(L.ws, "keys.db"), "KEYS");
    const r = await runSandboxed({
      profile: profileFor(L.ws, { hidden: [join(L.ws, ".retie-state"), join(L.ws, "keys.db")] }),
      command:
        "ls -A .retie-state | wc -l; cat keys.db | wc -c; touch .retie-state/x 2>/dev/null && echo wrote; echo > keys.db 2>/dev/null && echo wrote2; true",
      timeoutMs: 10_000,
    });
    assert.equal(r.stdout, "0\n0\n", r.stderr);
    assert.equal(Deno.readTextFileSync(join(L.ws, "keys.db")), "KEYS");
  } finally {
    Deno.removeSync(L.base, { recursive: true });
  }
});

Deno.test("containment: the same walls hold for a command on the copy-on-write view (overlay)", async () => {
  const L = makeLayout();
  const stage = Deno.makeTempDirSync({ prefix: "retie-stage-" });
  try {
    const { r } = await withHostServices(async (o) => {
      return await runSandboxed({
        profile: profileFor(L.ws),
        command: probeScript({ ...o, base: L.base, sibling: L.sibling, home: L.home }),
        timeoutMs: 30_000,
        stageDir: stage,
      });
    }, L.base);
    assert.equal(r.overlay?.mounted, true, r.overlay?.mountError);
    assert.equal(r.code, 0, r.stderr);
    const v = kv(r.stdout);
    // Seccomp mode 2, no capabilities, no_new_privs, a non-root id: for the command itself, not
    // only for the set-up that mounted the overlay.
    assertContained(v, "overlay");
    assert.equal(Deno.readTextFileSync(join(L.sibling, ".env")), "SIBLING_SECRET=sib-123\n");
    assert.throws(() => Deno.statSync(join(L.base, "planted")));
    // The workspace itself is untouched: the write is in the upper layer.
    assert.throws(() => Deno.statSync(join(L.ws, "inside.txt")));
    assert.equal(Deno.readTextFileSync(join(stage, "upper", "inside.txt")), "ok\n");
  } finally {
    Deno.removeSync(L.base, { recursive: true });
    Deno.removeSync(stage, { recursive: true });
  }
});
