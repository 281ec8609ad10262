/**
 * Local usage accounting: every call's tokens × its model's tier weight = quota units, in
 * `$XDG_CACHE_HOME/retie/usage.db` (node:sqlite, WAL, busy timeout: two retie processes can
 * record at once).
 *
 * Consumption only. The service publishes no allowance, so there is no "remaining" figure here:
 * a percentage would mean inventing the denominator.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { cacheDir } from "../core/dirs.ts";
import { tierWeight } from "./tiers.ts";

/** One recorded call. */
export interface UsageCall {
  session: string;
  model: string;
  tier: number | null;
  inputTokens: number;
  outputTokens: number;
  /** Base URL of the service, to keep accounts apart. */
  baseUrl?: string;
  /** Time of the call (default: now). */
  at?: Date;
}

/** A total over some grouping key. */
export interface UsageTotal {
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  units: number;
}

/** Totals per model, tier, session and day (UTC). */
export interface UsageSummary {
  total: UsageTotal;
  byModel: UsageTotal[];
  byTier: UsageTotal[];
  bySession: UsageTotal[];
  byDay: UsageTotal[];
}

/**
 * Quota units for one call: (input + output tokens) × tier weight (tier N weighs N; unknown 4).
 *
 * @example
 * ```ts
 * import { quotaUnits } from "./usage_store.ts";
 * quotaUnits(100, 20, 2); // 240
 * ```
 */
export function quotaUnits(inputTokens: number, outputTokens: number, tier: number | null): number {
  return (inputTokens + outputTokens) * tierWeight(tier);
}

/**
 * The default store path, `$XDG_CACHE_HOME/retie/usage.db`.
 *
 * @example
 * ```ts
 * import { defaultUsagePath } from "./usage_store.ts";
 * defaultUsagePath().endsWith("usage.db"); // true
 * ```
 */
export function defaultUsagePath(): string {
  return join(cacheDir(), "usage.db");
}

/** The usage database. */
export class UsageStore {
  readonly path: string;
  #db: DatabaseSync;

  /**
   * @example
   * ```ts
   * import { UsageStore } from "./usage_store.ts";
   * const store = new UsageStore("/tmp/retie-usage.db");
   * store.record({ session: "s1", model: "gpt-oss:20b", tier: 1, inputTokens: 10, outputTokens: 2 });
   * store.summary().total.units; // 12 (plus anything recorded before)
   * store.close();
   * ```
   */
  constructor(path: string = defaultUsagePath()) {
    this.path = path;
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#db = new DatabaseSync(path, { timeout: 10_000 });
    this.#db.exec("PRAGMA journal_mode=WAL");
    this.#db.exec("PRAGMA synchronous=NORMAL");
    this.#db.exec(`CREATE TABLE IF NOT EXISTS calls (
      id INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      day TEXT NOT NULL,
      session TEXT NOT NULL,
      base_url TEXT NOT NULL DEFAULT '',
      model TEXT NOT NULL,
      tier INTEGER,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      units INTEGER NOT NULL
    )`);
  }

  /** Records one call and returns its quota units. */
  record(c: UsageCall): number {
    const at = c.at ?? new Date();
    const inT = Math.max(0, Math.trunc(c.inputTokens || 0));
    const outT = Math.max(0, Math.trunc(c.outputTokens || 0));
    const units = quotaUnits(inT, outT, c.tier);
    this.#db.prepare(
      `INSERT INTO calls (at, day, session, base_url, model, tier, input_tokens, output_tokens, units)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      at.toISOString(),
      at.toISOString().slice(0, 10),
      c.session,
      c.baseUrl ?? "",
      c.model,
      c.tier,
      inT,
      outT,
      units,
    );
    return units;
  }

  #group(expr: string, where: string, args: (string | number)[]): UsageTotal[] {
    const rows = this.#db.prepare(
      `SELECT ${expr} AS key, COUNT(*) AS calls, COALESCE(SUM(input_tokens),0) AS i,
         COALESCE(SUM(output_tokens),0) AS o, COALESCE(SUM(units),0) AS u
       FROM calls ${where} GROUP BY key ORDER BY key`,
    ).all(...args) as { key: unknown; calls: number; i: number; o: number; u: number }[];
    return rows.map((r) => ({
      key: String(r.key),
      calls: Number(r.calls),
      inputTokens: Number(r.i),
      outputTokens: Number(r.o),
      units: Number(r.u),
    }));
  }

  /** Totals per model, tier, session and day; optionally for one session only. */
  summary(opts: { session?: string } = {}): UsageSummary {
    const where = opts.session ? "WHERE session = ?" : "";
    const args = opts.session ? [opts.session] : [];
    const total = this.#group("'all'", where, args)[0] ??
      { key: "all", calls: 0, inputTokens: 0, outputTokens: 0, units: 0 };
    return {
      total,
      byModel: this.#group("model", where, args),
      byTier: this.#group("COALESCE(CAST(tier AS TEXT), 'unknown')", where, args),
      bySession: this.#group("session", where, args),
      byDay: this.#group("day", where, args),
    };
  }

  close(): void {
    this.#db.close();
  }
}
