import assert from "node:assert/strict";
import { relative } from "node:path";
import { unknownEffect } from "../../src/core/effect.ts";
import { RetieError } from "../../src/core/errors.ts";
import { openVerified, resolveRealPath, resolveToolPath } from "../../src/tools/confine.ts";
import { editTool } from "../../src/tools/edit.ts";
import { grepTool } from "../../src/tools/grep.ts";
import { lsTool } from "../../src/tools/ls.ts";
import { readTool } from "../../src/tools/read.ts";
import { writeTool } from "../../src/tools/write.ts";
import { call, fixture, plant } from "./tool_ctx.ts";

Deno.test("a file symlink pointing outside resolves outside: the read needs approval", async () => {
  const f = fixture();
  try {
    Deno.symlinkSync(`${f.outside}/secret.txt`, `${f.ws}/link.txt`);
    const eff = await readTool.classify({ path: "link.txt" }, f.ctx);
    assert.deepEqual(eff.readsOutside, [`${f.outside}/secret.txt`]);
    assert.equal(eff.class, "none");
    // A write through it is outside too: listed, and the handler refuses without touching it.
    const w = await writeTool.classify({ path: "link.txt", content: "x" }, f.ctx);
    assert.deepEqual(w.writesOutside, [`${f.outside}/secret.txt`]);
    const r = await call(writeTool, f.ctx, { path: "link.txt", content: "pwned" });
    assert.equal(r.ok, false);
    assert.match(r.output, /outside the workspace/);
    assert.equal(Deno.readTextFileSync(`${f.outside}/secret.txt`), "TOP SECRET\n");
  } finally {
    f.cleanup();
  }
});

Deno.test("a directory symlink pointing outside: reads listed outside, writes refused", async () => {
  const f = fixture();
  try {
    Deno.symlinkSync(f.outside, `${f.ws}/out`);
    const eff = await readTool.classify({ path: "out/secret.txt" }, f.ctx);
    assert.deepEqual(eff.readsOutside, [`${f.outside}/secret.txt`]);
    const r = await call(writeTool, f.ctx, { path: "out/new.txt", content: "x" });
    assert.equal(r.ok, false);
    assert.match(r.output, /outside the workspace/);
    assert.throws(() => Deno.statSync(`${f.outside}/new.txt`));
    // ls does not follow it; grep does not search through it.
    const ls = await call(lsTool, f.ctx, {});
    assert.match(ls.output, new RegExp(`out -> ${f.outside}`));
    const g = await call(grepTool, f.ctx, { pattern: "SECRET" });
    assert.match(g.output, /no matches/);
  } finally {
    f.cleanup();
  }
});

Deno.test("`..`, absolute paths and /proc/self/root resolve to where they really lead", async () => {
  const f = fixture();
  try {
    plant(f.ws, { "a/b.txt": "b\n" });
    assert.equal(resolveToolPath(f.ctx, "a/../a/b.txt").real, `${f.ws}/a/b.txt`);
    assert.equal(resolveToolPath(f.ctx, "../outside/secret.txt").inside, false);
    assert.equal(resolveToolPath(f.ctx, `${f.ws}/a/b.txt`).inside, true);
    assert.equal(resolveToolPath(f.ctx, "/etc/hostname").inside, false);
    const viaProc = resolveToolPath(f.ctx, `/proc/self/root${f.outside}/secret.txt`);
    assert.equal(viaProc.real, `${f.outside}/secret.txt`);
    assert.equal(viaProc.inside, false);
    // `..` after a symlink applies to the symlink's target, as in the kernel.
    Deno.symlinkSync(`${f.outside}`, `${f.ws}/out`);
    assert.equal(
      resolveRealPath(f.ws, "out/../outside/secret.txt").real,
      `${f.outside}/secret.txt`,
    );
    for (const path of ["../outside/new.txt", `/proc/self/root${f.outside}/new.txt`]) {
      const r = await call(writeTool, f.ctx, { path, content: "x" });
      assert.equal(r.ok, false, path);
      assert.match(r.output, /outside the workspace/);
    }
    assert.deepEqual([...Deno.readDirSync(f.outside)].map((e) => e.name), ["secret.txt"]);
  } finally {
    f.cleanup();
  }
});

