/**
 * `retie inspect` as its own process, under the real permission flags: --before/--after, --jsonl
 * (order, bad lines), and --git against a real repository with git run inside the real sandbox.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";

const VIEW = '@app.route("/pay")\n@login_required\ndef pay():\n    return charge()\n';

function tmp(): string {
  return Deno.makeTempDirSync({ prefix: "retie-inspect-" });
}

Deno.test("inspect --before/--after: high finding exits 1 and shows the counts", async () => {
  const d = tmp();
  Deno.writeTextFileSync(join(d, "old.py"), VIEW);
  Deno.writeTextFileSync(join(d, "new.py"), VIEW.replace("@login_required\n", ""));
  const { env } = isolatedEnv();
  const r = await runRetie(
    ["inspect", "--before", join(d, "old.py"), "--after", join(d, "new.py")],
    { env },
  );
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /⚑ high: auth-check-removed \(1 → 0\)/);
});

Deno.test("inspect --before/--after: benign edit exits 0; --json gives the result", async () => {
  const d = tmp();
  Deno.writeTextFileSync(join(d, "old.py"), VIEW);
  Deno.writeTextFileSync(join(d, "new.py"), VIEW.replace("charge()", "charge(idempotent=True)"));
  const { env } = isolatedEnv();
  const r = await runRetie([
    "inspect",
    "--json",
    "--before",
    join(d, "old.py"),
    "--after",
    join(d, "new.py"),
  ], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { findings: [], risk: 0, maxSeverity: null });
});

Deno.test("inspect: --path decides the language; a missing file is bad input (exit 2)", async () => {
  const d = tmp();
  Deno.writeTextFileSync(join(d, "b.txt"), "requests.get(u, verify=False)\n");
  const { env } = isolatedEnv();
  const asPy = await runRetie(["inspect", "--after", join(d, "b.txt"), "--path", "client.py"], {
    env,
  });
  assert.equal(asPy.code, 1);
  assert.match(asPy.stdout, /tls-verify-disabled \(0 → 1\)/);
  const missing = await runRetie([
    "inspect",
    "--before",
    join(d, "nope.py"),
    "--after",
    join(d, "b.txt"),
  ], { env });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--before .*nope\.py/);
  const none = await runRetie(["inspect"], { env });
  assert.equal(none.code, 2);
});

Deno.test("inspect --jsonl: one result per record, in order; bad lines become error records", async () => {
  const lines = [
    JSON.stringify({
      id: "a",
      path: "c.py",
      before: "x = 1\n",
      after: "requests.get(u, verify=False)\n",
    }),
    "{not json",
    JSON.stringify({ id: 7, path: "ok.js", before: null, after: "console.log(1);\n" }),
    JSON.stringify({ id: "bad", path: 3, before: "", after: "" }),
    "",
    JSON.stringify({
      id: "z",
      path: "v.py",
      before: VIEW,
      after: VIEW.replace("@login_required\n", ""),
    }),
  ];
  const { env } = isolatedEnv();
  const r = await runRetie(["inspect", "--jsonl"], { env, stdin: lines.join("\n") + "\n" });
  assert.equal(r.code, 1, r.stderr);
  const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(out.length, 5);
  assert.deepEqual(out[0], {
    id: "a",
    findings: [{ rule: "tls-verify-disabled", severity: "high", before: 0, after: 1 }],
  });
  assert.equal(out[1].id, null);
  assert.equal(out[1].line, 2);
  assert.match(out[1].error, /line 2: invalid JSON/);
  assert.deepEqual(out[2], { id: 7, findings: [] });
  assert.match(out[3].error, /line 4: "path" must be a string/);
  assert.deepEqual(out[4], {
    id: "z",
    findings: [{ rule: "auth-check-removed", severity: "high", before: 1, after: 0 }],
  });
});

Deno.test("inspect --jsonl: many records (shared among workers where there are cores) keep their order", async () => {
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    if (i % 17 === 5) lines.push("{not json");
    else if (i % 2 === 0) {
      lines.push(JSON.stringify({
        id: i,
        path: `v${i}.py`,
        before: VIEW,
        after: VIEW.replace("@login_required\n", ""),
      }));
    } else {
      lines.push(JSON.stringify({ id: i, path: `m${i}.py`, before: "x = 1\n", after: "x = 2\n" }));
    }
  }
  const { env } = isolatedEnv();
  const r = await runRetie(["inspect", "--jsonl"], { env, stdin: lines.join("\n") + "\n" });
  assert.equal(r.code, 1, r.stderr);
  const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(out.length, 120);
  out.forEach((o, i) => {
    if (i % 17 === 5) return assert.match(o.error, new RegExp(`line ${i + 1}: invalid JSON`));
    assert.equal(o.id, i);
    assert.equal(o.findings.length, i % 2 === 0 ? 1 : 0, `record ${i}`);
  });
});

Deno.test("inspect --jsonl: only bad lines and no high finding exits 2", async () => {
  const { env } = isolatedEnv();
  const r = await runRetie(["inspect", "--jsonl"], { env, stdin: "[]\n" });
  assert.equal(r.code, 2);
  assert.match(r.stdout, /not an object/);
});

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.org", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

Deno.test("inspect --git: working tree against HEAD and against an older revision", async () => {
  const repo = tmp();
  await git(repo, "init", "-q", ".");
  Deno.mkdirSync(join(repo, "app"));
  Deno.writeTextFileSync(join(repo, "app", "views.py"), VIEW);
  Deno.writeTextFileSync(join(repo, "it's.js"), "fetch(u);\n");
  await git(repo, "add", ".");
  await git(repo, "commit", "-qm", "one");
  const { env } = isolatedEnv();
  // Clean tree: nothing to report.
  const clean = await runRetie(["inspect", "--git"], { env, cwd: repo });
  assert.equal(clean.code, 0, clean.stderr);
  assert.match(clean.stdout, /no findings/);
  // Tracked edit, a quoted filename, and an untracked new file.
  Deno.writeTextFileSync(join(repo, "app", "views.py"), VIEW.replace("@login_required\n", ""));
  Deno.writeTextFileSync(
    join(repo, "it's.js"),
    "fetch(u, { agent: new Agent({ rejectUnauthorized: false }) });\n",
  );
  Deno.writeTextFileSync(join(repo, "new.py"), "import os\n");
  const r = await runRetie(["inspect", "--git"], { env, cwd: join(repo, "app") });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /app\/views\.py\n\s+⚑ high: auth-check-removed \(1 → 0\)/);
  assert.match(r.stdout, /it's\.js\n\s+⚑ high: tls-verify-disabled \(0 → 1\)/);
  // Commit the edit: against HEAD the tree is clean, against HEAD~1 the removal shows again.
  await git(repo, "add", ".");
  await git(repo, "commit", "-qm", "two");
  const head = await runRetie(["inspect", "--git", "HEAD"], { env, cwd: repo });
  assert.equal(head.code, 0, head.stderr);
  const prev = await runRetie(["inspect", "--json", "--git", "HEAD~1"], { env, cwd: repo });
  assert.equal(prev.code, 1, prev.stderr);
  const rules = JSON.parse(prev.stdout).findings.map((f: { rule: string }) => f.rule).sort();
  assert.deepEqual(rules, ["auth-check-removed", "tls-verify-disabled"]);
});

Deno.test("inspect --git: a bad revision and a non-repository are bad input", async () => {
  const d = tmp();
  const { env } = isolatedEnv();
  const notRepo = await runRetie(["inspect", "--git"], { env, cwd: d });
  assert.equal(notRepo.code, 2);
  assert.match(notRepo.stderr, /not inside a git repository/);
  const bad = await runRetie(["inspect", "--git", "--upload-pack=x"], { env, cwd: d });
  assert.equal(bad.code, 2);
  await git(d, "init", "-q", ".");
  const unknown = await runRetie(["inspect", "--git", "no-such-branch"], { env, cwd: d });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /git failed in the sandbox/);
});
