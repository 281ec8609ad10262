/**
 * `deno task demo`: retie's demo, with a separate process verifying the ledger.
 *
 * @module
 */
import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  const { startConfined } = await import("./src/cli/narrow.ts");
  const { enterInvocationDir } = await import("./src/cli/workspace.ts");
  enterInvocationDir(Deno.mainModule);
  Deno.exit(await startConfined(Deno.args, () => main(["demo", ...Deno.args])));
}
