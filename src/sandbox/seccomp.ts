/**
 * retie's own seccomp filter: a classic-BPF program assembled in pure TypeScript.
 *
 * bwrap loads it with `--seccomp FD` (the bytes come over stdin). The filter is a deny list on top
 * of namespaces + dropped capabilities: it removes kernel interfaces that a sandboxed build or test
 * never needs and that are the usual ways out of a container or into the host.
 *
 * What is blocked (EPERM unless noted), and why:
 * - any other architecture than the one the filter was built for → KILL_PROCESS (a foreign-ABI
 *   syscall would bypass the number table); on x86_64, x32-ABI numbers (bit 30) → EPERM
 * - ptrace, process_vm_readv/writev: reading or steering other processes
 * - mount, umount2, pivot_root, chroot and the new mount API (open_tree, move_mount, fsopen,
 *   fsconfig, fsmount, fspick, mount_setattr): reshaping the filesystem view
 * - unshare, setns, and clone with any CLONE_NEW* flag: nested namespaces (a new user namespace
 *   gives back capabilities inside it and exposes much more kernel attack surface)
 * - clone3 → ENOSYS: its flags live in a struct that BPF cannot read, so libc is told "not
 *   implemented" and falls back to clone(), whose flags we can check
 * - keyctl, add_key, request_key: the kernel keyring is not namespaced
 * - bpf, perf_event_open, userfaultfd: large kernel attack surface, used in many exploits
 * - io_uring_setup/enter/register: performs syscalls that seccomp never sees
 * - kexec_load, kexec_file_load, init_module, finit_module, delete_module, reboot, swapon,
 *   swapoff, acct: host administration
 * - open_by_handle_at, name_to_handle_at: open files by handle, bypassing the mount view
 *   (the "shocker" container escape)
 * - ioctl TIOCSTI (0x5412) and TIOCLINUX (0x541C): push keystrokes into the controlling terminal
 * - socket() with a domain other than AF_UNIX, when the network is off (the network namespace
 *   already has no interfaces but loopback; this also removes raw/packet/netlink sockets)
 * - setting the setuid or setgid bit: chmod, fchmod, fchmodat, fchmodat2 with S_ISUID|S_ISGID in
 *   the mode, and open, openat, creat, mknod, mknodat with those bits in their mode argument. When
 *   retie runs as root, the sandbox's files belong to host root (its uid maps to kuid 0): a
 *   setuid-root shell left in the workspace would make root of any local user who can reach it
 * - openat2 → ENOSYS: its mode lives in a struct that BPF cannot read; callers fall back to openat
 *
 * What is NOT blocked: everything else, including ordinary file, process, signal and memory calls,
 * socketpair, AF_UNIX sockets (sockets of the host are not mounted in), and, with `network: true`,
 * all socket domains. Filesystem and network isolation come from bwrap's mounts and namespaces,
 * not from this filter.
 *
 * @module
 */

/** Architectures the filter supports. */
export type SeccompArch = "x86_64" | "aarch64";

// --- BPF opcodes (linux/bpf_common.h, linux/filter.h) ---
const BPF_LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const BPF_JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const BPF_JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const BPF_JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const BPF_RET_K = 0x06; // BPF_RET | BPF_K

// --- seccomp return values (linux/seccomp.h) ---
/** Kill the whole process. */
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
/** Fail the call with errno = low 16 bits. */
export const SECCOMP_RET_ERRNO = 0x00050000;
/** Let the call through. */
export const SECCOMP_RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const ENOSYS = 38;

// --- struct seccomp_data offsets: { int nr; u32 arch; u64 instruction_pointer; u64 args[6]; } ---
/** Offset of the syscall number. */
export const OFF_NR = 0;
/** Offset of the AUDIT_ARCH value. */
export const OFF_ARCH = 4;
/** Offset of the low 32 bits of argument `i` (little-endian).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { offArgLo } from "./seccomp.ts";
 * assert.deepEqual(offArgLo(1), 24);
 * ```
 */
export function offArgLo(i: number): number {
  return 16 + 8 * i;
}

/** AUDIT_ARCH_* values (linux/audit.h). */
export const AUDIT_ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7 } as const;
/** x32 ABI syscalls on x86_64 carry this bit in their number. */
export const X32_SYSCALL_BIT = 0x40000000;

