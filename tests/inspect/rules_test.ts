/**
 * Every rule's own examples: positives fire that rule, negatives do not.
 */
import assert from "node:assert/strict";
import { inspectText, RULES } from "../../src/inspect/mod.ts";

for (const rule of RULES) {
  Deno.test(`${rule.id}: has a justification and examples`, () => {
    assert.ok(rule.justification.length > 40);
    assert.ok(rule.examples.positive.length >= 1, "needs a positive example");
    assert.ok(rule.examples.negative.length >= 1, "needs a negative example");
  });
  for (const ex of rule.examples.positive) {
    Deno.test(`${rule.id} fires: ${ex.name}`, () => {
      const f = inspectText(ex.path, ex.before, ex.after).filter((x) => x.rule === rule.id);
      assert.equal(f.length, 1, `expected ${rule.id} on ${ex.name}`);
      assert.equal(f[0].severity, rule.severity);
      if (rule.mode === "guard") assert.ok(f[0].after < f[0].before);
      else assert.ok(f[0].after > f[0].before);
    });
  }
  for (const ex of rule.examples.negative) {
    Deno.test(`${rule.id} silent: ${ex.name}`, () => {
      const f = inspectText(ex.path, ex.before, ex.after).filter((x) => x.rule === rule.id);
      assert.deepEqual(f, []);
    });
  }
}
