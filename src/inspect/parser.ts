/**
 * The inspector's parsers: tree-sitter (WebAssembly) grammars for Python, JavaScript, TypeScript,
 * TSX and Go, from the npm package `@vscode/tree-sitter-wasm`, which ships the runtime
 * (`tree-sitter.js` + `tree-sitter.wasm`) and the grammars built together, so their ABI versions
 * always match.
 *
 * Loading is asynchronous (WebAssembly instantiation) and happens once per process:
 * {@link loadParsers} starts it and returns the same promise every time. Until it has finished,
 * {@link parse} returns null and the inspector counts with its regular expressions only (the
 * fallback). The `.wasm` files are read from the package's directory, found with
 * `import.meta.resolve`: in a `deno run` that is the npm cache (`$DENO_DIR/npm/…`, readable under
 * `permissions/base.flags`, which allows all reads); in a `deno compile` binary the npm package is
 * embedded and the same path is served from the binary's virtual file system.
 *
 * @module
 */
import TS from "@vscode/tree-sitter-wasm";

/** The grammars the inspector parses with. */
export type Grammar = "python" | "javascript" | "typescript" | "tsx" | "go";

/** The subset of tree-sitter's `Node` the inspector uses. */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: { row: number; column: number };
  readonly namedChildren: (SyntaxNode | null)[];
  readonly parent: SyntaxNode | null;
  readonly hasError: boolean;
  childForFieldName(name: string): SyntaxNode | null;
}

interface TsTree {
  readonly rootNode: SyntaxNode;
  delete(): void;
}
interface TsParser {
  setLanguage(l: unknown): void;
  parse(text: string): TsTree | null;
  setTimeoutMicros?(t: number): void;
}
interface TsModule {
  Parser: { init(o?: unknown): Promise<void>; new (): TsParser };
  Language: { load(bytes: Uint8Array): Promise<unknown> };
}

const FILES: Record<Grammar, string> = {
  python: "tree-sitter-python.wasm",
  javascript: "tree-sitter-javascript.wasm",
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  go: "tree-sitter-go.wasm",
};

/** Files larger than this are not parsed (the regular expressions still count them). */
export const MAX_PARSE_CHARS = 1_000_000;

const parsers = new Map<Grammar, TsParser>();
let loading: Promise<void> | null = null;
let loadError: string | null = null;

/**
 * The grammar of a path, by extension, or null (no parser: regular expressions only).
 *
 * @example
 * ```ts
 * grammarOf("app/views.py"); // "python"
 * grammarOf("src/a.tsx"); // "tsx"
 * grammarOf("main.go"); // "go"
 * grammarOf("README.md"); // null
 * ```
 */
export function grammarOf(path: string): Grammar | null {
  const m = /\.([a-z]+)$/i.exec(path);
  switch (m?.[1].toLowerCase()) {
    case "py":
    case "pyi":
    case "pyw":
      return "python";
    case "js":
    case "mjs":
    case "cjs":
    case "jsx":
      return "javascript";
    case "ts":
    case "mts":
    case "cts":
      return "typescript";
    case "tsx":
      return "tsx";
    case "go":
      return "go";
    default:
      return null;
  }
}

/**
 * Starts loading the runtime and every grammar, once per process; resolves when they are ready.
 * Never rejects: a failure is kept (see {@link parserStatus}) and the inspector stays on its
 * regular expressions.
 *
 * @example
 * ```ts
 * await loadParsers();
 * parserStatus(); // "ready"
 * ```
 */
export function loadParsers(): Promise<void> {
  if (loading) return loading;
  loading = (async () => {
    try {
      const base = import.meta.resolve("@vscode/tree-sitter-wasm");
      const read = (f: string) => Deno.readFile(new URL(`./${f}`, base));
      const mod = TS as unknown as TsModule;
      await mod.Parser.init({ wasmBinary: await read("tree-sitter.wasm") });
      for (const [g, file] of Object.entries(FILES) as [Grammar, string][]) {
        const lang = await mod.Language.load(await read(file));
        const p = new mod.Parser();
        p.setLanguage(lang);
        parsers.set(g, p);
      }
    } catch (e) {
      parsers.clear();
      loadError = `tree-sitter parsers could not be loaded: ${(e as Error).message}`;
    }
  })();
  return loading;
}

/**
 * Whether the parsers are loaded: `ready`, `loading`, `not started`, or the load error.
 *
 * @example
 * ```ts
 * typeof parserStatus(); // "string"
 * ```
 */
export function parserStatus(): string {
  if (loadError) return loadError;
  if (parsers.size > 0) return "ready";
  return loading ? "loading" : "not started";
}

/** A parse result: the tree's root, or the reason the text was not parsed. */
export type ParseResult =
  | { ok: true; root: SyntaxNode; hasError: boolean; release(): void }
  | { ok: false; reason: string };

/**
 * Parses `text` with the grammar; a text that is binary, too large, or whose grammar is not
 * loaded yields a reason instead (the caller falls back to regular expressions with a note).
 * Syntax errors do not fail: tree-sitter recovers and marks them, and `hasError` says so.
 * Call `release()` when done with the tree.
 *
 * @example
 * ```ts
 * await loadParsers();
 * const r = parse("x = 1\n", "python");
 * if (r.ok) { r.root.type; /* "module" *\/ r.release(); }
 * ```
 */
export function parse(text: string, grammar: Grammar): ParseResult {
  if (text.includes("\0")) return { ok: false, reason: "binary content" };
  if (text.length > MAX_PARSE_CHARS) {
    return { ok: false, reason: `larger than ${MAX_PARSE_CHARS} characters` };
  }
  const p = parsers.get(grammar);
  if (!p) return { ok: false, reason: `parser not loaded (${parserStatus()})` };
  try {
    const tree = p.parse(text);
    if (!tree) return { ok: false, reason: "parser gave no tree" };
    const root = tree.rootNode;
    return { ok: true, root, hasError: root.hasError, release: () => tree.delete() };
  } catch (e) {
    return { ok: false, reason: `parser failed: ${(e as Error).message}` };
  }
}

const CACHE_SIZE = 4;
const cache: { text: string; grammar: Grammar; result: ParseResult; free: () => void }[] = [];

/**
 * {@link parse} through a small cache of the last few texts, so the guard counting and the
 * secret scan of one edit parse each side once. The trees are owned by the cache (released on
 * eviction); `release()` on the result is a no-op.
 *
 * @example
 * ```ts
 * await loadParsers();
 * const a = parseShared("x = 1\n", "python");
 * parseShared("x = 1\n", "python") === a; // true
 * ```
 */
export function parseShared(text: string, grammar: Grammar): ParseResult {
  const hit = cache.find((c) => c.grammar === grammar && c.text === text);
  if (hit) return hit.result;
  const r = parse(text, grammar);
  if (!r.ok) return r;
  const shared: ParseResult = { ...r, release: () => {} };
  cache.push({ text, grammar, result: shared, free: r.release });
  if (cache.length > CACHE_SIZE) cache.shift()!.free();
  return shared;
}
