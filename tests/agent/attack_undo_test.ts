/**
 * Undo writes outside the workspace (the attack, end to end): the scripted model edits a file,
 * then a sandboxed command swaps the file's parent directory for a symlink to a directory outside
 * the workspace. `retie undo` of the edit, forced, and `retie undo --all --force` after a session
 * killed mid-action must not write or delete anything outside; each says why it refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkSandbox } from "../../src/sandbox/check.ts";
import { openLedger } from "../../src/ledger/mod.ts";
import { attackRun, gitRepo, headlessArgs, retieAgain } from "../helpers/attack_run.ts";
import { denoDir, isolatedEnv, retieFlags, ROOT, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";

const sandbox = await checkSandbox();

function actionOf(ledgerPath: string, tool: string): string {
  const l = openLedger(ledgerPath);
  try {
    const e = l.entries({ kinds: ["intent"] }).find((x) => x.payload.tool === tool);
    assert.ok(e?.actionId, `no ${tool} action on record`);
    return e.actionId!;
  } finally {
    l.close();
  }
}

Deno.test({
  name: "attack: an undo never follows a parent swapped for a symlink, forced or not",
  ignore: !sandbox.available,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const ws = gitRepo();
    const outside = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-outside-" }));
    Deno.writeTextFileSync(join(outside, "f.txt"), "precious outside\n");
    Deno.writeTextFileSync(join(outside, "new.txt"), "also outside\n");
    Deno.mkdirSync(join(ws, "sub"));
    Deno.writeTextFileSync(join(ws, "sub", "f.txt"), "old inside\n");
    const r = await attackRun(ws, [
      { name: "write", args: { path: "sub/f.txt", content: "changed\n" } },
      { name: "write", args: { path: "sub/new.txt", content: "created\n" } },
      { name: "bash", args: { command: `mv sub sub-moved && ln -s ${outside} sub && ls -la` } },
    ]);
    assert.equal(r.run.code, 0, r.run.stdout + r.run.stderr);
    assert.equal(Deno.readLinkSync(join(ws, "sub")), outside);

    // Undo only the edit, forced: the parent is a symlink now, so it is refused and says so.
    const edit = actionOf(r.ledgerPath, "write");
    const one = await retieAgain(r, ["undo", edit, "--force"]);
    assert.match(one.stdout + one.stderr, /symlink/, one.stdout + one.stderr);
    assert.match(one.stdout, /refused/);
    assert.equal(Deno.readTextFileSync(join(outside, "f.txt")), "precious outside\n");
    assert.equal(Deno.readTextFileSync(join(outside, "new.txt")), "also outside\n");

    // undo --all --force: the command's snapshot puts sub back first, then the edits are undone
    // inside the workspace; nothing outside changes.
    const all = await retieAgain(r, ["undo", "--all", "--force"]);
    assert.equal(Deno.readTextFileSync(join(outside, "f.txt")), "precious outside\n");
    assert.equal(Deno.readTextFileSync(join(outside, "new.txt")), "also outside\n");
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name).sort(), [
      "f.txt",
      "new.txt",
    ]);
    assert.ok(Deno.lstatSync(join(ws, "sub")).isDirectory, all.stdout + all.stderr);
    assert.equal(Deno.readTextFileSync(join(ws, "sub", "f.txt")), "old inside\n");
  },
});

Deno.test({
  name: "attack: undo --all --force after a killed session does not write through a swapped parent",
  ignore: !sandbox.available,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const ws = gitRepo();
    const outside = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-outside-" }));
    Deno.writeTextFileSync(join(outside, "passwd"), "root:x:0:0\n");
    Deno.writeTextFileSync(join(outside, "extra"), "the user's own file\n");
    Deno.mkdirSync(join(ws, "etc"));
    Deno.writeTextFileSync(join(ws, "etc", "passwd"), "inside copy\n");
    const iso = isolatedEnv();
    const emu = startOllamaEmulator({
      script: [
        {
          toolCalls: [{ name: "write", arguments: '{"path":"etc/passwd","content":"changed\\n"}' }],
        },
        { toolCalls: [{ name: "write", arguments: '{"path":"etc/extra","content":"agent\\n"}' }] },
        // The session is killed while it waits for the model.
        { text: "done", delayMs: 4000 },
      ],
    });
    const ledgerPath = join(iso.dir, "ledger.db");
    const env = { ...iso.env, OPENAI_API_KEY: "test-key" };
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...retieFlags(),
        join(ROOT, "main.ts"),
        ...headlessArgs(ledgerPath, ws, emu.url),
      ],
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir(), ...env },
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      // Killed once both writes are on record: no final checkpoint, no session end.
      for (let i = 0; i < 600 && outcomes(ledgerPath) < 2; i++) {
        await new Promise((res) => setTimeout(res, 100));
      }
      assert.equal(outcomes(ledgerPath), 2, "the session never made its two writes");
      child.kill("SIGKILL");
      await child.status;
    } finally {
      await emu.close();
    }
    Deno.renameSync(join(ws, "etc"), join(ws, "etc-moved"));
    Deno.symlinkSync(outside, join(ws, "etc"));
    const all = await runRetie(["--ledger", ledgerPath, "undo", "--all", "--force"], { env });
    const said = all.stdout + all.stderr;
    assert.equal(Deno.readTextFileSync(join(outside, "passwd")), "root:x:0:0\n", said);
    assert.equal(Deno.readTextFileSync(join(outside, "extra")), "the user's own file\n", said);
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name).sort(), ["extra", "passwd"]);
    assert.match(said, /symlink/);
    // The workspace's own files, moved aside, are as the agent left them (nothing was restored
    // anywhere else either).
    assert.equal(Deno.readTextFileSync(join(ws, "etc-moved", "passwd")), "changed\n");
  },
});

function outcomes(ledgerPath: string): number {
  try {
    const l = openLedger(ledgerPath);
    try {
      return l.entries({ kinds: ["outcome"] }).length;
    } finally {
      l.close();
    }
  } catch {
    return 0;
  }
}
