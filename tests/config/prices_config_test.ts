/** The `prices` key: accepted as USD per million tokens by model name; anything else is named. */
import assert from "node:assert/strict";
import { parseConfig } from "../../src/config/mod.ts";

Deno.test("config: prices by model name, validated strictly", () => {
  const c = parseConfig(
    { prices: { "gpt-4o": { input: 2.5, output: 10 }, "my-*": { input: 0, output: 0 } } },
    "/c.json",
  );
  assert.deepEqual(c.prices?.["gpt-4o"], { input: 2.5, output: 10 });
  assert.throws(
    () => parseConfig({ prices: { "gpt-4o": { input: 2.5 } } }, "/c.json"),
    /prices\.gpt-4o\.output/,
  );
  assert.throws(
    () => parseConfig({ prices: { m: { input: -1, output: 1 } } }, "/c.json"),
    /prices\.m\.input/,
  );
  assert.throws(
    () => parseConfig({ prices: { m: { input: 1, output: 1, cache: 0.1 } } }, "/c.json"),
    /cache/,
  );
  assert.throws(
    () => parseConfig({ prices: { m: { input: "3", output: 1 } } }, "/c.json"),
    /prices/,
  );
});
