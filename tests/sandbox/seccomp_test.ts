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
