/**
 * More changed-line guard signals, for the shapes a weakened check takes when nothing in it is
 * named like a check: a check's verdict ignored, an error handed on no more, a requirement joined
 * with `or` instead of `and`, a minimum lowered, a check commented out, a scoping or sanitising
 * call dropped. Called by `guard_lines.ts` for each changed hunk; pure, text in, signals out.
 *
 * @module
 */
import { denies, NOT_A_DENIAL, speaksSecurity } from "./guard_vocab.ts";
import {
  callNames,
  clip,
  code,
  type Hunk,
  isCheckCall,
  lastName,
  type Line,
  sameBody,
} from "./guard_text.ts";
import {
  ALLOW_VALUE,
  DENY_VALUE,
  ERROR_HANDED,
  inverted,
  LOGGING,
  OS_ERROR,
  VERDICT_SET,
} from "./guard_shape_vocab.ts";
import { removalShapes } from "./guard_shapes_removed.ts";
import { valueShapes } from "./guard_shapes_values.ts";
import { branchShapes } from "./guard_shapes_branches.ts";
import { settingShapes } from "./guard_shapes_settings.ts";
import { defaultShapes } from "./guard_shapes_defaults.ts";
import { flowShapes } from "./guard_shapes_flow.ts";
import { resultShapes } from "./guard_shapes_results.ts";
import { termShapes } from "./guard_shapes_terms.ts";
import { passShapes } from "./guard_shapes_passes.ts";

/** Calls whose result is a match or a comparison (`matchExpectedRPID`, `compareHash`, `equals`). */
const VERDICT_CALL =
  /^_*(match|compare|equal|is_?match|is_?equal)\w*$|(Match|Matches|Equal|Equals|_match|_equal)$/;

/** One signal: the rule, the before-side line it is about and what was seen. */
export interface Shape {
  rule: "auth-check-removed" | "crypto-verification-removed" | "secure-default-weakened";
  n: number;
  what: string;
}

/** What the caller knows about the file around a hunk. */
export interface ShapeContext {
  /** The before-text's and after-text's code (comment lines blanked), for call counts. */
  beforeCode: string;
  afterCode: string;
  /** Whether the code at before-line `n` is security code (path, function or nearby text). */
  secure(n: number): boolean;
  /** The code of the few before-lines after line `n` (what a header there guards). */
  body(n: number): string;
  /** The after-text's lines. */
  afterLines: string[];
  /** The before-text's lines, as they are (indentation kept). */
  beforeLines?: string[];
  /** The name of the definition before-line `n` sits in ("" at top level). */
  fn(n: number): string;
  /** The block a header at before-line `n` opens (its first `max` lines, 8 unless given), and
   * the code right after it. */
  block(n: number, max?: number): { body: string; after: string };
}

/** A hunk's lines with their code (comments blanked), as every shape reads them. */
export interface HunkView {
  h: Hunk;
  removed: { l: Line; c: string }[];
  added: { l: Line; c: string }[];
  addedCodes: Set<string>;
}

/**
 * Shape signals of one hunk. `ctx.secure` gates the ones that are ordinary outside security code
 * (an `and` that became `or`, a number lowered); the others speak for themselves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shapeSignals } from "./guard_shapes.ts";
 * const h = {
 *   removed: [{ n: 3, text: "  return sig.checkSignature(xml);" }],
 *   added: [{ n: 3, text: "  sig.checkSignature(xml);" }, { n: 4, text: "  return true;" }],
 * };
 * const ctx = { beforeCode: "", afterCode: "", afterLines: [], secure: () => false, body: () => "", fn: () => "", block: () => ({ body: "", after: "" }) };
 * assert.equal(shapeSignals(h, ctx)[0].what, "result of checkSignature() ignored");
 * ```
 */
export function shapeSignals(h: Hunk, ctx: ShapeContext): Shape[] {
  const removed = h.removed.map((l) => ({ l, c: code(l.text) }));
  const added = h.added.map((l) => ({ l, c: code(l.text) }));
  const addedCodes = new Set(added.map((x) => x.c));
  const out: Shape[] = [];
  for (const v of windows({ h, removed, added, addedCodes })) {
    out.push(
      ...verdictShapes(v, ctx),
      ...removalShapes(v, ctx),
      ...valueShapes(v, ctx),
      ...branchShapes(v, ctx),
      ...settingShapes(v, ctx),
      ...defaultShapes(v, ctx),
      ...flowShapes(v, ctx),
      ...termShapes(v, ctx),
      ...resultShapes(v, ctx),
      ...passShapes(v, ctx),
    );
  }
  return out;
}

/**
 * A hunk, or for a large one (a rewrite: the shapes pair every removed line with every added
 * one) overlapping windows of about 16 lines a side taken at the same relative position, so the
 * pairing stays linear in the hunk's size.
 */
