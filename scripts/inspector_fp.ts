/**
 * Measures the inspector's false-positive rate on real, ordinary edits:
 * - npm: every JS/TS file that differs between consecutive releases of the packages pinned in
 *   `scripts/inspector_fp_manifest.json` (fetched by `scripts/inspector_fp_fetch.ts`);
 * - Python stdlib: every `.py` file that differs between CPython 3.11.2 (Debian) and 3.11.7 (pyenv);
 * - Python packages: every `.py` file that differs between a Debian `python3-*` package and the
 *   pyenv site-packages copy of the same package.
 *
 * Prints the share of edits with a high finding and every high finding for review.
 * Usage: `deno run --allow-all scripts/inspector_fp.ts [--all-changes] [--json] [--medium]`
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { inspectText, loadParsers } from "../src/inspect/mod.ts";
import type { Finding } from "../src/inspect/types.ts";
import { DATA, MANIFEST } from "./inspector_fp_fetch.ts";

if (!Deno.args.includes("--no-parser")) await loadParsers();

/** One real edit: a file in two consecutive versions. */
export interface Edit {
  source: "npm" | "python-stdlib" | "python-packages";
  /** e.g. `express 4.21.1→4.21.2` */
  origin: string;
  path: string;
  /** null: the file was created (only with `--all-changes`). */
  before: string | null;
  /** null: the file was deleted (only with `--all-changes`). */
  after: string | null;
}

const JS = /\.(js|mjs|cjs|jsx|ts|mts|cts|tsx)$/;
/** Generated bundles are not edits anyone made; skip them. */
const GENERATED = /(^|\/)(dist|umd|bundle|browser-dist)\/|\.min\.|\.bundle\.|\.map$/;
const MAX_BYTES = 1 << 20;

function walk(
  dir: string,
  keep: (rel: string) => boolean,
  root = dir,
  out: string[] = [],
): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name === "__pycache__" || e.name === "site-packages") {
        continue;
      }
      walk(p, keep, root, out);
    } else if (e.isFile() && keep(relative(root, p))) out.push(relative(root, p));
  }
  return out;
}

function read(p: string): string | null {
  try {
    if (statSync(p).size > MAX_BYTES) return null;
    return readFileSync(p, "utf8");
  } catch {
    return null;
  }
}

/** Also count created and deleted files (`--all-changes`), not just modified ones. */
const ALL_CHANGES = Deno.args.includes("--all-changes");

/**
 * Edits from two trees: files present in both whose text differs (with `--all-changes`, also
 * files only in the newer tree, as created, and only in the older one, as deleted).
 */
function diffTrees(
  source: Edit["source"],
  origin: string,
  older: string,
  newer: string,
  keep: (rel: string) => boolean,
  prefix = "",
  allChanges = ALL_CHANGES,
): Edit[] {
  const out: Edit[] = [];
  const newFiles = walk(newer, keep).sort();
  for (const rel of newFiles) {
    const after = read(join(newer, rel));
    const before = existsSync(join(older, rel))
      ? read(join(older, rel))
      : allChanges
      ? null
      : undefined;
    if (after === null || before === undefined || after === before) continue;
    if (before === null && existsSync(join(older, rel))) continue; // too large to read
    // A file in a folder the older tree lacks is packaging (e.g. Debian ships CPython's tests
    // separately), not an edit.
    if (before === null && !existsSync(dirname(join(older, rel)))) continue;
    out.push({ source, origin, path: prefix + rel, before, after });
  }
  if (allChanges) {
    const kept = new Set(newFiles);
    for (const rel of walk(older, keep).sort()) {
      if (kept.has(rel)) continue;
      const before = read(join(older, rel));
      if (before !== null) out.push({ source, origin, path: prefix + rel, before, after: null });
    }
  }
  return out;
}

