/**
 * HTTPS through the pinned connection: the socket goes to the checked address (routed to a local
 * TLS server), while SNI and the certificate check use the URL's host name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { RetieError } from "../../src/core/errors.ts";
import { fetchPage } from "../../src/net/fetch_page.ts";
import { fakeResolver, PUBLIC_V4 } from "./helpers.ts";

function makeCert(dir: string, name: string): { cert: string; key: string } {
  const out = new Deno.Command("openssl", {
    args: [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
      "-subj",
      `/CN=${name}`,
      "-addext",
      `subjectAltName=DNS:${name}`,
    ],
    stdout: "null",
    stderr: "null",
  }).outputSync();
  assert.equal(out.code, 0, "openssl could not make a test certificate");
  return {
    cert: Deno.readTextFileSync(join(dir, "cert.pem")),
    key: Deno.readTextFileSync(join(dir, "key.pem")),
  };
}

Deno.test("https: pinned socket, SNI and certificate check use the URL's name", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "retie-tls-" });
  const { cert, key } = makeCert(dir, "public.example");
  const hosts: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, cert, key, onListen() {} }, (req) => {
    hosts.push(req.headers.get("host"));
    return new Response("over tls", { headers: { "content-type": "text/plain" } });
  });
  const port = server.addr.port;
  try {
    const resolver = fakeResolver({ "public.example": [PUBLIC_V4], "other.example": [PUBLIC_V4] });
    const checked: string[] = [];
    const transport = {
      ca: cert,
      connectTo: (a: string) => (checked.push(a), "127.0.0.1"),
    };
    const page = await fetchPage(`https://public.example:${port}/`, { resolver, transport });
    assert.equal(page.text, "over tls");
    assert.deepEqual(hosts, [`public.example:${port}`]);
    assert.deepEqual(checked, [PUBLIC_V4]);
    assert.deepEqual(resolver.lookups, ["public.example"]);
    // Same socket destination, other name: the certificate does not match, so it fails.
    await assert.rejects(
      fetchPage(`https://other.example:${port}/`, { resolver, transport }),
      (e) => e instanceof RetieError && /fetch failed .*does not match certificate/.test(e.message),
    );
    assert.equal(hosts.length, 1, "no request was sent over the mismatched connection");
  } finally {
    await server.shutdown();
    Deno.removeSync(dir, { recursive: true });
  }
});
