/**
 * A resumed session in-process: it starts with the stored conversation, `/undo` reaches the
 * earlier part's action, and the conversation digest chain is recorded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConversation } from "../../src/agent/conversation_store.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { testSession } from "../helpers/test_session.ts";

Deno.test("resume: the earlier conversation is sent, and undo reaches the earlier part", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-resume-ws-" }));
  const state = Deno.makeTempDirSync({ prefix: "retie-resume-state-" });
  const ledgerPath = join(state, "ledger.db");
  const configDir = join(state, "cfg");
  const p1 = createScriptedProvider([
    { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "one\n" } }] },
    { text: "wrote a.txt" },
  ]);
  const s1 = await testSession(ws, p1, { ledgerPath, configDir });
  await s1.turn("write a.txt");
  const digest = String(
    s1.ledger.entries({ session: s1.id, kinds: ["event"] })
      .filter((e) => e.payload.type === "conversation").at(-1)!.payload.digest,
  );
  s1.close();

  const conversation = loadConversation(ledgerPath, s1.id, digest);
  const p2 = createScriptedProvider([{ text: "I see it" }]);
  const s2 = await testSession(ws, p2, {
    ledgerPath,
    configDir,
    resume: { parts: [s1.id], conversation },
  });
  try {
    assert.deepEqual(s2.parts, [s1.id, s2.id]);
    await s2.turn("what did you write?");
    assert.deepEqual(
      p2.requests[0].messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant", "user"],
    );
    const report = await s2.undo(null);
    assert.equal(report.status, "undone", report.reason);
    assert.throws(() => Deno.statSync(join(ws, "a.txt")));
    const resume = s2.ledger.entries({ session: s2.id, kinds: ["event"] })
      .find((e) => e.payload.type === "resume")!;
    assert.equal(resume.payload.from, s1.id);
  } finally {
    s2.close();
  }
});
