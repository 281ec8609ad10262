/**
 * Session start-up for extensions: reads `mcpServers` and `agents` from the user's config
 * (`$XDG_CONFIG_HOME/retie/config.json`, never the workspace), starts the MCP servers in the
 * sandbox and announces every grant that widens one.
 *
 * @module
 */
import { configPath, loadConfig, type LoadedConfig } from "../config/mod.ts";
import { type AgentTypes, parseAgentTypes } from "../agent/agent_types.ts";
import { protectedPaths } from "../agent/session.ts";
import { cacheDir, configDir, stateDir } from "../core/dirs.ts";
import type { SandboxSettings } from "../core/tool.ts";
import {
  grantsOf,
  type McpHost,
  type McpServers,
  parseMcpServers,
  startMcpServers,
} from "../mcp/mod.ts";
import { workspaceSandbox } from "../sandbox/profile.ts";
import { c } from "../ui/color.ts";

/** The extension part of the user's config. */
export interface ExtensionConfig {
  mcpServers: McpServers;
  agents: AgentTypes;
  source: string;
}

/**
 * Reads `mcpServers` and `agents` from the user's config file (absent file: none of either).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadExtensionConfig } from "./extensions_start.ts";
 * const cfg = loadExtensionConfig(Deno.makeTempDirSync());
 * assert.deepEqual(cfg.mcpServers, {});
 * ```
 */
export function loadExtensionConfig(
  dir: string = configDir(),
  loaded: LoadedConfig = loadConfig(configPath(dir)),
): ExtensionConfig {
  // loadConfig validated the file's keys (pass what `retie run` loaded already); each section is
  // checked here.
  const source = loaded.path;
  const raw = loaded.config as { mcpServers?: unknown; agents?: unknown };
  const forbidden = [configDir(), stateDir(), cacheDir()];
  return {
    mcpServers: parseMcpServers(raw.mcpServers, source, forbidden),
    agents: parseAgentTypes(raw.agents, source),
    source,
  };
}

/**
 * Starts the configured MCP servers for a session (none: undefined), printing what each was
 * granted and which failed. Stdio servers need the sandbox: without bubblewrap they are not
 * started, and the message says so.
 *
 * @example
 * ```ts ignore
 * const host = await startSessionServers(cfg, workspace, ledgerPath, sandbox);
 * try { ... } finally { await host?.close(); }
 * ```
 */
export async function startSessionServers(
  cfg: ExtensionConfig,
  workspace: string,
  ledgerPath: string,
  sandbox: SandboxSettings,
  say: (line: string) => void = (l) => console.error(l),
): Promise<McpHost | undefined> {
  const names = Object.keys(cfg.mcpServers);
  if (names.length === 0) return undefined;
  const runnable: McpServers = {};
  const skipped: { server: string; message: string }[] = [];
  for (const n of names) {
    const s = cfg.mcpServers[n];
    if (s.type !== "http" && !sandbox.available) {
      const message = `MCP server ${n} not started: stdio servers run only in the sandbox, and ` +
        `it is unavailable (${sandbox.unavailableReason ?? "no bubblewrap"})`;
      say(c.yellow(message));
      skipped.push({ server: n, message });
      continue;
    }
    runnable[n] = s;
    const grants = grantsOf(s);
    if (grants.length) say(c.yellow(`MCP server ${n} is granted: ${grants.join(", ")}`));
  }
  // The same profile as a shell command's: git control files read-only and git dirs pinned,
  // retie's state and the workspace's .retie hidden (a write grant changes none of that).
  const { profile } = workspaceSandbox(workspace, {
    hide: protectedPaths(ledgerPath, configDir(), workspace),
  });
  const started = await startMcpServers(runnable, profile);
  for (const f of started.failures) say(c.red(f.message));
  // Servers not started are failures of the session's set too (listed, recorded in the ledger).
  const host: McpHost = { ...started, failures: [...started.failures, ...skipped] };
  for (const s of host.summary) {
    say(c.dim(
      `MCP server ${s.server}: ${s.tools} tools (${s.transport}); each is denied until ` +
        "a policy rule classifies it (`retie mcp list`)",
    ));
  }
  return host;
}
