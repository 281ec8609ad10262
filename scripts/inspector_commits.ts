/**
 * The inspector on ordinary commits of security projects (`scripts/corpus_commits_build.ts`):
 * how many small real edits of auth code draw a guard-family finding, high or medium, and how
 * many of those come from the learned signal. The learned signal trains on the even half of the
 * commits of earlier batches' projects; the rest (its held-out part) is reported on its own.
 *
 * Run: `deno run -A scripts/inspector_commits.ts [--json]` (`$COMMITS`, default
 * `/work/data/commits.jsonl`).
 *
 * @module
 */
import { inspectText, loadParsers } from "../src/inspect/mod.ts";
import { commitHeldOut, GUARD_RULES, loadCorpus } from "../tests/inspect/corpus/load.ts";
import model from "../src/inspect/data/guard_model.json" with { type: "json" };

const COMMITS = Deno.env.get("COMMITS") ?? "/work/data/commits.jsonl";
await loadParsers();
const through = (model as { trainedOn?: { throughBatch?: number } }).trainedOn?.throughBatch ?? 0;
// The same split as the training script's: later projects, then the odd half, are held out.
const isHeldOut = commitHeldOut(loadCorpus().guards, through);

type Tally = { edits: number; guard: number; high: number; medium: number; learned: number };
const tally = (): Tally => ({ edits: 0, guard: 0, high: 0, medium: 0, learned: 0 });
const all = tally();
const heldOut = tally();
for (const line of Deno.readTextFileSync(COMMITS).split("\n")) {
  if (!line) continue;
  const c = JSON.parse(line);
  const held = isHeldOut(c.repo);
  const fs = inspectText(c.path, c.before, c.after).filter((f) => GUARD_RULES.has(f.rule));
  for (const t of held ? [all, heldOut] : [all]) {
    t.edits++;
    if (fs.length) t.guard++;
    if (fs.some((f) => f.severity === "high")) t.high++;
    else if (fs.some((f) => f.severity === "medium")) t.medium++;
    if (fs.some((f) => f.detail?.includes("learned signal"))) t.learned++;
  }
}
const pct = (n: number, d: number) => `${(100 * n / Math.max(1, d)).toFixed(1)}%`;
if (Deno.args.includes("--json")) console.log(JSON.stringify({ all, heldOut }));
else {
  for (const [name, t] of [["all", all], ["held out from training", heldOut]] as const) {
    console.log(
      `${name}: ${t.edits} commits; guard finding ${t.guard} (${
        pct(t.guard, t.edits)
      }), high ${t.high} (${
        pct(t.high, t.edits)
      }), medium only ${t.medium}; from the learned signal ${t.learned} (${
        pct(t.learned, t.edits)
      })`,
    );
  }
}
