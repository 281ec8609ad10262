import assert from "node:assert/strict";
import { join } from "node:path";
import { fetchCatalog, parseTags, tagsUrl } from "../../src/models/catalog.ts";
import { ProbeCache } from "../../src/models/probe_cache.ts";
import { RetieError } from "../../src/core/errors.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { MODELS, tempDir } from "./helpers.ts";

Deno.test("the tags URL derives from the base URL", () => {
  assert.equal(tagsUrl("https://ollama.com/v1"), "https://ollama.com/api/tags");
  assert.equal(tagsUrl("https://ollama.com/v1/"), "https://ollama.com/api/tags");
  assert.equal(tagsUrl("http://127.0.0.1:8080/v1"), "http://127.0.0.1:8080/api/tags");
  assert.equal(tagsUrl("http://host:1/ollama/v1"), "http://host:1/ollama/api/tags");
  assert.throws(
    () => tagsUrl("ftp://x/v1"),
    (e: unknown) => e instanceof RetieError && e.exitCode === 2,
  );
  assert.throws(() => tagsUrl("not a url"), RetieError);
});

Deno.test("parseTags keeps names and positive sizes, skips junk, refuses a non-list", () => {
  const out = parseTags({
    models: [
      { name: "a:1b", size: 1e9, digest: "abc", modified_at: "2025-01-01T00:00:00Z" },
      { model: "b-only-model-field", size: 0 },
      { name: "a:1b", size: 5 },
      { size: 3 },
      null,
      "junk",
      { name: "c", size: "big" },
    ],
  });
  assert.deepEqual(out, [
    { name: "a:1b", size: 1e9, digest: "abc", modifiedAt: "2025-01-01T00:00:00Z" },
    { name: "b-only-model-field" },
    { name: "c" },
  ]);
  assert.throws(() => parseTags({ data: [] }), /no `models` array/);
});

Deno.test("fetchCatalog reads /api/tags without a key; an HTTP error names the URL", async () => {
  const emu = startOllamaEmulator({ script: [], models: MODELS });
  try {
    const list = await fetchCatalog(`${emu.url}/v1`);
    assert.deepEqual(list.map((m) => m.name), MODELS.map((m) => m.name));
    assert.equal(list[0].size, MODELS[0].size);
    assert.equal(emu.requests[0].headers["authorization"], undefined);
    await assert.rejects(fetchCatalog(`${emu.url}/nope/v1`), /HTTP 404/);
  } finally {
    await emu.close();
  }
});

Deno.test("probe cache: per base URL, unreadable file refused, concurrent writers lose nothing", async () => {
  const dir = tempDir();
  const path = join(dir, "probe.json");
  const c = new ProbeCache(path);
  c.set("http://a/v1", "m", { status: "denied", at: "t" });
  assert.equal(c.entitlement("http://a/v1", "m"), "denied");
  assert.equal(c.entitlement("http://b/v1", "m"), "not_probed");

  const script = `
    import { ProbeCache } from "${
    new URL("../../src/models/probe_cache.ts", import.meta.url).href
  }";
    const c = new ProbeCache(Deno.args[0]);
    for (let i = 0; i < 40; i++) c.set("http://a/v1", Deno.args[1] + i, { status: "accessible", at: "t" });`;
  const run = (p: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", "--ext=ts", script, path, p],
      stdout: "null",
      stderr: "piped",
    }).output();
  const outs = await Promise.all([run("x"), run("y")]);
  for (const o of outs) assert.equal(o.code, 0, new TextDecoder().decode(o.stderr));
  assert.equal(Object.keys(c.base("http://a/v1").models).length, 81);

  Deno.writeTextFileSync(path, "{not json");
  assert.throws(() => c.base("http://a/v1"), /not a retie probe file/);
});