/** Every edit of the corpus, in a stable order. */
export function collectEdits(): Edit[] {
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  const edits: Edit[] = [];
  for (const [pkg, versions] of Object.entries(manifest.npm as Record<string, string[]>)) {
    for (let i = 1; i < versions.length; i++) {
      const dir = (v: string) => join(DATA, "npm", pkg.replace("/", "__"), v, "package");
      if (!existsSync(dir(versions[i])) || !existsSync(dir(versions[i - 1]))) {
        throw new Error(`missing ${pkg}@${versions[i]}: run scripts/inspector_fp_fetch.ts first`);
      }
      edits.push(...diffTrees(
        "npm",
        `${pkg} ${versions[i - 1]}→${versions[i]}`,
        dir(versions[i - 1]),
        dir(versions[i]),
        (rel) => JS.test(rel) && !GENERATED.test(rel),
        `${pkg}/`,
      ));
    }
  }
  const py = manifest.python as {
    older: string;
    newer: string;
    packages: { name: string; older: "debian" | "pyenv" }[];
  };
  edits.push(...diffTrees(
    "python-stdlib",
    "CPython 3.11.2→3.11.7",
    py.older,
    py.newer,
    (rel) => rel.endsWith(".py"),
    "Lib/",
    // Debian ships most of CPython's tests in another package: files only on one side are
    // packaging, not edits, so the stdlib contributes modified files only.
    false,
  ));
  for (const { name: pkg, older } of py.packages ?? []) {
    const debian = join("/usr/lib/python3/dist-packages", pkg);
    const pyenv = join(py.newer, "site-packages", pkg);
    edits.push(...diffTrees(
      "python-packages",
      older === "debian" ? `${pkg} (Debian → pyenv)` : `${pkg} (pyenv → Debian)`,
      older === "debian" ? debian : pyenv,
      older === "debian" ? pyenv : debian,
      (rel) => rel.endsWith(".py"),
      `${pkg}/`,
    ));
  }
  return edits;
}

if (import.meta.main) {
  const t0 = performance.now();
  const edits = collectEdits();
  const bySource = new Map<string, { edits: number; high: number; medium: number }>();
  const highs: { origin: string; finding: Finding }[] = [];
  const mediums: { origin: string; finding: Finding }[] = [];
  let withHigh = 0;
  let inspectMs = 0;
  for (const e of edits) {
    const s = bySource.get(e.source) ?? { edits: 0, high: 0, medium: 0 };
    bySource.set(e.source, s);
    s.edits++;
    const t1 = performance.now();
    const f = inspectText(e.path, e.before, e.after);
    inspectMs += performance.now() - t1;
    const h = f.filter((x) => x.severity === "high");
    if (h.length > 0) {
      withHigh++;
      s.high++;
      for (const finding of h) highs.push({ origin: e.origin, finding });
    }
    if (f.some((x) => x.severity === "medium")) s.medium++;
    for (const finding of f.filter((x) => x.severity !== "high")) {
      mediums.push({ origin: e.origin, finding });
    }
  }
  const ms = performance.now() - t0;
  const summary = {
    edits: edits.length,
    editsWithHigh: withHigh,
    highRatePercent: Number((100 * withHigh / edits.length).toFixed(2)),
    bySource: Object.fromEntries(bySource),
    ms: Math.round(ms),
    inspectMs: Math.round(inspectMs),
  };
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify({ summary, highs, mediums }, null, 2));
  } else {
    console.log(JSON.stringify(summary, null, 2));
    for (const { origin, finding: f } of highs) {
      console.log(
        `HIGH ${f.rule} (${f.before} → ${f.after}) ${f.path}  [${origin}]${
          f.detail ? `\n     ${f.detail}` : ""
        }`,
      );
    }
    if (Deno.args.includes("--medium")) {
      for (const { origin, finding: f } of mediums) {
        console.log(
          `${f.severity} ${f.rule} (${f.before} → ${f.after}) ${f.path}  [${origin}]${
            f.detail ? `\n     ${f.detail}` : ""
          }`,
        );
      }
    }
  }
}
