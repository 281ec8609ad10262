import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { generateKeyPair, signHex } from "../../src/ledger/keys.ts";
import type { Delegation } from "../../src/ledger/types.ts";
import {
  checkScope,
  delegationHash,
  issueDelegation,
  verifyDelegation,
} from "../../src/ledger/delegation.ts";
import { RetieError } from "../../src/core/errors.ts";

const user = generateKeyPair();
const agent = generateKeyPair();
const sub = generateKeyPair();
const T0 = new Date("2026-03-01T00:00:00Z");
const T1 = new Date("2026-03-02T00:00:00Z");
const root = issueDelegation(user, agent.publicKey, {
  workspace: "/work/proj",
  classes: ["none", "reversible"],
  tools: ["edit", "read", "shell"],
  notBefore: T0,
  expires: T1,
});
const mid = new Date("2026-03-01T12:00:00Z");

Deno.test("delegation: a fresh delegation verifies; any altered field breaks its signature", () => {
  assert.equal(verifyDelegation(root), null);
  assert.equal(root.parent, null);
  assert.equal(root.issuer, user.publicKey);
  assert.match(delegationHash(root), /^[0-9a-f]{64}$/);
  for (
    const altered of [
      { ...root, workspace: "/" },
      { ...root, classes: [...root.classes, "irreversible"].sort() },
      { ...root, tools: ["*"] },
      { ...root, expires: "2027-01-01T00:00:00.000Z" },
      { ...root, agent: sub.publicKey },
    ]
  ) {
    assert.match(verifyDelegation(altered) ?? "", /signature does not verify/);
  }
  const other = issueDelegation(agent, sub.publicKey, {
    workspace: "/work/proj",
    classes: ["none"],
    tools: ["read"],
    notBefore: T0,
    expires: T1,
  });
  // Signed by the right key but claiming to be a root while naming a parent is rejected.
  assert.equal(verifyDelegation({ ...other, parent: "ab".repeat(32) }) !== null, true);
});

Deno.test("delegation: a sub-delegation that narrows verifies against its parent", () => {
  const child = issueDelegation(agent, sub.publicKey, {
    workspace: "/work/proj/src",
    classes: ["none"],
    tools: ["read"],
    notBefore: mid,
    expires: new Date("2026-03-01T18:00:00Z"),
  }, root);
  assert.equal(child.parent, delegationHash(root));
  assert.equal(verifyDelegation(child, root), null);
  assert.match(verifyDelegation(child) ?? "", /parent that was not supplied/);
  const stranger = issueDelegation(user, sub.publicKey, {
    workspace: "/work/proj",
    classes: ["none"],
    tools: ["*"],
    notBefore: T0,
    expires: T1,
  });
  assert.match(verifyDelegation(child, stranger) ?? "", /does not link to its parent/);
});

Deno.test("delegation: widening in any dimension is refused at issue time", () => {
  const base = {
    workspace: "/work/proj",
    classes: ["none"],
    tools: ["read"],
    notBefore: T0,
    expires: T1,
  };
  const cases: [Partial<typeof base>, RegExp][] = [
    [{ workspace: "/work" }, /workspace \/work widens/],
    [{ workspace: "/work/project2" }, /workspace \/work\/project2 widens/],
    [{ classes: ["none", "irreversible"] }, /class irreversible widens/],
    [{ tools: ["read", "fetch"] }, /tool fetch widens/],
    [{ tools: ["*"] }, /tool \* widens/],
    [{ notBefore: new Date("2026-02-28T00:00:00Z") }, /not-before .* earlier/],
    [{ expires: new Date("2026-03-03T00:00:00Z") }, /expiry .* later/],
  ];
  for (const [over, re] of cases) {
    assert.throws(
      () => issueDelegation(agent, sub.publicKey, { ...base, ...over }, root),
      (e: unknown) => e instanceof RetieError && re.test(e.message),
      `expected ${re} for ${JSON.stringify(over)}`,
    );
  }
  // Only the parent's agent may sub-delegate.
  assert.throws(
    () => issueDelegation(user, sub.publicKey, base, root),
    /is not the parent's agent/,
  );
});

Deno.test("delegation: a forged widening sub-delegation is flagged by verifyDelegation", () => {
  // Built by hand (issueDelegation refuses it) and correctly signed by the parent's agent.
  const wide = issueDelegation(agent, sub.publicKey, {
    workspace: "/",
    classes: ["none", "reversible", "irreversible"],
    tools: ["*"],
    notBefore: T0,
    expires: T1,
  });
  const relinked = issueDelegationWithParent(wide, root);
  assert.match(verifyDelegation(relinked, root) ?? "", /widens/);
});

/** Sets `parent` on a delegation and re-signs it with the agent key, as a forger would. */
function issueDelegationWithParent(d: Delegation, parent: Delegation): Delegation {
  const body = { ...d, parent: delegationHash(parent) };
  return { ...body, signature: signHex(agent, Buffer.from(delegationHash(body), "hex")) };
}

Deno.test("delegation: checkScope names the reason", () => {
  const at = (now: Date, over: Partial<{ tool: string; class: string; paths: string[] }> = {}) =>
    checkScope(root, {
      tool: "edit",
      class: "reversible",
      paths: ["/work/proj/a.py"],
      now,
      ...over,
    });
  assert.equal(at(mid), null);
  assert.equal(at(mid, { paths: [] }), null);
  assert.equal(at(mid, { paths: ["/work/proj"] }), null);
  assert.equal(at(new Date("2026-03-02T00:00:01Z")), "after expiry 2026-03-02T00:00:00.000Z");
  assert.equal(at(new Date("2026-02-28T00:00:00Z")), "before not-before 2026-03-01T00:00:00.000Z");
  assert.equal(at(mid, { class: "irreversible" }), "class irreversible not delegated");
  assert.equal(at(mid, { tool: "fetch" }), "tool fetch not delegated");
  assert.equal(
    at(mid, { paths: ["/work/proj/a.py", "/etc/passwd"] }),
    "path /etc/passwd outside delegated workspace /work/proj",
  );
  assert.equal(
    at(mid, { paths: ["/work/proj/../other/x"] }),
    "path /work/proj/../other/x outside delegated workspace /work/proj",
  );
  assert.equal(
    at(mid, { paths: ["/work/project2/x"] }),
    "path /work/project2/x outside delegated workspace /work/proj",
  );
});
