/**
 * MCP servers as tool sources: configuration, sandboxed stdio and HTTP connections, and the
 * adapter that offers their tools as `mcp__<server>__<tool>` (classified by policy only).
 *
 * @module
 */
export * from "./config.ts";
export * from "./connection.ts";
export * from "./host.ts";
export * from "./tools.ts";
export * from "./list.ts";
