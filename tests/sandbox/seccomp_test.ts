import assert from "node:assert/strict";
import {
  AUDIT_ARCH,
  buildSeccompFilter,
  buildSeccompProgram,
  DENIED_SYSCALLS,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
  SYSCALLS,
} from "../../src/sandbox/seccomp.ts";
import { runBpf } from "./bpf_interp.ts";

const EPERM = SECCOMP_RET_ERRNO | 1;
const ENOSYS = SECCOMP_RET_ERRNO | 38;
const ARCHES = ["x86_64", "aarch64"] as const;

Deno.test("seccomp: encoding is 8 bytes per instruction, little-endian, starts with the arch check", () => {
  for (const arch of ARCHES) {
    const bytes = buildSeccompFilter(arch, { network: false });
    const prog = buildSeccompProgram(arch, { network: false });
    assert.equal(bytes.length, prog.length * 8);
    assert.ok(prog.length < 256, "fits BPF_MAXINSNS comfortably and u8 jumps");
    const dv = new DataView(bytes.buffer);
    // ld [4] (arch)
    assert.equal(dv.getUint16(0, true), 0x20);
    assert.equal(dv.getUint32(4, true), 4);
    // jeq AUDIT_ARCH, +1, +0
    assert.equal(dv.getUint16(8, true), 0x15);
    assert.equal(dv.getUint8(10), 1);
    assert.equal(dv.getUint8(11), 0);
    assert.equal(dv.getUint32(12, true), AUDIT_ARCH[arch]);
    // ret KILL_PROCESS
    assert.equal(dv.getUint16(16, true), 0x06);
    assert.equal(dv.getUint32(20, true), SECCOMP_RET_KILL_PROCESS);
    // ld [0] (nr)
    assert.equal(dv.getUint16(24, true), 0x20);
    assert.equal(dv.getUint32(28, true), 0);
    // last instruction: ret ALLOW
    assert.equal(dv.getUint16(bytes.length - 8, true), 0x06);
    assert.equal(dv.getUint32(bytes.length - 4, true), SECCOMP_RET_ALLOW);
  }
});

Deno.test("seccomp: x86_64 x32 check follows the nr load; aarch64 has none", () => {
  const x = buildSeccompProgram("x86_64", { network: false });
  assert.deepEqual(x[4], { code: 0x35, jt: 0, jf: 1, k: 0x40000000 });
  assert.deepEqual(x[5], { code: 0x06, jt: 0, jf: 0, k: EPERM });
  const a = buildSeccompProgram("aarch64", { network: false });
  assert.ok(!a.some((i) => i.code === 0x35));
});

Deno.test("seccomp: interpreter — wrong arch killed, denied calls EPERM, ordinary calls allowed", () => {
  for (const arch of ARCHES) {
    const f = buildSeccompFilter(arch, { network: false });
    const nr = SYSCALLS[arch];
    const other = arch === "x86_64" ? AUDIT_ARCH.aarch64 : AUDIT_ARCH.x86_64;
    assert.equal(runBpf(f, { nr: 0, arch: other }), SECCOMP_RET_KILL_PROCESS);
    assert.equal(runBpf(f, { nr: 0, arch: 0x40000003 /* i386 */ }), SECCOMP_RET_KILL_PROCESS);
    for (const name of DENIED_SYSCALLS) {
      assert.equal(runBpf(f, { nr: nr[name], arch: AUDIT_ARCH[arch] }), EPERM, `${arch} ${name}`);
    }
    // read/write/openat/execve/mmap… are allowed (x86_64: 0,1,257,59,9; aarch64: 63,64,56,221,222)
    const allowed = arch === "x86_64"
      ? [0, 1, 257, 59, 9, 60, 231]
      : [63, 64, 56, 221, 222, 93, 94];
    for (const n of allowed) {
      assert.equal(runBpf(f, { nr: n, arch: AUDIT_ARCH[arch] }), SECCOMP_RET_ALLOW);
    }
    assert.equal(runBpf(f, { nr: nr.clone3, arch: AUDIT_ARCH[arch] }), ENOSYS);
  }
});

Deno.test("seccomp: x32 syscalls are denied on x86_64", () => {
  const f = buildSeccompFilter("x86_64", { network: true });
  assert.equal(runBpf(f, { nr: 0x40000000 | 0, arch: AUDIT_ARCH.x86_64 }), EPERM);
  assert.equal(runBpf(f, { nr: 0x40000000 | 519, arch: AUDIT_ARCH.x86_64 }), EPERM);
});

