import assert from "node:assert/strict";
import { RetieError } from "../../src/core/errors.ts";
import { overrideResolver, parseResolveOverrides } from "../../src/net/resolver.ts";
import { checkUrl, inspectUrl, parseFetchUrl } from "../../src/net/url_check.ts";
import { fakeResolver, noLookupResolver, PUBLIC_V4, PUBLIC_V4_B, PUBLIC_V6 } from "./helpers.ts";

Deno.test("url: only http and https; other schemes refused before any lookup", async () => {
  for (
    const url of [
      "file:///etc/passwd",
      "ftp://public.example/x",
      "data:text/plain,hello",
      "javascript:alert(1)",
      "gopher://public.example:70/_GET",
      "ws://public.example/",
      "HTTPX://public.example/",
    ]
  ) {
    const r = noLookupResolver();
    const v = await checkUrl(url, r);
    assert.equal(v.verdict, "refuse", url);
    assert.match(v.reason, /scheme .* is not allowed/, url);
    assert.deepEqual(r.lookups, []);
  }
  const r = fakeResolver({ "public.example": [PUBLIC_V4] });
  assert.equal((await checkUrl("HTTP://PUBLIC.EXAMPLE/", r)).verdict, "allow");
});

Deno.test("url: userinfo tricks are refused; the fragment trick lands on the real host", async () => {
  const r = fakeResolver({ "public.example": [PUBLIC_V4] });
  const a = await checkUrl("http://public.example@127.0.0.1/", r);
  assert.equal(a.verdict, "refuse");
  assert.match(a.reason, /userinfo/);
  const b = await checkUrl("http://user:pw@public.example/", r);
  assert.equal(b.verdict, "refuse");
  assert.match(b.reason, /userinfo/);
  const c = await checkUrl("http://public.example:80@127.0.0.1:8080/", r);
  assert.equal(c.verdict, "refuse");
  // The parser says the host is 127.0.0.1 and "@public.example/" is the fragment.
  const d = await checkUrl("http://127.0.0.1#@public.example/", r);
  assert.equal(d.verdict, "refuse");
  assert.match(d.reason, /127\.0\.0\.1 is loopback/);
  const e = await checkUrl("http://127.0.0.1\\@public.example/", r);
  assert.equal(e.verdict, "refuse");
  assert.deepEqual(r.lookups, [], "none of these needed the public name");
});

Deno.test("url: names are resolved once and every address checked; one bad one refuses", async () => {
  const r = fakeResolver({
    "public.example": [PUBLIC_V4, PUBLIC_V6],
    "mixed.example": [PUBLIC_V4, PUBLIC_V4_B, "10.1.2.3"],
    "meta.example": ["169.254.169.254"],
    "v6meta.example": ["fd00:ec2::254"],
    "empty.example": [],
  });
  const ok = await inspectUrl("https://public.example:8443/a?b=c", r);
  assert.equal(ok.verdict.verdict, "allow");
  assert.deepEqual(ok.verdict.addresses, [PUBLIC_V4, PUBLIC_V6]);
  assert.equal(ok.target?.port, 8443);
  assert.equal(ok.target?.host, "public.example");
  assert.deepEqual(r.lookups, ["public.example"]);

  const mixed = await checkUrl("http://mixed.example/", r);
  assert.equal(mixed.verdict, "refuse");
  assert.match(mixed.reason, /mixed\.example resolves to 10\.1\.2\.3 is private/);
  assert.match((await checkUrl("http://meta.example/", r)).reason, /linkLocal/);
  assert.match((await checkUrl("http://v6meta.example/", r)).reason, /uniqueLocal/);
  assert.match((await checkUrl("http://empty.example/", r)).reason, /no address/);
  assert.match((await checkUrl("http://nxdomain.example/", r)).reason, /cannot resolve/);
  // Port defaults follow the scheme.
  assert.equal((await inspectUrl("https://public.example/", r)).target?.port, 443);
  assert.equal((await inspectUrl("http://public.example/", r)).target?.port, 80);
});

Deno.test("url: localhost names are refused by name, without a lookup", async () => {
  for (const url of ["http://localhost/", "http://LOCALHOST./", "http://api.localhost:3000/"]) {
    const r = noLookupResolver();
    const v = await checkUrl(url, r);
    assert.equal(v.verdict, "refuse", url);
    assert.match(v.reason, /localhost name/);
    assert.deepEqual(r.lookups, []);
  }
});

Deno.test("url: not a URL is bad input (exit code 2) for parseFetchUrl, refuse for checkUrl", async () => {
  assert.throws(
    () => parseFetchUrl("not a url"),
    (e) => e instanceof RetieError && e.exitCode === 2,
  );
  assert.equal((await checkUrl("not a url", noLookupResolver())).verdict, "refuse");
  assert.equal((await checkUrl("http://1.2.3.4.5/", noLookupResolver())).verdict, "refuse");
});

Deno.test("resolver: --resolve values parse like curl's and override only their names", async () => {
  const m = parseResolveOverrides([
    "Public.Example:93.184.215.14,[2606:4700::1111]",
    "other.example:::1",
    "public.example:151.101.1.69",
  ]);
  assert.deepEqual(m.get("public.example"), [PUBLIC_V4, PUBLIC_V6, PUBLIC_V4_B]);
  assert.deepEqual(m.get("other.example"), ["::1"]);
  for (
    const bad of ["public.example", ":1.2.3.4", "public.example:", "h:not-an-ip", "h:1.2.3.4,"]
  ) {
    assert.throws(
      () => parseResolveOverrides([bad]),
      (e) => e instanceof RetieError && e.exitCode === 2 && e.message.includes(bad),
      bad,
    );
  }
  const fallback = fakeResolver({ "dns.example": [PUBLIC_V4_B] });
  const r = overrideResolver(m, fallback);
  assert.deepEqual(await r.resolve("PUBLIC.example."), [PUBLIC_V4, PUBLIC_V6, PUBLIC_V4_B]);
  assert.deepEqual(await r.resolve("dns.example"), [PUBLIC_V4_B]);
  assert.deepEqual(fallback.lookups, ["dns.example"]);
});
