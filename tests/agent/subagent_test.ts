/**
 * Sub-agents end to end through `retie run --headless`: agent types from the user's config, the
 * `task` tool, a sub-delegation that only narrows (a carved-out tool is neither offered nor
 * allowed when named), its own ledger session linked to the caller, `ask` denied or answered by
 * the lead, and `undo --all` of the caller's session reaching the sub-agent's actions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type EmulatedCall, startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";

interface Row {
  session: string;
  kind: string;
  payload: Record<string, unknown>;
}

function rows(ledger: string): Row[] {
  const db = new DatabaseSync(ledger, { readOnly: true });
  try {
    return (db.prepare("SELECT session, kind, payload FROM entries ORDER BY seq").all() as {
      session: string;
      kind: string;
      payload: string;
    }[]).map((r) => ({ session: r.session, kind: r.kind, payload: JSON.parse(r.payload) }));
  } finally {
    db.close();
  }
}

const call = (name: string, args: Record<string, unknown>): EmulatedCall => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});

async function run(agents: Record<string, unknown>, script: EmulatedCall[], extra: string[] = []) {
  const iso = isolatedEnv();
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-sub-ws-" }));
  Deno.writeTextFileSync(join(ws, "calc.py"), "def add(a, b):\n    return a - b\n");
  Deno.mkdirSync(join(iso.env.XDG_CONFIG_HOME, "retie"), { recursive: true });
  Deno.writeTextFileSync(
    join(iso.env.XDG_CONFIG_HOME, "retie", "config.json"),
    JSON.stringify({ agents }),
  );
  const ledger = join(iso.dir, "ledger.db");
  const emu = startOllamaEmulator({ script });
  try {
    const r = await runRetie([
      "--ledger",
      ledger,
      "run",
      ws,
      "--headless",
      "-p",
      "review calc.py",
      ...emulatorFlags(emu.url),
      ...extra,
    ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" } });
    // Chat calls only (a context-window lookup may come first).
    const requests = emu.requests.filter((q) => q.path.endsWith("/chat/completions"));
    return { r, ws, ledger, env: iso.env, requests };
  } finally {
    await emu.close();
  }
}

type Req = {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: string }[];
};
const body = (x: { body: unknown }) => x.body as Req;
const toolNames = (x: { body: unknown }) => (body(x).tools ?? []).map((t) => t.function.name);

Deno.test("task: a sub-agent runs on a carved delegation, in its own linked session", async () => {
  const { r, ledger, env, requests } = await run(
    { reviewer: { description: "reads code and reports", tools: ["read"] } },
    [
      call("task", { agent: "reviewer", prompt: "Read calc.py and report what add does." }),
      call("write", { path: "calc.py", content: "hijacked\n" }),
      call("read", { path: "calc.py" }),
      { text: "report: add subtracts" },
      { text: "done" },
    ],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.ok(toolNames(requests[0]).includes("task"));
  // The sub-agent is offered only what its type carves out: read, never write or task.
  assert.deepEqual(toolNames(requests[1]), ["read"]);
  const subResults = body(requests[3]).messages.filter((m) => m.role === "tool");
  assert.match(subResults[0].content, /no tool named "write"/);
  assert.match(subResults[1].content, /return a - b/);
  // The caller gets the sub-agent's final answer as the task result.
  const parentResults = body(requests[4]).messages.filter((m) => m.role === "tool");
  assert.match(parentResults[0].content, /report: add subtracts/);

  const all = rows(ledger);
  const geneses = all.filter((e) => e.kind === "genesis");
  assert.equal(geneses.length, 2);
  const [parent, child] = geneses;
  assert.equal(child.payload.parentSession, parent.session);
  assert.equal(child.payload.agentType, "reviewer");
  assert.deepEqual((child.payload.delegation as { tools: string[] }).tools, ["read"]);
  const childRefusal = all.find((e) => e.session === child.session && e.kind === "refusal");
  assert.equal(childRefusal?.payload.tool, "write");
  const outcome = all.find((e) => e.session === parent.session && e.kind === "outcome");
  assert.equal((outcome?.payload.detail as Record<string, unknown>)?.subSession, child.session);
  const v = await runRetie(["--ledger", ledger, "verify"], { env });
  assert.equal(v.code, 0, v.stdout + v.stderr);
  // The replay of the caller (the default: the last session that is not a sub-agent's) shows the
  // sub-agent's session nested under it, in every format.
  const text = await runRetie(["--ledger", ledger, "replay"], { env });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^review calc\.py/m);
  assert.match(text.stdout, new RegExp(`── sub-agent reviewer · ${child.session} ──`));
  const json = await runRetie(["--ledger", ledger, "replay", "--json"], { env });
  const model = JSON.parse(json.stdout);
  assert.equal(model.session, parent.session);
  assert.equal(model.subagents[0].agentType, "reviewer");
  assert.equal(model.subagents[0].parentSession, parent.session);
  const md = await runRetie(["--ledger", ledger, "replay", "--markdown"], { env });
  assert.match(md.stdout, new RegExp(`<details><summary>sub-agent reviewer · ${child.session}`));
  const html = await runRetie(["--ledger", ledger, "replay", "--html"], { env });
  assert.match(html.stdout, new RegExp(`<section class="subagent" id="sub-${child.session}">`));
});

Deno.test("task: an unknown agent type is denied and nothing runs", async () => {
  const { r, requests, ledger } = await run(
    { reviewer: { description: "reads code", tools: ["read"] } },
    [call("task", { agent: "ghost", prompt: "anything" }), { text: "done" }],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(requests.length, 2);
  const res = body(requests[1]).messages.filter((m) => m.role === "tool");
  assert.match(res[0].content, /refused/);
  assert.equal(rows(ledger).filter((e) => e.kind === "genesis").length, 1);
});

Deno.test("task: ask inside a sub-agent is denied, or answered by the lead when its type says so", async () => {
  const secretWrite = call("write", {
    path: "config.py",
    content: 'AWS_SECRET = "AKIAQYLPMN5HHHFPZAM2"\naws_secret_access_key = ' +
      '"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYq7"\n',
  });
  const denied = await run(
    { writer: { description: "writes files", tools: ["write"] } },
    [call("task", { agent: "writer", prompt: "write config" }), secretWrite, { text: "gave up" }, {
      text: "done",
    }],
  );
  assert.equal(denied.r.code, 0, denied.r.stderr);
  assert.throws(() => Deno.statSync(join(denied.ws, "config.py")));

  const lead = await run(
    { writer: { description: "writes files", tools: ["write"], ask: "lead" } },
    [
      call("task", { agent: "writer", prompt: "write config" }),
      secretWrite,
      { text: "yes" },
      { text: "written" },
      { text: "done" },
    ],
  );
  assert.equal(lead.r.code, 0, lead.r.stderr);
  const q = body(lead.requests[2]).messages.find((m) => m.role === "user")!.content;
  assert.match(q, /Your sub-agent "writer" asks to run: (write|create) config\.py/);
  assert.ok(Deno.statSync(join(lead.ws, "config.py")).isFile);
  const ev = rows(lead.ledger).find((e) => e.payload.type === "lead-approval");
  assert.equal(ev?.payload.answer, "yes");
});

Deno.test("task: undo --all of the caller's session undoes the sub-agent's actions", async () => {
  const { r, ws, ledger, env } = await run(
    { fixer: { description: "fixes code", tools: ["read", "edit", "write"] } },
    [
      call("task", { agent: "fixer", prompt: "fix add" }),
      call("write", { path: "calc.py", content: "def add(a, b):\n    return a + b\n" }),
      { text: "fixed" },
      { text: "done" },
    ],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(Deno.readTextFileSync(join(ws, "calc.py")), /a \+ b/);
  const parent = rows(ledger).find((e) => e.kind === "genesis")!.session;
  const u = await runRetie(["--ledger", ledger, "undo", "--all", parent], { env });
  assert.equal(u.code, 0, u.stdout + u.stderr);
  assert.equal(Deno.readTextFileSync(join(ws, "calc.py")), "def add(a, b):\n    return a - b\n");
});
