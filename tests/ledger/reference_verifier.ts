/**
 * A naive, independent reference verifier for cross-checking `verifyLedger`.
 *
 * Written from docs/ledger-format.md without importing any retie module: its own canonical JSON,
 * time, path and format checks, WebCrypto SHA-256/SHA-512, and @noble/ed25519's curve arithmetic
 * for a strict, cofactorless Ed25519 verify. It is slow (noble: ~0.6k verifies/s) and written for
 * clarity, in the order of the spec's "What verify checks": every problem it reports carries the
 * spec's code, so the cross-check compares the whole list, not only the first bad seq.
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

const L = (1n << 252n) + 27742317777372353535851937790883648493n;
function leInt(b: Uint8Array): bigint {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]);
  return n;
}

/**
 * Strict Ed25519 verify over the raw bytes of a hex message: key and R canonical and not of small
 * order, S < L, and the cofactorless equation [S]B = R + [k]A.
 */
export async function refVerify(pubHex: string, msgHex: string, sigHex: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(pubHex) || !/^[0-9a-f]{128}$/.test(sigHex)) return false;
  try {
    const aBytes = unhex(pubHex);
    const sig = unhex(sigHex);
    const A = ed.Point.fromBytes(aBytes, false);
    const R = ed.Point.fromBytes(sig.subarray(0, 32), false);
    if (A.isSmallOrder() || R.isSmallOrder()) return false;
    const s = leInt(sig.subarray(32));
    if (s >= L) return false;
    const msg = unhex(msgHex);
    const buf = new Uint8Array(64 + msg.length);
    buf.set(sig.subarray(0, 32), 0);
    buf.set(aBytes, 32);
    buf.set(msg, 64);
    const k = leInt(new Uint8Array(await crypto.subtle.digest("SHA-512", buf))) % L;
    return ed.Point.BASE.multiply(s, false).equals(R.add(A.multiply(k, false)));
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

/** One problem: the seq and the spec's code. */
export interface RefProblem {
  seq: number;
  code: string;
}

export interface RefResult {
  ok: boolean;
  firstBadSeq: number | null;
  entries: number;
  problems: RefProblem[];
}

interface Row {
  seq: unknown;
  time: unknown;
  session: unknown;
  kind: unknown;
  action_id: unknown;
  prev: unknown;
  hash: unknown;
  signer: unknown;
  signature: unknown;
  pt: string;
  pb: Uint8Array | null;
}

const KINDS = [
  "genesis",
  "delegation",
  "intent",
  "outcome",
  "refusal",
  "undo",
  "finding",
  "event",
  "checkpoint",
];
const CLASSES = ["none", "reversible", "irreversible", "unknown"];
const isHex = (v: unknown, n: number) =>
  typeof v === "string" && new RegExp(`^[0-9a-f]{${n}}$`).test(v);
const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

function isTime(v: unknown): v is string {
  if (typeof v !== "string") return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z$/.exec(v);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const days = [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1] && h < 24 && mi < 60 && s < 60;
}

/** Lexical normalisation of an absolute POSIX path. */
function normalise(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}
const isNormalAbs = (p: unknown): p is string =>
  typeof p === "string" && p.startsWith("/") && normalise(p) === p;
function inside(p: string, root: string): boolean {
  const a = normalise(p);
  return root === "/" || a === root || a.startsWith(root + "/");
}
const sortedDistinct = (l: unknown[]) =>
  l.every((x, i) => i === 0 || (l[i - 1] as string) < (x as string));

function textDepth(t: string): number {
  let d = 0, max = 0, inStr = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (inStr) {
      if (c === "\\") i++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++d);
    else if (c === "]" || c === "}") d--;
  }
  return max;
}

type D = Record<string, unknown>;

async function delegationHashRef(d: D): Promise<string> {
  const { signature: _s, ...body } = d;
  return await refDomainHash("retie/delegation/v1", refCanonical(body));
}

