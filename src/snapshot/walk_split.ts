/**
 * The pieces of a two-thread listing that both threads share: the plan (the first levels of the
 * tree, listed by the calling thread, and the directories below them as chunks), claiming chunks
 * through a shared counter, walking a chunk, and the compact form a worker sends its part in.
 *
 * Chunks are claimed one at a time rather than split up front: a worker that is still starting, or
 * a thread the VM descheduled, simply claims fewer, and the estimate only has to order the chunks.
 *
 * @module
 */
import { type Seen, toSeen, walkTree } from "./tree.ts";

/** One listed path: its stat and, for a symlink, its target. */
export interface Listed extends Seen {
  rel: string;
  target: string;
}

/**
 * Entry counts from the previous capture, to balance the split: either that capture's paths (the
 * keys of its index) or a function giving the number of paths at and under a relative directory.
 */
export type SplitHint = ReadonlyMap<string, unknown> | ((dir: string) => number | undefined);

/** A listing job for the worker (`control`: one Int32, the next chunk to claim). */
export interface ListingJob {
  id: number;
  root: string;
  exclude: string[];
  chunks: string[];
  control: SharedArrayBuffer;
}

/** The worker's part of a job: `count` paths as rel/target pairs in `text` ("\0"-joined) and six
 * numbers each in `nums` (kind, mode, size, mtime, ctime, ino); or the error that stopped it. */
export type ListingReply =
  | { id: number; count: number; text: string; nums: Float64Array }
  | { id: number; error: string };

/** Without a hint, first levels are listed until there are this many chunks (at most 3 levels). */
const MIN_CHUNKS = 8;
const MAX_LEVELS = 3;
/** With a hint, a chunk estimated above 1/SPLIT_PARTS of the tree is split into its children. */
const SPLIT_PARTS = 8;
const MAX_SPLITS = 32;

const KINDS: Seen["kind"][] = ["f", "d", "l", "other", "long"];
const NUMS = 6;

/**
 * A walked path as a {@link Listed}: the stat object itself, with its rel path and link target.
 *
 * @example
 * ```ts
 * import { listedOf } from "./walk_split.ts";
 * const seen = { kind: "d" as const, mode: 0o755, size: 0, mtime: 0, ctime: 0, ino: 1 };
 * listedOf(".", Deno.cwd(), seen).rel; // "."
 * ```
 */
export function listedOf(rel: string, abs: string, seen: Seen): Listed {
  const l = seen as Listed;
  l.rel = rel;
  l.target = seen.kind === "l" ? Deno.readLinkSync(abs) : "";
  return l;
}

/**
 * Lists the root and its first levels (like {@link walkTree}: lstat, links not followed, excluded
 * rel paths skipped) and returns them with the directories below them as chunks, largest estimate
 * first. Throws what the walk would throw (root not a directory, a path gone between readDir and
 * lstat).
 *
 * @example
 * ```ts
 * import { planListing } from "./walk_split.ts";
 * const { listed, chunks } = planListing(Deno.cwd(), new Set(), 0);
 * ```
 */
export function planListing(
  root: string,
  exclude: ReadonlySet<string>,
  expected: number,
  hint?: SplitHint,
): { listed: Listed[]; chunks: string[] } {
  const rootInfo = Deno.lstatSync(root);
  if (!rootInfo.isDirectory) throw new Error(`snapshot root (${root}): not a directory`);
  const listed = [listedOf(".", root, toSeen(rootInfo))];
  const weightOf = hint === undefined || typeof hint === "function" ? hint : countsFrom(hint);
  let chunks: { rel: string; weight: number }[] = [];
  const expand = (dir: string) => {
    const absDir = dir === "" ? root : root + "/" + dir;
    for (const e of Deno.readDirSync(absDir)) {
      const rel = dir === "" ? e.name : dir + "/" + e.name;
      if (exclude.size > 0 && exclude.has(rel)) continue;
      const abs = absDir + "/" + e.name;
      const seen = toSeen(Deno.lstatSync(abs));
      listed.push(listedOf(rel, abs, seen));
      if (seen.kind === "d") chunks.push({ rel, weight: weightOf?.(rel) ?? 0 });
    }
  };
  expand("");
  if (weightOf) {
    // A directory holding much of the tree is split into its children, so neither thread is
    // left with one chunk that is most of the work.
    const total = Math.max(expected, chunks.reduce((n, c) => n + c.weight, listed.length));
    for (let n = 0; n < MAX_SPLITS && chunks.length > 0; n++) {
      let big = 0;
      for (let i = 1; i < chunks.length; i++) if (chunks[i].weight > chunks[big].weight) big = i;
      if (chunks[big].weight * SPLIT_PARTS <= total) break;
      expand(chunks.splice(big, 1)[0].rel);
    }
    chunks.sort((a, b) => b.weight - a.weight);
  } else {
    for (let level = 1; level < MAX_LEVELS && chunks.length > 0; level++) {
      if (chunks.length >= MIN_CHUNKS) break;
      const above = chunks;
      chunks = [];
      for (const c of above) expand(c.rel);
    }
  }
  return { listed, chunks: chunks.map((c) => c.rel) };
}

