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
        throw new RetieError("export: say where to send the sessions: --otlp URL", {
          hint:
            "retie export --otlp http://127.0.0.1:4318 (an OpenTelemetry collector's OTLP/HTTP port)",
          exitCode: 2,
        });
      }
      const { tracesUrl, exportOtlp } = await import("../ui/otlp.ts");
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
      const path = o.ledger ?? defaultLedgerPath();
      const { verifyLedger, openLedger } = await import("../ledger/mod.ts");
      const report = verifyLedger(path);
      if (!report.ok) {
        const bad = report.firstBad!;
        throw new RetieError(
          `export: the ledger ${path} fails verification (seq ${bad.seq}: ${bad.problem}); nothing was sent`,
          { hint: "only verified ledgers are exported; run `retie verify` to see why" },
        );
      }
      const { buildReplay } = await import("../ui/replay_model.ts");
      const ledger = openLedger(path);
      let models;
      try {
        const all = ledger.sessions().filter((s) => s.provider !== "none").map((s) => s.id);
        const unknown = sessions.filter((s) => !ledger.sessions().some((x) => x.id === s));
        if (unknown.length) {
          throw new RetieError(`export: no session ${unknown.join(", ")} in ${path}`, {
            hint: "list them with `retie replay --list`",
            exitCode: 2,
          });
        }
        const head = { seq: report.headSeq, hash: report.headHash };
        const undos = ledger.entries({ kinds: ["undo"] });
        models = (sessions.length ? sessions : all).map((id) =>
          buildReplay(
            ledger.entries({ session: id }),
            head,
            undos.filter((e) => e.session !== id),
          )
        );
      } finally {
        ledger.close();
      }
      const started = performance.now();
      const r = await exportOtlp(models, o.otlp, { headers });
      const ms = Math.round(performance.now() - started);
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
