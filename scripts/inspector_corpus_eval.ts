/**
 * Measures the inspector on the committed real-code corpora in `tests/inspect/corpus/`:
 * guard removals (recall per class, split dev/held-out), secret formats (recall) and hard
 * negatives (high findings). Prints a table; `--split dev|heldout` limits the guard corpus,
 * `--misses` lists what was missed, `--json` prints the numbers as JSON, `--reversed` also
 * counts the guard edits read backwards (a guard added or tightened: `quiet` rows are those
 * without a guard finding, `quiet-high` those without a high one).
 *
 * Usage: `deno run -A scripts/inspector_corpus_eval.ts [--split dev|heldout|heldout4|history4|…] [--misses] [--json] [--reversed]`
 *
 * @module
 */
import { inspectText, loadParsers } from "../src/inspect/mod.ts";
import { GUARD_RULES, loadCorpus } from "../tests/inspect/corpus/load.ts";

await loadParsers();
const args = new Set(Deno.args);
const split = Deno.args.includes("--split") ? Deno.args[Deno.args.indexOf("--split") + 1] : null;
const { guards, secrets, negatives } = loadCorpus();

const rows: Record<string, { n: number; hit: number }> = {};
const misses: string[] = [];
const bump = (k: string, ok: boolean) => {
  rows[k] ??= { n: 0, hit: 0 };
  rows[k].n++;
  if (ok) rows[k].hit++;
};
for (const g of guards) {
  if (split && g.split !== split) continue;
  const f = inspectText(g.path, g.before, g.after).filter((x) => GUARD_RULES.has(x.rule));
  const ok = f.length > 0;
  bump(`guards/${g.split}/${g.cls}`, ok);
  bump(`guards/${g.split}`, ok);
  if (!ok) misses.push(`guard ${g.id}`);
  else if (args.has("--details")) {
    console.log(
      g.id,
      f.map((x) => `${x.rule}:${x.severity}:${x.detail}`).join(" | "),
    );
  }
}
if (args.has("--reversed")) {
  for (const g of guards) {
    if (split && g.split !== split) continue;
    const f = inspectText(g.path, g.after, g.before).filter((x) => GUARD_RULES.has(x.rule));
    bump("reversed/quiet", f.length === 0);
    bump("reversed/quiet-high", !f.some((x) => x.severity === "high"));
  }
}
for (const s of secrets) {
  const f = inspectText(s.path, s.before, s.after).filter((x) => x.rule === "hardcoded-secret");
  const ok = f.length > 0;
  bump(`secrets/${s.split}`, ok);
  if (!ok) misses.push(`secret ${s.id} ${s.path}: ${s.after.slice(0, 90).replace(/\n/g, "⏎")}`);
}
for (const n of negatives) {
  const f = inspectText(n.path, n.before, n.after).filter((x) => x.severity === "high");
  bump(`negatives/${n.split}`, f.length === 0);
  if (f.length) {
    misses.push(
      `negative ${n.id} ${n.path}: ${f.map((x) => x.rule).join(",")}: ${
        n.after.slice(0, 90).replace(/\n/g, "⏎")
      }`,
    );
  }
}
if (args.has("--json")) console.log(JSON.stringify(rows));
else {
  for (const [k, v] of Object.entries(rows).sort()) {
    const what = k.startsWith("negatives") ? "no high" : k.startsWith("reversed") ? "ok" : "found";
    console.log(`${k.padEnd(36)} ${what} ${v.hit}/${v.n} = ${(100 * v.hit / v.n).toFixed(1)}%`);
  }
}
if (args.has("--misses")) console.log(misses.join("\n"));
