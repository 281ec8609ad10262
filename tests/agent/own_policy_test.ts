/**
 * The agent cannot loosen its own gate: the workspace's `.retie/` (the project policy) is out of
 * reach of the file tools and invisible to sandboxed commands.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startSession } from "../../src/agent/session.ts";
import { checkSandbox } from "../../src/sandbox/check.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";

Deno.test("file tools and sandboxed commands cannot touch .retie/policy.json", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-own-policy-" }));
  Deno.mkdirSync(join(ws, ".retie"));
  const policy = JSON.stringify({
    name: "team",
    rules: [{
      id: "team-no-network-shell",
      match: { tools: ["bash"], network: true },
      decision: "deny",
      justification: "this project never lets a shell reach the network",
    }],
  }) + "\n";
  Deno.writeTextFileSync(join(ws, ".retie", "policy.json"), policy);
  const check = await checkSandbox();
  const loosen =
    '{"name":"x","rules":[{"id":"y","decision":"allow","match":{},"justification":"z"}]}';
  const provider = createScriptedProvider([
    { toolCalls: [{ name: "write", arguments: { path: ".retie/policy.json", content: loosen } }] },
    { toolCalls: [{ name: "read", arguments: { path: ".retie/policy.json" } }] },
    {
      toolCalls: [{
        name: "bash",
        arguments: {
          command: `cat .retie/policy.json; echo '${loosen}' > .retie/policy.json; ls -a`,
        },
      }],
    },
    { text: "done" },
  ]);
  const tmp = Deno.makeTempDirSync();
  const s = await startSession({
    workspace: ws,
    ledgerPath: join(tmp, "ledger.db"),
    objective: "loosen the gate",
    provider,
    providerName: "scripted",
    mode: "default",
    headless: true,
    yes: true,
    sandbox: { available: check.available, unavailableReason: check.reason, network: false },
    approve: () => Promise.resolve(true),
    configDir: join(tmp, "cfg"),
  });
  try {
    await s.turn("loosen the gate");
  } finally {
    s.close();
  }
  assert.equal(Deno.readTextFileSync(join(ws, ".retie", "policy.json")), policy);
  const results = provider.requests.at(-1)!.messages.filter((m) => m.role === "tool");
  assert.match(results[0].role === "tool" ? results[0].content : "", /retie's own state|refused/);
  assert.match(results[1].role === "tool" ? results[1].content : "", /retie's own state|refused/);
  if (check.available) {
    // Inside the sandbox the directory is not there to read or write.
    assert.doesNotMatch(
      results[2].role === "tool" ? results[2].content : "",
      /team-no-network-shell/,
    );
  }
});
