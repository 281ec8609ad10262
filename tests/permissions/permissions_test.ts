import assert from "node:assert/strict";
import { join } from "node:path";
import { retieFlags, ROOT } from "../helpers/retie_process.ts";

const PROBE = join(ROOT, "tests", "permissions", "probe.ts");

async function probe(flags: string[]): Promise<Record<string, string>> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    try {
      for await (const c of listener) c.close();
    } catch { /* closed */ }
  })();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, PROBE, String((listener.addr as Deno.NetAddr).port)],
      env: { RETIE_PROBE_SECRET: "hunter2", PATH: Deno.env.get("PATH") ?? "" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    return JSON.parse(text);
  } finally {
    listener.close();
    await accepting;
  }
}

Deno.test("the shipped flags forbid spawning a shell, loopback and FFI; unlisted env reads as unset", async () => {
  const r = await probe(retieFlags(false));
  assert.deepEqual(r, {
    spawn: "NotCapable",
    loopback: "NotCapable",
    env: "unset",
    ffi: "NotCapable",
  });
});

Deno.test("retie:local differs only in allowing loopback", async () => {
  const r = await probe(retieFlags(true));
  assert.deepEqual(r, {
    spawn: "NotCapable",
    loopback: "connected",
    env: "unset",
    ffi: "NotCapable",
  });
});

Deno.test("the probe detects a violation when the flags are too broad", async () => {
  // Proves the probe can fail: with everything allowed, all four get through.
  const r = await probe(["--allow-all"]);
  assert.deepEqual(r, { spawn: "spawned", loopback: "connected", env: "hunter2", ffi: "loaded" });
});

Deno.test("the flags never grant everything and name bwrap by absolute path", () => {
  const flags = retieFlags(false);
  assert.ok(!flags.some((f) => f === "-A" || f === "--allow-all" || f === "--allow-ffi"));
  const run = flags.filter((f) => f.startsWith("--allow-run"));
  assert.deepEqual(run, ["--allow-run=/usr/bin/bwrap"]);
  assert.ok(flags.some((f) => f.startsWith("--deny-net=") && f.includes("169.254.0.0/16")));
  assert.ok(flags.some((f) => f.startsWith("--deny-net=") && f.includes("127.0.0.0/8")));
});
