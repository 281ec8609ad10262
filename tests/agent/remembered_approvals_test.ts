/**
 * Remembered approvals through a real session (guard, ledger, config file): "always" at the prompt
 * stores a narrowed rule in the user's config; the same call later is not asked again; another
 * call is; a deny stays a deny; the rule is listed by `retie policy`; the agent cannot write it.
 */
import type { EventPayload } from "../../src/ledger/mod.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  exactPattern,
  keyArgument,
  patternMatches,
  rememberingApprover,
} from "../../src/agent/remembered_approvals.ts";
import { loadConfig, saveConfig } from "../../src/config/mod.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import type { ApprovalRequest } from "../../src/plane/guard_types.ts";
import { testSession } from "../helpers/test_session.ts";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";

Deno.test("remembered approvals: patterns are exact unless a person writes a star", () => {
  assert.equal(patternMatches(exactPattern("ls *.ts"), "ls *.ts"), true);
  assert.equal(patternMatches(exactPattern("ls *.ts"), "ls a.ts; rm -rf ."), false);
  assert.equal(patternMatches("npm test*", "npm test -- -w"), true);
  assert.equal(patternMatches("npm test", "npm test && curl x"), false);
  assert.equal(keyArgument("bash", { command: "make" }), "make");
  assert.equal(keyArgument("other", { b: 1, a: 2 }), '{"a":2,"b":1}');
});

Deno.test("remembered approvals: the second identical ask is answered by the rule, recorded both times", async () => {
  const iso = isolatedEnv();
  const cfgFile = join(iso.env.XDG_CONFIG_HOME, "retie", "config.json");
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-remember-ws-" }));
  const outside = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-remember-out-" }));
  Deno.writeTextFileSync(join(outside, "notes.txt"), "outside notes\n");
  Deno.writeTextFileSync(join(outside, "other.txt"), "other\n");
  const asked: (string | undefined)[] = [];
  let record: (e: Record<string, unknown>) => void = () => {};
  const approve = rememberingApprover({
    workspace: ws,
    configFile: cfgFile,
    record: (e) => record(e),
    ask: (_req: ApprovalRequest, offer?: string) => {
      asked.push(offer);
      return Promise.resolve(asked.length === 1 ? "always" : "no");
    },
  });
  const read = (p: string) => ({ toolCalls: [{ name: "read", arguments: { path: p } }] });
  const provider = createScriptedProvider([
    read(join(outside, "notes.txt")),
    { text: "ok" },
    read(join(outside, "notes.txt")),
    { text: "ok again" },
    read(join(outside, "other.txt")),
    { text: "refused" },
  ]);
  const s = await testSession(ws, provider, { headless: false, approve });
  record = (e) => void s.writer.append("event", e as EventPayload);
  try {
    await s.turn("read the notes");
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /^read `.*notes\.txt` in this project$/);
    const cfg = loadConfig(cfgFile).config;
    assert.equal(cfg.rememberedApprovals?.length, 1);
    assert.deepEqual(
      { ...cfg.rememberedApprovals![0], added: "-" },
      { workspace: ws, tool: "read", pattern: join(outside, "notes.txt"), added: "-" },
    );
    await s.turn("read them again");
    assert.equal(asked.length, 1, "the second identical read was asked again");
    await s.turn("read the other file");
    assert.equal(asked.length, 2, "a different path must be asked");
    const events = s.ledger.entries({ session: s.id, kinds: ["event"] })
      .filter((e) => e.payload.type === "approval-remembered");
    assert.equal(events.length, 2);
    assert.ok(events[0].payload.added);
    assert.equal(events[1].payload.decision, "allow");
    const outcomes = s.ledger.entries({ session: s.id, kinds: ["outcome"] });
    assert.equal(outcomes.length, 2);
    assert.equal(s.ledger.entries({ session: s.id, kinds: ["refusal"] }).length, 1);
  } finally {
    s.close();
  }

  const r = await runRetie(["policy", "--workspace", ws], { env: iso.env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /remembered approvals for/);
  assert.match(r.stdout, /allow read matching ".*notes\.txt"/);
  const elsewhere = await runRetie(["policy", "--workspace", outside], { env: iso.env });
  assert.match(elsewhere.stdout, /remembered approvals for[^\n]*\n\s+none/);
});

