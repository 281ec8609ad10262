/**
 * Delegations: the user's signed, scoped, time-limited grant of authority to an agent key, and
 * sub-delegations that narrow it (they form a tree through `parent`).
 *
 * Signed bytes: the 32 raw bytes of `delegationHash(d)` =
 * `domainHashHex("retie/delegation/v1", canonicalJson(d without signature))`.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { isAbsolute, posix, resolve } from "node:path";
import { CLASSES } from "../core/effect.ts";
import { canonicalJson } from "../core/canonical_json.ts";
import { RetieError } from "../core/errors.ts";
import { domainHashHex } from "../core/hash.ts";
import type { Delegation } from "./types.ts";
import { type KeyPair, signHex, verifyHex } from "./keys.ts";
import { isWithin } from "../core/paths.ts";

export type { Delegation };

/** Domain separation tag of delegation hashes. */
export const DELEGATION_DOMAIN = "retie/delegation/v1";

/** What a delegation allows. */
export interface DelegationScope {
  /** Absolute path of the workspace the delegate may act in. */
  workspace: string;
  /** Reversibility classes allowed. */
  classes: string[];
  /** Tool names allowed; `*` for any. */
  tools: string[];
  notBefore: Date;
  expires: Date;
  /** Resume: the hash of the delegation of the session this one continues. */
  continues?: string;
}

/**
 * The hash that identifies a delegation (and that its issuer signs): 64 hex.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateKeyPair } from "./keys.ts";
 * import { delegationHash, issueDelegation } from "./delegation.ts";
 * const user = generateKeyPair(), agent = generateKeyPair();
 * const d = issueDelegation(user, agent.publicKey, {
 *   workspace: "/work/proj", classes: ["none", "reversible"], tools: ["*"],
 *   notBefore: new Date(), expires: new Date(Date.now() + 3600_000),
 * });
 * assert.match(delegationHash(d), /^[0-9a-f]{64}$/);
 * ```
 */
