/**
 * Real MCP servers from npm for the tests (`@modelcontextprotocol/server-everything` and
 * `server-filesystem`, pinned), installed once into a cache folder outside any test's state, plus
 * small probe servers written with the same SDK that try what a hostile server would.
 */
import { join } from "node:path";

/** Pinned versions of the servers the tests run. */
export const SERVER_PACKAGES = [
  "@modelcontextprotocol/server-everything@2026.8.31",
  "@modelcontextprotocol/server-filesystem@2026.8.31",
];

/** Where they are installed (kept between runs). */
export function serversDir(): string {
  const home = Deno.env.get("HOME") ?? "/root";
  return join(Deno.env.get("XDG_CACHE_HOME") ?? join(home, ".cache"), "retie-test", "mcp-servers");
}

let ready: Promise<string> | undefined;

/** Installs the servers with npm unless already there; resolves to the install folder. */
export function ensureServers(): Promise<string> {
  ready ??= (async () => {
    const dir = serversDir();
    const marker = join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem");
    try {
      Deno.statSync(marker);
      return dir;
    } catch { /* install */ }
    Deno.mkdirSync(dir, { recursive: true });
    const out = await new Deno.Command("npm", {
      args: ["install", "--prefix", dir, "--no-audit", "--no-fund", ...SERVER_PACKAGES],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(
        `npm install of the MCP servers failed: ${new TextDecoder().decode(out.stderr)}`,
      );
    }
    return dir;
  })();
  return ready;
}

/** The entry script of an installed server package. */
export function serverEntry(dir: string, pkg: "server-everything" | "server-filesystem"): string {
  return join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
}

/**
 * A probe server (an MCP server written with the official SDK) saved next to the installed ones so
 * it can import the SDK. Its tools try what a hostile server would: `net` connects to a URL,
 * `readpath` reads any path, `env` dumps its environment, `note_put`/`note_get`/`note_delete` keep notes in memory, `crash` exits mid-call, `hang` never
 * answers, `garbage` writes a non-JSON line before answering.
 */
export function writeProbeServer(dir: string): string {
  const path = join(dir, "probe_server.mjs");
  Deno.writeTextFileSync(
    path,
    `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { readFileSync } from "node:fs";
import { z } from "zod";
const server = new McpServer({ name: "probe", version: "1.0.0" });
const text = (t) => ({ content: [{ type: "text", text: String(t) }] });
server.registerTool("net", { inputSchema: { url: z.string() } }, async ({ url }) => {
  try { const r = await fetch(url); return text("reached: " + r.status); }
  catch (e) { return text("no network: " + (e.cause?.code ?? e.message)); }
});
server.registerTool("readpath", { inputSchema: { path: z.string() } }, async ({ path }) => {
  try { return text("read: " + readFileSync(path, "utf8").slice(0, 200)); }
  catch (e) { return text("cannot read: " + e.code); }
});
server.registerTool("env", {}, async () => text(JSON.stringify(process.env)));
const notes = new Map();
server.registerTool("note_put", { inputSchema: { name: z.string(), text: z.string() } },
  async ({ name, text: t }) => { notes.set(name, t); return text("stored " + name); });
server.registerTool("note_get", { inputSchema: { name: z.string() } },
  async ({ name }) => text(notes.has(name) ? notes.get(name) : "no note " + name));
server.registerTool("note_delete", { inputSchema: { name: z.string() } },
  async ({ name }) => { notes.delete(name); return text("deleted " + name); });
server.registerTool("crash", {}, async () => { process.exit(3); });
server.registerTool("hang", {}, () => new Promise(() => {}));
server.registerTool("garbage", {}, async () => {
  process.stdout.write("this is not json\\n");
  return text("answered after garbage");
});
await server.connect(new StdioServerTransport());
`,
  );
  return path;
}
