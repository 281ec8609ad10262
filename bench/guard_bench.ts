/**
 * Guard overhead per no-op action, durable appends included (an intent before the handler and an
 * outcome after it, each a `BEGIN IMMEDIATE … COMMIT` with `synchronous=FULL`), against one bare
 * fsync of a small file on the same disk. Goal: ≤ 2× one fsync.
 * Run: `deno bench --allow-all bench/guard_bench.ts`.
 */
import { closeSync, fsyncSync, openSync, realpathSync, writeSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { BlobStore } from "../src/core/blob_store.ts";
import { effect } from "../src/core/effect.ts";
import { storePaths } from "../src/core/dirs.ts";
import type { AnyTool, ToolContext } from "../src/core/tool.ts";
import { issueDelegation } from "../src/ledger/delegation.ts";
import { createGuard } from "../src/plane/guard.ts";
import { generateKeyPair } from "../src/ledger/keys.ts";
import { openLedger } from "../src/ledger/ledger.ts";
import { defaultPolicy } from "../src/plane/policy.ts";

// The same disk as the ledger: a temp dir under the state directory's filesystem (/tmp here).
const dir = realpathSync(Deno.makeTempDirSync({ prefix: "retie-guard-bench-" }));
const workspace = join(dir, "ws");
Deno.mkdirSync(workspace);
const ledgerPath = join(dir, "ledger.db");
const ledger = openLedger(ledgerPath);
const blobs = new BlobStore(storePaths(ledgerPath).blobs);
const userKey = generateKeyPair();
const agentKey = generateKeyPair();
const delegation = issueDelegation(userKey, agentKey.publicKey, {
  workspace,
  classes: ["none", "reversible"],
  tools: ["*"],
  notBefore: new Date(Date.now() - 1000),
  expires: new Date(Date.now() + 86_400_000),
});
const sink = ledger.startSession({
  genesis: {
    objective: "bench",
    provider: "none",
    model: "none",
    policy: defaultPolicy().identity,
    systemPromptDigest: "0".repeat(64),
    instructionsDigest: null,
    sandbox: "none: bench",
    version: "bench",
    workspace,
    mode: "default",
    headless: true,
  },
  userKey,
  agentKey,
  delegation,
  checkpointEvery: 0,
});
const ctx: ToolContext = {
  workspace,
  protectedPaths: [dir],
  signal: new AbortController().signal,
  sandbox: { available: false, network: false },
  headless: true,
  sessionId: sink.sessionId,
  services: {},
};
const noop: AnyTool = {
  name: "noop",
  description: "does nothing",
  schema: z.strictObject({}),
  classify: () =>
    Promise.resolve(
      effect({ class: "none", summary: "no-op", consequence: "nothing", reason: "bench" }),
    ),
  handler: () => Promise.resolve({ ok: true, output: "" }),
};
const guard = createGuard({
  sink,
  policy: defaultPolicy(),
  blobs,
  snapshots: null,
  approve: () => Promise.resolve(false),
  mode: "default",
  headless: true,
  yes: false,
});

const small = new TextEncoder().encode("x".repeat(200));
const fsyncPath = join(dir, "fsync.txt");
Deno.bench({
  name: "one bare fsync: write 200 bytes + fsync a small file",
  group: "guard",
  baseline: true,
  fn() {
    const fd = openSync(fsyncPath, "w");
    writeSync(fd, small);
    fsyncSync(fd);
    closeSync(fd);
  },
});

Deno.bench({
  name: "one durable ledger append (intent-sized payload)",
  group: "guard",
  fn() {
    sink.append("event", {
      type: "noop",
      tool: "noop",
      args: {},
      class: "none",
      decision: "allow",
    });
  },
});

Deno.bench({
  name: "guard.run no-op action (classify, gate, intent append, handler, outcome append)",
  group: "guard",
  async fn() {
    const out = await guard.run({ name: "noop", tool: noop, args: {}, ctx });
    if (out.status !== "ok") throw new Error(out.result.output);
  },
});

globalThis.addEventListener("unload", () => {
  sink.close();
  ledger.close();
  blobs.close();
  Deno.removeSync(dir, { recursive: true });
});
