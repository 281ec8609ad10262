/**
 * The second wall: even if the in-process guard were bypassed (here: a transport that sends the
 * socket to 127.0.0.1), the shipped permission flags (`--deny-net=127.0.0.0/8,…`) stop the
 * connection, because Deno checks the address actually connected to.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { retieFlags, ROOT } from "../helpers/retie_process.ts";
import { localServer, PUBLIC_V4 } from "./helpers.ts";

async function runUnderFlags(local: boolean, port: number): Promise<string> {
  const dir = Deno.makeTempDirSync({ prefix: "retie-wall-" });
  const script = join(dir, "wall.ts");
  const mod = new URL("../../src/net/pinned_fetch.ts", import.meta.url).href;
  Deno.writeTextFileSync(
    script,
    `import { pinnedRequest } from "${mod}";
const url = new URL("http://public.example:${port}/");
try {
  const r = await pinnedRequest(
    { url, host: "public.example", port: ${port}, addresses: ["${PUBLIC_V4}"] },
    { headers: {}, maxBytes: 1000, signal: AbortSignal.timeout(5000),
      transport: { connectTo: () => "127.0.0.1" } },
  );
  console.log("STATUS " + r.status);
} catch (e) {
  console.log("ERROR " + (e instanceof Error ? e.message : String(e)));
}
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", join(ROOT, "deno.json"), ...retieFlags(local), script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  Deno.removeSync(dir, { recursive: true });
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

Deno.test("deny-net wall: the shipped flags refuse a loopback socket the guard did not catch", async () => {
  const srv = localServer(() => new Response("internal"));
  try {
    const shipped = await runUnderFlags(false, srv.port);
    assert.match(shipped, /ERROR/);
    assert.match(shipped, /connection denied by Deno.s permissions \(127\.0\.0\.1:\d+\)/);
    assert.equal(srv.seen.length, 0, "the shipped flags let nothing reach 127.0.0.1");
    // Control: without the loopback deny (the test variant) the same socket does connect.
    const local = await runUnderFlags(true, srv.port);
    assert.match(local, /STATUS 200/);
    assert.equal(srv.seen.length, 1);
  } finally {
    await srv.close();
  }
});
