/**
 * Where retie keeps its state, following the XDG base directories.
 *
 * - config (`$XDG_CONFIG_HOME/retie`): the user identity key.
 * - state (`$XDG_STATE_HOME/retie`): the ledger, blob store and snapshots.
 * - cache (`$XDG_CACHE_HOME/retie`): probe results and usage.
 *
 * None of these is ever inside a workspace the tools or the sandbox can write.
 *
 * @module
 */
import { join, resolve } from "node:path";

/** The base-directory variables {@link withBaseDirs} can override. */
export type BaseDirVar = "HOME" | "XDG_CONFIG_HOME" | "XDG_STATE_HOME" | "XDG_CACHE_HOME";

// Overrides for this isolate only. The process environment is shared by every isolate of the
// process (Deno's parallel test workers, an embedder's workers), so changing it would move the
// state of code running beside this one.
let overrides: Partial<Record<BaseDirVar, string>> = {};

/** Reads an environment variable without throwing when permission is missing. */
function env(name: string): string | undefined {
  const o = overrides[name as BaseDirVar];
  if (o !== undefined) return o;
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `fn` with base directories overridden in this isolate only, leaving the process
 * environment (and every other isolate of the process) alone. For embedders and tests that need
 * retie's state somewhere else without changing `Deno.env`.
 *
 * @example
 * ```ts
 * import { cacheDir, withBaseDirs } from "./dirs.ts";
 * const inside = await withBaseDirs({ XDG_CACHE_HOME: "/tmp/c" }, () => Promise.resolve(cacheDir()));
 * if (inside !== "/tmp/c/retie") throw new Error(inside);
 * ```
 */
export async function withBaseDirs<T>(
  dirs: Partial<Record<BaseDirVar, string>>,
  fn: () => Promise<T>,
): Promise<T> {
  const before = overrides;
  overrides = { ...overrides, ...dirs };
  try {
    return await fn();
  } finally {
    overrides = before;
  }
}

function home(): string {
  return env("HOME") ?? "/nonexistent-home";
}

/**
 * The retie config directory.
 *
 * @example
 * ```ts
 * import { configDir } from "./dirs.ts";
 * configDir(); // e.g. "/home/me/.config/retie"
 * ```
 */
export function configDir(): string {
  return join(env("XDG_CONFIG_HOME") ?? join(home(), ".config"), "retie");
}

/**
 * The retie state directory (ledger, blobs, snapshots).
 *
 * @example
 * ```ts
 * import { stateDir } from "./dirs.ts";
 * stateDir(); // e.g. "/home/me/.local/state/retie"
 * ```
 */
export function stateDir(): string {
  return join(env("XDG_STATE_HOME") ?? join(home(), ".local", "state"), "retie");
}

/**
 * The retie cache directory (probe results, usage).
 *
 * @example
 * ```ts
 * import { cacheDir } from "./dirs.ts";
 * cacheDir(); // e.g. "/home/me/.cache/retie"
 * ```
 */
export function cacheDir(): string {
  return join(env("XDG_CACHE_HOME") ?? join(home(), ".cache"), "retie");
}

/**
 * The default ledger path: `$RETIE_LEDGER`, else `<state>/ledger.db`.
 *
 * @example
 * ```ts
 * import { defaultLedgerPath } from "./dirs.ts";
 * defaultLedgerPath().endsWith(".db"); // true
 * ```
 */
export function defaultLedgerPath(): string {
  return env("RETIE_LEDGER") ?? join(stateDir(), "ledger.db");
}

/**
 * The stores that belong with a ledger, kept beside it so that a later process (`retie undo`)
 * finds the same undo data: `<ledger>.blobs.db` (prior file contents, large results) and
 * `<ledger>.snapshots.db` (workspace snapshots).
 *
 * @example
 * ```ts
 * import { storePaths } from "./dirs.ts";
 * storePaths("/s/ledger.db").blobs; // "/s/ledger.db.blobs.db"
 * ```
 */
export function storePaths(
  ledgerPath: string,
): { blobs: string; snapshots: string; staging: string } {
  return {
    blobs: `${ledgerPath}.blobs.db`,
    snapshots: `${ledgerPath}.snapshots.db`,
    // One directory per staged command (its overlay layers), and FIFOs kept for undo.
    staging: `${ledgerPath}.staging`,
  };
}

/**
 * Every file and directory that belongs with a ledger (absolute): the ledger, its head file, the
 * two stores, SQLite's side files of each, the snapshot store's barrier directory and the stored
 * conversations. None may be
 * reachable from a tool or a sandboxed command.
 *
 * @example
 * ```ts
 * import { ledgerFiles } from "./dirs.ts";
 * ledgerFiles("/s/ledger.db").includes("/s/ledger.db.snapshots.db.watch"); // true
 * ```
 */
export function ledgerFiles(ledgerPath: string): string[] {
  const ledger = resolve(ledgerPath);
  const s = storePaths(ledger);
  const files = [ledger, `${ledger}.head.json`, `${ledger}.verified.json`, s.blobs, s.snapshots];
  return [
    ...files.flatMap((f) => [f, `${f}-wal`, `${f}-shm`, `${f}-journal`]),
    `${s.snapshots}.watch`,
    // Stored conversations (resume), whose digests the ledger holds.
    `${ledger}.conversations`,
    s.staging,
  ];
}
