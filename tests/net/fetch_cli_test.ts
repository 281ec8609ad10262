import assert from "node:assert/strict";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { localServer } from "./helpers.ts";

/**
 * isolatedEnv() moves HOME, and with it Deno's default cache: the child would then try to
 * download its npm packages. Keep the child on the parent's cache.
 */
function testEnv(): Record<string, string> {
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
  return { ...isolatedEnv().env, DENO_DIR: denoDir };
}

Deno.test("cli: fetch --check with --resolve decides without sending (exit 0/1/2)", async () => {
  const env = testEnv();
  const ok = await runRetie([
    "fetch",
    "--check",
    "https://public.example/x",
    "--resolve",
    "public.example:93.184.215.14,[2606:4700::1111]",
  ], { env });
  assert.equal(ok.code, 0, ok.stderr);
  const v = JSON.parse(ok.stdout);
  assert.equal(v.url, "https://public.example/x");
  assert.equal(v.verdict, "allow");
  assert.equal(typeof v.reason, "string");

  const bad = await runRetie([
    "fetch",
    "--check",
    "http://public.example/",
    "--resolve",
    "public.example:93.184.215.14",
    "--resolve",
    "public.example:169.254.169.254",
  ], { env });
  assert.equal(bad.code, 1);
  const b = JSON.parse(bad.stdout);
  assert.equal(b.verdict, "refuse");
  assert.match(b.reason, /169\.254\.169\.254 is linkLocal/);

  const lit = await runRetie(["fetch", "--check", "http://0x7f.1/"], { env });
  assert.equal(lit.code, 1);
  assert.match(JSON.parse(lit.stdout).reason, /127\.0\.0\.1 is loopback/);

  const scheme = await runRetie(["fetch", "--check", "file:///etc/passwd"], { env });
  assert.equal(scheme.code, 1);
  assert.equal(JSON.parse(scheme.stdout).verdict, "refuse");

  const notUrl = await runRetie(["fetch", "--check", "not a url"], { env });
  assert.equal(notUrl.code, 2);
  assert.match(notUrl.stderr, /not a URL/);

  const badResolve = await runRetie(
    ["fetch", "--check", "http://a.example/", "--resolve", "a.example"],
    { env },
  );
  assert.equal(badResolve.code, 2);
  assert.match(badResolve.stderr, /bad --resolve value/);

  const badCap = await runRetie(["fetch", "http://a.example/", "--max-bytes", "lots"], { env });
  assert.equal(badCap.code, 2);
  assert.match(badCap.stderr, /bad --max-bytes value/);
});

Deno.test("cli: fetch of a loopback URL is refused before any request leaves", async () => {
  const srv = localServer(() => new Response("internal"));
  try {
    const env = testEnv();
    for (const local of [true, false]) {
      const r = await runRetie(["fetch", `http://127.0.0.1:${srv.port}/`], { env, local });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /fetch refused .*loopback/);
    }
    const named = await runRetie(
      ["fetch", `http://public.example:${srv.port}/`, "--resolve", "public.example:127.0.0.1"],
      { env },
    );
    assert.equal(named.code, 1);
    assert.match(named.stderr, /public\.example resolves to 127\.0\.0\.1 is loopback/);
    assert.equal(srv.seen.length, 0);
  } finally {
    await srv.close();
  }
});
