/**
 * One connection to one MCP server: start it (stdio servers in the sandbox), initialise, list its
 * tools, call them with a timeout, stop it. Every failure (cannot start, crashed, hung, malformed
 * messages) becomes an {@link McpError} whose message names the server and what to do; nothing
 * here throws anything else, so a broken server never ends the session.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { RetieError } from "../core/errors.ts";
import type { SandboxProfile } from "../sandbox/bwrap_args.ts";
import { spawnSandboxed } from "../sandbox/program.ts";
import { VERSION } from "../version.ts";
import type { McpServerConfig } from "./config.ts";
import { ChildTransport } from "./stdio_transport.ts";

/** A failure of an MCP server, named. */
export class McpError extends RetieError {}

/** What a server says about one of its tools. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server's own hints (`readOnlyHint`, `destructiveHint`, …): shown, never trusted. */
  annotations: Record<string, unknown>;
}

/** One content item of a result, flattened to text. */
export interface McpCallResult {
  /** The server reported an error result (`isError`). */
  isError: boolean;
  text: string;
}

/** A live connection. */
export interface McpConnection {
  readonly server: string;
  readonly tools: readonly McpToolInfo[];
  call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult>;
  /** What a stdio server wrote to stderr lately (for diagnosis). */
  stderr(): string;
  close(): Promise<void>;
}

/** Where a stdio server runs. */
export interface ConnectOptions {
  /** The confined profile for the session's workspace (network, write and read grants are
   * applied from the server's config on top of it). */
  profile: SandboxProfile;
}

interface RawTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  annotations?: unknown;
}

function sandboxProfileFor(base: SandboxProfile, cfg: McpServerConfig): SandboxProfile {
  if (cfg.type === "http") return base;
  return {
    ...base,
    confined: true,
    network: cfg.network,
    // Read-only unless granted: the whole workspace, plus what the base already protects.
    readOnly: cfg.write ? base.readOnly : [base.workspace, ...base.readOnly],
    extraReadOnly: [...(base.extraReadOnly ?? []), ...cfg.read],
  };
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map((c) => {
    const item = c as Record<string, unknown>;
    switch (item.type) {
      case "text":
        return String(item.text ?? "");
      case "resource": {
        const r = (item.resource ?? {}) as Record<string, unknown>;
        return `[resource ${String(r.uri ?? "")}]\n${typeof r.text === "string" ? r.text : ""}`;
      }
      case "resource_link":
        return `[resource link ${String(item.uri ?? "")}]`;
      default:
        return `[${String(item.type)} content omitted: ${String(item.mimeType ?? "binary")}]`;
    }
  }).join("\n");
}

/**
 * Starts `cfg` and lists its tools. Throws {@link McpError} (naming the server, with the tail of
 * its stderr) when it cannot start or answer within `startTimeoutMs`.
 *
 * @example
 * ```ts ignore
 * const conn = await connectServer("fs", cfg, { profile: workspaceProfile(ws) });
 * conn.tools.map((t) => t.name); // ["read_file", ...]
 * await conn.close();
 * ```
 */
export async function connectServer(
  server: string,
  cfg: McpServerConfig,
  opts: ConnectOptions,
): Promise<McpConnection> {
  let child: ChildTransport | null = null;
  let transport: Transport;
  if (cfg.type === "http") {
    transport = new StreamableHTTPClientTransport(new URL(cfg.url), {
      requestInit: { headers: cfg.headers, redirect: "error" },
    });
  } else {
    const profile = sandboxProfileFor(opts.profile, cfg);
    child = new ChildTransport(() =>
      spawnSandboxed({
        profile,
        program: cfg.command,
        args: cfg.args,
        env: cfg.env,
        startTimeoutMs: cfg.startTimeoutMs,
      })
    );
    transport = child;
  }
  const stderr = () => child?.stderr.trim().slice(-600) ?? "";
  const fail = (what: string, e: unknown) =>
    new McpError(
      `MCP server ${server}: ${what}: ${describe(e)}${stderr() ? `\nits stderr: ${stderr()}` : ""}`,
      {
        hint: cfg.type === "http"
          ? `check that ${cfg.url} serves MCP over streamable HTTP`
          : `check that \`${cfg.command}\` runs in the sandbox (it sees /usr, the workspace and ` +
            "the `read` grants only; no network unless granted), e.g. `retie mcp list`",
      },
    );
  const client = new Client({ name: "retie", version: VERSION });
  let lastError: Error | null = null;
  client.onerror = (e: Error) => {
    lastError = e;
  };
  try {
    await client.connect(transport, { timeout: cfg.startTimeoutMs });
  } catch (e) {
    await transport.close().catch(() => {});
    throw fail("did not start", e);
  }
  let tools: McpToolInfo[];
  try {
    const listed = await client.listTools(undefined, { timeout: cfg.startTimeoutMs });
    tools = (listed.tools as RawTool[]).map((t) => ({
      name: t.name,
      description: t.description ?? "",
      inputSchema: t.inputSchema as Record<string, unknown>,
      annotations: (t.annotations ?? {}) as Record<string, unknown>,
    }));
  } catch (e) {
    await client.close().catch(() => {});
    throw fail("did not list its tools", e);
  }
  let closed = false;
  return {
    server,
    tools,
    stderr,
    async call(tool, args, signal) {
      if (closed) throw new McpError(`MCP server ${server}: not running (it was stopped)`);
      lastError = null;
      try {
        const r = await client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: cfg.callTimeoutMs,
          signal,
        });
        return { isError: r.isError === true, text: textOf(r.content) };
      } catch (e) {
        const exited = child?.exited
          ? await Promise.race([child.exited, new Promise<null>((r) => setTimeout(r, 50, null))])
          : null;
        const why = exited !== null && exited !== undefined
          ? `the server exited (code ${exited})`
          : lastError
          ? `${describe(e)} (last transport error: ${describe(lastError)})`
          : describe(e);
        throw fail(`call of ${tool} failed`, why);
      }
    },
    async close() {
      closed = true;
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  };
}
