import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runRetie } from "../helpers/retie_process.ts";
import { VERSION } from "../../src/version.ts";

Deno.test("retie --version prints the version from deno.json", async () => {
  const cfg = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")));
  assert.equal(cfg.version, VERSION);
  const r = await runRetie(["--version"], { local: false });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), VERSION);
});

Deno.test("retie --help lists the global --ledger option", async () => {
  const r = await runRetie(["--help"], { local: false });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /--ledger <path>/);
  assert.match(r.stdout, /Usage: retie/);
});

Deno.test("an unknown subcommand exits 2 with a clear message", async () => {
  const r = await runRetie(["nosuchcommand"], { local: false });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /nosuchcommand/);
});
