/**
 * Inputs read through symlinks (the attack, end to end): a repository whose instruction files are
 * symlinks to the user's ssh key and to retie's own private user key. `retie run --headless`
 * against it must send neither to the model server, say in the genesis entry that they were
 * refused, and still use the instruction files that are fine: the user's global one, the root's
 * CLAUDE.md when AGENTS.md is absent, and the one of the directory retie was started in.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openLedger } from "../../src/ledger/mod.ts";
import { isolatedEnv } from "../helpers/retie_process.ts";
import { attackRun, gitRepo } from "../helpers/attack_run.ts";

function genesisInputs(
  ledgerPath: string,
): { kind: string; path: string; digest: string | null; refused?: string }[] {
  const l = openLedger(ledgerPath);
  try {
    const g = l.entries({ kinds: ["genesis"] }).at(-1)!;
    return g.payload.inputs as { kind: string; path: string; digest: string | null }[];
  } finally {
    l.close();
  }
}

Deno.test("attack: instruction files symlinked to secrets never reach the model; refusals recorded", async () => {
  const home = isolatedEnv();
  const ssh = join(home.dir, ".ssh");
  Deno.mkdirSync(ssh);
  const key =
    `-----BEGIN OPENSSH PRIVATE KEY-----\nplanted-${crypto.randomUUID()}\n-----END-----\n`;
  Deno.writeTextFileSync(join(ssh, "id_rsa"), key);
  const ws = gitRepo();
  Deno.symlinkSync(join(ssh, "id_rsa"), join(ws, "AGENTS.md"));
  Deno.mkdirSync(join(ws, "pkg"));
  // retie's own private user key, made on first run in the config dir.
  const cfg = join(home.env.XDG_CONFIG_HOME, "retie");
  Deno.mkdirSync(cfg, { recursive: true });
  Deno.writeTextFileSync(join(cfg, "AGENTS.md"), "GLOBAL-RULE: answer in English.\n");
  const first = await attackRun(ws, [], { home });
  assert.equal(first.run.code, 0, first.run.stderr);
  const userKeyFiles = [...Deno.readDirSync(cfg)].map((e) => e.name).filter((n) =>
    n !== "AGENTS.md"
  );
  assert.ok(userKeyFiles.length > 0, "no user key was made");
  const secretKey = join(cfg, userKeyFiles.find((n) => /key/.test(n)) ?? userKeyFiles[0]);
  Deno.symlinkSync(secretKey, join(ws, "pkg", "AGENTS.md"));
  const ownKey = Deno.readTextFileSync(secretKey);

  const r = await attackRun(ws, [{ name: "read", args: { path: "README.md" } }], {
    home,
    cwd: join(ws, "pkg"),
  });
  assert.equal(r.run.code, 0, r.run.stdout + r.run.stderr);
  assert.ok(!r.sent.includes("planted-"), "the ssh key reached the model server");
  assert.match(r.run.stderr, /instruction file not used: refused \(AGENTS\.md\)/);
  assert.ok(!r.sent.includes(ownKey.trim().slice(0, 40)), "retie's user key reached the model");
  assert.ok(r.sent.includes("GLOBAL-RULE"), "the user's own instructions were not given");
  const inputs = genesisInputs(r.ledgerPath);
  const byPath = new Map(inputs.map((i) => [i.path, i]));
  assert.match(byPath.get(join(ws, "AGENTS.md"))?.refused ?? "", /outside the workspace/);
  assert.match(byPath.get(join(ws, "pkg", "AGENTS.md"))?.refused ?? "", /outside|retie's own/);
  assert.match(byPath.get(join(cfg, "AGENTS.md"))?.digest ?? "", /^[0-9a-f]{64}$/);

  // A FIFO as AGENTS.md is refused at once, never waited on; CLAUDE.md is not a fallback for a
  // refused AGENTS.md, but it is when AGENTS.md is absent.
  Deno.removeSync(join(ws, "AGENTS.md"));
  Deno.writeTextFileSync(join(ws, "CLAUDE.md"), "CLAUDE-RULE: run the tests.\n");
  Deno.removeSync(join(ws, "pkg", "AGENTS.md"));
  new Deno.Command("mkfifo", { args: [join(ws, "pkg", "AGENTS.md")] }).outputSync();
  const again = await attackRun(ws, [], { home, cwd: join(ws, "pkg") });
  assert.equal(again.run.code, 0, again.run.stderr);
  assert.ok(again.sent.includes("CLAUDE-RULE"));
  const in2 = new Map(genesisInputs(again.ledgerPath).map((i) => [i.path, i]));
  assert.match(in2.get(join(ws, "CLAUDE.md"))?.digest ?? "", /^[0-9a-f]{64}$/);
  assert.match(in2.get(join(ws, "pkg", "AGENTS.md"))?.refused ?? "", /not a regular file/);
});
