/**
 * How well the top-level statement splitter cuts real code: over the benign release-diff corpus
 * (`scripts/inspector_fp.ts`), every changed statement of each edit (both sides) is parsed on its
 * own, and the pieces that parse with syntax errors are counted per language — for the splitter
 * with each language's rules and, for comparison, with none (column zero only).
 *
 * Usage: `deno run -A scripts/inspect_split_stats.ts`
 *
 * @module
 */
import { changedStatements, type SplitLang, splitLangOf } from "../src/inspect/chunk.ts";
import { grammarOf, loadParsers, parse } from "../src/inspect/parser.ts";
import { collectEdits } from "./inspector_fp.ts";

await loadParsers();
const edits = collectEdits();
for (const mode of ["column zero only", "language rules"]) {
  const stats = new Map<string, { pieces: number; errors: number; chars: number; ms: number }>();
  for (const e of edits) {
    const g = grammarOf(e.path);
    if (!g || e.before === null || e.after === null) continue;
    const lang: SplitLang = mode === "language rules" ? splitLangOf(e.path) : "";
    const key = splitLangOf(e.path);
    const s = stats.get(key) ?? { pieces: 0, errors: 0, chars: 0, ms: 0 };
    const t0 = performance.now();
    const d = changedStatements(e.before, e.after, lang);
    s.ms += performance.now() - t0;
    for (const st of [...d.before, ...d.after]) {
      const r = parse(st.text, g);
      if (!r.ok) continue;
      s.pieces++;
      s.chars += st.text.length;
      if (r.hasError) s.errors++;
      r.release();
    }
    stats.set(key, s);
  }
  for (const [k, s] of stats) {
    console.log(
      `${mode.padEnd(17)} ${
        k.padEnd(7)
      } changed pieces ${s.pieces}, with syntax errors ${s.errors}` +
        ` (${(100 * s.errors / Math.max(1, s.pieces)).toFixed(1)}%), ${s.chars} chars, split ${
          s.ms.toFixed(0)
        } ms`,
    );
  }
}
