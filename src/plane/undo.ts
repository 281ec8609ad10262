/**
 * The reversal engine: `undoAction` reverses one recorded action, `undoAll` a session and its
 * delegation subtree, newest first.
 *
 * Before restoring, the current state must still equal the state the action left (its outcome's
 * post-state); when someone changed it since, the undo is refused and says what differs, unless
 * forced. Irreversible and unknown actions are reported as *skipped*, never as undone; an action
 * that never recorded an outcome (a crash mid-run) is refused unless forced, since the state it left
 * is unknown. Every undo, skip and refusal is recorded.
 *
 * @module
 */
import type { BlobStore } from "../core/blob_store.ts";
import type { SnapshotStore } from "../core/snapshot.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import {
  type EntryKind,
  type EntrySink,
  generateKeyPair,
  intentUndoPlan,
  issueDelegation,
  type KeyPair,
  type Ledger,
  type LedgerEntry,
  readGenesis,
  readIntent,
  readOutcome,
  readUndo,
  type SessionWriter,
  undoPayload,
} from "../ledger/mod.ts";
import type { StagingService } from "../core/staging.ts";
import { undoStaged } from "./staged_undo.ts";
import { prunedOn } from "./retention.ts";
import { fileHashOrNull, type PostState, type UndoPlan } from "./undo_plan.ts";
import { restoreFiles } from "./undo_files.ts";

/** What undo needs of the ledger: reading entries back. */
export interface LedgerReader {
  entries(
    filter?: {
      session?: string;
      actionId?: string;
      kinds?: EntryKind[];
      afterSeq?: number;
      limit?: number;
    },
  ): LedgerEntry[];
}

/** The result of undoing (or not) one action. */
export interface UndoReport {
  target: string;
  status: "undone" | "skipped" | "refused";
  reason: string;
  /** Paths (files) or snapshot-relative paths restored. */
  restored: string[];
  /** What differs from the state the action left (when refused for that reason). */
  differs: string[];
  /** The action's one-line summary from its intent, when known. */
  summary: string | null;
  /** Seq of the recorded undo entry, or null when nothing was recorded (already undone). */
  recordedSeq: number | null;
}

/** Everything the reversal engine touches. */
export interface UndoDeps {
  ledger: LedgerReader;
  /** Where the undo entries are recorded (an "undo" session, or the acting session). */
  sink: EntrySink;
  blobs: BlobStore;
  snapshots: SnapshotStore | null;
  /** Staged commands' store (their undo data is in the ledger and the blob store). */
  staging?: StagingService | null;
  /** Restore even when the state changed since the action. */
  force?: boolean;
  /** Runs an inverse tool call (through the guard, so it is gated and recorded); absent outside a
   * session, where such an undo is skipped with the reason. */
  callTool?: (
    tool: string,
    args: Record<string, unknown>,
  ) => Promise<{ ok: boolean; output: string }>;
}

interface Decided {
  status: UndoReport["status"];
  reason: string;
  restored?: string[];
  differs?: string[];
}

async function currentDiffers(post: PostState, deps: UndoDeps): Promise<string[]> {
  switch (post.kind) {
    case "none":
    case "staged": // checked path by path in staged_undo.ts
      return [];
    case "files": {
      const out: string[] = [];
      for (const f of post.files) {
        const now = fileHashOrNull(f.path);
        if (now === f.sha256) continue;
        if (now === null) out.push(`${f.path}: deleted since the action`);
        else if (f.sha256 === null) out.push(`${f.path}: created since the action`);
        else out.push(`${f.path}: modified since the action`);
      }
      return out;
    }
    case "snapshot": {
      if (!deps.snapshots) return ["no snapshot store available to compare the workspace"];
      const d = await deps.snapshots.diff(post.root, post.after);
      return d.map((x) => `${x.path}: ${x.change} since the action`);
    }
  }
}

/**
 * Restores the state `plan` prepared. `knownAfter`: the snapshot the tree was just found equal to
 * (the clean clobber check), so the snapshot store can restore without listing the tree again.
 */
