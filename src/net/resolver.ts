/**
 * Name resolution for the web fetch, injected so the guard can be tested with real answers.
 *
 * The guard resolves a name exactly once per hop, checks every address, and connects to one of
 * those addresses (see `pinned_fetch.ts`); nothing else resolves the name again.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import { isIpLiteral } from "./address_policy.ts";

/** Answers what a host name resolves to. */
export interface Resolver {
  /**
   * All A and AAAA addresses of `host` (no brackets). Throws when the name does not resolve.
   * `signal` (the fetch's time cap or Ctrl-C) should cancel a pending query.
   */
  resolve(host: string, signal?: AbortSignal): Promise<string[]>;
}

/**
 * The production resolver: `Deno.resolveDns` for A and AAAA, both asked, either may be empty.
 *
 * @example
 * ```ts
 * import { dnsResolver } from "./resolver.ts";
 * const addrs = await dnsResolver.resolve("example.com"); // ["93.184.215.14", "2606:…"]
 * ```
 */
export const dnsResolver: Resolver = {
  async resolve(host: string, signal?: AbortSignal): Promise<string[]> {
    const [a, aaaa] = await Promise.allSettled([
      Deno.resolveDns(host, "A", { signal }),
      Deno.resolveDns(host, "AAAA", { signal }),
    ]);
    const out: string[] = [];
    if (a.status === "fulfilled") out.push(...a.value);
    if (aaaa.status === "fulfilled") out.push(...aaaa.value);
    if (out.length === 0) {
      const why = a.status === "rejected" ? String(a.reason?.message ?? a.reason) : "no A/AAAA";
      throw new RetieError(`cannot resolve (${host}): ${why}`, {
        hint: "check the host name, or say what it resolves to with --resolve HOST:ADDR",
      });
    }
    return out;
  },
};

/**
 * Parses curl-style `--resolve HOST:ADDR[,ADDR…]` values into a map host → addresses.
 * Addresses may be bracketed (`host:[::1]`); the host is lower-cased. Bad input → exit code 2.
 *
 * @example
 * ```ts
 * import { parseResolveOverrides } from "./resolver.ts";
 * parseResolveOverrides(["public.example:93.184.215.14,[2606:2800::1]"]);
 * // Map { "public.example" => ["93.184.215.14", "2606:2800::1"] }
 * ```
 */
export function parseResolveOverrides(values: string[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const value of values) {
    const colon = value.indexOf(":");
    const host = colon > 0 ? value.slice(0, colon).toLowerCase().replace(/\.$/, "") : "";
    const addrs = colon > 0
      ? value.slice(colon + 1).split(",").map((a) => a.trim().replace(/^\[(.*)\]$/, "$1"))
      : [];
    if (!host || addrs.length === 0 || addrs.some((a) => !isIpLiteral(a))) {
      throw new RetieError(`bad --resolve value (${value}): expected HOST:ADDR[,ADDR…]`, {
        hint: "write it like --resolve example.com:93.184.215.14,2606:2800::1",
        exitCode: 2,
      });
    }
    map.set(host, [...(map.get(host) ?? []), ...addrs]);
  }
  return map;
}

/**
 * A resolver that answers overridden names from `overrides` and asks `fallback` for the rest
 * (like curl's `--resolve`).
 *
 * @example
 * ```ts
 * import { dnsResolver, overrideResolver } from "./resolver.ts";
 * const r = overrideResolver(new Map([["public.example", ["93.184.215.14"]]]), dnsResolver);
 * await r.resolve("public.example"); // ["93.184.215.14"], no DNS query
 * ```
 */
export function overrideResolver(
  overrides: Map<string, string[]>,
  fallback: Resolver = dnsResolver,
): Resolver {
  return {
    resolve(host: string, signal?: AbortSignal): Promise<string[]> {
      const hit = overrides.get(host.toLowerCase().replace(/\.$/, ""));
      return hit ? Promise.resolve([...hit]) : fallback.resolve(host, signal);
    },
  };
}
