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
import { chmodSync, mkdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { BlobStore } from "../core/blob_store.ts";
import type { SnapshotStore } from "../core/snapshot.ts";
import { RetieError } from "../core/errors.ts";
import {
  type Delegation,
  delegationHash,
  type EntryKind,
  type EntrySink,
  generateKeyPair,
  issueDelegation,
  type KeyPair,
  type Ledger,
  type LedgerEntry,
  type SessionWriter,
} from "../ledger/mod.ts";
import type { StagingService } from "../core/staging.ts";
import { undoStaged } from "./staged_undo.ts";
import { prunedOn } from "./retention.ts";
import { fileHashOrNull, type PostState, type UndoPlan } from "./undo_plan.ts";

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
async function restore(plan: UndoPlan, deps: UndoDeps, knownAfter?: string): Promise<string[]> {
  switch (plan.kind) {
    case "files": {
      const restored: string[] = [];
      // Fetch every blob first: a missing blob must not leave a half-restored set of files.
      const bytes = plan.files.map((f) => (f.blob === null ? null : deps.blobs.get(f.blob)));
      plan.files.forEach((f, i) => {
        const b = bytes[i];
        if (b === null) {
          rmSync(f.path, { force: true });
          // Directories the action created for the file go too, when nothing else is in them.
          for (const d of f.dirs ?? []) {
            try {
              rmdirSync(d);
            } catch (e) {
              if ((e as { code?: string }).code === "ENOENT") continue;
              break; // not empty: its ancestors are not empty either
            }
          }
        } else {
          mkdirSync(dirname(f.path), { recursive: true });
          // Write beside the file and rename over it: a symlink planted at the path since the
          // action is replaced, never followed (the bytes must not land outside the workspace).
          const tmp = `${f.path}.retie-undo-${Deno.pid}.tmp`;
          rmSync(tmp, { force: true });
          writeFileSync(tmp, b, { mode: f.mode ?? 0o644, flag: "wx" });
          if (f.mode !== null) chmodSync(tmp, f.mode);
          renameSync(tmp, f.path);
        }
        restored.push(f.path);
      });
      return restored;
    }
    case "snapshot": {
      if (!deps.snapshots) throw new Error("no snapshot store is available to restore from");
      if (!(await deps.snapshots.verify(plan.before))) {
        throw new Error(`snapshot ${plan.before.slice(0, 12)} is missing or damaged`);
      }
      const changed = knownAfter && deps.snapshots.restoreFrom
        ? await deps.snapshots.restoreFrom(plan.root, knownAfter, plan.before)
        : await deps.snapshots.restore(plan.root, plan.before);
      return changed.map((c) => c.path);
    }
    default:
      return [];
  }
}

async function decide(entries: LedgerEntry[], deps: UndoDeps): Promise<Decided> {
  const intent = entries.find((e) => e.kind === "intent")!;
  const cls = String(intent.payload.class ?? "unknown");
  const plan = intent.payload.undo as UndoPlan | undefined;
  if (cls === "irreversible" || cls === "unknown" || !plan || plan.kind === "impossible") {
    const why = plan && plan.kind === "impossible" ? plan.why : "no inverse was planned";
    return { status: "skipped", reason: `not reversible (class ${cls}): ${why}` };
  }
  if (plan.kind === "none") {
    return { status: "skipped", reason: `nothing to undo (class ${cls}: no side effect)` };
  }
  const pruned = prunedOn(entries);
  if (pruned) return { status: "refused", reason: `undo data pruned on ${pruned}` };
  if (plan.kind === "staged") return undoStaged(entries, deps);
  const outcome = entries.find((e) => e.kind === "outcome");
  const post = outcome?.payload.after as PostState | null | undefined;
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
      differs = [`cannot compare with the state after the action: ${(e as Error).message}`];
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
    const restored = await restore(plan, deps, clean);
    const forced = differs.length > 0 ? ` (forced over: ${differs.join("; ")})` : "";
    return {
      status: "undone",
      reason: `restored the state before the action${forced}`,
      restored,
      differs,
    };
  } catch (e) {
    return { status: "refused", reason: `restore failed: ${(e as Error).message}`, differs };
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
  const effect = intent.payload.effect as { summary?: unknown } | undefined;
  const summary = typeof effect?.summary === "string" ? effect.summary : null;
  const done = entries.find((e) => e.kind === "undo" && e.payload.status === "undone");
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
    { target: actionId, status: d.status, reason: d.reason, restored },
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

function sessionDelegation(entries: LedgerEntry[]): Delegation | null {
  for (const e of entries) {
    const p = e.payload;
    const candidates = [p.delegation, p];
    for (const c of candidates) {
      if (c && typeof c === "object" && "agent" in c && "issuer" in c && "signature" in c) {
        return c as unknown as Delegation;
      }
    }
  }
  return null;
}

/**
 * The session ids in the delegation subtree rooted at `sessionId` (itself included): sessions
 * whose delegation's parent hash is the delegation of a session already in the subtree.
 *
 * @example
 * ```ts
 * import { delegationSubtree } from "./undo.ts";
 * // delegationSubtree(ledger, "ses_0123456789ab"); // ["ses_0123456789ab", "ses_…child"]
 * ```
 */
export function delegationSubtree(ledger: LedgerReader, sessionId: string): string[] {
  const heads = ledger.entries({ kinds: ["genesis", "delegation"] });
  const bySession = new Map<string, LedgerEntry[]>();
  for (const e of heads) {
    const list = bySession.get(e.session) ?? [];
    list.push(e);
    bySession.set(e.session, list);
  }
  const hashOf = new Map<string, string | null>();
  const parentOf = new Map<string, string | null>();
  for (const [s, list] of bySession) {
    const d = sessionDelegation(list);
    hashOf.set(s, d ? delegationHash(d) : null);
    parentOf.set(s, d ? d.parent : null);
  }
  const inTree = [sessionId];
  const hashes = new Set<string>();
  const h0 = hashOf.get(sessionId);
  if (h0) hashes.add(h0);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [s, parent] of parentOf) {
      if (inTree.includes(s) || !parent || !hashes.has(parent)) continue;
      inTree.push(s);
      const h = hashOf.get(s);
      if (h) hashes.add(h);
      grew = true;
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
    if (!i.actionId || i.payload.class === "none") continue;
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