async function restore(
  plan: UndoPlan,
  deps: UndoDeps,
  root: string | null,
  knownAfter?: string,
  action?: { afterNotes?: string[]; since: number },
): Promise<string[]> {
  switch (plan.kind) {
    case "files":
      return restoreFiles(plan.files, deps.blobs, root);
    case "snapshot": {
      if (!deps.snapshots) throw new Error("no snapshot store is available to restore from");
      if (!(await deps.snapshots.verify(plan.before))) {
        throw new Error(`snapshot ${plan.before.slice(0, 12)} is missing or damaged`);
      }
      const changed = knownAfter && deps.snapshots.restoreFrom
        ? await deps.snapshots.restoreFrom(plan.root, knownAfter, plan.before)
        : await deps.snapshots.restore(plan.root, plan.before);
      // Sockets and FIFOs are not in snapshots: those the action made go, by the capture notes.
      const sp = deps.snapshots.settleSpecials?.(
        plan.root,
        plan.notes,
        action?.afterNotes,
        action?.since ?? 0,
      ) ?? { removed: [], missed: [] };
      const missed = changed.filter((c) => c.notRestored !== undefined);
      if (missed.length > 0 || sp.missed.length > 0) {
        // Never claimed: what could not be brought back is named, and the undo is not "undone".
        throw new PartialRestore(
          [...changed.filter((c) => c.notRestored === undefined).map((c) => c.path), ...sp.removed],
          [...missed.map((c) => `${c.path} (${c.notRestored})`), ...sp.missed],
        );
      }
      return [...changed.map((c) => c.path), ...sp.removed];
    }
    default:
      return [];
  }
}

/** An action whose inverse is another tool call: make that call, through the guard. */
async function undoByCall(
  plan: { tool: string; args: Record<string, unknown> },
  deps: UndoDeps,
): Promise<Decided> {
  if (!deps.callTool) {
    return {
      status: "skipped",
      reason: `the inverse is a call of ${plan.tool}, which only a session with that MCP server ` +
        "can make: run /undo with the action id in a retie session",
    };
  }
  const r = await deps.callTool(plan.tool, plan.args);
  return r.ok
    ? { status: "undone", reason: `inverse call ${plan.tool} succeeded`, restored: [] }
    : { status: "refused", reason: `inverse call ${plan.tool} failed: ${r.output.slice(0, 300)}` };
}

/** A restore that brought back all but the paths in `missed`. */
class PartialRestore extends Error {
  constructor(readonly restored: string[], readonly missed: string[]) {
    super(`not restored: ${missed.join("; ")}`);
  }
}

/** The workspace of `session` as its genesis recorded it, or null. */
function sessionWorkspace(session: string, deps: UndoDeps): string | null {
  const g = deps.ledger.entries({ session, kinds: ["genesis"], limit: 1 })[0];
  const ws = g?.payload.workspace;
  return typeof ws === "string" && ws.startsWith("/") ? ws : null;
}

