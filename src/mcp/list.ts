/**
 * What `retie mcp list` and `/mcp` show: each server, its grants, and each tool with the class and
 * rule the policy gives it (or `unknown → denied`), the server's own hints beside it, never used.
 *
 * @module
 */
import type { McpHost } from "./host.ts";
import { type McpClassifier, mcpToolName } from "./tools.ts";

/** One tool as listed. */
export interface McpToolRow {
  name: string;
  /** The policy's class, or `unknown` when no rule classifies it (denied). */
  class: string;
  /** The classify rule that decided, or null. */
  rule: string | null;
  /** The server's annotations (`readOnlyHint=true`, …): hints only. */
  hints: string[];
  /** The inverse a reversible classification names. */
  inverse: string | null;
}

/** One server as listed. */
export interface McpServerRow {
  server: string;
  status: "running" | "failed";
  transport: string;
  grants: string[];
  message?: string;
  tools: McpToolRow[];
}

/**
 * The listing of a host's servers under a policy's classifier.
 *
 * @example
 * ```ts ignore
 * const rows = listMcp(host, mcpClassifier(policy));
 * ```
 */
export function listMcp(host: McpHost, classify: McpClassifier): McpServerRow[] {
  const rows: McpServerRow[] = host.summary.map((s) => {
    const conn = host.connections.find((c) => c.server === s.server)!;
    return {
      server: s.server,
      status: "running",
      transport: s.transport,
      grants: s.grants,
      tools: conn.tools.map((t) => {
        const name = mcpToolName(s.server, t.name);
        const c = classify(name, {});
        return {
          name,
          class: c?.class ?? "unknown",
          rule: c?.rule ?? null,
          hints: Object.entries(t.annotations).filter(([k]) => k.endsWith("Hint"))
            .map(([k, v]) => `${k}=${String(v)}`),
          inverse: c?.inverse?.tool ?? null,
        };
      }),
    };
  });
  for (const f of host.failures) {
    rows.push({
      server: f.server,
      status: "failed",
      transport: "-",
      grants: [],
      message: f.message,
      tools: [],
    });
  }
  return rows.sort((a, b) => a.server.localeCompare(b.server));
}

/**
 * Plain-text rendering of {@link listMcp}'s rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMcpList } from "./list.ts";
 * const text = formatMcpList([{ server: "fs", status: "running", transport: "stdio (sandboxed)",
 *   grants: [], tools: [{ name: "mcp__fs__read", class: "unknown", rule: null, hints: [], inverse: null }] }]);
 * assert.match(text, /mcp__fs__read\s+unknown → denied/);
 * ```
 */
export function formatMcpList(rows: McpServerRow[]): string {
  if (rows.length === 0) {
    return "no MCP servers configured (mcpServers in $XDG_CONFIG_HOME/retie/config.json)";
  }
  const out: string[] = [];
  for (const r of rows) {
    if (r.status === "failed") {
      out.push(`${r.server}: failed to start\n  ${r.message?.split("\n").join("\n  ")}`);
      continue;
    }
    const grants = r.grants.length ? `granted: ${r.grants.join(", ")}` : "no grants";
    out.push(`${r.server}: ${r.transport}, ${grants}, ${r.tools.length} tools`);
    const width = Math.max(...r.tools.map((t) => t.name.length), 10);
    for (const t of r.tools) {
      const cls = t.rule ? `${t.class} (rule ${t.rule})` : "unknown → denied";
      const inv = t.inverse ? `, inverse ${t.inverse}` : "";
      const hints = t.hints.length ? `  server hints: ${t.hints.join(" ")}` : "";
      out.push(`  ${t.name.padEnd(width)}  ${cls}${inv}${hints}`);
    }
  }
  return out.join("\n");
}