Deno.test("protected paths are never reachable, whichever way they are named", async () => {
  const f = fixture({ protectInside: true });
  try {
    Deno.symlinkSync(f.state, `${f.ws}/st`);
    for (const path of [`${f.state}/ledger.db`, "st/ledger.db", "../state/ledger.db", ".retie"]) {
      await assert.rejects(readTool.classify({ path }, f.ctx), RetieError, path);
      await assert.rejects(writeTool.classify({ path, content: "x" }, f.ctx), RetieError, path);
    }
    const ls = await call(lsTool, f.ctx, {});
    assert.doesNotMatch(ls.output, /\.retie/);
    const g = await call(grepTool, f.ctx, { pattern: "ledger" });
    assert.match(g.output, /no matches/);
    // A hard link to a protected file is refused at open time.
    Deno.linkSync(`${f.state}/ledger.db`, `${f.ws}/hl.db`);
    assert.throws(() => openVerified(f.ctx, `${f.ws}/hl.db`), /hard link to retie's own state/);
    assert.equal(Deno.readTextFileSync(`${f.state}/ledger.db`), "ledger bytes\n");
  } finally {
    f.cleanup();
  }
});

Deno.test("protected paths given relative or through a symlink are protected all the same", async () => {
  // `retie run . --ledger ledger.db` hands the tools a relative ledger path; a state directory
  // reached through a symlink names it by a path that is not its real one.
  const f = fixture();
  try {
    plant(f.ws, { "ledger.db": "LEDGER BYTES\n", "ledger.db.head.json": "{}\n", "a.txt": "a\n" });
    Deno.symlinkSync(f.ws, `${f.root}/wslink`);
    const ctx = {
      ...f.ctx,
      protectedPaths: [
        relative(Deno.cwd(), `${f.ws}/ledger.db`),
        `${f.root}/wslink/ledger.db.head.json`,
      ],
    };
    for (const path of ["ledger.db", "ledger.db.head.json"]) {
      await assert.rejects(readTool.classify({ path }, ctx), RetieError, path);
      await assert.rejects(writeTool.classify({ path, content: "x" }, ctx), RetieError, path);
      assert.throws(() => openVerified(ctx, `${f.ws}/${path}`), /retie's own state/);
    }
    // A handler run against an effect that never named the file (classification refused it).
    const approved = unknownEffect("write");
    const w = await writeTool.handler({ path: "ledger.db", content: "gone" }, ctx, approved);
    assert.equal(w.ok, false);
    assert.equal(Deno.readTextFileSync(`${f.ws}/ledger.db`), "LEDGER BYTES\n");
    const ls = await call(lsTool, ctx, {});
    assert.doesNotMatch(ls.output, /ledger/);
    const g = await call(grepTool, ctx, { pattern: "LEDGER" });
    assert.match(g.output, /no matches/);
  } finally {
    f.cleanup();
  }
});

Deno.test("a file with several hard links is not written; reads go by its real path", async () => {
  const f = fixture();
  try {
    Deno.linkSync(`${f.outside}/secret.txt`, `${f.ws}/hard.txt`);
    const w = await call(writeTool, f.ctx, { path: "hard.txt", content: "changed" });
    assert.equal(w.ok, false);
    assert.match(w.output, /2 hard links/);
    const e = await call(editTool, f.ctx, { path: "hard.txt", old_text: "TOP", new_text: "NO" });
    assert.equal(e.ok, false);
    assert.match(e.output, /hard links/);
    assert.equal(Deno.readTextFileSync(`${f.outside}/secret.txt`), "TOP SECRET\n");
    const eff = await readTool.classify({ path: "hard.txt" }, f.ctx);
    assert.deepEqual(eff.readsOutside, []);
  } finally {
    f.cleanup();
  }
});

Deno.test("race: a checked file swapped for a symlink before the handler runs is refused", async () => {
  const f = fixture();
  try {
    plant(f.ws, { "f.txt": "harmless\n" });
    const args = readTool.schema.parse({ path: "f.txt" });
    const eff = await readTool.classify(args, f.ctx);
    assert.deepEqual(eff.readsOutside, []); // inside: the policy lets it through without asking
    Deno.removeSync(`${f.ws}/f.txt`);
    Deno.symlinkSync(`${f.outside}/secret.txt`, `${f.ws}/f.txt`);
    const r = await readTool.handler(args, f.ctx, eff);
    assert.equal(r.ok, false);
    assert.match(r.output, /outside the workspace, which this call was not approved to read/);
    assert.doesNotMatch(r.output, /TOP SECRET/);
  } finally {
    f.cleanup();
  }
});

Deno.test("race: a checked parent directory swapped for a symlink stops the write", async () => {
  const f = fixture();
  try {
    plant(f.ws, { "sub/f.txt": "old\n" });
    const args = writeTool.schema.parse({ path: "sub/f.txt", content: "new\n" });
    const eff = await writeTool.classify(args, f.ctx);
    assert.deepEqual(eff.writesOutside, []);
    Deno.renameSync(`${f.ws}/sub`, `${f.root}/moved`);
    Deno.symlinkSync(f.outside, `${f.ws}/sub`);
    const r = await writeTool.handler(args, f.ctx, eff);
    assert.equal(r.ok, false);
    assert.match(r.output, /outside the workspace/);
    assert.deepEqual([...Deno.readDirSync(f.outside)].map((e) => e.name), ["secret.txt"]);
  } finally {
    f.cleanup();
  }
});

Deno.test("race: an approved outside read is not stretched to another outside file", async () => {
  const f = fixture();
  try {
    plant(f.outside, { "ok.txt": "fine\n" });
    Deno.symlinkSync(`${f.outside}/ok.txt`, `${f.ws}/l.txt`);
    const args = readTool.schema.parse({ path: "l.txt" });
    const eff = await readTool.classify(args, f.ctx);
    assert.deepEqual(eff.readsOutside, [`${f.outside}/ok.txt`]);
    const ok = await readTool.handler(args, f.ctx, eff); // the guard asked and the user said yes
    assert.equal(ok.ok, true);
    assert.match(ok.output, /fine/);
    Deno.removeSync(`${f.ws}/l.txt`);
    Deno.symlinkSync(`${f.outside}/secret.txt`, `${f.ws}/l.txt`);
    const r = await readTool.handler(args, f.ctx, eff);
    assert.equal(r.ok, false);
    assert.doesNotMatch(r.output, /TOP SECRET/);
  } finally {
    f.cleanup();
  }
});

Deno.test("symlink loops and bad path strings give clear errors", () => {
  const f = fixture();
  try {
    Deno.symlinkSync("b", `${f.ws}/a`);
    Deno.symlinkSync("a", `${f.ws}/b`);
    assert.throws(() => resolveToolPath(f.ctx, "a/x"), /too many levels of symlinks/);
    assert.throws(() => resolveToolPath(f.ctx, "x\0y"), /NUL byte/);
    assert.throws(() => resolveToolPath(f.ctx, ""), /empty/);
  } finally {
    f.cleanup();
  }
});
