/**
 * `retie --ledger PATH sandbox …`: a ledger the user named, when it lies inside the workspace, is as
 * unreachable from the sandboxed command as the default one — with its side files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";

Deno.test("retie sandbox hides a ledger named with --ledger inside the workspace", async () => {
  const { dir, env } = isolatedEnv();
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-cli-ws-" }));
  try {
    const ledger = join(ws, "my-ledger.db");
    Deno.writeTextFileSync(ledger, "ledger bytes\n");
    Deno.writeTextFileSync(`${ledger}.head.json`, "{}\n");
    const r = await runRetie([
      "--ledger",
      ledger,
      "sandbox",
      "--workspace",
      ws,
      "--",
      "cat my-ledger.db; echo tamper >> my-ledger.db; rm -f my-ledger.db my-ledger.db.head.json; " +
      "echo ok > other.txt",
    ], { env });
    assert.doesNotMatch(r.stdout, /ledger bytes/, "the ledger must not be readable");
    assert.equal(Deno.readTextFileSync(ledger), "ledger bytes\n");
    assert.equal(Deno.readTextFileSync(`${ledger}.head.json`), "{}\n");
    assert.equal(Deno.readTextFileSync(join(ws, "other.txt")), "ok\n", "the rest stays writable");
  } finally {
    Deno.removeSync(ws, { recursive: true });
    Deno.removeSync(dir, { recursive: true });
  }
});
