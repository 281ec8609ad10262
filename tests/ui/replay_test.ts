import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runRetie } from "../helpers/retie_process.ts";
import { recordSampleSession, SAMPLE_OBJECTIVE } from "../helpers/sample_session.ts";
import type { LedgerEntry } from "../../src/ledger/types.ts";
import { buildReplay } from "../../src/ui/replay_model.ts";
import { diffText } from "../../src/ui/live.ts";

const sample = await recordSampleSession();

Deno.test("replay (text) verifies, then shows objective, header, actions, refusals, findings, totals", async () => {
  const r = await runRetie(["--ledger", sample.ledgerPath, "replay", "--last"], {
    env: sample.env,
  });
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  assert.ok(out.startsWith(SAMPLE_OBJECTIVE), out);
  assert.match(
    out,
    new RegExp(
      `${sample.sessionId} · scripted-sample · retie-default@[0-9a-f]{12} · none: not needed`,
    ),
  );
  assert.match(out, /ok\s+read\s+read calc\.py/);
  assert.match(out, /ok\s+edit\s+edit calc\.py/);
  assert.match(out, /refused\s+edit/);
  assert.match(out, /⚑ high: auth-check-removed \(1 → 0\)/);
  assert.match(out, /refused\s+deploy/);
  assert.match(out, /act_[0-9a-f]{12}/, "action ids are shown");
  assert.match(out, /by policy rule/, "who decided is shown");
  assert.match(out, /answer\s+\(scripted-sample\) done/, "the model's answer is shown");
  assert.match(
    out,
    /2 actions · 2 refused · 0 failed · 0 undone · 0 not reversible · 1 flagged · 1 turns · \d+s/,
  );
  assert.match(out, /verified · head #\d+ [0-9a-f]{16}/);
});

Deno.test("replay --markdown and --json carry the same timeline", async () => {
  const md = await runRetie([
    "replay",
    sample.sessionId,
    "--markdown",
    "--ledger",
    sample.ledgerPath,
  ], {
    env: sample.env,
  });
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /^### retie session: /);
  assert.match(md.stdout, /\| \*\*refused\*\* \| deploy \|/);
  assert.match(md.stdout, /<details><summary>/);
  const js = await runRetie(["replay", "--json", "--ledger", sample.ledgerPath], {
    env: sample.env,
  });
  assert.equal(js.code, 0, js.stderr);
  const model = JSON.parse(js.stdout);
  assert.equal(model.objective, SAMPLE_OBJECTIVE);
  assert.equal(model.totals.refused, 2);
  assert.deepEqual(model.timeline.map((a: { tool: string }) => a.tool), [
    "prompt",
    "read",
    "edit",
    "edit",
    "deploy",
    "answer",
  ]);
});

Deno.test("replay of a tampered ledger prints only the verify error and exits 1", async () => {
  const copy = join(Deno.makeTempDirSync(), "tampered.db");
  Deno.copyFileSync(sample.ledgerPath, copy);
  const db = new DatabaseSync(copy);
  const cols = db.prepare("PRAGMA table_info(entries)").all() as { name: string }[];
  assert.ok(
    cols.some((c) => c.name === "payload"),
    "expected an entries table with a payload column",
  );
  // An attacker with the file drops the append-only triggers first.
  for (
    const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as {
      name: string;
    }[]
  ) {
    db.exec(`DROP TRIGGER "${t.name}"`);
  }
  db.exec(
    "UPDATE entries SET payload = replace(payload, 'calc.py', 'calx.py') WHERE seq = (SELECT MIN(seq) FROM entries WHERE kind = 'intent')",
  );
  db.close();
  const r = await runRetie(["replay", "--ledger", copy], { env: sample.env });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /ledger INVALID at seq \d+/);
});

Deno.test("replay of a missing ledger exits 2 naming the file", async () => {
  const r = await runRetie(["replay", "--ledger", "/nonexistent/ledger.db"], { env: sample.env });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /nonexistent\/ledger\.db/);
});

const chromium = (() => {
  try {
    return Deno.statSync("/usr/bin/chromium").isFile ? "/usr/bin/chromium" : null;
  } catch {
    return null;
  }
})();

