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

async function demo(args: string[], tmp: string) {
  const iso = isolatedEnv();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...retieFlags(false),
      "--allow-run=/usr/bin/bwrap,deno",
      join(ROOT, "demo.ts"),
      ...args,
    ],
    env: {
      ...iso.env,
      TMPDIR: tmp,
      PATH: Deno.env.get("PATH") ?? "",
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr), env: iso.env };
}

Deno.test("the demo removes what it created, and says how to keep the ledger", async () => {
  const tmp = Deno.makeTempDirSync({ prefix: "retie-demo-tmp-" });
  const r = await demo([], tmp);
  assert.equal(r.code, 0, r.text);
  assert.deepEqual([...Deno.readDirSync(tmp)].map((e) => e.name), []);
  assert.match(r.text, /removed its workspace, ledger and key/);
  assert.match(r.text, new RegExp(`deno run -A ${join(ROOT, "main.ts")} demo --ledger demo\\.db`));
});

Deno.test("with --ledger the demo keeps the ledger, and its hints work as printed", async () => {
  const tmp = Deno.makeTempDirSync({ prefix: "retie-demo-tmp-" });
  const ledger = join(tmp, "kept.db");
  const r = await demo(["--ledger", ledger], tmp);
  assert.equal(r.code, 0, r.text);
  // The ledger (with its stores) and the workspace it refers to stay; the state with the key goes.
  const left = [...Deno.readDirSync(tmp)].map((e) => e.name).sort();
  assert.ok(left.includes("kept.db"));
  assert.ok(left.some((n) => n.startsWith("retie-demo-")), left.join(" "));
  assert.ok(!left.some((n) => n.startsWith("retie-demo-state-")), left.join(" "));
  const hints = r.text.split("\n").filter((l) => l.startsWith("  deno run -A ")).map((l) =>
    l.trim()
  );
  assert.equal(hints.length, 2, r.text);
  for (const hint of hints) {
    const words = hint.split(" ");
    assert.equal(words[0], "deno");
    const out = await new Deno.Command(Deno.execPath(), {
      args: words.slice(1),
      cwd: tmp,
      env: { ...r.env, PATH: Deno.env.get("PATH") ?? "", DENO_DIR: denoDir(), NO_COLOR: "1" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, `${hint}: ${new TextDecoder().decode(out.stderr)}`);
  }
  assert.ok(Deno.statSync(join(tmp, "session.html")).isFile);
});
