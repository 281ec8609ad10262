/**
 * One HTTP(S) request to an address the guard already checked: no second lookup.
 *
 * `node:http`/`node:https` take a `lookup` option; Deno 2.9.6 honours it (deno-platform.md §10): the
 * socket goes to the address we return, while the Host header, TLS SNI and the certificate check
 * use the URL's host name. `fetch()` has no such hook, so it is not used here.
 *
 * Redirects are not followed here (see `fetch_page.ts`), bodies are capped while streaming, and
 * the request is destroyed when the signal aborts.
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import zlib from "node:zlib";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { CheckedTarget } from "./url_check.ts";

/**
 * Where a socket actually goes, given the checked address. Production never sets one: the socket
 * goes to the checked address. Tests set one to reach a local server while every check still runs
 * on the resolver's (public-looking) answers exactly as in production.
 */
export interface Transport {
  /** Maps a checked address to the address the socket connects to. */
  connectTo(checkedAddress: string): string;
  /** Extra trusted CA certificate (PEM) for a local TLS test server. */
  ca?: string;
}

/** A response with its body read (and decoded from gzip/deflate/br) within the cap. */
export interface PinnedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Uint8Array;
  /** The checked address the request was pinned to. */
  address: string;
}

/** Options for {@link pinnedRequest}. */
export interface PinnedOptions {
  headers: Record<string, string>;
  maxBytes: number;
  signal: AbortSignal;
  transport?: Transport;
}

/** Statuses that redirect (followed by hand in fetch_page.ts). */
export const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

function tooLarge(url: string, maxBytes: number): RetieError {
  return new RetieError(`response too large (${url}): more than ${maxBytes} bytes`, {
    hint: "fetch a smaller page, or a more specific URL",
  });
}

/** Prefers an IPv4 answer (IPv6 connectivity is often missing), else the first IPv6 one. */
function pickAddress(addresses: string[]): string {
  return addresses.find((a) => !a.includes(":")) ?? addresses[0];
}

function decode(body: Uint8Array, encoding: string, url: string, maxBytes: number): Uint8Array {
  const enc = encoding.trim().toLowerCase();
  if (enc === "" || enc === "identity") return body;
  const opts = { maxOutputLength: maxBytes };
  try {
    if (enc === "gzip" || enc === "x-gzip") return new Uint8Array(zlib.gunzipSync(body, opts));
    if (enc === "deflate") return new Uint8Array(zlib.inflateSync(body, opts));
    if (enc === "br") return new Uint8Array(zlib.brotliDecompressSync(body, opts));
  } catch (e) {
    if (e instanceof RangeError || String(e).includes("maxOutputLength")) {
      throw tooLarge(url, maxBytes);
    }
    throw new RetieError(`cannot decode the response (${url}): ${errorMessage(e)}`);
  }
  throw new RetieError(`unsupported content encoding (${url}): ${encoding}`, {
    hint: "the server ignored Accept-Encoding: identity; try another URL",
  });
}

/**
 * Sends one GET to `target`, connected to its checked address, and reads the body within
 * `maxBytes` (a redirect's body is skipped). Rejects with RetieError on a network error, an oversize body, or abort.
 *
 * @example
 * ```ts
 * import { pinnedRequest } from "./pinned_fetch.ts";
 * import { inspectUrl } from "./url_check.ts";
 * import { dnsResolver } from "./resolver.ts";
 * const { target } = await inspectUrl("https://example.com/", dnsResolver);
 * const res = await pinnedRequest(target!, {
 *   headers: {}, maxBytes: 2_000_000, signal: AbortSignal.timeout(20_000),
 * });
 * ```
 */
