/**
 * Applying a recorded stage to the workspace, undoing it, and finishing an apply a crash cut
 * short. The staging service (`OverlayStaging`) ties them together for the guard and undo.
 *
 * Applying never writes through an existing name: an upper-layer entry is renamed over the
 * workspace name (same filesystem; else copied beside it and renamed), so the other hard links of
 * a file it replaces (a package store outside the workspace) keep their bytes. A path changed in
 * the workspace after the command started is a conflict and is left as the person made it.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { BlobStore } from "../core/blob_store.ts";
import {
  type ApplyReport,
  type EntryState,
  type Stage,
  STAGE_LAYOUT,
  type StagedRecord,
  type StagingService,
} from "../core/staging.ts";
import {
  collectStage,
  DEFAULT_STAGE_LIMITS,
  type StageLimits,
  type UpperChange,
} from "./upper_read.ts";
import {
  ABSENT_DIGEST,
  changedSince,
  confinedPath,
  lstatOrNull,
  manifestDigest,
  removeEntry,
  stateDigest,
  type TreeManifest,
  writeState,
} from "./upper_state.ts";
import { errorMessage } from "../core/errors.ts";

/** True when the stage's owner is another retie process that is still running. */
function ownerAlive(dir: string): boolean {
  try {
    const pid = Number(Deno.readTextFileSync(join(dir, "owner")));
    if (!Number.isInteger(pid) || pid === Deno.pid) return false;
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

/** Copies `src` (file, symlink or directory tree) to `dst`, which must not exist. */
function copyEntry(src: string, dst: string): void {
  const st = Deno.lstatSync(src);
  if (st.isSymlink) Deno.symlinkSync(Deno.readLinkSync(src), dst);
  else if (st.isDirectory) {
    Deno.mkdirSync(dst);
    for (const e of Deno.readDirSync(src)) copyEntry(join(src, e.name), join(dst, e.name));
    Deno.chmodSync(dst, (st.mode ?? 0o755) & 0o7777);
  } else if (st.isFile) {
    Deno.copyFileSync(src, dst);
    Deno.chmodSync(dst, (st.mode ?? 0o644) & 0o7777);
    if (st.mtime) Deno.utimeSync(dst, new Date(), st.mtime);
  } else throw new Error(`${src}: a FIFO or device cannot be copied across filesystems`);
}

/** Moves `src` to `dst` (replacing a non-directory there): rename, or copy beside and rename. */
function moveInto(src: string, dst: string): void {
  try {
    Deno.renameSync(src, dst);
  } catch (e) {
    if (!(e instanceof Error) || !/cross-device|EXDEV/i.test(e.message)) throw e;
    const tmp = `${dst}.retie-copy-${Deno.pid}`;
    removeEntry(tmp);
    copyEntry(src, tmp);
    Deno.renameSync(tmp, dst);
  }
}

/**
 * Staged commands over an overlay, their records, applies and undos. `runProbe` says whether an
 * overlay can be mounted here (it runs the sandbox, which this folder cannot).
 *
 * @example
 * ```ts
 * import { OverlayStaging } from "./upper_apply.ts";
 * const staging = new OverlayStaging(Deno.makeTempDirSync(), () => Promise.resolve({ ok: false, why: "test" }));
 * (await staging.probe()).ok; // false
 * ```
 */
export class OverlayStaging implements StagingService {
  #probe: Promise<{ ok: boolean; why?: string }> | null = null;
  #changes = new Map<string, UpperChange[]>();

  constructor(
    /** Directory holding one stage per action (outside every workspace). */
    readonly root: string,
    private readonly runProbe: () => Promise<{ ok: boolean; why?: string }>,
    private readonly limits: StageLimits = DEFAULT_STAGE_LIMITS,
  ) {}

  probe(): Promise<{ ok: boolean; why?: string }> {
    this.#probe ??= this.runProbe().catch((e) => ({ ok: false, why: errorMessage(e) }));
    return this.#probe;
  }

  /** Marks the overlay unusable from now on (a run whose mount failed). */
  disable(why: string): void {
    this.#probe = Promise.resolve({ ok: false, why });
  }

  create(actionId: string, root: string): Stage {
    if (!/^[A-Za-z0-9_-]+$/.test(actionId)) throw new Error(`bad action id ${actionId}`);
    const dir = join(this.root, actionId);
    Deno.mkdirSync(this.root, { recursive: true, mode: 0o700 });
    removeEntry(dir);
    Deno.mkdirSync(dir, { mode: 0o700 });
    for (const d of [STAGE_LAYOUT.upper, STAGE_LAYOUT.work, STAGE_LAYOUT.lower]) {
      Deno.mkdirSync(join(dir, d), { mode: 0o700 });
    }
    // Whose stage it is: another live retie process's stage is never resumed or removed.
    Deno.writeTextFileSync(join(dir, "owner"), String(Deno.pid));
    // The upper layer's root is the view's root: it must look like the workspace.
    Deno.chmodSync(join(dir, STAGE_LAYOUT.upper), (Deno.statSync(root).mode ?? 0o755) & 0o7777);
    // No margin before the start: tool calls of one model turn run back to back, and a file the
    // previous call wrote must not count as changed by the person. (File times come from the
    // kernel's clock, which Linux 6.13+ keeps fine-grained on ext4, xfs, btrfs and tmpfs.)
    return { id: actionId, dir, root, startedMs: Date.now() };
  }

  collect(stage: Stage, blobs: BlobStore, readOnly: string[]): StagedRecord {
    const { record, changes } = collectStage(stage, blobs, readOnly, this.limits);
    this.#changes.set(stage.id, changes);
    return record;
  }

  /** Where a FIFO the apply removes is kept (so undo can put the same FIFO back). */
  keptPath(stageId: string, index: number, rel: string): string {
    return join(this.root, "kept", stageId, String(index), rel);
  }

  /** Removes `full` (path #`index` of the record), keeping any FIFO in it for undo. */
  #remove(stageId: string, index: number, full: string): void {
    const walk = (p: string, rel: string) => {
      const st = lstatOrNull(p);
      if (!st) return;
      if (st.isFifo) {
        const keep = this.keptPath(stageId, index, rel);
        Deno.mkdirSync(dirname(keep), { recursive: true, mode: 0o700 });
        Deno.renameSync(p, keep);
      } else if (st.isDirectory) {
        for (const e of Deno.readDirSync(p)) {
          walk(join(p, e.name), rel ? `${rel}/${e.name}` : e.name);
        }
      }
    };
    walk(full, "");
    removeEntry(full);
  }

  apply(stage: Stage, record: StagedRecord, seq: number): ApplyReport {
    Deno.writeTextFileSync(
      join(stage.dir, STAGE_LAYOUT.recorded),
      JSON.stringify({ seq, action: stage.id }),
    );
    const changes = this.#changes.get(stage.id) ?? [];
    this.#changes.delete(stage.id);
    const report: ApplyReport = { applied: [], conflicts: [...record.conflicts] };
    const upper = join(stage.dir, STAGE_LAYOUT.upper);
    changes.forEach((c, i) => {
      const index = record.paths.findIndex((p) => p.path === c.rel);
      let full: string;
      try {
        full = c.rel === "" ? stage.root : confinedPath(stage.root, c.rel);
      } catch {
        report.conflicts.push(c.rel); // its parent was removed or replaced meanwhile
        return;
      }
      const st = lstatOrNull(full);
      if (changedSince(st, stage.startedMs)) {
        report.conflicts.push(c.rel); // changed in the workspace while we were recording
        return;
      }
      this.#applyOne(stage, c, index < 0 ? i : index, full, upper);
      report.applied.push(c.rel);
    });
    return report;
  }

  #applyOne(stage: Stage, c: UpperChange, index: number, full: string, upper: string): void {
    if (c.op === "mode") return Deno.chmodSync(full, c.mode!);
    if (c.op === "remove") return this.#remove(stage.id, index, full);
    const st = lstatOrNull(full);
    if (st?.isDirectory) {
      // A directory replaced by the command: aside, then the new entry in, then the old one gone.
      const aside = `${full}.retie-apply-${stage.id}`;
      removeEntry(aside);
      Deno.renameSync(full, aside);
      moveInto(join(upper, c.rel), full);
      this.#remove(stage.id, index, aside);
    } else if (st && (st.isFifo || lstatOrNull(join(upper, c.rel))?.isDirectory)) {
      // A FIFO (kept for undo), or a file or link the command replaced by a directory (a
      // directory cannot be renamed over a non-directory): removed first.
      this.#remove(stage.id, index, full);
      moveInto(join(upper, c.rel), full);
    } else {
      moveInto(join(upper, c.rel), full);
    }
  }

  discard(stage: Stage | string): void {
    const id = typeof stage === "string" ? stage : stage.id;
    this.#changes.delete(id);
    // Out of the way at once (a rename), removed in the background: removing the overlay's work
    // directory costs ~10-20 ms, which no command should wait for.
    const trash = join(this.root, "trash");
    const to = join(trash, `${id}-${crypto.randomUUID().slice(0, 8)}`);
    try {
      Deno.mkdirSync(trash, { recursive: true, mode: 0o700 });
      Deno.renameSync(join(this.root, id), to);
    } catch {
      removeEntry(join(this.root, id));
      return;
    }
    Deno.remove(to, { recursive: true }).catch(() => {/* emptied on the next start */});
  }

  /** Removes, in the background, what earlier discards left in the trash (at start-up). */
  emptyTrash(): Promise<void> {
    return Deno.remove(join(this.root, "trash"), { recursive: true }).catch(() => {});
  }

  current(record: StagedRecord): string[] {
    return record.paths.map((p) => {
      try {
        const full = p.path === "" ? record.root : confinedPath(record.root, p.path);
        return stateDigest(full, p.modeOnly === true);
      } catch (e) {
        return `unreadable: ${errorMessage(e)}`;
      }
    });
  }

  /** Undo: every recorded path back to its prior state, newest change first. */
  restore(
    record: StagedRecord,
    blobs: BlobStore,
    stageId: string,
    skip: ReadonlySet<string> = new Set(),
  ): string[] {
    const restored: string[] = [];
    // Fetch every manifest and check every blob first: a pruned one must not leave half an undo.
    const trees = record.paths.map((p) =>
      p.tree ? JSON.parse(new TextDecoder().decode(blobs.get(p.tree))) as TreeManifest : null
    );
    for (const [i, p] of record.paths.entries()) {
      for (const [, s] of trees[i] ?? [["", p.before]]) {
        for (const id of s.type === "file" ? Object.values(s.chunks ?? {}) : []) {
          if (!blobs.has(id)) throw new Error(`undo data for ${p.path} is missing (blob ${id})`);
        }
      }
    }
    const failed: string[] = [];
    for (let i = record.paths.length - 1; i >= 0; i--) {
      const p = record.paths[i];
      if (skip.has(p.path)) continue;
      try {
        this.#restoreOne(record, p, trees[i], i, stageId, blobs);
        restored.push(p.path);
      } catch (e) {
        // The others are still put back; this one is named, never counted as restored.
        failed.push(`${p.path || "."} (${errorMessage(e)})`);
      }
    }
    // Say only what was achieved: every path must now read as its recorded prior state.
    const wrong = record.paths.filter((p, i) => {
      if (skip.has(p.path) || !restored.includes(p.path)) return false;
      try {
        const full = p.path === "" ? record.root : confinedPath(record.root, p.path);
        const want = manifestDigest(p.modeOnly ? [["", p.before]] : trees[i] ?? [["", p.before]]);
        return stateDigest(full, p.modeOnly === true) !== want;
      } catch {
        return true;
      }
    });
    failed.push(...wrong.map((p) => `${p.path || "."} (reads differently after the restore)`));
    if (failed.length > 0) {
      throw new Error(
        `not restored as recorded: ${failed.join(", ")}; ${
          restored.length - wrong.length
        } other path(s) were restored`,
      );
    }
    return restored;
  }

  #restoreOne(
    record: StagedRecord,
    p: StagedRecord["paths"][number],
    tree: TreeManifest | null,
    i: number,
    stageId: string,
    blobs: BlobStore,
  ): void {
    const full = p.path === "" ? record.root : confinedPath(record.root, p.path);
    if (p.modeOnly && p.before.type === "dir") return Deno.chmodSync(full, p.before.mode);
    removeEntry(full);
    for (const [rel, s] of tree ?? [["", p.before] as [string, EntryState]]) {
      const at = rel ? join(full, rel) : full;
      if (s.type === "fifo") {
        Deno.renameSync(this.keptPath(stageId, i, rel), at);
        Deno.chmodSync(at, s.mode);
      } else writeState(at, s, blobs, { fresh: true }); // `full` was just removed
    }
    // Directory modes last, deepest first (writing their entries needed them writable).
    for (const [rel, s] of (tree ?? [["", p.before] as [string, EntryState]]).toReversed()) {
      if (s.type === "dir") Deno.chmodSync(rel ? join(full, rel) : full, s.mode);
    }
  }

  forget(actionIds: Iterable<string>): void {
    for (const id of actionIds) {
      if (/^[A-Za-z0-9_-]+$/.test(id)) removeEntry(join(this.root, "kept", id));
    }
  }

  /** Stage ids left behind (by a crash, or a run that never recorded). */
  pending(): string[] {
    try {
      return [...Deno.readDirSync(this.root)]
        .filter((e) => e.isDirectory && e.name !== "kept" && e.name !== "trash")
        .map((e) => e.name)
        .filter((id) => !ownerAlive(join(this.root, id)));
    } catch {
      return [];
    }
  }

  /**
   * Finishes a stage a crash left: with no record, the workspace was never touched and the stage
   * goes; with one, each path not yet in its recorded final state is applied when its upper entry
   * is still there (completed), and otherwise every path is restored (rolled back).
   */
  resume(
    id: string,
    record: StagedRecord | null,
    blobs: BlobStore,
  ): "discarded" | "completed" | "rolled back" {
    const dir = join(this.root, id);
    if (!record) {
      this.discard(id);
      return "discarded";
    }
    const now = this.current(record);
    const upper = join(dir, STAGE_LAYOUT.upper);
    // An apply cut short between moving a replaced directory aside and removing it.
    record.paths.forEach((p, i) => {
      if (p.path === "") return;
      const aside = `${join(record.root, p.path)}.retie-apply-${id}`;
      if (lstatOrNull(aside)) this.#remove(id, i, aside);
    });
    const todo = record.paths
      .map((p, i) => ({ p, i }))
      .filter(({ p, i }) => now[i] !== p.after && !record.conflicts.includes(p.path));
    const stage: Stage = { id, dir, root: record.root, startedMs: Number.MAX_SAFE_INTEGER };
    const doable = todo.every(({ p }) =>
      p.modeOnly || p.after === ABSENT_DIGEST || lstatOrNull(join(upper, p.path)) !== null
    );
    if (doable) {
      for (const { p, i } of todo) {
        const full = p.path === "" ? record.root : confinedPath(record.root, p.path);
        const op = p.modeOnly ? "mode" : p.after === ABSENT_DIGEST ? "remove" : "move";
        const mode = p.modeOnly ? (Deno.lstatSync(join(upper, p.path)).mode ?? 0) & 0o7777 : 0;
        this.#applyOne(stage, { rel: p.path, op, mode }, i, full, upper);
      }
      this.discard(id);
      return "completed";
    }
    this.restore(record, blobs, id);
    this.discard(id);
    return "rolled back";
  }
}
