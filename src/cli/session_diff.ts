/**
 * What a session changed in the workspace, for `/diff` and the closing line: every path an action
 * of the session changed, with its state before the session first changed it and its state now.
 *
 * The prior states come from the undo data the ledger and stores already keep:
 * - write and edit (undo plan `files`): each file's prior bytes in the blob store;
 * - staged commands: the `staged-changes` event's prior state of exactly the paths the command
 *   changed (file contents in the blob store by chunk, a replaced or deleted directory's whole
 *   prior subtree as a manifest);
 * - commands undone by snapshots: the paths that differ between the snapshot before and the one
 *   after (the outcome's post-state), their prior state read from the first.
 *
 * The state now is read from the disk, so an undone action shows nothing, and a file changed twice
 * shows one diff, from before the first change.
 *
 * @module
 */
import { join } from "node:path";
import type { AgentSession } from "../agent/session.ts";
import type { EntryState, StagedRecord } from "../core/staging.ts";
import type { PlannedFile, PostState, UndoPlan } from "../core/recorded.ts";
import type { BlobStore } from "../core/blob_store.ts";
import type { LedgerEntry } from "../ledger/mod.ts";
import { type PathChange, type PathState, unchanged } from "../ui/session_diff.ts";

/** Files up to this size are read whole (to compare and show); larger ones by size only. */
export const READ_MAX_BYTES = 16 * 1024 * 1024;
/** Staged contents are stored in chunks of this size. */
const CHUNK = 1024 * 1024;
/** Paths listed under one created or replaced directory, at most. */
const DIR_MAX = 5000;

/** The stores the prior states are read from. */
export interface DiffSources {
  /** The session's ledger entries, oldest first. */
  entries: LedgerEntry[];
  /** Where write, edit and staged commands keep prior contents. */
  blobs: BlobStore;
  /** The snapshot store (its two read-only accessors), when commands were undone by snapshots. */
  snapshots?: {
    changedBetween(fromId: string, toId: string): { path: string }[];
    entryAt(
      id: string,
      rel: string,
    ): { kind: "f" | "d" | "l"; mode: number; bytes?: Uint8Array | null; target?: string } | null;
  } | null;
}

/**
 * The state of `path` on disk now (never following a link). With `like`, a file's contents are
 * read only when they could equal `like`'s (same size, contents known): enough to tell whether
 * it changed, without reading every new or resized file.
 *
 * @example
 * ```ts
 * import { stateNow } from "./session_diff.ts";
 * stateNow("/nonexistent"); // { type: "absent" }
 * ```
 */
export function stateNow(path: string, like?: PathState): PathState {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(path);
  } catch {
    return { type: "absent" };
  }
  if (st.isSymlink) {
    try {
      return { type: "symlink", target: Deno.readLinkSync(path) };
    } catch {
      return { type: "other", what: "unreadable symlink" };
    }
  }
  if (st.isDirectory) return { type: "dir" };
  if (!st.isFile) return { type: "other", what: "special file" };
  const mode = st.mode ?? undefined;
  const skip = like !== undefined &&
    (like.type !== "file" || like.bytes === null || like.size !== st.size);
  if (st.size > READ_MAX_BYTES || skip) return { type: "file", size: st.size, bytes: null, mode };
  try {
    return { type: "file", size: st.size, bytes: Deno.readFileSync(path), mode };
  } catch {
    return { type: "file", size: st.size, bytes: null, mode };
  }
}

function blobOrNull(blobs: BlobStore, hash: string): Uint8Array | null {
  try {
    return blobs.get(hash);
  } catch {
    return null; // pruned undo data: contents no longer kept
  }
}

/** A staged record's prior state of one path, as `/diff` compares it. */
function fromEntry(s: EntryState, blobs: BlobStore): PathState {
  switch (s.type) {
    case "absent":
      return { type: "absent" };
    case "dir":
      return { type: "dir" };
    case "symlink":
      return { type: "symlink", target: s.target };
    case "fifo":
      return { type: "other", what: "FIFO" };
    case "file": {
      const mode = s.mode;
      if (s.size > READ_MAX_BYTES) return { type: "file", size: s.size, bytes: null, mode };
      const bytes = new Uint8Array(s.size);
      for (const [i, hash] of Object.entries(s.chunks ?? {})) {
        const part = blobOrNull(blobs, hash);
        if (!part) return { type: "file", size: s.size, bytes: null, mode };
        bytes.set(part.subarray(0, Math.max(0, s.size - Number(i) * CHUNK)), Number(i) * CHUNK);
      }
      return { type: "file", size: s.size, bytes, mode };
    }
  }
}

/** Whether an action could have changed files: a command, or an effect that names writes. */
function mayWrite(intent: Record<string, unknown>): boolean {
  const writes = (intent.effect as { writes?: unknown[] } | undefined)?.writes ?? [];
  return intent.tool === "bash" || writes.length > 0;
}

/** Paths below `dir` now (files and links; directories are walked), at most {@link DIR_MAX}. */
function below(dir: string, out: string[] = []): string[] {
  let names: Deno.DirEntry[];
  try {
    names = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const e of names) {
    if (out.length >= DIR_MAX) break;
    const p = join(dir, e.name);
    if (e.isDirectory) below(p, out);
    else out.push(p);
  }
  return out;
}

/**
 * Every path the session's actions changed: before its first change, and now.
 *
 * @example
 * ```ts ignore
 * const { changes, notes } = collectChanges({ entries, blobs: session.blobs, snapshots });
 * ```
 */
