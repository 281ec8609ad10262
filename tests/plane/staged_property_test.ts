/**
 * Property test of staged commands: random file-system operations run in the sandbox on the
 * copy-on-write view. After the apply the workspace must look exactly as the command saw it (types,
 * modes, contents, link targets), and after undo exactly as before.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { stagedFixture } from "./staged_fixture.ts";

/** `type mode path [target|sha256]` per entry, sorted: what `find` prints inside the sandbox. */
function listing(dir: string): string {
  const out: string[] = [];
  const visit = (p: string, rel: string) => {
    for (const e of Deno.readDirSync(p)) {
      const full = join(p, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      const st = Deno.lstatSync(full);
      const mode = ((st.mode ?? 0) & 0o7777).toString(8);
      if (st.isSymlink) out.push(`l ${r} ${Deno.readLinkSync(full)}`);
      else if (st.isDirectory) {
        out.push(`d ${mode} ${r}`);
        visit(full, r);
      } else if (st.isFifo) out.push(`p ${mode} ${r}`);
      else {
        const sum = createHash("sha256").update(Deno.readFileSync(full)).digest("hex");
        out.push(`f ${mode} ${r} ${sum}`);
      }
    }
  };
  visit(dir, "");
  return out.sort().join("\n");
}

/** The same listing, printed by the command itself inside the sandbox. */
const LIST_INSIDE = String.raw`find . -mindepth 1 \( -type l -printf 'l %P %l\n' \) -o \
  \( -type d -printf 'd %m %P\n' \) -o \( -type p -printf 'p %m %P\n' \) -o \
  \( -type f -printf 'f %m %P ' -exec sh -c 'sha256sum < "$1" | cut -d" " -f1' _ {} \; \) | sort`;

/** mulberry32: small, and its low bits are as random as its high ones. */
function rng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296 * n) | 0;
  };
}

function randomScript(seed: number): string {
  const r = rng(seed);
  const names = ["a", "b", "c", "d", "x", "l", "f"]; // x, l, f: names the starting tree has
  const path = () => {
    const depth = r(3);
    const parts = Array.from({ length: depth + 1 }, () => names[r(names.length)]);
    return parts.join("/");
  };
  const ops: string[] = [];
  for (let i = 0; i < 14; i++) {
    const p = path();
    const q = path();
    switch (r(12)) {
      case 0:
        ops.push(`mkdir -p "$(dirname ${p})" && { [ -p ${p} ] || echo ${seed}-${i} > ${p}; }`);
        break;
      case 1:
        ops.push(`[ -p ${p} ] || echo more-${i} >> ${p}`);
        break;
      case 2:
        ops.push(`rm -rf ${p}`);
        break;
      case 3:
        ops.push(`mkdir -p ${p}`);
        break;
      case 4:
        ops.push(`mkdir -p "$(dirname ${q})" && mv ${p} ${q}`);
        break;
      case 5:
        // (directories stay listable for the command's own listing)
        ops.push(`chmod ${["755", "700", "750", "711"][r(4)]} ${p}; [ -f ${p} ] && chmod 600 ${p}`);
        break;
      case 6:
        ops.push(`mkdir -p "$(dirname ${p})" && ln -sfn ../${q} ${p}`);
        break;
      case 7:
        ops.push(`rm -rf ${p} && mkdir -p ${p} && echo fresh > ${p}/n`);
        break;
      case 8:
        ops.push(`mkdir -p "$(dirname ${p})" && rm -rf ${p} && mkfifo ${p}`);
        break;
      case 9:
        ops.push(`mkdir -p "$(dirname ${q})" && ln ${p} ${q}`);
        break;
      case 10:
        ops.push(`rm -rf ${p} && mkdir -p "$(dirname ${p})" && printf 'x%.0s' $(seq 3000) > ${p}`);
        break;
      case 11:
        ops.push(`[ -p ${p} ] || truncate -s 3M ${p}`);
        break;
    }
  }
  // Never open a FIFO for writing (it would block without a reader): writes skip them.
  return ops.map((o) => `(${o}) 2>/dev/null </dev/null`).join("\n");
}

Deno.test("staged property: the workspace after apply is what the command saw; undo restores it", async () => {
  for (let seed = 1; seed <= 40; seed++) {
    const s = stagedFixture();
    try {
      // A starting tree: files, nested dirs, a symlink, a FIFO, a sparse file.
      const setup = await s.bash(
        "mkdir -p a/b c/d && echo 1 > a/x && echo 2 > a/b/y && echo 3 > c/d/z && " +
          "ln -s a/x l && mkfifo c/f && truncate -s 2M c/sparse && chmod 700 c/d",
      );
      assert.equal(setup.status, "ok", setup.result.output);
      const before = listing(s.ws);
      const out = await s.bash(`${randomScript(seed)}\necho ---LIST---\n${LIST_INSIDE}`);
      assert.equal(out.status, "ok", `seed ${seed}: ${out.result.output}`);
      // retie's reserved .retie (an empty read-only mount point in the view) is not the command's.
      const seen = (out.result.output.split("---LIST---\n")[1]?.split("\nexit code")[0]?.trim() ??
        "").split("\n").filter((l) => !/ \.retie$/.test(l)).join("\n");
      assert.equal(listing(s.ws), seen, `seed ${seed}: the workspace differs from the view`);
      const u = await s.undo(out.actionId!);
      assert.equal(u.status, "undone", `seed ${seed}: ${u.reason}`);
      assert.equal(listing(s.ws), before, `seed ${seed}: undo is not exact`);
    } finally {
      s.close();
    }
  }
});