/** Syscall numbers used by the filter (x86_64: asm/unistd_64.h; aarch64: asm-generic/unistd.h). */
export const SYSCALLS: Record<SeccompArch, Record<string, number>> = {
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
};

/** Syscalls denied outright with EPERM (every entry must exist in both tables). */
export const DENIED_SYSCALLS: readonly string[] = [
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "mount",
  "umount2",
  "pivot_root",
  "chroot",
  "open_tree",
  "move_mount",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "mount_setattr",
  "unshare",
  "setns",
  "keyctl",
  "add_key",
  "request_key",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "io_uring_setup",
  "io_uring_enter",
  "io_uring_register",
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "reboot",
  "swapon",
  "swapoff",
  "acct",
  "open_by_handle_at",
  "name_to_handle_at",
];

/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (CLONE_NEWTIME, 0x80,
 * shares its bit with the exit signal in clone(); a time namespace needs unshare, which is denied). */
export const CLONE_NS_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 |
  0x20000000 | 0x40000000;
/** S_ISUID | S_ISGID: mode bits a sandboxed command may not set. */
export const SETID_BITS = 0o6000;

/**
 * Calls that take a file mode, and which argument holds it (aarch64 has only the *at forms).
 * Setting S_ISUID or S_ISGID through any of them is denied.
 */
export const MODE_ARGS: Record<SeccompArch, readonly (readonly [string, number])[]> = {
  x86_64: [
    ["chmod", 1],
    ["fchmod", 1],
    ["fchmodat", 2],
    ["fchmodat2", 2],
    ["open", 2],
    ["openat", 3],
    ["creat", 1],
    ["mknod", 1],
    ["mknodat", 2],
  ],
  aarch64: [
    ["fchmod", 1],
    ["fchmodat", 2],
    ["fchmodat2", 2],
    ["openat", 3],
    ["mknodat", 2],
  ],
};

/** Terminal ioctls that inject input. */
export const TIOCSTI = 0x5412;
export const TIOCLINUX = 0x541c;
const AF_UNIX = 1;

/** One classic BPF instruction. */
export interface BpfInsn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const stmt = (code: number, k: number): BpfInsn => ({ code, jt: 0, jf: 0, k: k >>> 0 });
const jump = (code: number, k: number, jt: number, jf: number): BpfInsn => ({
  code,
  jt,
  jf,
  k: k >>> 0,
});
const ret = (k: number) => stmt(BPF_RET_K, k);
const errno = (e: number) => ret(SECCOMP_RET_ERRNO | e);

/**
 * Builds the filter as a list of instructions (see {@link buildSeccompFilter} for the bytes).
 *
 * Layout: arch check; load nr; (x86_64) x32 check; then one small block per rule, each of which
 * either returns or falls through to the next with `nr` still in the accumulator; finally ALLOW.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildSeccompProgram } from "./seccomp.ts";
 * const program = buildSeccompProgram("x86_64", { network: false });
 * assert.ok(program.length > 50 && program.length < 1000); // about 140 instructions
 * ```
 */
