/**
 * The pre-parser test suites again, with the tree-sitter parsers loaded (as the guard and
 * `retie inspect` run): every rule example, pinned negative, recall case and counting-semantics
 * test must hold on the parser path too, not only on the regular-expression fallback.
 */
import { loadParsers, parserStatus } from "../../src/inspect/mod.ts";

await loadParsers();
if (parserStatus() !== "ready") throw new Error(`parsers not loaded: ${parserStatus()}`);
await import("./rules_test.ts");
await import("./negatives_test.ts");
await import("./recall_test.ts");
await import("./inspect_test.ts");
