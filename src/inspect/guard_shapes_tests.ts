/**
 * Shape signals about what a removed line tested and what its replacement tests: a check made
 * conditional with a yes otherwise, a yes-attribute tested for being there, an answer's comparison
 * replaced by a presence test, a branch that refuses or verifies no longer entered on its bound, a
 * failing branch's "anything but" made "only this", a failing branch's negated check made
 * positive. Each is read with its polarity (a branch that refuses, a function whose yes keeps
 * out). Called by the result shapes (`guard_shapes_results.ts`) for each removed line; pure.
 *
 * @module
 */
import { FAILURE, YES_ARM } from "./guard_vocab.ts";
import { YES_ATTRIBUTE } from "./guard_shape_vocab.ts";
import { blockOf, callNames, clip, condition, isCheckCall, lastName } from "./guard_text.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";
import { kindOf } from "./guard_term_polarity.ts";
import { yesKeepsOut } from "./name_polarity.ts";

/** A call that compares a secret or its hash (`bcrypt.compare`, `timingSafeEqual`). */
const HASH_COMPARE =
  /^(bcrypt|bcryptjs|argon2|scrypt|hasher|passlib|pwd_context|password_hasher)\.\w+$|timingSafeEqual|compare_?digest|constant_?time\w*|safe_?(str_?)?compare|secure_?compare/i;

/**
 * The branch-test shapes of one removed line `r` against the hunk's added lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { branchTestShapes } from "./guard_shapes_tests.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "check", block: () => ({ body: "", after: "" }),
 * };
 * const r = line(2, "return user == opts.admin");
 * const [s] = branchTestShapes(r, [line(2, 'return user != ""')], ctx);
 * assert.match(s.what, /no longer compared with `opts\.admin`/);
 * assert.deepEqual(branchTestShapes(line(2, 'return user != ""'), [r], ctx), []);
 * ```
 */
