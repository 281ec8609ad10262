import assert from "node:assert/strict";
import {
  anchorsFor,
  assignTiers,
  bytesPerParam,
  FALLBACK_BYTES_PER_PARAM,
  FALLBACK_SIZE_LEVEL1,
  FALLBACK_SIZE_LEVEL4,
  paramsFromName,
  tierForSize,
  tierWeight,
} from "../../src/models/tiers.ts";

/** A live-looking list (sizes in bytes as /api/tags gives them). */
const LIVE = [
  { name: "gpt-oss:20b", size: 13_800_000_000 },
  { name: "gpt-oss:120b", size: 65_000_000_000 },
  { name: "nemotron-3-nano:30b", size: 24_000_000_000 },
  { name: "qwen3.5:397b", size: 420_000_000_000 },
  { name: "mistral-large-3:675b", size: 690_000_000_000 },
  { name: "kimi-k2:1t", size: 1_118_481_408_000 },
  { name: "deepseek-v4-pro", size: 1_700_000_000_000 },
];

Deno.test("paramsFromName reads the tag, a trailing -NNNb, and nothing else", () => {
  assert.equal(paramsFromName("gpt-oss:20b"), 20e9);
  assert.equal(paramsFromName("gpt-oss:120b-cloud"), 120e9);
  assert.equal(paramsFromName("kimi-k2:1t"), 1e12);
  assert.equal(paramsFromName("qwen3:0.6b"), 0.6e9);
  assert.equal(paramsFromName("qwen3:30b-a3b"), 30e9);
  assert.equal(paramsFromName("llama-3.1-405b"), 405e9);
  assert.equal(paramsFromName("glm-4.7"), null);
  assert.equal(paramsFromName("kimi-k2.7-code"), null);
  assert.equal(paramsFromName("minimax-m3"), null);
  assert.equal(paramsFromName("deepseek-v4-pro"), null);
});

Deno.test("the anchors are pinned to 1 and 4 and the live list places the rest", () => {
  const tiers = Object.fromEntries(assignTiers(LIVE).map((t) => [t.name, t.tier]));
  assert.deepEqual(tiers, {
    "gpt-oss:20b": 1,
    "gpt-oss:120b": 2,
    "nemotron-3-nano:30b": 1,
    "qwen3.5:397b": 3,
    "mistral-large-3:675b": 3,
    "kimi-k2:1t": 4,
    "deepseek-v4-pro": 4,
  });
  const a = anchorsFor(LIVE);
  assert.equal(a.level1From, "live");
  assert.equal(a.level4From, "live");
});

Deno.test("a never-seen model gets a tier the day it appears, from size or tag", () => {
  const list = [
    ...LIVE,
    { name: "brand-new-coder:250b", size: 0 }, // no size: tag gives params
    { name: "fresh-model", size: 300_000_000_000 }, // no tag: size is enough
    { name: "mystery-model" }, // neither: unknown
  ];
  const t = Object.fromEntries(assignTiers(list).map((x) => [x.name, x]));
  assert.equal(t["brand-new-coder:250b"].basis, "params");
  assert.equal(t["brand-new-coder:250b"].tier, 3);
  assert.equal(t["fresh-model"].basis, "size");
  assert.equal(t["fresh-model"].tier, 3);
  assert.equal(t["mystery-model"].tier, null);
  assert.equal(t["mystery-model"].basis, "unknown");
  assert.equal(tierWeight(t["mystery-model"].tier), 4);
});

Deno.test("missing anchors fall back to their documented sizes", () => {
  const a = anchorsFor([{ name: "something:70b", size: 40e9 }]);
  assert.equal(a.level1, FALLBACK_SIZE_LEVEL1);
  assert.equal(a.level4, FALLBACK_SIZE_LEVEL4);
  assert.equal(a.level1From, "fallback");
  // The worked example of the module doc.
  assert.equal(tierForSize(65e9, a), 2);
  assert.equal(tierForSize(1118e9, a), 4);
  assert.equal(tierForSize(1e6, a), 1); // clamped
  assert.equal(tierForSize(1e15, a), 4); // clamped
});

Deno.test("bytes per parameter comes from the live list when it can", () => {
  assert.equal(bytesPerParam([{ name: "x" }]), FALLBACK_BYTES_PER_PARAM);
  assert.equal(
    bytesPerParam([{ name: "a:10b", size: 5e9 }, { name: "b:20b", size: 10e9 }, { name: "c" }]),
    0.5,
  );
  // Tag-only models are sized with the observed ratio (0.5 here), not the fallback.
  const t = assignTiers([
    { name: "a:10b", size: 5e9 },
    { name: "b:20b", size: 10e9 },
    { name: "c:100b" },
  ]);
  assert.equal(t[2].sizeBytes, 50e9);
});
