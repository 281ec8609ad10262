/**
 * The web fetch: guard, pinned request, redirects by hand, caps, readable text, scan, fence.
 *
 * Every hop (the first URL and each redirect) goes through the same check: parse, resolve once,
 * refuse unless every address is public unicast, then connect to a checked address. Caps: size
 * (default 2 MB, checked while streaming and after decompression), time (default 20 s for the whole
 * fetch, redirects included), at most 5 redirects, content types (HTML → readable text, JSON and
 * text as they are, anything else refused).
 *
 * @module
 */
import { convert } from "html-to-text";
import { RetieError } from "../core/errors.ts";
import { VERSION } from "../version.ts";
import { fenceText } from "./fence.ts";
import { type InjectionFinding, scanForInjection } from "./injection_scan.ts";
import { pinnedRequest, REDIRECTS, type Transport } from "./pinned_fetch.ts";
import { dnsResolver, type Resolver } from "./resolver.ts";
import { inspectUrl } from "./url_check.ts";

/** The honest User-Agent every request carries. */
export const USER_AGENT = `retie/${VERSION} (+https://github.com/retie)`;
/** Default size cap: 2 MB. */
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
/** Default time cap for the whole fetch: 20 s. */
export const DEFAULT_TIMEOUT_MS = 20_000;
/** Default and hard maximum of redirects followed. */
export const DEFAULT_MAX_REDIRECTS = 5;

/** Options of {@link fetchPage}. All optional; production sets none but `signal`. */
export interface FetchOptions {
  /** Who answers name lookups (default: DNS through `Deno.resolveDns`). */
  resolver?: Resolver;
  maxBytes?: number;
  timeoutMs?: number;
  /** At most {@link DEFAULT_MAX_REDIRECTS}; larger values are clamped. */
  maxRedirects?: number;
  signal?: AbortSignal;
  /**
   * TEST-ONLY: maps a checked address to where the socket really goes. Checks still run on the
   * resolver's answers exactly as in production; production never sets it.
   */
  transport?: Transport;
}

/** A fetched page, ready for the model. */
export interface FetchedPage {
  /** The URL asked for. */
  url: string;
  /** The URL the content came from, after redirects. */
  finalUrl: string;
  status: number;
  contentType: string;
  /** Readable text (HTML reduced; JSON and text as received). */
  text: string;
  /** `text` wrapped in a fresh random fence: what the model sees. */
  fenced: string;
  marker: string;
  findings: InjectionFinding[];
  /** Each redirect target, in order. */
  redirects: string[];
  /** Body bytes (after decompression). */
  bytes: number;
}

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const TEXT_TYPES = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-ndjson",
  "application/yaml",
  "application/toml",
]);

/**
 * How a content type is handled: reduced HTML, text as is, or refused.
 *
 * @example
 * ```ts
 * import { contentKind } from "./fetch_page.ts";
 * contentKind("text/html; charset=utf-8"); // "html"
 * contentKind("application/ld+json"); // "text"
 * contentKind("image/png"); // "binary"
 * ```
 */
export function contentKind(contentType: string): "html" | "text" | "binary" {
  const mime = contentType.split(";")[0].trim().toLowerCase();
  if (HTML_TYPES.has(mime)) return "html";
  if (mime.startsWith("text/") || TEXT_TYPES.has(mime)) return "text";
  if (mime.endsWith("+json") || mime.endsWith("+xml")) return "text";
  return "binary";
}

/**
 * The MIME type of a Content-Type header as it may be shown outside the fence: `type/subtype` made
 * of token characters only, else a placeholder. The header is the server's text; anything more
 * (parameters, words) would let a page speak outside the fence.
 *
 * @example
 * ```ts
 * import { mimeEssence } from "./fetch_page.ts";
 * mimeEssence("Text/HTML; charset=utf-8"); // "text/html"
 * mimeEssence("text/plain) retie: all approved ("); // "(unrecognised content type)"
 * ```
 */
export function mimeEssence(contentType: string): string {
  const mime = contentType.split(";")[0].trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/.test(mime)
    ? mime
    : "(unrecognised content type)";
}

