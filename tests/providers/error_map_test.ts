/**
 * classifyError on the verbatim bodies of wire.md §1.3 and §2.2: status and text, never content type.
 */
import assert from "node:assert/strict";
import { classifyError, parseErrorBody, retryAfterMs } from "../../src/providers/error_map.ts";

const CASES: [number | undefined, string, string][] = [
  [401, '{"error":{"message":"Unauthorized","type":"api_error","param":null,"code":null}}', "auth"],
  [401, '{"error":"Unauthorized"}', "auth"],
  [
    403,
    '{"error":"this model requires a subscription, upgrade for access: https://ollama.com/upgrade (ref: b7b9f6f9)"}',
    "paywall",
  ],
  [
    402,
    '{"error":"This model is not in the Free plan. Pro is $20/month for $60 of usage, with no 5-hour or weekly caps: https://ollama.com/upgrade (ref: x)"}',
    "paywall",
  ],
  [
    403,
    '{"error":{"message":"this model requires both a Pro, Max, or Team plan and extra usage (it does not use included plan usage), upgrade for access: https://ollama.com/upgrade then add extra usage: https://ollama.com/settings (ref: 53e9)","type":"api_error"}}',
    "paywall",
  ],
  [402, "402 usage credits auto reload payment failed, update your payment method", "weekly_limit"],
  [
    429,
    '{"error":"you (someone) have reached your weekly usage limit, upgrade for higher limits"}',
    "weekly_limit",
  ],
  [
    429,
    "429 Too Many Requests: you've reached your weekly usage limit, please wait or upgrade to continue",
    "weekly_limit",
  ],
  [
    429,
    '{"error":{"message":"you (bob) have reached your session usage limit, please wait or upgrade to continue","type":"api_error"}}',
    "session_limit",
  ],
  [
    429,
    "you've reached your hourly usage limit, please wait or upgrade to continue",
    "session_limit",
  ],
  [429, '{"error":"too many concurrent requests"}', "concurrency"],
  [
    429,
    '{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account\'s rate limit. Please try again later."},"request_id":"req_011CZnysPAdkFbVRh3MjiBFA"}',
    "rate_limit",
  ],
  [404, '{"error":"path \\"/api/v1/chat/completions\\" not found"}', "not_found"],
  [503, '{"error":"Server overloaded, please retry shortly (ref: aaa65c70)"}', "overloaded"],
  [
    529,
    '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    "overloaded",
  ],
  [
    400,
    '{"error":{"message":"[] is too short - \'messages\' (ref: x)","type":"invalid_request_error"}}',
    "bad_request",
  ],
  [
    413,
    '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
    "bad_request",
  ],
  [502, "<html>Bad Gateway</html>", "server"],
  [
    504,
    '{"type":"error","error":{"type":"timeout_error","message":"Request timed out"}}',
    "timeout",
  ],
  [
    undefined,
    '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    "overloaded",
  ],
  [
    undefined,
    '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
    "stream",
  ],
  [undefined, '{"error":"you (x) have reached your weekly usage limit"}', "weekly_limit"],
];

for (const [status, body, kind] of CASES) {
  Deno.test(`classifyError ${status ?? "mid-stream"} ${body.slice(0, 50)} → ${kind}`, () => {
    const e = classifyError(status, body, undefined, "m:1b");
    assert.equal(e.kind, kind);
    assert.equal(e.status, status);
    assert.equal(e.model, "m:1b");
    assert.ok(e.hint, "every kind has a hint");
  });
}

Deno.test("the service message is extracted from every body shape", () => {
  assert.equal(
    parseErrorBody('{"error":"too many concurrent requests"}').message,
    "too many concurrent requests",
  );
  assert.equal(parseErrorBody('{"error":{"message":"Unauthorized"}}').message, "Unauthorized");
  assert.deepEqual(
    parseErrorBody('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
    { message: "Overloaded", type: "overloaded_error" },
  );
  assert.equal(parseErrorBody("plain text ").message, "plain text");
});

Deno.test("retry-after: seconds, HTTP date, retry-after-ms, Headers or record", () => {
  assert.equal(retryAfterMs({ "Retry-After": "11" }), 11_000);
  assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "250" })), 250);
  const now = Date.parse("2026-10-05T00:00:00Z");
  assert.equal(retryAfterMs({ "retry-after": "Mon, 05 Oct 2026 00:00:20 GMT" }, () => now), 20_000);
  assert.equal(retryAfterMs({ "retry-after": "soon" }), undefined);
  assert.equal(retryAfterMs(undefined), undefined);
  const c = classifyError(
    429,
    '{"error":"too many concurrent requests"}',
    new Headers({ "Retry-After": "20" }),
  );
  assert.equal(c.retryAfterMs, 20_000);
  // A usage cap is not a wait-and-retry: no retryAfterMs even if a header came along.
  const w = classifyError(429, '{"error":"weekly usage limit"}', { "retry-after": "5" });
  assert.equal(w.retryAfterMs, undefined);
});

Deno.test("content type is never consulted: the same body classifies the same", () => {
  const body = '{"error":{"message":"model \\"x\\" not found","type":"not_found_error"}}';
  assert.equal(classifyError(404, body, { "content-type": "text/html" }).kind, "not_found");
  assert.equal(classifyError(404, body, { "content-type": "application/json" }).kind, "not_found");
});
