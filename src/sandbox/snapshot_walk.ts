/**
 * Listing a tree for a snapshot, fast: GNU `find -printf` run inside bwrap (read-only view of the
 * tree, no network, no capabilities) lists 20k paths with their stat in a fraction of the time
 * that 20k `Deno.lstatSync` calls take here. When it cannot run (no bwrap, no find, an unreadable
 * directory), the in-process walk is used instead; both give the same listing.
 *
 * @module
 */
import { run } from "../exec.ts";
import { BWRAP_PATH } from "./check.ts";
import { type Seen, walkTree } from "./snapshot_tree.ts";
import { detectHostLayout } from "./run.ts";

/** One listed path: its stat and, for a symlink, its target. */
export interface Listed extends Seen {
  rel: string;
  target: string;
}

const FIND = "/usr/bin/find";
const FORMAT = "%y\\0%m\\0%s\\0%T@\\0%C@\\0%i\\0%P\\0%l\\0";

function findPattern(s: string): string {
  return s.replace(/[\\*?[\]]/g, (c) => "\\" + c);
}

/**
 * Lists `root` in-process (sync readDir + lstat, never following links).
 *
 * @example
 * ```ts
 * import { listTreeSync } from "./snapshot_walk.ts";
 * listTreeSync(Deno.cwd(), []).length;
 * ```
 */
export function listTreeSync(root: string, exclude: string[]): Listed[] {
  const out: Listed[] = [];
  walkTree(root, new Set(exclude), (rel, abs, s) => {
    const l = s as Listed;
    l.rel = rel;
    l.target = s.kind === "l" ? Deno.readLinkSync(abs) : "";
    out.push(l);
  });
  return out;
}

/** "1732890000.1234567890" → 1732890000123 (truncated, like Deno's lstat; no float rounding). */
function msOf(s: string): number {
  const [sec, frac = ""] = s.split(".");
  return Number(sec) * 1000 + Number((frac + "000").slice(0, 3));
}

/** Parses `find -printf FORMAT` output; undefined when it is not well-formed.
 *
 * @example
 * ```ts
 * import { parseFindListing } from "./snapshot_walk.ts";
 * parseFindListing("d\0755\04096\01.5\01.5\02\0\0\0")?.[0].rel; // "."
 * ```
 */
export function parseFindListing(text: string): Listed[] | undefined {
  const f = text.split("\0");
  if (f.length % 8 !== 1 || f[f.length - 1] !== "") return undefined;
  const out: Listed[] = [];
  for (let i = 0; i + 8 <= f.length; i += 8) {
    const y = f[i];
    out.push({
      kind: y === "f" ? "f" : y === "d" ? "d" : y === "l" ? "l" : "other",
      mode: parseInt(f[i + 1], 8) & 0o7777,
      size: Number(f[i + 2]),
      mtime: msOf(f[i + 3]),
      ctime: msOf(f[i + 4]),
      ino: Number(f[i + 5]),
      rel: f[i + 6] === "" ? "." : f[i + 6],
      target: y === "l" ? f[i + 7] : "",
    });
  }
  return out;
}

/**
 * Lists `root` (a real path) except the relative `exclude` paths: with find in bwrap for trees of
 * at least the find threshold (when find runs), else in-process.
 *
 * @example
 * ```ts
 * import { listTree } from "./snapshot_walk.ts";
 * const entries = await listTree("/work/project", ["node_modules"], 20_000);
 * ```
 */
export async function listTree(
  root: string,
  exclude: string[],
  expectedEntries = 0,
): Promise<Listed[]> {
  if (expectedEntries < findThreshold) return listTreeSync(root, exclude);
  const viaFind = await listWithFind(root, exclude).catch(() => undefined);
  return viaFind ?? listTreeSync(root, exclude);
}

/**
 * Trees expected to hold at least this many paths are listed with find. Off by default: on this
 * VM under load, find in bwrap (~180 ms for 20k paths) plus parsing its output (80–220 ms) was not
 * faster than the in-process walk (200–490 ms); see bench/snapshot_bench.ts for both.
 */
let findThreshold = Infinity;

/**
 * Sets the size from which {@link listTree} uses find (Infinity: never; 0: always).
 *
 * @example
 * ```ts
 * import { setFindThreshold } from "./snapshot_walk.ts";
 * setFindThreshold(5000);
 * ```
 */
export function setFindThreshold(n: number): void {
  findThreshold = n;
}

async function listWithFind(root: string, exclude: string[]): Promise<Listed[] | undefined> {
  try {
    if (!Deno.statSync(FIND).isFile || !Deno.statSync(BWRAP_PATH).isFile) return undefined;
  } catch {
    return undefined;
  }
  if (!Deno.lstatSync(root).isDirectory) {
    throw new Error(`snapshot root (${root}): not a directory`);
  }
  const layout = detectHostLayout();
  const args = ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"];
  args.push("--new-session", "--die-with-parent");
  for (const d of layout.dirs) args.push("--ro-bind", d, d);
  for (const [l, t] of Object.entries(layout.symlinks)) args.push("--symlink", t, l);
  args.push("--proc", "/proc", "--dev", "/dev", "--ro-bind", root, root, "--");
  args.push(FIND, root);
  if (exclude.length > 0) {
    args.push("(");
    exclude.forEach((e, i) => {
      if (i > 0) args.push("-o");
      args.push("-path", findPattern(`${root}/${e}`));
    });
    args.push(")", "-prune", "-o");
  }
  args.push("-printf", FORMAT);
  const r = await run({ cmd: BWRAP_PATH, args, maxOutputBytes: 1 << 30, timeoutMs: 120_000 });
  if (r.code !== 0 || r.droppedStdout > 0) return undefined;
  return parseFindListing(new TextDecoder().decode(r.stdout));
}
