/**
 * `verifyLedger`: recomputes every hash and link, checks every signature, signer and delegation
 * (scope, time), that every outcome has an earlier intent, and the signed head file against the
 * tail. Meant to run in its own process (`retie verify`). What is and is not detected is listed in
 * `docs/ledger-format.md`.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { canonicalJson } from "../core/canonical_json.ts";
import { RetieError } from "../core/errors.ts";
import type { Delegation } from "./types.ts";
import { verifyHex } from "./keys.ts";
import { checkScope, delegationHash, verifyDelegation } from "./delegation.ts";
import { entryHash, ZERO_HASH } from "./entry_hash.ts";
import { openLedgerReadOnly } from "./schema.ts";
import type { DatabaseSync } from "node:sqlite";
import { type HeadFile, headFilePath, readHeadFile } from "./checkpoint.ts";

/** One problem found, at the seq it concerns. */
export interface VerifyProblem {
  seq: number;
  problem: string;
}

/** An action with an intent and no outcome: started, not confirmed (a crash, or still running). */
export interface OpenAction {
  seq: number;
  session: string;
  actionId: string;
}

/** The result of {@link verifyLedger}. */
export interface VerifyReport {
  ok: boolean;
  path: string;
  /** Entries checked (of the selected session, when one is selected). */
  entries: number;
  sessions: number;
  headSeq: number;
  headHash: string;
  /** The problem with the lowest seq, or null. */
  firstBad: VerifyProblem | null;
  /** All problems, by seq. */
  problems: VerifyProblem[];
  openActions: OpenAction[];
  /** Seq of the head file's checkpoint, or null without a head file. */
  checkpointSeq: number | null;
  /** User public keys that opened the sessions checked. */
  userKeys: string[];
}

/** Options of {@link verifyLedger}. */
export interface VerifyOptions {
  /** Report only this session (the whole chain is still checked: links span sessions). */
  session?: string;
  /** When given, a session opened by any other user key is a problem. */
  trustedUserKeys?: string[];
}

interface SessionState {
  userKey: string;
  agent: string;
  delegation: Delegation;
  /** The delegation verified (an invalid one is reported at the genesis and not used further). */
  delegationOk: boolean;
  closed: boolean;
}

/** The problem text of an entry whose signature does not verify. */
export function badSignature(signer: string): string {
  return `signature does not verify with signer key ${String(signer ?? "").slice(0, 12)}`;
}