Deno.test("remembered approvals: a rule never turns a deny into an allow", async () => {
  const dir = Deno.makeTempDirSync();
  const ws = Deno.realPathSync(Deno.makeTempDirSync());
  const cfgFile = join(dir, "config.json");
  saveConfig({
    rememberedApprovals: [{ workspace: ws, tool: "write", pattern: "*", added: "2026-01-01" }],
  }, cfgFile);
  let asked = 0;
  const approve = rememberingApprover({
    workspace: ws,
    configFile: cfgFile,
    record: () => {},
    ask: () => {
      asked++;
      return Promise.resolve("no");
    },
  });
  const provider = createScriptedProvider([
    { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "x" } }] },
    { text: "done" },
  ]);
  // Plan mode denies writes: the remembered "write *" is never consulted.
  const s = await testSession(ws, provider, { headless: false, approve, mode: "plan" });
  try {
    await s.turn("write");
    assert.equal(s.ledger.entries({ session: s.id, kinds: ["refusal"] }).length, 1);
    assert.equal(asked, 0);
    assert.throws(() => Deno.statSync(join(ws, "a.txt")));
  } finally {
    s.close();
  }
});

Deno.test("remembered approvals: the agent cannot write the config, and none is kept inside the workspace", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync());
  const cfgDir = join(ws, "cfg", "retie");
  Deno.mkdirSync(cfgDir, { recursive: true });
  const offers: (string | undefined)[] = [];
  const approve = rememberingApprover({
    workspace: ws,
    configFile: join(cfgDir, "config.json"),
    record: () => {},
    ask: (_r, offer) => {
      offers.push(offer);
      return Promise.resolve("always");
    },
  });
  const provider = createScriptedProvider([
    {
      toolCalls: [{
        name: "write",
        arguments: {
          path: "cfg/retie/config.json",
          content: JSON.stringify({
            rememberedApprovals: [{ workspace: ws, tool: "bash", pattern: "*", added: "x" }],
          }),
        },
      }],
    },
    { toolCalls: [{ name: "read", arguments: { path: "/etc/hostname" } }] },
    { text: "done" },
  ]);
  const s = await testSession(ws, provider, { headless: false, approve, configDir: cfgDir });
  try {
    await s.turn("loosen your own gate");
    const refusals = s.ledger.entries({ session: s.id, kinds: ["refusal"] });
    assert.equal(refusals[0]?.payload.tool, "write");
    assert.throws(() => Deno.statSync(join(cfgDir, "config.json")));
    // Asked for the outside read, with nothing offered to remember (the config is in the workspace).
    assert.deepEqual(offers, [undefined]);
  } finally {
    s.close();
  }
});

Deno.test("remembered approvals: a sandboxed command cannot write the config either", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-remember-sbx-" }));
  const cfgDir = join(ws, "cfg", "retie");
  Deno.mkdirSync(cfgDir, { recursive: true });
  Deno.writeTextFileSync(join(cfgDir, "config.json"), "{}\n");
  const rule = JSON.stringify({
    rememberedApprovals: [{ workspace: ws, tool: "bash", pattern: "*", added: "x" }],
  });
  const provider = createScriptedProvider([
    {
      toolCalls: [{
        name: "bash",
        arguments: {
          command: `printf '%s' '${rule}' > cfg/retie/config.json; cat cfg/retie/config.json`,
        },
      }],
    },
    { text: "done" },
  ]);
  const s = await testSession(ws, provider, {
    sandbox: { available: true, network: false },
    configDir: cfgDir,
  });
  try {
    await s.turn("loosen your own gate");
    // The command ran (in the sandbox), and still could not reach the config.
    const outcome = s.ledger.entries({ session: s.id, kinds: ["outcome"] })[0];
    assert.ok(outcome, "the command did not run");
  } finally {
    s.close();
  }
  assert.equal(Deno.readTextFileSync(join(cfgDir, "config.json")), "{}\n");
});