Deno.test("seccomp: clone with namespace flags denied, plain fork/thread clone allowed", () => {
  for (const arch of ARCHES) {
    const f = buildSeccompFilter(arch, { network: false });
    const clone = SYSCALLS[arch].clone;
    const A = AUDIT_ARCH[arch];
    const SIGCHLD = 17n;
    const THREAD = 0x3d0f00n; // CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT_SETTID|CHILD_CLEARTID
    assert.equal(runBpf(f, { nr: clone, arch: A, args: [SIGCHLD] }), SECCOMP_RET_ALLOW);
    assert.equal(runBpf(f, { nr: clone, arch: A, args: [THREAD] }), SECCOMP_RET_ALLOW);
    for (
      const ns of [
        0x20000n,
        0x2000000n,
        0x4000000n,
        0x8000000n,
        0x10000000n,
        0x20000000n,
        0x40000000n,
      ]
    ) {
      assert.equal(runBpf(f, { nr: clone, arch: A, args: [SIGCHLD | ns] }), EPERM, `flag ${ns}`);
    }
  }
});

Deno.test("seccomp: ioctl TIOCSTI/TIOCLINUX denied (high bits ignored), other ioctls allowed", () => {
  for (const arch of ARCHES) {
    const f = buildSeccompFilter(arch, { network: false });
    const A = AUDIT_ARCH[arch];
    const ioctl = SYSCALLS[arch].ioctl;
    assert.equal(runBpf(f, { nr: ioctl, arch: A, args: [0n, 0x5412n] }), EPERM);
    assert.equal(runBpf(f, { nr: ioctl, arch: A, args: [0n, 0x541cn] }), EPERM);
    assert.equal(runBpf(f, { nr: ioctl, arch: A, args: [0n, 0xffffffff00005412n] }), EPERM);
    assert.equal(
      runBpf(f, { nr: ioctl, arch: A, args: [0n, 0x5401n /* TCGETS */] }),
      SECCOMP_RET_ALLOW,
    );
    assert.equal(
      runBpf(f, { nr: ioctl, arch: A, args: [0n, 0x541bn /* FIONREAD */] }),
      SECCOMP_RET_ALLOW,
    );
  }
});

Deno.test("seccomp: socket() — only AF_UNIX without network; anything with network", () => {
  for (const arch of ARCHES) {
    const A = AUDIT_ARCH[arch];
    const socket = SYSCALLS[arch].socket;
    const off = buildSeccompFilter(arch, { network: false });
    const on = buildSeccompFilter(arch, { network: true });
    assert.equal(runBpf(off, { nr: socket, arch: A, args: [1n] }), SECCOMP_RET_ALLOW);
    for (const dom of [2n, 10n, 16n, /* netlink */ 17n /* packet */]) {
      assert.equal(runBpf(off, { nr: socket, arch: A, args: [dom] }), EPERM);
      assert.equal(runBpf(on, { nr: socket, arch: A, args: [dom] }), SECCOMP_RET_ALLOW);
    }
    // Denied calls stay denied with the network on.
    assert.equal(runBpf(on, { nr: SYSCALLS[arch].ptrace, arch: A }), EPERM);
  }
});

Deno.test("seccomp: both syscall tables name every syscall the filter uses", () => {
  for (const arch of ARCHES) {
    for (const name of [...DENIED_SYSCALLS, "clone", "clone3", "ioctl", "socket"]) {
      assert.equal(typeof SYSCALLS[arch][name], "number", `${arch} ${name}`);
    }
    assert.equal(new Set(Object.values(SYSCALLS[arch])).size, Object.keys(SYSCALLS[arch]).length);
  }
});

/**
 * Syscall numbers transcribed from the kernel headers (x86_64: asm/unistd_64.h; aarch64:
 * asm-generic/unistd.h), independent of the table in src/: a mistyped number there would let the
 * call through, and only an independent list can notice.
 */
