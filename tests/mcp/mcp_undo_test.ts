/**
 * An MCP tool classified reversible names its inverse call: the intent records it before the call
 * runs, and undo makes that call through the guard (gated and recorded like any call). Outside a
 * session (`retie undo`), nothing can make the call, and undo says so instead of claiming success.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startSession } from "../../src/agent/session.ts";
import { parseMcpServers, startMcpServers } from "../../src/mcp/mod.ts";
import { checkSandbox } from "../../src/sandbox/check.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { undoAction } from "../../src/plane/undo.ts";
import { ensureServers, writeProbeServer } from "./servers.ts";

const sandbox = await checkSandbox();

Deno.test({
  name: "mcp: a reversible tool's inverse call is recorded before it runs and made on undo",
  ignore: !sandbox.available,
  async fn() {
    const dir = await ensureServers();
    const probe = writeProbeServer(dir);
    const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-mcp-undo-" }));
    Deno.mkdirSync(join(ws, ".retie"));
    Deno.writeTextFileSync(
      join(ws, ".retie", "policy.json"),
      JSON.stringify({
        name: "notes",
        rules: [{
          id: "notes-put",
          match: { tools: ["mcp__probe__note_put"] },
          classify: "reversible",
          inverse: { tool: "mcp__probe__note_delete", args: { name: "$args.name" } },
          decision: "allow",
          justification: "a stored note is undone by deleting it",
        }, {
          id: "notes-rest",
          match: { tools: ["mcp__probe__note_get", "mcp__probe__note_delete"] },
          classify: "none",
          decision: "allow",
          justification: "reading and deleting a note the agent stored",
        }],
      }),
    );
    const host = await startMcpServers(
      parseMcpServers({ probe: { command: "node", args: [probe], read: [dir] } }, "test", []),
      { workspace: ws, network: false, readOnly: [], hidden: [], confined: true },
    );
    const tmp = Deno.makeTempDirSync();
    const provider = createScriptedProvider([
      { toolCalls: [{ name: "mcp__probe__note_put", arguments: { name: "n1", text: "hello" } }] },
      { text: "stored" },
    ]);
    const s = await startSession({
      workspace: ws,
      ledgerPath: join(tmp, "ledger.db"),
      objective: "store a note",
      provider,
      providerName: "scripted",
      mode: "default",
      headless: true,
      yes: false,
      sandbox: { available: true, network: false },
      approve: () => Promise.resolve(false),
      configDir: join(tmp, "cfg"),
      mcp: host,
    });
    try {
      await s.turn("store a note");
      const intent = s.ledger.entries({ session: s.id, kinds: ["intent"] })[0];
      assert.deepEqual(intent.payload.undo, {
        kind: "call",
        tool: "mcp__probe__note_delete",
        args: { name: "n1" },
      });
      const conn = host.connections[0];
      assert.equal((await conn.call("note_get", { name: "n1" })).text, "hello");
      // Another process has no server to call: skipped, with the reason, never "undone".
      const outside = await undoAction(intent.actionId!, {
        ledger: s.ledger,
        sink: s.writer,
        blobs: s.blobs,
        snapshots: null,
      });
      assert.equal(outside.status, "skipped");
      assert.match(outside.reason, /only a session with that MCP server/);
      const report = await s.undo(intent.actionId!);
      assert.equal(report.status, "undone", report.reason);
      assert.equal((await conn.call("note_get", { name: "n1" })).text, "no note n1");
      // The inverse ran through the guard: it is an action of its own.
      const tools = s.ledger.entries({ session: s.id, kinds: ["intent"] }).map((e) =>
        e.payload.tool
      );
      assert.deepEqual(tools, ["mcp__probe__note_put", "mcp__probe__note_delete"]);
    } finally {
      s.close();
      await host.close();
    }
  },
});
