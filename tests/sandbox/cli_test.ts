import assert from "node:assert/strict";
import { join } from "node:path";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { commandLine } from "../../src/cli/sandbox.ts";

Deno.test("retie sandbox: output streamed, exit status passed through, filter active, workspace writable", async () => {
  const { dir, env } = isolatedEnv();
  const ws = Deno.makeTempDirSync({ prefix: "retie-cli-ws-" });
  try {
    const r = await runRetie(
      [
        "sandbox",
        "--workspace",
        ws,
        "--",
        "grep Seccomp: /proc/self/status; echo made > made.txt; echo oops >&2; exit 3",
      ],
      { env },
    );
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stdout, /Seccomp:\s+2/);
    assert.match(r.stderr, /oops/);
    assert.equal(Deno.readTextFileSync(join(ws, "made.txt")), "made\n");
  } finally {
    Deno.removeSync(ws, { recursive: true });
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("retie sandbox: several words are quoted one by one; default workspace is the cwd", async () => {
  const { dir, env } = isolatedEnv();
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-cli-ws-" }));
  try {
    const r = await runRetie(["sandbox", "--", "printf", "%s|", "a b", "$HOME", "c;d"], {
      env,
      cwd: ws,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "a b|$HOME|c;d|");
    const pwd = await runRetie(["sandbox", "--", "pwd"], { env, cwd: ws });
    assert.equal(pwd.stdout.trim(), ws);
  } finally {
    Deno.removeSync(ws, { recursive: true });
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("retie sandbox: a $RETIE_LEDGER inside the workspace is hidden, with its side files", async () => {
  const { dir, env } = isolatedEnv();
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-cli-ws-" }));
  try {
    Deno.writeTextFileSync(join(ws, "ledger.db"), "LEDGER");
    Deno.writeTextFileSync(join(ws, "ledger.db.head.json"), "HEAD");
    const r = await runRetie(
      [
        "sandbox",
        "--",
        "cat ledger.db ledger.db.head.json; echo; echo x > ledger.db 2>/dev/null && echo wrote; true",
      ],
      { env: { ...env, RETIE_LEDGER: join(ws, "ledger.db") }, cwd: ws },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /LEDGER|HEAD|wrote/);
    assert.equal(Deno.readTextFileSync(join(ws, "ledger.db")), "LEDGER");
  } finally {
    Deno.removeSync(ws, { recursive: true });
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("retie sandbox: bad input is exit 2 with the fix named", async () => {
  const { dir, env } = isolatedEnv();
  try {
    const r = await runRetie(["sandbox", "--workspace", "/nonexistent/retie", "--", "true"], {
      env,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /sandbox workspace \(\/nonexistent\/retie\)/);
    const t = await runRetie(["sandbox", "--timeout", "soon", "--", "true"], { env });
    assert.equal(t.code, 2, t.stderr);
    assert.match(t.stderr, /--timeout/);
    const sys = await runRetie(["sandbox", "--workspace", "/", "--", "true"], { env });
    assert.equal(sys.code, 2, sys.stderr);
    assert.match(sys.stderr, /a system directory cannot be the workspace/);
    assert.match(sys.stderr, /hint: /);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("retie sandbox: commandLine keeps one word as a shell line", () => {
  assert.equal(commandLine(["ls | wc -l"]), "ls | wc -l");
  assert.equal(commandLine(["echo", "it's"]), `echo 'it'\\''s'`);
});
