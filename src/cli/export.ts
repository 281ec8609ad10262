/**
 * `retie export --otlp URL [--ledger L] [SESSION…]`: verifies the ledger, then sends its agent
 * sessions (all, or the ones named) as OpenTelemetry traces to an OTLP/HTTP collector (`URL` is the
 * base endpoint, as in `OTEL_EXPORTER_OTLP_ENDPOINT`; traces go to `URL/v1/traces`). A ledger that
 * does not verify is not exported. Exit 0 sent, 1 refused or a batch failed, 2 bad input.
 *
 * @module
 */
import type { Command } from "commander";
import type { Register } from "./commands.ts";

interface ExportOptions {
  otlp?: string;
  ledger?: string;
  header: string[];
  json?: boolean;
}

/**
 * Registers `retie export`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./export.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program) => {
  program
    .command("export")
    .description(
      "verify the ledger, then send its sessions as OpenTelemetry traces (--otlp URL, OTLP/HTTP)",
    )
    .argument("[sessions...]", "session ids (ses_…); default: every agent session")
    .option(
      "--otlp <url>",
      "collector base URL, e.g. http://127.0.0.1:4318 (traces: URL/v1/traces)",
    )
    .option(
      "--header <name=value>",
      "HTTP header for the collector, e.g. an API key (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--json", "print the export report as JSON")
    .action(async (sessions: string[], _o: ExportOptions, cmd: Command) => {
      const o = cmd.optsWithGlobals<ExportOptions>();
      const { RetieError } = await import("../core/errors.ts");
      const { defaultLedgerPath } = await import("../core/dirs.ts");
      if (!o.otlp) {
        // The endpoint set for `retie run` in config.json serves here too.
        const { readOtlpConfig } = await import("./export_sessions.ts");
        const cfg = readOtlpConfig();
        if (cfg) {
          o.otlp = cfg.endpoint;
          for (const [k, v] of Object.entries(cfg.headers)) o.header.push(`${k}=${v}`);
        }
      }
      if (!o.otlp) {
        throw new RetieError("export: say where to send the sessions: --otlp URL", {
          hint:
            "retie export --otlp http://127.0.0.1:4318 (an OpenTelemetry collector's OTLP/HTTP port)",
          exitCode: 2,
        });
      }
      const { tracesUrl } = await import("../ui/otlp.ts");
      try {
        tracesUrl(o.otlp);
      } catch {
        throw new RetieError(`export: --otlp takes an http(s) URL (got "${o.otlp}")`, {
          hint: "e.g. --otlp http://127.0.0.1:4318",
          exitCode: 2,
        });
      }
      const headers: Record<string, string> = {};
      for (const h of o.header) {
        const i = h.indexOf("=");
        if (i <= 0) {
          throw new RetieError(`export: --header takes NAME=VALUE (got "${h}")`, { exitCode: 2 });
        }
        headers[h.slice(0, i).trim()] = h.slice(i + 1);
      }
      const { exportSessions } = await import("./export_sessions.ts");
      const r = await exportSessions(o.ledger ?? defaultLedgerPath(), sessions, {
        endpoint: o.otlp,
        headers,
      });
      const ms = r.ms;
      if (o.json) console.log(JSON.stringify({ ...r, ms, endpoint: tracesUrl(o.otlp) }, null, 2));
      else if (r.errors.length === 0) {
        console.log(
          `exported ${r.sessions} session${r.sessions === 1 ? "" : "s"} as ${r.spans} spans to ${
            tracesUrl(o.otlp)
          } in ${ms} ms`,
        );
      }
      if (r.errors.length) {
        console.error(
          `retie: ${r.errors.length} export request(s) failed: ${r.errors[0]} ` +
            `(is an OpenTelemetry collector listening at ${tracesUrl(o.otlp)}?)`,
        );
        Deno.exitCode = 1;
      }
    });
};
