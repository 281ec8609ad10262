/**
 * The ledger's SQLite schema and how a file is opened (for writing, or read-only for verify).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { errorMessage, RetieError } from "../core/errors.ts";

/** The value of `meta.format` that marks a retie ledger. */
export const LEDGER_FORMAT = "retie-ledger/v1";
/** Busy timeout (ms) for a writer waiting on another process's transaction. */
export const BUSY_TIMEOUT_MS = 10_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  seq INTEGER PRIMARY KEY,
  time TEXT NOT NULL,
  session TEXT NOT NULL,
  kind TEXT NOT NULL,
  action_id TEXT,
  payload TEXT NOT NULL,
  prev TEXT NOT NULL,
  hash TEXT NOT NULL,
  signer TEXT NOT NULL,
  signature TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_session ON entries(session, seq);
CREATE INDEX IF NOT EXISTS entries_action ON entries(action_id) WHERE action_id IS NOT NULL;
CREATE TRIGGER IF NOT EXISTS entries_no_update BEFORE UPDATE ON entries
  BEGIN SELECT RAISE(ABORT, 'retie ledger is append-only'); END;
CREATE TRIGGER IF NOT EXISTS entries_no_delete BEFORE DELETE ON entries
  BEGIN SELECT RAISE(ABORT, 'retie ledger is append-only'); END;
`;

function notALedger(path: string, why: string, cause?: unknown): RetieError {
  return new RetieError(`cannot read the ledger (${path}): ${why}`, {
    hint:
      "pass the path of a retie ledger with --ledger (default: $RETIE_LEDGER or <state>/retie/ledger.db)",
    exitCode: 2,
    cause,
  });
}

function hasFormat(db: DatabaseSync, path: string): boolean {
  let tables: { name: string }[];
  try {
    tables = db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as {
      name: string;
    }[];
  } catch (e) {
    throw notALedger(path, "not an SQLite database", e);
  }
  if (tables.length === 0) return false;
  if (!tables.some((t) => t.name === "meta") || !tables.some((t) => t.name === "entries")) {
    throw notALedger(path, "an SQLite database, but not a retie ledger");
  }
  const row = db.prepare("SELECT value FROM meta WHERE key='format'").get() as
    | { value: string }
    | undefined;
  if (row?.value !== LEDGER_FORMAT) {
    throw notALedger(path, `format is ${row?.value ?? "missing"}, expected ${LEDGER_FORMAT}`);
  }
  return true;
}

/**
 * Opens (creating dirs 0700 and the schema) a ledger for appending: WAL, synchronous=FULL, busy
 * timeout. RetieError exitCode 2 if the file exists but is not a retie ledger.
 *
 * @example
 * ```ts
 * import { openLedgerDb } from "./schema.ts";
 * const db = openLedgerDb(Deno.makeTempDirSync() + "/ledger.db");
 * db.close();
 * ```
 */
export function openLedgerDb(path: string): DatabaseSync {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    throw notALedger(path, `cannot open: ${errorMessage(e)}`, e);
  }
  try {
    if (!hasFormat(db, path)) {
      db.exec("PRAGMA journal_mode=WAL");
      db.exec("BEGIN IMMEDIATE");
      try {
        db.exec(SCHEMA);
        db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES ('format', ?)").run(
          LEDGER_FORMAT,
        );
        db.exec("COMMIT");
      } catch (e) {
        db.exec("ROLLBACK");
        throw e;
      }
      hasFormat(db, path);
    }
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=FULL");
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * Opens an existing ledger read-only (for verify and replay). RetieError exitCode 2 when the file is
 * missing, empty, or not a retie ledger.
 *
 * @example
 * ```ts
 * import { openLedgerReadOnly } from "./schema.ts";
 * // const db = openLedgerReadOnly("/path/ledger.db");
 * ```
 */
export function openLedgerReadOnly(path: string): DatabaseSync {
  if (!existsSync(path)) throw notALedger(path, "no such file");
  if (statSync(path).isDirectory()) throw notALedger(path, "a directory, not a file");
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    throw notALedger(path, `cannot open: ${errorMessage(e)}`, e);
  }
  try {
    if (!hasFormat(db, path)) throw notALedger(path, "an empty database, not a retie ledger");
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}
