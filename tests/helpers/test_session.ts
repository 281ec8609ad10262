/**
 * A real session for tests: real ledger, keys, guard and stores in a fresh temp dir, headless,
 * no sandbox unless asked. Options override the defaults.
 */
import { join } from "node:path";
import { type SessionOptions, startSession } from "../../src/agent/session.ts";
import type { Provider } from "../../src/providers/types.ts";

/** Starts a session on `workspace` driven by `provider`. */
export function testSession(
  workspace: string,
  provider: Provider,
  overrides: Partial<SessionOptions> = {},
) {
  const tmp = Deno.makeTempDirSync({ prefix: "retie-test-state-" });
  return startSession({
    workspace,
    ledgerPath: join(tmp, "ledger.db"),
    objective: "test",
    provider,
    providerName: provider.name,
    mode: "default",
    headless: true,
    yes: false,
    sandbox: { available: false, unavailableReason: "not needed here", network: false },
    approve: () => Promise.resolve(false),
    configDir: join(tmp, "cfg"),
    ...overrides,
  });
}
