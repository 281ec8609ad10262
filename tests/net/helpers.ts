/**
 * Test helpers for the web fetch, reusable by end-to-end tests (the agent's "assume the hijack
 * succeeds" test): an injected resolver that counts lookups, local HTTP servers on 127.0.0.1:0, and
 * a transport that sends the socket to the local server while the guard checks public addresses.
 */
import type { Resolver } from "../../src/net/resolver.ts";
import type { Transport } from "../../src/net/pinned_fetch.ts";

/** Public unicast addresses used as resolver answers (never actually contacted). */
export const PUBLIC_V4 = "93.184.215.14";
export const PUBLIC_V4_B = "151.101.1.69";
export const PUBLIC_V6 = "2606:4700::1111";

/** A resolver with a fixed table; a list of answers per name is served in turn (rebinding). */
export interface CountingResolver extends Resolver {
  /** Every name asked, in order. */
  readonly lookups: string[];
}

/**
 * `table[name]` is either the addresses (same answer every time) or, for rebinding, a list of
 * answers served one per lookup (the last repeats). Unknown names reject like NXDOMAIN.
 */
export function fakeResolver(table: Record<string, string[] | string[][]>): CountingResolver {
  const lookups: string[] = [];
  const served = new Map<string, number>();
  return {
    lookups,
    resolve(host: string): Promise<string[]> {
      lookups.push(host);
      const entry = table[host.toLowerCase()];
      if (!entry) return Promise.reject(new Error(`NXDOMAIN ${host}`));
      if (entry.length > 0 && Array.isArray(entry[0])) {
        const answers = entry as string[][];
        const i = served.get(host) ?? 0;
        served.set(host, i + 1);
        return Promise.resolve([...answers[Math.min(i, answers.length - 1)]]);
      }
      return Promise.resolve([...(entry as string[])]);
    },
  };
}

/** A resolver that knows no name: its `lookups` must stay empty for IP literals and early refusals. */
export function noLookupResolver(): CountingResolver {
  return fakeResolver({});
}

/** Sends every socket to 127.0.0.1 and records which checked address it was pinned to. */
export function toLoopback(): Transport & { checked: string[] } {
  const checked: string[] = [];
  return {
    checked,
    connectTo(address: string): string {
      checked.push(address);
      return "127.0.0.1";
    },
  };
}

/** One request as a local server saw it. */
export interface SeenRequest {
  path: string;
  host: string | null;
  userAgent: string | null;
}

/** A local HTTP server on 127.0.0.1 with a random port. */
export interface LocalServer {
  port: number;
  /** Requests received, in order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server on 127.0.0.1:0. `handler` gets the request and a `released` promise
 * that resolves when the server closes (for handlers that stall on purpose).
 */
export function localServer(
  handler: (req: Request, released: Promise<void>) => Response | Promise<Response>,
): LocalServer {
  const seen: SeenRequest[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const u = new URL(req.url);
    seen.push({
      path: u.pathname + u.search,
      host: req.headers.get("host"),
      userAgent: req.headers.get("user-agent"),
    });
    return handler(req, released);
  });
  return {
    port: server.addr.port,
    seen,
    async close() {
      release();
      await server.shutdown();
    },
  };
}

/** An HTML response. */
export function html(body: string, init: ResponseInit = {}): Response {
  return new Response(body, {
    ...init,
    headers: { "content-type": "text/html; charset=utf-8", ...init.headers },
  });
}
