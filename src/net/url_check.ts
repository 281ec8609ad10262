/**
 * The SSRF guard's decision for one URL: parse with the WHATWG parser, resolve, check every address.
 *
 * Decisions taken here (documented in docs/web-fetch.md):
 * - only `http:` and `https:`;
 * - a URL with userinfo (`user:pass@`) is refused, not stripped: a model-written URL has no business
 *   carrying credentials, and `http://public.example@127.0.0.1/` is built to mislead a reader;
 * - host and port are whatever the WHATWG parser says (it already turns `0177.0.0.1`, `2130706433`,
 *   `0x7f.1` and `127.1` into `127.0.0.1`); no string matching on the raw text;
 * - `localhost` and `*.localhost` are refused by name (RFC 6761) before any lookup;
 * - one bad address among several answers is enough to refuse.
 *
 * @module
 */
import { errorMessage, RetieError } from "../core/errors.ts";
import { isIpLiteral, judgeAddress } from "./address_policy.ts";
import type { Resolver } from "./resolver.ts";

/** The guard's answer for one URL. */
export interface CheckVerdict {
  url: string;
  verdict: "allow" | "refuse";
  reason: string;
  /** The addresses the name resolved to (all checked); empty when refused before resolving. */
  addresses: string[];
}

/** A URL that passed the guard, with the checked addresses to connect to. */
export interface CheckedTarget {
  url: URL;
  /** Host name without brackets, as the Host header and TLS server name will use it. */
  host: string;
  port: number;
  /** Every resolved address; all were allowed. Connect only to one of these. */
  addresses: string[];
}

/**
 * Parses a URL for fetching; throws RetieError (exit code 2) when it is not a URL at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFetchUrl } from "./url_check.ts";
 * assert.deepEqual(parseFetchUrl("http://0177.0.0.1/").hostname, "127.0.0.1");
 * ```
 */
export function parseFetchUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new RetieError(`not a URL (${raw})`, {
      hint: "give an absolute http:// or https:// URL",
      exitCode: 2,
    });
  }
}

function refuse(url: string, reason: string, addresses: string[] = []): CheckVerdict {
  return { url, verdict: "refuse", reason, addresses };
}

/**
 * Decides one URL and returns the target to connect to when allowed. Resolves at most once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectUrl } from "./url_check.ts";
 * import { overrideResolver } from "./resolver.ts";
 * const r = overrideResolver(new Map([["public.example", ["93.184.215.14"]]]));
 * const { verdict, target } = await inspectUrl("https://public.example/a", r);
 * assert.equal(verdict.verdict, "allow");
 * assert.deepEqual(target?.addresses, ["93.184.215.14"]);
 * ```
 */
export async function inspectUrl(
  raw: string,
  resolver: Resolver,
  signal?: AbortSignal,
): Promise<{ verdict: CheckVerdict; target?: CheckedTarget }> {
  let url: URL;
  try {
    url = parseFetchUrl(raw);
  } catch (e) {
    return { verdict: refuse(raw, errorMessage(e)) };
  }
  const shown = url.href;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      verdict: refuse(shown, `scheme ${url.protocol} is not allowed (only http: and https:)`),
    };
  }
  if (url.username !== "" || url.password !== "") {
    return {
      verdict: refuse(
        shown,
        "URL carries userinfo (user:password@); credentials in URLs are refused",
      ),
    };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") return { verdict: refuse(shown, "URL has no host") };
  const bare = host.toLowerCase().replace(/\.$/, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) {
    return { verdict: refuse(shown, `${host} is a localhost name`) };
  }
  let addresses: string[];
  if (isIpLiteral(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolver.resolve(host, signal);
    } catch (e) {
      return { verdict: refuse(shown, `cannot resolve ${host}: ${errorMessage(e)}`) };
    }
    if (addresses.length === 0) return { verdict: refuse(shown, `${host} resolved to no address`) };
  }
  for (const a of addresses) {
    const v = judgeAddress(a);
    if (!v.allowed) {
      const via = isIpLiteral(host) ? "" : `${host} resolves to `;
      return { verdict: refuse(shown, `${via}${v.reason}`, addresses) };
    }
  }
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return {
    verdict: {
      url: shown,
      verdict: "allow",
      reason: `${host} → ${addresses.join(", ")}: all public unicast`,
      addresses,
    },
    target: { url, host, port, addresses },
  };
}

/**
 * Decides one URL without sending any request (only the name lookup).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkUrl } from "./url_check.ts";
 * import { dnsResolver } from "./resolver.ts";
 * // 2130706433 is 127.0.0.1, loopback
 * assert.equal((await checkUrl("http://2130706433/", dnsResolver)).verdict, "refuse");
 * ```
 */
export async function checkUrl(url: string, resolver: Resolver): Promise<CheckVerdict> {
  return (await inspectUrl(url, resolver)).verdict;
}
