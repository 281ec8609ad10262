/**
 * `retie fetch URL`: prints what the model would see (fenced text plus injection findings).
 * `retie fetch --check URL [--resolve HOST:ADDR[,ADDR…]]…`: decides without sending any request and
 * prints `{"url","verdict","reason","addresses"}` as JSON. Exit 0 allow/fetched, 1 refused or
 * failed, 2 bad input.
 *
 * @module
 */
import type { Command } from "commander";
import type { Register } from "./commands.ts";

interface FetchFlags {
  check?: boolean;
  resolve: string[];
  maxBytes?: string;
  timeout?: string;
}

/** A positive integer flag value, undefined when absent, NaN when malformed. */
function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) return NaN;
  return n;
}

/**
 * Registers `retie fetch`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./fetch.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program: Command) => {
  program
    .command("fetch")
    .description(
      "fetch a public web page as the model would see it (fenced, scanned); --check only decides",
    )
    .argument("<url>", "absolute http:// or https:// URL")
    .option("--check", "decide allow/refuse without sending any request; prints JSON")
    .option(
      "--resolve <HOST:ADDR[,ADDR...]>",
      "say what HOST resolves to instead of asking DNS (repeatable, like curl)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--max-bytes <n>", "size cap in bytes (default 2097152)")
    .option("--timeout <ms>", "time cap for the whole fetch in milliseconds (default 20000)")
    .action(async (url: string, flags: FetchFlags) => {
      const { RetieError } = await import("../core/errors.ts");
      const { dnsResolver, overrideResolver, parseResolveOverrides } = await import(
        "../net/resolver.ts"
      );
      const { parseFetchUrl, checkUrl } = await import("../net/url_check.ts");
      const overrides = parseResolveOverrides(flags.resolve);
      const resolver = overrides.size ? overrideResolver(overrides, dnsResolver) : dnsResolver;
      parseFetchUrl(url); // not a URL at all → exit 2
      const maxBytes = positiveInt(flags.maxBytes);
      const timeoutMs = positiveInt(flags.timeout);
      for (const [name, v] of [["--max-bytes", maxBytes], ["--timeout", timeoutMs]] as const) {
        if (Number.isNaN(v)) {
          throw new RetieError(`bad ${name} value: expected a positive integer`, {
            hint: `write it like ${name} 100000`,
            exitCode: 2,
          });
        }
      }
      if (flags.check) {
        const v = await checkUrl(url, resolver);
        console.log(JSON.stringify(v));
        if (v.verdict !== "allow") Deno.exitCode = 1;
        return;
      }
      const { fetchPage } = await import("../net/fetch_page.ts");
      const { renderForModel } = await import("../tools/fetch.ts");
      const page = await fetchPage(url, { resolver, maxBytes, timeoutMs });
      console.log(renderForModel(page));
    });
};
