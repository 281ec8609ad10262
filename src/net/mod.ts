/**
 * The web fetch: SSRF guard that resolves, checks and pins; redirects by hand; caps; random fences;
 * injection scan. See docs/web-fetch.md.
 *
 * @example
 * ```ts
 * import { fetchPage, FENCE_SYSTEM_PROMPT } from "./mod.ts";
 * const page = await fetchPage("https://example.com/");
 * page.fenced; // what the model sees; FENCE_SYSTEM_PROMPT explains it to the model
 * ```
 *
 * @module
 */
export { type AddressVerdict, isIpLiteral, judgeAddress } from "./address_policy.ts";
export { FENCE_SYSTEM_PROMPT, type Fenced, fenceText, newMarker } from "./fence.ts";
export {
  contentKind,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type FetchedPage,
  type FetchOptions,
  fetchPage,
  USER_AGENT,
} from "./fetch_page.ts";
export {
  type InjectionCategory,
  type InjectionFinding,
  scanForInjection,
  type Severity,
  summarizeFindings,
} from "./injection_scan.ts";
export type { Transport } from "./pinned_fetch.ts";
export { dnsResolver, overrideResolver, parseResolveOverrides, type Resolver } from "./resolver.ts";
export { checkUrl, type CheckVerdict, inspectUrl, parseFetchUrl } from "./url_check.ts";
