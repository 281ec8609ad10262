/**
 * `retie mcp list [--workspace DIR] [--json]`: starts each configured MCP server (stdio ones in
 * the sandbox), lists its tools with the class and rule the effective policy gives each, then
 * stops them.
 *
 * @module
 */
import type { Register } from "./commands.ts";

/**
 * Registers `retie mcp`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./mcp.ts";
 * register(new Command("retie"));
 * ```
 */
export const register: Register = (program) => {
  const mcp = program.command("mcp").description("MCP servers from the user's config");
  mcp.command("list")
    .description("start each configured server, list its tools and their classification, stop it")
    .option("--workspace <dir>", "workspace whose policy classifies the tools (default: here)")
    .option("--json", "print the listing as JSON")
    .action(async (opts: { workspace?: string; json?: boolean }) => {
      const { resolveWorkspace } = await import("../agent/session.ts");
      const { loadExtensionConfig, startSessionServers } = await import("./extensions_start.ts");
      const { checkSandbox } = await import("../sandbox/check.ts");
      const { loadEffectivePolicy } = await import("../plane/policy.ts");
      const { mcpClassifier } = await import("../agent/extensions.ts");
      const { formatMcpList, listMcp } = await import("../mcp/mod.ts");
      const { defaultLedgerPath } = await import("../core/dirs.ts");
      const workspace = resolveWorkspace(opts.workspace ?? Deno.cwd());
      const cfg = loadExtensionConfig();
      const policy = loadEffectivePolicy(workspace);
      const check = await checkSandbox();
      const sandbox = {
        available: check.available,
        unavailableReason: check.reason,
        network: false,
      };
      // Grants, servers not started and start failures are said on stderr; the listing (or its
      // JSON) goes to stdout, and failed servers are rows of it too.
      const host = await startSessionServers(
        cfg,
        workspace,
        defaultLedgerPath(),
        sandbox,
        (l) => console.error(l),
      );
      try {
        const rows = host ? listMcp(host, mcpClassifier(policy)) : [];
        if (opts.json) {
          console.log(JSON.stringify({ policy: policy.identity, servers: rows }, null, 2));
        } else console.log(formatMcpList(rows));
      } finally {
        await host?.close();
      }
    });
};