async function decide(entries: LedgerEntry[], deps: UndoDeps): Promise<Decided> {
  const intent = entries.find((e) => e.kind === "intent")!;
  const read = readIntent(intent.payload);
  const cls = read.ok ? read.value.class : "unknown";
  const plan = read.ok ? intentUndoPlan(intent.payload) : null;
  const partial = cls === "irreversible" && plan?.kind === "files";
  if (
    (cls === "irreversible" && !partial) || cls === "unknown" || !plan || plan.kind === "impossible"
  ) {
    const why = plan && plan.kind === "impossible" ? plan.why : "no inverse was planned";
    return { status: "skipped", reason: `not reversible (class ${cls}): ${why}` };
  }
  if (plan.kind === "none") {
    return { status: "skipped", reason: `nothing to undo (class ${cls}: no side effect)` };
  }
  const pruned = prunedOn(entries);
  if (pruned) return { status: "refused", reason: `undo data pruned on ${pruned}` };
  if (plan.kind === "call") return await undoByCall(plan, deps);
  if (plan.kind === "staged") return undoStaged(entries, deps);
  const outcome = entries.find((e) => e.kind === "outcome");
  const readOut = outcome ? readOutcome(outcome.payload) : null;
  const post: PostState | null = readOut?.ok ? readOut.value.after ?? null : null;
  let differs: string[];
  if (!outcome) {
    // A crash between intent and outcome: the inverse was prepared before the action ran (that is
    // what it is for), but the state the action left is unknown, so later changes by someone else
    // cannot be told apart from the action's own. Restore only when forced.
    const why = "the action has no recorded outcome (it never ran to the end), so the state it " +
      "left is unknown and later changes cannot be told apart from its own";
    if (!deps.force) {
      return {
        status: "refused",
        reason: `${why}; use --force to restore the state before the action`,
        differs: [why],
      };
    }
    differs = [why];
  } else if (!post) differs = ["the state after the action was not recorded"];
  else {
    try {
      differs = await currentDiffers(post, deps);
    } catch (e) {
      differs = [`cannot compare with the state after the action: ${errorMessage(e)}`];
    }
  }
  if (differs.length > 0 && !deps.force) {
    return {
      status: "refused",
      reason: `the state changed since the action (${differs.length} difference${
        differs.length === 1 ? "" : "s"
      }: ${differs.join("; ")}); use --force to restore anyway`,
      differs,
    };
  }
  try {
    const clean = differs.length === 0 && post?.kind === "snapshot" ? post.after : undefined;
    const restored = await restore(plan, deps, sessionWorkspace(intent.session, deps), clean, {
      afterNotes: post?.kind === "snapshot" ? post.notes : undefined,
      since: Date.parse(intent.time),
    });
    const forced = differs.length > 0 ? ` (forced over: ${differs.join("; ")})` : "";
    const left = partial
      ? "; it was irreversible in effect: what ran or was read from these files meanwhile (git " +
        "hooks, config) cannot be called back"
      : "";
    return {
      status: "undone",
      reason: `restored the state before the action${forced}${left}`,
      restored,
      differs,
    };
  } catch (e) {
    if (e instanceof PartialRestore) {
      return {
        status: "refused",
        reason: `restored ${e.restored.length} path(s), but NOT: ${e.missed.join("; ")}`,
        restored: e.restored,
        differs,
      };
    }
    return { status: "refused", reason: `restore failed: ${errorMessage(e)}`, differs };
  }
}

/**
 * Reverses one action. Throws RetieError (exit 2) when the ledger holds no such action.
 *
 * @example
 * ```ts
 * import { undoAction } from "./undo.ts";
 * // const report = await undoAction("act_0123456789ab", { ledger, sink, blobs, snapshots, force: false });
 * // report.status: "undone" | "skipped" | "refused"
 * ```
 */
export async function undoAction(actionId: string, deps: UndoDeps): Promise<UndoReport> {
  const entries = deps.ledger.entries({ actionId });
  const intent = entries.find((e) => e.kind === "intent");
  if (!intent) {
    throw new RetieError(`no action ${actionId} in the ledger`, {
      hint: "list actions with `retie replay`; action ids look like act_0123456789ab",
      exitCode: 2,
    });
  }
  const read = readIntent(intent.payload);
  const summary = read.ok && typeof read.value.effect.summary === "string"
    ? read.value.effect.summary
    : null;
  const done = entries.find((e) => {
    if (e.kind !== "undo") return false;
    const u = readUndo(e.payload);
    return u.ok && u.value.status === "undone";
  });
  if (done) {
    return {
      target: actionId,
      status: "skipped",
      reason: `already undone (ledger entry ${done.seq})`,
      restored: [],
      differs: [],
      summary,
      recordedSeq: null,
    };
  }
  const d = await decide(entries, deps);
  const restored = d.restored ?? [];
  const entry = deps.sink.append(
    "undo",
    undoPayload({ target: actionId, status: d.status, reason: d.reason, restored }),
    actionId,
  );
  return {
    target: actionId,
    status: d.status,
    reason: d.reason,
    restored,
    differs: d.differs ?? [],
    summary,
    recordedSeq: entry.seq,
  };
}

/**
 * The session ids in the delegation subtree rooted at `sessionId` (itself included): the sessions
 * whose genesis names a session already in the subtree as its `parentSession` (verify checks that
 * each such child's delegation links to a delegation of that parent session).
 *
 * @example
 * ```ts
 * import { delegationSubtree } from "./undo.ts";
 * // delegationSubtree(ledger, "ses_0123456789ab"); // ["ses_0123456789ab", "ses_…child"]
 * ```
 */