/** Why a delegation is not valid (form, signature, link/narrowing), or null. */
async function delegationProblem(d: D, parent: D | null): Promise<string | null> {
  if (
    Object.keys(d).filter((k) => k !== "continues").sort().join(",") !==
      "agent,classes,expires,issuer,notBefore,parent,signature,tools,workspace"
  ) return "members";
  if ("continues" in d && !isHex(d.continues, 64)) return "continues";
  if (!isHex(d.agent, 64) || !isHex(d.issuer, 64) || !isHex(d.signature, 128)) return "hex";
  if (d.parent !== null && !isHex(d.parent, 64)) return "parent";
  if (!isNormalAbs(d.workspace)) return "workspace";
  if (
    !Array.isArray(d.classes) || !d.classes.every((c) => CLASSES.includes(c as string)) ||
    !sortedDistinct(d.classes)
  ) return "classes";
  if (
    !Array.isArray(d.tools) || !d.tools.every((t) => typeof t === "string" && t !== "") ||
    !sortedDistinct(d.tools)
  ) return "tools";
  if (!isTime(d.notBefore) || !isTime(d.expires) || !(d.expires > d.notBefore)) return "times";
  if (!(await refVerify(d.issuer as string, await delegationHashRef(d), d.signature as string))) {
    return "signature";
  }
  if (!parent) return d.parent === null ? null : "parent not supplied";
  if (d.parent !== await delegationHashRef(parent)) return "link";
  if (d.issuer !== parent.agent) return "issuer";
  if (!inside(d.workspace as string, parent.workspace as string)) return "workspace widens";
  if (!(d.classes as string[]).every((c) => (parent.classes as string[]).includes(c))) {
    return "classes widen";
  }
  const pt = parent.tools as string[];
  if (!pt.includes("*") && !(d.tools as string[]).every((t) => pt.includes(t))) {
    return "tools widen";
  }
  if ((d.notBefore as string) < (parent.notBefore as string)) return "earlier";
  if ((d.expires as string) > (parent.expires as string)) return "later";
  return null;
}

function scopeProblem(d: D, tool: string, cls: string, writes: string[], time: string): boolean {
  if (time < (d.notBefore as string) || time > (d.expires as string)) return true;
  if (!(d.classes as string[]).includes(cls)) return true;
  const tools = d.tools as string[];
  if (!tools.includes("*") && !tools.includes(tool)) return true;
  return writes.some((w) => !w.startsWith("/") || !inside(w, d.workspace as string));
}

