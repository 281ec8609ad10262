import assert from "node:assert/strict";
import { join } from "node:path";
import { loadInstructions } from "../../src/agent/instructions.ts";

function tmp(): string {
  return Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-instr-" }));
}

Deno.test("instructions: global, root and directory files in order; CLAUDE.md/GEMINI.md only when AGENTS.md is absent", () => {
  const ws = tmp();
  const cfg = tmp();
  Deno.writeTextFileSync(join(cfg, "AGENTS.md"), "G\n");
  Deno.writeTextFileSync(join(ws, "GEMINI.md"), "GEM\n");
  Deno.writeTextFileSync(join(ws, "CLAUDE.md"), "CL\n");
  Deno.mkdirSync(join(ws, "pkg"));
  Deno.writeTextFileSync(join(ws, "pkg", "AGENTS.md"), "PKG\n");
  Deno.writeTextFileSync(join(ws, "pkg", "CLAUDE.md"), "NOT-USED\n");
  const r = loadInstructions({ workspace: ws, protectedPaths: [] }, {
    configDir: cfg,
    dir: join(ws, "pkg"),
  });
  assert.deepEqual(r.inputs.map((i) => [i.scope, i.path.slice(i.path.lastIndexOf("/") + 1)]), [
    ["global", "AGENTS.md"],
    ["workspace", "CLAUDE.md"],
    ["directory", "AGENTS.md"],
  ]);
  const t = r.text!;
  assert.ok(t.indexOf("G\n") < t.indexOf("CL\n") && t.indexOf("CL\n") < t.indexOf("PKG\n"), t);
  assert.doesNotMatch(t, /GEM|NOT-USED/);
  for (const i of r.inputs) assert.match(i.digest ?? "", /^[0-9a-f]{64}$/);
  // A directory outside the workspace, or the root itself, adds nothing twice.
  const again = loadInstructions({ workspace: ws, protectedPaths: [] }, { dir: cfg });
  assert.equal(again.inputs.length, 1);
});

Deno.test("instructions: retie's own state, a link out, a FIFO and an oversized file are refused, never read", () => {
  const ws = tmp();
  const outside = tmp();
  Deno.writeTextFileSync(join(outside, "secret"), "SECRET\n");
  Deno.mkdirSync(join(ws, "state"));
  Deno.writeTextFileSync(join(ws, "state", "key"), "KEY\n");
  for (
    const [dir, make] of [
      ["a", (p: string) => Deno.symlinkSync(join(outside, "secret"), p)],
      ["b", (p: string) => Deno.symlinkSync(join(ws, "state", "key"), p)],
      ["c", (p: string) => new Deno.Command("mkfifo", { args: [p] }).outputSync()],
      ["d", (p: string) => Deno.writeTextFileSync(p, "x".repeat(70_000))],
    ] as const
  ) {
    Deno.mkdirSync(join(ws, dir));
    make(join(ws, dir, "AGENTS.md"));
    const r = loadInstructions({ workspace: ws, protectedPaths: [join(ws, "state")] }, {
      dir: join(ws, dir),
    });
    assert.equal(r.text, null, dir);
    assert.equal(r.inputs.length, 1, dir);
    assert.equal(r.inputs[0].digest, null);
    assert.match(
      r.inputs[0].refused!,
      /outside the workspace|retie's own state|not a regular|bytes, more than/,
      dir,
    );
  }
});