export function delegationSubtree(ledger: LedgerReader, sessionId: string): string[] {
  const children = new Map<string, string[]>();
  for (const e of ledger.entries({ kinds: ["genesis"] })) {
    const g = readGenesis(e.payload);
    const parent = g.ok ? g.value.parentSession : null;
    if (!parent || parent === e.session) continue;
    children.set(parent, [...(children.get(parent) ?? []), e.session]);
  }
  const inTree = [sessionId];
  const seen = new Set(inTree);
  for (let i = 0; i < inTree.length; i++) {
    for (const c of children.get(inTree[i]) ?? []) {
      if (!seen.has(c)) (seen.add(c), inTree.push(c));
    }
  }
  return inTree;
}

/**
 * Reverses every action of a session and its delegation subtree, newest first. Read-only actions
 * are left out; irreversible ones are reported as skipped; already undone ones are not undone twice.
 *
 * @example
 * ```ts
 * import { undoAll } from "./undo.ts";
 * // const reports = await undoAll("ses_0123456789ab", { ledger, sink, blobs, snapshots });
 * // reports.filter((r) => r.status === "skipped"); // irreversible actions, with why
 * ```
 */
export async function undoAll(sessionId: string, deps: UndoDeps): Promise<UndoReport[]> {
  const sessions = delegationSubtree(deps.ledger, sessionId);
  const intents: LedgerEntry[] = [];
  for (const s of sessions) {
    intents.push(...deps.ledger.entries({ session: s, kinds: ["intent"] }));
  }
  if (intents.length === 0 && deps.ledger.entries({ session: sessionId, limit: 1 }).length === 0) {
    throw new RetieError(`no session ${sessionId} in the ledger`, {
      hint: "session ids look like ses_0123456789ab; `retie replay` names the last session",
      exitCode: 2,
    });
  }
  intents.sort((a, b) => b.seq - a.seq);
  const reports: UndoReport[] = [];
  for (const i of intents) {
    const read = readIntent(i.payload);
    if (!i.actionId || (read.ok && read.value.class === "none")) continue;
    reports.push(await undoAction(i.actionId, deps));
  }
  return reports;
}

/** How to open the small "undo" session a later process records its undos in. */
export interface UndoSessionInit {
  /** The ledger to record in (the same one the actions are in). */
  ledger: Ledger;
  /** The person's key: it delegates to a fresh agent key for this session. */
  userKey: KeyPair;
  /** Workspace the undone actions ran in (the delegation is scoped to it). */
  workspace: string;
  /** What is being undone, for the genesis objective: an action id or `all of ses_…`. */
  target: string;
  /** Policy identity to record (`name@digest`). */
  policy: string;
  version: string;
  now?: Date;
}

/**
 * Opens an "undo" session: its own agent key, a one-hour delegation from the user key limited to
 * the workspace and the `undo` tool, and a genesis saying what is undone.
 *
 * @example
 * ```ts
 * import { startUndoSession } from "./undo.ts";
 * // const sink = startUndoSession({ ledger, userKey, workspace, target: "act_…", policy, version });
 * // await undoAction("act_…", { ledger, sink, blobs, snapshots }); sink.close();
 * ```
 */
export function startUndoSession(init: UndoSessionInit): SessionWriter {
  const now = init.now ?? new Date();
  const agentKey = generateKeyPair();
  const delegation = issueDelegation(init.userKey, agentKey.publicKey, {
    workspace: init.workspace,
    classes: ["reversible"],
    tools: ["undo"],
    notBefore: new Date(now.getTime() - 1000),
    expires: new Date(now.getTime() + 3600_000),
  });
  return init.ledger.startSession({
    genesis: {
      objective: `undo ${init.target}`,
      provider: "none",
      model: "none",
      policy: init.policy,
      systemPromptDigest: "0".repeat(64),
      instructionsDigest: null,
      sandbox: "none: undo restores recorded state, runs no commands",
      version: init.version,
      workspace: init.workspace,
      mode: "undo",
      headless: true,
    },
    userKey: init.userKey,
    agentKey,
    delegation,
  });
}
