/**
 * `deno task demo`: retie's demo, with a separate process verifying the ledger.
 *
 * @module
 */
import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await main(["demo", ...Deno.args]));
}
