/**
 * Reading a stage: the overlay's upper layer says what a command changed. Each touched path gets
 * its prior state stored (files' bytes in the blob store, a replaced or deleted directory as a
 * manifest of its whole subtree) and a digest of the state the apply will leave. Cost: what the
 * command changed, never the size of the workspace.
 *
 * Upper-layer entries: a whiteout (character device 0:0) deletes the workspace entry; a directory
 * that is a directory in the workspace too is merged (its entries are read in turn) unless it is
 * opaque (the command removed and re-created it), in which case it replaces the workspace's; any
 * other entry replaces what the workspace has at that path.
 *
 * @module
 */
import { join } from "node:path";
import type { BlobStore } from "../core/blob_store.ts";
import { type Stage, STAGE_LAYOUT, type StagedPath, type StagedRecord } from "../core/staging.ts";
import {
  ABSENT_DIGEST,
  changedSince,
  confinedPath,
  isWhiteout,
  listTree,
  lstatOrNull,
  manifestDigest,
  PATH_LIMIT,
  readState,
  stateDigest,
  storedBytes,
} from "./upper_state.ts";
import { errorMessage } from "../core/errors.ts";

/** Limits on what one staged command may leave for undo. */
export interface StageLimits {
  /** Prior bytes one action may store (default 2 GiB). */
  maxPriorBytes: number;
  /** Largest single file whose prior bytes are read (apparent size; default 8 GiB). */
  maxFileBytes: number;
}

/** Default {@link StageLimits}. */
export const DEFAULT_STAGE_LIMITS: StageLimits = {
  maxPriorBytes: 2 * 1024 ** 3,
  maxFileBytes: 8 * 1024 ** 3,
};

/** One change to apply, in apply order (parents before children). */
export interface UpperChange {
  rel: string;
  /** "remove": a whiteout; "move": the upper entry replaces the workspace's; "mode": chmod a dir. */
  op: "remove" | "move" | "mode";
  mode?: number;
}

/** The opaque-directory list the runner wrote (upper-relative paths). */
function readOpaque(stageDir: string): Set<string> {
  try {
    const t = Deno.readTextFileSync(join(stageDir, STAGE_LAYOUT.opaque));
    return new Set(t.split("\0").filter((x) => x !== ""));
  } catch {
    return new Set();
  }
}

/**
 * Lists the changes in a stage's upper layer, in apply order.
 *
 * @example
 * ```ts
 * import { upperChanges } from "./upper_read.ts";
 * // upperChanges("/state/ledger.db.staging/act_…", "/work/p"); // [{ rel: "a.txt", op: "move" }]
 * ```
 */
export function upperChanges(stageDir: string, root: string): UpperChange[] {
  const upper = join(stageDir, STAGE_LAYOUT.upper);
  const opaque = readOpaque(stageDir);
  const out: UpperChange[] = [];
  const rootSt = Deno.lstatSync(root);
  const upSt = Deno.lstatSync(upper);
  if (((upSt.mode ?? 0) & 0o7777) !== ((rootSt.mode ?? 0) & 0o7777)) {
    out.push({ rel: "", op: "mode", mode: (upSt.mode ?? 0) & 0o7777 });
  }
  const visit = (rel: string) => {
    const dir = rel ? join(upper, rel) : upper;
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    for (const n of names) {
      const r = rel ? `${rel}/${n}` : n;
      if (Math.max(root.length, upper.length) + 1 + r.length > PATH_LIMIT) {
        throw new Error(
          `${r.slice(0, 60)}… (${r.length} characters): longer than the system's path limit`,
        );
      }
      const st = Deno.lstatSync(join(upper, r));
      if (isWhiteout(st)) {
        out.push({ rel: r, op: "remove" });
        continue;
      }
      if (st.isDirectory && !opaque.has(r)) {
        const lo = lstatOrNull(join(root, r));
        if (lo?.isDirectory) {
          const m = (st.mode ?? 0) & 0o7777;
          if (m !== ((lo.mode ?? 0) & 0o7777)) out.push({ rel: r, op: "mode", mode: m });
          visit(r);
          continue;
        }
      }
      out.push({ rel: r, op: "move" });
    }
  };
  visit("");
  return out;
}

