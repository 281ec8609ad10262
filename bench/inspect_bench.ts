/**
 * Inspector speed: one edit of a typical source file (the guard calls this on every write/edit
 * preview), and a large file.
 */
import { inspectText } from "../src/inspect/mod.ts";

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
