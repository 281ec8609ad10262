/**
 * The token diff of one hunk, for the term shapes (`guard_shapes_terms.ts`): the before- and
 * after-lines cut into tokens (across line breaks) and compared by their longest common
 * subsequence, giving the runs one side took out and the other put in, each with the tokens
 * around it. Small helpers read a run: the term it joins with `and`/`or`, the call it sits in,
 * the list item it is.
 *
 * @module
 */
/** One token with the before-line (1-based) it comes from. */
export interface Tok {
  t: string;
  n: number;
}

/** A run of the diff: tokens taken out of the before-side and put into the after-side. */
export interface Chunk {
  del: string[];
  ins: string[];
  /** The before-line the run sits at. */
  n: number;
  /** The before-side tokens up to the run, and after it. */
  pre: string[];
  post: string[];
}

const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|&&|\|\||===?|!==?|<=|>=|:=|=>|->|\*\*|\S/g;

/**
 * Tokens of lines, each with its line number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokensOf } from "./term_diff.ts";
 * const ts = tokensOf([{ l: { n: 3 }, c: "ok = a && b.c" }]);
 * assert.deepEqual(ts.map((x) => x.t), ["ok", "=", "a", "&&", "b", ".", "c"]);
 * assert.equal(ts[0].n, 3);
 * ```
 */
export function tokensOf(lines: { l: { n: number }; c: string }[]): Tok[] {
  const out: Tok[] = [];
  for (const { l, c } of lines) for (const m of c.matchAll(TOKEN)) out.push({ t: m[0], n: l.n });
  return out;
}

/**
 * The runs where two token lists differ (longest common subsequence), or null when too big.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunks, tokensOf } from "./term_diff.ts";
 * const b = tokensOf([{ l: { n: 1 }, c: "ok = a and b" }]);
 * const a = tokensOf([{ l: { n: 1 }, c: "ok = a" }]);
 * const [c] = chunks(b, a)!;
 * assert.deepEqual([c.del, c.ins, c.pre], [["and", "b"], [], ["ok", "=", "a"]]);
 * ```
 */
