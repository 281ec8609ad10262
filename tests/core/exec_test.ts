import assert from "node:assert/strict";
import { run } from "../../src/exec.ts";

const dec = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("exec passes argv without a shell and clears the environment", async () => {
  Deno.env.set("RETIE_EXEC_LEAK", "secret");
  const r = await run({ cmd: "/usr/bin/env", args: [] });
  assert.equal(r.code, 0);
  assert.equal(dec(r.stdout), "");
  const r2 = await run({ cmd: "/bin/echo", args: ["$HOME", "a b"], env: { X: "1" } });
  assert.equal(dec(r2.stdout), "$HOME a b\n");
});

Deno.test("exec writes stdin bytes and closes stdin; without them stdin is empty", async () => {
  const r = await run({ cmd: "/bin/cat", stdin: new TextEncoder().encode("piped in") });
  assert.equal(dec(r.stdout), "piped in");
  const r2 = await run({ cmd: "/bin/cat" });
  assert.equal(dec(r2.stdout), "");
});

Deno.test("exec timeout kills the whole process group", async () => {
  const marker = `retie-exec-${crypto.randomUUID()}`;
  const r = await run({
    cmd: "/bin/sh",
    args: ["-c", `sleep 30 & echo started; exec -a ${marker} sleep 31`],
    timeoutMs: 300,
  });
  assert.equal(r.timedOut, true);
  assert.notEqual(r.code, 0);
  assert.ok(r.durationMs < 10_000);
  // Give the kernel a moment, then make sure neither sleep survived.
  await new Promise((res) => setTimeout(res, 100));
  const ps = await run({ cmd: "/bin/ps", args: ["-eo", "args"] });
  assert.ok(!dec(ps.stdout).includes(marker), "the group leader survived");
  const stray = dec(ps.stdout).split("\n").filter((l) => l.trim() === "sleep 30");
  assert.equal(stray.length, 0, "the backgrounded child survived");
});

Deno.test("exec caps output and says how much it dropped", async () => {
  const r = await run({
    cmd: "/usr/bin/head",
    args: ["-c", "5000", "/dev/zero"],
    maxOutputBytes: 1000,
  });
  assert.equal(r.droppedStdout, 4000);
  assert.match(dec(r.stdout.subarray(1000)), /4000 more bytes truncated/);
});

Deno.test("exec abort signal kills the child", async () => {
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const r = await run({ cmd: "/bin/sleep", args: ["30"], signal: ac.signal });
  assert.equal(r.aborted, true);
  assert.equal(r.signal, "SIGKILL");
});
