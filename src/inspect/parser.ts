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
import { errorMessage } from "../core/errors.ts";
import { commonPrefix, commonSuffix } from "./common_span.ts";

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
  readonly previousNamedSibling: SyntaxNode | null;
  readonly hasError: boolean;
  childForFieldName(name: string): SyntaxNode | null;
}

interface TsPoint {
  row: number;
  column: number;
}
interface TsTree {
  readonly rootNode: SyntaxNode;
  delete(): void;
  copy(): TsTree;
  edit(e: {
    startIndex: number;
    oldEndIndex: number;
    newEndIndex: number;
    startPosition: TsPoint;
    oldEndPosition: TsPoint;
    newEndPosition: TsPoint;
  }): void;
}
interface TsParser {
  setLanguage(l: unknown): void;
  parse(text: string, old?: TsTree | null): TsTree | null;
  setTimeoutMicros?(t: number): void;
}
interface TsLanguage {
  idForNodeType(type: string, named: boolean): number | null;
}
interface TsQuery {
  captures(
    node: SyntaxNode,
    options?: { startIndex?: number; endIndex?: number },
  ): { name: string; node: SyntaxNode }[];
}
interface TsModule {
  Parser: { init(o?: unknown): Promise<void>; new (): TsParser };
  Language: { load(bytes: Uint8Array): Promise<TsLanguage> };
  Query: new (language: TsLanguage, source: string) => TsQuery;
}

const FILES: Record<Grammar, string> = {
  python: "tree-sitter-python.wasm",
  javascript: "tree-sitter-javascript.wasm",
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  go: "tree-sitter-go.wasm",
};

/** Files larger than this are not parsed (the regular expressions still count them). */
export const MAX_PARSE_CHARS = 300_000;

