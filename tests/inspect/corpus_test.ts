/**
 * The real-code corpora (tests/inspect/corpus/): guard removals in excerpts of real projects,
 * gitleaks' rule tests, and their false positives. The goals of docs/inspector.md are asserted
 * here so a rule change that loses them fails; the per-family numbers are printed by
 * `scripts/inspector_corpus_eval.ts`.
 */
import assert from "node:assert/strict";
import { inspectText, loadParsers } from "../../src/inspect/mod.ts";
import { loadCorpus } from "./corpus/load.ts";

await loadParsers();
const { guards, secrets, negatives } = loadCorpus();
const GUARD_RULES = new Set([
  "auth-check-removed",
  "crypto-verification-removed",
  "tls-check-removed",
  "secure-default-weakened",
  "tls-verify-disabled",
  "crypto-verification-disabled",
]);

const share = <T>(xs: T[], ok: (x: T) => boolean) => xs.filter(ok).length / xs.length;

Deno.test("corpus sizes: guards from at least 15 projects, 300 secret formats, 250 negatives", () => {
  assert.ok(new Set(guards.map((g) => g.origin.split("@")[0])).size >= 15);
  assert.ok(secrets.length >= 300 && negatives.length >= 250);
});

Deno.test("guard removals in real code: at least 90% found on the development splits", () => {
  // The last blind batch (heldout9/history9) measures what the rules have not seen; its figure is
  // in docs/inspector.md and below it as a floor, not held to the 90% goal it does not meet.
  const dev = guards.filter((g) => g.split !== "heldout9" && g.split !== "history9");
  const missed = dev.filter((g) =>
    !inspectText(g.path, g.before, g.after).some((f) => GUARD_RULES.has(f.rule))
  );
  const r = 1 - missed.length / dev.length;
  assert.ok(r >= 0.9, `${(100 * r).toFixed(1)}%; missed ${missed.map((m) => m.id).join(", ")}`);
});

Deno.test("guard removals per batch: none falls below what it scores now (a rule change that loses cases fails)", () => {
  // The blind batches' first runs (docs/inspector.md): heldout6 78/97, history6 9/11, heldout7
  // 49/69, history7 6/9, heldout8 48/62, history8 5/7, heldout9 32/53, history9 2/8; 6, 7 and 8
  // were then used for development.
  const floor: Record<string, number> = {
    dev: 45,
    dev2: 42,
    heldout: 16,
    heldout2: 14,
    heldout3: 32,
    heldout4: 72,
    heldout5: 66,
    heldout6: 90,
    heldout7: 60,
    heldout8: 57,
    heldout9: 32,
    history: 9,
    history4: 9,
    history5: 6,
    history6: 10,
    history7: 6,
    history8: 5,
    history9: 2,
  };
  const found: Record<string, number> = {};
  for (const g of guards) {
    if (inspectText(g.path, g.before, g.after).some((f) => GUARD_RULES.has(f.rule))) {
      found[g.split] = (found[g.split] ?? 0) + 1;
    }
  }
  for (const [split, n] of Object.entries(floor)) {
    assert.ok((found[split] ?? 0) >= n, `${split}: ${found[split] ?? 0} found, was ${n}`);
  }
});

Deno.test("each guard edit's before-text has its guard: the reverse edit adds, never removes", () => {
  for (const g of guards.slice(0, 20)) {
    const f = inspectText(g.path, g.after, g.before).filter((x) =>
      GUARD_RULES.has(x.rule) && x.rule !== "tls-verify-disabled" &&
      x.rule !== "crypto-verification-disabled"
    );
    assert.deepEqual(f.map((x) => x.rule), [], g.id);
  }
});

Deno.test("secret formats from gitleaks' rule tests: at least 95% found", () => {
  const r = share(
    secrets,
    (s) => inspectText(s.path, s.before, s.after).some((f) => f.rule === "hardcoded-secret"),
  );
  assert.ok(r >= 0.95, `${(100 * r).toFixed(1)}%`);
});

Deno.test("gitleaks' false positives: at most 3% get a high finding", () => {
  const r = share(
    negatives,
    (n) => inspectText(n.path, n.before, n.after).some((f) => f.severity === "high"),
  );
  assert.ok(r <= 0.03, `${(100 * r).toFixed(1)}%`);
});
