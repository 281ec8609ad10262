/**
 * retie: a terminal coding agent that plans the undo before acting and records what it did.
 *
 * Started with broader Deno permissions than its own flags (`deno run -A jsr:@retie/cli`), it
 * re-executes itself once under them before doing anything else (`src/cli/narrow.ts`).
 *
 * @module
 */
import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  const { startConfined } = await import("./src/cli/narrow.ts");
  const { enterInvocationDir } = await import("./src/cli/workspace.ts");
  enterInvocationDir(Deno.mainModule);
  Deno.exit(await startConfined(Deno.args, () => main(Deno.args)));
}

export { main };
