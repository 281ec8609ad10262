/**
 * End to end, in the snapshot fallback (`retie run --snapshots`): a sandboxed command makes a FIFO
 * and a socket (which snapshots leave out, never opening them); `retie undo --all` removes them
 * with the rest of what the command did, and leaves a FIFO that was there before. A FIFO the
 * command removed cannot be made again: undo names it and does not say "undone".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import { run } from "../../src/exec.ts";

const ENV = { PATH: "/usr/bin:/bin" };

async function sh(cwd: string, script: string): Promise<void> {
  const r = await run({ cmd: "bash", args: ["-c", script], cwd, env: ENV });
  assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
}

async function session(command: string) {
  const iso = isolatedEnv();
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-e2e-fifo-" }));
  await sh(
    ws,
    "echo a > a.txt && mkfifo old.fifo && git init -q && git add a.txt && " +
      "git -c user.name=t -c user.email=t@t commit -qm init",
  );
  const emu = startOllamaEmulator({
    script: [
      { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command }) }] },
      { text: "done" },
    ],
  });
  const ledgerPath = join(iso.dir, "ledger.db");
  const env = { ...iso.env, DENO_DIR: denoDir(), OPENAI_API_KEY: "test-key" };
  const r = await runRetie([
    "--ledger",
    ledgerPath,
    "run",
    ws,
    "--headless",
    "--snapshots",
    "-p",
    "make pipes",
    ...emulatorFlags(emu.url),
  ], { env });
  await emu.close();
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const ledger = openLedger(ledgerPath);
  const sessionId = ledger.entries({ kinds: ["intent"] }).find((x) => x.payload.tool === "bash")!
    .session;
  ledger.close();
  const undo = () => runRetie(["--ledger", ledgerPath, "undo", "--all", sessionId], { env });
  const done = () => {
    Deno.removeSync(ws, { recursive: true });
    Deno.removeSync(iso.dir, { recursive: true });
  };
  return { ws, undo, done };
}

const kind = (p: string) => {
  try {
    const s = Deno.lstatSync(p);
    return s.isFile ? "file" : s.isDirectory ? "dir" : s.isSymlink ? "link" : "special";
  } catch {
    return "absent";
  }
};

Deno.test("e2e fallback: undo removes the FIFO and the socket a command made, keeps the older one", async () => {
  const s = await session(
    "mkfifo new.fifo && mkdir d && mkfifo d/p && echo b >> a.txt && " +
      `python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('sock')"`,
  );
  try {
    assert.equal(kind(join(s.ws, "new.fifo")), "special");
    assert.equal(kind(join(s.ws, "sock")), "special");
    const u = await s.undo();
    assert.equal(u.code, 0, u.stdout + u.stderr);
    assert.match(u.stdout, /undone/);
    assert.doesNotMatch(u.stdout, /NOT/);
    for (const p of ["new.fifo", "sock", "d"]) assert.equal(kind(join(s.ws, p)), "absent", p);
    assert.equal(kind(join(s.ws, "old.fifo")), "special");
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a\n");
  } finally {
    s.done();
  }
});

Deno.test("e2e fallback: a FIFO the command removed is named as not restored, never claimed", async () => {
  const s = await session("rm old.fifo && echo b >> a.txt");
  try {
    assert.equal(kind(join(s.ws, "old.fifo")), "absent");
    const u = await s.undo();
    const out = u.stdout + u.stderr;
    assert.match(out, /old\.fifo \(a socket, FIFO or device the action removed/);
    assert.match(out, /but NOT: old\.fifo/);
    assert.match(out, /0 undone, 0 skipped, 1 refused/);
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "a\n");
  } finally {
    s.done();
  }
});
