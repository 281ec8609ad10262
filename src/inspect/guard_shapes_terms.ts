/**
 * Shape signals read from what an edit took out of an expression or put into it, token by
 * token, across line breaks: a requirement dropped from what a value, a `return`, a callback or
 * a query demands (`u.is_authenticated and u.is_active` → `u.is_authenticated`, `AND used = FALSE`
 * gone from a token lookup); a binding dropped from a lookup (`secret_key=key`); an alternative
 * put in front of a check (`key == api_key or checkpw(…)`); a privilege lowered inside a name
 * (`hasAdmin` → `hasMember`); a check's result replaced by a constant; a symmetric or `none`
 * algorithm let into an allow-list; a lifetime multiplied; an unsafe method no longer protected.
 *
 * Each is read with its polarity: a branch that fails, a name that says no (`is_blocked`), a
 * function whose yes enforces are the other way round, so the same edit made in reverse (a guard
 * added) stays silent. Called by `guard_shapes.ts` for each hunk; pure.
 *
 * @module
 */
import { FAILURE, PERMISSIVE } from "./guard_vocab.ts";
import { clip, code, isCheckCall } from "./guard_text.ts";
import { STRICT_ARG } from "./guard_shape_vocab.ts";
import { noRequirement } from "./guard_requirements.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";
import { swapShapes } from "./guard_shapes_swaps.ts";
import { resultRunShapes } from "./guard_shapes_results.ts";
import { scopeDrops, scopeShapes } from "./guard_shapes_scope.ts";
import { grantsMore, holdsVerdict, kindOf } from "./guard_term_polarity.ts";
import { yesKeepsOut } from "./name_polarity.ts";
import { branchOpening, conditionHeader, statementHead } from "./guard_condition_lines.ts";
import {
  AND,
  chunks,
  joined,
  joinedShifted,
  listAround,
  listItem,
  openCall,
  OR,
  text,
  tokensOf,
} from "./term_diff.ts";

/** A requirement a term states: being allowed, verified, active, an owner, unused, a member. */
const REQUIRES =
  /allow|verif|valid|active|enabled|confirm|approv|authori[sz]|authentic|trust|signed|secure|\bis_?[a-z]|\bhas_?[A-Za-z]|\bcan_?[A-Za-z]|check|perm|role|admin|staff|super|owner|manager|moder|scope|csrf|expir|revok|\bused\b|consumed|redeemed|user_?id|userId|tenant|org(anization)?_?id|\bin\s+[\w$.]+$|includes|member/i;

/** A value whose yes protects (`secure` of a cookie, `verify`, `strict`, `enforceCsrf`). */
const PROTECTIVE_VALUE =
  /^(?:(?:const|let|var)\s+)?(secure|is_?secure|http_?only|httpOnly|use_?(ssl|tls|https)|verify\w*|strict\w*|enforce\w*|csrf\w*|require_?\w*)$/i;

/** A token that makes a term a test: a comparison, a membership (or a call, read apart). */
const COMPARES = /^(==|!=|===|!==|<|>|<=|>=|in|is)$/;

/** HTTP methods that change state (the ones CSRF protection and write checks cover). */
const UNSAFE_METHOD = /^(POST|PUT|PATCH|DELETE)$/;

/** Fields that grant privilege, so a list that protects them loses protection when one goes. */
const PRIVILEGE_FIELD =
  /^(is_?super_?user|is_?staff|is_?admin|user_?permissions|groups|roles?|permissions?|is_?active|email_?verified|password)$/i;

/** A list whose members are protected (read-only, excluded, restricted, sensitive). */
const PROTECTED_LIST =
  /readonly|read_only|protected|exclude|restricted|sensitive|immutable|private|forbid|denied|csrf|method/i;

/**
 * The term shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { termShapes } from "./guard_shapes_terms.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(4, "is_ok = u.is_authenticated and u.is_active")];
 * const added = [line(4, "is_ok = u.is_authenticated")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "check_user", block: () => ({ body: "", after: "" }),
 * };
 * assert.match(termShapes(v, ctx)[0].what, /requirement dropped: `u\.is_active`/);
 * assert.deepEqual(termShapes({ ...v, removed: added, added: removed }, ctx), []);
 * ```
 */
