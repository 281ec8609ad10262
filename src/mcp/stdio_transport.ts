/**
 * The MCP stdio transport over a sandboxed child: newline-delimited JSON-RPC on the child's stdin
 * and stdout (the framing of the protocol's stdio transport), with the child started through
 * `spawnSandboxed` (so through bubblewrap and the one subprocess point) rather than the SDK's own
 * spawner. What the server writes to stderr is kept (last 8 KB) for error messages.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxedChild } from "../sandbox/program.ts";
import { errorMessage } from "../core/errors.ts";

/**
 * A {@link Transport} for a child process that is already running.
 *
 * @example
 * ```ts ignore
 * const transport = new ChildTransport(() => spawnSandboxed({ profile, program, args }));
 * await new Client({ name: "retie", version }).connect(transport);
 * ```
 */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child: SandboxedChild | null = null;
  #buffer = new ReadBuffer();
  #closed = false;
  readonly #start: () => Promise<SandboxedChild>;

  constructor(start: () => Promise<SandboxedChild>) {
    this.#start = start;
  }

  /** The tail of what the server wrote to stderr. */
  get stderr(): string {
    return this.#child?.stderr() ?? "";
  }

  /** The child's exit code once it has ended. */
  get exited(): Promise<number> | null {
    return this.#child?.exited ?? null;
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error("transport already started");
    const child = await this.#start();
    this.#child = child;
    void this.#pump(child.stdout, (chunk) => {
      try {
        this.#buffer.append(Buffer.from(chunk));
      } catch (e) {
        // A message larger than the buffer: the stream cannot be resynchronised; stop the server.
        this.onerror?.(new Error(`the server sent too much at once: ${errorMessage(e)}`));
        void this.close();
        return;
      }
      for (;;) {
        let msg: JSONRPCMessage | null;
        try {
          msg = this.#buffer.readMessage();
        } catch (e) {
          this.onerror?.(new Error(`malformed message from the server: ${errorMessage(e)}`));
          continue;
        }
        if (msg === null) break;
        this.onmessage?.(msg);
      }
    });
    void child.exited.then(() => this.#finish());
  }

  async #pump(stream: ReadableStream<Uint8Array>, on: (c: Uint8Array) => void): Promise<void> {
    try {
      for await (const chunk of stream) on(chunk);
    } catch { /* the child went away: exited/close report it */ }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#child || this.#closed) throw new Error("the server is not running");
    await this.#child.write(new TextEncoder().encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (child) await child.kill();
    this.#finish();
  }
}
