/**
 * The ledger writer and reader: an append-only, hash-chained, signed log in SQLite.
 *
 * Every append is one `BEGIN IMMEDIATE … COMMIT` with `synchronous=FULL`: the head is read inside
 * the write lock (so writers in two processes never fork the chain) and the row is durable before
 * `append` returns (so an intent is on disk before its action runs). The format is specified in
 * `docs/ledger-format.md`.
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import { Buffer } from "node:buffer";
import { canonicalJson } from "../core/canonical_json.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { Delegation, EntryKind, EntrySink, LedgerEntry } from "./types.ts";
import { type KeyPair, signHex } from "./keys.ts";
import { entryHash, ZERO_HASH } from "./entry_hash.ts";
import { openLedgerDb } from "./schema.ts";
import { readHeadFile, signHead, writeHeadFile } from "./checkpoint.ts";
import { listSessions, queryEntries } from "./read.ts";
import { jsonValueDepth } from "../core/json_depth.ts";
import {
  checkpointPayload,
  type GenesisFields,
  genesisPayload,
  MAX_PAYLOAD_DEPTH,
} from "./entries.ts";

export type { GenesisFields };

/** How to start a session. */
export interface SessionInit {
  genesis: GenesisFields;
  userKey: KeyPair;
  agentKey: KeyPair;
  /** The delegation to `agentKey` (by the user key, or a sub-delegation of `parentSession`'s). */
  delegation: Delegation;
  /** `ses_` + 12 hex; generated when absent. */
  sessionId?: string;
  /** Session whose delegation is this one's parent (sub-agents). */
  parentSession?: string | null;
  /** Entries between automatic checkpoints (default 100; 0 disables periodic checkpoints). */
  checkpointEvery?: number;
}

/** Appends for one session. */
export interface SessionWriter extends EntrySink {
  readonly agentPublicKey: string;
  readonly delegation: Delegation;
  /** Appends a checkpoint of the head signed by the user key; also written to the head file. */
  checkpoint(): LedgerEntry;
  /** Final checkpoint; later appends are refused. */
  close(): void;
}

/** One session, as listed. */
export interface SessionSummary {
  id: string;
  started: string;
  objective: string;
  provider: string;
  model: string;
  entries: number;
  lastSeq: number;
}

/** Filter for {@link Ledger.entries}. */
export interface EntryFilter {
  session?: string;
  actionId?: string;
  kinds?: EntryKind[];
  afterSeq?: number;
  limit?: number;
}

/** An open ledger. */
export interface Ledger {
  readonly path: string;
  /** Appends the genesis entry (signed by the user key) and returns the session's writer. */
  startSession(init: SessionInit): SessionWriter;
  entries(filter?: EntryFilter): LedgerEntry[];
  /** Oldest first. */
  sessions(): SessionSummary[];
  /** The last entry's seq and hash (seq 0 and 64 zeros when empty). */
  head(): { seq: number; hash: string };
  close(): void;
}

/** Options of {@link openLedger}. */
export interface LedgerOptions {
  /** Clock for entry times (tests). */
  clock?: () => Date;
}

const SESSION_ID = /^ses_[0-9a-f]{12}$/;

/**
 * A fresh session id: `ses_` + 12 hex.
 *
 * @example
 * ```ts
 * import { newSessionId } from "./ledger.ts";
 * newSessionId().startsWith("ses_"); // true
 * ```
 */
export function newSessionId(): string {
  return `ses_${randomBytes(6).toString("hex")}`;
}

/**
 * Opens (creating if needed) the ledger at `path`. RetieError exitCode 2 if the file exists but is
 * not a retie ledger.
 *
 * @example
 * ```ts
 * import { openLedger } from "./ledger.ts";
 * const ledger = openLedger(Deno.makeTempDirSync() + "/ledger.db");
 * ledger.sessions(); // []
 * ledger.close();
 * ```
 */
