/**
 * A separate writer process for the ledger tests.
 *
 * `deno run -A ledger_child_writer.ts <ledger> append <sessionId> <n>`: starts its session, prints
 * "ready", waits for a line on stdin, appends n intent/outcome pairs (2n entries), closes the
 * session and prints "done".
 * `deno run -A ledger_child_writer.ts <ledger> crash <sessionId>`: appends one complete action and
 * one intent, prints "intent <actionId>", then waits forever (the test kills it with SIGKILL).
 */
import { generateKeyPair } from "../../src/ledger/keys.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import { action, appendRaw, genesisFields, rootDelegation, userKey } from "./ledger_fixture.ts";

const [path, mode, sessionId, nText] = Deno.args;
const user = userKey();
const agent = generateKeyPair();
const ledger = openLedger(path);
const now = Date.now();
const writer = ledger.startSession({
  genesis: genesisFields(`child ${mode}`),
  userKey: user,
  agentKey: agent,
  delegation: rootDelegation(user, agent, {
    notBefore: new Date(now - 3600_000),
    expires: new Date(now + 3600_000),
  }),
  sessionId,
  checkpointEvery: 10,
});
const tag = sessionId.slice(-6);
if (mode === "append") {
  const n = Number(nText);
  // Barrier: say "ready", wait for a line on stdin, so both writers' appends really overlap.
  console.log("ready");
  const buf = new Uint8Array(16);
  await Deno.stdin.read(buf);
  for (let i = 0; i < n; i++) {
    action(writer, `act_${tag}${i.toString(16).padStart(6, "0")}`);
    // Like an agent between tool calls: the lock is free for a moment, so the writers alternate.
    await new Promise((r) => setTimeout(r, 2));
  }
  writer.close();
  ledger.close();
  console.log("done");
} else if (mode === "crash") {
  action(writer, `act_${tag}000000`);
  const open = `act_${tag}000001`;
  appendRaw(writer, "intent", {
    tool: "shell",
    class: "reversible",
    effect: { reads: [], writes: ["/work/proj"] },
  }, open);
  console.log(`intent ${open}`);
  await new Promise(() => setInterval(() => {}, 1000));
} else {
  console.error(`unknown mode ${mode}`);
  Deno.exit(2);
}
