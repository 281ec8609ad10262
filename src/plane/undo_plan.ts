/**
 * Undo planning: before a reversible action runs, prepare its inverse and check it.
 *
 * - `files`: each path's prior bytes go into the content-addressed blob store, are read back and
 *   compared by hash (the check); a path absent now is planned as "delete on undo"; modes are kept.
 * - `snapshot`: the workspace is captured, then the snapshot is verified intact.
 *
 * A call classified reversible whose inverse cannot be prepared and checked is refused before it
 * runs, with the finding "reversible claimed, no inverse".
 *
 * @module
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Effect } from "../core/effect.ts";
import type { BlobStore } from "../core/blob_store.ts";
import type { SnapshotStore } from "../core/snapshot.ts";
import { sha256Hex } from "../core/hash.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import { readRegularNoFollow } from "../core/nofollow.ts";

/** The missing ancestors of `path`, deepest first, up to the first one that exists. */
function missingDirs(path: string): string[] {
  const out: string[] = [];
  for (let d = dirname(path); d !== dirname(d); d = dirname(d)) {
    try {
      lstatSync(d);
      break;
    } catch {
      out.push(d);
    }
  }
  return out;
}

export type { PlannedFile, PostState, UndoPlan } from "../core/recorded.ts";
import type { PlannedFile, PostState, UndoPlan } from "../core/recorded.ts";

/** The finding every failed undo preparation carries. */
export const NO_INVERSE = "reversible claimed, no inverse";

/** Raised when a reversible call's inverse cannot be prepared or checked. */
export class UndoPlanError extends RetieError {
  constructor(why: string) {
    super(`${NO_INVERSE}: ${why}`, {
      hint: "the action was not run; its undo could not be prepared",
    });
    this.name = "UndoPlanError";
  }
}

/** The stores undo planning writes to. */
export interface UndoStores {
  blobs: BlobStore;
  snapshots: SnapshotStore | null;
}

function planFile(path: string, blobs: BlobStore): PlannedFile {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      const dirs = missingDirs(path);
      return dirs.length
        ? { path, blob: null, mode: null, dirs }
        : { path, blob: null, mode: null };
    }
    throw new UndoPlanError(`cannot stat ${path}: ${errorMessage(e)}`);
  }
  if (!st.isFile()) {
    throw new UndoPlanError(`${path} is not a regular file; only file contents can be restored`);
  }
  // Read by name without following a link or waiting on a FIFO swapped in since the lstat.
  const bytes = readRegularNoFollow(path);
  if (bytes === null) {
    throw new UndoPlanError(`cannot read ${path}: it is no longer a regular file`);
  }
  const expected = sha256Hex(bytes);
  let stored: string;
  try {
    stored = blobs.put(bytes);
    const back = blobs.get(stored);
    if (stored !== expected || sha256Hex(back) !== expected) {
      throw new Error(`hash mismatch for ${path}`);
    }
  } catch (e) {
    throw new UndoPlanError(`prior bytes of ${path} not stored: ${errorMessage(e)}`);
  }
  return { path, blob: stored, mode: st.mode & 0o7777 };
}

/**
 * Prepares and checks the inverse of `effect`; throws {@link UndoPlanError} when a reversible
 * effect's inverse cannot be prepared. Irreversible and unknown classes get an `impossible` plan,
 * class `none` gets `none`.
 *
 * @example
 * ```ts
 * import { planUndo } from "./undo_plan.ts";
 * import { BlobStore } from "../core/blob_store.ts";
 * import { unknownEffect } from "../core/effect.ts";
 * const plan = await planUndo(unknownEffect("x"), { blobs: new BlobStore(":memory:"), snapshots: null });
 * plan.kind; // "impossible"
 * ```
 */
