/**
 * A classic-BPF interpreter for seccomp programs (the subset our builder may emit: LD W ABS, JEQ,
 * JGE, JSET, RET, with K operands), written independently of the builder to check what it emits.
 */

/** A seccomp_data record: nr, arch, and six 64-bit arguments (as bigint). */
export interface SeccompData {
  nr: number;
  arch: number;
  args?: bigint[];
}

function dataBytes(d: SeccompData): DataView {
  const b = new DataView(new ArrayBuffer(64));
  b.setInt32(0, d.nr, true);
  b.setUint32(4, d.arch, true);
  b.setBigUint64(8, 0n, true);
  (d.args ?? []).forEach((a, i) => b.setBigUint64(16 + 8 * i, BigInt.asUintN(64, a), true));
  return b;
}

/** Runs the encoded filter on `d`; returns the 32-bit seccomp action value. */
export function runBpf(filter: Uint8Array, d: SeccompData): number {
  const prog = new DataView(filter.buffer, filter.byteOffset, filter.byteLength);
  const n = filter.length / 8;
  const data = dataBytes(d);
  let a = 0;
  let pc = 0;
  for (let steps = 0; steps < 10_000; steps++) {
    if (pc >= n) throw new Error(`pc ${pc} out of range`);
    const code = prog.getUint16(pc * 8, true);
    const jt = prog.getUint8(pc * 8 + 2);
    const jf = prog.getUint8(pc * 8 + 3);
    const k = prog.getUint32(pc * 8 + 4, true);
    switch (code) {
      case 0x20: // LD W ABS
        if (k % 4 !== 0 || k + 4 > 64) throw new Error(`bad load offset ${k}`);
        a = data.getUint32(k, true);
        pc++;
        break;
      case 0x15:
        pc += 1 + (a === k ? jt : jf);
        break;
      case 0x35:
        pc += 1 + (a >>> 0 >= k ? jt : jf);
        break;
      case 0x45:
        pc += 1 + ((a & k) !== 0 ? jt : jf);
        break;
      case 0x06:
        return k >>> 0;
      default:
        throw new Error(`unsupported opcode 0x${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error("no return");
}
