/**
 * Staged commands on the hard cases: hard links into a store outside the workspace (the pnpm
 * layout), FIFOs, sparse files, paths longer than the system limit, and a crash between recording
 * the changes and applying them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { storePaths } from "../../src/core/dirs.ts";
import { recoverStages } from "../../src/plane/staged.ts";
import { stagedFixture, treeOf } from "./staged_fixture.ts";
import { denoDir, isolatedEnv, runRetie } from "../helpers/retie_process.ts";

Deno.test("staged: a file hard-linked to a store outside the workspace is never written there", async () => {
  const s = stagedFixture();
  try {
    // pnpm: node_modules/.pnpm/<pkg>/index.js is a hard link to ~/.pnpm-store/…/index.js.
    const store = join(s.f.dir, "pnpm-store");
    Deno.mkdirSync(store);
    Deno.writeTextFileSync(join(store, "index.js"), "module.exports = 1;\n");
    const pkg = join(s.ws, "node_modules/.pnpm/dep@1.0.0/node_modules/dep");
    Deno.mkdirSync(pkg, { recursive: true });
    Deno.linkSync(join(store, "index.js"), join(pkg, "index.js"));
    const rel = "node_modules/.pnpm/dep@1.0.0/node_modules/dep/index.js";

    const out = await s.bash(`echo 'require("child_process").exec("evil")' >> ${rel}`);
    assert.equal(out.status, "ok", out.result.output);
    assert.match(Deno.readTextFileSync(join(s.ws, rel)), /evil/);
    // The store's name of the file is untouched, and the two names are now different files.
    assert.equal(Deno.readTextFileSync(join(store, "index.js")), "module.exports = 1;\n");
    assert.equal(Deno.statSync(join(store, "index.js")).nlink, 1);

    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "undone", u.reason);
    assert.equal(Deno.readTextFileSync(join(s.ws, rel)), "module.exports = 1;\n");
    assert.equal(Deno.readTextFileSync(join(store, "index.js")), "module.exports = 1;\n");

    // Truncating, rewriting with sed -i and deleting through the link do not reach the store.
    const out2 = await s.bash(`: > ${rel}; rm ${rel}`);
    assert.equal(out2.status, "ok", out2.result.output);
    assert.equal(Deno.readTextFileSync(join(store, "index.js")), "module.exports = 1;\n");
  } finally {
    s.close();
  }
});

Deno.test("staged: FIFOs are created, removed and put back by undo", async () => {
  const s = stagedFixture();
  try {
    const out = await s.bash("mkfifo made; mkfifo -m 600 sub_fifo");
    assert.equal(out.status, "ok", out.result.output);
    assert.equal(Deno.lstatSync(join(s.ws, "made")).isFifo, true);
    const before = treeOf(s.ws);
    const del = await s.bash("rm made; mkdir -p d; echo x > made2");
    assert.equal(del.status, "ok", del.result.output);
    assert.throws(() => Deno.lstatSync(join(s.ws, "made")));
    const u = await s.undo(del.actionId!);
    assert.equal(u.status, "undone", u.reason);
    assert.deepEqual(treeOf(s.ws), before);
    assert.equal(Deno.lstatSync(join(s.ws, "made")).isFifo, true);
    const u1 = await s.undo(out.actionId!);
    assert.equal(u1.status, "undone", u1.reason);
    assert.deepEqual(treeOf(s.ws), {});
  } finally {
    s.close();
  }
});

Deno.test("staged: a sparse file costs the store what it holds, not its apparent size", async () => {
  const s = stagedFixture();
  try {
    const big = join(s.ws, "disk.img");
    const f = Deno.openSync(big, { write: true, create: true });
    f.seekSync(3 * 1024 ** 3, Deno.SeekMode.Start); // 3 GiB apparent
    f.writeSync(new TextEncoder().encode("tail"));
    f.close();
    const blobsBefore = Deno.statSync(storePaths(s.f.ledgerPath).blobs).size;
    const out = await s.bash("rm disk.img");
    assert.equal(out.status, "ok", out.result.output);
    assert.throws(() => Deno.lstatSync(big));
    const grown = Deno.statSync(storePaths(s.f.ledgerPath).blobs).size - blobsBefore;
    assert.ok(grown < 8 * 1024 * 1024, `the blob store grew by ${grown} bytes`);
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "undone", u.reason);
    const st = Deno.statSync(big);
    assert.equal(st.size, 3 * 1024 ** 3 + 4);
    assert.ok((st.blocks ?? 0) * 512 < 16 * 1024 * 1024, "restored sparse");
    const tail = Deno.openSync(big);
    tail.seekSync(3 * 1024 ** 3, Deno.SeekMode.Start);
    const buf = new Uint8Array(4);
    tail.readSync(buf);
    tail.close();
    assert.equal(new TextDecoder().decode(buf), "tail");
  } finally {
    s.close();
  }
});

Deno.test("staged: a path longer than the system limit is refused as a whole, workspace untouched", async () => {
  const s = stagedFixture();
  try {
    Deno.writeTextFileSync(join(s.ws, "a.txt"), "a\n");
    const before = treeOf(s.ws);
    const seg = "d".repeat(200);
    const out = await s.bash(
      `echo changed > a.txt; for i in $(seq 25); do mkdir ${seg} && cd ${seg} || exit 1; done; ` +
        `echo deep > f; true`,
    );
    assert.equal(out.status, "error");
    assert.match(out.result.output, /not applied to the workspace.*path limit/s);
    assert.deepEqual(treeOf(s.ws), before);
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "skipped", u.reason);
    // The session goes on.
    const next = await s.bash("echo ok > b.txt");
    assert.equal(next.status, "ok", next.result.output);
    assert.equal(Deno.readTextFileSync(join(s.ws, "b.txt")), "ok\n");
  } finally {
    s.close();
  }
});

Deno.test("staged: a crash between recording and applying is completed (or rolled back) on the next start", async () => {
  for (const lose of [false, true]) {
    const s = stagedFixture();
    try {
      Deno.writeTextFileSync(join(s.ws, "a.txt"), "a1\n");
      Deno.writeTextFileSync(join(s.ws, "b.txt"), "b1\n");
      // Simulate the crash: the apply throws after recording (the stage stays behind).
      const real = s.staging.apply.bind(s.staging);
      s.staging.apply = () => {
        throw new Error("power cut");
      };
      const out = await s.bash("echo a2 > a.txt; echo b2 > b.txt; echo c > c.txt");
      s.staging.apply = real;
      assert.match(out.result.output, /not fully applied/);
      assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a1\n");
      const kinds = s.f.ledger.entries({ actionId: out.actionId! }).map((e) =>
        e.kind === "event" ? String(e.payload.type) : e.kind
      );
      assert.deepEqual(kinds, ["intent", "staged-changes", "outcome"]);
      assert.deepEqual(s.staging.pending(), [out.actionId]);
      const upper = join(storePaths(s.f.ledgerPath).staging, out.actionId!, "upper");
      // Half of the apply happened: a.txt landed. Or, when `lose`, the stage lost an entry.
      Deno.renameSync(join(upper, "a.txt"), join(s.ws, "a.txt"));
      if (lose) Deno.removeSync(join(upper, "c.txt"));

      const rec = recoverStages({
        staging: s.staging,
        blobs: s.f.blobs,
        sink: s.f.sink,
        ledger: s.f.ledger,
      });
      assert.deepEqual(rec, [{
        action: out.actionId,
        outcome: lose ? "rolled back" : "completed",
      }]);
      const ev = s.f.ledger.entries({ actionId: out.actionId! }).find((e) =>
        e.payload.type === "staged-recovery"
      );
      assert.equal(ev?.payload.outcome, lose ? "rolled back" : "completed");
      assert.deepEqual(s.staging.pending(), []);
      if (lose) {
        assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a1\n");
        assert.equal(Deno.readTextFileSync(join(s.ws, "b.txt")), "b1\n");
        assert.throws(() => Deno.lstatSync(join(s.ws, "c.txt")));
        const u = await s.undo(out.actionId!);
        assert.equal(u.status, "skipped", u.reason);
      } else {
        assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a2\n");
        assert.equal(Deno.readTextFileSync(join(s.ws, "b.txt")), "b2\n");
        assert.equal(Deno.readTextFileSync(join(s.ws, "c.txt")), "c\n");
        const u = await s.undo(out.actionId!);
        assert.equal(u.status, "undone", u.reason);
        assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a1\n");
        assert.throws(() => Deno.lstatSync(join(s.ws, "c.txt")));
      }
    } finally {
      s.close();
    }
  }
});

Deno.test("staged: `retie undo --all` from a later process finishes a cut-short apply, then undoes", async () => {
  const s = stagedFixture();
  const home = isolatedEnv();
  try {
    Deno.writeTextFileSync(join(s.ws, "a.txt"), "a1\n");
    const one = await s.bash("echo a2 > a.txt; mkdir -p d/e; echo f > d/e/f.txt");
    assert.equal(one.status, "ok", one.result.output);
    const real = s.staging.apply.bind(s.staging);
    s.staging.apply = () => {
      throw new Error("killed");
    };
    const two = await s.bash("echo a3 > a.txt; rm -r d");
    s.staging.apply = real;
    assert.match(two.result.output, /not fully applied/);
    const session = s.f.sink.sessionId;
    s.f.sink.close();
    s.f.ledger.close();
    s.f.blobs.close();
    const env = { ...home.env, DENO_DIR: denoDir() };
    const r = await runRetie(["--ledger", s.f.ledgerPath, "undo", "--all", session], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`recovered ${two.actionId}: completed`));
    assert.match(r.stdout, /undo: 2 undone, 0 skipped, 0 refused/);
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a1\n");
    assert.throws(() => Deno.lstatSync(join(s.ws, "d")));
  } finally {
    Deno.removeSync(home.dir, { recursive: true });
    s.close();
  }
});

Deno.test("staged: undo never writes through a parent swapped for a symlink, and never claims it did", async () => {
  const s = stagedFixture();
  const outside = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-outside-" }));
  try {
    Deno.mkdirSync(join(s.ws, "sub"));
    Deno.writeTextFileSync(join(s.ws, "sub", "f.txt"), "prior\n");
    Deno.writeTextFileSync(join(outside, "f.txt"), "outside\n");
    Deno.writeTextFileSync(join(s.ws, "top.txt"), "top prior\n");
    const out = await s.bash("echo changed > sub/f.txt; echo changed > top.txt");
    assert.equal(out.status, "ok", out.result.output);
    // After the action, the parent becomes a link to a directory outside the workspace.
    Deno.renameSync(join(s.ws, "sub"), join(s.ws, "sub.moved"));
    Deno.symlinkSync(outside, join(s.ws, "sub"));
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "refused", u.reason);
    assert.equal(Deno.readTextFileSync(join(s.ws, "top.txt")), "changed\n");
    // Forced: what can be restored is, the rest is named, and "undone" is not said.
    const f = await s.undo(out.actionId!, true);
    assert.equal(f.status, "refused", f.reason);
    assert.match(
      f.reason,
      /not restored as recorded: sub\/f\.txt .*1 other path\(s\) were restored/,
    );
    assert.equal(Deno.readTextFileSync(join(s.ws, "top.txt")), "top prior\n");
    assert.equal(Deno.readTextFileSync(join(outside, "f.txt")), "outside\n");
  } finally {
    Deno.removeSync(outside, { recursive: true });
    s.close();
  }
});

Deno.test("staged: a stage on another filesystem (tmpfs) is applied by copying; a FIFO is refused", async () => {
  const shm = Deno.makeTempDirSync({ dir: "/dev/shm", prefix: "retie-stage-" });
  const s = stagedFixture({ stagingRoot: shm });
  try {
    Deno.writeTextFileSync(join(s.ws, "a.txt"), "a1\n");
    const before = treeOf(s.ws);
    const out = await s.bash(
      "echo a2 > a.txt; mkdir -p d/e; echo f > d/e/f.txt; chmod 700 d; ln -s a.txt l",
    );
    assert.equal(out.status, "ok", out.result.output);
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a2\n");
    assert.equal(Deno.readTextFileSync(join(s.ws, "d/e/f.txt")), "f\n");
    assert.equal((Deno.statSync(join(s.ws, "d")).mode ?? 0) & 0o777, 0o700);
    assert.equal(Deno.readLinkSync(join(s.ws, "l")), "a.txt");
    const fifo = await s.bash("mkfifo p; echo x > b.txt");
    assert.equal(fifo.status, "error");
    assert.match(fifo.result.output, /not applied.*FIFO cannot be applied across filesystems/s);
    assert.throws(() => Deno.lstatSync(join(s.ws, "b.txt")));
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "undone", u.reason);
    assert.deepEqual(treeOf(s.ws), before);
  } finally {
    s.close();
    Deno.removeSync(shm, { recursive: true });
  }
});
