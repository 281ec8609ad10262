/**
 * The composite GitHub Action, run locally as a clean workflow would: its steps are read from
 * action.yml; the install step installs retie into a fresh DENO_INSTALL_ROOT (Deno itself is what
 * setup-deno provides, already on PATH here), and the evidence step verifies the ledger and writes
 * the markdown replay to $GITHUB_STEP_SUMMARY — or, for a tampered ledger or a wrong expected head,
 * writes why and fails.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { denoDir, ROOT } from "../helpers/retie_process.ts";
import { recordSampleSession } from "../helpers/sample_session.ts";

const sample = await recordSampleSession();

/** The run: scripts of action.yml's steps, read with python3's YAML parser. */
async function steps(): Promise<
  { name: string; uses?: string; run?: string; env?: Record<string, string> }[]
> {
  const out = await new Deno.Command("python3", {
    args: [
      "-c",
      "import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
      join(ROOT, "action.yml"),
    ],
    stdout: "piped",
  }).output();
  const action = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(action.runs.using, "composite");
  assert.ok(action.inputs.ledger.required);
  assert.ok("expect-head" in action.inputs);
  return action.runs.steps;
}

const home = Deno.makeTempDirSync({ prefix: "retie-action-" });
const installRoot = join(home, "deno-install");

async function bash(script: string, env: Record<string, string>) {
  const out = await new Deno.Command("bash", {
    args: ["-c", script],
    env: {
      PATH: `${join(installRoot, "bin")}:${dirname(Deno.execPath())}:/usr/bin:/bin`,
      HOME: home,
      DENO_DIR: denoDir(),
      DENO_INSTALL_ROOT: installRoot,
      GITHUB_ACTION_PATH: ROOT,
      NO_COLOR: "1",
      ...env,
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

/** Runs the evidence step with the action's inputs, as the runner would. */
async function evidence(inputs: Record<string, string>, extra: Record<string, string> = {}) {
  const all = await steps();
  const step = all.find((s) => s.run?.includes("evidence.sh"))!;
  const summary = join(Deno.makeTempDirSync(), "summary.md");
  const output = join(Deno.makeTempDirSync(), "output.txt");
  Deno.writeTextFileSync(summary, "");
  Deno.writeTextFileSync(output, "");
  const env: Record<string, string> = { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output };
  for (const [k, v] of Object.entries(step.env ?? {})) {
    // `${{ inputs.x }}` is what the runner substitutes.
    const m = v.match(/^\$\{\{ inputs\.([\w-]+) \}\}$/);
    env[k] = m ? (inputs[m[1]] ?? "") : v;
  }
  const r = await bash(step.run!, { ...env, ...extra });
  return { ...r, summary: Deno.readTextFileSync(summary), output: Deno.readTextFileSync(output) };
}

Deno.test("action: setup-deno, then the install step puts a working retie on PATH", async () => {
  const all = await steps();
  assert.match(all[0].uses ?? "", /^denoland\/setup-deno@/);
  const install = all.find((s) => s.run?.includes("install.sh"))!;
  const githubPath = join(home, "github_path");
  const r = await bash(install.run!, { GITHUB_PATH: githubPath });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\d+\.\d+\.\d+/);
  assert.equal(Deno.readTextFileSync(githubPath).trim(), join(installRoot, "bin"));
  const v = await bash('retie --ledger "$L" verify', { L: sample.ledgerPath });
  assert.equal(v.code, 0, v.stderr);
  assert.match(v.stdout, /ledger OK/);
});

Deno.test("action: a valid ledger is verified and its replay lands in the job summary", async () => {
  const r = await evidence({ ledger: sample.ledgerPath });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.summary, /^### retie session: /);
  assert.match(r.summary, /\| \*\*refused\*\* \| deploy \|/);
  assert.match(r.summary, /<details><summary>/);
  assert.match(r.output, /^verified=true$/m);
  const head = r.output.match(/^head=(\d+):([0-9a-f]{64})$/m);
  assert.ok(head, r.output);
  // The same head, given as expected, passes; another one fails.
  const ok = await evidence({
    ledger: sample.ledgerPath,
    "expect-head": `${head[1]}:${head[2]}`,
  });
  assert.equal(ok.code, 0, ok.stderr);
  const wrong = await evidence({
    ledger: sample.ledgerPath,
    "expect-head": `${Number(head[1]) + 1}:${head[2]}`,
  });
  assert.equal(wrong.code, 1);
  assert.match(wrong.summary, /ledger INVALID/);
  assert.match(wrong.summary, /"code": "expected-head-missing"/);
  assert.doesNotMatch(wrong.summary, /retie session:/);
  // A small limit: the summary stays within it, with whole blocks left out and a note.
  const small = await evidence({ ledger: sample.ledgerPath }, { RETIE_EVIDENCE_MAX_CHARS: "1500" });
  assert.equal(small.code, 0, small.stderr);
  assert.ok(small.summary.length <= 1600, String(small.summary.length));
  assert.match(small.summary, /left out to stay within 1500 characters/);
  const all = await evidence({ ledger: sample.ledgerPath, session: "all" });
  assert.equal(all.code, 0, all.stderr);
  assert.equal((all.summary.match(/### retie session:/g) ?? []).length, 1);
});

Deno.test("action: a tampered ledger fails the step, the summary says why, nothing is replayed", async () => {
  const copy = join(Deno.makeTempDirSync(), "ledger.db");
  Deno.copyFileSync(sample.ledgerPath, copy);
  Deno.copyFileSync(`${sample.ledgerPath}.head.json`, `${copy}.head.json`);
  const db = new DatabaseSync(copy);
  for (
    const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as {
      name: string;
    }[]
  ) {
    db.exec(`DROP TRIGGER "${t.name}"`);
  }
  db.exec(
    "UPDATE entries SET payload = replace(payload, 'calc.py', 'calx.py') WHERE kind = 'intent'",
  );
  db.close();
  const r = await evidence({ ledger: copy });
  assert.equal(r.code, 1);
  assert.match(r.summary, /### retie evidence: ledger INVALID/);
  assert.match(r.summary, /"firstBad"/);
  assert.doesNotMatch(r.summary, /retie session:/);
  assert.match(r.output, /^verified=false$/m);
  const missing = await evidence({ ledger: join(home, "nope.db") });
  assert.equal(missing.code, 2);
  assert.match(missing.summary, /no ledger/);
});
