import { collectEdits } from "./inspector_fp.ts";
import { inspectText, loadParsers, RULES } from "../src/inspect/mod.ts";
await loadParsers();
const edits = collectEdits();
const tm: Record<string, number> = {};
for (const r of RULES as any[]) {
  for (const k of ["count", "items", "inRemovedDefinitions"]) {
    const f = r[k];
    if (typeof f !== "function") continue;
    r[k] = (...a: unknown[]) => { const t = performance.now(); try { return f.apply(r, a); } finally { tm[`${r.id}.${k}`] = (tm[`${r.id}.${k}`] ?? 0) + performance.now() - t; } };
  }
}
const t = performance.now();
for (const e of edits) inspectText(e.path, e.before, e.after);
console.log("all", (performance.now() - t).toFixed(0));
for (const [k, v] of Object.entries(tm).sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(k, v.toFixed(0));
