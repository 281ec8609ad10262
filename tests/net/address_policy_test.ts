import assert from "node:assert/strict";
import { isIpLiteral, judgeAddress } from "../../src/net/address_policy.ts";
import { checkUrl } from "../../src/net/url_check.ts";
import { noLookupResolver } from "./helpers.ts";

/** Every spelling of loopback and of the cloud metadata address, and other non-public ranges. */
const REFUSED_URLS: [string, RegExp][] = [
  ["http://127.0.0.1/", /loopback/],
  ["http://2130706433/", /127\.0\.0\.1 is loopback/], // decimal
  ["http://0177.0.0.1/", /127\.0\.0\.1 is loopback/], // octal
  ["http://0x7f.1/", /127\.0\.0\.1 is loopback/], // hex, short
  ["http://0x7f000001/", /127\.0\.0\.1 is loopback/],
  ["http://127.1/", /127\.0\.0\.1 is loopback/], // short form
  ["http://127.0.1/", /127\.0\.0\.1 is loopback/],
  ["http://127.0.0.1./", /loopback/], // trailing dot
  ["http://%31%32%37.0.0.1/", /127\.0\.0\.1 is loopback/], // percent-encoded host
  ["http://\uFF11\uFF12\uFF17.0.0.1/", /127\.0\.0\.1 is loopback/], // fullwidth digits (IDNA)
  ["http://127.255.255.254:8080/", /loopback/],
  ["http://[::1]/", /::1 is loopback/],
  ["http://[0:0:0:0:0:0:0:1]/", /loopback/],
  ["http://[::ffff:127.0.0.1]/", /IPv4-mapped embedding 127\.0\.0\.1, which is loopback/],
  ["http://[::ffff:7f00:1]/", /IPv4-mapped embedding 127\.0\.0\.1/],
  ["http://[::7f00:1]/", /IPv4-compatible/],
  ["http://169.254.169.254/", /169\.254\.169\.254 is linkLocal/],
  ["http://2852039166/", /169\.254\.169\.254 is linkLocal/], // decimal metadata
  ["http://0251.0376.0251.0376/", /169\.254\.169\.254 is linkLocal/], // octal metadata
  ["http://0xa9.0xfe.0xa9.0xfe/", /169\.254\.169\.254 is linkLocal/], // hex metadata
  ["http://0xa9fea9fe/", /169\.254\.169\.254/],
  ["http://169.254.43518/", /169\.254\.169\.254/], // short form
  [
    "http://[::ffff:169.254.169.254]/",
    /IPv4-mapped embedding 169\.254\.169\.254, which is linkLocal/,
  ],
  ["http://[::ffff:a9fe:a9fe]/", /169\.254\.169\.254/],
  ["http://[::ffff:0:a9fe:a9fe]/", /IPv4-translated embedding 169\.254\.169\.254/],
  ["http://[64:ff9b::a9fe:a9fe]/", /NAT64 embedding 169\.254\.169\.254/],
  ["http://[64:ff9b::127.0.0.1]/", /NAT64 embedding 127\.0\.0\.1/],
  ["http://[64:ff9b:1::a9fe:a9fe]/", /local-use NAT64/],
  ["http://[2002:a9fe:a9fe::]/", /6to4 embedding 169\.254\.169\.254/],
  ["http://[2002:7f00:1::1]/", /6to4 embedding 127\.0\.0\.1/],
  // Teredo: server 65.54.227.120, client = NOT of the last 32 bits.
  ["http://[2001:0:4136:e378:8000:63bf:5601:5601]/", /Teredo embedding 169\.254\.169\.254/],
  ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", /Teredo embedding 127\.0\.0\.1/],
  ["http://[2001:0:7f00:1:8000:63bf:a2b:3c4d]/", /Teredo with server 127\.0\.0\.1/],
  ["http://[fd00:ec2::254]/", /uniqueLocal/], // AWS IPv6 metadata
  ["http://[fe80::a9fe:a9fe]/", /linkLocal/],
  ["http://0.0.0.0/", /unspecified/],
  ["http://0/", /unspecified/],
  ["http://[::]/", /unspecified/],
  ["http://10.0.0.1/", /private/],
  ["http://172.16.5.4/", /private/],
  ["http://192.168.1.1/", /private/],
  ["http://100.64.0.1/", /carrierGradeNat/],
  ["http://224.0.0.1/", /multicast/],
  ["http://[ff02::1]/", /multicast/],
  ["http://255.255.255.255/", /broadcast/],
  ["http://192.0.2.10/", /reserved/],
  ["http://198.18.0.1/", /reserved/],
  ["http://240.0.0.1/", /reserved/],
  ["http://[2001:db8::1]/", /reserved/],
  ["http://[fec0::1]/", /deprecatedSiteLocal/],
  ["http://[100::1]/", /discard/],
  ["http://[4000::1]/", /outside global unicast/],
];

Deno.test("address: every notation of loopback, metadata and private ranges is refused", async () => {
  for (const [url, why] of REFUSED_URLS) {
    const resolver = noLookupResolver();
    const v = await checkUrl(url, resolver);
    assert.equal(v.verdict, "refuse", `${url} must be refused`);
    assert.match(v.reason, why, `${url}: ${v.reason}`);
    assert.deepEqual(resolver.lookups, [], `${url} is a literal: no lookup`);
  }
});

Deno.test("address: public addresses and public embeddings are allowed", async () => {
  for (
    const url of [
      "http://93.184.215.14/",
      "https://1.1.1.1:8443/x",
      "http://[2606:4700::1111]/",
      "http://[::ffff:93.184.215.14]/",
      "http://[64:ff9b::5db8:d70e]/", // NAT64 of 93.184.215.14
      "http://[2002:5db8:d70e::1]/", // 6to4 of 93.184.215.14
      "http://[2001:0:4136:e378:8000:63bf:a247:28f1]/", // Teredo, client 93.184.215.14
    ]
  ) {
    const v = await checkUrl(url, noLookupResolver());
    assert.equal(v.verdict, "allow", `${url}: ${v.reason}`);
  }
});

Deno.test("address: judgeAddress works on bare and bracketed text and fails closed", () => {
  assert.equal(judgeAddress("[::1]").allowed, false);
  assert.equal(judgeAddress("8.8.8.8").allowed, true);
  assert.equal(judgeAddress("8.8.8.8").range, "unicast");
  // Odd spellings are the URL parser's job; here they are not addresses at all.
  assert.equal(judgeAddress("0177.0.0.1").range, "invalid");
  assert.equal(judgeAddress("2130706433").allowed, false);
  assert.equal(judgeAddress("fe80::1%eth0").allowed, false);
  assert.equal(judgeAddress("example.com").allowed, false);
  assert.equal(isIpLiteral("[::1]"), true);
  assert.equal(isIpLiteral("127.1"), false);
  assert.equal(isIpLiteral("example.com"), false);
});