/** A row as stored. */
export interface RawRow {
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

const AGENT_KINDS = new Set(["intent", "outcome", "refusal", "undo", "finding", "event"]);
const TEXT_COLUMNS = [
  "time",
  "session",
  "kind",
  "payload",
  "prev",
  "hash",
  "signer",
  "signature",
] as const;

/**
 * A row whose columns are all text (as retie writes them). A column altered to NULL, a number or a
 * blob behind retie's back is a problem at that seq, and is checked further as text — verify
 * reports it rather than crashing on it.
 */
function textColumns(
  r: RawRow,
  bad: (seq: number, problem: string, session: string | null) => void,
): RawRow {
  const wrong: string[] = TEXT_COLUMNS.filter((c) => typeof r[c] !== "string");
  if (r.action_id !== null && typeof r.action_id !== "string") wrong.push("action_id");
  if (wrong.length === 0) return r;
  bad(r.seq, `column ${wrong.join(", ")} is not text: the entry was altered`, null);
  const out = { ...r } as Record<string, unknown>;
  for (const c of wrong) out[c] = String(out[c] ?? "");
  return out as unknown as RawRow;
}

/**
 * Verifies the ledger at `path`. Throws RetieError exitCode 2 for unreadable input (missing file,
 * not a retie ledger, unknown session); every other finding is in the report.
 *
 * @example
 * ```ts
 * import { verifyLedger } from "./verify.ts";
 * // const r = verifyLedger("/home/me/.local/state/retie/ledger.db");
 * // r.ok ? "valid" : `invalid at seq ${r.firstBad!.seq}: ${r.firstBad!.problem}`
 * ```
 */
export function verifyLedger(path: string, opts: VerifyOptions = {}): VerifyReport {
  const { db, rows, head, headError } = openForVerify(path, opts);
  try {
    return verifyRows(path, rows, head, headError, opts, signatureOk);
  } finally {
    db.close();
  }
}

/** Checks one row's signature over its stored hash. */
export function signatureOk(r: { signer: string; hash: string; signature: string }): boolean {
  // Columns altered to NULL or a number are reported by verifyRows; here they just do not verify.
  if (typeof r.signer !== "string" || typeof r.hash !== "string") return false;
  if (typeof r.signature !== "string") return false;
  return verifyHex(r.signer, Buffer.from(r.hash, "hex"), r.signature);
}

/**
 * Opens a ledger for verification: the read-only db, an iterator over its rows in seq order, and
 * the head file (or why it could not be read). RetieError exitCode 2 for unreadable input.
 */
export function openForVerify(path: string, opts: VerifyOptions = {}): {
  db: DatabaseSync;
  rows: IterableIterator<RawRow>;
  head: HeadFile | null;
  headError: string | null;
} {
  const db = openLedgerReadOnly(path);
  try {
    if (opts.session) {
      const found = db.prepare("SELECT 1 AS x FROM entries WHERE session = ? LIMIT 1").get(
        opts.session,
      );
      if (!found) {
        throw new RetieError(`cannot verify session ${opts.session}: not in the ledger (${path})`, {
          hint: "session ids look like ses_0123456789ab; `retie replay` names the last session",
          exitCode: 2,
        });
      }
    }
    let head: HeadFile | null = null;
    let headError: string | null = null;
    try {
      head = readHeadFile(path);
    } catch (e) {
      headError = (e as Error).message;
    }
    let rows: IterableIterator<RawRow>;
    try {
      rows = db.prepare(
        "SELECT seq, time, session, kind, action_id, payload, prev, hash, signer, signature FROM entries ORDER BY seq",
      ).iterate() as IterableIterator<unknown> as IterableIterator<RawRow>;
    } catch (e) {
      throw new RetieError(
        `cannot read the ledger (${path}): its entries table is not retie's (${
          (e as Error).message
        })`,
        { hint: "pass the path of a retie ledger with --ledger", exitCode: 2 },
      );
    }
    return { db, rows, head, headError };
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * The verifier's core over rows in seq order. `sigCheck` checks entry signatures; null skips them
 * (the parallel verifier checks them on workers and merges the result).
 */
export function verifyRows(
  path: string,
  rows: Iterable<RawRow>,
  head: HeadFile | null,
  headError: string | null,
  opts: VerifyOptions,
  sigCheck: ((r: RawRow) => boolean) | null,
): VerifyReport {
  /** Problems with their session: null = the chain itself (always reported). */
  const problems: { seq: number; problem: string; session: string | null }[] = [];
  const bad = (seq: number, problem: string, session: string | null) =>
    problems.push({ seq, problem, session });
  const sessions = new Map<string, SessionState>();
  const delegations = new Map<string, Delegation>();
  const userKeys = new Set<string>();
  const trusted = opts.trustedUserKeys ? new Set(opts.trustedUserKeys) : null;
  const open = new Map<string, OpenAction>();
  const intents = new Map<string, string>(); // actionId → session
  let expected = 1;
  let prevHash = ZERO_HASH;
  let lastSeq = 0;
  let lastHash = ZERO_HASH;
  let lastCheckpoint: number | null = null;
  let headHashSeen: string | null = null;
  let selectedEntries = 0;

  for (const stored of rows) {
    const r = textColumns(stored, bad);
    const s = r.session;
    if (r.seq !== expected) {
      if (r.seq > expected) {
        bad(expected, `entry #${expected} is missing (the next stored entry is #${r.seq})`, null);
      } else bad(r.seq, `entry #${r.seq} is out of order (expected #${expected})`, null);
    }
    if (r.prev !== prevHash) {
      bad(
        r.seq,
        "prev hash does not match the previous entry's hash (an entry was removed, inserted or reordered)",
        null,
      );
    }
    const hash = entryHash({
      seq: r.seq,
      time: r.time,
      session: s,
      kind: r.kind,
      actionId: r.action_id,
      payloadJson: r.payload,
      prev: r.prev,
    });
    if (hash !== r.hash) bad(r.seq, "hash mismatch: the entry's content was altered", null);
    if (sigCheck && !sigCheck(r)) bad(r.seq, badSignature(r.signer), null);
    expected = r.seq + 1;
    prevHash = r.hash;
    lastSeq = r.seq;
    lastHash = r.hash;
    if (head && r.seq === head.seq) headHashSeen = r.hash;
    if (!opts.session || opts.session === s) selectedEntries++;

    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(r.payload);
      if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new Error();
      if (canonicalJson(payload) !== r.payload) {
        bad(r.seq, "payload is not canonical JSON", s);
      }
    } catch {
      bad(r.seq, "payload is not a JSON object", s);
      continue;
    }
    checkEntry(r, payload);
  }

  function checkEntry(r: RawRow, payload: Record<string, unknown>): void {
    const s = r.session;
    const ses = sessions.get(s);
    if (r.kind === "genesis") {
      if (ses) return void bad(r.seq, `second genesis for session ${s}`, s);
      const user = String(payload.userPublicKey ?? "");
      const d = payload.delegation as Delegation;
      userKeys.add(user);
      if (trusted && !trusted.has(user)) {
        bad(r.seq, `session opened by an untrusted user key ${user.slice(0, 12)}`, s);
      }
      if (r.signer !== user) bad(r.seq, "genesis is not signed by the session's user key", s);
      const parentSession = payload.parentSession as string | null | undefined;
      let why: string | null;
      if (!d || typeof d !== "object") why = "genesis carries no delegation";
      else if (parentSession) {
        const p = sessions.get(parentSession);
        why = !p
          ? `parent session ${parentSession} is not earlier in the ledger`
          : !p.delegationOk
          ? `parent session ${parentSession} has an invalid delegation`
          : verifyDelegation(d, delegations.get(d.parent ?? "") ?? p.delegation);
      } else {
        why = verifyDelegation(d, null) ??
          (d.issuer !== user ? "delegation is not issued by the session's user key" : null);
      }
      if (!why && d.continues !== undefined && !delegations.has(d.continues)) {
        // A resumed session names the delegation it continues: it must be earlier and valid.
        why = `it continues delegation ${
          String(d.continues).slice(0, 12)
        }, not earlier in the ledger`;
      }
      if (why) bad(r.seq, `invalid delegation: ${why}`, s);
      else if (payload.agentPublicKey !== d.agent) {
        bad(r.seq, "genesis agent key is not the delegation's agent", s);
      } else {
        const t = Date.parse(r.time);
        if (t < Date.parse(d.notBefore) || t > Date.parse(d.expires)) {
          bad(r.seq, `session started outside the delegation's time window`, s);
        }
      }
      if (d && typeof d === "object") {
        if (!why) delegations.set(delegationHash(d), d);
        sessions.set(s, {
          userKey: user,
          agent: d.agent,
          delegation: d,
          delegationOk: !why,
          closed: false,
        });
      }
      return;
    }
    if (!ses) return void bad(r.seq, `entry of session ${s}, which has no earlier genesis`, s);
    if (ses.closed) bad(r.seq, `entry after session ${s} was closed by its final checkpoint`, s);
    if (r.kind === "checkpoint") {
      if (r.signer !== ses.userKey) bad(r.seq, "checkpoint is not signed by the user key", s);
      if (payload.seq !== r.seq - 1 || payload.hash !== r.prev) {
        bad(r.seq, "checkpoint does not name the entry before it", s);
      }
      lastCheckpoint = r.seq;
      if (payload.final === true) ses.closed = true;
      return;
    }
    if (r.signer !== ses.agent) {
      bad(r.seq, `signer ${r.signer.slice(0, 12)} is not the agent key of session ${s}`, s);
    }
    if (r.kind === "delegation") {
      const d = payload.delegation as Delegation;
      const why = !ses.delegationOk
        ? "the session's own delegation is invalid"
        : d && typeof d === "object"
        ? verifyDelegation(d, ses.delegation)
        : "delegation entry carries no delegation";
      if (why) bad(r.seq, `invalid sub-delegation: ${why}`, s);
      else delegations.set(delegationHash(d), d);
      return;
    }
    if (!AGENT_KINDS.has(r.kind)) return void bad(r.seq, `unknown entry kind ${r.kind}`, s);
    if (r.kind === "intent") {
      const a = r.action_id;
      if (!a) return void bad(r.seq, "intent without an action id", s);
      if (intents.has(a)) bad(r.seq, `second intent for action ${a}`, s);
      intents.set(a, s);
      open.set(a, { seq: r.seq, session: s, actionId: a });
      if (
        ses.delegationOk && typeof payload.tool === "string" && typeof payload.class === "string"
      ) {
        const eff = payload.effect as { writes?: unknown } | undefined;
        const writes = Array.isArray(eff?.writes)
          ? eff.writes.filter((p): p is string => typeof p === "string")
          : [];
        const why = checkScope(ses.delegation, {
          tool: payload.tool,
          class: payload.class,
          paths: writes,
          now: new Date(r.time),
        });
        if (why) bad(r.seq, `intent outside the delegation: ${why}`, s);
      }
    } else if (r.kind === "outcome") {
      const a = r.action_id;
      if (!a || intents.get(a) !== s) {
        return void bad(r.seq, `outcome without an earlier intent (action ${a ?? "none"})`, s);
      }
      open.delete(a);
    }
  }

  if (headError) bad(lastSeq + 1, `head file: ${headError}`, null);
  if (head) {
    if (!verifyHex(head.signer, Buffer.from(head.hash, "hex"), head.signature)) {
      bad(head.seq, "head file signature does not verify", null);
    } else if (!userKeys.has(head.signer)) {
      bad(head.seq, "head file is signed by a key that opened no session", null);
    }
    if (lastSeq < head.seq) {
      bad(
        lastSeq + 1,
        `the ledger ends at #${lastSeq} but the signed head file names #${head.seq}: the tail was cut off`,
        null,
      );
    } else if (headHashSeen !== head.hash) {
      bad(head.seq, "entry differs from the one the signed head file names", null);
    }
  } else if (!headError && lastCheckpoint !== null) {
    bad(
      lastCheckpoint,
      `head file ${headFilePath(path)} is missing: a cut-off tail cannot be ruled out`,
      null,
    );
  }

  const sel = opts.session;
  const kept = problems
    .filter((p) => !sel || p.session === null || p.session === sel)
    .sort((a, b) => a.seq - b.seq)
    .map(({ seq, problem }) => ({ seq, problem }));
  const openActions = [...open.values()].filter((a) => !sel || a.session === sel);
  return {
    ok: kept.length === 0,
    path,
    entries: selectedEntries,
    sessions: sel ? 1 : sessions.size,
    headSeq: lastSeq,
    headHash: lastHash,
    firstBad: kept[0] ?? null,
    problems: kept,
    openActions,
    checkpointSeq: head?.seq ?? null,
    userKeys: [...userKeys],
  };
}