export async function planUndo(effect: Effect, stores: UndoStores): Promise<UndoPlan> {
  const need = effect.undo;
  if (effect.class === "none") {
    // "No side effect" is a claim too: a call that says so but lists paths it writes would run
    // with nothing to undo it.
    const writes = [...effect.writes, ...effect.writesOutside];
    if (writes.length > 0) {
      throw new UndoPlanError(`class none claimed, but the call writes ${writes.join(", ")}`);
    }
    return { kind: "none" };
  }
  if (effect.class === "irreversible" && need.kind === "files" && !effect.sandboxed) {
    // Irreversible in effect (git's control files: what git ran cannot be called back), but the
    // prior bytes can still be put back; a failure to keep them is not a reason to refuse.
    try {
      const unique = [...new Set(need.paths)];
      return {
        kind: "files",
        files: stores.blobs.batch(() => unique.map((p) => planFile(p, stores.blobs))),
      };
    } catch (e) {
      return { kind: "impossible", why: `${effect.reason} (${errorMessage(e)})` };
    }
  }
  if (effect.class === "irreversible" || effect.class === "unknown") {
    return {
      kind: "impossible",
      why: need.kind === "impossible" ? need.why : `class ${effect.class}: ${effect.reason}`,
    };
  }
  // class reversible: the inverse must be prepared and checked, or the call does not run.
  switch (need.kind) {
    case "none":
      throw new UndoPlanError("the effect names no inverse to prepare");
    case "impossible":
      throw new UndoPlanError(need.why);
    case "call":
      // The inverse is a call the undo will make through the guard; what is prepared is its
      // exact name and arguments, recorded in the intent before the action runs.
      return { kind: "call", tool: need.tool, args: need.args };
    case "files": {
      if (need.paths.length === 0) throw new UndoPlanError("the effect lists no files to restore");
      const unique = [...new Set(need.paths)];
      return {
        kind: "files",
        files: stores.blobs.batch(() => unique.map((p) => planFile(p, stores.blobs))),
      };
    }
    case "snapshot": {
      if (!stores.snapshots) throw new UndoPlanError("no snapshot store is available");
      let id: string;
      try {
        id = await stores.snapshots.capture(need.root, need.readOnly);
      } catch (e) {
        throw new UndoPlanError(`workspace snapshot failed: ${errorMessage(e)}`);
      }
      let ok = false;
      try {
        ok = await stores.snapshots.verify(id);
      } catch (e) {
        throw new UndoPlanError(
          `snapshot ${id.slice(0, 12)} cannot be verified: ${errorMessage(e)}`,
        );
      }
      if (!ok) throw new UndoPlanError(`snapshot ${id.slice(0, 12)} is missing or damaged`);
      const notes = stores.snapshots.lastNotes?.() ?? [];
      return {
        kind: "snapshot",
        root: need.root,
        readOnly: need.readOnly,
        before: id,
        ...(notes.length > 0 ? { notes } : {}),
      };
    }
  }
}

/**
 * sha256 of a file's bytes, or null when absent (used for post-state and the clobber check).
 *
 * @example
 * ```ts
 * import { fileHashOrNull } from "./undo_plan.ts";
 * fileHashOrNull("/nonexistent/file"); // null
 * ```
 */
export function fileHashOrNull(path: string): string | null {
  // Never waits on a FIFO nor follows a link at the path: what is there is named, not read.
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") return "not-a-file:symlink";
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return `not-a-file:${st.isDirectory() ? "directory" : "special"}`;
    return sha256Hex(new Uint8Array(readFileSync(fd)));
  } finally {
    closeSync(fd);
  }
}

/**
 * Records the state an action left, for the undo's clobber check.
 *
 * @example
 * ```ts
 * import { capturePostState } from "./undo_plan.ts";
 * import { BlobStore } from "../core/blob_store.ts";
 * const s = await capturePostState({ kind: "none" }, { blobs: new BlobStore(":memory:"), snapshots: null });
 * s.kind; // "none"
 * ```
 */
export async function capturePostState(plan: UndoPlan, stores: UndoStores): Promise<PostState> {
  switch (plan.kind) {
    case "none":
    case "impossible":
    case "call":
      return { kind: "none" };
    case "files":
      return {
        kind: "files",
        files: plan.files.map((f) => ({ path: f.path, sha256: fileHashOrNull(f.path) })),
      };
    case "staged":
      throw new Error("a staged command's post-state comes from its apply");
    case "snapshot": {
      if (!stores.snapshots) throw new Error("no snapshot store");
      // Untrusted code wrote here: every path is looked at, whatever a watcher reported.
      const after = await stores.snapshots.capture(plan.root, plan.readOnly, { full: true });
      const notes = stores.snapshots.lastNotes?.() ?? [];
      return { kind: "snapshot", root: plan.root, after, ...(notes.length > 0 ? { notes } : {}) };
    }
  }
}

/**
 * What the model and the record are told about the state an action left: that it could not be
 * recorded (undo then needs --force), or what its undo snapshot left out (FIFOs, paths too long,
 * sparse or huge files). Empty when there is nothing to say.
 *
 * @example
 * ```ts
 * import { postStateNote } from "./undo_plan.ts";
 * postStateNote({ kind: "none" }); // ""
 * ```
 */
export function postStateNote(after: PostState | null, postError?: string): string {
  let out = "";
  if (postError) {
    out += `\n(note: the state after this action could not be recorded: ${postError}; undoing ` +
      "it will need --force)";
  }
  const notes = after?.kind === "snapshot" ? after.notes ?? [] : [];
  if (notes.length > 0) {
    out += `\n(note: the undo snapshot left out: ${notes.slice(0, 10).join("; ")}` +
      `${notes.length > 10 ? `; and ${notes.length - 10} more` : ""})`;
  }
  return out;
}
