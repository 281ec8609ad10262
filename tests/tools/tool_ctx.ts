/**
 * Test helpers for the tools: a real temp workspace (and a sibling "outside" directory), and a
 * ToolContext over it.
 */
import type { SandboxSettings, ToolContext, ToolServices } from "../../src/core/tool.ts";
import type { AnyTool, ToolResult } from "../../src/core/tool.ts";

export interface Fixture {
  /** Real path of the temp root holding ws/, outside/ and state/. */
  root: string;
  ws: string;
  outside: string;
  state: string;
  ctx: ToolContext;
  cleanup(): void;
}

/** A fresh workspace `ws/`, a sibling `outside/` with a secret, and a protected `state/`. */
export function fixture(opts: {
  sandbox?: Partial<SandboxSettings>;
  services?: ToolServices;
  headless?: boolean;
  protectInside?: boolean;
} = {}): Fixture {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-tools-" }));
  const ws = `${root}/ws`;
  const outside = `${root}/outside`;
  const state = `${root}/state`;
  for (const d of [ws, outside, state]) Deno.mkdirSync(d);
  Deno.writeTextFileSync(`${outside}/secret.txt`, "TOP SECRET\n");
  Deno.writeTextFileSync(`${state}/ledger.db`, "ledger bytes\n");
  const protectedPaths = [state];
  if (opts.protectInside) {
    Deno.mkdirSync(`${ws}/.retie`);
    Deno.writeTextFileSync(`${ws}/.retie/ledger.db`, "inside ledger\n");
    protectedPaths.push(`${ws}/.retie`);
  }
  const ctx: ToolContext = {
    workspace: ws,
    protectedPaths,
    signal: new AbortController().signal,
    sandbox: { available: true, network: false, ...opts.sandbox },
    headless: opts.headless ?? false,
    sessionId: crypto.randomUUID(),
    services: opts.services ?? {},
  };
  return {
    root,
    ws,
    outside,
    state,
    ctx,
    cleanup: () => Deno.removeSync(root, { recursive: true }),
  };
}

/** Runs a tool the way the guard does: parse, classify, then the handler. */
export async function call(
  tool: AnyTool,
  ctx: ToolContext,
  raw: Record<string, unknown>,
): Promise<ToolResult> {
  const args = tool.schema.parse(raw);
  const approved = await tool.classify(args, ctx);
  return await tool.handler(args, ctx, approved);
}

/** Writes files (relative to `dir`), creating parents. */
export function plant(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, body] of Object.entries(files)) {
    const p = `${dir}/${rel}`;
    Deno.mkdirSync(p.slice(0, p.lastIndexOf("/")), { recursive: true });
    if (typeof body === "string") Deno.writeTextFileSync(p, body);
    else Deno.writeFileSync(p, body);
  }
}
