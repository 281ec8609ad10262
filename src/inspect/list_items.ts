/**
 * Items of a list of who may or who may not, added or taken out: a path put into the list that
 * skips authentication (`// don't check auth for these` … `"/logproto.Querier/Query",`), a tenant
 * appended to `--opa.skip-tenants=…`, private ranges taken out of what a proxy denies
 * (`for _, ipDeny := range []string{ "10.0.0.0/8", …`). The list is named by the lines around it
 * (its opening line, a comment above, the loop that reads it below), whatever the language.
 * Called by `guard_lines.ts` for each hunk; pure.
 *
 * @module
 */
import { clip, type Hunk } from "./guard_text.ts";

/** One signal: the before-line it is about and what was seen. */
export interface ListSignal {
  n: number;
  what: string;
}

/** A line that is one item of a list: a string, a comma, maybe a comment. */
const ITEM = /^\s*(['"`][^'"`\n]*['"`])\s*,?\s*(#.*|\/\/.*)?$/;

/** A line that opens a list (`[]string{`, `= [`, `(`), not an import's. */
const OPENS = /[[{(]\s*$/;

/** Words of a list whose items get through unchecked: more items let more through. */
export const EXEMPT =
  /skip|exempt|public|bypass|anonymous|unauthenticated|no_?auth|don'?t\s+(check|verify|require|need)|(check|verify|require)\s+no\b|without\s+(auth|login|a\s+token)|not\s+(require|check)|open_?(paths|urls|routes|endpoints)|unprotected/i;
/** Words of a list whose items are refused or protected: fewer items let more through. */
export const DENY =
  /deny|block|forbid|black_?list|block_?list|disallow|reject|private|reserved|protect|restrict|auth_?required|login_?required|sensitive|dangerous|banned|admin_?only|require_?(auth|login)/i;
/** Words that name an exemption from security, not from a build or a linter. */
const STRONG_EXEMPT =
  /bypass|anonymous|unauthenticated|no_?auth|don'?t\s+(check|verify|require)\s+(auth|token|login|csrf|permission)|without\s+(auth|login|a\s+token)|csrf_?exempt|auth_?exempt|public_?(paths|urls|routes|endpoints)|skip_?(auth|tenants|verify|check)/i;

/** The words around a list whose items sit at lines `from`..`to` (0-based) of `lines`. */
function around(lines: string[], from: number, to: number): string {
  let open = from - 1;
  while (open >= 0 && (ITEM.test(lines[open]) || lines[open].trim() === "")) open--;
  let close = to + 1;
  while (close < lines.length && (ITEM.test(lines[close]) || lines[close].trim() === "")) close++;
  // (The opening line and what is said above it; the closing line and the loop that reads it.)
  if (!OPENS.test(lines[open] ?? "") || /\bimport\b/.test(lines[open] ?? "")) return "";
  return [
    ...lines.slice(Math.max(0, open - 2), open + 1),
    ...lines.slice(close, close + 2),
  ].join("\n");
}

/**
 * The list signals of hunk `h`: items added to an exemption, or taken from a denial.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listSignals } from "./list_items.ts";
 * const bl = ["for _, ipDeny := range []string{", `  "10.0.0.0/8",`, `  "127.0.0.0/8",`, "} {"];
 * const h = { removed: [{ n: 2, text: bl[1] }], added: [] };
 * const al = [bl[0], bl[2], bl[3]];
 * assert.match(listSignals(h, bl, al, () => true)[0].what, /10\.0\.0\.0/);
 * const back = { removed: [], added: [{ n: 2, text: bl[1] }], at: 2 };
 * assert.deepEqual(listSignals(back, al, bl, () => true), []);
 * ```
 */
export function listSignals(
  h: Hunk,
  bl: string[],
  al: string[],
  secure: (n: number) => boolean,
): ListSignal[] {
  const changed = [...h.removed, ...h.added];
  if (changed.length === 0 || !changed.every((l) => ITEM.test(l.text))) return [];
  const item = (t: string) => t.trim().replace(/,?\s*(#.*|\/\/.*)?$/, "");
  const gone = h.removed.map((l) => item(l.text)).filter((x) =>
    !h.added.some((a) => item(a.text) === x)
  );
  const fresh = h.added.map((l) => item(l.text)).filter((x) =>
    !h.removed.some((r) => item(r.text) === x)
  );
  const n = h.removed[0]?.n ?? h.at ?? h.added[0].n;
  // (The list is read where it stands: in the before-text for items taken out, in the
  // after-text for items put in.)
  const side = gone.length
    ? around(bl, h.removed[0].n - 1, h.removed.at(-1)!.n - 1)
    : around(al, h.added[0].n - 1, h.added.at(-1)!.n - 1);
  const exempt = EXEMPT.test(side);
  const deny = DENY.test(side);
  if (exempt === deny) return [];
  if (
    !STRONG_EXEMPT.test(side) && !/deny|block|forbid|black_?list|private|reserved/i.test(side) &&
    !secure(n)
  ) {
    return [];
  }
  if (exempt && fresh.length && !gone.length) {
    return [{ n, what: `${clip(fresh.join(", "))} added to what goes unchecked` }];
  }
  if (deny && gone.length && !fresh.length) {
    return [{ n, what: `${clip(gone.join(", "))} no longer refused or protected` }];
  }
  return [];
}
