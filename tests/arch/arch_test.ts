import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { checkTree } from "./rules.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));
const FIXTURE = fromFileUrl(new URL("../fixtures/arch_violation/", import.meta.url));

Deno.test("the source tree follows the architecture rules", () => {
  const violations = checkTree(ROOT);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
});

Deno.test("the checker catches planted violations", () => {
  const found = checkTree(FIXTURE).map((v) => `${v.file}: ${v.problem}`).sort();
  assert.deepEqual(found, [
    "src/agent/shortcut.ts: calls a tool handler outside the guard",
    "src/cli/sneaky.ts: starts a process outside src/exec.ts",
    "src/plane/reaches_in.ts: imports ../ledger/verify.ts: src/ledger is entered through its mod.ts",
    "src/plane/uses_cli.ts: imports ../cli/sneaky.ts: nothing may import cli",
    "src/providers/runs_tools.ts: imports ../plane/guard.ts: providers may not depend on plane",
    "src/providers/runs_tools.ts: imports ../tools/read.ts: providers may not depend on tools",
    "src/sandbox/uses_models.ts: imports ../models/mod.ts: sandbox may not depend on models",
    "src/tools/read.ts: starts a process outside src/exec.ts",
  ]);
});

Deno.test("a doc-comment example does not count as a spawn", () => {
  const dir = Deno.makeTempDirSync();
  Deno.mkdirSync(`${dir}/src/core`, { recursive: true });
  Deno.writeTextFileSync(
    `${dir}/src/core/doc.ts`,
    "/** new Deno.Command('x') */\nexport const a = 1;\n",
  );
  assert.deepEqual(checkTree(dir), []);
});
