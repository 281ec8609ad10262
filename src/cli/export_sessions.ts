/**
 * The body of an OTLP export, shared by `retie export` and the end of `retie run`: verify the
 * ledger, build the replay of each session (with the undos recorded later), send them. Also reads
 * the `otlp` setting of `$XDG_CONFIG_HOME/retie/config.json`:
 *
 * ```json
 * { "otlp": { "endpoint": "http://127.0.0.1:4318", "headers": { "x-api-key": "…" } } }
 * ```
 *
 * (or `"otlp": "http://127.0.0.1:4318"`). With it, every `retie run` exports its session when it
 * ends.
 *
 * @module
 */
import { z } from "zod";
import { configDir } from "../core/dirs.ts";
import { configPath, loadConfig, type LoadedConfig } from "../config/mod.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import { openLedger, verifyLedger } from "../ledger/mod.ts";
import { exportOtlp, type OtlpReport, tracesUrl } from "../ui/otlp.ts";
import { buildReplay, type ReplayModel } from "../ui/replay_model.ts";

/** Where and how to send. */
export interface OtlpTarget {
  endpoint: string;
  headers: Record<string, string>;
}

const Endpoint = z.string().refine((u) => {
  try {
    tracesUrl(u);
    return true;
  } catch {
    return false;
  }
}, "an http(s) URL, e.g. http://127.0.0.1:4318");

const ConfigSchema = z.object({
  otlp: z.union([
    Endpoint,
    z.object({ endpoint: Endpoint, headers: z.record(z.string(), z.string()).optional() }),
  ]).optional(),
}).passthrough();

/**
 * The `otlp` setting of the config file, or null when there is none.
 *
 * @example
 * ```ts ignore
 * readOtlpConfig(); // { endpoint: "http://127.0.0.1:4318", headers: {} } or null
 * ```
 */
export function readOtlpConfig(
  dir: string = configDir(),
  loaded: LoadedConfig = loadConfig(configPath(dir)),
): OtlpTarget | null {
  // loadConfig validated the file's keys (pass what `retie run` loaded already); the otlp section
  // is checked here.
  const parsed = ConfigSchema.safeParse({ otlp: loaded.config.otlp });
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`);
    throw new RetieError(`cannot use ${loaded.path}: ${why.join("; ")}`, {
      hint: 'otlp takes a URL or { "endpoint": URL, "headers": { NAME: VALUE } }',
      exitCode: 2,
    });
  }
  const o = parsed.data.otlp;
  if (o === undefined) return null;
  return typeof o === "string"
    ? { endpoint: o, headers: {} }
    : { endpoint: o.endpoint, headers: o.headers ?? {} };
}

/**
 * Verifies the ledger, then sends the sessions (default: every agent session). Throws a
 * RetieError when the ledger does not verify (nothing is sent) or a session is unknown.
 *
 * @example
 * ```ts ignore
 * const r = await exportSessions("ledger.db", [], { endpoint: "http://127.0.0.1:4318", headers: {} });
 * ```
 */
export async function exportSessions(
  path: string,
  sessions: string[],
  target: OtlpTarget,
): Promise<OtlpReport & { ms: number }> {
  const report = verifyLedger(path);
  if (!report.ok) {
    const bad = report.firstBad!;
    throw new RetieError(
      `export: the ledger ${path} fails verification (seq ${bad.seq}: ${bad.code} ${bad.detail}); nothing was sent`,
      { hint: "only verified ledgers are exported; run `retie verify` to see why" },
    );
  }
  const ledger = openLedger(path);
  let models: ReplayModel[];
  try {
    const known = ledger.sessions();
    const unknown = sessions.filter((s) => !known.some((x) => x.id === s));
    if (unknown.length) {
      throw new RetieError(`export: no session ${unknown.join(", ")} in ${path}`, {
        hint: "list them with `retie replay --list`",
        exitCode: 2,
      });
    }
    const ids = sessions.length
      ? sessions
      : known.filter((s) => s.provider !== "none").map((s) => s.id);
    const head = { seq: report.headSeq, hash: report.headHash };
    const undos = ledger.entries({ kinds: ["undo"] });
    models = ids.map((id) =>
      buildReplay(ledger.entries({ session: id }), head, undos.filter((e) => e.session !== id))
    );
  } finally {
    ledger.close();
  }
  const started = performance.now();
  const r = await exportOtlp(models, target.endpoint, { headers: target.headers });
  return { ...r, ms: Math.round(performance.now() - started) };
}

/**
 * Exports one session when `retie run` ends; a failure is reported, not fatal (the session is
 * recorded either way, and `retie export` can send it later).
 *
 * @example
 * ```ts ignore
 * await exportAtEnd("ledger.db", "ses_0123456789ab", { endpoint: "http://127.0.0.1:4318", headers: {} });
 * ```
 */
export async function exportAtEnd(
  path: string,
  session: string,
  target: OtlpTarget,
): Promise<void> {
  try {
    const r = await exportSessions(path, [session], target);
    if (r.errors.length) throw new Error(r.errors[0]);
    console.error(`exported ${session} as ${r.spans} spans to ${tracesUrl(target.endpoint)}`);
  } catch (e) {
    console.error(
      `warning: ${session} was not exported to ${target.endpoint}: ${errorMessage(e)} ` +
        `(send it later: retie export --otlp URL ${session})`,
    );
  }
}
