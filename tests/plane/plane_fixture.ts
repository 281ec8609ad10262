/**
 * Shared set-up for the plane tests: a real ledger file, real keys and delegation, a real blob
 * store, a temp workspace, and small real tools (write, read, unconfined shell) whose handlers
 * count their calls (the spies that prove ordering).
 */
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { BlobStore } from "../../src/core/blob_store.ts";
import { storePaths } from "../../src/core/dirs.ts";
import type { Effect } from "../../src/core/effect.ts";
import type { AnyTool, ToolContext } from "../../src/core/tool.ts";
import { issueDelegation } from "../../src/ledger/delegation.ts";
import { generateKeyPair, type KeyPair } from "../../src/ledger/keys.ts";
import { type Ledger, openLedger, type SessionWriter } from "../../src/ledger/ledger.ts";
import type { Delegation } from "../../src/ledger/types.ts";
import { defaultPolicy } from "../../src/plane/policy.ts";
import { createGuard, type GuardDeps } from "../../src/plane/guard.ts";

export interface Fixture {
  dir: string;
  workspace: string;
  ledgerPath: string;
  ledger: Ledger;
  blobs: BlobStore;
  userKey: KeyPair;
  agentKey: KeyPair;
  sink: SessionWriter;
  ctx: ToolContext;
  close(): void;
}

export function fixture(
  opts: {
    classes?: string[];
    tools?: string[];
    notBefore?: Date;
    expires?: Date;
  } = {},
): Fixture {
  const dir = realpathSync(Deno.makeTempDirSync({ prefix: "retie-plane-" }));
  const workspace = join(dir, "ws");
  Deno.mkdirSync(workspace);
  const ledgerPath = join(dir, "state", "ledger.db");
  const ledger = openLedger(ledgerPath);
  const blobs = new BlobStore(storePaths(ledgerPath).blobs);
  const userKey = generateKeyPair();
  const agentKey = generateKeyPair();
  const delegation = issueDelegation(userKey, agentKey.publicKey, {
    workspace,
    classes: opts.classes ?? ["none", "reversible", "irreversible"],
    tools: opts.tools ?? ["*"],
    notBefore: opts.notBefore ?? new Date(Date.now() - 60_000),
    expires: opts.expires ?? new Date(Date.now() + 3600_000),
  });
  const sink = startSession(ledger, userKey, agentKey, delegation, workspace);
  const ctx: ToolContext = {
    workspace,
    protectedPaths: [join(dir, "state")],
    signal: new AbortController().signal,
    sandbox: { available: false, unavailableReason: "test", network: false },
    headless: false,
    sessionId: sink.sessionId,
    services: {},
  };
  return {
    dir,
    workspace,
    ledgerPath,
    ledger,
    blobs,
    userKey,
    agentKey,
    sink,
    ctx,
    close() {
      for (const c of [() => sink.close(), () => ledger.close(), () => blobs.close()]) {
        try {
          c();
        } catch { /* already closed */ }
      }
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

export function startSession(
  ledger: Ledger,
  userKey: KeyPair,
  agentKey: KeyPair,
  delegation: Delegation,
  workspace: string,
  parentSession: string | null = null,
): SessionWriter {
  return ledger.startSession({
    genesis: {
      objective: "test",
      provider: "none",
      model: "none",
      policy: defaultPolicy().identity,
      systemPromptDigest: "0".repeat(64),
      instructionsDigest: null,
      sandbox: "none: test",
      version: "test",
      workspace,
      mode: "default",
      headless: false,
    },
    userKey,
    agentKey,
    delegation,
    parentSession,
  });
}

/** Counts handler calls; `onCall` runs inside the handler. */
export interface Spy {
  calls: number;
  onCall?: () => void;
}

function baseEffect(summary: string): Effect {
  return {
    class: "none",
    reads: [],
    writes: [],
    readsOutside: [],
    writesOutside: [],
    sandboxed: false,
    network: false,
    external: false,
    summary,
    consequence: summary,
    reason: "test tool",
    undo: { kind: "none" },
  };
}

const inside = (ws: string, p: string) => p === ws || p.startsWith(ws + "/");

/** A real file-writing tool (reversible: prior bytes). `brokenUndo` claims reversible with no inverse. */
export function writeTool(spy: Spy, opts: { brokenUndo?: boolean } = {}): AnyTool {
  return {
    name: "write",
    description: "write a file",
    schema: z.strictObject({ path: z.string(), content: z.string() }),
    classify(args: { path: string; content: string }, ctx: ToolContext) {
      const path = args.path.startsWith("/") ? args.path : join(ctx.workspace, args.path);
      return Promise.resolve(
        {
          ...baseEffect(`write ${args.path}`),
          class: "reversible",
          writes: [path],
          writesOutside: inside(ctx.workspace, path) ? [] : [path],
          consequence: `reversible: overwrites ${args.path}`,
          undo: opts.brokenUndo ? { kind: "none" } : { kind: "files", paths: [path] },
        } satisfies Effect,
      );
    },
    preview(args: { path: string; content: string }, ctx: ToolContext) {
      const path = args.path.startsWith("/") ? args.path : join(ctx.workspace, args.path);
      return Promise.resolve([{
        path,
        before: existsSync(path) ? readFileSync(path, "utf8") : null,
        after: args.content,
      }]);
    },
    handler(args: { path: string; content: string }, ctx: ToolContext) {
      spy.calls++;
      spy.onCall?.();
      writeFileSync(join(ctx.workspace, args.path), args.content);
      return Promise.resolve({ ok: true, output: `wrote ${args.path}` });
    },
  };
}

/** An unconfined "shell" tool: irreversible; its handler appends a line to a file. */
export function shellTool(spy: Spy): AnyTool {
  return {
    name: "bash",
    description: "run a command",
    schema: z.strictObject({ command: z.string() }),
    classify(args: { command: string }) {
      return Promise.resolve(
        {
          ...baseEffect(`run shell command: ${args.command}`),
          class: "irreversible",
          consequence: "not reversible: runs without the sandbox",
          undo: { kind: "impossible", why: "an unconfined shell command has no stated inverse" },
        } satisfies Effect,
      );
    },
    handler(_args: { command: string }, ctx: ToolContext) {
      spy.calls++;
      writeFileSync(join(ctx.workspace, "shell.log"), "ran\n", { flag: "a" });
      return Promise.resolve({ ok: true, output: "ran" });
    },
  };
}

/** A no-op read tool (class none). */
export function noopTool(spy: Spy): AnyTool {
  return {
    name: "read",
    description: "read nothing",
    schema: z.strictObject({}),
    classify() {
      return Promise.resolve(baseEffect("read nothing"));
    },
    handler() {
      spy.calls++;
      return Promise.resolve({ ok: true, output: "" });
    },
  };
}

export function guardFor(f: Fixture, over: Partial<GuardDeps> = {}) {
  return createGuard({
    sink: f.sink,
    policy: defaultPolicy(),
    blobs: f.blobs,
    snapshots: null,
    approve: () => Promise.resolve(true),
    mode: "default",
    headless: false,
    yes: false,
    ...over,
  });
}
