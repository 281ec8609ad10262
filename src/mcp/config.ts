/**
 * MCP servers as the user configures them (`mcpServers` in `$XDG_CONFIG_HOME/retie/config.json`,
 * never in the workspace: the workspace is agent-writable). The shape other agents use, plus the
 * grants that widen the sandbox a stdio server runs in; each grant is announced at start-up.
 *
 * @module
 */
import { isAbsolute, normalize } from "node:path";
import { z } from "zod";
import { RetieError } from "../core/errors.ts";
import { overlaps } from "../core/paths.ts";

/** Server names become part of tool names (`mcp__<server>__<tool>`). */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

/** A stdio server: a program retie starts in the sandbox, speaking JSON-RPC on stdin/stdout. */
export const StdioServerSchema = z.strictObject({
  type: z.literal("stdio").optional(),
  /** The program (a path or a name on the sandbox's PATH: /usr/local/bin:/usr/bin:/bin). */
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** The only variables the server sees besides PATH, HOME, LANG and TERM. */
  env: z.record(envName, z.string()).default({}),
  /** Grant: the server shares the host network (announced). */
  network: z.boolean().default(false),
  /** Grant: the server may write the workspace (announced); otherwise it is read-only. */
  write: z.boolean().default(false),
  /** Grant: host directories the server may read (its install folder), read-only. */
  read: z.array(z.string()).default([]),
  /** How long start-up and listing tools may take (ms). */
  startTimeoutMs: z.number().int().min(100).max(120_000).default(15_000),
  /** How long one tool call may take (ms). */
  callTimeoutMs: z.number().int().min(100).max(3_600_000).default(120_000),
});

/** A streamable-HTTP server at a URL. */
export const HttpServerSchema = z.strictObject({
  type: z.literal("http"),
  url: z.url({ protocol: /^https?$/ }),
  /** Headers sent with every request (an API key, for example). */
  headers: z.record(z.string(), z.string()).default({}),
  startTimeoutMs: z.number().int().min(100).max(120_000).default(15_000),
  callTimeoutMs: z.number().int().min(100).max(3_600_000).default(120_000),
});

/** One server entry: `type: "http"` selects HTTP, anything else is stdio. */
export const McpServerSchema = z.union([HttpServerSchema, StdioServerSchema]);

/** The `mcpServers` object. */
export const McpServersSchema = z.record(
  z.string().regex(SERVER_NAME, "server names use letters, digits, _ and - (at most 40)"),
  McpServerSchema,
);

export type StdioServer = z.infer<typeof StdioServerSchema>;
export type HttpServer = z.infer<typeof HttpServerSchema>;
export type McpServerConfig = z.infer<typeof McpServerSchema>;
export type McpServers = z.infer<typeof McpServersSchema>;

/**
 * Validates `mcpServers`; read grants must be absolute and must not reach retie's own state.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMcpServers } from "./config.ts";
 * const s = parseMcpServers({ fs: { command: "node", args: ["/opt/fs/index.js"] } }, "config", []);
 * assert.equal(s.fs.type ?? "stdio", "stdio");
 * assert.throws(() => parseMcpServers({ "bad name": { command: "x" } }, "config", []));
 * ```
 */
export function parseMcpServers(
  raw: unknown,
  source: string,
  forbidden: readonly string[],
): McpServers {
  const r = McpServersSchema.safeParse(raw ?? {});
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  mcpServers.${i.path.join(".")}: ${i.message}`);
    throw new RetieError(`invalid MCP server configuration in ${source}:\n${lines.join("\n")}`, {
      hint: 'fix the entries named above (format: docs/tools.md, "MCP servers")',
      exitCode: 2,
    });
  }
  const problems: string[] = [];
  for (const [name, s] of Object.entries(r.data)) {
    if (s.type === "http") continue;
    for (const p of s.read) {
      if (!isAbsolute(p) || normalize(p) !== p.replace(/\/+$/, "") || p === "/") {
        problems.push(`  mcpServers.${name}.read: ${p} is not an absolute, normalised directory`);
        continue;
      }
      const hit = forbidden.find((f) => overlaps(f, p));
      if (hit) problems.push(`  mcpServers.${name}.read: ${p} would expose retie's state (${hit})`);
    }
  }
  if (problems.length) {
    throw new RetieError(`invalid MCP server configuration in ${source}:\n${problems.join("\n")}`, {
      hint: "grant only the server's own install folder",
      exitCode: 2,
    });
  }
  return r.data;
}

/**
 * What start-up announces about a server's grants (empty when it has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grantsOf, parseMcpServers } from "./config.ts";
 * const s = parseMcpServers({ web: { command: "x", network: true } }, "c", []);
 * assert.deepEqual(grantsOf(s.web), ["network"]);
 * ```
 */
export function grantsOf(s: McpServerConfig): string[] {
  if (s.type === "http") return ["network (an HTTP server, outside the sandbox)"];
  return [...(s.network ? ["network"] : []), ...(s.write ? ["write the workspace"] : [])];
}
