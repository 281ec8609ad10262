import assert from "node:assert/strict";
import { editFeatures } from "../../src/inspect/guard_features.ts";
import { type GuardModel, learnedSignal, scoreOf } from "../../src/inspect/guard_model.ts";
import { hunks } from "../../src/inspect/guard_hunks.ts";
import { inspectText, loadParsers } from "../../src/inspect/mod.ts";
import model from "../../src/inspect/data/guard_model.json" with { type: "json" };
import { batchOf, loadCorpus } from "./corpus/load.ts";

await loadParsers();
const shipped = model as GuardModel & { trainedOn: { throughBatch: number } };

/** The shipped model's score of an edit (null when the changed-line signals do not read it). */
function score(path: string, before: string, after: string): number | null {
  const bl = before.split("\n");
  const hs = hunks(bl, after.split("\n"), path);
  return hs.length ? scoreOf(editFeatures(path, bl, hs)) : null;
}

/** Guard removals written for this test (not from the corpus), each with its guard put back. */
const EDITS: [string, string, string][] = [
  [
    "app/auth/views.py",
    "def login(request, user):\n    if user is None or not user.is_active:\n        raise PermissionDenied()\n    return session_for(user)\n",
    "def login(request, user):\n    return session_for(user)\n",
  ],
  [
    "src/middleware/token.ts",
    "export function check(req: Req) {\n  const claims = verifyToken(req.headers.authorization);\n  if (claims.exp < Date.now() / 1000) {\n    throw new Unauthorized('expired');\n  }\n  return claims;\n}\n",
    "export function check(req: Req) {\n  const claims = verifyToken(req.headers.authorization);\n  return claims;\n}\n",
  ],
  [
    "internal/auth/session.go",
    "func (s *Store) Valid(tok string) bool {\n\tsess, ok := s.get(tok)\n\tif !ok || sess.Revoked {\n\t\treturn false\n\t}\n\treturn subtle.ConstantTimeCompare([]byte(sess.Token), []byte(tok)) == 1\n}\n",
    "func (s *Store) Valid(tok string) bool {\n\t_, ok := s.get(tok)\n\treturn ok\n}\n",
  ],
];

Deno.test("learned signal: the shipped model is whole and says where it was trained", () => {
  assert.equal(shipped.version, 1);
  assert.ok(Number.isFinite(shipped.bias) && Number.isFinite(shipped.threshold));
  assert.ok(Object.keys(shipped.weights).length > 1000);
  assert.ok(shipped.trainedOn.throughBatch >= 137);
});

Deno.test("learned signal: removing a guard scores higher than putting it back", () => {
  for (const [path, before, after] of EDITS) {
    const forward = score(path, before, after)!;
    const back = score(path, after, before)!;
    assert.ok(forward > shipped.threshold, `${path}: ${forward}`);
    assert.ok(back < forward && back <= shipped.threshold, `${path}: back ${back}`);
  }
});

Deno.test("learned signal: speaks only past the threshold, naming the line and the features", () => {
  const before = ["def ok(u):", "    x = 1", "    return u.ok and u.is_active"];
  const hunk = { removed: [{ n: 3, text: before[2] }], added: [{ n: 3, text: "    return u.ok" }] };
  const m = { version: 1, threshold: 1, bias: -1, weights: { "-active": 2.5, "+ok": -0.2 } };
  const s = learnedSignal("auth/a.py", before, [hunk], m)!;
  assert.equal(s.n, 3);
  assert.match(s.what, /^`return u\.ok and u\.is_active` learned signal \(score 1\.50: -active\)$/);
  assert.equal(learnedSignal("auth/a.py", before, [hunk], { ...m, threshold: 1.5 }), null);
});

Deno.test("learned signal: on the batches it was not trained on, it finds guard removals the rules miss", () => {
  // Floors at today's counts (docs/inspector.md has the measures); a retrained model resets them.
  // (It speaks only where no rule does: rules that find more leave it fewer to find.)
  const { guards } = loadCorpus();
  const held = guards.filter((g) => batchOf(g.split) > shipped.trainedOn.throughBatch);
  let learned = 0;
  let reversed = 0;
  for (const g of held) {
    if (inspectText(g.path, g.before, g.after).some((f) => f.detail?.includes("learned signal"))) {
      learned++;
    }
    if (inspectText(g.path, g.after, g.before).some((f) => f.detail?.includes("learned signal"))) {
      reversed++;
    }
  }
  assert.ok(learned >= 153, `${learned} found by the learned signal`);
  assert.ok(reversed <= 62, `${reversed} guard-adding edits drew it`);
});
