import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_POLICY } from "../../src/plane/default_policy.ts";
import {
  compilePolicy,
  defaultPolicy,
  type GateInput,
  loadEffectivePolicy,
  policyDigest,
} from "../../src/plane/policy.ts";
import { canonicalJson } from "../../src/core/canonical_json.ts";
import { sha256Hex } from "../../src/core/hash.ts";
import { RetieError } from "../../src/core/errors.ts";

function input(over: Partial<GateInput> = {}): GateInput {
  return {
    class: "none",
    tool: "read",
    maxSeverity: null,
    risk: 0,
    mode: "default",
    readsOutside: false,
    writesOutside: false,
    headless: false,
    yes: false,
    outOfScope: null,
    untrustedInput: false,
    network: false,
    external: false,
    sandboxed: false,
    ...over,
  };
}

const rule = (id: string, match: Record<string, unknown>, decision: string) => ({
  id,
  match,
  decision,
  justification: `test rule ${id} says ${decision}`,
});

Deno.test("policy: strictest matching rule wins, whatever the order", () => {
  for (
    const rules of [
      [
        rule("a", { tools: ["edit"] }, "allow"),
        rule("b", { classes: ["reversible"] }, "deny"),
        rule("c", { tools: ["edit"] }, "ask"),
      ],
      [
        rule("b", { classes: ["reversible"] }, "deny"),
        rule("c", { tools: ["edit"] }, "ask"),
        rule("a", { tools: ["edit"] }, "allow"),
      ],
    ]
  ) {
    const p = compilePolicy({ name: "t", rules });
    const d = p.evaluate(input({ class: "reversible", tool: "edit" }));
    assert.equal(d.decision, "deny");
    assert.equal(d.rule, "b");
    assert.deepEqual([...d.matched].sort(), ["a", "b", "c"]);
  }
  const p = compilePolicy({
    name: "t",
    rules: [rule("a", { tools: ["edit"] }, "allow"), rule("c", { tools: ["edit"] }, "ask")],
  });
  assert.equal(p.evaluate(input({ tool: "edit" })).rule, "c");
});

Deno.test("policy: no matching rule means deny", () => {
  const p = compilePolicy({ name: "t", rules: [rule("reads", { classes: ["none"] }, "allow")] });
  const d = p.evaluate(input({ class: "reversible", tool: "edit" }));
  assert.equal(d.decision, "deny");
  assert.equal(d.rule, null);
  assert.match(d.justification, /no rule matches/);
  // the built-in policy has no rule for unclassified tools
  const u = defaultPolicy().evaluate(input({ class: "unknown", tool: "mcp__x" }));
  assert.equal(u.decision, "deny");
  assert.equal(u.rule, null);
});

Deno.test("policy: retie-default decisions", () => {
  const p = defaultPolicy();
  assert.equal(p.evaluate(input()).decision, "allow");
  assert.equal(p.evaluate(input({ readsOutside: true })).decision, "ask");
  assert.equal(p.evaluate(input({ class: "reversible", tool: "edit" })).decision, "allow");
  assert.equal(p.evaluate(input({ class: "irreversible", tool: "bash" })).decision, "ask");
  const outside = p.evaluate(input({ class: "reversible", tool: "write", writesOutside: true }));
  assert.equal(outside.decision, "deny");
  assert.equal(outside.rule, "write-outside");
  // plan mode is read-only
  assert.equal(
    p.evaluate(input({ mode: "plan", class: "reversible", tool: "edit" })).decision,
    "deny",
  );
  assert.equal(p.evaluate(input({ mode: "plan", class: "none", tool: "bash" })).decision, "deny");
  assert.equal(p.evaluate(input({ mode: "plan" })).decision, "allow");
  // inspector severity / risk escalate a reversible edit
  const sev = p.evaluate(
    input({ class: "reversible", tool: "edit", maxSeverity: "high", risk: 40 }),
  );
  assert.equal(sev.decision, "ask");
  assert.equal(sev.rule, "high-severity-finding");
  assert.equal(
    p.evaluate(input({ class: "reversible", tool: "edit", maxSeverity: "medium", risk: 20 }))
      .decision,
    "allow",
  );
  assert.equal(p.evaluate(input({ class: "reversible", tool: "edit", risk: 80 })).decision, "ask");
  // delegation scope
  const scope = p.evaluate(
    input({ class: "reversible", tool: "edit", outOfScope: "after expiry x" }),
  );
  assert.equal(scope.decision, "deny");
  assert.equal(scope.rule, "outside-delegation");
  // untrusted input then external side effects
  assert.equal(
    p.evaluate(
      input({
        class: "irreversible",
        tool: "bash",
        untrustedInput: true,
        external: true,
        yes: true,
      }),
    ).decision,
    "deny",
  );
});