/** Paths at and under each directory, from the previous capture's paths; counted per parent on
 * first use (one pass over the paths for the root's children, one more per split directory). */
function countsFrom(prev: ReadonlyMap<string, unknown>): (dir: string) => number | undefined {
  const byParent = new Map<string, Map<string, number>>();
  return (dir) => {
    const slash = dir.lastIndexOf("/");
    const parent = slash < 0 ? "" : dir.slice(0, slash);
    let counts = byParent.get(parent);
    if (!counts) {
      counts = new Map();
      const prefix = parent === "" ? "" : parent + "/";
      for (const k of prev.keys()) {
        if (!k.startsWith(prefix) || k === ".") continue;
        const end = k.indexOf("/", prefix.length);
        const child = end < 0 ? k : k.slice(0, end);
        counts.set(child, (counts.get(child) ?? 0) + 1);
      }
      byParent.set(parent, counts);
    }
    return counts.get(dir);
  };
}

/**
 * Claims the next chunk of a job: its index, or -1 when all are taken.
 *
 * @example
 * ```ts
 * import { claimChunk } from "./walk_split.ts";
 * claimChunk(new Int32Array(new SharedArrayBuffer(4)), 2); // 0
 * ```
 */
export function claimChunk(control: Int32Array, chunks: number): number {
  const i = Atomics.add(control, 0, 1);
  return i < chunks ? i : -1;
}

/**
 * Walks what is under the chunk directory `dir` (itself listed by the plan), with the same
 * semantics and errors as {@link walkTree}; `visit` gets rel paths from the root.
 *
 * @example
 * ```ts
 * import { walkChunk } from "./walk_split.ts";
 * walkChunk(Deno.cwd(), "src", new Set(), (rel) => console.log(rel));
 * ```
 */
export function walkChunk(
  root: string,
  dir: string,
  exclude: ReadonlySet<string>,
  visit: (rel: string, abs: string, seen: Seen) => void,
): void {
  const prefix = dir + "/";
  const sub = new Set<string>();
  for (const e of exclude) if (e.startsWith(prefix)) sub.add(e.slice(prefix.length));
  walkTree(root + "/" + dir, sub, (rel, abs, seen) => {
    if (rel !== ".") visit(prefix + rel, abs, seen);
  });
}

/**
 * Collects walked paths in the compact form a worker replies with ({@link ListingReply}).
 *
 * @example
 * ```ts
 * import { PartWriter } from "./walk_split.ts";
 * const w = new PartWriter();
 * w.add("a", "", { kind: "f", mode: 0o644, size: 1, mtime: 2, ctime: 3, ino: 4 });
 * w.finish().count; // 1
 * ```
 */
export class PartWriter {
  #strings: string[] = [];
  #nums = new Float64Array(NUMS * 1024);
  #count = 0;

  /** Adds one path. */
  add(rel: string, target: string, s: Seen): void {
    if ((this.#count + 1) * NUMS > this.#nums.length) {
      const bigger = new Float64Array(this.#nums.length * 2);
      bigger.set(this.#nums);
      this.#nums = bigger;
    }
    const o = this.#count++ * NUMS;
    this.#nums[o] = KINDS.indexOf(s.kind);
    this.#nums[o + 1] = s.mode;
    this.#nums[o + 2] = s.size;
    this.#nums[o + 3] = s.mtime;
    this.#nums[o + 4] = s.ctime;
    this.#nums[o + 5] = s.ino;
    this.#strings.push(rel, target);
  }

  /** The collected part (its `nums` buffer can be transferred). */
  finish(): { count: number; text: string; nums: Float64Array } {
    return { count: this.#count, text: this.#strings.join("\0"), nums: this.#nums };
  }
}

/**
 * Appends the paths of a worker's part to `out` as {@link Listed} entries; false when the part is
 * not well-formed (then nothing is appended).
 *
 * @example
 * ```ts
 * import { PartWriter, readPart } from "./walk_split.ts";
 * const w = new PartWriter();
 * w.add("a", "", { kind: "f", mode: 0o644, size: 1, mtime: 2, ctime: 3, ino: 4 });
 * const out: import("./walk_split.ts").Listed[] = [];
 * readPart(w.finish(), out); // true; out[0].rel === "a"
 * ```
 */
export function readPart(
  part: { count: number; text: string; nums: Float64Array },
  out: Listed[],
): boolean {
  const { count, nums } = part;
  const strings = count === 0 ? [] : part.text.split("\0");
  if (strings.length !== 2 * count || nums.length < NUMS * count) return false;
  for (let i = 0; i < count; i++) {
    const kind = KINDS[nums[i * NUMS]];
    if (kind === undefined) return false;
  }
  for (let i = 0, o = 0; i < count; i++, o += NUMS) {
    out.push({
      kind: KINDS[nums[o]],
      mode: nums[o + 1],
      size: nums[o + 2],
      mtime: nums[o + 3],
      ctime: nums[o + 4],
      ino: nums[o + 5],
      rel: strings[2 * i],
      target: strings[2 * i + 1],
    });
  }
  return true;
}
