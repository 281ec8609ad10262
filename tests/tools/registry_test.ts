import assert from "node:assert/strict";
import { builtinTools, toolDefinitions } from "../../src/tools/registry.ts";
import { fixture } from "./tool_ctx.ts";

Deno.test("the built-in tools, and their definitions as JSON Schema", () => {
  const tools = builtinTools();
  assert.deepEqual(tools.map((t) => t.name), [
    "read",
    "ls",
    "glob",
    "grep",
    "edit",
    "write",
    "bash",
    "fetch",
    "recall",
    "ask",
  ]);
  const defs = toolDefinitions(tools);
  const edit = defs.find((d) => d.name === "edit")!;
  assert.deepEqual(edit.parameters.required, ["path", "old_text", "new_text"]);
  assert.equal(edit.parameters.type, "object");
  assert.equal("$schema" in edit.parameters, false);
  for (const d of defs) {
    assert.ok(d.description.length > 20 && d.description.length < 300, d.name);
    const props = d.parameters.properties as Record<string, { description?: string }>;
    for (const [k, v] of Object.entries(props)) assert.ok(v.description, `${d.name}.${k}`);
    // Definitions carry nothing that runs.
    assert.deepEqual(Object.keys(d).sort(), ["description", "name", "parameters"]);
  }
});

Deno.test("every file tool classifies reads as none and writes as reversible", async () => {
  const f = fixture();
  try {
    Deno.writeTextFileSync(`${f.ws}/a.txt`, "a\n");
    const byName = Object.fromEntries(builtinTools().map((t) => [t.name, t]));
    const cases: [string, Record<string, unknown>, string][] = [
      ["read", { path: "a.txt" }, "none"],
      ["ls", {}, "none"],
      ["glob", { pattern: "*" }, "none"],
      ["grep", { pattern: "a" }, "none"],
      ["edit", { path: "a.txt", old_text: "a", new_text: "b" }, "reversible"],
      ["write", { path: "a.txt", content: "c" }, "reversible"],
    ];
    for (const [name, raw, cls] of cases) {
      const tool = byName[name];
      const eff = await tool.classify(tool.schema.parse(raw), f.ctx);
      assert.equal(eff.class, cls, name);
      assert.deepEqual(eff.readsOutside, [], name);
      assert.deepEqual(eff.writesOutside, [], name);
    }
  } finally {
    f.cleanup();
  }
});