export function chunks(b: Tok[], a: Tok[]): Chunk[] | null {
  let s = 0;
  while (s < b.length && s < a.length && b[s].t === a[s].t) s++;
  let e = 0;
  while (e < b.length - s && e < a.length - s && b[b.length - 1 - e].t === a[a.length - 1 - e].t) {
    e++;
  }
  const B = b.slice(s, b.length - e);
  const A = a.slice(s, a.length - e);
  if (B.length * A.length > 40_000) return null;
  // lcs[i][j]: the common length of B[i..] and A[j..].
  const w = A.length + 1;
  const lcs = new Uint16Array((B.length + 1) * w);
  for (let i = B.length - 1; i >= 0; i--) {
    for (let j = A.length - 1; j >= 0; j--) {
      lcs[i * w + j] = B[i].t === A[j].t
        ? lcs[(i + 1) * w + j + 1] + 1
        : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const out: Chunk[] = [];
  const all = b.map((x) => x.t);
  let i = 0, j = 0;
  let cur: Chunk | null = null;
  while (i < B.length || j < A.length) {
    if (i < B.length && j < A.length && B[i].t === A[j].t) {
      cur = null;
      i++;
      j++;
      continue;
    }
    const at = s + i;
    if (!cur) {
      cur = { del: [], ins: [], n: (b[at] ?? b[at - 1] ?? a[s + j])?.n ?? 1, pre: [], post: [] };
      cur.pre = all.slice(Math.max(0, at - 40), at);
      out.push(cur);
    }
    if (j >= A.length || (i < B.length && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
      cur.del.push(B[i].t);
      i++;
    } else {
      cur.ins.push(A[j].t);
      j++;
    }
    cur.post = all.slice(s + i, s + i + 40);
  }
  return out;
}

/**
 * Whether tokens close every bracket they open (a whole term, not a piece of one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { balanced } from "./term_diff.ts";
 * assert.equal(balanced(["f", "(", "x", ")"]), true);
 * assert.equal(balanced(["x", ")"]), false);
 * ```
 */
export function balanced(ts: string[]): boolean {
  let d = 0;
  for (const t of ts) {
    if (t === "(" || t === "[" || t === "{") d++;
    else if (t === ")" || t === "]" || t === "}") d--;
    if (d < 0) return false;
  }
  return d === 0;
}

export const AND = new Set(["&&", "and", "AND"]);
export const OR = new Set(["||", "or", "OR"]);

/**
 * The term a run adds or drops next to a joining word (`and x`, `x &&`), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AND, joined } from "./term_diff.ts";
 * assert.deepEqual(joined(["and", "u", ".", "ok"], AND), ["u", ".", "ok"]);
 * assert.equal(joined(["u", ")"], AND), null);
 * ```
 */
export function joined(ts: string[], ops: Set<string>): string[] | null {
  if (ts.length < 2) return null;
  const term = ops.has(ts[0]) ? ts.slice(1) : ops.has(ts[ts.length - 1]) ? ts.slice(0, -1) : null;
  if (!term || !balanced(term) || term.some((t) => ops.has(t) || AND.has(t) || OR.has(t))) {
    return null;
  }
  return term;
}

/**
 * Tokens back to text, spaced where the words need it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { text } from "./term_diff.ts";
 * assert.equal(text(["u", ".", "is_active", "==", "1"]), "u.is_active == 1");
 * ```
 */
export function text(ts: string[]): string {
  return ts.join(" ").replace(/ ?([.(),\[\]]) ?/g, "$1").replace(/,/g, ", ");
}

/**
 * The call a position is inside of: the name before the nearest unclosed `(`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openCall } from "./term_diff.ts";
 * assert.equal(openCall(["get", "(", "id", "=", "f", "(", "x", ")"]), "get");
 * assert.equal(openCall(["x", "="]), null);
 * ```
 */
export function openCall(pre: string[]): string | null {
  let d = 0;
  for (let k = pre.length - 1; k >= 0; k--) {
    const t = pre[k];
    if (t === ")") d++;
    else if (t === "(") {
      if (d === 0) return /^[A-Za-z_$]/.test(pre[k - 1] ?? "") ? pre[k - 1] : null;
      d--;
    }
  }
  return null;
}

/**
 * The one quoted item a run adds or drops from a list (`, 'PUT'`), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listItem } from "./term_diff.ts";
 * assert.equal(listItem([",", "'", "PUT", "'"]), "PUT");
 * assert.equal(listItem(["x"]), null);
 * ```
 */
export function listItem(ts: string[]): string | null {
  const body = ts[0] === "," ? ts.slice(1) : ts[ts.length - 1] === "," ? ts.slice(0, -1) : null;
  if (!body || body.length !== 3) return null;
  const [q1, w, q2] = body;
  return (q1 === "'" || q1 === '"' || q1 === "`") && q2 === q1 && /^[\w-]+$/.test(w) ? w : null;
}

/**
 * The tokens of the bracketed list a run sits in (up to its brackets on both sides).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listAround } from "./term_diff.ts";
 * const ch = { del: [], ins: [], n: 1, pre: ["m", "=", "[", "'", "GET", "'"], post: ["]", ";"] };
 * assert.deepEqual(listAround(ch), ["'", "GET", "'"]);
 * ```
 */
export function listAround(ch: Chunk): string[] {
  const out: string[] = [];
  for (let k = ch.pre.length - 1; k >= 0 && !"[({".includes(ch.pre[k]); k--) out.push(ch.pre[k]);
  for (const t of ch.post) {
    if ("])}".includes(t)) break;
    out.push(t);
  }
  return out;
}

/**
 * The term a run joins with `ops`, also when the diff placed the run a few tokens late (`POST "
 * && method !== "` for `method !== "POST" &&`: its tail repeats the tokens just before it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AND, joinedShifted } from "./term_diff.ts";
 * const run = ["POST", '"', "&&", "m", "!==", '"'];
 * assert.deepEqual(joinedShifted(run, ["m", "!==", '"'], AND), ["m", "!==", '"', "POST", '"']);
 * ```
 */
export function joinedShifted(run: string[], pre: string[], ops: Set<string>): string[] | null {
  for (let k = 0; k <= 6 && k < run.length; k++) {
    if (k > 0 && run.slice(-k).join(" ") !== pre.slice(-k).join(" ")) continue;
    const t = joined(k ? [...run.slice(-k), ...run.slice(0, -k)] : run, ops);
    if (t) return t;
  }
  return null;
}
