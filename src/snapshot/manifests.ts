/**
 * The manifests of a snapshot store: stored as deltas against the previous manifest of the root (a
 * full one every {@link MAX_DELTA_DEPTH}), read back by following the chain, and checked against
 * their id (the hash of their canonical text) when read. The last few are kept in memory.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { RetieError } from "../core/errors.ts";
import { type Manifest, type ManifestEntry, manifestId } from "./tree.ts";

/** A full manifest is stored after this many deltas. */
export const MAX_DELTA_DEPTH = 32;

/** The `snap_manifests` table of a snapshot store's database. */
export class ManifestTable {
  readonly #db: DatabaseSync;
  readonly #dbPath: string;
  #cache = new Map<string, Manifest>();

  /**
   * Uses (creating) the table in `db`; `dbPath` names the store in errors.
   *
   * @example
   * ```ts
   * import { DatabaseSync } from "node:sqlite";
   * import { ManifestTable } from "./manifests.ts";
   * const t = new ManifestTable(new DatabaseSync(":memory:"), ":memory:");
   * ```
   */
  constructor(db: DatabaseSync, dbPath: string) {
    this.#db = db;
    this.#dbPath = dbPath;
    db.exec(`CREATE TABLE IF NOT EXISTS snap_manifests (
      id TEXT PRIMARY KEY, base TEXT, depth INTEGER NOT NULL, exclude TEXT NOT NULL, data TEXT NOT NULL)`);
  }

  /** Stores manifest `id` (inside the caller's transaction): a delta against `prev` when it can. */
  save(
    id: string,
    man: Manifest,
    ex: string[],
    prev: { manifest: string; entries: Map<string, ManifestEntry> } | undefined,
    changed: [string, ManifestEntry][],
    removed: string[],
  ): void {
    if (this.#db.prepare("SELECT 1 AS x FROM snap_manifests WHERE id = ?").get(id)) return;
    const baseRow = prev
      ? this.#db.prepare("SELECT depth FROM snap_manifests WHERE id = ?").get(prev.manifest) as
        | { depth: number }
        | undefined
      : undefined;
    const insert = this.#db.prepare(
      "INSERT OR IGNORE INTO snap_manifests (id, base, depth, exclude, data) VALUES (?, ?, ?, ?, ?)",
    );
    if (prev && baseRow && baseRow.depth < MAX_DELTA_DEPTH) {
      // Only t/m/r matter to a manifest; stat-only changes produce no delta line.
      const set: [string, string, number, string][] = [];
      for (const [k, e] of changed) {
        const b = prev.entries.get(k);
        if (!b || b.kind !== e.kind || b.mode !== e.mode || b.ref !== e.ref) {
          set.push([k, e.kind, e.mode, e.ref]);
        }
      }
      const data = JSON.stringify({ set, del: removed });
      insert.run(id, prev.manifest, baseRow.depth + 1, JSON.stringify(ex), data);
      return;
    }
    const set: [string, string, number, string][] = [];
    for (const [k, e] of man) set.push([k, e.kind, e.mode, e.ref]);
    insert.run(id, null, 0, JSON.stringify(ex), JSON.stringify({ set, del: [] }));
  }

  /** Keeps `man` in memory as manifest `id` (the four most recent are kept). */
  remember(id: string, man: Manifest): void {
    this.#cache.delete(id);
    this.#cache.set(id, man);
    while (this.#cache.size > 4) {
      this.#cache.delete(this.#cache.keys().next().value!);
    }
  }

  /** The manifest and exclude list of snapshot `id`; throws when unknown or corrupted. */
  get(id: string): { man: Manifest; exclude: string[] } {
    const cached = this.#cache.get(id);
    // A cached manifest needs only its exclude list (a full manifest's data is megabytes).
    const get = this.#db.prepare(
      cached
        ? "SELECT NULL AS base, exclude, '' AS data FROM snap_manifests WHERE id = ?"
        : "SELECT base, exclude, data FROM snap_manifests WHERE id = ?",
    );
    const top = get.get(id) as { base: string | null; exclude: string; data: string } | undefined;
    if (!top) {
      throw new RetieError(`snapshot ${id.slice(0, 12)} is not in the store (${this.#dbPath})`, {
        hint: "the undo data was removed; this action can no longer be reversed",
      });
    }
    const exclude = JSON.parse(top.exclude) as string[];
    if (cached) return { man: cached, exclude };
    // Follow the delta chain down to a full manifest (or a cached one), then apply upwards.
    const chain: { data: string }[] = [];
    let row: { base: string | null; data: string } | undefined = top;
    let man: Manifest | undefined;
    while (row) {
      chain.push(row);
      if (row.base === null) break;
      const c = this.#cache.get(row.base);
      if (c) {
        man = new Map(c);
        break;
      }
      row = get.get(row.base) as typeof row;
      if (!row) throw new RetieError(`snapshot ${id.slice(0, 12)}: a base manifest is missing`);
    }
    man ??= new Map();
    for (let i = chain.length - 1; i >= 0; i--) {
      const d = JSON.parse(chain[i].data) as {
        set: [string, string, number, string][];
        del: string[];
      };
      for (const k of d.del) man.delete(k);
      for (const [k, t, m, r] of d.set) {
        man.set(k, { kind: t as ManifestEntry["kind"], mode: m, ref: r });
      }
    }
    if (manifestId(man) !== id) {
      throw new RetieError(`snapshot ${id.slice(0, 12)} is corrupted in ${this.#dbPath}`, {
        hint: "the store was altered on disk; this action can no longer be reversed",
      });
    }
    this.remember(id, man);
    return { man, exclude };
  }
}
