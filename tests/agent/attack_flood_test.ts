/**
 * Workspace content that hangs or floods retie (the attack, end to end): a command leaves a FIFO,
 * sparse files of gigabytes that hold almost nothing, and a path longer than the system allows.
 * The session goes on (the next command runs, the file tools answer at once), each case is said
 * and recorded, the snapshot store stays small, and `retie undo --all` takes the command back.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkSandbox } from "../../src/sandbox/check.ts";
import { openLedger } from "../../src/ledger/mod.ts";
import { attackRun, gitRepo, retieAgain } from "../helpers/attack_run.ts";

const sandbox = await checkSandbox();

function du(dir: string): number {
  let n = 0;
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = join(d, e.name);
      const st = Deno.lstatSync(p);
      if (st.isDirectory) walk(p);
      else n += (st.blocks ?? 0) * 512;
    }
  };
  walk(dir);
  return n;
}

Deno.test({
  name: "attack: a FIFO, sparse files and an over-long path neither hang nor flood retie",
  ignore: !sandbox.available,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const ws = gitRepo();
    Deno.writeTextFileSync(join(ws, "keep.txt"), "kept\n");
    const flood = [
      "mkfifo pipe",
      "truncate -s 3G huge.img",
      "for i in 1 2 3 4 5 6; do truncate -s 200M sparse$i; echo $i >> sparse$i; done",
      `d=$(printf 'x%.0s' $(seq 1 250)); for i in $(seq 1 20); do mkdir $d && cd $d; done; echo deep > f`,
    ].join("; ");
    const r = await attackRun(ws, [
      { name: "bash", args: { command: flood } },
      { name: "bash", args: { command: "echo next-command-ran" } },
      { name: "read", args: { path: "pipe" } },
      { name: "write", args: { path: "pipe", content: "x" } },
      { name: "grep", args: { pattern: "deep" } },
      { name: "bash", args: { command: "echo changed > keep.txt" } },
    ]);
    assert.equal(r.run.code, 0, r.run.stdout + r.run.stderr);
    assert.ok(r.toolResults.some((t) => t.includes("next-command-ran")), r.toolResults.join("\n"));
    const all = r.toolResults.join("\n");
    // The snapshot store grew by what really changed, not by the files' apparent sizes.
    const stored = du(r.home);
    assert.ok(stored < 64 * 1024 * 1024, `retie's state is ${stored} bytes`);
    const l = openLedger(r.ledgerPath);
    const outcomes = l.entries({ kinds: ["outcome"] }).map((e) => JSON.stringify(e.payload));
    l.close();
    if (/not applied to the workspace \(nothing of it\)/.test(all)) {
      // On a copy-on-write view (staged commands): a path longer than the system allows refuses
      // the command's whole change set, said and recorded; nothing of it reached the workspace.
      assert.match(all, /longer than the system's path limit/);
      assert.ok(outcomes.some((o) => o.includes("path limit")), "the refusal is not on record");
      assert.throws(() => Deno.lstatSync(join(ws, "huge.img")));
    } else {
      // With the snapshot store: each odd file is noted, and the notes are on record.
      assert.match(all, /pipe: a socket, FIFO or device/);
      assert.match(all, /a sparse file/);
      assert.match(all, /longer than the system allows/);
      assert.match(all, /not a regular file/);
      assert.ok(outcomes.some((o) => o.includes("sparse file")), "the notes are not on record");
    }

    const undo = await retieAgain(r, ["undo", "--all"]);
    const said = undo.stdout + undo.stderr;
    assert.equal(undo.code, 0, said);
    assert.equal(Deno.readTextFileSync(join(ws, "keep.txt")), "kept\n", said);
    for (const p of ["huge.img", "sparse1", "sparse6", "x".repeat(250)]) {
      assert.throws(() => Deno.lstatSync(join(ws, p)), `${p} survived the undo: ${said}`);
    }
  },
});