export function delegationHash(d: Delegation): string {
  const { signature: _signature, ...body } = d;
  return domainHashHex(DELEGATION_DOMAIN, canonicalJson(body));
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * True for a time written exactly as retie writes times: ISO-8601 UTC with milliseconds
 * (`2026-01-01T12:00:00.000Z`), naming a real instant (the text is what formatting that instant
 * gives back, so `2026-02-30…` is refused).
 *
 * @example
 * ```ts
 * import { isLedgerTime } from "./delegation.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isLedgerTime("2026-01-01T12:00:00.000Z"), true);
 * assert.equal(isLedgerTime("2026-01-01T12:00:00Z"), false);
 * assert.equal(isLedgerTime("2026-02-30T00:00:00.000Z"), false);
 * ```
 */
export function isLedgerTime(s: unknown): s is string {
  if (typeof s !== "string" || !ISO_MS.test(s)) return false;
  const t = Date.parse(s);
  return !Number.isNaN(t) && new Date(t).toISOString() === s;
}

/**
 * True for an absolute, normalised POSIX path: starts with `/`, no `.` or `..` segment, no empty
 * segment (`//`), no trailing `/` except for `/` itself.
 *
 * @example
 * ```ts
 * import { isNormalAbsolute } from "./delegation.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isNormalAbsolute("/work/proj"), true);
 * assert.equal(isNormalAbsolute("/work/../etc"), false);
 * ```
 */
export function isNormalAbsolute(p: unknown): p is string {
  return typeof p === "string" && p.startsWith("/") && posix.normalize(p) === p &&
    (p === "/" || !p.endsWith("/"));
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const DELEGATION_KEYS = "agent,classes,expires,issuer,notBefore,parent,signature,tools,workspace";

/** True when `list` is strings in strictly increasing UTF-16 order (sorted, no duplicates). */
function strictlySorted(list: unknown[]): boolean {
  for (let i = 1; i < list.length; i++) {
    if (!((list[i - 1] as string) < (list[i] as string))) return false;
  }
  return true;
}

/**
 * Why a delegation does not have the form of the spec, or null: exactly its nine members (and an
 * optional `continues`, 64 hex, on a resumed session's); `agent`
 * and `issuer` 64 hex, `signature` 128 hex, `parent` null or 64 hex; `workspace` absolute and
 * normalised; `classes` reversibility classes and `tools` non-empty names, each list sorted with
 * no duplicates; `notBefore` and `expires` ledger times, `expires` later.
 *
 * @example
 * ```ts
 * import { delegationFormProblem } from "./delegation.ts";
 * import assert from "node:assert/strict";
 * assert.equal(delegationFormProblem({}), "delegation has the members (none), not agent,classes,expires,issuer,notBefore,parent,signature,tools,workspace");
 * ```
 */
export function delegationFormProblem(d: unknown): string | null {
  if (!d || typeof d !== "object" || Array.isArray(d)) return "delegation is not an object";
  const o = d as Record<string, unknown>;
  // `continues` (a resumed session's delegation) is the one optional member.
  const keys = Object.keys(o).filter((k) => k !== "continues").sort().join(",");
  if (keys !== DELEGATION_KEYS) {
    return `delegation has the members ${keys || "(none)"}, not ${DELEGATION_KEYS}`;
  }
  if (typeof o.agent !== "string" || !HEX64.test(o.agent)) return "delegation agent is not 64 hex";
  if ("continues" in o && (typeof o.continues !== "string" || !HEX64.test(o.continues))) {
    return "delegation continues is not 64 hex";
  }
  if (typeof o.issuer !== "string" || !HEX64.test(o.issuer)) {
    return "delegation issuer is not 64 hex";
  }
  if (typeof o.signature !== "string" || !HEX128.test(o.signature)) {
    return "delegation signature is not 128 hex";
  }
  if (o.parent !== null && (typeof o.parent !== "string" || !HEX64.test(o.parent))) {
    return "delegation parent is neither null nor 64 hex";
  }
  if (!isNormalAbsolute(o.workspace)) {
    return `delegation workspace ${String(o.workspace)} is not an absolute, normalised path`;
  }
  if (
    !Array.isArray(o.classes) ||
    !o.classes.every((c) => (CLASSES as readonly unknown[]).includes(c)) ||
    !strictlySorted(o.classes)
  ) return "delegation classes are not a sorted list of distinct reversibility classes";
  if (
    !Array.isArray(o.tools) || !o.tools.every((t) => typeof t === "string" && t !== "") ||
    !strictlySorted(o.tools)
  ) return "delegation tools are not a sorted list of distinct tool names";
  if (!isLedgerTime(o.notBefore) || !isLedgerTime(o.expires)) {
    return "delegation times are not ISO-8601 UTC times with milliseconds";
  }
  if (Date.parse(o.expires) <= Date.parse(o.notBefore)) {
    return "delegation expires before it starts";
  }
  return null;
}

/** Why `child` is not a narrowing of `parent`, or null when it is. */
function narrowingProblem(child: Omit<Delegation, "signature">, parent: Delegation): string | null {
  if (child.issuer !== parent.agent) {
    return `issuer ${child.issuer.slice(0, 12)} is not the parent's agent ${
      parent.agent.slice(0, 12)
    }`;
  }
  if (!isWithin(resolve(child.workspace), resolve(parent.workspace))) {
    return `workspace ${child.workspace} widens the parent's workspace ${parent.workspace}`;
  }
  for (const c of child.classes) {
    if (!parent.classes.includes(c)) return `class ${c} widens the parent's classes`;
  }
  if (!parent.tools.includes("*")) {
    for (const t of child.tools) {
      if (!parent.tools.includes(t)) return `tool ${t} widens the parent's tools`;
    }
  }
  if (Date.parse(child.notBefore) < Date.parse(parent.notBefore)) {
    return `not-before ${child.notBefore} is earlier than the parent's ${parent.notBefore}`;
  }
  if (Date.parse(child.expires) > Date.parse(parent.expires)) {
    return `expiry ${child.expires} is later than the parent's ${parent.expires}`;
  }
  return null;
}

/**
 * Issues a delegation signed by `issuer`. A sub-delegation (with `parent`) must be issued by the
 * parent's agent and must narrow the parent's scope (workspace inside, classes and tools subsets,
 * time window inside), else RetieError.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateKeyPair } from "./keys.ts";
 * import { issueDelegation } from "./delegation.ts";
 * const user = generateKeyPair(), agent = generateKeyPair();
 * const d = issueDelegation(user, agent.publicKey, {
 *   workspace: "/work/proj", classes: ["none", "reversible"], tools: ["*"],
 *   notBefore: new Date(), expires: new Date(Date.now() + 3600_000),
 * });
 * assert.deepEqual(d.parent, null);
 * ```
 */
export function issueDelegation(
  issuer: KeyPair,
  agentPublicKey: string,
  scope: DelegationScope,
  parent: Delegation | null = null,
): Delegation {
  if (!isAbsolute(scope.workspace)) {
    throw new RetieError(`cannot delegate (workspace ${scope.workspace}): not an absolute path`, {
      exitCode: 2,
    });
  }
  if (!(scope.expires.getTime() > scope.notBefore.getTime())) {
    throw new RetieError(
      `cannot delegate (expiry ${scope.expires.toISOString()}): not after not-before ${scope.notBefore.toISOString()}`,
      { exitCode: 2 },
    );
  }
  const body: Omit<Delegation, "signature"> = {
    agent: agentPublicKey,
    issuer: issuer.publicKey,
    workspace: resolve(scope.workspace),
    classes: [...new Set(scope.classes)].sort(),
    tools: [...new Set(scope.tools)].sort(),
    notBefore: scope.notBefore.toISOString(),
    expires: scope.expires.toISOString(),
    parent: parent ? delegationHash(parent) : null,
    ...(scope.continues ? { continues: scope.continues } : {}),
  };
  if (parent) {
    const why = narrowingProblem(body, parent);
    if (why) {
      throw new RetieError(`cannot sub-delegate: it would widen the parent delegation: ${why}`, {
        hint: "a sub-delegation can only narrow its parent's scope",
      });
    }
  }
  const hash = domainHashHex(DELEGATION_DOMAIN, canonicalJson(body));
  return { ...body, signature: signHex(issuer, Buffer.from(hash, "hex")) };
}

/**
 * Checks a delegation's form and signature and, given its parent, that it links to and narrows it.
 * Returns null when valid, else the reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateKeyPair } from "./keys.ts";
 * import { issueDelegation, verifyDelegation } from "./delegation.ts";
 * const user = generateKeyPair(), agent = generateKeyPair();
 * const d = issueDelegation(user, agent.publicKey, {
 *   workspace: "/work/proj", classes: ["none", "reversible"], tools: ["*"],
 *   notBefore: new Date(), expires: new Date(Date.now() + 3600_000),
 * });
 * assert.equal(verifyDelegation(d), null);
 * assert.match(verifyDelegation({ ...d, tools: ["bash"] })!, /signature does not verify/);
 * ```
 */
export function verifyDelegation(d: Delegation, parent: Delegation | null = null): string | null {
  const form = delegationFormProblem(d);
  if (form) return form;
  const hash = delegationHash(d);
  if (!verifyHex(d.issuer, Buffer.from(hash, "hex"), d.signature)) {
    return `delegation signature does not verify with issuer key ${d.issuer.slice(0, 12)}`;
  }
  if (parent) {
    if (d.parent !== delegationHash(parent)) return "delegation does not link to its parent";
    return narrowingProblem(d, parent);
  }
  if (d.parent !== null) return "delegation names a parent that was not supplied";
  return null;
}

/**
 * Checks one action against a delegation. Returns null when within scope, else the reason
 * (`after expiry …`, `class irreversible not delegated`, `path … outside delegated workspace …`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateKeyPair } from "./keys.ts";
 * import { checkScope, issueDelegation } from "./delegation.ts";
 * const user = generateKeyPair(), agent = generateKeyPair();
 * const d = issueDelegation(user, agent.publicKey, {
 *   workspace: "/work/proj", classes: ["none", "reversible"], tools: ["*"],
 *   notBefore: new Date(), expires: new Date(Date.now() + 3600_000),
 * });
 * const now = new Date();
 * assert.equal(checkScope(d, { tool: "edit", class: "reversible", paths: ["/work/proj/a.py"], now }), null);
 * assert.equal(
 *   checkScope(d, { tool: "edit", class: "reversible", paths: ["/work/projx/a.py"], now }),
 *   "path /work/projx/a.py outside delegated workspace /work/proj",
 * );
 * ```
 */
export function checkScope(
  d: Delegation,
  action: { tool: string; class: string; paths: string[]; now: Date },
): string | null {
  const t = action.now.getTime();
  if (t < Date.parse(d.notBefore)) return `before not-before ${d.notBefore}`;
  if (t > Date.parse(d.expires)) return `after expiry ${d.expires}`;
  if (!d.classes.includes(action.class)) return `class ${action.class} not delegated`;
  if (!d.tools.includes("*") && !d.tools.includes(action.tool)) {
    return `tool ${action.tool} not delegated`;
  }
  for (const p of action.paths) {
    if (!isAbsolute(p) || !isWithin(resolve(p), resolve(d.workspace))) {
      return `path ${p} outside delegated workspace ${d.workspace}`;
    }
  }
  return null;
}
