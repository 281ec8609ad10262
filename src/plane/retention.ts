/**
 * Retention of undo data: an age policy (undo data of sessions older than N days is pruned) and a
 * size cap (the oldest sessions' undo data goes first until the rest fits). Pruning is never
 * silent: each pruned action gets an `undo-pruned` event in the ledger, and undo then reports
 * "undo data pruned on DATE" instead of failing on a missing blob.
 *
 * What is pruned: the blob-store bytes that file edits (`files` plans) and staged commands
 * (`staged-changes` records, with their subtree manifests) hold for undo. A blob is deleted only
 * when no entry that is kept mentions it. Whole-workspace snapshots (the fallback store) are not
 * pruned here.
 *
 * Settings: `retention.json` in the config directory, e.g.
 * `{"undoRetentionDays": 30, "undoMaxMiB": 2048, "autoPrune": true}`.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import type { BlobStore } from "../core/blob_store.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { EntryState, StagedRecord, StagingService } from "../core/staging.ts";
import type { EntrySink, LedgerEntry } from "../ledger/mod.ts";
import { STAGED_EVENT } from "./staged.ts";

/** The retention settings. */
export const retentionSchema = z.object({
  /** Undo data of sessions older than this many days is pruned (0: never by age). */
  undoRetentionDays: z.number().min(0).default(30),
  /** The undo data kept may not exceed this many MiB (0: no cap). */
  undoMaxMiB: z.number().min(0).default(2048),
  /** Prune when a session ends (else only `retie gc`). */
  autoPrune: z.boolean().default(true),
}).strict();

/** Retention settings, parsed. */
export type Retention = z.infer<typeof retentionSchema>;

/**
 * Reads `retention.json` from `cfgDir` (defaults when absent); a bad file is a clear error.
 *
 * @example
 * ```ts
 * import { loadRetention } from "./retention.ts";
 * loadRetention("/nonexistent").undoRetentionDays; // 30
 * ```
 */
export function loadRetention(cfgDir: string): Retention {
  const path = join(cfgDir, "retention.json");
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return retentionSchema.parse({});
  }
  try {
    return retentionSchema.parse(JSON.parse(text));
  } catch (e) {
    throw new RetieError(`${path}: not valid retention settings: ${errorMessage(e)}`, {
      hint: 'write e.g. {"undoRetentionDays": 30, "undoMaxMiB": 2048, "autoPrune": true}',
      exitCode: 2,
    });
  }
}

/** What {@link pruneUndoData} did (or, dry, would do). */
export interface PruneReport {
  /** Actions whose undo data was pruned now. */
  actions: string[];
  blobs: number;
  bytes: number;
  /** Undo data bytes kept after pruning. */
  keptBytes: number;
}

const HEX64 = /[0-9a-f]{64}/g;

function stateBlobs(s: EntryState, out: Set<string>): void {
  if (s.type === "file") { for (const id of Object.values(s.chunks ?? {})) out.add(id); }
}

/** The blobs one action holds for its undo (a staged record's manifests opened). */
function actionBlobs(entries: LedgerEntry[], blobs: BlobStore): Set<string> {
  const out = new Set<string>();
  for (const e of entries) {
    if (e.kind === "intent") {
      const plan = e.payload.undo as { kind?: string; files?: { blob: string | null }[] };
      if (plan?.kind === "files") { for (const f of plan.files ?? []) if (f.blob) out.add(f.blob); }
    }
    if (e.kind === "event" && e.payload.type === STAGED_EVENT) {
      const rec = e.payload.record as StagedRecord;
      for (const p of rec.paths ?? []) {
        stateBlobs(p.before, out);
        if (!p.tree) continue;
        out.add(p.tree);
        try {
          const m = JSON.parse(new TextDecoder().decode(blobs.get(p.tree))) as [
            string,
            EntryState,
          ][];
          for (const [, s] of m) stateBlobs(s, out);
        } catch { /* already gone */ }
      }
    }
  }
  return out;
}