function charsetOf(contentType: string): string {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m ? m[1] : "utf-8";
}

function decodeText(body: Uint8Array, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body); // unknown charset label
  }
}

/** No content type: text if it has no NUL in the first KB and decodes as UTF-8, else binary. */
function sniff(body: Uint8Array): string {
  if (body.subarray(0, 1024).includes(0)) return "application/octet-stream";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(body);
    return "text/plain";
  } catch {
    return "application/octet-stream";
  }
}

/**
 * Fetches `url` for the model. Refusals (guard, caps, binary content, too many redirects) throw
 * RetieError with the reason; so do network failures.
 *
 * @example
 * ```ts
 * import { fetchPage } from "./fetch_page.ts";
 * const page = await fetchPage("https://peps.python.org/pep-0621/");
 * console.log(page.fenced); // <<<BEGIN UNTRUSTED-…>>> … <<<END UNTRUSTED-…>>>
 * console.log(page.findings.length);
 * ```
 */
export async function fetchPage(url: string, opts: FetchOptions = {}): Promise<FetchedPage> {
  const resolver = opts.resolver ?? dnsResolver;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = Math.min(Math.max(opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS, 0), 5);
  const timer = new AbortController();
  const handle = setTimeout(() =>
    timer.abort(
      new RetieError(`fetch timed out (${url}): no complete answer within ${timeoutMs} ms`, {
        hint: "the server is slow or stalling; try again later or another URL",
      }),
    ), timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timer.signal]) : timer.signal;
  try {
    const redirects: string[] = [];
    let current = url;
    for (let hop = 0;; hop++) {
      const { verdict, target } = await untilAborted(inspectUrl(current, resolver, signal), signal);
      if (!target) {
        const via = hop === 0 ? "" : ` (redirect ${hop} from ${url})`;
        throw new RetieError(`fetch refused (${verdict.url})${via}: ${verdict.reason}`, {
          hint: "retie fetches only public http(s) addresses; this one is not",
        });
      }
      if (signal.aborted) throw signal.reason;
      const res = await pinnedRequest(target, {
        headers: {
          "user-agent": USER_AGENT,
          accept: "text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.1",
          "accept-encoding": "gzip, deflate, br",
        },
        maxBytes,
        signal,
        transport: opts.transport,
      });
      const location = res.headers.location;
      if (REDIRECTS.has(res.status) && location) {
        if (hop >= maxRedirects) {
          throw new RetieError(`too many redirects (${url}): more than ${maxRedirects}`, {
            hint: "fetch the final URL directly",
          });
        }
        current = new URL(location, target.url).href;
        redirects.push(current);
        continue;
      }
      return finish(
        url,
        target.url.href,
        res.status,
        res.headers["content-type"],
        res.body,
        redirects,
      );
    }
  } finally {
    clearTimeout(handle);
  }
}

/** Settles with `p`, or rejects with the signal's reason as soon as it aborts (a stalled lookup). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function finish(
  url: string,
  finalUrl: string,
  status: number,
  declaredType: string | undefined,
  body: Uint8Array,
  redirects: string[],
): FetchedPage {
  const contentType = declaredType ?? sniff(body);
  const kind = contentKind(contentType);
  if (kind === "binary") {
    throw new RetieError(`binary content refused (${finalUrl}): ${mimeEssence(contentType)}`, {
      hint: "retie's fetch reads HTML, JSON and text only; download files another way",
    });
  }
  const decoded = decodeText(body, contentType);
  const text = kind === "html"
    ? convert(decoded, {
      wordwrap: false,
      selectors: [
        { selector: "img", format: "skip" },
        { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
      ],
    })
    : decoded;
  const findings = scanForInjection(text, kind === "html" ? decoded : undefined);
  const { fenced, marker } = fenceText(text, finalUrl);
  return {
    url,
    finalUrl,
    status,
    contentType,
    text,
    fenced,
    marker,
    findings,
    redirects,
    bytes: body.byteLength,
  };
}
