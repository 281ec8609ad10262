/**
 * The contract between the plane (which plans undos) and the sandbox (which provides workspace
 * snapshots). A snapshot restores a workspace byte for byte: contents, modes, symlinks, deleted
 * files back, new files gone.
 *
 * @module
 */

/** One path that differs between a snapshot and the tree on disk. */
export interface PathDiff {
  /** Path relative to the snapshot root. */
  path: string;
  /** What changed: added since, removed since, or modified (content, mode, type or link target). */
  change: "added" | "removed" | "modified";
  /** Set by a restore that could not bring this path back, saying why (contents not kept). */
  notRestored?: string;
}

/** Workspace snapshots. Implemented in `src/sandbox/`. */
export interface SnapshotStore {
  /**
   * Records the state of `root` (all of it except `exclude`, relative paths). Cost grows with what
   * changed since the previous capture of the same root, not with the size of the tree.
   * Returns the snapshot id (a content hash of its manifest). `full`: look at every path, never
   * only at those reported changed (for the state after untrusted code wrote in the tree).
   */
  capture(root: string, exclude: string[], opts?: { full?: boolean }): Promise<string>;
  /**
   * Code that no capture follows ran and may have written anywhere it could (a command outside the
   * sandbox, a sandboxed command with the network, a tool nobody classified): the next capture of
   * every root looks at every path. Optional; stores that always walk need not implement it.
   */
  distrust?(): void;
  /**
   * What the last `capture` left out or did not keep the contents of, in words: sockets, FIFOs
   * and devices (never opened), paths longer than the system allows, sparse files, files over the
   * caps. Optional; a store that keeps everything need not implement it.
   */
  lastNotes?(): string[];
  /** True when the snapshot and every blob it needs are stored intact. */
  verify(id: string): Promise<boolean>;
  /** The paths where `root` now differs from snapshot `id` (empty: identical). */
  diff(root: string, id: string): Promise<PathDiff[]>;
  /** Makes `root` equal to snapshot `id` again; returns what it changed. */
  restore(root: string, id: string): Promise<PathDiff[]>;
  /**
   * Makes `root`, which the caller has just found equal to snapshot `fromId` (an empty `diff`),
   * equal to snapshot `toId` without listing the tree again: the changes come from the two
   * manifests. Optional; callers fall back to `restore`.
   */
  restoreFrom?(root: string, fromId: string, toId: string): Promise<PathDiff[]>;
  /**
   * After a restore: removes the sockets, FIFOs and devices (which snapshots leave out) that the
   * action made: named in the notes of the capture after it (`afterNotes`), not before
   * (`beforeNotes`), made at or after `sinceMs`. `missed`: ones there before that are gone.
   */
  settleSpecials?(
    root: string,
    beforeNotes: readonly string[] | undefined,
    afterNotes: readonly string[] | undefined,
    sinceMs: number,
  ): { removed: string[]; missed: string[] };
}