Deno.test("policy: headless turns ask into deny unless --yes", () => {
  const p = defaultPolicy();
  const h = p.evaluate(input({ class: "irreversible", tool: "bash", headless: true }));
  assert.equal(h.decision, "deny");
  assert.equal(h.ruleDecision, "ask");
  assert.equal(h.rule, "irreversible");
  assert.match(h.justification, /headless/);
  const y = p.evaluate(input({ class: "irreversible", tool: "bash", headless: true, yes: true }));
  assert.equal(y.decision, "allow");
  assert.equal(y.approvedBy, "--yes");
  const i = p.evaluate(input({ class: "irreversible", tool: "bash" }));
  assert.equal(i.decision, "ask");
  assert.equal(i.approvedBy, null);
  // --yes never loosens a deny
  assert.equal(p.evaluate(input({ class: "unknown", tool: "x", yes: true })).decision, "deny");
  assert.equal(
    p.evaluate(input({ class: "reversible", tool: "write", writesOutside: true, yes: true }))
      .decision,
    "deny",
  );
  // reads outside the workspace and high findings ask, so headless they are denied
  const ro = p.evaluate(input({ readsOutside: true, headless: true }));
  assert.deepEqual([ro.decision, ro.rule], ["deny", "read-outside"]);
  const hi = p.evaluate(
    input({ class: "reversible", tool: "edit", maxSeverity: "high", headless: true }),
  );
  assert.deepEqual([hi.decision, hi.rule], ["deny", "high-severity-finding"]);
});

Deno.test("policy: identity is name@first 12 hex of sha256 of canonical JSON, and stable", () => {
  const p = defaultPolicy();
  const expected = sha256Hex(canonicalJson(DEFAULT_POLICY)).slice(0, 12);
  assert.equal(p.digest, expected);
  assert.equal(p.identity, `retie-default@${expected}`);
  // key order and a fresh compile do not change it
  const reverseKeys = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(reverseKeys)
      : v && typeof v === "object"
      ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]))
      : v;
  const reordered = reverseKeys(DEFAULT_POLICY) as typeof DEFAULT_POLICY;
  assert.notEqual(JSON.stringify(reordered), JSON.stringify(DEFAULT_POLICY));
  assert.equal(policyDigest(reordered), expected);
  assert.equal(compilePolicy(structuredClone(DEFAULT_POLICY)).identity, p.identity);
  // any rule change changes it
  const changed = structuredClone(DEFAULT_POLICY);
  changed.rules[0].decision = "ask";
  assert.notEqual(policyDigest(changed), expected);
});

Deno.test("policy: an invalid file is refused with the path of the offending rule and why", () => {
  const dir = Deno.makeTempDirSync();
  try {
    mkdirSync(join(dir, ".retie"));
    const file = join(dir, ".retie", "policy.json");
    writeFileSync(
      file,
      JSON.stringify({
        name: "proj",
        rules: [
          rule("ok", { tools: ["edit"] }, "allow"),
          {
            id: "bad-one",
            match: { classes: ["maybe"] },
            decision: "perhaps",
            justification: "because I say so",
          },
          rule("empty", {}, "allow"),
        ],
      }),
    );
    assert.throws(() => loadEffectivePolicy(dir), (e: unknown) => {
      assert.ok(e instanceof RetieError);
      assert.equal(e.exitCode, 2);
      assert.ok(e.message.includes(file), e.message);
      assert.match(e.message, /rules\[1\] \(id "bad-one"\)\.match\.classes\[0\]: /);
      assert.match(e.message, /rules\[1\] \(id "bad-one"\)\.decision: .*allow/);
      assert.match(e.message, /rules\[2\] \(id "empty"\)\.match: an empty match/);
      return true;
    });
    writeFileSync(file, "{ not json");
    assert.throws(() => loadEffectivePolicy(dir), /not JSON/);
    writeFileSync(
      file,
      JSON.stringify({ name: "proj", rules: [rule("reversible", { tools: ["x"] }, "deny")] }),
    );
    assert.throws(
      () => loadEffectivePolicy(dir),
      /rules\[0\] \(id "reversible"\)\.id: duplicates a retie-default rule id/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("policy: project rules add to retie-default and change the identity", () => {
  const dir = Deno.makeTempDirSync();
  try {
    assert.equal(loadEffectivePolicy(dir).identity, defaultPolicy().identity);
    mkdirSync(join(dir, ".retie"));
    writeFileSync(
      join(dir, ".retie", "policy.json"),
      JSON.stringify({ name: "strict", rules: [rule("no-bash", { tools: ["bash"] }, "deny")] }),
    );
    const p = loadEffectivePolicy(dir);
    assert.match(p.identity, /^retie-default\+strict@[0-9a-f]{12}$/);
    assert.equal(
      p.evaluate(input({ class: "irreversible", tool: "bash", yes: true })).decision,
      "deny",
    );
    assert.equal(p.evaluate(input({ class: "reversible", tool: "edit" })).decision, "allow");
    assert.equal(p.doc.rules.length, DEFAULT_POLICY.rules.length + 1);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