/** Verifies a ledger file by the spec; returns every problem (seq, code) and the lowest bad seq. */
export async function referenceVerify(
  path: string,
  opts: { expectHead?: string; trustedUserKeys?: string[] } = {},
): Promise<RefResult> {
  const db = new DatabaseSync(path, { readOnly: true });
  const rows = db.prepare(
    "SELECT seq, time, session, kind, action_id, prev, hash, signer, signature, " +
      "typeof(payload) AS pt, CAST(payload AS BLOB) AS pb FROM entries ORDER BY seq",
  ).all() as unknown as Row[];
  db.close();
  const bad: RefProblem[] = [];
  const add = (seq: number, code: string) => bad.push({ seq, code });
  type S = {
    user: string;
    agent: string;
    d: D;
    ok: boolean;
    issued: Map<string, D>;
    closed: boolean;
  };
  const sessions = new Map<string, S>();
  const users = new Set<string>();
  const checkpoints = new Map<number, { signer: string; time: string }>();
  const hashAt = new Map<number, unknown>();
  const seenActions = new Set<string>();
  const intents = new Map<string, string>();
  const outcomes = new Set<string>();
  let lastCheckpoint: number | null = null;
  let prev: unknown = "0".repeat(64);
  let expect = 1;
  let lastTime: string | null = null;
  let last = 0;
  for (const r of rows) {
    if (typeof r.seq !== "number" || !Number.isInteger(r.seq)) {
      add(expect, "column-type");
      continue;
    }
    const seq = r.seq;
    if (seq > expect) add(expect, "seq-missing");
    else if (seq < expect) add(seq, "seq-order");
    expect = seq + 1;
    last = seq;
    hashAt.set(seq, r.hash);
    const textCols = [r.time, r.session, r.kind, r.prev, r.hash, r.signer, r.signature];
    if (
      textCols.some((c) => typeof c !== "string") ||
      (r.action_id !== null && typeof r.action_id !== "string") || r.pt !== "text"
    ) {
      add(seq, "column-type");
      prev = typeof r.hash === "string" ? r.hash : "";
      continue;
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(r.pb!);
    } catch {
      add(seq, "column-encoding");
      prev = r.hash;
      continue;
    }
    const time = r.time as string, session = r.session as string, kind = r.kind as string;
    const act = r.action_id as string | null;
    const signer = r.signer as string;
    let formatBad = false;
    const fmt = (ok: boolean, code: string) => ok || (add(seq, code), formatBad = true);
    fmt(isTime(time), "time-format");
    fmt(/^ses_[0-9a-f]{12}$/.test(session), "session-format");
    fmt(KINDS.includes(kind), "kind-unknown");
    fmt(act === null || /^act_[0-9a-f]{12}$/.test(act), "action-id-format");
    fmt(
      isHex(r.prev, 64) && isHex(r.hash, 64) && isHex(signer, 64) && isHex(r.signature, 128),
      "hex-format",
    );
    if (formatBad) {
      prev = r.hash;
      continue;
    }
    if (lastTime !== null && time < lastTime) add(seq, "time-order");
    else lastTime = time;
    if (r.prev !== prev) add(seq, "prev-mismatch");
    const h = await refDomainHash(
      "retie/ledger/entry/v1",
      `{"actionId":${JSON.stringify(act)},"kind":${JSON.stringify(kind)},"payload":${text},` +
        `"prev":${JSON.stringify(r.prev)},"seq":${seq},"session":${JSON.stringify(session)},` +
        `"time":${JSON.stringify(time)}}`,
    );
    if (h !== r.hash) add(seq, "hash-mismatch");
    if (!(await refVerify(signer, r.hash as string, r.signature as string))) {
      add(seq, "signature-invalid");
    }
    prev = r.hash;
    if (textDepth(text) > 100) {
      add(seq, "payload-too-deep");
      continue;
    }
    let p: unknown;
    try {
      p = JSON.parse(text);
    } catch { /* not JSON */ }
    if (!isObj(p)) {
      add(seq, "payload-not-object");
      continue;
    }
    if (refCanonical(p) !== text) add(seq, "payload-not-canonical");

    // Session checks.
    const needsAct = ["intent", "outcome", "undo"].includes(kind);
    const mayAct = needsAct || kind === "event";
    if ((needsAct && act === null) || (!mayAct && act !== null)) add(seq, "action-id-kind");
    const ses = sessions.get(session);
    if (kind === "genesis") {
      if (ses) add(seq, "genesis-duplicate");
      else if (
        typeof p.userPublicKey !== "string" || typeof p.agentPublicKey !== "string" ||
        !isObj(p.delegation) || (p.parentSession !== null && typeof p.parentSession !== "string")
      ) add(seq, "genesis-malformed");
      else {
        const user = p.userPublicKey, agent = p.agentPublicKey, d = p.delegation;
        users.add(user);
        if (opts.trustedUserKeys && !opts.trustedUserKeys.includes(user)) {
          add(seq, "user-key-untrusted");
        }
        if (signer !== user) add(seq, "signer-role");
        let why: string | null = null;
        let parentOk = true;
        if (p.parentSession !== null) {
          const ps = sessions.get(p.parentSession as string);
          if (!ps || !ps.ok) {
            parentOk = false;
            add(seq, "parent-session");
          } else {
            const linked = ps.issued.get(typeof d.parent === "string" ? d.parent : "");
            why = linked ? await delegationProblem(d, linked) : "no link";
          }
        } else {
          why = await delegationProblem(d, null) ?? (d.issuer !== user ? "issuer" : null);
        }
        if (why) add(seq, "delegation-invalid");
        const ok = !why && parentOk;
        if (ok) {
          if (agent !== d.agent) add(seq, "agent-key-mismatch");
          else if (time < (d.notBefore as string) || time > (d.expires as string)) {
            add(seq, "session-outside-window");
          }
        }
        const issued = new Map<string, D>();
        if (ok) issued.set(await delegationHashRef(d), d);
        sessions.set(session, { user, agent, d, ok, issued, closed: false });
      }
    } else if (!ses) add(seq, "no-genesis");
    else {
      if (ses.closed) add(seq, "after-final-checkpoint");
      if (kind === "checkpoint") {
        if (signer !== ses.user) add(seq, "signer-role");
        if (
          Object.keys(p).sort().join(",") !== "final,hash,seq" || !Number.isSafeInteger(p.seq) ||
          typeof p.hash !== "string" || typeof p.final !== "boolean"
        ) add(seq, "checkpoint-malformed");
        else {
          if (p.seq !== seq - 1 || p.hash !== r.prev) add(seq, "checkpoint-link");
          checkpoints.set(seq, { signer, time });
          lastCheckpoint = seq;
          if (p.final) ses.closed = true;
        }
      } else {
        if (signer !== ses.agent) add(seq, "signer-role");
        if (kind === "delegation") {
          if (!isObj(p.delegation) || !ses.ok || await delegationProblem(p.delegation, ses.d)) {
            add(seq, "delegation-invalid");
          } else ses.issued.set(await delegationHashRef(p.delegation), p.delegation);
        } else if (kind === "intent" && act !== null) {
          if (seenActions.has(act)) add(seq, "action-id-reused");
          if (!intents.has(act)) intents.set(act, session);
          const e = p.effect;
          if (
            typeof p.tool !== "string" || p.tool === "" || !CLASSES.includes(p.class as string) ||
            !isObj(e) || !Array.isArray(e.writes) || !e.writes.every((w) => typeof w === "string")
          ) add(seq, "intent-malformed");
          else if (
            ses.ok && scopeProblem(ses.d, p.tool, p.class as string, e.writes as string[], time)
          ) {
            add(seq, "intent-out-of-scope");
          }
        } else if (kind === "outcome" && act !== null) {
          if (intents.get(act) !== session) add(seq, "outcome-without-intent");
          else if (outcomes.has(act)) add(seq, "outcome-duplicate");
          else {
            outcomes.add(act);
            const a = p.after;
            if (
              (p.status !== "ok" && p.status !== "error") ||
              (a !== undefined && a !== null && !(isObj(a) && typeof a.kind === "string"))
            ) add(seq, "outcome-malformed");
          }
        } else if (kind === "undo" && act !== null) {
          if (!intents.has(act)) add(seq, "undo-without-intent");
          else if (
            typeof p.target !== "string" ||
            !["undone", "skipped", "refused"].includes(p.status as string) || p.target !== act
          ) add(seq, "undo-malformed");
        }
      }
    }
    if (kind === "event" && act !== null && intents.get(act) !== session) {
      add(seq, "event-action-unknown");
    }
    if (act !== null) seenActions.add(act);
  }

  // The head file.
  const headPath = `${path}.head.json`;
  let head: Record<string, unknown> | null = null;
  if (existsSync(headPath)) {
    try {
      head = JSON.parse(readFileSync(headPath, "utf8"));
    } catch {
      add(last + 1, "head-unreadable");
    }
    if (head) {
      const h = head;
      if (
        h.format !== "retie-ledger-head/v2" ||
        Object.keys(h).sort().join(",") !== "format,hash,seq,signature,signer,time" ||
        !Number.isSafeInteger(h.seq) || (h.seq as number) < 1 || typeof h.hash !== "string" ||
        typeof h.signer !== "string" || typeof h.signature !== "string" ||
        typeof h.time !== "string"
      ) {
        add(last + 1, "head-format");
        head = null;
      }
    }
    if (head) {
      const hs = head.seq as number;
      const statement = await refDomainHash(
        "retie/ledger/head/v2",
        refCanonical({
          format: head.format,
          hash: head.hash,
          seq: hs,
          signer: head.signer,
          time: head.time,
        }),
      );
      if (!(await refVerify(head.signer as string, statement, head.signature as string))) {
        add(hs, "head-signature");
      } else if (!users.has(head.signer as string)) add(hs, "head-signer");
      if (last < hs) add(last + 1, "tail-cut");
      else {
        const cp = checkpoints.get(hs);
        if (
          hashAt.get(hs) !== head.hash || !cp || cp.signer !== head.signer || cp.time !== head.time
        ) {
          add(hs, "head-mismatch");
        }
      }
    }
  } else if (lastCheckpoint !== null) add(lastCheckpoint, "head-missing");
  if (opts.expectHead) {
    const [s, h] = opts.expectHead.split(":");
    const es = Number(s);
    if (last < es) add(last + 1, "expected-head-missing");
    else if (hashAt.get(es) !== h) add(es, "expected-head-mismatch");
    else if (checkpoints.has(es) && (!head || (head.seq as number) < es)) {
      add(es, "head-behind-expected");
    }
  }
  const firstBadSeq = bad.length ? Math.min(...bad.map((b) => b.seq)) : null;
  return { ok: bad.length === 0, firstBadSeq, entries: rows.length, problems: bad };
}