export function buildSeccompProgram(arch: SeccompArch, opts: { network: boolean }): BpfInsn[] {
  const nr = SYSCALLS[arch];
  if (!nr) throw new Error(`seccomp: unsupported architecture ${arch}`);
  const p: BpfInsn[] = [];
  // Architecture check: a syscall made through another ABI must not be judged by our table.
  p.push(stmt(BPF_LD_W_ABS, OFF_ARCH));
  p.push(jump(BPF_JEQ_K, AUDIT_ARCH[arch], 1, 0));
  p.push(ret(SECCOMP_RET_KILL_PROCESS));
  p.push(stmt(BPF_LD_W_ABS, OFF_NR));
  if (arch === "x86_64") {
    // x32 syscalls are numbered nr | 0x40000000 and reach the same kernel code: deny them all.
    p.push(jump(BPF_JGE_K, X32_SYSCALL_BIT, 0, 1));
    p.push(errno(EPERM));
  }
  for (const name of DENIED_SYSCALLS) {
    p.push(jump(BPF_JEQ_K, nr[name], 0, 1));
    p.push(errno(EPERM));
  }
  // clone3 keeps its flags in user memory (unreadable here): ENOSYS makes libc fall back to clone.
  p.push(jump(BPF_JEQ_K, nr.clone3, 0, 1));
  p.push(errno(ENOSYS));
  // clone(flags, ...): deny namespace-creating flags (flags is argument 0 on both arches).
  p.push(jump(BPF_JEQ_K, nr.clone, 0, 4));
  p.push(stmt(BPF_LD_W_ABS, offArgLo(0)));
  p.push(jump(BPF_JSET_K, CLONE_NS_FLAGS, 0, 1));
  p.push(errno(EPERM));
  p.push(ret(SECCOMP_RET_ALLOW));
  // openat2 keeps its mode in a struct (unreadable here): ENOSYS makes callers fall back to openat.
  p.push(jump(BPF_JEQ_K, nr.openat2, 0, 1));
  p.push(errno(ENOSYS));
  // chmod-like and creating calls: no setuid/setgid bit in the mode (mode_t is 32 bits).
  for (const [name, arg] of MODE_ARGS[arch]) {
    p.push(jump(BPF_JEQ_K, nr[name], 0, 4));
    p.push(stmt(BPF_LD_W_ABS, offArgLo(arg)));
    p.push(jump(BPF_JSET_K, SETID_BITS, 0, 1));
    p.push(errno(EPERM));
    p.push(ret(SECCOMP_RET_ALLOW));
  }
  // ioctl(fd, request, ...): the kernel takes request as 32-bit unsigned int, so the low word is
  // what it acts on.
  p.push(jump(BPF_JEQ_K, nr.ioctl, 0, 5));
  p.push(stmt(BPF_LD_W_ABS, offArgLo(1)));
  p.push(jump(BPF_JEQ_K, TIOCSTI, 1, 0));
  p.push(jump(BPF_JEQ_K, TIOCLINUX, 0, 1));
  p.push(errno(EPERM));
  p.push(ret(SECCOMP_RET_ALLOW));
  if (!opts.network) {
    // socket(domain, ...): only AF_UNIX without the network.
    p.push(jump(BPF_JEQ_K, nr.socket, 0, 4));
    p.push(stmt(BPF_LD_W_ABS, offArgLo(0)));
    p.push(jump(BPF_JEQ_K, AF_UNIX, 1, 0));
    p.push(errno(EPERM));
    p.push(ret(SECCOMP_RET_ALLOW));
  }
  p.push(ret(SECCOMP_RET_ALLOW));
  return p;
}

/**
 * Encodes instructions as a `struct sock_filter[]` (8 bytes each: u16 code, u8 jt, u8 jf, u32 k;
 * little-endian, which both supported arches are).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeBpf } from "./seccomp.ts";
 * assert.deepEqual(encodeBpf([{ code: 6, jt: 0, jf: 0, k: 0x7fff0000 }]).length, 8);
 * ```
 */
export function encodeBpf(prog: BpfInsn[]): Uint8Array {
  const out = new Uint8Array(prog.length * 8);
  const dv = new DataView(out.buffer);
  prog.forEach((ins, i) => {
    dv.setUint16(i * 8, ins.code, true);
    dv.setUint8(i * 8 + 2, ins.jt);
    dv.setUint8(i * 8 + 3, ins.jf);
    dv.setUint32(i * 8 + 4, ins.k, true);
  });
  return out;
}

/**
 * The seccomp filter bwrap loads (`--seccomp 0`, bytes on stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildSeccompFilter } from "./seccomp.ts";
 * const bytes = buildSeccompFilter("x86_64", { network: false });
 * assert.deepEqual(bytes.length % 8, 0);
 * ```
 */
export function buildSeccompFilter(arch: SeccompArch, opts: { network: boolean }): Uint8Array {
  return encodeBpf(buildSeccompProgram(arch, opts));
}

/**
 * The architecture of this process, as the filter names it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostSeccompArch } from "./seccomp.ts";
 * assert.ok(["x86_64", "aarch64"].includes(hostSeccompArch())); // "x86_64" here
 * ```
 */
export function hostSeccompArch(): SeccompArch {
  const a = Deno.build.arch;
  if (a === "x86_64" || a === "aarch64") return a;
  throw new Error(`seccomp: unsupported architecture ${a}`);
}