export function pinnedRequest(target: CheckedTarget, opts: PinnedOptions): Promise<PinnedResponse> {
  const checked = pickAddress(target.addresses);
  const connectAddress = opts.transport ? opts.transport.connectTo(checked) : checked;
  const family: 4 | 6 = connectAddress.includes(":") ? 6 : 4;
  const url = target.url;
  const literal = target.addresses.length === 1 && target.addresses[0] === target.host;
  const mod = url.protocol === "https:" ? https : http;
  return new Promise<PinnedResponse>((resolve, reject) => {
    if (opts.signal.aborted) {
      reject(abortError(url.href, opts.signal));
      return;
    }
    const denied = deniedByDeno(connectAddress, target.port);
    if (denied) {
      reject(denied);
      return;
    }
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      opts.signal.removeEventListener("abort", onAbort);
      req.destroy();
      reject(
        e instanceof RetieError
          ? e
          : new RetieError(`fetch failed (${url.href}): ${(e as Error)?.message ?? e}`),
      );
    };
    const onAbort = () => fail(abortError(url.href, opts.signal));
    const req = mod.request({
      protocol: url.protocol,
      // A name connects through `lookup` (so SNI and the certificate use the name); an IP literal
      // has nothing to look up, so the (possibly routed) address is the host itself.
      host: literal ? connectAddress : target.host,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: { ...opts.headers, host: url.host },
      agent: false,
      ...(opts.transport?.ca ? { ca: opts.transport.ca } : {}),
      lookup: literal ? undefined : pinnedLookup(connectAddress, family),
    }, (res) => {
      const status = res.statusCode ?? 0;
      // A redirect's body is never read: only its Location matters.
      if (REDIRECTS.has(status) && res.headers.location) {
        res.destroy();
        settled = true;
        opts.signal.removeEventListener("abort", onAbort);
        resolve({ status, headers: res.headers, body: new Uint8Array(), address: checked });
        return;
      }
      const declared = Number(res.headers["content-length"] ?? NaN);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        fail(tooLarge(url.href, opts.maxBytes));
        return;
      }
      const chunks: Uint8Array[] = [];
      let total = 0;
      res.on("data", (chunk: Uint8Array) => {
        total += chunk.byteLength;
        if (total > opts.maxBytes) fail(tooLarge(url.href, opts.maxBytes));
        else chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("end", () => {
        if (settled) return;
        try {
          const raw = new Uint8Array(total);
          let at = 0;
          for (const c of chunks) {
            raw.set(c, at);
            at += c.byteLength;
          }
          const enc = String(res.headers["content-encoding"] ?? "");
          const body = decode(raw, enc, url.href, opts.maxBytes);
          settled = true;
          opts.signal.removeEventListener("abort", onAbort);
          resolve({ status, headers: res.headers, body, address: checked });
        } catch (e) {
          fail(e);
        }
      });
    });
    req.on("error", fail);
    opts.signal.addEventListener("abort", onAbort, { once: true });
    req.end();
  });
}

/**
 * A `lookup` that never looks anything up: it answers the pinned address, in whichever shape the
 * caller asked for (`{all: true}` → an array, as Deno's node:http asks).
 */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  // deno-lint-ignore no-explicit-any
  return ((_name: string, options: { all?: boolean }, cb: (...args: any[]) => void) => {
    if (options?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as LookupFunction;
}

/**
 * Deno's own wall (`--deny-net` in permissions/*.flags) is asked first: inside node:http a denied
 * socket surfaces as an uncaught error that ends the process, not as a failed request.
 */
function deniedByDeno(address: string, port: number): RetieError | null {
  const host = address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
  const state = Deno.permissions.querySync({ name: "net", host }).state;
  if (state === "granted") return null;
  return new RetieError(
    `connection denied by Deno's permissions (${host}): net access is ${state}`,
    {
      hint: "the address is outside retie's net permissions (see permissions/*.flags)",
    },
  );
}

function abortError(url: string, signal: AbortSignal): RetieError {
  const reason = signal.reason;
  if (reason instanceof RetieError) return reason;
  return new RetieError(`fetch aborted (${url}): ${(reason as Error)?.message ?? "cancelled"}`);
}
