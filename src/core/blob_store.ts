/**
 * A content-addressed store of bytes in one SQLite file.
 *
 * Prior contents of files (for undo) and snapshot contents live here, keyed by their SHA-256. One
 * file instead of one file per blob: creating files is the slow part on ext4 (~0.7 ms each here),
 * while a row insert is microseconds. Reads verify the hash, so a corrupted blob is refused rather
 * than restored.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { sha256Hex } from "./hash.ts";
import { RetieError } from "./errors.ts";

/** A content-addressed blob store. */
export class BlobStore {
  readonly path: string;
  #db: DatabaseSync;
  #put;
  #get;
  #has;

  /**
   * Opens (creating if needed) the store at `path`.
   *
   * @example
   * ```ts
   * import { BlobStore } from "./blob_store.ts";
   * const store = new BlobStore("/tmp/retie-blobs.db");
   * const h = store.put(new TextEncoder().encode("hello"));
   * store.get(h); // Uint8Array of "hello"
   * store.close();
   * ```
   */
  constructor(path: string) {
    this.path = path;
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#db = new DatabaseSync(path, { timeout: 5000 });
    this.#db.exec("PRAGMA journal_mode=WAL");
    this.#db.exec("PRAGMA synchronous=FULL");
    this.#db.exec(
      "CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL)",
    );
    this.#put = this.#db.prepare("INSERT OR IGNORE INTO blobs (hash, size, data) VALUES (?, ?, ?)");
    this.#get = this.#db.prepare("SELECT data FROM blobs WHERE hash = ?");
    this.#has = this.#db.prepare("SELECT 1 AS x FROM blobs WHERE hash = ?");
  }

  /** Stores bytes (idempotent) and returns their hex SHA-256. */
  put(bytes: Uint8Array): string {
    const hash = sha256Hex(bytes);
    this.#put.run(hash, bytes.length, bytes);
    return hash;
  }

  /** Whether a blob with this hash is stored. */
  has(hash: string): boolean {
    return this.#has.get(hash) !== undefined;
  }

  /** Returns the bytes for `hash`, checked against it; throws when missing or corrupted. */
  get(hash: string): Uint8Array {
    const row = this.#get.get(hash) as { data: Uint8Array } | undefined;
    if (!row) {
      throw new RetieError(`blob ${hash.slice(0, 12)} is not in the store (${this.path})`, {
        hint: "the undo data was removed; this action can no longer be reversed",
      });
    }
    const data = new Uint8Array(row.data);
    if (sha256Hex(data) !== hash) {
      throw new RetieError(`blob ${hash.slice(0, 12)} is corrupted in ${this.path}`, {
        hint: "the store was altered on disk; restore it from a backup",
      });
    }
    return data;
  }

  /** Stored size of a blob in bytes, or 0 when it is not stored. */
  size(hash: string): number {
    const row = this.#db.prepare("SELECT size FROM blobs WHERE hash = ?").get(hash) as
      | { size: number }
      | undefined;
    return row?.size ?? 0;
  }

  /**
   * Deletes blobs (undo data the retention policy pruned) and gives the space back to the file
   * system; returns the bytes deleted.
   */
  delete(hashes: Iterable<string>): number {
    const del = this.#db.prepare("DELETE FROM blobs WHERE hash = ?");
    let bytes = 0;
    this.batch(() => {
      for (const h of hashes) {
        bytes += this.size(h);
        del.run(h);
      }
    });
    if (bytes > 0) this.#db.exec("VACUUM");
    return bytes;
  }

  /** Runs `fn` in one transaction (many puts commit once). */
  batch<T>(fn: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const r = fn();
      this.#db.exec("COMMIT");
      return r;
    } catch (e) {
      this.#db.exec("ROLLBACK");
      throw e;
    }
  }

  close(): void {
    this.#db.close();
  }
}