export function openLedger(path: string, opts: LedgerOptions = {}): Ledger {
  const db = openLedgerDb(path);
  const clock = opts.clock ?? (() => new Date());
  const headStmt = db.prepare("SELECT seq, hash, time FROM entries ORDER BY seq DESC LIMIT 1");
  const insert = db.prepare(
    "INSERT INTO entries(seq, time, session, kind, action_id, payload, prev, hash, signer, signature) VALUES (?,?,?,?,?,?,?,?,?,?)",
  );
  let closed = false;

  const head = () => {
    const h = headStmt.get() as { seq: number; hash: string } | undefined;
    return h ? { seq: h.seq, hash: h.hash } : { seq: 0, hash: ZERO_HASH };
  };
  /** Entry times never decrease: a clock stepped back records the previous entry's time. */
  const entryTime = (): string => {
    const now = clock().toISOString();
    const last = (headStmt.get() as { time?: unknown } | undefined)?.time;
    return typeof last === "string" && last > now ? last : now;
  };

  /** One durable append; `payloadFor` sees the head read inside the write lock. */
  const appendRow = (
    session: string,
    kind: EntryKind,
    payloadFor: (h: { seq: number; hash: string }) => object,
    actionId: string | null,
    key: KeyPair,
  ): LedgerEntry => {
    if (closed) throw new RetieError(`cannot append to the ledger (${path}): it is closed`);
    try {
      db.exec("BEGIN IMMEDIATE");
    } catch (e) {
      throw new RetieError(`cannot append to the ledger (${path}): ${errorMessage(e)}`, {
        hint: "another retie process may hold the ledger lock; retry, or check the disk",
        cause: e,
      });
    }
    try {
      const h = head();
      let payloadJson: string;
      try {
        const payload = payloadFor(h);
        const depth = jsonValueDepth(payload, MAX_PAYLOAD_DEPTH);
        if (depth > MAX_PAYLOAD_DEPTH) {
          throw new Error(
            `the payload is nested more than ${MAX_PAYLOAD_DEPTH} levels deep (the ledger's limit)`,
          );
        }
        payloadJson = canonicalJson(payload);
      } catch (e) {
        throw new RetieError(`cannot record a ${kind} entry: ${errorMessage(e)}`, {
          cause: e,
        });
      }
      const row = {
        seq: h.seq + 1,
        time: entryTime(),
        session,
        kind,
        actionId,
        payloadJson,
        prev: h.hash,
      };
      const hash = entryHash(row);
      const signature = signHex(key, Buffer.from(hash, "hex"));
      insert.run(
        row.seq,
        row.time,
        session,
        kind,
        actionId,
        payloadJson,
        row.prev,
        hash,
        key.publicKey,
        signature,
      );
      db.exec("COMMIT");
      return {
        seq: row.seq,
        time: row.time,
        session,
        kind,
        actionId,
        payloadJson,
        payload: JSON.parse(payloadJson),
        prev: row.prev,
        hash,
        signer: key.publicKey,
        signature,
      };
    } catch (e) {
      if (db.isTransaction) db.exec("ROLLBACK");
      if (e instanceof RetieError) throw e;
      throw new RetieError(`cannot append to the ledger (${path}): ${errorMessage(e)}`, {
        hint: "nothing ran; check the disk and the ledger file, then retry",
        cause: e,
      });
    }
  };

  /** Moves the head file forward to `e`, serialised with other writers by the ledger's lock. */
  const publishHead = (e: LedgerEntry, userKey: KeyPair) => {
    try {
      db.exec("BEGIN IMMEDIATE");
    } catch (err) {
      throw new RetieError(
        `checkpoint #${e.seq} is recorded, but the head file (${path}.head.json) was not updated: ${
          errorMessage(err)
        }`,
        {
          hint: "the next checkpoint updates it; until then a cut tail may go unnoticed",
          cause: err,
        },
      );
    }
    try {
      let current: { seq: number } | null = null;
      try {
        current = readHeadFile(path);
      } catch {
        current = null; // a damaged head file is replaced by a good one
      }
      if (!current || current.seq < e.seq) {
        writeHeadFile(path, signHead(userKey, e));
      }
    } finally {
      db.exec("COMMIT");
    }
  };

  const sessionExists = db.prepare("SELECT 1 AS x FROM entries WHERE session = ? LIMIT 1");

  const ledger: Ledger = {
    path,
    startSession(init: SessionInit): SessionWriter {
      const sessionId = init.sessionId ?? newSessionId();
      if (!SESSION_ID.test(sessionId)) {
        throw new RetieError(`cannot start a session (${sessionId}): not ses_ + 12 hex digits`, {
          exitCode: 2,
        });
      }
      if (sessionExists.get(sessionId)) {
        throw new RetieError(`cannot start a session (${sessionId}): the id is already in use`);
      }
      if (init.delegation.agent !== init.agentKey.publicKey) {
        throw new RetieError("cannot start a session: the delegation is not to the agent key");
      }
      const every = init.checkpointEvery ?? 100;
      let sinceCheckpoint = 0;
      let open = true;
      appendRow(
        sessionId,
        "genesis",
        () =>
          genesisPayload(
            init.genesis,
            init.userKey.publicKey,
            init.agentKey.publicKey,
            init.delegation,
            init.parentSession ?? null,
          ),
        null,
        init.userKey,
      );

      const checkpoint = (final: boolean): LedgerEntry => {
        const e = appendRow(
          sessionId,
          "checkpoint",
          (h) => checkpointPayload(h, final),
          null,
          init.userKey,
        );
        publishHead(e, init.userKey);
        sinceCheckpoint = 0;
        return e;
      };

      return {
        sessionId,
        agentPublicKey: init.agentKey.publicKey,
        delegation: init.delegation,
        append(kind, payload, actionId = null) {
          if (!open) {
            throw new RetieError(`cannot append to session ${sessionId}: it is closed`);
          }
          if ((kind as string) === "genesis" || (kind as string) === "checkpoint") {
            throw new RetieError(`cannot append a ${kind} entry directly`, {
              hint: "genesis comes from startSession, checkpoints from checkpoint()",
            });
          }
          const e = appendRow(sessionId, kind, () => payload, actionId ?? null, init.agentKey);
          sinceCheckpoint++;
          if (every > 0 && sinceCheckpoint >= every) {
            // `e` is committed: a failing periodic checkpoint must not make the caller believe
            // it was not (the guard would refuse an action whose intent is on record, or report
            // an outcome as lost). The checkpoint is retried on the next append and at close(),
            // which does throw.
            try {
              checkpoint(false);
            } catch { /* retried */ }
          }
          return e;
        },
        checkpoint() {
          if (!open) throw new RetieError(`cannot checkpoint session ${sessionId}: it is closed`);
          return checkpoint(false);
        },
        close() {
          if (!open) return;
          checkpoint(true);
          open = false;
        },
      };
    },

    entries(filter: EntryFilter = {}): LedgerEntry[] {
      return queryEntries(db, filter);
    },

    sessions(): SessionSummary[] {
      return listSessions(db);
    },

    head,

    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
  return ledger;
}
