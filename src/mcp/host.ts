/**
 * The MCP servers of one session: started together at session start (each in its own sandbox),
 * stopped together at its end. A server that fails to start is reported, not fatal: the session
 * goes on without its tools.
 *
 * @module
 */
import type { SandboxProfile } from "../sandbox/bwrap_args.ts";
import { grantsOf, type McpServers } from "./config.ts";
import { connectServer, type McpConnection } from "./connection.ts";
import { errorMessage } from "../core/errors.ts";

/** Servers that started, and those that did not (with why). */
export interface McpHost {
  readonly connections: readonly McpConnection[];
  readonly failures: readonly { server: string; message: string }[];
  /** What the genesis entry records of each started server. */
  readonly summary: { server: string; transport: string; grants: string[]; tools: number }[];
  /** Whether a server reaches the network (HTTP, or stdio granted it). */
  networked(server: string): boolean;
  /** Whether a stdio server was granted write access to the workspace. */
  writable(server: string): boolean;
  close(): Promise<void>;
}

/**
 * Starts every configured server, in parallel.
 *
 * @example
 * ```ts ignore
 * const host = await startMcpServers(servers, workspaceProfile(ws));
 * for (const f of host.failures) console.error(f.message);
 * await host.close();
 * ```
 */
export async function startMcpServers(
  servers: McpServers,
  profile: SandboxProfile,
): Promise<McpHost> {
  const names = Object.keys(servers).sort();
  const settled = await Promise.allSettled(
    names.map((n) => connectServer(n, servers[n], { profile })),
  );
  const connections: McpConnection[] = [];
  const failures: { server: string; message: string }[] = [];
  settled.forEach((s, i) => {
    if (s.status === "fulfilled") connections.push(s.value);
    else failures.push({ server: names[i], message: errorMessage(s.reason) });
  });
  return {
    connections,
    failures,
    summary: connections.map((c) => {
      const cfg = servers[c.server];
      return {
        server: c.server,
        transport: cfg.type === "http" ? "http" : "stdio (sandboxed)",
        grants: grantsOf(cfg),
        tools: c.tools.length,
      };
    }),
    networked: (server) => {
      const cfg = servers[server];
      return !!cfg && (cfg.type === "http" || cfg.network);
    },
    writable: (server) => {
      const cfg = servers[server];
      return !!cfg && cfg.type !== "http" && cfg.write;
    },
    async close() {
      await Promise.allSettled(connections.map((c) => c.close()));
    },
  };
}
