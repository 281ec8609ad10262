/**
 * What retie knows of each model's entitlement, per base URL, in
 * `$XDG_CACHE_HOME/retie/probe.json`.
 *
 * Written by `retie probe` and by the ladder (a paywall answer during a session is a denial for
 * good), read by `retie models`, `retie usage` and the ladder of the next session. Every update
 * re-reads the file and replaces it atomically (write to a temp file, rename), so two processes
 * never see half a file and each one's update lands on the other's latest state.
 *
 * @module
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { cacheDir } from "../core/dirs.ts";
import { RetieError } from "../core/errors.ts";
import { writeFileAtomicSync } from "../core/atomic_write.ts";

/** What retie knows of a model's entitlement. */
export type Entitlement = "accessible" | "denied" | "inconclusive" | "not_probed";

/** One probe (or session) result for one model. */
export interface ProbeRecord {
  status: Exclude<Entitlement, "not_probed">;
  /** ISO time of the result. */
  at: string;
  /** The service's message (for a denial or an inconclusive result), verbatim. */
  message?: string;
  /** The provider error kind behind a non-success, e.g. `paywall`, `timeout`. */
  kind?: string;
  /** Who wrote it: `probe` or `session`. */
  source?: "probe" | "session";
}

/** A model of the last live list seen for a base URL, with its tier. */
export interface CatalogRecord {
  name: string;
  tier: number | null;
  sizeBytes: number | null;
  /** Where the size came from: `size`, `params` or `unknown`. */
  basis?: "size" | "params" | "unknown";
}

/** Everything cached for one base URL. */
export interface BaseRecord {
  models: Record<string, ProbeRecord>;
  /** The last live list (from `retie models` / `retie probe`), so `retie usage` works offline. */
  catalog?: CatalogRecord[];
  catalogAt?: string;
}

interface ProbeFile {
  version: 1;
  bases: Record<string, BaseRecord>;
}

/**
 * The default cache path, `$XDG_CACHE_HOME/retie/probe.json`.
 *
 * @example
 * ```ts
 * import { defaultProbeCachePath } from "./probe_cache.ts";
 * defaultProbeCachePath().endsWith("probe.json"); // true
 * ```
 */
export function defaultProbeCachePath(): string {
  return join(cacheDir(), "probe.json");
}

/** The probe cache file. */
export class ProbeCache {
  readonly path: string;

  /**
   * @example
   * ```ts
   * import { ProbeCache } from "./probe_cache.ts";
   * const cache = new ProbeCache("/tmp/retie-probe.json");
   * cache.set("https://ollama.com/v1", "glm-5.2", { status: "denied", at: new Date().toISOString() });
   * cache.entitlement("https://ollama.com/v1", "glm-5.2"); // "denied"
   * ```
   */
  constructor(path: string = defaultProbeCachePath()) {
    this.path = path;
  }

  #load(): ProbeFile {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return { version: 1, bases: {} };
      throw e;
    }
    try {
      const f = JSON.parse(text) as ProbeFile;
      if (f && f.version === 1 && f.bases && typeof f.bases === "object") return f;
    } catch { /* fall through */ }
    throw new RetieError(`cannot read the probe cache (${this.path}): not a retie probe file`, {
      hint: "delete the file and run `retie probe` again",
    });
  }

  #save(f: ProbeFile): void {
    writeFileAtomicSync(this.path, JSON.stringify(f, null, 1) + "\n", {
      mode: 0o600,
      mkdirMode: 0o700,
    });
  }

  #update(fn: (f: ProbeFile) => void): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + 5_000;
    let fd: number | undefined;
    while (fd === undefined) {
      try {
        fd = openSync(lock, "wx", 0o600);
      } catch (e) {
        if ((e as { code?: string }).code !== "EEXIST") throw e;
        // A lock older than 10 s belongs to a process that died mid-update.
        try {
          if (Date.now() - statSync(lock).mtimeMs > 10_000) unlinkSync(lock);
        } catch { /* released meanwhile */ }
        if (Date.now() > deadline) {
          throw new RetieError(`cannot update the probe cache (${this.path}): locked`, {
            hint: `another retie is writing it; if none is running, delete ${lock}`,
          });
        }
        // Synchronous on purpose: updates are tiny and rare; a short busy wait keeps the API sync.
        const until = Date.now() + 5;
        while (Date.now() < until) { /* wait */ }
      }
    }
    try {
      const f = this.#load();
      fn(f);
      this.#save(f);
    } finally {
      closeSync(fd);
      try {
        unlinkSync(lock);
      } catch { /* already removed as stale */ }
    }
  }

  /** Everything cached for `baseUrl` (empty when nothing is). */
  base(baseUrl: string): BaseRecord {
    return this.#load().bases[baseUrl] ?? { models: {} };
  }

  /** The cached record for one model, if any. */
  get(baseUrl: string, model: string): ProbeRecord | undefined {
    return this.base(baseUrl).models[model];
  }

  /** The entitlement of one model (`not_probed` when nothing is cached). */
  entitlement(baseUrl: string, model: string): Entitlement {
    return this.get(baseUrl, model)?.status ?? "not_probed";
  }

  /** Records one result (re-reading the file first, so concurrent writers do not lose updates). */
  set(baseUrl: string, model: string, rec: ProbeRecord): void {
    this.#update((f) => {
      const b = (f.bases[baseUrl] ??= { models: {} });
      b.models[model] = rec;
    });
  }

  /** Remembers the last live list with its tiers. */
  setCatalog(baseUrl: string, catalog: CatalogRecord[]): void {
    this.#update((f) => {
      const b = (f.bases[baseUrl] ??= { models: {} });
      b.catalog = catalog;
      b.catalogAt = new Date().toISOString();
    });
  }
}
