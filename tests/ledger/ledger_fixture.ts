/**
 * Shared test fixtures for the ledger and verify tests: deterministic keys, a delegation, and a
 * session writer on a fresh temp ledger.
 */
import { join } from "node:path";
import { type KeyPair, keyPairFromSeedHex } from "../../src/ledger/keys.ts";
import { issueDelegation } from "../../src/ledger/delegation.ts";
import type { Delegation, LedgerEntry } from "../../src/ledger/types.ts";
import {
  type GenesisFields,
  type Ledger,
  openLedger,
  type SessionWriter,
} from "../../src/ledger/ledger.ts";

export const USER_SEED = "01".repeat(32);
export const AGENT_SEED = "02".repeat(32);
export const WORKSPACE = "/work/proj";
export const NOT_BEFORE = new Date("2026-01-01T00:00:00.000Z");
export const EXPIRES = new Date("2026-01-02T00:00:00.000Z");

export function userKey(): KeyPair {
  return keyPairFromSeedHex(USER_SEED);
}
export function agentKey(): KeyPair {
  return keyPairFromSeedHex(AGENT_SEED);
}

export function genesisFields(objective = "fix the failing test in calc.py"): GenesisFields {
  return {
    objective,
    provider: "test",
    model: "test-model",
    policy: "retie-default@0123456789ab",
    systemPromptDigest: "a".repeat(64),
    instructionsDigest: null,
    sandbox: "bwrap (no network)",
    version: "0.1.0",
    workspace: WORKSPACE,
    mode: "ask",
    headless: true,
  };
}

export function rootDelegation(user: KeyPair, agent: KeyPair, over: Partial<{
  classes: string[];
  tools: string[];
  workspace: string;
  notBefore: Date;
  expires: Date;
}> = {}): Delegation {
  return issueDelegation(user, agent.publicKey, {
    workspace: over.workspace ?? WORKSPACE,
    classes: over.classes ?? ["none", "reversible"],
    tools: over.tools ?? ["*"],
    notBefore: over.notBefore ?? NOT_BEFORE,
    expires: over.expires ?? EXPIRES,
  });
}

/** A clock that starts inside the delegation window and ticks 1 s per call. */
export function tickingClock(start = new Date("2026-01-01T12:00:00.000Z")): () => Date {
  let t = start.getTime();
  return () => new Date((t += 1000) - 1000);
}

export function tempLedgerPath(): string {
  return join(Deno.makeTempDirSync({ prefix: "retie-ledger-" }), "state", "ledger.db");
}

/** Opens a fresh ledger and starts one session with deterministic keys and clock. */
export function freshSession(opts: {
  path?: string;
  sessionId?: string;
  checkpointEvery?: number;
  clock?: () => Date;
} = {}): { path: string; ledger: Ledger; writer: SessionWriter; user: KeyPair; agent: KeyPair } {
  const path = opts.path ?? tempLedgerPath();
  const ledger = openLedger(path, { clock: opts.clock ?? tickingClock() });
  const user = userKey();
  const agent = agentKey();
  const writer = ledger.startSession({
    genesis: genesisFields(),
    userKey: user,
    agentKey: agent,
    delegation: rootDelegation(user, agent),
    sessionId: opts.sessionId ?? "ses_000000000001",
    checkpointEvery: opts.checkpointEvery,
  });
  return { path, ledger, writer, user, agent };
}

/** Appends one intent + outcome pair for action `act`. */
export function action(writer: SessionWriter, act: string, path = `${WORKSPACE}/calc.py`): void {
  appendRaw(writer, "intent", {
    tool: "edit",
    class: "reversible",
    effect: { reads: [path], writes: [path] },
    decision: "allow",
  }, act);
  appendRaw(writer, "outcome", { status: "ok" }, act);
}

/** Adds a sub-delegated child session (narrowed to reads) with one action, left open. */
export function generateSubSession(ledger: Ledger, parent: SessionWriter): SessionWriter {
  const sub = keyPairFromSeedHex("03".repeat(32));
  const d = issueDelegation(agentKey(), sub.publicKey, {
    workspace: `${WORKSPACE}/src`,
    classes: ["none"],
    tools: ["read"],
    notBefore: NOT_BEFORE,
    expires: EXPIRES,
  }, parent.delegation);
  const child = ledger.startSession({
    genesis: genesisFields("read the sources"),
    userKey: userKey(),
    agentKey: sub,
    delegation: d,
    parentSession: parent.sessionId,
    sessionId: "ses_0000000000c1",
    checkpointEvery: 0,
  });
  appendRaw(
    child,
    "intent",
    { tool: "read", class: "none", effect: { writes: [] } },
    "act_0000000000c1",
  );
  appendRaw(child, "outcome", { status: "ok" }, "act_0000000000c1");
  return child;
}

/**
 * Appends any payload to any kind, bypassing the typed constructors: tests use it to write the
 * partial or malformed rows a verifier must judge.
 */
export function appendRaw(
  w: { append: unknown },
  kind: string,
  payload: Record<string, unknown>,
  actionId: string | null = null,
): LedgerEntry {
  return (w.append as (k: string, p: unknown, a: string | null) => LedgerEntry).call(
    w,
    kind,
    payload,
    actionId,
  );
}
