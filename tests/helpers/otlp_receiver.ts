/**
 * A real OTLP/HTTP trace receiver on 127.0.0.1 for tests: it accepts `POST /v1/traces` as the
 * OTLP specification says — `application/x-protobuf` (an `ExportTraceServiceRequest`, decoded here
 * with a small protobuf wire-format reader written from the .proto files) or `application/json`
 * (the OTLP JSON mapping) — and answers with an empty `ExportTraceServiceResponse`.
 *
 * Field numbers are those of opentelemetry-proto `trace/v1/trace.proto`,
 * `common/v1/common.proto`, `resource/v1/resource.proto` and
 * `collector/trace/v1/trace_service.proto`.
 */

/** A decoded span, ids in lowercase hex, times in nanoseconds. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  events: { name: string; time: bigint; attributes: Record<string, unknown> }[];
  status: { code: number; message: string };
  resource: Record<string, unknown>;
  scope: string;
}

type Field = { wt: number; v: bigint | Uint8Array };

/** Reads one protobuf message into its fields (number → values in order). */
function fields(buf: Uint8Array): Map<number, Field[]> {
  const out = new Map<number, Field[]>();
  let i = 0;
  const varint = (): bigint => {
    let r = 0n;
    let shift = 0n;
    while (true) {
      if (i >= buf.length) throw new Error("protobuf: truncated varint");
      const b = buf[i++];
      r |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return r;
      shift += 7n;
    }
  };
  const fixed = (n: number): bigint => {
    if (i + n > buf.length) throw new Error("protobuf: truncated fixed field");
    let r = 0n;
    for (let k = n - 1; k >= 0; k--) r = (r << 8n) | BigInt(buf[i + k]);
    i += n;
    return r;
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wt = key & 7;
    let v: bigint | Uint8Array;
    if (wt === 0) v = varint();
    else if (wt === 1) v = fixed(8);
    else if (wt === 5) v = fixed(4);
    else if (wt === 2) {
      const len = Number(varint());
      if (i + len > buf.length) throw new Error("protobuf: truncated bytes");
      v = buf.subarray(i, i + len);
      i += len;
    } else throw new Error(`protobuf: unsupported wire type ${wt}`);
    if (!out.has(no)) out.set(no, []);
    out.get(no)!.push({ wt, v });
  }
  return out;
}

const dec = new TextDecoder("utf-8", { fatal: true });
const bytes = (m: Map<number, Field[]>, n: number): Uint8Array =>
  (m.get(n)?.[0]?.v as Uint8Array | undefined) ?? new Uint8Array();
const text = (m: Map<number, Field[]>, n: number): string => dec.decode(bytes(m, n));
const int = (m: Map<number, Field[]>, n: number): bigint => (m.get(n)?.[0]?.v as bigint) ?? 0n;
const all = (m: Map<number, Field[]>, n: number): Uint8Array[] =>
  (m.get(n) ?? []).map((f) => f.v as Uint8Array);
const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");

function anyValue(b: Uint8Array): unknown {
  const m = fields(b);
  if (m.has(1)) return text(m, 1);
  if (m.has(2)) return int(m, 2) !== 0n;
  if (m.has(3)) return BigInt.asIntN(64, int(m, 3));
  if (m.has(4)) return new Float64Array(new BigUint64Array([int(m, 4)]).buffer)[0];
  if (m.has(5)) return all(fields(bytes(m, 5)), 1).map(anyValue);
  if (m.has(7)) return bytes(m, 7);
  return null;
}

function attributes(list: Uint8Array[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list) {
    const m = fields(kv);
    out[text(m, 1)] = anyValue(bytes(m, 2));
  }
  return out;
}

/**
 * Decodes an `ExportTraceServiceRequest` (protobuf) into spans.
 *
 * @example
 * ```ts ignore
 * decodeTraceRequest(new Uint8Array(await req.arrayBuffer()));
 * ```
 */
export function decodeTraceRequest(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of all(fields(body), 1)) {
    const r = fields(rs);
    const resource = attributes(all(fields(bytes(r, 1)), 1));
    for (const ss of all(r, 2)) {
      const s = fields(ss);
      const scope = text(fields(bytes(s, 1)), 1);
      for (const sp of all(s, 2)) {
        const f = fields(sp);
        const st = fields(bytes(f, 15));
        spans.push({
          traceId: hex(bytes(f, 1)),
          spanId: hex(bytes(f, 2)),
          parentSpanId: hex(bytes(f, 4)),
          name: text(f, 5),
          kind: Number(int(f, 6)),
          start: int(f, 7),
          end: int(f, 8),
          attributes: attributes(all(f, 9)),
          events: all(f, 11).map((e) => {
            const ev = fields(e);
            return { name: text(ev, 2), time: int(ev, 1), attributes: attributes(all(ev, 3)) };
          }),
          status: { code: Number(int(st, 3)), message: text(st, 2) },
          resource,
          scope,
        });
      }
    }
  }
  return spans;
}

/** Decodes the OTLP JSON mapping of the same request (ids are hex strings there). */
function decodeJson(body: string): ReceivedSpan[] {
  // deno-lint-ignore no-explicit-any
  const j = JSON.parse(body) as any;
  // deno-lint-ignore no-explicit-any
  const attrs = (l: any[] = []) =>
    Object.fromEntries(l.map((kv) => [kv.key, Object.values(kv.value ?? {})[0]]));
  const spans: ReceivedSpan[] = [];
  for (const rs of j.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          kind: s.kind,
          start: BigInt(s.startTimeUnixNano),
          end: BigInt(s.endTimeUnixNano),
          attributes: attrs(s.attributes),
          // deno-lint-ignore no-explicit-any
          events: (s.events ?? []).map((e: any) => ({
            name: e.name,
            time: BigInt(e.timeUnixNano),
            attributes: attrs(e.attributes),
          })),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? "" },
          resource: attrs(rs.resource?.attributes),
          scope: ss.scope?.name ?? "",
        });
      }
    }
  }
  return spans;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** Base URL (as `--otlp` takes it). */
  url: string;
  spans: ReceivedSpan[];
  /** Requests seen: content type and size. */
  requests: { contentType: string; bytes: number; path: string }[];
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1 (a free port).
 *
 * @example
 * ```ts ignore
 * const rx = startOtlpReceiver();
 * // retie export --otlp rx.url …
 * await rx.close();
 * ```
 */
export function startOtlpReceiver(): OtlpReceiver {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver["requests"] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = new Uint8Array(await req.arrayBuffer());
    const contentType = req.headers.get("content-type") ?? "";
    requests.push({ contentType, bytes: body.length, path });
    if (req.method !== "POST" || path !== "/v1/traces") return new Response("", { status: 404 });
    try {
      if (contentType.startsWith("application/x-protobuf")) {
        spans.push(...decodeTraceRequest(body));
        return new Response(new Uint8Array(), {
          headers: { "content-type": "application/x-protobuf" },
        });
      }
      if (contentType.startsWith("application/json")) {
        spans.push(...decodeJson(new TextDecoder().decode(body)));
        return Response.json({});
      }
      return new Response("unsupported content type", { status: 415 });
    } catch (e) {
      return new Response(`bad request: ${(e as Error).message}`, { status: 400 });
    }
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    spans,
    requests,
    close: () => server.shutdown(),
  };
}
