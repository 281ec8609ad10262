/**
 * Reading the ledger back: rows to entries, filtered queries, session summaries.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { ZERO_HASH } from "./entry_hash.ts";
import { openLedgerReadOnly } from "./schema.ts";
import type { EntryKind, LedgerEntry } from "./types.ts";
import type { RawRow } from "./verify.ts";
import type { EntryFilter, SessionSummary } from "./ledger.ts";

/** A row of the entries table (the same shape verify reads). */
export type Row = RawRow;

/** A row as a {@link LedgerEntry} (payload parsed). */
export function toEntry(r: Row): LedgerEntry {
  return {
    seq: r.seq,
    time: r.time,
    session: r.session,
    kind: r.kind as EntryKind,
    actionId: r.action_id,
    payloadJson: r.payload,
    payload: JSON.parse(r.payload),
    prev: r.prev,
    hash: r.hash,
    signer: r.signer,
    signature: r.signature,
  };
}

/**
 * Entries matching `filter`, in seq order.
 *
 * @example
 * ```ts
 * import { queryEntries } from "./read.ts";
 * // queryEntries(db, { session: "ses_0123456789ab", kinds: ["intent"] });
 * ```
 */
export function queryEntries(db: DatabaseSync, filter: EntryFilter = {}): LedgerEntry[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filter.session) (where.push("session = ?"), args.push(filter.session));
  if (filter.actionId) (where.push("action_id = ?"), args.push(filter.actionId));
  if (filter.kinds?.length) {
    where.push(`kind IN (${filter.kinds.map(() => "?").join(",")})`);
    args.push(...filter.kinds);
  }
  if (filter.afterSeq !== undefined) (where.push("seq > ?"), args.push(filter.afterSeq));
  let sql = "SELECT * FROM entries";
  if (where.length) sql += ` WHERE ${where.join(" AND ")}`;
  sql += " ORDER BY seq";
  if (filter.limit !== undefined) (sql += " LIMIT ?", args.push(filter.limit));
  return (db.prepare(sql).all(...args) as unknown as Row[]).map(toEntry);
}

/**
 * One summary per session, oldest first.
 *
 * @example
 * ```ts
 * import { listSessions } from "./read.ts";
 * // listSessions(db).map((s) => s.id);
 * ```
 */
export function listSessions(db: DatabaseSync): SessionSummary[] {
  const stmt = db.prepare(`
      SELECT s.session AS id, s.entries AS entries, s.lastSeq AS lastSeq, g.time AS started,
             g.payload AS genesis
      FROM (SELECT session, MIN(seq) AS firstSeq, MAX(seq) AS lastSeq, COUNT(*) AS entries
            FROM entries GROUP BY session) s
      LEFT JOIN entries g ON g.seq = s.firstSeq
      ORDER BY s.firstSeq`);
  return (stmt.all() as unknown as {
    id: string;
    entries: number;
    lastSeq: number;
    started: string;
    genesis: string;
  }[]).map((r) => {
    let g: Record<string, unknown> = {};
    try {
      g = JSON.parse(r.genesis);
    } catch { /* a damaged genesis is verify's business; list what we can */ }
    return {
      id: r.id,
      started: r.started,
      objective: String(g.objective ?? ""),
      provider: String(g.provider ?? ""),
      model: String(g.model ?? ""),
      entries: r.entries,
      lastSeq: r.lastSeq,
    };
  });
}

/** The ledger's last entry, as pinned outside the machine (`retie verify --expect-head`). */
export interface LedgerHead {
  seq: number;
  hash: string;
  /** `SEQ:HASH`. */
  pin: string;
}

/**
 * The head (last entry) of the ledger at `path`, read-only: seq 0 and 64 zeros when empty.
 * RetieError exitCode 2 when the file is not a retie ledger. This is what `retie run` prints at
 * the end of a session and `retie verify --json` reports as `head`; it is read, not verified.
 *
 * @example
 * ```ts
 * import { ledgerHead } from "./read.ts";
 * // const { pin } = ledgerHead("/home/me/.local/state/retie/ledger.db"); // "42:9f…"
 * ```
 */
export function ledgerHead(path: string): LedgerHead {
  const db = openLedgerReadOnly(path);
  try {
    const h = db.prepare("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").get() as
      | { seq: number; hash: string }
      | undefined;
    const seq = h?.seq ?? 0;
    const hash = h?.hash ?? ZERO_HASH;
    return { seq, hash, pin: `${seq}:${hash}` };
  } finally {
    db.close();
  }
}
