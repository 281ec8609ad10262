/**
 * Trains the learned guard signal (`src/inspect/guard_model.ts`): a logistic model over the
 * features of `src/inspect/guard_features.ts`, written to `src/inspect/data/guard_model.json`.
 *
 * - Positives: the guard corpus's edits (guards removed or weakened) of batches up to `--through`.
 * - Negatives: the same edits reversed (guards added back), the even half of the ordinary commits
 *   of projects not in later batches (`scripts/corpus_commits_build.ts`), and the even half of
 *   the benign release edits (`scripts/inspector_fp.ts`). The odd halves and every later batch
 *   stay out, to measure the model on (`scripts/inspector_corpus_eval.ts`,
 *   `scripts/inspector_commits.ts`, `scripts/inspector_fp.ts`).
 *
 * Only edits the changed-line signals read are used (their hunks are non-empty: something about
 * security is around). Training is deterministic: a seeded shuffle, 30 passes of stochastic
 * gradient descent with a decaying step, L2 0.0005; features seen fewer than 3 times are dropped,
 * weights under 0.02 are pruned.
 *
 * Run: `deno run -A scripts/guard_model_train.ts [--through 45] [--threshold 1]`
 * (the commits corpus at `$COMMITS`, default `/work/data/commits.jsonl`).
 *
 * @module
 */
import { existsSync } from "node:fs";
import { collectEdits } from "./inspector_fp.ts";
import { batchOf, commitHeldOut, loadCorpus } from "../tests/inspect/corpus/load.ts";
import { hunks } from "../src/inspect/guard_hunks.ts";
import { editFeatures } from "../src/inspect/guard_features.ts";

const arg = (name: string, dflt: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : dflt;
};
const THROUGH = Number(arg("--through", "45"));
const THRESHOLD = Number(arg("--threshold", "1"));
const COMMITS = Deno.env.get("COMMITS") ?? "/work/data/commits.jsonl";
const OUT = new URL("../src/inspect/data/guard_model.json", import.meta.url).pathname;

/** The features of an edit, or null when the changed-line signals would not read it. */
function features(path: string, before: string, after: string): string[] | null {
  const bl = before.split("\n");
  const hs = hunks(bl, after.split("\n"), path);
  return hs.length === 0 ? null : editFeatures(path, bl, hs);
}

const rows: { f: string[]; y: number }[] = [];
const take = (f: string[] | null, y: number) => f && rows.push({ f, y });
const { guards } = loadCorpus();
const used = { pos: 0, rev: 0, commits: 0, benign: 0 };
for (const g of guards) {
  if (batchOf(g.split) > THROUGH) continue;
  used.pos += take(features(g.path, g.before ?? "", g.after), 1) ? 1 : 0;
  used.rev += take(features(g.path, g.after, g.before ?? ""), 0) ? 1 : 0;
}
if (existsSync(COMMITS)) {
  const heldOut = commitHeldOut(guards, THROUGH);
  for (const line of Deno.readTextFileSync(COMMITS).split("\n")) {
    if (!line) continue;
    const c = JSON.parse(line);
    if (heldOut(c.repo)) continue;
    used.commits += take(features(c.path, c.before, c.after), 0) ? 1 : 0;
  }
} else console.error(`${COMMITS}: not found (build it with scripts/corpus_commits_build.ts)`);
let k = 0;
for (const e of collectEdits()) {
  if (e.before === null || e.after === null || k++ % 2 === 1) continue;
  used.benign += take(features(e.path, e.before, e.after), 0) ? 1 : 0;
}

const counts = new Map<string, number>();
for (const r of rows) for (const t of r.f) counts.set(t, (counts.get(t) ?? 0) + 1);
const index = new Map<string, number>();
for (const [t, c] of [...counts].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
  if (c >= 3) index.set(t, index.size);
}
const X = rows.map((r) => r.f.map((t) => index.get(t)).filter((x): x is number => x !== undefined));
const w = new Float64Array(index.size);
let bias = 0;
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const order = rows.map((_, i) => i);
for (let epoch = 0; epoch < 30; epoch++) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const step = 0.1 / (1 + epoch * 0.2);
  for (const i of order) {
    let z = bias;
    for (const j of X[i]) z += w[j];
    const g = 1 / (1 + Math.exp(-z)) - rows[i].y;
    bias -= step * g;
    for (const j of X[i]) w[j] -= step * (g + 0.0005 * w[j]);
  }
}
const weights: Record<string, number> = {};
for (const [t, j] of index) if (Math.abs(w[j]) >= 0.02) weights[t] = Math.round(w[j] * 1e4) / 1e4;
const model = {
  version: 1,
  features: "guard_features.ts v2",
  trainedOn: { throughBatch: THROUGH, ...used },
  threshold: THRESHOLD,
  bias: Math.round(bias * 1e4) / 1e4,
  weights,
};
Deno.writeTextFileSync(OUT, JSON.stringify(model, null, 2) + "\n");
console.log(
  `${Object.keys(weights).length} weights from ${rows.length} edits (${
    JSON.stringify(used)
  }) → ${OUT}`,
);
