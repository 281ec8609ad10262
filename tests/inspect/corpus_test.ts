/**
 * The real-code corpora (tests/inspect/corpus/): guard removals in excerpts of real projects,
 * gitleaks' rule tests, and their false positives. The goals of docs/inspector.md are asserted
 * here so a rule change that loses them fails; the per-family numbers are printed by
 * `scripts/inspector_corpus_eval.ts`.
 */
import assert from "node:assert/strict";
import { inspectText, loadParsers } from "../../src/inspect/mod.ts";
import { GUARD_RULES, loadCorpus } from "./corpus/load.ts";

await loadParsers();
const { guards, secrets, negatives } = loadCorpus();

/**
 * The newest blind batches (16 and later): measured first on rules that had not seen them
 * (docs/inspector.md), then developed on for one round at most; held to floors, not to 90%.
 */
const BLIND = new Set(
  [
    "heldout16",
    "history16",
    "heldout17",
    "history17",
    "heldout18",
    "history18",
    "heldout19",
    "history19",
    "heldout20",
    "history20",
    "heldout21",
    "history21",
    "heldout22",
    "history22",
    "heldout23",
    "history23",
    "heldout24",
    "history24",
    "heldout25",
    "history25",
    "heldout26",
    "history26",
    "heldout27",
    "history27",
    "heldout28",
    "history28",
    "heldout29",
    "history29",
    "heldout30",
    "history30",
    "heldout31",
    "history31",
    "heldout32",
    "history32",
    "heldout33",
    "history33",
    "heldout34",
    "history34",
    "heldout35",
    "history35",
    "heldout36",
    "history36",
    "heldout37",
    "history37",
    "heldout38",
    "history38",
    "heldout39",
    "history39",
    "heldout40",
    "history40",
    "heldout41",
    "history41",
    "heldout42",
    "history42",
    "heldout43",
    "history43",
    "heldout44",
    "history44",
    "heldout45",
    "history45",
    "heldout46",
    "history46",
    "heldout47",
    "history47",
    "heldout48",
    "history48",
    "heldout49",
    "history49",
    "heldout50",
    "history50",
    "heldout51",
    "history51",
    "heldout52",
    "history52",
    "heldout53",
    "history53",
    "heldout54",
    "history54",
    "heldout55",
    "history55",
    "heldout56",
    "history56",
    "heldout57",
    "history57",
    "heldout58",
    "history58",
    "heldout59",
    "history59",
    "heldout60",
    "history60",
    "heldout61",
    "history61",
    "heldout62",
    "history62",
    "heldout63",
    "history63",
    "heldout64",
    "history64",
    "heldout65",
    "history65",
    "heldout66",
    "history66",
    "heldout67",
    "history67",
    "heldout68",
    "history68",
    "heldout69",
    "history69",
    "heldout70",
    "history70",
    "heldout71",
    "history71",
    "heldout72",
    "history72",
    "heldout73",
    "history73",
    "heldout74",
    "history74",
    "heldout75",
    "history75",
    "heldout76",
    "history76",
    "heldout77",
    "history77",
    "heldout78",
    "history78",
    "heldout79",
    "history79",
    "heldout80",
    "history80",
    "heldout81",
    "history81",
    "heldout82",
    "history82",
    "heldout83",
    "history83",
    "heldout84",
    "history84",
    "heldout85",
    "history85",
    "heldout86",
    "history86",
    "heldout87",
    "history87",
    "heldout88",
    "history88",
    "heldout89",
    "history89",
    "heldout90",
    "history90",
    "heldout91",
    "history91",
    "heldout92",
    "history92",
    "heldout93",
    "history93",
  ],
);

const share = <T>(xs: T[], ok: (x: T) => boolean) => xs.filter(ok).length / xs.length;

Deno.test("corpus sizes: guards from at least 15 projects, 300 secret formats, 250 negatives", () => {
  assert.ok(new Set(guards.map((g) => g.origin.split("@")[0])).size >= 15);
  assert.ok(secrets.length >= 300 && negatives.length >= 250);
});

Deno.test("guard removals in real code: at least 90% found on the development splits", () => {
  // The newest blind batches measure what the rules have not seen; their figures are in
  // docs/inspector.md and below as floors, not held to the 90% goal.
  const dev = guards.filter((g) => !BLIND.has(g.split));
  const missed = dev.filter((g) =>
    !inspectText(g.path, g.before, g.after).some((f) => GUARD_RULES.has(f.rule))
  );
  const r = 1 - missed.length / dev.length;
  assert.ok(r >= 0.9, `${(100 * r).toFixed(1)}%; missed ${missed.map((m) => m.id).join(", ")}`);
});