function short(rel: string): string {
  return rel.length > 120 ? `${rel.slice(0, 120)}…` : rel;
}

function under(rel: string, prefixes: string[]): boolean {
  return prefixes.some((p) => rel === p || rel.startsWith(p + "/") || p.startsWith(rel + "/"));
}

/**
 * Reads the stage and stores the prior state of every touched path (nothing is applied). Paths
 * changed in the workspace since the command started are conflicts (left as they are); what cannot
 * be recorded or applied is listed in `refused` (then nothing is applied).
 *
 * @example
 * ```ts
 * import { collectStage } from "./upper_read.ts";
 * // const rec = collectStage(stage, blobs, [".git/hooks"]);
 * // rec.paths.map((p) => p.path); // exactly what the command changed
 * ```
 */
export function collectStage(
  stage: Stage,
  blobs: BlobStore,
  readOnly: string[],
  limits: StageLimits = DEFAULT_STAGE_LIMITS,
): { record: StagedRecord; changes: UpperChange[] } {
  const record: StagedRecord = {
    root: stage.root,
    paths: [],
    conflicts: [],
    refused: [],
    priorBytes: 0,
  };
  let changes: UpperChange[];
  try {
    changes = upperChanges(stage.dir, stage.root);
  } catch (e) {
    record.refused.push(`the changes cannot be read: ${errorMessage(e)}`);
    return { record, changes: [] };
  }
  const upper = join(stage.dir, STAGE_LAYOUT.upper);
  const crossDevice = Deno.statSync(stage.dir).dev !== Deno.statSync(stage.root).dev;
  const kept: UpperChange[] = [];
  blobs.batch(() => {
    for (const c of changes) {
      if (record.refused.length > 0) return;
      if (c.rel !== "" && under(c.rel, readOnly)) {
        record.refused.push(`${c.rel}: a protected or read-only path changed`);
        continue;
      }
      try {
        const full = c.rel === "" ? stage.root : confinedPath(stage.root, c.rel);
        // Written by someone else since the command started: theirs is kept, the command's dropped.
        const tree = c.op === "mode" ? [["", readState(full)] as const] : listTree(full);
        const touched = tree.some(([rel]) => {
          const st = lstatOrNull(rel ? join(full, rel) : full);
          return changedSince(st, stage.startedMs);
        });
        if (touched) {
          record.conflicts.push(c.rel);
          continue;
        }
        for (const [, s] of tree) {
          if (s.type === "file" && s.size > limits.maxFileBytes) {
            throw new Error(`a ${s.size}-byte file is over the limit of ${limits.maxFileBytes}`);
          }
        }
        const p: StagedPath = { path: c.rel, before: { type: "absent" }, after: "" };
        if (c.op === "mode") {
          p.before = readState(full);
          p.modeOnly = true;
          p.after = stateDigest(upper + (c.rel ? `/${c.rel}` : ""), true);
        } else {
          const prior = listTree(full, blobs);
          p.before = prior[0][1];
          if (prior.length > 1) {
            p.tree = blobs.put(new TextEncoder().encode(JSON.stringify(prior)));
          }
          record.priorBytes += prior.reduce((n, [, s]) => n + storedBytes(s), 0);
          if (c.op === "remove") p.after = ABSENT_DIGEST;
          else {
            const next = listTree(join(upper, c.rel));
            // Across filesystems the apply copies, and a FIFO cannot be copied (no mkfifo).
            if (crossDevice && next.some(([, s]) => s.type === "fifo")) {
              throw new Error("a FIFO cannot be applied across filesystems (stage ≠ workspace)");
            }
            p.after = manifestDigest(next);
          }
        }
        if (record.priorBytes > limits.maxPriorBytes) {
          throw new Error(
            `undo data would be ${record.priorBytes} bytes, over the cap of ${limits.maxPriorBytes}`,
          );
        }
        record.paths.push(p);
        kept.push(c);
      } catch (e) {
        const why = errorMessage(e);
        record.refused.push(
          `${short(c.rel || ".")}: ${why.length > 300 ? `${why.slice(0, 300)}…` : why}`,
        );
      }
    }
  });
  return { record, changes: kept };
}
