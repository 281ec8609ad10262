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
import { isAbsolute, resolve } from "node:path";
import { canonicalJson } from "../core/canonical_json.ts";
import { RetieError } from "../core/errors.ts";
import { domainHashHex } from "../core/hash.ts";
import type { Delegation } from "./types.ts";
import { type KeyPair, signHex, verifyHex } from "./keys.ts";

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
 * import { delegationHash } from "./delegation.ts";
 * // delegationHash(d).length === 64
 * ```
 */
export function delegationHash(d: Delegation): string {
  const { signature: _signature, ...body } = d;
  return domainHashHex(DELEGATION_DOMAIN, canonicalJson(body));
}

/** True when `path` is `root` or inside it (both normalised, lexical). */
export function isInside(path: string, root: string): boolean {
  const p = resolve(path);
  const r = resolve(root);
  if (r === "/") return true;
  return p === r || p.startsWith(r + "/");
}

function validDate(s: string): boolean {
  return typeof s === "string" && !Number.isNaN(Date.parse(s));
}

/** Why `child` is not a narrowing of `parent`, or null when it is. */
function narrowingProblem(child: Omit<Delegation, "signature">, parent: Delegation): string | null {
  if (child.issuer !== parent.agent) {
    return `issuer ${child.issuer.slice(0, 12)} is not the parent's agent ${
      parent.agent.slice(0, 12)
    }`;
  }
  if (!isInside(child.workspace, parent.workspace)) {
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
 * import { generateKeyPair } from "./keys.ts";
 * import { issueDelegation } from "./delegation.ts";
 * const user = generateKeyPair(), agent = generateKeyPair();
 * const d = issueDelegation(user, agent.publicKey, {
 *   workspace: "/work/proj", classes: ["none", "reversible"], tools: ["*"],
 *   notBefore: new Date(), expires: new Date(Date.now() + 3600_000),
 * });
 * d.parent; // null
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
    classes: [...scope.classes].sort(),
    tools: [...scope.tools].sort(),
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
 * import { verifyDelegation } from "./delegation.ts";
 * // verifyDelegation(d) === null for a delegation issued by issueDelegation
 * ```
 */
export function verifyDelegation(d: Delegation, parent: Delegation | null = null): string | null {
  if (!d || typeof d !== "object") return "delegation is not an object";
  for (const f of ["agent", "issuer", "workspace", "notBefore", "expires", "signature"] as const) {
    if (typeof d[f] !== "string") return `delegation field ${f} is missing`;
  }
  if (!Array.isArray(d.classes) || !Array.isArray(d.tools)) {
    return "delegation classes/tools are not lists";
  }
  if (!isAbsolute(d.workspace)) return `delegation workspace ${d.workspace} is not absolute`;
  if (!validDate(d.notBefore) || !validDate(d.expires)) return "delegation times are not dates";
  if (Date.parse(d.expires) <= Date.parse(d.notBefore)) {
    return "delegation expires before it starts";
  }
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
 * import { checkScope } from "./delegation.ts";
 * // checkScope(d, { tool: "edit", class: "reversible", paths: ["/work/proj/a.py"], now: new Date() })
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
    if (!isAbsolute(p) || !isInside(p, d.workspace)) {
      return `path ${p} outside delegated workspace ${d.workspace}`;
    }
  }
  return null;
}
