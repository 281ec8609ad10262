/**
 * A naive, independent reference verifier for cross-checking `verifyLedger`.
 *
 * Written from docs/ledger-format.md without importing any retie module: its own canonical JSON,
 * WebCrypto SHA-256, and @noble/ed25519 for signatures. It is slow (noble: ~0.6k verifies/s) and
 * checks only the structural rules (seq, links, hashes, signatures, signer roles, root delegations,
 * head file), which is what it is for.
 */
import * as ed from "@noble/ed25519";
import { DatabaseSync } from "node:sqlite";
import { existsSync, readFileSync } from "node:fs";

/** Canonical JSON: sorted keys, no whitespace. */
export function refCanonical(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map(refCanonical).join(",") + "]";
  const o = v as Record<string, unknown>;
  return "{" +
    Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) =>
      JSON.stringify(k) + ":" + refCanonical(o[k])
    ).join(",") + "}";
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
function unhex(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** hex(SHA-256(domain || 0x00 || utf8(text))) via WebCrypto. */
export async function refDomainHash(domain: string, text: string): Promise<string> {
  const d = new TextEncoder().encode(domain);
  const t = new TextEncoder().encode(text);
  const buf = new Uint8Array(d.length + 1 + t.length);
  buf.set(d, 0);
  buf.set(t, d.length + 1);
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", buf)));
}

/** The entry hash from a parsed payload. */
export function refEntryHash(e: {
  seq: number;
  time: string;
  session: string;
  kind: string;
  actionId: string | null;
  payload: unknown;
  prev: string;
}): Promise<string> {
  return refDomainHash("retie/ledger/entry/v1", refCanonical(e));
}

/** Ed25519 verify over the raw bytes of a hex hash, with noble. */
export async function refVerify(pubHex: string, hashHex: string, sigHex: string): Promise<boolean> {
  try {
    return await ed.verifyAsync(unhex(sigHex), unhex(hashHex), unhex(pubHex));
  } catch {
    return false;
  }
}

/** Ed25519 public key of a 32-byte seed, with noble. */
export async function refPublicKey(seedHex: string): Promise<string> {
  return hex(await ed.getPublicKeyAsync(unhex(seedHex)));
}

/** Ed25519 signature of a hex hash's raw bytes, with noble. */
export async function refSign(seedHex: string, hashHex: string): Promise<string> {
  return hex(await ed.signAsync(unhex(hashHex), unhex(seedHex)));
}

export interface RefResult {
  ok: boolean;
  firstBadSeq: number | null;
  entries: number;
}

interface Row {
  seq: number;
  time: string;
  session: string;
  kind: string;
  action_id: string | null;
  payload: string;
  prev: string;
  hash: string;
  signer: string;
  signature: string;
}

/** Verifies the structural rules of a ledger file; returns the lowest bad seq. */
export async function referenceVerify(path: string): Promise<RefResult> {
  const db = new DatabaseSync(path, { readOnly: true });
  const rows = db.prepare("SELECT * FROM entries ORDER BY seq").all() as unknown as Row[];
  db.close();
  const bad: number[] = [];
  const sessions = new Map<string, { user: string; agent: string }>();
  const users = new Set<string>();
  let prev = "0".repeat(64);
  let expect = 1;
  let lastCheckpoint: number | null = null;
  const hashAt = new Map<number, string>();
  for (const r of rows) {
    if (r.seq !== expect) bad.push(Math.min(r.seq, expect));
    if (r.prev !== prev) bad.push(r.seq);
    const payload = JSON.parse(r.payload);
    const h = await refEntryHash({
      seq: r.seq,
      time: r.time,
      session: r.session,
      kind: r.kind,
      actionId: r.action_id,
      payload,
      prev: r.prev,
    });
    if (h !== r.hash) bad.push(r.seq);
    if (!(await refVerify(r.signer, r.hash, r.signature))) bad.push(r.seq);
    if (r.kind === "genesis") {
      const d = payload.delegation;
      const { signature, ...body } = d;
      const dh = await refDomainHash("retie/delegation/v1", refCanonical(body));
      if (r.signer !== payload.userPublicKey) bad.push(r.seq);
      if (
        !d.parent &&
        (d.issuer !== payload.userPublicKey || !(await refVerify(d.issuer, dh, signature)))
      ) {
        bad.push(r.seq);
      }
      users.add(payload.userPublicKey);
      sessions.set(r.session, { user: payload.userPublicKey, agent: d.agent });
    } else {
      const s = sessions.get(r.session);
      if (!s) bad.push(r.seq);
      else if (r.kind === "checkpoint") {
        if (r.signer !== s.user) bad.push(r.seq);
        lastCheckpoint = r.seq;
      } else if (r.signer !== s.agent) bad.push(r.seq);
    }
    hashAt.set(r.seq, r.hash);
    prev = r.hash;
    expect = r.seq + 1;
  }
  const last = rows.at(-1)?.seq ?? 0;
  const headPath = `${path}.head.json`;
  if (existsSync(headPath)) {
    const head = JSON.parse(readFileSync(headPath, "utf8"));
    if (!users.has(head.signer) || !(await refVerify(head.signer, head.hash, head.signature))) {
      bad.push(head.seq);
    }
    if (last < head.seq) bad.push(last + 1);
    else if (hashAt.get(head.seq) !== head.hash) bad.push(head.seq);
  } else if (lastCheckpoint !== null) bad.push(lastCheckpoint);
  const firstBadSeq = bad.length ? Math.min(...bad) : null;
  return { ok: firstBadSeq === null, firstBadSeq, entries: rows.length };
}