export function branchTestShapes(
  r: HunkView["removed"][number],
  added: HunkView["added"],
  ctx: ShapeContext,
): Shape[] {
  const out: Shape[] = [];
  // A check made conditional, with a yes for the other case (`ok = await compare(p, u.hash)` →
  // `ok = u.hash ? await compare(p, u.hash) : true`): without the condition, no check at all.
  const checked = callNames(r.c).find((c) => isCheckCall(c) || HASH_COMPARE.test(c));
  const fallback = checked && !YES_ARM.test(r.c) &&
    added.find((a) => a.c.includes(`${checked}(`) && YES_ARM.test(a.c));
  const { kind: k0, name: n0 } = kindOf(r.c);
  if (fallback && !yesKeepsOut(k0 === "assign" ? n0 : ctx.fn(r.l.n))) {
    out.push({
      rule: "auth-check-removed",
      n: r.l.n,
      what: `${checked}() made conditional, yes otherwise: \`${clip(fallback.c)}\``,
    });
  }
  // A branch that lets through on a yes-attribute now lets through when it is merely there
  // (`if (req.user.admin)` → `if (req.user.admin != null)`): `false` is there too.
  const truth = /^(if|elif|else if)$/.test(kindOf(r.c).kind ?? "") ? condition(r.c)?.trim() : "";
  if (truth && /^[\w$]+(\.[\w$]+)+$/.test(truth) && YES_ATTRIBUTE.test(truth.split(".").pop()!)) {
    const x = truth.replace(/[$.]/g, "\\$&");
    const present = new RegExp(
      `^${x}\\s*(!==?\\s*(null|undefined|nil|None)|is\\s+not\\s+None)$`,
    );
    const a = added.find((y) => present.test(condition(y.c)?.trim() ?? ""));
    if (a && !FAILURE.test(ctx.block(r.l.n).body)) {
      out.push({
        rule: "auth-check-removed",
        n: r.l.n,
        what: `\`${truth}\` tested for being there instead of true: \`${clip(a.c)}\``,
      });
    }
  }
  // An answer's comparison replaced by a presence test (`return user == controlUser` →
  // `return user != ""`): any value now passes. (Read the other way round where a yes keeps out.)
  const ansB = /^\s*return\s+(.+?)\s*;?$/.exec(r.c)?.[1];
  const cmp = ansB ? /^([\w$.()[\]]+)\s*===?\s*([\w$.()[\]]+)$/.exec(ansB) : null;
  if (cmp && !/^(true|false|True|False|None|null|nil|undefined|""|''|0)$/.test(cmp[2])) {
    const esc = cmp[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const present = new RegExp(
      `^\\s*return\\s+(${esc}\\s*!==?\\s*(""|''|nil|null|None|undefined)|len\\(${esc}\\)\\s*>\\s*0|${esc}\\s+is\\s+not\\s+None|bool\\(${esc}\\)|!!${esc})\\s*;?$`,
    );
    const a = added.find((x) => present.test(x.c));
    if (a && !yesKeepsOut(ctx.fn(r.l.n)) && ctx.secure(r.l.n)) {
      out.push({
        rule: "auth-check-removed",
        n: r.l.n,
        what: `\`${clip(cmp[1])}\` no longer compared with \`${clip(cmp[2])}\`: \`${clip(a.c)}\``,
      });
    }
  }
  // A branch that refuses or runs a check entered on a strict bound where it was entered on
  // the bound too (`if cfg.ClientAuth >= VerifyIfGiven` → `>`, `if tries >= MAX` → `>`).
  const strictB = /^(if|elif|else if)$/.test(kindOf(r.c).kind ?? "") ? condition(r.c) ?? "" : "";
  // (A version check, `sys.version_info <= (2, 6)`, guards no one.)
  if (/[<>]=/.test(strictB) && !/version/i.test(strictB)) {
    const strict = strictB.replace(/([<>])=/, "$1");
    const a = added.find((x) => (condition(x.c) ?? "") === strict);
    const body = ctx.block(r.l.n).body;
    if (
      a && (refuses(body) || callNames(body).some((c) => isCheckCall(c))) && ctx.secure(r.l.n)
    ) {
      out.push({
        rule: "auth-check-removed",
        n: r.l.n,
        what: `bound no longer included: \`${clip(strictB)}\` → \`${clip(strict)}\``,
      });
    }
  }
  // A failing branch's "anything but" made "only this" (`if decision != Allow` → `if decision
  // == Deny`): the values in between, no opinion, an unknown type, now pass.
  const cbr = /^(if|elif|else if)$/.test(kindOf(r.c).kind ?? "") ? condition(r.c) ?? "" : "";
  for (const m of cbr.matchAll(/([\w$.()]+)\s*!==?\s*([\w$.]+)/g)) {
    const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const only = new RegExp(
      `^${esc(cbr.slice(0, m.index))}${esc(m[1])}\\s*===?\\s*(?!${esc(m[2])}\\b)[\\w$.]+${
        esc(cbr.slice(m.index! + m[0].length))
      }$`,
    );
    const a = added.find((x) => only.test(condition(x.c) ?? ""));
    if (a && refuses(ctx.block(r.l.n).body) && refuses(blockOf(ctx.afterLines, a.l.n).body)) {
      out.push({
        rule: "auth-check-removed",
        n: r.l.n,
        what: `failure narrowed from anything but \`${m[2]}\` to one value: \`${clip(a.c)}\``,
      });
      break;
    }
  }
  // A failing branch's negated check made positive (`if !oper.HasRoleCapab("kill")` →
  // `if oper.HasRoleCapab("kill")`): it now fails those who pass and lets the others through.
  const neg = /^(if|elif|else if)$/.test(kindOf(r.c).kind ?? "")
    ? /^\(?\s*(?:!\s*|not\s+)([\w$.]+\(.*\))\s*\)?$/.exec(condition(r.c)?.trim() ?? "")
    : null;
  if (
    neg && /^(has|is|can|check|verify|allow|may)/i.test(lastName(neg[1].replace(/\(.*$/, ""))) &&
    // (The branch still refuses after the edit: `if !ok { fail }` → `if ok { return v }` is a
    // rewrite, not an inversion.)
    added.some((a) =>
      condition(a.c)?.trim().replace(/^\((.*)\)$/, "$1") === neg[1] &&
      refuses(blockOf(ctx.afterLines, a.l.n).body)
    ) &&
    refuses(ctx.block(r.l.n).body)
  ) {
    out.push({
      rule: "auth-check-removed",
      n: r.l.n,
      what: `failure now when \`${clip(neg[1])}\` passes: \`${clip(r.c)}\` inverted`,
    });
  }
  return out;
}

/** A branch body that refuses: a failure, or a bare return after saying why (`Insufficient privs`). */
function refuses(body: string): boolean {
  return FAILURE.test(body) ||
    (/\breturn\b/.test(body) &&
      /insufficient|denied|not (allowed|permitted|authori[sz]ed)|forbidden|permission|privilege|unauthori/i
        .test(body));
}
