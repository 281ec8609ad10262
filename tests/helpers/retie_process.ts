/**
 * Runs retie as its own process under the project's permission flags, as users run it.
 *
 * `local: true` (the default) uses the `retie:local` variant (loopback allowed), which the tests
 * need to reach the emulators on 127.0.0.1; `local: false` uses the shipped `retie` flags.
 */
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

/** Repository root. */
export const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** The permission flags of the `retie` task (`local: false`) or `retie:local` (`local: true`). */
export function retieFlags(local = true): string[] {
  const files = local ? ["base.flags"] : ["base.flags", "deny-loopback.flags"];
  return files.flatMap((f) =>
    Deno.readTextFileSync(join(ROOT, "permissions", f)).split(/\s+/).filter((s) => s.length > 0)
  );
}

export interface RetieRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `main.ts` with `args` in a child Deno process.
 *
 * `env` is the child's whole environment besides PATH (pass HOME and XDG_* to isolate state).
 */
export async function runRetie(
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string; cwd?: string; local?: boolean } = {},
): Promise<RetieRun> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", ...retieFlags(opts.local ?? true), join(ROOT, "main.ts"), ...args],
    cwd: opts.cwd ?? ROOT,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      // The child keeps using this process's module cache even when HOME is a temp dir.
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
      ...opts.env,
    },
    clearEnv: true,
    stdin: opts.stdin !== undefined ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** The module cache this test process uses. */
export function denoDir(): string {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  return join(xdg ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

/** HOME and the XDG base directories, all under `dir`. */
export function homeEnv(dir: string): Record<string, string> {
  return {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_STATE_HOME: join(dir, "state"),
    XDG_CACHE_HOME: join(dir, "cache"),
  };
}

/** A fresh temp dir used as HOME/XDG root, so a test never touches the real user's state. */
export function isolatedEnv(): { dir: string; env: Record<string, string> } {
  const dir = Deno.makeTempDirSync({ prefix: "retie-test-home-" });
  return { dir, env: homeEnv(dir) };
}

/**
 * The provider flags that point retie at a local OpenAI-compatible emulator (`emu.url`).
 *
 * @example
 * ```ts
 * emulatorFlags("http://127.0.0.1:9"); // ["--provider", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"]
 * ```
 */
export function emulatorFlags(url: string, model = "m"): string[] {
  return ["--provider", "openai", "--model", model, "--base-url", `${url}/v1`];
}
