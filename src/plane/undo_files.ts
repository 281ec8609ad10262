/**
 * The restore of a files undo: prior bytes put back, files the action made removed (with the
 * directories it made for them, when empty), all inside the session's workspace and never through
 * a link: every existing parent is checked one component at a time before anything changes
 * (`core/nofollow.ts`), and `--force` does not lift this.
 *
 * @module
 */
import { dirname } from "node:path";
import type { BlobStore } from "../core/blob_store.ts";
import {
  checkDirChain,
  ConfinementError,
  removeNoFollow,
  writeFileNoFollow,
} from "../core/nofollow.ts";
import type { PlannedFile } from "./undo_plan.ts";
import { trustRealPath } from "../core/paths.ts";

/**
 * Restores `files` inside `root` (the session's workspace); returns the paths restored. Throws
 * with the reason (a `ConfinementError` naming the path) when a parent is a link or outside.
 *
 * @example
 * ```ts
 * import { restoreFiles } from "./undo_files.ts";
 * import { BlobStore } from "../core/blob_store.ts";
 * restoreFiles([], new BlobStore(":memory:"), "/work/p"); // []
 * ```
 */
export function restoreFiles(
  files: PlannedFile[],
  blobs: BlobStore,
  root: string | null,
): string[] {
  if (root === null) {
    throw new Error("the session's workspace is not on record, so the files cannot be confined");
  }
  // The workspace as recorded: checkDirChain refuses any symlink on the way down from it.
  const real = trustRealPath(root);
  // Every file inside the workspace, every existing parent a real directory, before any change.
  for (const f of files) {
    try {
      checkDirChain(real, dirname(f.path));
    } catch (e) {
      if (e instanceof ConfinementError && /does not exist$/.test(e.message)) continue;
      throw e;
    }
  }
  // Fetch every blob first: a missing blob must not leave a half-restored set of files.
  const bytes = files.map((f) => (f.blob === null ? null : blobs.get(f.blob)));
  const restored: string[] = [];
  files.forEach((f, i) => {
    const b = bytes[i];
    if (b === null) {
      removeNoFollow(real, f.path);
      // Directories the action created for the file go too, when nothing else is in them.
      for (const d of f.dirs ?? []) {
        try {
          removeNoFollow(real, d);
        } catch (e) {
          if ((e as { code?: string }).code === "ENOENT") continue;
          break; // not empty (or not ours): its ancestors are not empty either
        }
      }
    } else {
      // Written beside the file and renamed over it: a symlink planted at the path since the
      // action is replaced, never followed; a parent swapped for one stops the undo.
      writeFileNoFollow(real, f.path, b, f.mode ?? 0o644, true);
    }
    restored.push(f.path);
  });
  return restored;
}