export function termShapes({ h, removed, added }: HunkView, ctx: ShapeContext): Shape[] {
  // (A run is placed by its before-line: a hunk that only adds goes in front of `h.at`.)
  const at = removed.length ? removed[0].l.n : h.at;
  if (
    at === undefined || removed.length > 12 || added.length > 12 ||
    added.length === 0 && !removed.length
  ) {
    return [];
  }
  // The unchanged lines just above and below the hunk, on both sides: what a run sits in.
  const lines = ctx.beforeLines ?? [];
  const first = at;
  const last = removed.length ? removed[removed.length - 1].l.n : at - 1;
  const around = (from: number, to: number) =>
    lines.slice(Math.max(0, from), Math.max(0, to)).map((t, k) => ({
      l: { n: Math.max(0, from) + k + 1 },
      c: code(t),
    }));
  const above = tokensOf(around(first - 9, first - 1));
  const below = tokensOf(around(last, last + 4));
  const cs = chunks(
    [...above, ...tokensOf(removed), ...below],
    [...above, ...tokensOf(added), ...below],
  );
  if (!cs || cs.length === 0 || cs.length > 6) return [];
  const lineOf = (n: number) => removed.find((r) => r.l.n === n)?.c ?? "";
  const addedText = added.map((a) => a.c).join("\n");
  // A scoping call dropped from a query chain, however the chain was laid out anew.
  const out: Shape[] = scopeDrops(tokensOf(removed), tokensOf(added), ctx);
  const push = (rule: Shape["rule"], n: number, what: string) => out.push({ rule, n, what });
  for (const ch of cs) {
    const line = lineOf(ch.n);
    const { del, ins, n } = ch;
    // A pattern's anchor dropped (`'^%s$' % host` → `'^%s'`): the run loses `^`/`$` and nothing else.
    const anchors = (ts: string[]) => (ts.join("").match(/[\^$]/g) ?? []).length;
    const bare = (ts: string[]) => ts.join("").replace(/[\^$]/g, "");
    if (
      anchors(del) > anchors(ins) && bare(del) === bare(ins) &&
      /re\.|regex|RegExp|\.test\(|match|search|pattern|_re\b|\/\^/i.test(line) && ctx.secure(n)
    ) {
      push("auth-check-removed", n, `pattern no longer anchored: \`${clip(line)}\``);
      continue;
    }
    if (ins.length === 0) {
      // A requirement dropped from what a value, a return, a callback or a query demands.
      const term = joined(del, AND);
      if (
        term && REQUIRES.test(text(term)) && kindOf(line).kind !== "if" &&
        grantsMore(ctx, n, line) && ctx.secure(n)
      ) {
        push("auth-check-removed", n, `requirement dropped: \`${clip(text(term))}\``);
        continue;
      }
      // A way to fail dropped from a failing branch (`!user ||` gone from `if (!user || …)`),
      // the branch's condition read on the line it opens.
      // (The term tests something; the branch's first lines fail, not just `return None`.)
      // (The diff may place the run one token late: `user || !` for `! user ||`.)
      const shifted = del.at(-1) === ch.pre.at(-1) ? [del.at(-1)!, ...del.slice(0, -1)] : del;
      const way = joined(del, OR) ?? joined(shifted, OR);
      const tests = !!way && (/^(!|not)$/.test(way[0]) ||
        way.some((t, k) =>
          COMPARES.test(t) || (t === "(" && /^[A-Za-z_$]/.test(way[k - 1] ?? ""))
        ));
      const header = tests ? conditionHeader(lines, n) : 0;
      const opening = header ? branchOpening(lines, header) : "";
      if (
        way && header && FAILURE.test(opening) && !/^(!|not)$/.test(ins[0] ?? "") && ctx.secure(n)
      ) {
        push("auth-check-removed", n, `failure no longer on \`${clip(text(way))}\``);
        continue;
      }
      // A binding dropped from a lookup, or a scoping call from a query (guard_shapes_scope.ts).
      const scoped = scopeShapes([ch], ctx);
      if (scoped.length) {
        out.push(...scoped);
        continue;
      }
      // A guard dropped from a list of bases, guards or arguments (`StaffOnlyMixin,`,
      // `@UseGuards(JwtGuard, AdministratorGuard)`), or an argument a check needs (`checks`).
      const el = del[0] === "," ? del.slice(1) : del.at(-1) === "," ? del.slice(0, -1) : null;
      if (
        el?.length === 1 &&
        (/^[A-Z]\w*(Required|Only|Guard|Permission|Auth\w*|Admin\w*|Staff\w*|Login\w*|Owner\w*)(Mixin)?$|^(Staff|Admin|Login|Owner|Superuser)\w*Mixin$/
          .test(el[0]) ||
          (/^(checks?|verif\w*|validat\w*|expected_?\w*|nonce|state)$/i.test(el[0]) &&
            openCall(ch.pre) !== null && ctx.secure(n)))
      ) {
        push("auth-check-removed", n, `\`${el[0]}\` no longer applied: \`${clip(line)}\``);
        continue;
      }
      // A protection built without what it protects (`CSRFProtect(app)` → `CSRFProtect()`).
      const builder = openCall(ch.pre);
      if (
        del.length === 1 && /^[a-z_]\w*$/.test(del[0]) && ch.pre.at(-1) === "(" &&
        ch.post[0] === ")" && builder && /^[A-Z]/.test(builder) &&
        /csrf|protect|talisman|limiter|guard|auth/i.test(builder)
      ) {
        push("auth-check-removed", n, `${builder}() no longer given \`${del[0]}\``);
        continue;
      }
      // An exempt path cut to a prefix (`"/api/config"` → `"/api/"`): everything under it is exempt.
      if (
        del.every((t) => /^\w+$/.test(t)) && ch.pre.at(-1) === "/" &&
        /^['"`]$/.test(ch.post[0] ?? "") &&
        /exempt|no_?login|public|anonymous|skip|ignore|whitelist|allow_?list|unauthenticated/i.test(
          `${line} ${ch.pre.join(" ")} ${ctx.fn(n)}`,
        )
      ) {
        push("auth-check-removed", n, `exempt path widened: \`${clip(line)}\``);
        continue;
      }
      // An item dropped from a list that protects: an unsafe method, a privilege field; a method
      // dropped from a list written as words (`"PATCH POST PUT DELETE"`).
      const word = del.length === 1 && UNSAFE_METHOD.test(del[0]) &&
          [...ch.pre.slice(-3), ...ch.post.slice(0, 3)].some((t) => UNSAFE_METHOD.test(t))
        ? del[0]
        : null;
      const item = listItem(del) ?? word;
      if (item && ctx.secure(n)) {
        const around = `${line} ${ch.pre.join(" ")} ${ctx.fn(n)}`;
        // A list of safe or exempted methods (`GET`, `HEAD` in it) is stricter without one.
        const exempting = /exempt|safe|skip|allow|ignor|exclu|bypass/i.test(around) ||
          listAround(ch).some((t) => /^(GET|HEAD|OPTIONS|TRACE)$/.test(t));
        if (
          (UNSAFE_METHOD.test(item) && !exempting) ||
          (PRIVILEGE_FIELD.test(item) && PROTECTED_LIST.test(around))
        ) {
          push("auth-check-removed", n, `\`${item}\` no longer in \`${clip(line)}\``);
          continue;
        }
      }
    }
    if (del.length === 0) {
      // An alternative put in front of (or after) a check: `checkpw(k, h)` → `k == key or checkpw(k, h)`.
      const alt = joined(ins, OR);
      const whole = `${ch.pre.slice(-20).join(" ")} ${ch.post.slice(0, 20).join(" ")}`;
      const { kind: altKind, name: altName } = kindOf(line);
      // A value the client sends, offered as what a check expects (`expected = session.x ||
      // req.body.x`), or a default that switches a protection off (`DISABLE_AUTH = env or 'yes'`).
      const fromRequest = !!alt && /^(req|request)$/.test(alt[0]) &&
        /^(body|query|params|args|form|headers|cookies|values|json|data|GET|POST)$/.test(
          alt[2] ?? "",
        );
      if (
        alt && altKind === "assign" && ctx.secure(n) &&
        ((fromRequest && /expect|challenge|nonce|state|secret|token|csrf/i.test(altName)) ||
          (PERMISSIVE.test(altName) && alt.length === 3 && /^['"]$/.test(alt[0])) ||
          /^allow|^trust|^is_?allowed|^is_?trusted|[a-z]Allow(ed)?$|_allow(ed)?$/i.test(altName))
      ) {
        push("auth-check-removed", n, `\`${altName}\` given a fallback: \`${clip(text(alt))}\``);
        continue;
      }
      if (
        // (A negated check joined with `or` is one more way to fail; `or None` gives nothing.)
        alt && (!/^(!|not)$/.test(alt.find((t) => t !== "(") ?? "") || noError(alt)) &&
        !(alt.length === 1 && /^(None|null|undefined|nil|false|False)$/.test(alt[0])) &&
        grantsMore(ctx, n, line) &&
        ((/\w+\s*\(/.test(whole) &&
          whole.match(/[A-Za-z_$][\w$]*(?=\s*\()/g)!.some((x) =>
            isCheckCall(x) || /check|verif|valid|auth|login|compare|match|hash|passw/i.test(x)
          )) ||
          // (or a check's verdict held in a name: `if (isMatch)` → `if (isMatch || hash)`)
          [...ch.pre.slice(-2), ...ch.post.slice(0, 2)].some((t) => holdsVerdict(t))) &&
        ctx.secure(n)
      ) {
        push("auth-check-removed", n, `alternative to the check: \`${clip(text(alt))}\``);
        continue;
      }
      // A requirement put into what a protective switch demands (`enableCsrfProtection = m !==
      // "GET" && …` gains `m !== "POST" &&`): it protects in fewer cases.
      // (The value may run over lines: its name is on the line it starts.)
      // (A constant, `false &&`, is for the result shapes: the check decided by it.)
      const found = joinedShifted(ins, ch.pre, AND);
      const req = found && !found.every((t) => /^(true|false|True|False|\(|\))$/.test(t))
        ? found
        : null;
      const held = req ? kindOf(statementHead(lines, n)) : null;
      if (
        req && held?.kind === "assign" &&
        (yesKeepsOut(held.name.split(",")[0]) || PROTECTIVE_VALUE.test(held.name.split(",")[0])) &&
        ctx.secure(n)
      ) {
        push("auth-check-removed", n, `\`${held.name}\` now also needs \`${clip(text(req))}\``);
        continue;
      }
      // A requirement put into a failing branch's condition (`… == TokenTypeSession {` gains
      // `&& tokenMetadata.TokenID < 0`): it fails in fewer cases.
      // (Not inside `not (…)`, where it fails in more; not a whole statement put in; in a
      // function whose yes keeps out, `return true` is its failure and `return false` is not.)
      // (Nor error handling, or a check added: see `noRequirement`.)
      const term = req && !req.some((t) => /^[{};]$|^(return|if|else|raise|throw)$/.test(t)) &&
          !noRequirement(text(req))
        ? req
        : null;
      const failing = term ? conditionHeader(lines, n) : 0;
      const opening = failing ? branchOpening(lines, failing) : "";
      const fails = yesKeepsOut(ctx.fn(n))
        ? /\breturn\s+(true|True)\b/.test(opening) ||
          (FAILURE.test(opening) && !/\breturn\s+(false|False)\b/.test(opening))
        : FAILURE.test(opening);
      if (
        term && failing && fails && !/\b(not|!)\s*\(\s*$/.test(code(lines[failing - 1] ?? "")) &&
        !/^(}\s*)?(if|elif|else\s+if)\s*\(?\s*(not\s*\(|!\s*\()/.test(
          code(lines[failing - 1] ?? ""),
        ) &&
        ctx.secure(n)
      ) {
        push("auth-check-removed", n, `failure now also needs \`${clip(text(term))}\``);
        continue;
      }
      // A comparison cut to a prefix (`a == b` → `a[:4] == b[:4]`): fewer characters to guess.
      if (
        /^\[$/.test(ins[0]) && ins.at(-1) === "]" && ins.includes(":") &&
        /==|!=|compare|equal/i.test(line) && ctx.secure(n)
      ) {
        push("crypto-verification-removed", n, `comparison cut short: \`${clip(line)}\``);
        continue;
      }
      // A check's failure caught and only logged (`try { await authorize(…) } catch { warn(…) }`).
      const k = ins.findIndex((t) => t === "catch" || t === "except");
      if (
        k >= 0 && k <= 2 && !ins.some((t) =>
          /^(throw|raise|return|reject|abort|next|deny)$/.test(t)
        ) &&
        ch.pre.slice(-24).some((t) =>
          isCheckCall(t) || /authori[sz]|authenticat|permission|verif|validat/i.test(t)
        ) && cs.some((o) => o.del.length === 0 && o.ins[0] === "try")
      ) {
        push("auth-check-removed", n, `a failing check is now caught and ignored`);
        continue;
      }
      // Everything exempted: `"/"` or `"*"` put into a list of exemptions or public paths.
      const exempt =
        /exempt|no_?login|public|anonymous|skip|ignore|whitelist|allow_?list|unauthenticated|unprotected/i;
      const around = `${line} ${ch.pre.join(" ")} ${ctx.fn(n)}`;
      if (
        /^['"`]$/.test(ins.find((t) => t !== ",") ?? "") &&
        /^[/*]$/.test(ins.filter((t) => t !== "," && !/^['"`]$/.test(t)).join("")) &&
        exempt.test(around)
      ) {
        push("auth-check-removed", n, `every path exempted: \`${clip(line || text(ins))}\``);
        continue;
      }
      // A failed lookup now falls back to what was asked for (`find(…)?.name ?? currentRole`).
      if (
        ins[0] === "?" && ins[1] === "?" && ins.length <= 5 &&
        ch.pre.slice(-30).some((t) => /^(find\w*|get\w*|lookup\w*|filter)$/.test(t)) &&
        ctx.secure(n)
      ) {
        push("auth-check-removed", n, `a failed lookup now falls back: \`${clip(text(ins))}\``);
        continue;
      }
      // A permission predicate given an alternative (`is_owner` → `is_owner | is_collaborator`).
      if (
        ins.length === 2 && ins[0] === "|" && /^(is|has|can)_\w+$/.test(ins[1]) &&
        /^(is|has|can)_\w+$/.test(ch.pre.at(-1) ?? "")
      ) {
        push("auth-check-removed", n, `predicate widened: \`${ch.pre.at(-1)} | ${ins[1]}\``);
        continue;
      }
      // A protective option added switched off (`credentialsRequired: false,`).
      const off = ins.filter((t) => t !== ",");
      if (
        off.length === 3 && (off[1] === ":" || off[1] === "=") && /^(false|False)$/.test(off[2]) &&
        STRICT_ARG.test(off[0])
      ) {
        push("secure-default-weakened", n, `\`${off[0]}\` switched off`);
        continue;
      }
      // A check's name bound to something that does not check (`{ verify }` → `{ decode as verify }`).
      if (
        ins.length === 2 && ins[1] === "as" && isCheckCall(ch.post[0] ?? "") &&
        !isCheckCall(ins[0]) && /^[A-Za-z_$]/.test(ins[0])
      ) {
        push("crypto-verification-removed", n, `\`${ch.post[0]}\` is now \`${ins[0]}\``);
        continue;
      }
      // A failing branch that now also needs something else (`if expired:` → `if seen and expired:`).
      // (`x || y` → `x || (z && y)`: the group opened is no part of the term.)
      const also = joined(ins, AND) ?? (ins[0] === "(" ? joined(ins.slice(1), AND) : null);
      if (
        also && !noRequirement(text(also)) && kindOf(line).kind === "if" &&
        FAILURE.test(ctx.block(n).body) && ctx.secure(n)
      ) {
        push("auth-check-removed", n, `failure now also needs \`${clip(text(also))}\``);
        continue;
      }
      // A symmetric or `none` algorithm let into an allow-list (`['RS256']` → `['RS256', 'HS256']`,
      // `[]string{"RS256", "HS256", "none"}`, `jwt.HS256`).
      const weakAlg = ins.find((t) => /^(HS\d{3}|none)$/i.test(t));
      if (
        weakAlg && ins[0] === "," && /alg|method/i.test(ch.pre.slice(-16).join(" ")) &&
        !ch.pre.slice(-16).some((t) => /^(HS\d{3}|none)$/i.test(t))
      ) {
        push("crypto-verification-removed", n, `\`${weakAlg}\` allowed: \`${clip(line)}\``);
        continue;
      }
      // A lifetime multiplied (`EXPIRATION * 60` → `EXPIRATION * 60 * 24 * 365`).
      if (
        ins.length >= 2 && ins.length % 2 === 0 &&
        ins.every((t, k) => k % 2 === 0 ? t === "*" : /^\d+$/.test(t)) &&
        ins.some((t, k) => k % 2 === 1 && Number(t) > 1) &&
        /expir|max_?age|maxAge|ttl|lifetime|timeout|session_?age|valid_?for|\bage\b|skew|leeway|tolerance/i
          .test(line)
      ) {
        push("secure-default-weakened", n, `lifetime multiplied: \`${clip(line)}\``);
        continue;
      }
    }
    out.push(...resultRunShapes(ch, ctx, line));
    out.push(...swapShapes(ch, { ctx, line, addedText }));
  }
  return out;
}

/** An alternative that says there was no error (`!error`, `not err`): a failure now passes. */
function noError(alt: string[]): boolean {
  const t = alt.filter((x) => x !== "(" && x !== ")");
  return t.length === 2 && /^(!|not)$/.test(t[0]) &&
    /^(err|error|errors|exception|failed|failure)$/i.test(t[1]);
}