Deno.test({
  name: "replay --html is one self-contained page that headless Chromium renders with the timeline",
  ignore: chromium === null,
  fn: async () => {
    const out = join(Deno.makeTempDirSync(), "session.html");
    const r = await runRetie(["replay", "--html", "-o", out, "--ledger", sample.ledgerPath], {
      env: sample.env,
    });
    assert.equal(r.code, 0, r.stderr);
    const html = Deno.readTextFileSync(out);
    assert.ok(!/(src|href)=["']?https?:/i.test(html), "the page must not fetch anything");
    assert.ok(!html.includes("<b>and</b>"), "recorded text must be escaped");
    const profile = Deno.makeTempDirSync();
    const dom = await new Deno.Command(chromium!, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--dump-dom",
        `file://${out}`,
      ],
      stdout: "piped",
      stderr: "null",
    }).output();
    const text = new TextDecoder().decode(dom.stdout);
    assert.match(text, /<ol class="timeline" id="timeline">/);
    assert.equal((text.match(/<li class="/g) ?? []).length, 6);
    assert.match(text, /<li class="refused refusal"/);
    assert.match(text, /id="verified">verified</);
    assert.match(text, /auth-check-removed \(1 → 0\)/);
  },
});

function entry(
  seq: number,
  kind: LedgerEntry["kind"],
  payload: Record<string, unknown>,
): LedgerEntry {
  return {
    seq,
    time: `2026-01-01T09:00:0${seq}.000Z`,
    session: "ses_0123456789ab",
    kind,
    actionId: null,
    payloadJson: JSON.stringify(payload),
    payload,
    prev: "0".repeat(64),
    hash: "0".repeat(64),
    signer: "",
    signature: "",
  };
}

Deno.test("replay says which model the ladder left and took, and what a refused call was", () => {
  const m = buildReplay([
    entry(1, "genesis", { objective: "fix", model: "gpt-oss:20b" }),
    entry(2, "event", {
      type: "model",
      event: "start",
      model: "gpt-oss:20b",
      tier: 1,
      reason: "cheapest usable model",
    }),
    entry(3, "event", {
      type: "model",
      event: "escalate",
      from: "gpt-oss:20b",
      to: "gpt-oss:120b",
      toTier: 2,
      reason: "session_limit",
      detail: "you have reached your session usage limit",
    }),
    entry(4, "event", {
      type: "model",
      event: "stop",
      model: "gpt-oss:120b",
      reason: "weekly_limit",
    }),
    entry(5, "refusal", {
      tool: "write",
      args: { path: "../outside.txt", content: "x" },
      stage: "gate",
      reason: "writes outside the workspace",
    }),
    entry(6, "refusal", { tool: "bash", args: { command: "rm -rf /\necho" }, stage: "gate" }),
    entry(7, "refusal", { tool: "frob", args: "{not json", stage: "invalid-arguments" }),
  ], { seq: 7, hash: "0".repeat(64) });
  assert.deepEqual(m.timeline.map((a) => a.summary), [
    "start gpt-oss:20b: cheapest usable model",
    "escalate gpt-oss:20b → gpt-oss:120b: session_limit: you have reached your session usage limit",
    "stop gpt-oss:120b: weekly_limit",
    "write ../outside.txt",
    "bash: rm -rf /",
    "call frob",
  ]);
  assert.equal(m.totals.refused, 3);
});

Deno.test("a live diff shows both halves of its header and colours nothing without a terminal", () => {
  const text = diffText(
    {
      path: "/ws/calc.py",
      before: "def add(a, b):\n    return a - b\n",
      after: "def add(a, b):\n    return a + b\n",
    },
    "/ws",
  );
  const lines = text.split("\n").map((l) => l.trim());
  assert.deepEqual(lines.slice(0, 2), ["--- a/calc.py", "+++ b/calc.py"]);
  assert.ok(!lines.some((l) => /^=+$/.test(l)), text);
  assert.ok(lines.includes("-    return a - b"), text);
  assert.ok(lines.includes("+    return a + b"), text);
  assert.ok(!text.includes("\x1b["), "NO_COLOR: no escape codes");
});

Deno.test("an interactive session's replay is headed by the person's first request", () => {
  const m = buildReplay([
    entry(1, "genesis", { objective: "(interactive session)", model: "m" }),
    entry(2, "event", { type: "turn", text: "make the tests pass" }),
    entry(3, "event", { type: "turn", text: "now tidy up" }),
  ], { seq: 3, hash: "0".repeat(64) });
  assert.equal(m.objective, "make the tests pass");
  assert.equal(m.totals.turns, 2);
  const headless = buildReplay([
    entry(1, "genesis", { objective: "fix add", model: "m" }),
    entry(2, "event", { type: "turn", text: "fix add" }),
  ], { seq: 2, hash: "0".repeat(64) });
  assert.equal(headless.objective, "fix add");
});

Deno.test("replay -o writes plain text even when colour is forced", async () => {
  const out = join(Deno.makeTempDirSync(), "session.txt");
  const colour = { ...sample.env, FORCE_COLOR: "1", NO_COLOR: "" };
  const r = await runRetie(["replay", "-o", out, "--ledger", sample.ledgerPath], { env: colour });
  assert.equal(r.code, 0, r.stderr);
  const text = Deno.readTextFileSync(out);
  assert.match(text, /refused\s+deploy/);
  assert.ok(!text.includes("\x1b["), "no colour codes in a file");
  // The same replay to stdout is coloured, so the check above can fail.
  const shown = await runRetie(["replay", "--ledger", sample.ledgerPath], { env: colour });
  assert.ok(shown.stdout.includes("\x1b["));
});
