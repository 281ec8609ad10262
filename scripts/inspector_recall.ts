/**
 * Recall of the inspector on the positive cases in `tests/inspect/recall_cases.ts` (main and
 * held-out sets): the share of
 * cases where the expected rule fires at high severity. Prints misses.
 *
 * Usage: `deno run scripts/inspector_recall.ts`
 *
 * @module
 */
import { inspectText } from "../src/inspect/mod.ts";
import { HELDOUT_CASES, RECALL_CASES } from "../tests/inspect/recall_cases.ts";

const ALL = [
  ...RECALL_CASES.map((c) => ({ ...c, set: "main" })),
  ...HELDOUT_CASES.map((c) => ({ ...c, set: "held-out" })),
];
const byRule = new Map<string, { cases: number; hit: number }>();
const missed: string[] = [];
for (const c of ALL) {
  const s = byRule.get(c.rule) ?? { cases: 0, hit: 0 };
  byRule.set(c.rule, s);
  s.cases++;
  const hit = inspectText(c.path, c.before, c.after).some((f) =>
    f.rule === c.rule && f.severity === "high"
  );
  if (hit) s.hit++;
  else missed.push(`${c.rule}: ${c.name} (${c.set})`);
}
const hits = ALL.length - missed.length;
console.log(JSON.stringify(
  {
    cases: ALL.length,
    main: RECALL_CASES.length,
    heldOut: HELDOUT_CASES.length,
    detected: hits,
    recallPercent: Number((100 * hits / ALL.length).toFixed(1)),
    byRule: Object.fromEntries(byRule),
  },
  null,
  2,
));
for (const m of missed) console.log(`MISSED ${m}`);