const KNOWN_NUMBERS = {
  x86_64: {
    open: 2,
    creat: 85,
    chmod: 90,
    fchmod: 91,
    mknod: 133,
    openat: 257,
    mknodat: 259,
    fchmodat: 268,
    openat2: 437,
    fchmodat2: 452,
    ioctl: 16,
    socket: 41,
    clone: 56,
    ptrace: 101,
    pivot_root: 155,
    chroot: 161,
    acct: 163,
    mount: 165,
    umount2: 166,
    swapon: 167,
    swapoff: 168,
    reboot: 169,
    init_module: 175,
    delete_module: 176,
    kexec_load: 246,
    add_key: 248,
    request_key: 249,
    keyctl: 250,
    unshare: 272,
    perf_event_open: 298,
    name_to_handle_at: 303,
    open_by_handle_at: 304,
    setns: 308,
    process_vm_readv: 310,
    process_vm_writev: 311,
    finit_module: 313,
    kexec_file_load: 320,
    bpf: 321,
    userfaultfd: 323,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
    open_tree: 428,
    move_mount: 429,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    clone3: 435,
    mount_setattr: 442,
  },
  aarch64: {
    mknodat: 33,
    fchmod: 52,
    fchmodat: 53,
    openat: 56,
    openat2: 437,
    fchmodat2: 452,
    ioctl: 29,
    socket: 198,
    clone: 220,
    ptrace: 117,
    pivot_root: 41,
    chroot: 51,
    acct: 89,
    mount: 40,
    umount2: 39,
    swapon: 224,
    swapoff: 225,
    reboot: 142,
    init_module: 105,
    delete_module: 106,
    kexec_load: 104,
    add_key: 217,
    request_key: 218,
    keyctl: 219,
    unshare: 97,
    perf_event_open: 241,
    name_to_handle_at: 264,
    open_by_handle_at: 265,
    setns: 268,
    process_vm_readv: 270,
    process_vm_writev: 271,
    finit_module: 273,
    kexec_file_load: 294,
    bpf: 280,
    userfaultfd: 282,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
    open_tree: 428,
    move_mount: 429,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    clone3: 435,
    mount_setattr: 442,
  },
} as const;

Deno.test("seccomp: known answers — the header numbers of every blocked call get EPERM on both arches", () => {
  for (const arch of ARCHES) {
    const known: Record<string, number> = KNOWN_NUMBERS[arch];
    assert.deepEqual(SYSCALLS[arch], known, `${arch}: the table differs from the kernel headers`);
    const f = buildSeccompFilter(arch, { network: false });
    for (const name of DENIED_SYSCALLS) {
      assert.equal(
        runBpf(f, { nr: known[name], arch: AUDIT_ARCH[arch] }),
        EPERM,
        `${arch} ${name}`,
      );
    }
  }
});

Deno.test("seccomp: setuid/setgid bits cannot be set (chmod family, creating opens, mknod); openat2 → ENOSYS", () => {
  // Argument index of the mode, per call, from the syscall signatures (independent of MODE_ARGS).
  const modeCalls = {
    x86_64: [
      ["chmod", 90, 1],
      ["fchmod", 91, 1],
      ["fchmodat", 268, 2],
      ["fchmodat2", 452, 2],
      [
        "open",
        2,
        2,
      ],
      ["openat", 257, 3],
      ["creat", 85, 1],
      ["mknod", 133, 1],
      ["mknodat", 259, 2],
    ],
    aarch64: [["fchmod", 52, 1], ["fchmodat", 53, 2], ["fchmodat2", 452, 2], ["openat", 56, 3], [
      "mknodat",
      33,
      2,
    ]],
  } as const;
  for (const arch of ARCHES) {
    for (const network of [false, true]) {
      const f = buildSeccompFilter(arch, { network });
      const A = AUDIT_ARCH[arch];
      for (const [name, nr, arg] of modeCalls[arch]) {
        const withMode = (mode: bigint) => {
          const args = [0n, 0n, 0n, 0n, 0n, 0n];
          args[arg] = mode;
          return runBpf(f, { nr, arch: A, args });
        };
        for (const mode of [0o4755n, 0o2755n, 0o6777n, 0o104755n]) {
          assert.equal(withMode(mode), EPERM, `${arch} ${name} ${mode.toString(8)}`);
        }
        for (const mode of [0o755n, 0o644n, 0o1777n, 0o100644n]) {
          assert.equal(withMode(mode), SECCOMP_RET_ALLOW, `${arch} ${name} ${mode.toString(8)}`);
        }
      }
      assert.equal(runBpf(f, { nr: 437, arch: A }), ENOSYS, `${arch} openat2`);
    }
  }
});