export function collectChanges(
  src: DiffSources,
  opts: { contents?: boolean } = {},
): { changes: PathChange[]; notes: string[] } {
  const before = new Map<string, PathState>();
  const first = (path: string, s: () => PathState) => {
    if (!before.has(path)) before.set(path, s());
  };
  const notes: string[] = [];
  let unseen = 0;
  const byAction = new Map<string, LedgerEntry[]>();
  for (const e of src.entries) {
    if (!e.actionId) continue;
    const list = byAction.get(e.actionId) ?? [];
    list.push(e);
    byAction.set(e.actionId, list);
  }
  for (const e of src.entries) {
    if (e.kind !== "intent" || !e.actionId) continue;
    const plan = e.payload.undo as UndoPlan | undefined;
    const mine = byAction.get(e.actionId) ?? [];
    if (!plan) continue;
    if (plan.kind === "files") {
      for (const f of plan.files as PlannedFile[]) {
        first(f.path, () => {
          if (f.blob === null) return { type: "absent" };
          const bytes = blobOrNull(src.blobs, f.blob);
          const mode = f.mode ?? undefined;
          return bytes
            ? { type: "file", size: bytes.length, bytes, mode }
            : { type: "file", size: 0, bytes: null, mode };
        });
      }
    } else if (plan.kind === "staged") {
      const ev = mine.find((x) => x.kind === "event" && x.payload.type === "staged-changes");
      const record = ev?.payload.record as StagedRecord | undefined;
      if (!record) continue; // nothing changed, or nothing recorded (then nothing applied)
      for (const p of record.paths) {
        const abs = join(record.root, p.path);
        if (p.modeOnly) continue;
        if (p.tree) {
          // A replaced or deleted directory: its whole prior subtree, path by path.
          const tree = blobOrNull(src.blobs, p.tree);
          const prior = tree
            ? JSON.parse(new TextDecoder().decode(tree)) as [string, EntryState][]
            : [];
          for (const [rel, s] of prior) {
            first(rel ? join(abs, rel) : abs, () => fromEntry(s, src.blobs));
          }
          if (!tree) notes.push(`the prior contents of ${p.path}/ are no longer kept`);
        } else {
          first(abs, () => fromEntry(p.before, src.blobs));
        }
        // What the directory holds now that it did not before: created.
        if (p.before.type === "absent" || p.tree) {
          const now = below(abs);
          for (const q of now) first(q, () => ({ type: "absent" }));
          if (now.length >= DIR_MAX) {
            notes.push(
              `${p.path}/ holds more than ${DIR_MAX} files; the first ${DIR_MAX} are listed`,
            );
          }
        }
      }
    } else if (plan.kind === "snapshot") {
      const out = mine.find((x) => x.kind === "outcome");
      const after = out?.payload.after as PostState | null | undefined;
      if (!src.snapshots || !after || after.kind !== "snapshot") {
        unseen++;
        continue;
      }
      let paths: { path: string }[];
      try {
        paths = src.snapshots.changedBetween(plan.before, after.after);
      } catch {
        unseen++; // the snapshots were pruned
        continue;
      }
      for (const d of paths) {
        const abs = d.path === "." ? plan.root : join(plan.root, d.path);
        first(abs, () => {
          const m = src.snapshots!.entryAt(plan.before, d.path);
          if (!m) return { type: "absent" };
          if (m.kind === "d") return { type: "dir" };
          if (m.kind === "l") return { type: "symlink", target: m.target ?? "" };
          const bytes = m.bytes ?? null;
          return { type: "file", size: bytes?.length ?? 0, bytes, mode: m.mode };
        });
      }
    } else if (
      (plan.kind === "none" || plan.kind === "impossible") && e.payload.class !== "none" &&
      mayWrite(e.payload) && mine.some((x) => x.kind === "outcome")
    ) {
      unseen++;
    }
  }
  if (unseen > 0) {
    notes.push(
      `${unseen} action${unseen === 1 ? "" : "s"} without a record of what ${
        unseen === 1 ? "it" : "they"
      } changed (no undo data): ${unseen === 1 ? "its" : "their"} changes are not shown`,
    );
  }
  const whole = opts.contents !== false;
  const changes = [...before].map(([path, b]) => ({
    path,
    before: b,
    after: whole ? stateNow(path) : stateNow(path, b),
  }));
  return { changes, notes };
}

/**
 * The session's changes, read from its ledger and stores.
 *
 * @example
 * ```ts ignore
 * const { changes, notes } = sessionChanges(session);
 * ```
 */
export function sessionChanges(
  s: Pick<AgentSession, "ledger" | "id" | "blobs" | "snapshots">,
  opts: { contents?: boolean } = {},
): { changes: PathChange[]; notes: string[] } {
  return collectChanges({
    entries: s.ledger.entries({ session: s.id }),
    blobs: s.blobs,
    snapshots: s.snapshots,
  }, opts);
}

/**
 * How many files the session changed (as `/diff` lists them); `fallback` when they cannot be read.
 *
 * @example
 * ```ts ignore
 * filesChangedCount(session, view.changes().size); // 3
 * ```
 */
export function filesChangedCount(
  s: Pick<AgentSession, "ledger" | "id" | "blobs" | "snapshots">,
  fallback: number,
): number {
  try {
    return sessionChanges(s, { contents: false }).changes.filter((ch) =>
      !unchanged(ch.before, ch.after)
    ).length;
  } catch {
    return fallback;
  }
}