const parsers = new Map<Grammar, TsParser>();
const languages = new Map<Grammar, TsLanguage>();
let QueryCtor: TsModule["Query"] | null = null;
const queries = new Map<string, TsQuery | null>();
const queriesBySource = new Map<string, TsQuery | null>();
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
      QueryCtor = mod.Query;
      for (const [g, file] of Object.entries(FILES) as [Grammar, string][]) {
        const lang = await mod.Language.load(await read(file));
        const p = new mod.Parser();
        p.setLanguage(lang);
        parsers.set(g, p);
        languages.set(g, lang);
      }
    } catch (e) {
      parsers.clear();
      loadError = `tree-sitter parsers could not be loaded: ${errorMessage(e)}`;
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

/**
 * Whether the grammar's parser is loaded (parsing would not fall back for that reason).
 *
 * @example
 * ```ts
 * await loadParsers();
 * isLoaded("python"); // true
 * ```
 */
export function isLoaded(g: Grammar): boolean {
  return parsers.has(g);
}

/** A parse result: the tree's root, or the reason the text was not parsed. */
export type ParseResult =
  | { ok: true; root: SyntaxNode; hasError: boolean; release(): void; tree?: TsTree }
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
export function parse(text: string, grammar: Grammar, old?: TsTree): ParseResult {
  if (text.includes("\0")) return { ok: false, reason: "binary content" };
  if (text.length > MAX_PARSE_CHARS) {
    return { ok: false, reason: `larger than ${MAX_PARSE_CHARS} characters` };
  }
  const p = parsers.get(grammar);
  if (!p) return { ok: false, reason: `parser not loaded (${parserStatus()})` };
  try {
    const tree = p.parse(text, old ?? null);
    if (!tree) return { ok: false, reason: "parser gave no tree" };
    const root = tree.rootNode;
    return { ok: true, root, hasError: root.hasError, release: () => tree.delete(), tree };
  } catch (e) {
    return { ok: false, reason: `parser failed: ${errorMessage(e)}` };
  }
}

/**
 * The cache holds the trees of one edit's changed statements: the before-side trees are the
 * bases the after-side re-parses from, so it must outlast the statements of a large edit
 * (bounded by count and by characters, since a tree costs memory in proportion to its text).
 */
const CACHE_SIZE = 128;
/** Beyond this many characters the cache shrinks, down to the last `CACHE_KEEP` trees. */
const CACHE_CHARS = 4_000_000;
const CACHE_KEEP = 16;
let cachedChars = 0;
const ASTRAL = /[\uD800-\uDFFF]/;
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
export function parseShared(text: string, grammar: Grammar, base?: string | null): ParseResult {
  const hit = cache.find((c) => c.grammar === grammar && c.text === text);
  if (hit) return hit.result;
  // Incremental: re-parse only what changed since `base`, whose tree is in the cache.
  const prev = base ? cache.find((c) => c.grammar === grammar && c.text === base) : undefined;
  let old: TsTree | undefined;
  if (prev?.result.ok && prev.result.tree && base) {
    old = prev.result.tree.copy();
    old.edit(editBetween(base, text));
  }
  const r = parse(text, grammar, old);
  old?.delete();
  if (!r.ok) return r;
  const shared: ParseResult = { ...r, release: () => {} };
  cache.push({ text, grammar, result: shared, free: r.release });
  cachedChars += text.length;
  while (cache.length > CACHE_SIZE || (cachedChars > CACHE_CHARS && cache.length > CACHE_KEEP)) {
    const old = cache.shift()!;
    cachedChars -= old.text.length;
    old.free();
  }
  return shared;
}

/**
 * Whether {@link parseShared} holds the tree of `text` (a re-parse from it is incremental).
 *
 * @example
 * ```ts
 * isParsed("a text never parsed"); // false
 * ```
 */
export function isParsed(text: string): boolean {
  return cache.some((c) => c.text === text && c.result.ok);
}

/** Node type names by type id, per language. */
const TYPE_NAMES = new WeakMap<object, Map<number, string>>();

/** The subset of tree-sitter's `TreeCursor` the walkers use. */
interface Cursor {
  readonly nodeType: string;
  readonly nodeTypeId: number;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly currentNode: SyntaxNode;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}

/**
 * Walks every node of a tree depth-first with a tree cursor, materialising a node object only
 * when `enter` asks for it (node objects are what make walks slow). `enter` gets the node type
 * and a getter; what it returns, if a function, is called when the walk leaves the node.
 *
 * @example
 * ```ts
 * await loadParsers();
 * const r = parse("f(1)\ng(2)\n", "python");
 * let calls = 0;
 * if (r.ok) walk(r.root, (type) => { if (type === "call") calls++; });
 * calls; // 2
 * ```
 */
export function walk(
  root: SyntaxNode,
  enter: (type: string, node: () => SyntaxNode) => void | (() => void),
  range?: readonly [number, number],
): void {
  const lang = (root as unknown as { tree?: { language?: object } }).tree?.language ?? walk;
  let typeNames = TYPE_NAMES.get(lang);
  if (!typeNames) TYPE_NAMES.set(lang, typeNames = new Map());
  const c = (root as unknown as { walk(): Cursor }).walk();
  const exits: ((() => void) | null)[] = [];
  const node = () => c.currentNode;
  try {
    for (;;) {
      // Type ids are numbers; the type's name (a string built from wasm memory) once per id.
      const id = c.nodeTypeId;
      let type = typeNames.get(id);
      if (type === undefined) typeNames.set(id, type = c.nodeType);
      // Outside the range: neither this node nor anything under it is looked at.
      const skip = range !== undefined && (c.endIndex < range[0] || c.startIndex > range[1]);
      exits.push(skip ? null : enter(type, node) || null);
      if (!skip && c.gotoFirstChild()) continue;
      for (;;) {
        exits.pop()?.();
        if (c.gotoNextSibling()) break;
        if (!c.gotoParent()) return;
      }
    }
  } finally {
    c.delete();
  }
}

function pointAt(text: string, index: number): TsPoint {
  let row = 0;
  let last = -1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    last = i;
  }
  return { row, column: index - last - 1 };
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The single edit that turns `a` into `b`: common prefix and suffix kept. */
function editBetween(a: string, b: string) {
  let p = commonPrefix(a, b);
  let s = commonSuffix(a, b, p);
  // The edit never splits a surrogate pair (an astral character is two string indices).
  if (p > 0 && isHigh(a.charCodeAt(p - 1))) p--;
  if (s > 0 && isLow(a.charCodeAt(a.length - s))) s--;
  return {
    startIndex: p,
    oldEndIndex: a.length - s,
    newEndIndex: b.length - s,
    startPosition: pointAt(a, p),
    oldEndPosition: pointAt(a, a.length - s),
    newEndPosition: pointAt(b, b.length - s),
  };
}

/**
 * The spans of `a` and `b` that differ (common prefix and suffix removed), as [start, end]
 * character ranges of each; null when the texts hold astral characters (tree-sitter's offsets
 * would not line up with string indices) or are equal.
 *
 * @example
 * ```ts
 * changedRanges("abcXdef", "abcYYdef"); // { a: [3, 4], b: [3, 5] }
 * ```
 */
export function changedRanges(
  a: string,
  b: string,
): { a: [number, number]; b: [number, number] } | null {
  if (a === b || ASTRAL.test(a) || ASTRAL.test(b)) return null;
  const p = commonPrefix(a, b);
  const s = commonSuffix(a, b, p);
  return { a: [p, a.length - s], b: [p, b.length - s] };
}

/**
 * The nodes of the given types under `root` (and overlapping `range`, when given), in document
 * order, found by a tree-sitter query: the tree is traversed inside WebAssembly and only the
 * matching nodes become objects. Types the grammar does not have are left out. Null when no query
 * can be made (the caller walks instead).
 *
 * @example
 * ```ts
 * await loadParsers();
 * const r = parse("f(1)\nif x:\n    g(2)\n", "python");
 * if (r.ok) captureNodes(r.root, "python", ["call", "if_statement"])?.map((n) => n.type);
 * // ["call", "if_statement", "call"]
 * ```
 */
export function captureNodes(
  root: SyntaxNode,
  grammar: Grammar,
  types: readonly string[],
  range?: readonly [number, number],
): SyntaxNode[] | null {
  const lang = languages.get(grammar);
  if (!lang || !QueryCtor) return null;
  const key = `${grammar}:${types.join(",")}`;
  let q = queries.get(key);
  if (q === undefined) {
    const known = types.filter((t) => lang.idForNodeType(t, true) !== null);
    const source = `[${known.map((t) => `(${t})`).join(" ")}] @n`;
    // Type lists that differ only in types the grammar lacks share one query (making a query is
    // costly: the grammar's parse tables are searched for every pattern).
    q = known.length ? queriesBySource.get(`${grammar}:${source}`) : null;
    if (q === undefined) {
      try {
        q = new QueryCtor(lang, source);
      } catch {
        q = null;
      }
      queriesBySource.set(`${grammar}:${source}`, q);
    }
    queries.set(key, q);
  }
  if (!q) return null;
  // Query ranges are in bytes of the UTF-16 text the parser was given (two per string index) and
  // exclude their ends; widen by one character so nodes touching the span count, as in `walk`.
  const opts = range
    ? { startIndex: 2 * Math.max(0, range[0] - 1), endIndex: 2 * (range[1] + 1) }
    : {};
  return q.captures(root, opts).map((c) => c.node);
}
