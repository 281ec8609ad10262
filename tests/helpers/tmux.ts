/**
 * retie in a real terminal: a tmux session running `retie run` against a scripted Ollama
 * emulator. Keys go in with send-keys (pastes with paste-buffer -p, bracketed as a terminal does),
 * the screen comes back with capture-pane. Tests skip, with the reason, where tmux is missing.
 */
import { join } from "node:path";
import { denoDir, homeEnv, retieFlags, ROOT } from "./retie_process.ts";
import {
  type EmulatedCall,
  type Emulator,
  startOllamaEmulator,
} from "../emulators/ollama_emulator.ts";

/** The tmux binary, or null. */
export const tmuxPath: string | null = (() => {
  for (const p of ["/usr/bin/tmux", "/bin/tmux"]) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* next */ }
  }
  return null;
})();

/** Runs tmux against one test's own server (`-S socket`, in the test's temp dir): a test that kills its session (and
 * so, perhaps, its server) never races the next test's start on a shared server. */
async function tm(socket: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(tmuxPath!, {
    args: ["-S", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A running retie in tmux. */
export class TmuxRetie {
  constructor(
    readonly name: string,
    readonly socket: string,
    readonly emu: Emulator,
    readonly dir: string,
    readonly ws: string,
    readonly ledger: string,
  ) {}

  /**
   * Starts retie on a workspace (`files` written into it) with the emulator's script. `home`
   * reuses a directory an earlier run of the test already used (its `ws`, `ledger.db` and state);
   * `emulator` replaces the scripted one.
   */
  static async start(opts: {
    script?: EmulatedCall[];
    emulator?: Emulator;
    home?: string;
    files?: Record<string, string>;
    width?: number;
    height?: number;
    env?: string[];
    /** More `retie run` options. */
    args?: string[];
  }): Promise<TmuxRetie> {
    const dir = Deno.realPathSync(opts.home ?? Deno.makeTempDirSync({ prefix: "retie-tmux-" }));
    const ws = join(dir, "ws");
    Deno.mkdirSync(ws, { recursive: true });
    for (const [p, text] of Object.entries(opts.files ?? {})) {
      Deno.mkdirSync(join(ws, p, ".."), { recursive: true });
      Deno.writeTextFileSync(join(ws, p), text);
    }
    const ledger = join(dir, "ledger.db");
    const emu = opts.emulator ?? startOllamaEmulator({ script: opts.script ?? [] });
    const name = `retie-test-${crypto.randomUUID().slice(0, 8)}`;
    const socket = join(dir, "tmux.sock");
    const env = [
      "PATH=/usr/bin:/bin",
      ...Object.entries(homeEnv(dir)).map(([k, v]) => `${k}=${v}`),
      `DENO_DIR=${denoDir()}`,
      "TERM=xterm-256color",
      "OLLAMA_API_KEY=test-key",
      ...(opts.env ?? []),
    ];
    const cmd = [
      "env",
      "-i",
      ...env,
      Deno.execPath(),
      "run",
      ...retieFlags(true),
      join(ROOT, "main.ts"),
      "--ledger",
      ledger,
      "run",
      ws,
      "--provider",
      "ollama",
      "--model",
      "m",
      "--base-url",
      `${emu.url}/v1`,
      ...(opts.args ?? []),
    ].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    await tm(
      socket,
      "new-session",
      "-d",
      "-s",
      name,
      "-x",
      String(opts.width ?? 120),
      "-y",
      String(opts.height ?? 50),
      `${cmd}; echo "[exit $?]"; sleep 60`,
    );
    await tm(socket, "set-option", "-t", name, "history-limit", "5000");
    return new TmuxRetie(name, socket, emu, dir, ws, ledger);
  }

  /** The screen and its scrollback, wrapped lines joined. */
  screen(): Promise<string> {
    return tm(this.socket, "capture-pane", "-p", "-J", "-t", this.name, "-S", "-2000");
  }

  /** The visible screen as drawn (rows not joined). */
  rows(): Promise<string> {
    return tm(this.socket, "capture-pane", "-p", "-t", this.name);
  }

  /** Waits until the screen matches; returns it. */
  async waitFor(pattern: RegExp, ms = 30_000): Promise<string> {
    const until = Date.now() + ms;
    let screen = "";
    while (Date.now() < until) {
      screen = await this.screen();
      if (pattern.test(screen)) return screen;
      await sleep(150);
    }
    throw new Error(`timed out waiting for ${pattern} on screen:\n${screen}`);
  }

  /** Sends keys (tmux key names: Enter, Escape, C-c, …; other words typed as text). */
  async keys(...keys: string[]): Promise<void> {
    await tm(this.socket, "send-keys", "-t", this.name, ...keys);
  }

  /** Types text literally. */
  async type(text: string): Promise<void> {
    await tm(this.socket, "send-keys", "-t", this.name, "-l", text);
  }

  /** Pastes text as a terminal does (bracketed, when the program asked for it). */
  async paste(text: string): Promise<void> {
    const buf = `b${crypto.randomUUID().slice(0, 6)}`;
    await tm(this.socket, "set-buffer", "-b", buf, text);
    await tm(this.socket, "paste-buffer", "-p", "-d", "-b", buf, "-t", this.name);
  }

  /** Resizes the terminal. */
  async resize(width: number, height = 50): Promise<void> {
    await tm(
      this.socket,
      "resize-window",
      "-t",
      this.name,
      "-x",
      String(width),
      "-y",
      String(height),
    );
  }

  /** Chat requests the model server received so far. */
  // deno-lint-ignore no-explicit-any
  chats(): any[] {
    return this.emu.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body);
  }

  async close(): Promise<void> {
    await tm(this.socket, "kill-server");
    await this.emu.close();
  }
}

/** Waits a little, for what must *not* happen to have had its chance. */
export function settle(ms = 700): Promise<void> {
  return sleep(ms);
}
