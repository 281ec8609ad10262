/**
 * Verified sessions as OpenTelemetry traces, sent over OTLP/HTTP (protobuf) with the official
 * OpenTelemetry JS SDK, so a team's existing backend (Jaeger, Tempo, Honeycomb, Datadog …) shows
 * them. It is one more rendering of the replay model:
 *
 * ```
 * invoke_agent retie            one span per session (trace id from the genesis entry's hash)
 * ├─ turn 1                     one span per prompt, until the next prompt
 * │  ├─ chat gpt-oss:20b        one span per model answer (GenAI semantic conventions)
 * │  ├─ execute_tool edit       one span per action or refusal: class, decision, approver, seq, hash
 * │  └─ undo act_…              an undo recorded in the session
 * ```
 *
 * Span and trace ids are derived from ledger entry hashes, so exporting a session twice sends the
 * same ids (backends de-duplicate) and every span points at the entry it came from. What leaves:
 * the objective and prompts (the person's words), names, classes, decisions, findings' rules and
 * the bounded, secret-masked output excerpt. What does not: model answer text, tool arguments,
 * file contents, diffs, keys and signatures.
 *
 * @module
 */
import { context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  type IdGenerator,
  type ReadableSpan,
  type SpanExporter,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { VERSION } from "../version.ts";
import { outputLines } from "./replay_diff.ts";
import type { ReplayItem, ReplayModel } from "./replay_model.ts";
import { errorMessage } from "../core/errors.ts";

/** What an export did. */
export interface OtlpReport {
  sessions: number;
  spans: number;
  /** Export requests that failed (each names its error). */
  errors: string[];
}

/** Ids taken in order: the next span gets the id queued for it (from its entry's hash). */
class LedgerIds implements IdGenerator {
  trace = "";
  span = "";
  generateTraceId(): string {
    return this.trace;
  }
  generateSpanId(): string {
    return this.span;
  }
}

/** Passes spans on and remembers what failed (the batch processor would only log it). */
class Recording implements SpanExporter {
  errors: string[] = [];
  exported = 0;
  constructor(private inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: (r: { code: number; error?: Error }) => void): void {
    this.inner.export(spans, (r) => {
      if (r.code === 0) this.exported += spans.length;
      else this.errors.push(r.error?.message ?? "export failed");
      done(r);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

const ms = (iso: string): number => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};
/** A span id (16 hex, not all zeros) from an entry hash. */
const spanIdOf = (hash: string, salt = 0): string => {
  const id = (hash.slice(salt * 16, salt * 16 + 16) || "1").padEnd(16, "0");
  return /^0+$/.test(id) ? "0000000000000001" : id;
};

/**
 * The traces endpoint of a collector base URL (`OTEL_EXPORTER_OTLP_ENDPOINT` style):
 * `http://host:4318` → `http://host:4318/v1/traces`.
 *
 * @example
 * ```ts
 * import { tracesUrl } from "./otlp.ts";
 * tracesUrl("http://127.0.0.1:4318/"); // "http://127.0.0.1:4318/v1/traces"
 * ```
 */
export function tracesUrl(base: string): string {
  const u = new URL(base);
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new Error(`not an http(s) URL: ${base}`);
  }
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

function itemAttributes(m: ReplayModel, a: ReplayItem): Record<string, string | number | boolean> {
  const attrs: Record<string, string | number | boolean> = {
    "retie.session.id": m.session,
    "retie.ledger.seq": a.seq,
    "retie.ledger.hash": a.hash,
    "retie.status": a.status,
  };
  if (a.actionId) attrs["retie.action.id"] = a.actionId;
  if (a.kind === "action" || a.kind === "refusal") {
    attrs["gen_ai.operation.name"] = "execute_tool";
    attrs["gen_ai.tool.name"] = a.tool;
    attrs["gen_ai.tool.type"] = "function";
    attrs["retie.summary"] = a.summary;
    attrs["retie.class"] = a.class;
    attrs["retie.decision"] = a.decision;
    if (a.decidedBy) attrs["retie.approver"] = a.decidedBy;
    if (a.reason && a.status !== "ok") attrs["retie.reason"] = a.reason;
    if (a.findings.length) attrs["retie.findings"] = a.findings.map((f) => f.rule).join(",");
    if (a.output?.exitCode !== undefined && a.output.exitCode !== null) {
      attrs["process.exit.code"] = a.output.exitCode;
    }
    if (a.output && a.output.head.length) {
      attrs["retie.output.excerpt"] = outputLines(a.output).join("\n");
    }
    if (a.undo) attrs["retie.undo"] = `${a.undo.status} #${a.undo.seq}`;
  }
  if (a.kind === "answer") {
    attrs["gen_ai.operation.name"] = "chat";
    attrs["gen_ai.provider.name"] = m.provider;
    attrs["gen_ai.request.model"] = a.reason ?? m.model;
    attrs["gen_ai.response.model"] = a.reason ?? m.model;
    attrs["retie.answer.chars"] = (a.text ?? "").length;
  }
  if (a.kind === "undo" && a.reason) attrs["retie.reason"] = a.reason;
  if (a.kind === "event" || a.kind === "entry") attrs["retie.event"] = a.summary;
  return attrs;
}

function spanName(a: ReplayItem): string {
  if (a.kind === "action" || a.kind === "refusal") return `execute_tool ${a.tool}`;
  if (a.kind === "answer") return `chat ${a.reason ?? ""}`.trim();
  if (a.kind === "undo") return "undo";
  return a.tool;
}

/** Emits one session's spans through `tracer`, with ids from the ledger. */
function emitSession(
  m: ReplayModel,
  tracer: ReturnType<TracerProvider["getTracer"]>,
  ids: LedgerIds,
): number {
  let count = 0;
  ids.trace = (m.genesisHash || m.head.hash).slice(0, 32).padEnd(32, "0");
  const start = (name: string, hash: string, t: number, parent: Span | null, attrs = {}) => {
    ids.span = spanIdOf(hash, parent ? 0 : 1);
    count++;
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    return tracer.startSpan(name, {
      startTime: t,
      kind: SpanKind.INTERNAL,
      attributes: attrs,
      ...(parent ? {} : { root: true }),
    }, ctx);
  };
  const t = m.totals;
  const root = start("invoke_agent retie", m.genesisHash, ms(m.started), null, {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "retie",
    "gen_ai.provider.name": m.provider,
    "gen_ai.request.model": m.model,
    "retie.session.id": m.session,
    "retie.objective": m.objective,
    "retie.policy": m.policy,
    "retie.sandbox": m.sandbox,
    "retie.ledger.head.seq": m.head.seq,
    "retie.ledger.head.hash": m.head.hash,
    "retie.ledger.verified": true,
    "retie.actions": t.actions,
    "retie.refused": t.refused,
    "retie.failed": t.failed,
    "retie.undone": t.undone,
  });
  let turn: Span | null = null;
  let turnEnd = ms(m.started);
  let turns = 0;
  const endTurn = () => turn?.end(turnEnd);
  for (const a of m.timeline) {
    const at = ms(a.time);
    if (a.kind === "prompt") {
      endTurn();
      turns++;
      turn = start(`turn ${turns}`, a.hash, at, root, {
        "retie.session.id": m.session,
        "retie.ledger.seq": a.seq,
        "retie.ledger.hash": a.hash,
        "retie.prompt": (a.text ?? "").slice(0, 2000),
      });
      turnEnd = at;
      continue;
    }
    const parent = turn ?? root;
    const end = at + Math.max(0, a.durationMs ?? 0);
    turnEnd = Math.max(turnEnd, end);
    if (a.kind === "event" || a.kind === "entry") {
      parent.addEvent(`retie.${a.tool}`, itemAttributes(m, a), at);
      continue;
    }
    const span = start(spanName(a), a.hash, at, parent, itemAttributes(m, a));
    for (const f of a.findings) {
      span.addEvent("retie.finding", {
        "retie.finding.rule": f.rule,
        "retie.finding.severity": f.severity,
        ...(f.line ? { "retie.finding.line": f.line } : {}),
        ...(f.path ? { "code.file.path": f.path } : {}),
      }, at);
    }
    if (a.status === "error") span.setStatus({ code: SpanStatusCode.ERROR, message: a.reason });
    else if (a.status === "ok") span.setStatus({ code: SpanStatusCode.OK });
    span.end(end);
  }
  endTurn();
  root.end(Math.max(ms(m.ended), turnEnd));
  return count;
}

/**
 * Sends sessions to an OTLP/HTTP collector (protobuf to `URL/v1/traces`) and waits until every
 * batch is answered.
 *
 * @example
 * ```ts ignore
 * const r = await exportOtlp([model], "http://127.0.0.1:4318");
 * r.errors.length; // 0
 * ```
 */
export async function exportOtlp(
  models: ReplayModel[],
  endpoint: string,
  opts: { headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<OtlpReport> {
  const exporter = new Recording(
    new OTLPTraceExporter({
      url: tracesUrl(endpoint),
      headers: opts.headers,
      timeoutMillis: opts.timeoutMs ?? 10_000,
    }),
  );
  const ids = new LedgerIds();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": "retie",
      "service.version": VERSION,
    }),
    idGenerator: ids,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        // Every span is kept: the queue holds a whole export, sent in batches.
        maxQueueSize: 1_000_000,
        maxExportBatchSize: 2048,
        scheduledDelayMillis: 50,
        exportTimeoutMillis: opts.timeoutMs ?? 10_000,
      }),
    ],
  });
  const tracer = provider.getTracer("retie", VERSION);
  let spans = 0;
  for (const m of models) spans += emitSession(m, tracer, ids);
  try {
    await provider.forceFlush();
  } catch (e) {
    // A refused connection surfaces here rather than in the exporter's callback.
    exporter.errors.push(errorMessage(e) ?? String(e));
  }
  try {
    await provider.shutdown();
  } catch { /* already reported by the flush */ }
  return { sessions: models.length, spans, errors: [...new Set(exporter.errors)] };
}
