/**
 * MCP servers end to end: real servers from npm (and probe servers written with the official SDK)
 * started by `retie run --headless` in the sandbox, driven by a scripted model over the Ollama
 * wire format. Denied until a policy rule classifies a tool; allowed after; confined (no network,
 * no home, no retie state, workspace read-only unless granted); a broken server never ends the
 * session; every call is a ledger action.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { checkSandbox } from "../../src/sandbox/check.ts";
import { ensureServers, serverEntry, writeProbeServer } from "./servers.ts";

const sandbox = await checkSandbox();
const ignore = !sandbox.available;

interface Setup {
  ws: string;
  ledger: string;
  env: Record<string, string>;
  dir: string;
}

async function setup(
  servers: (dir: string, ws: string) => Record<string, unknown>,
  rules: unknown[] = [],
): Promise<Setup> {
  const dir = await ensureServers();
  const iso = isolatedEnv();
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-mcp-ws-" }));
  Deno.writeTextFileSync(join(ws, "notes.txt"), "the workspace file\n");
  if (rules.length) {
    Deno.mkdirSync(join(ws, ".retie"));
    Deno.writeTextFileSync(
      join(ws, ".retie", "policy.json"),
      JSON.stringify({ name: "mcp-test", rules }),
    );
  }
  Deno.mkdirSync(iso.env.XDG_CONFIG_HOME + "/retie", { recursive: true });
  Deno.writeTextFileSync(
    join(iso.env.XDG_CONFIG_HOME, "retie", "config.json"),
    JSON.stringify({ mcpServers: servers(dir, ws) }),
  );
  return { ws, ledger: join(iso.dir, "ledger.db"), env: iso.env, dir };
}

type Call = { name: string; arguments: Record<string, unknown> };

async function drive(s: Setup, calls: Call[], extra: string[] = []) {
  const emu = startOllamaEmulator({
    script: [
      ...calls.map((c) => ({
        toolCalls: [{ name: c.name, arguments: JSON.stringify(c.arguments) }],
      })),
      { text: "done" },
    ],
  });
  try {
    const r = await runRetie([
      "--ledger",
      s.ledger,
      "run",
      s.ws,
      "--headless",
      "-p",
      "use the MCP tools",
      ...emulatorFlags(emu.url),
      ...extra,
    ], { env: { ...s.env, OPENAI_API_KEY: "test-key" } });
    // What the model was told, call by call (the tool results it received).
    const chats = emu.requests.filter((q) => q.path.endsWith("/chat/completions"));
    const last = chats.at(-1)?.body as { messages?: { role: string; content: string }[] };
    const results = (last?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content);
    return { ...r, results, tools: (chats[0]?.body as { tools?: unknown[] })?.tools ?? [] };
  } finally {
    await emu.close();
  }
}

function entries(ledger: string): { kind: string; payload: Record<string, unknown> }[] {
  const db = new DatabaseSync(ledger, { readOnly: true });
  try {
    return (db.prepare("SELECT kind, payload FROM entries ORDER BY seq").all() as {
      kind: string;
      payload: string;
    }[]).map((r) => ({ kind: r.kind, payload: JSON.parse(r.payload) }));
  } finally {
    db.close();
  }
}

const fsServer = (dir: string, ws: string, extra: Record<string, unknown> = {}) => ({
  fs: {
    command: "node",
    args: [serverEntry(dir, "server-filesystem"), ws, "/tmp"],
    read: [dir],
    ...extra,
  },
});

const readRule = {
  id: "fs-reads",
  match: { tools: ["mcp__fs__read_*", "mcp__fs__list_directory"] },
  classify: "none",
  decision: "allow",
  justification: "the filesystem server's read tools change nothing",
};

Deno.test({
  name:
    "mcp: a server's tools are offered as mcp__server__tool and denied until a rule classifies them",
  ignore,
  async fn() {
    const s = await setup((dir, ws) => fsServer(dir, ws));
    const r = await drive(s, [{
      name: "mcp__fs__read_text_file",
      arguments: { path: join(s.ws, "notes.txt") },
    }]);
    assert.equal(r.code, 0, r.stderr);
    const names = (r.tools as { function?: { name: string } }[]).map((t) => t.function?.name);
    assert.ok(names.includes("mcp__fs__read_text_file"), JSON.stringify(names));
    assert.match(r.results[0], /refused/);
    assert.match(r.results[0], /no policy rule classifies the MCP tool|no rule matches/);
    assert.doesNotMatch(r.results[0], /the workspace file/);
    const refusal = entries(s.ledger).find((e) => e.kind === "refusal");
    assert.equal(refusal?.payload.tool, "mcp__fs__read_text_file");
  },
});

Deno.test({
  name: "mcp: allowed after a classify rule; the result comes back fenced and is recorded",
  ignore,
  async fn() {
    const s = await setup((dir, ws) => fsServer(dir, ws), [readRule]);
    const r = await drive(s, [{
      name: "mcp__fs__read_text_file",
      arguments: { path: join(s.ws, "notes.txt") },
    }]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.results[0], /the workspace file/);
    assert.match(r.results[0], /<<<BEGIN [^ ]+ source="mcp__fs__read_text_file">>>/);
    const all = entries(s.ledger);
    const intent = all.find((e) => e.kind === "intent");
    assert.equal(intent?.payload.tool, "mcp__fs__read_text_file");
    const genesis = all.find((e) => e.kind === "genesis")!;
    assert.deepEqual((genesis.payload.mcp as { server: string }[])[0].server, "fs");
    const v = await runRetie(["--ledger", s.ledger, "verify"], { env: s.env });
    assert.equal(v.code, 0, v.stdout + v.stderr);
  },
});

Deno.test({
  name: "mcp: the filesystem server cannot write the workspace (no grant) nor the host's /tmp",
  ignore,
  async fn() {
    const s = await setup((dir, ws) => fsServer(dir, ws), [{
      id: "fs-writes",
      match: { tools: ["mcp__fs__write_file"] },
      classify: "irreversible",
      decision: "allow",
      justification: "the test lets the server try to write",
    }]);
    const outside = `/tmp/retie-mcp-escape-${crypto.randomUUID()}.txt`;
    const r = await drive(s, [
      { name: "mcp__fs__write_file", arguments: { path: join(s.ws, "new.txt"), content: "x" } },
      { name: "mcp__fs__write_file", arguments: { path: outside, content: "escaped" } },
    ], ["--yes"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.results[0], /EROFS|read-only/);
    assert.throws(() => Deno.statSync(join(s.ws, "new.txt")));
    // The server's own write "succeeds" into the sandbox's private tmpfs.
    assert.match(r.results[1], /Successfully wrote/);
    // The write lands in the sandbox's own tmpfs /tmp, never on the host.
    assert.throws(() => Deno.statSync(outside));
  },
});

Deno.test({
  name: "mcp: a server has no network, no home, no retie state, only the variables configured",
  ignore,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    let reached = 0;
    (async () => {
      for await (const conn of listener) {
        reached++;
        conn.close();
      }
    })();
    const s = await setup((dir) => {
      const probe = writeProbeServer(dir);
      return { probe: { command: "node", args: [probe], read: [dir], env: { PROBE_VAR: "yes" } } };
    }, [{
      id: "probe-all",
      match: { tools: ["mcp__probe__*"] },
      classify: "none",
      decision: "allow",
      justification: "the probe's tools only report what they can reach",
    }]);
    const port = (listener.addr as Deno.NetAddr).port;
    const secret = join(s.env.XDG_CONFIG_HOME, "retie", "config.json");
    const r = await drive(s, [
      { name: "mcp__probe__net", arguments: { url: `http://127.0.0.1:${port}/` } },
      { name: "mcp__probe__readpath", arguments: { path: secret } },
      { name: "mcp__probe__readpath", arguments: { path: "/root/.bashrc" } },
      { name: "mcp__probe__env", arguments: {} },
    ]);
    listener.close();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.results[0], /no network/);
    assert.equal(reached, 0);
    assert.match(r.results[1], /cannot read: ENOENT/);
    assert.match(r.results[2], /cannot read: ENOENT/);
    assert.match(r.results[3], /PROBE_VAR/);
    assert.doesNotMatch(r.results[3], /OPENAI_API_KEY|XDG_CONFIG_HOME/);
  },
});

Deno.test({
  name: "mcp: a server that crashes, hangs, sends garbage or never starts is an error, not the end",
  ignore,
  async fn() {
    const s = await setup((dir) => {
      const probe = writeProbeServer(dir);
      return {
        probe: { command: "node", args: [probe], read: [dir], callTimeoutMs: 1500 },
        broken: { command: "/usr/bin/false" },
      };
    }, [{
      id: "probe-all",
      match: { tools: ["mcp__probe__*"] },
      classify: "none",
      decision: "allow",
      justification: "the probe's tools only report what they can reach",
    }]);
    const r = await drive(s, [
      { name: "mcp__probe__garbage", arguments: {} },
      { name: "mcp__probe__hang", arguments: {} },
      { name: "mcp__probe__crash", arguments: {} },
      { name: "mcp__probe__env", arguments: {} },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /MCP server broken: did not start/);
    assert.match(r.results[0], /answered after garbage/);
    assert.match(r.results[1], /failed.*(timed out|Request timed out)/is);
    assert.match(r.results[2], /the server exited \(code 3\)/);
    assert.match(r.results[3], /failed|not running|Connection closed/i);
    const all = entries(s.ledger);
    assert.ok(all.some((e) => e.kind === "event" && e.payload.type === "mcp-server"));
    const outcomes = all.filter((e) => e.kind === "outcome");
    assert.equal(outcomes.length, 4);
  },
});

Deno.test({
  name: "mcp: reversible claimed without an inverse is refused; retie mcp list shows the rules",
  ignore,
  async fn() {
    const s = await setup((dir, ws) => fsServer(dir, ws, { write: true }), [readRule, {
      id: "fs-dir",
      match: { tools: ["mcp__fs__create_directory"] },
      classify: "reversible",
      decision: "allow",
      justification: "claims reversible but names no inverse",
    }]);
    const r = await drive(s, [{
      name: "mcp__fs__create_directory",
      arguments: { path: join(s.ws, "d") },
    }]);
    assert.match(r.results[0], /reversible claimed, no inverse/);
    assert.throws(() => Deno.statSync(join(s.ws, "d")));
    const l = await runRetie(["mcp", "list", "--workspace", s.ws], { env: s.env });
    assert.equal(l.code, 0, l.stderr);
    assert.match(l.stdout, /fs: stdio \(sandboxed\), granted: write the workspace/);
    assert.match(
      l.stdout,
      /mcp__fs__read_text_file\s+none \(rule fs-reads\)\s+server hints: readOnlyHint=true/,
    );
    assert.match(l.stdout, /mcp__fs__write_file\s+unknown → denied/);
    assert.match(l.stdout, /mcp__fs__create_directory\s+reversible \(rule fs-dir\)/);
  },
});

Deno.test({
  name: "mcp: a streamable-HTTP server is reached, announced as a network grant, and gated alike",
  ignore,
  async fn() {
    const dir = await ensureServers();
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    const server = new Deno.Command("node", {
      args: [serverEntry(dir, "server-everything"), "streamableHttp"],
      env: { PORT: String(port) },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    try {
      const reader = server.stderr.pipeThrough(new TextDecoderStream()).getReader();
      let said = "";
      while (!said.includes("listening")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`server-everything did not start: ${said}`);
        said += value;
      }
      reader.releaseLock();
      const s = await setup(() => ({
        ev: { type: "http", url: `http://127.0.0.1:${port}/mcp` },
      }), [{
        id: "ev-echo",
        match: { tools: ["mcp__ev__echo"] },
        classify: "none",
        decision: "allow",
        justification: "echo repeats its argument and changes nothing",
      }]);
      const r = await drive(s, [
        { name: "mcp__ev__echo", arguments: { message: "over http" } },
        { name: "mcp__ev__get-sum", arguments: { a: 1, b: 2 } },
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /MCP server ev is granted: network/);
      assert.match(r.results[0], /Echo: over http/);
      assert.match(r.results[1], /refused/);
    } finally {
      server.kill();
      await server.status;
      await server.stderr.cancel().catch(() => {});
    }
  },
});

Deno.test({
  name: "mcp: a server granted write cannot plant git configuration or hooks that run on the host",
  ignore,
  async fn() {
    const s = await setup((dir, ws) => fsServer(dir, ws, { write: true }), [{
      id: "fs-writes",
      match: { tools: ["mcp__fs__write_file"] },
      classify: "irreversible",
      decision: "allow",
      justification: "the test lets the server try to write",
    }]);
    const git = new Deno.Command("git", { args: ["init", "-q", s.ws] }).outputSync();
    assert.ok(git.success);
    const r = await drive(s, [
      {
        name: "mcp__fs__write_file",
        arguments: {
          path: join(s.ws, ".git", "config.worktree"),
          content: "[core]\n\tfsmonitor = touch /tmp/pwned\n",
        },
      },
      {
        name: "mcp__fs__write_file",
        arguments: {
          path: join(s.ws, ".git", "hooks", "pre-commit"),
          content: "#!/bin/sh\ntouch /tmp/pwned\n",
        },
      },
      { name: "mcp__fs__write_file", arguments: { path: join(s.ws, "ok.txt"), content: "fine" } },
    ], ["--yes"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.results[0], /removed git control files the server created or swapped/);
    assert.throws(() => Deno.statSync(join(s.ws, ".git", "config.worktree")));
    assert.match(r.results[1], /EROFS|read-only|denied/i);
    assert.throws(() => Deno.statSync(join(s.ws, ".git", "hooks", "pre-commit")));
    // The grant itself works: an ordinary file is written.
    assert.equal(Deno.readTextFileSync(join(s.ws, "ok.txt")), "fine");
  },
});