/**
 * Prunes undo data by age and size. `sink` records one `undo-pruned` event per pruned action.
 *
 * @example
 * ```ts
 * import { pruneUndoData } from "./retention.ts";
 * // const r = pruneUndoData({ ledger, blobs, sink }, { undoRetentionDays: 30, undoMaxMiB: 2048, autoPrune: true });
 * // r.actions.length; // how many actions can no longer be undone
 * ```
 */
export function pruneUndoData(
  deps: {
    ledger: { entries(f?: object): LedgerEntry[] };
    blobs: BlobStore;
    sink: EntrySink | null;
    /** Drops kept FIFOs of pruned staged actions. */
    staging?: Pick<StagingService, "forget"> | null;
  },
  policy: Retention,
  opts: { now?: Date; dryRun?: boolean } = {},
): PruneReport {
  const now = opts.now ?? new Date();
  const all = deps.ledger.entries();
  const pruned = new Set<string>();
  const sessionStart = new Map<string, number>();
  const byAction = new Map<string, LedgerEntry[]>();
  for (const e of all) {
    if (e.kind === "genesis") sessionStart.set(e.session, Date.parse(e.time));
    if (e.kind === "event" && e.payload.type === "undo-pruned" && e.actionId) {
      pruned.add(e.actionId);
    }
    if (!e.actionId) continue;
    const list = byAction.get(e.actionId) ?? [];
    list.push(e);
    byAction.set(e.actionId, list);
  }
  // Actions with undo data, oldest session first.
  const holders: { id: string; start: number; refs: Set<string>; bytes: number }[] = [];
  for (const [id, entries] of byAction) {
    if (pruned.has(id)) continue;
    const intent = entries.find((e) => e.kind === "intent");
    if (!intent) continue;
    const refs = actionBlobs(entries, deps.blobs);
    if (refs.size === 0) continue;
    const bytes = [...refs].reduce((n, h) => n + deps.blobs.size(h), 0);
    holders.push({ id, start: sessionStart.get(intent.session) ?? 0, refs, bytes });
  }
  holders.sort((a, b) => a.start - b.start);
  const cutoff = now.getTime() - policy.undoRetentionDays * 86_400_000;
  const cap = policy.undoMaxMiB * 2 ** 20;
  let total = holders.reduce((n, h) => n + h.bytes, 0);
  const drop = new Set<string>();
  for (const h of holders) {
    const old = policy.undoRetentionDays > 0 && h.start < cutoff;
    const over = policy.undoMaxMiB > 0 && total > cap;
    if (!old && !over) continue;
    drop.add(h.id);
    total -= h.bytes;
  }
  // Blobs still mentioned by anything kept (another action, a stored tool result, a manifest).
  const keep = new Set<string>();
  for (const e of all) {
    if (e.actionId && drop.has(e.actionId)) continue;
    for (const m of e.payloadJson.matchAll(HEX64)) keep.add(m[0]);
  }
  for (const h of holders) if (!drop.has(h.id)) { for (const r of h.refs) keep.add(r); }
  const gone = new Set<string>();
  for (const h of holders) {
    if (drop.has(h.id)) { for (const r of h.refs) if (!keep.has(r)) gone.add(r); }
  }
  let bytes = [...gone].reduce((n, h) => n + deps.blobs.size(h), 0);
  if (!opts.dryRun && drop.size > 0) {
    // Recorded first: an undo never finds data missing without the ledger saying why.
    for (const id of drop) {
      deps.sink?.append("event", {
        type: "undo-pruned",
        date: now.toISOString(),
        message: `undo data pruned on ${now.toISOString().slice(0, 10)}`,
      }, id);
    }
    bytes = deps.blobs.delete(gone);
    deps.staging?.forget(drop);
  }
  return { actions: [...drop], blobs: gone.size, bytes, keptBytes: total };
}

/**
 * The `undo-pruned` event of an action, if its undo data was pruned.
 *
 * @example
 * ```ts
 * import { prunedOn } from "./retention.ts";
 * prunedOn([]); // null
 * ```
 */
export function prunedOn(entries: LedgerEntry[]): string | null {
  const e = entries.find((x) => x.kind === "event" && x.payload.type === "undo-pruned");
  return e ? String(e.payload.date ?? e.time).slice(0, 10) : null;
}
