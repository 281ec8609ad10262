import assert from "node:assert/strict";
import { runSandboxed } from "../../src/sandbox/run.ts";
import { checkSandbox, explainProbeFailure } from "../../src/sandbox/check.ts";
import { profileFor } from "./fixture.ts";

function hostProcessesWith(marker: string): string[] {
  const found: string[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
      if (cmd.includes(marker)) found.push(`${e.name}: ${cmd}`);
    } catch { /* gone */ }
  }
  return found;
}

async function eventually(fn: () => boolean, ms = 3000): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (fn()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return fn();
}

Deno.test("run: the sandbox is available here (the other tests depend on it)", async () => {
  const c = await checkSandbox();
  assert.deepEqual(c, { available: true });
});

Deno.test("run: probe failures are explained in actionable words", () => {
  assert.match(
    explainProbeFailure("bwrap: No permissions to create new namespace"),
    /unprivileged_userns_clone=1/,
  );
  assert.match(explainProbeFailure("bwrap: Unknown option --disable-userns"), /install bubblewrap/);
});

Deno.test("run: exit status, stdout and stderr pass through; stdin is /dev/null", async () => {
  const ws = Deno.makeTempDirSync();
  try {
    const r = await runSandboxed({
      profile: profileFor(ws),
      command: "echo out; echo err >&2; readlink /proc/self/fd/0; cat; exit 7",
      timeoutMs: 10_000,
    });
    assert.equal(r.code, 7);
    assert.equal(r.stdout, "out\n/dev/null\n");
    assert.equal(r.stderr, "err\n");
    assert.equal(r.timedOut, false);
    assert.equal(r.truncated, false);
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("run: no descriptor above 2 reaches the command (inherited non-CLOEXEC fds are closed)", async () => {
  const ws = Deno.makeTempDirSync();
  try {
    const r = await runSandboxed({
      profile: profileFor(ws),
      command: "ls /proc/self/fd | sort -n | tr '\\n' ' '",
      timeoutMs: 10_000,
    });
    // 0,1,2 plus the fd ls itself uses to read the directory
    assert.equal(r.stdout.trim(), "0 1 2 3", r.stderr);
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("run: timeout kills the whole process group, backgrounded children included", async () => {
  const ws = Deno.makeTempDirSync();
  const marker = `987.${Math.floor(Math.random() * 1e6)}`;
  try {
    const r = await runSandboxed({
      profile: profileFor(ws),
      command: `sleep ${marker} & (sleep ${marker}; true) & echo started; sleep 60`,
      timeoutMs: 500,
    });
    assert.equal(r.timedOut, true);
    assert.equal(r.stdout, "started\n");
    assert.ok(r.durationMs < 10_000);
    assert.ok(
      await eventually(() => hostProcessesWith(marker).length === 0),
      hostProcessesWith(marker).join("\n"),
    );
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("run: abort signal kills the command and its children", async () => {
  const ws = Deno.makeTempDirSync();
  const marker = `876.${Math.floor(Math.random() * 1e6)}`;
  try {
    const ac = new AbortController();
    const started = new Promise<void>((res) => {
      setTimeout(() => {
        ac.abort();
        res();
      }, 400);
    });
    const r = await runSandboxed({
      profile: profileFor(ws),
      command: `setsid sleep ${marker} & sleep 60`,
      signal: ac.signal,
    });
    await started;
    assert.equal(r.aborted, true);
    assert.ok(
      await eventually(() => hostProcessesWith(marker).length === 0),
      hostProcessesWith(marker).join("\n"),
    );
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("run: output caps keep the first bytes, mark the cut, and stream everything", async () => {
  const ws = Deno.makeTempDirSync();
  try {
    let streamed = 0;
    const r = await runSandboxed({
      profile: profileFor(ws),
      command: "head -c 200000 /dev/zero | tr '\\0' a; head -c 5000 /dev/zero | tr '\\0' b >&2",
      maxOutputBytes: 1000,
      onStdout: (c) => (streamed += c.length),
      timeoutMs: 10_000,
    });
    assert.equal(r.code, 0);
    assert.equal(r.truncated, true);
    assert.ok(r.stdout.startsWith("a".repeat(1000)));
    assert.match(r.stdout, /199000 more bytes truncated/);
    assert.match(r.stderr, /4000 more bytes truncated/);
    assert.equal(streamed, 200000);
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("run: a missing workspace is a clear input error, nothing runs", async () => {
  await assert.rejects(
    runSandboxed({ profile: profileFor("/nonexistent/retie-ws"), command: "true" }),
    /sandbox workspace \(\/nonexistent\/retie-ws\)/,
  );
});