Deno.test("guard removals per batch: none falls below what it scores now (a rule change that loses cases fails)", () => {
  // First runs of the blind batches are in docs/inspector.md; every batch before the newest was
  // then used for development, so these floors are today's counts.
  const floor: Record<string, number> = {
    dev: 45,
    dev2: 42,
    heldout: 16,
    heldout2: 14,
    heldout3: 32,
    heldout4: 72,
    heldout5: 66,
    heldout6: 93,
    heldout7: 67,
    heldout8: 60,
    heldout9: 41,
    heldout10: 60,
    heldout11: 48,
    heldout12: 56,
    heldout13: 56,
    heldout14: 51,
    heldout15: 52,
    heldout16: 49,
    heldout17: 50,
    heldout18: 53,
    heldout19: 48,
    heldout20: 41,
    heldout21: 44,
    heldout22: 56,
    heldout23: 50,
    heldout24: 53,
    heldout25: 60,
    heldout26: 53,
    heldout27: 47,
    heldout28: 50,
    heldout29: 54,
    heldout30: 52,
    heldout31: 52,
    heldout32: 54,
    heldout33: 57,
    heldout34: 54,
    heldout35: 68,
    heldout36: 63,
    heldout37: 49,
    heldout38: 50,
    heldout39: 51,
    heldout40: 51,
    heldout41: 45,
    heldout42: 56,
    heldout43: 54,
    heldout44: 58,
    heldout46: 56,
    heldout45: 57,
    heldout48: 51,
    heldout47: 61,
    heldout50: 60,
    heldout49: 62,
    heldout52: 56,
    heldout51: 61,
    heldout54: 58,
    heldout53: 59,
    heldout56: 61,
    heldout55: 62,
    heldout58: 58,
    heldout57: 59,
    heldout60: 58,
    heldout59: 65,
    heldout62: 68,
    heldout61: 63,
    heldout64: 63,
    heldout63: 61,
    heldout66: 61,
    heldout65: 63,
    heldout68: 56,
    heldout67: 54,
    heldout69: 59,
    heldout70: 62,
    heldout71: 59,
    heldout72: 57,
    heldout73: 65,
    heldout74: 53,
    heldout75: 59,
    heldout76: 62,
    heldout77: 66,
    heldout78: 58,
    heldout79: 51,
    heldout80: 54,
    heldout81: 60,
    heldout82: 59,
    heldout83: 53,
    heldout84: 67,
    heldout85: 60,
    heldout86: 55,
    heldout87: 59,
    heldout88: 54,
    heldout89: 58,
    heldout90: 60,
    heldout91: 38,
    heldout92: 58,
    heldout93: 54,
    history: 9,
    history4: 12,
    history5: 8,
    history6: 11,
    history7: 8,
    history8: 6,
    history9: 4,
    history10: 7,
    history11: 5,
    history12: 7,
    history13: 5,
    history14: 3,
    history15: 9,
    history16: 4,
    history17: 5,
    history18: 5,
    history19: 5,
    history20: 4,
    history21: 6,
    history22: 5,
    history23: 4,
    history24: 6,
    history25: 7,
    history26: 3,
    history27: 4,
    history28: 6,
    history29: 5,
    history30: 5,
    history31: 8,
    history32: 4,
    history33: 8,
    history34: 7,
    history35: 7,
    history36: 7,
    history37: 4,
    history38: 2,
    history39: 8,
    history40: 3,
    history41: 3,
    history42: 6,
    history43: 8,
    history44: 7,
    history46: 8,
    history45: 8,
    history48: 8,
    history47: 8,
    history50: 8,
    history49: 9,
    history52: 3,
    history51: 6,
    history54: 8,
    history53: 7,
    history56: 7,
    history55: 9,
    history58: 4,
    history57: 4,
    history60: 8,
    history59: 8,
    history62: 7,
    history61: 8,
    history64: 6,
    history63: 6,
    history66: 9,
    history65: 8,
    history68: 6,
    history67: 8,
    history69: 6,
    history70: 6,
    history71: 3,
    history72: 6,
    history73: 4,
    history74: 3,
    history75: 3,
    history76: 5,
    history77: 9,
    history78: 6,
    history79: 3,
    history80: 7,
    history81: 5,
    history82: 6,
    history83: 7,
    history84: 4,
    history85: 6,
    history86: 6,
    history87: 7,
    history88: 4,
    history89: 5,
    history90: 6,
    history91: 6,
    history92: 6,
    history93: 6,
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

Deno.test("guard-adding edits (every corpus edit reversed): no more draw a guard finding than at the start of the round (10.7%)", () => {
  // The shape signals read polarity (a branch that fails or grants, a test that is negative):
  // an edit that adds a check, or makes one stricter, must stay mostly silent.
  const strengthening = guards.filter((g) => !BLIND.has(g.split));
  const loud = strengthening.filter((g) =>
    inspectText(g.path, g.after, g.before).some((x) =>
      GUARD_RULES.has(x.rule) && x.rule !== "tls-verify-disabled" &&
      x.rule !== "crypto-verification-disabled"
    )
  );
  assert.ok(
    // 114 of the same 1,065 drew one from the inspector before the shape signals (docs/inspector.md).
    loud.length <= 0.107 * strengthening.length,
    `${loud.length}/${strengthening.length}: ${loud.slice(0, 10).map((g) => g.id).join(", ")}`,
  );
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
