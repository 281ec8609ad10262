/**
 * Latency of one inspector call on a typical edit, as percentiles (deno bench shows p75/p99; the
 * goal is stated as p95). Each iteration edits a different line of a ~12 KB real-code file, and
 * the before-text differs every time too, so no parse is served from the cache (worst case: in a
 * session the before-text is usually the previous edit's after-text).
 *
 * Usage: `deno run -A scripts/inspect_latency.ts [N]`
 *
 * @module
 */
import { inspectText, loadParsers } from "../src/inspect/mod.ts";
import { loadCorpus } from "../tests/inspect/corpus/load.ts";

await loadParsers();
const n = Number(Deno.args[0] ?? 400);
const guards = loadCorpus().guards;
const sources = {
  python: guards.filter((g) => g.path.endsWith(".py")).map((g) => g.before ?? "").join("\n")
    .slice(0, 12_000),
  js: guards.filter((g) => /\.(js|ts)$/.test(g.path)).map((g) => g.before ?? "").join("\n")
    .slice(0, 12_000),
};
for (const [lang, text] of Object.entries(sources)) {
  const lines = text.split("\n");
  const path = lang === "python" ? "app/views.py" : "src/server.ts";
  const ms: number[] = [];
  for (let i = 0; i < n + 20; i++) {
    const b = [...lines];
    b[(i * 7) % b.length] += ` ${lang === "python" ? "#" : "//"} rev ${i}`;
    const a = [...b];
    const k = (i * 13 + 5) % a.length;
    a[k] = i % 3 === 0 ? "" : a[k] + " ";
    const before = b.join("\n");
    const after = a.join("\n");
    const t0 = performance.now();
    inspectText(path, before, after);
    if (i >= 20) ms.push(performance.now() - t0); // first 20: warm-up
  }
  ms.sort((x, y) => x - y);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(2);
  console.log(
    `${lang} ${(text.length / 1000).toFixed(1)} KB, ${n} edits: p50 ${p(0.5)} ms, p95 ${
      p(0.95)
    } ms, p99 ${p(0.99)} ms`,
  );
}
