/**
 * The literal hints read off regular expressions: every match holds one, and patterns the reader
 * does not fully understand get none (so they always run).
 */
import assert from "node:assert/strict";
import { hintOf, mayMatch, textIndex } from "../../src/inspect/regex_hint.ts";
import { countAll } from "../../src/inspect/rule_types.ts";

Deno.test("hints: the longest required literal, or a required group's alternatives", () => {
  assert.deepEqual(hintOf(/\b\w*verify_(?:signature|token|jwt)\w*\s*\(/g), ["verify_"]);
  assert.deepEqual(hintOf(/^\s*@[\w.]*csrf_exempt\b/gm), ["csrf_exempt"]);
  assert.deepEqual(hintOf(/\b(?:abort|raise\s+\w*)\s*\(\s*(?:401|403)\b/g), ["abort", "raise"]);
  assert.deepEqual(hintOf(/\bStrictHostKeyChecking[=\s]+no\b/gi), ["stricthostkeychecking"]);
  // Optional atoms are not required; a repeated one ends the run.
  assert.deepEqual(hintOf(/ab?cd/g), ["cd"]);
  assert.deepEqual(hintOf(/xy+zw/g), ["xy"]);
  assert.deepEqual(hintOf(/k(?=abc)lm/g), ["lm"]);
});

Deno.test("hints: none where the reader cannot be sure", () => {
  assert.equal(hintOf(/\w+/g), null);
  assert.equal(hintOf(/a|\d+/g), null); // one alternative has no literal
  assert.equal(hintOf(/abc\x41/g), null); // escapes it does not decode
  assert.equal(hintOf(/stop/iu), null); // Unicode case folding (ſ matches s)
  assert.equal(hintOf(/abc/y), null);
  assert.equal(hintOf(/(?:x)?y{a/g), null); // a literal brace
});

Deno.test("hints: every match of every pattern contains one", () => {
  const cases: [RegExp, string][] = [
    [/\b(?:ssl|tls)_verify\b/gi, "SSL_VERIFY = 0; tls_Verify"],
    [/(?:ab|cd)+e?f/g, "cdabf abef cdcdf"],
    [/a{2,}b{0,2}c/g, "aac aabbc aaaac"],
    [/[\w.]*\.(?:is_staff|has_perm)\b/g, "user.is_staff or u.has_perm"],
    [/(?<word>token)\s*[:=]/gi, "TOKEN = x; Token: y"],
    [/\$\{[^}]*\}/g, "a ${b} c ${d}"],
  ];
  for (const [re, text] of cases) {
    const h = hintOf(re);
    assert.ok(h !== null, `${re} has a hint`);
    const ms = [...text.matchAll(re)];
    assert.ok(ms.length > 0, `${re} matches its sample`);
    for (const m of ms) {
      const s = re.ignoreCase ? m[0].toLowerCase() : m[0];
      assert.ok(h.some((x) => s.includes(x)), `${re}: "${m[0]}" holds one of ${h}`);
    }
    assert.ok(mayMatch(re, textIndex(text)));
  }
  assert.equal(mayMatch(/verify_token\(/g, textIndex("x = 1")), false);
  assert.equal(mayMatch(/Verify_Token/gi, textIndex("VERIFY_TOKEN")), true);
  assert.equal(mayMatch(/verify_token/g, textIndex("verify token")), false);
});

Deno.test("countAll skips texts without the hint and counts the rest as before", () => {
  const pats = [/\bverify_token\s*\(/g, /\bCERT_NONE\b/gi, /\w+=\d/g];
  assert.equal(countAll("verify_token(a); cert_none; x=1 y=2", pats), 4);
  assert.equal(countAll("nothing here", pats), 0);
});
