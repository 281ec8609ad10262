/**
 * `deno task demo` as a user runs it: its own process, the shipped flags plus `deno` spawnable for
 * the separate verifier, no key, no network.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, isolatedEnv, retieFlags, ROOT } from "../helpers/retie_process.ts";

Deno.test("the demo shows every part and exits 0", async () => {
  const iso = isolatedEnv();
  const ledger = join(iso.dir, "kept.db");
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...retieFlags(false),
      "--allow-run=/usr/bin/bwrap,deno",
      join(ROOT, "demo.ts"),
      "--ledger",
      ledger,
    ],
    env: { ...iso.env, PATH: Deno.env.get("PATH") ?? "", DENO_DIR: denoDir(), NO_COLOR: "1" },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const err = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text + err);
  // 1: classification, bash twice with different classes; the unclassified tool denied.
  assert.match(text, /bash \(sandboxed\)\s+reversible\s+allow/);
  assert.match(text, /bash \(unconfined\)\s+irreversible\s+ask\s+deny/);
  assert.match(text, /deploy \(unclassified\)\s+unknown\s+deny\s+deny/);
  // 2: the session; the inspector's finding on the refused edit; the unclassified tool refused.
  assert.match(text, /⚑ high: auth-check-removed \(1 → 0\)/);
  assert.match(text, /refused\s+deploy/);
  // 3: the sandboxed command undone.
  assert.match(text, /undone act_[0-9a-f]{12}/);
  // 4: verified by a separate process.
  assert.match(text, /\(pid of its own, exit 0\)/);
  assert.match(text, /ledger OK: \d+ entries/);
  // 5: the replay, and the ledger kept where --ledger said.
  assert.match(
    text,
    /actions · \d+ refused · \d+ failed · \d+ undone · \d+ not reversible · \d+ flagged · 1 turns/,
  );
  assert.ok(Deno.statSync(ledger).isFile);
  assert.match(text, /demo complete\./);
});
