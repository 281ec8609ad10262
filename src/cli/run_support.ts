/**
 * Helpers of `retie run`: start-up banners, stdin, the stderr sink of the JSON modes, the context
 * window look-up, and how ladder events are worded.
 *
 * @module
 */
import type { SandboxSettings } from "../core/tool.ts";
import type { Provider } from "../providers/types.ts";
import { c } from "../ui/color.ts";
import type { Sink } from "../ui/live.ts";
import type { RunSessionOptions } from "./run_session.ts";

/** stderr as a sink: what people read, when stdout carries JSON. */
export const stderrSink: Sink = {
  write: (t) => void Deno.stderr.writeSync(new TextEncoder().encode(t)),
  isTerminal: false,
};

/**
 * An environment variable, or undefined (also when this process may not read it).
 *
 * @example
 * ```ts
 * import { env } from "./run_support.ts";
 * env("RETIE_NO_SUCH_VARIABLE"); // undefined
 * ```
 */
export function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether standard input is a terminal (someone can answer a prompt).
 *
 * @example
 * ```ts
 * import { stdinIsTerminal } from "./run_support.ts";
 * typeof stdinIsTerminal(); // "boolean"
 * ```
 */
export function stdinIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

/**
 * All of standard input, trimmed (the objective of a headless run without `-p`).
 *
 * @example
 * ```ts ignore
 * const objective = await readStdin();
 * ```
 */
export async function readStdin(): Promise<string> {
  let text = "";
  for await (const ch of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) text += ch;
  return text.trim();
}

/**
 * Start-up banners: a control that is bypassed, or a wall that is open, says so.
 *
 * @example
 * ```ts
 * import { banners } from "./run_support.ts";
 * banners({ yes: true, network: false, sandbox: { available: true, network: false } }).length; // 1
 * ```
 */
export function banners(o: { yes: boolean; network: boolean; sandbox: SandboxSettings }): string[] {
  const out: string[] = [];
  if (o.yes) {
    out.push(c.bold(c.yellow(
      "warning: --yes approves every action the policy would ask about. The gate still denies what " +
        "it denies, but nobody reviews what it would have asked.",
    )));
  }
  if (o.network) {
    out.push(c.bold(c.yellow(
      "warning: --network gives sandboxed commands the network. Anything a command can read can now " +
        "leave this machine, and no snapshot undoes that; shell commands are irreversible and ask.",
    )));
  }
  if (!o.sandbox.available) {
    out.push(c.bold(c.red(
      `sandbox unavailable: ${o.sandbox.unavailableReason}. Shell commands are irreversible and need ` +
        "approval every time; retie never runs them unsandboxed silently.",
    )));
  }
  return out;
}

/**
 * The window: Ollama's /api/show (also an OpenAI-compatible local server), else the table.
 *
 * @example
 * ```ts ignore
 * await detectContextWindow({ provider: "anthropic" }, provider, key); // 200000 for claude-*
 * ```
 */
export async function detectContextWindow(
  o: Pick<RunSessionOptions, "provider" | "baseUrl">,
  provider: Provider,
  apiKey: string | undefined,
): Promise<number | undefined> {
  const { ollamaContextWindow, tableContextWindow } = await import("../models/mod.ts");
  const askOllama = o.provider === "ollama" || (o.provider === "openai" && o.baseUrl);
  if (askOllama) {
    const n = await ollamaContextWindow(
      o.baseUrl ?? "https://ollama.com/v1",
      provider.model,
      apiKey,
    );
    if (n) return n;
  }
  return tableContextWindow(provider.model) ?? undefined;
}

/**
 * Whether a URL points at this machine (a local Ollama needs no key).
 *
 * @example
 * ```ts
 * import { isLocal } from "./run_support.ts";
 * isLocal("http://127.0.0.1:11434/v1"); // true
 * ```
 */
export function isLocal(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === "localhost" || h === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(h);
  } catch {
    return false;
  }
}

/**
 * A ladder event in words: `from → to: reason: detail`.
 *
 * @example
 * ```ts
 * import { describeLadderEvent } from "./run_support.ts";
 * describeLadderEvent({ type: "escalate", from: "a", to: "b", reason: "session_limit" }); // "a → b: session_limit"
 * ```
 */
export function describeLadderEvent(e: { type: string } & Record<string, unknown>): string {
  const parts = [e.from && e.to ? `${e.from} → ${e.to}` : e.model, e.reason, e.detail].filter(
    Boolean,
  );
  return parts.join(": ");
}