function windows(v: HunkView): HunkView[] {
  const r = v.removed.length;
  const a = v.added.length;
  if (r * a <= 400) return [v];
  const n = Math.ceil(Math.max(r, a) / 16);
  const out: HunkView[] = [];
  for (let k = 0; k < n; k++) {
    out.push({
      ...v,
      removed: v.removed.slice(
        Math.max(0, Math.floor((k * r) / n) - 3),
        Math.ceil(((k + 1) * r) / n) + 3,
      ),
      added: v.added.slice(
        Math.max(0, Math.floor((k * a) / n) - 3),
        Math.ceil(((k + 1) * a) / n) + 3,
      ),
    });
  }
  return out;
}

/**
 * What became of a check's verdict: ignored, replaced, inverted, skipped by an early exit, an
 * error no longer handed on or caught and dropped, enforcement replaced by logging, a verdict
 * defaulted to allow.
 */
function verdictShapes(
  { h, removed, added, addedCodes }: HunkView,
  ctx: ShapeContext,
): Shape[] {
  const out: Shape[] = [];
  // A check whose verdict was used (returned, tested, assigned) is now called for nothing.
  for (const { l, c } of removed) {
    if (!/^\s*(return\b|if\b|elif\b|(const|let|var)\s|[\w$.]+\s*:?=[^=])|[!&|]/.test(c)) continue;
    for (const call of callNames(c)) {
      const name = lastName(call);
      if (!(isCheckCall(call) || VERDICT_CALL.test(name)) || name.length < 5) continue;
      const bare = new RegExp(
        `^(_\\s*(,\\s*_\\s*)*=\\s*)?(await\\s+)?[\\w$.]*\\b${
          name.replace(/\$/g, "\\$")
        }\\s*\\(.*\\)\\s*;?$`,
      );
      if (added.some((a) => bare.test(a.c))) {
        out.push({
          rule: "crypto-verification-removed",
          n: l.n,
          what: `result of ${name}() ignored`,
        });
      }
    }
  }

  // A check's verdict replaced: `ok = verify(x)` → `ok = True`, `m = await matchRP(…)` → `m = rps[0]`.
  for (const { l, c } of removed) {
    const m = /^\s*(?:(?:const|let|var)\s+)?([\w$.]+(?:\s*,\s*[\w$.]+)*)\s*:?=(?!=)\s*(.+)$/.exec(
      c,
    );
    if (!m) continue;
    const checks = callNames(m[2]).filter((x) =>
      (isCheckCall(x) || VERDICT_CALL.test(lastName(x))) && lastName(x).length >= 5
    );
    if (checks.length === 0) continue;
    for (const a of added) {
      const k = /^\s*(?:(?:const|let|var)\s+)?([\w$.]+(?:\s*,\s*[\w$.]+)*)\s*:?=(?!=)\s*(.+)$/.exec(
        a.c,
      );
      if (!k || k[1] !== m[1] || checks.some((x) => k[2].includes(lastName(x)))) continue;
      out.push({
        rule: "crypto-verification-removed",
        n: l.n,
        what: `${lastName(checks[0])}() no longer decides \`${clip(m[1])}\``,
      });
    }
  }

  // A comparison of a check inverted (`!=` → `==`, `not in` → `in`, `is None` → `is not None`).
  for (const { l, c } of removed) {
    if (!/^\s*(}\s*)?(if|elif|else\s+if|return|unless|while)\b/.test(c)) continue;
    // (A branch's header turned round with its bodies swapped is the same branch.)
    const branch = !/^\s*(}\s*)?return\b/.test(c);
    for (const a of added) {
      if (a.c === c || !inverted(c, a.c)) continue;
      if (branch && ctx.beforeLines && !sameBody(ctx.beforeLines, l.n, ctx.afterLines, a.l.n)) {
        continue;
      }
      if (ctx.secure(l.n) || callNames(c).some((x) => isCheckCall(x))) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `condition inverted: \`${clip(c)}\` → \`${clip(a.c)}\``,
        });
      }
    }
  }

  // An early exit put in front of checks, which now never run.
  for (const { l, c } of added) {
    if (!/^(return\b|continue\b|break\b)/.test(c) || /[{([,=>\\]\s*$/.test(c)) continue;
    const prev = added.find((x) => x.l.n === l.n - 1)?.c ?? ctx.afterLines[l.n - 2]?.trim() ?? "";
    // An exit right under a branch's header is conditional; under a definition's, it is not.
    const conditional =
      /^(}\s*)?(if|elif|else|case|default|for|while|except|catch|with|try)\b/.test(prev) ||
      (/[:{]$/.test(prev) &&
        !/^(export\s+)?(async\s+)?(def|function|func|fn)\b|\)\s*(->[^:]*)?:$|\)\s*(:[^{]*)?\{$/
          .test(prev));
    if (conditional) continue;
    const at = l.text.length - l.text.trimStart().length;
    const dead: string[] = [];
    for (let i = l.n; i < ctx.afterLines.length && dead.length < 30; i++) {
      const t = ctx.afterLines[i];
      if (t.trim() === "") continue;
      const ind = t.length - t.trimStart().length;
      if (ind < at || (ind === at && /^[}\])]/.test(t.trim()))) break;
      if (dead.length === 0 && ind !== at) break; // the exit's own continuation, not code after it
      dead.push(code(t));
    }
    const skipped = dead.find((t) => callNames(t).some((x) => isCheckCall(x)) || denies(t));
    if (skipped && ctx.secure(h.removed[0]?.n ?? l.n)) {
      out.push({
        rule: "auth-check-removed",
        n: h.removed[0]?.n ?? l.n,
        what: `\`${clip(c)}\` added before \`${clip(skipped)}\`, which no longer runs`,
      });
    }
  }

  // An error no longer handed on: `done(err)` → `done()` / `done(null)`.
  for (const { l, c } of removed) {
    const m = ERROR_HANDED.exec(c);
    if (!m || NOT_A_DENIAL.test(c)) continue;
    const fn = m[1].replace(/[.$]/g, "\\$&");
    const swallowed = new RegExp(`\\b${fn}\\(\\s*(null|undefined|nil|None)?\\s*\\)`);
    if (added.some((a) => swallowed.test(a.c)) && !added.some((a) => a.c.includes(m[0]))) {
      out.push({
        rule: "auth-check-removed",
        n: l.n,
        what: `${m[1]}(${m[2]}) no longer passes the error`,
      });
    }
  }

  // Enforcement replaced by logging: what was done (fail, lock, deny) is now only written down.
  const loggedOnly = added.filter((a) => a.c !== "").every((a) => LOGGING.test(a.c)) &&
    added.some((a) => LOGGING.test(a.c));
  if (loggedOnly) {
    const gone = removed.find(({ c }) =>
      c !== "" && !LOGGING.test(c) && !addedCodes.has(c) &&
      /[\w$]\s*\(|\b(return|raise|throw)\b/.test(c)
    );
    if (gone && ctx.secure(gone.l.n)) {
      out.push({
        rule: "auth-check-removed",
        n: gone.l.n,
        what: `\`${clip(gone.c)}\` replaced by logging`,
      });
    }
  }

  // A failure caught and dropped: an empty handler added where a check can throw.
  const swallow = added.find(({ c }, i) =>
    /^(}\s*)?catch\b[^{]*\{\s*}?$|\.catch\(\s*(\(\s*\w*\s*\)|\w+)\s*=>\s*(\{\s*}|null|undefined|true|false)\s*\)|^except\b.*:\s*(pass)?$/
      .test(c) &&
    (/pass$|\{\s*}|=>/.test(c) ||
      // (the handler's first statement: comment lines read as empty)
      /^(pass|\}|continue|return\s+(true|True);?)$/.test(
        added.slice(i + 1).find((a) => a.c !== "")?.c ?? "-",
      ))
  );
  if (swallow) {
    const near = [...added.map((a) => a.c), ...ctx.body(swallow.l.n - 4).split("\n")].join("\n");
    const checkNear = callNames(near).some((x) => isCheckCall(x)) ||
      /Invalid|Signature|Unauthori|Forbidden|Denied|Permission|Auth\w*Error|Token\w*Error|Expired/
        .test(swallow.c);
    if (checkNear && ctx.secure(swallow.l.n) && !OS_ERROR.test(swallow.c)) {
      out.push({
        rule: "auth-check-removed",
        n: h.removed[0]?.n ?? swallow.l.n,
        what: `failure caught and ignored: \`${clip(swallow.c)}\``,
      });
    }
  }

  // A verdict defaulted the other way: `result = 0` → `= 1`, `effect = Deny` → `= Allow`.
  for (const { l, c } of removed) {
    const m = VERDICT_SET.exec(c);
    if (!m) continue;
    for (const a of added) {
      const k = VERDICT_SET.exec(a.c);
      if (!k || k[1] !== m[1] || !DENY_VALUE.test(m[2]) || !ALLOW_VALUE.test(k[2])) continue;
      if (ctx.secure(l.n) || speaksSecurity(m[1])) {
        out.push({ rule: "auth-check-removed", n: l.n, what: `\`${clip(c)}\` → \`${clip(a.c)}\`` });
      }
    }
  }

  return out;
}
