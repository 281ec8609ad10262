import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openLedger } from "../../src/ledger/ledger.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
/** isolatedEnv() moves HOME and with it Deno's default cache; keep the child on the real cache. */
function env(home: { env: Record<string, string> }): Record<string, string> {
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
  return { ...home.env, DENO_DIR: denoDir };
}

import { fixture, guardFor, shellTool, type Spy, writeTool } from "./plane_fixture.ts";

Deno.test("retie undo: a later process undoes, refuses clobbers (exit 1), --force, --all skips", async () => {
  const f = fixture();
  const home = isolatedEnv();
  try {
    const a = join(f.workspace, "a.txt");
    writeFileSync(a, "v1");
    const spy: Spy = { calls: 0 };
    const g = guardFor(f);
    const w1 = await g.run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a.txt", content: "v2" },
      ctx: f.ctx,
    });
    const sh = await g.run({
      name: "bash",
      tool: shellTool(spy),
      args: { command: "make" },
      ctx: f.ctx,
    });
    const w2 = await g.run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "b.txt", content: "b" },
      ctx: f.ctx,
    });
    const session = f.sink.sessionId;
    f.sink.close();
    f.ledger.close();
    f.blobs.close();

    writeFileSync(a, "edited by someone");
    const refused = await runRetie(["--ledger", f.ledgerPath, "undo", w1.actionId!], {
      env: home.env,
    });
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(refused.stderr, "");
    assert.match(refused.stdout, /refused +act_/);
    assert.match(refused.stdout, new RegExp(`${a}: modified since the action`));
    assert.equal(readFileSync(a, "utf8"), "edited by someone");

    const forced = await runRetie(["--ledger", f.ledgerPath, "undo", w1.actionId!, "--force"], {
      env: home.env,
    });
    assert.equal(forced.code, 0, forced.stderr + forced.stdout);
    assert.match(forced.stdout, /undone +act_/);
    assert.equal(readFileSync(a, "utf8"), "v1");

    const all = await runRetie(["--ledger", f.ledgerPath, "undo", "--all", session, "--json"], {
      env: home.env,
    });
    assert.equal(all.code, 0, all.stderr);
    const out = JSON.parse(all.stdout) as {
      session: string;
      reports: { target: string; status: string; reason: string }[];
    };
    assert.deepEqual(out.reports.map((r) => [r.target, r.status]), [
      [w2.actionId, "undone"],
      [sh.actionId, "skipped"],
      [w1.actionId, "skipped"], // already undone by the forced run
    ]);
    assert.match(out.reports[1].reason, /not reversible/);

    // the undo sessions are in the same ledger, with their own keys, and the ledger still verifies
    const ledger = openLedger(f.ledgerPath);
    try {
      const undoSessions = ledger.sessions().filter((s) => s.objective.startsWith("undo "));
      assert.equal(undoSessions.length, 3);
      const entries = ledger.entries({ session: out.session, kinds: ["undo"] });
      // the already-undone action is reported but not recorded again
      assert.deepEqual(entries.map((e) => e.payload.status), ["undone", "skipped"]);
    } finally {
      ledger.close();
    }
    const report = verifyLedger(f.ledgerPath);
    assert.equal(report.ok, true, JSON.stringify(report.firstBad));

    const bad = await runRetie(["--ledger", f.ledgerPath, "undo", "nope"], { env: env(home) });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not an action id/);
    const unknown = await runRetie(["--ledger", f.ledgerPath, "undo", "act_0123456789ab"], {
      env: env(home),
    });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no action act_0123456789ab in /);
    const noSession = await runRetie(
      ["--ledger", f.ledgerPath, "undo", "--all", "ses_0123456789ab"],
      { env: env(home) },
    );
    assert.equal(noSession.code, 2);
    assert.match(noSession.stderr, /no session ses_0123456789ab in /);
  } finally {
    f.close();
    Deno.removeSync(home.dir, { recursive: true });
  }
});

Deno.test("retie policy: prints the identity; an invalid project file exits 2 naming the rule", async () => {
  const home = isolatedEnv();
  try {
    const ok = await runRetie(["policy", "--workspace", home.dir], { env: env(home) });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^policy retie-default@[0-9a-f]{12}\n/);
    Deno.mkdirSync(join(home.dir, ".retie"));
    writeFileSync(
      join(home.dir, ".retie", "policy.json"),
      JSON.stringify({
        name: "p",
        rules: [{
          id: "x",
          match: { tools: ["bash"] },
          decision: "never",
          justification: "just because",
        }],
      }),
    );
    const bad = await runRetie(["policy", "--workspace", home.dir], { env: env(home) });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /rules\[0\] \(id "x"\)\.decision/);
  } finally {
    Deno.removeSync(home.dir, { recursive: true });
  }
});

Deno.test("retie policy and undo: a missing workspace, an unreadable policy file or a non-ledger exit 2", async () => {
  const home = isolatedEnv();
  try {
    const gone = await runRetie(["policy", "--workspace", join(home.dir, "nope")], {
      env: env(home),
    });
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /--workspace .*nope\): not a directory/);
    Deno.mkdirSync(join(home.dir, ".retie", "policy.json"), { recursive: true });
    const dir = await runRetie(["policy", "--workspace", home.dir], { env: env(home) });
    assert.equal(dir.code, 2);
    assert.match(dir.stderr, /cannot read the policy \(.*\.retie\/policy\.json\)/);
    // an empty file given as the ledger is refused, and not turned into a ledger
    const empty = join(home.dir, "empty.db");
    writeFileSync(empty, "");
    const u = await runRetie(["--ledger", empty, "undo", "--all"], { env: env(home) });
    assert.equal(u.code, 2);
    assert.match(u.stderr, /not a retie ledger/);
    assert.equal(Deno.statSync(empty).size, 0);
    const missing = await runRetie(
      ["--ledger", join(home.dir, "nope.db"), "undo", "act_0123456789ab"],
      { env: env(home) },
    );
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no ledger at .*nope\.db/);
  } finally {
    Deno.removeSync(home.dir, { recursive: true });
  }
});
