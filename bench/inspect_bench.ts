/**
 * Inspector speed: one edit of a typical source file (the guard calls this on every write/edit
 * preview), and a large file.
 */
import { inspectText, loadParsers } from "../src/inspect/mod.ts";
import { loadCorpus } from "../tests/inspect/corpus/load.ts";

// The guard loads the parsers once per process before it inspects; so does the bench.
await loadParsers();

const VIEW = `from django.contrib.auth.decorators import login_required
from django.shortcuts import render


@login_required
def detail(request, pk):
    obj = get_object_or_404(Order, pk=pk, owner=request.user)  # owner check
    return render(request, "orders/detail.html", {"order": obj})
`;
const PY = VIEW.repeat(40); // ~12 KB
const PY_EDITED = PY.replace('"orders/detail.html"', '"orders/detail_v2.html"');
const JS =
  `app.post("/x", requireAuth, async (req, res) => { res.json(await f(req.body, "//x")); });\n`
    .repeat(150);
const JS_EDITED = JS + "// trailing comment\n";
const BIG = PY.repeat(40); // ~500 KB
const BIG_EDITED = BIG + "x = 1\n";

Deno.bench("inspectText: 12 KB Python edit", () => {
  inspectText("orders/views.py", PY, PY_EDITED);
});
Deno.bench("inspectText: 12 KB JS edit", () => {
  inspectText("src/routes.js", JS, JS_EDITED);
});
Deno.bench("inspectText: 500 KB Python edit", () => {
  inspectText("orders/big.py", BIG, BIG_EDITED);
});

// Real code: ~12 KB of excerpts from the guard corpus (Django REST framework, PyJWT, requests…)
// and a real ~12 KB TypeScript file, each with a one-line edit.
const corpus = loadCorpus().guards;
const realPy = corpus.filter((g) => g.path.endsWith(".py")).map((g) => g.before ?? "").join("\n")
  .slice(0, 12_000);
const realPyEdited = realPy.replace(/return /, "return  ");
const realTs = corpus.filter((g) => /\.(ts|js)$/.test(g.path)).map((g) => g.before ?? "").join("\n")
  .slice(0, 12_000);
const realTsEdited = realTs.replace(/return /, "return  ");

Deno.bench("inspectText: 12 KB real Python edit (parser)", () => {
  inspectText("rest_framework/views.py", realPy, realPyEdited);
});
Deno.bench("inspectText: 12 KB real JS/TS edit (parser)", () => {
  inspectText("src/verify.ts", realTs, realTsEdited);
});
Deno.bench("inspectText: 12 KB real Python, guard removed (parser)", () => {
  inspectText("rest_framework/views.py", realPy, realPy.replace(/\n[^\n]*raise [^\n]*\n/, "\n"));
});
