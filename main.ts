/**
 * retie: a terminal coding agent that plans the undo before acting and records what it did.
 *
 * @module
 */
import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}

export { main };
