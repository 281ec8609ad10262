/**
 * Shape signals about what a lookup is scoped to, read from the tokens of one hunk (see
 * `term_diff.ts`), across line breaks: a binding dropped from a lookup's arguments
 * (`get_by_pk(id, user_id=request.user.id)` → `get_by_pk(id)`), and a scoping call dropped from a
 * query chain (`.filter_by(_purpose=purpose.name)`, `.Where("dashboards.user_id = ?", userID)`).
 * Either way the lookup now finds records of other users, tenants or purposes.
 *
 * A binding or a scoping call put in (a guard added) leaves a run that only inserts: silent.
 * Called by the term shapes for each hunk; pure.
 *
 * @module
 */
import { clip, REQUESTER } from "./guard_text.ts";
import type { Shape, ShapeContext } from "./guard_shapes.ts";
import { balanced, type Chunk, openCall, text, type Tok } from "./term_diff.ts";

/** Calls that look records up: a binding dropped from one finds records it should not. */
const LOOKUP =
  /^(get|get_by\w*|get_or_404|getBy\w*|filter|filter_by|find\w*|where|first|exists|select\w*|query|one|get_object_or_404|fetch\w*|load\w*|count|update\w*|delete\w*|destroy|exclude|objects)$/i;

/** What binds a lookup to the caller or to a secret. */
const BINDING =
  /enabled|secret|token|key|hash|nonce|state|owner|user|author|tenant|org|account|creator|member|session|password|code|used|active|revoked|expir|deleted|valid|verified|purpose|workspace|team|project/i;

/** A record's state a lookup excludes or requires (`type: ['!=', 'banned']`). */
const RECORD_STATE = /banned|blocked|deleted|disabled|revoked|suspended|active|verified|enabled/i;

/** Records that are who someone is (`User.findOne(`, `service('Users').select(`). */
const IDENTITY_MODEL =
  /[uU]ser_?[iI][dD]|users?\b|Users?\W|accounts?\b|Accounts?\W|members?\b|Members?\W|sessions?\b|Sessions?\W/;

/** Chained calls that narrow a query (`.filter(…)`, `.Where(…)`, `.andWhere(…)`). */
const SCOPING = /^(filter|filter_by|filterBy|where|Where|andWhere|and_where|whereIn|Filter)$/;

/** What ties a query to its caller, a tenant or a purpose. */
const SCOPE_KEY =
  /user_?id|userId|\buser\b|owner\w*|tenant\w*|org\w*|account\w*|team\w*|project\w*|workspace\w*|creator|author|member\w*|purpose|audience/i;

/** A column that ties a row to its owner (`dashboards.user_id`, `tenantId`). */
const OWNER_COLUMN =
  /\b(user|owner|tenant|org|account|team|workspace|creator|author)_?id\b|(user|owner|tenant|org|account|team|workspace|creator|author)Id\b/i;

/**
 * The binding shapes of a hunk's token runs: an argument that tied a lookup to its caller or to
 * a secret dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scopeShapes } from "./guard_shapes_scope.ts";
 * import { chunks, tokensOf } from "./term_diff.ts";
 * const b = tokensOf([{ l: { n: 1 }, c: "f = Feed.get_by_pk(id, user_id=request.user.id, d=1)" }]);
 * const a = tokensOf([{ l: { n: 1 }, c: "f = Feed.get_by_pk(id, d=1)" }]);
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "", block: () => ({ body: "", after: "" }),
 * };
 * assert.match(scopeShapes(chunks(b, a)!, ctx)[0].what, /no longer binds get_by_pk\(\)/);
 * assert.deepEqual(scopeShapes(chunks(a, b)!, ctx), []);
 * ```
 */
export function scopeShapes(cs: readonly Chunk[], ctx: ShapeContext): Shape[] {
  const out: Shape[] = [];
  for (const { del, ins, n, pre } of cs) {
    if (ins.length === 0) {
      // A binding dropped from a lookup (`get(id=i, secret_key=k)` → `get(id=i)`).
      const arg = del[0] === ","
        ? del.slice(1)
        : del[del.length - 1] === ","
        ? del.slice(0, -1)
        : null;
      const call = openCall(pre);
      // (A shorthand property names its value: `findOne({ username, _id: id })`.)
      if (
        arg?.length === 1 && /^[A-Za-z_$][\w$]*$/.test(arg[0]) && call && LOOKUP.test(call) &&
        /^(user\w*|owner\w*|author\w*|tenant\w*|account\w*|creator\w*|member\w*)$/i.test(arg[0]) &&
        pre.lastIndexOf("{") > pre.lastIndexOf("(")
      ) {
        out.push({
          rule: "auth-check-removed",
          n,
          what: `\`${arg[0]}\` no longer binds ${call}()`,
        });
        continue;
      }
      if (
        arg && arg.length >= 3 && /^[A-Za-z_$]/.test(arg[0]) &&
        (arg[1] === "=" || arg[1] === ":") &&
        balanced(arg) && call && LOOKUP.test(call) &&
        (BINDING.test(arg[0]) || (/^(status|type|state|role)$/i.test(arg[0]) &&
          (RECORD_STATE.test(text(arg)) || /^\d+$/.test(arg.at(-1) ?? "")))) &&
        (ctx.secure(n) || /secret|token|key|owner|nonce|password|hash/i.test(arg[0]) ||
          REQUESTER.test(text(arg)) ||
          // (or the records are users, accounts, sessions: `User.findOne({ …, status: 100 })`)
          IDENTITY_MODEL.test(pre.slice(-8).join("")))
      ) {
        out.push({
          rule: "auth-check-removed",
          n,
          what: `\`${clip(text(arg))}\` no longer binds ${call}()`,
        });
      }
    }
  }
  return out;
}

/**
 * Scoping calls dropped from a hunk's query chains: each `.filter_by(…)`/`.Where(…)` of the
 * removed tokens `b` whose owner, tenant or purpose key no scoping call of the added tokens `a`
 * still names (however the chain was laid out or rewritten around it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scopeDrops } from "./guard_shapes_scope.ts";
 * import { tokensOf } from "./term_diff.ts";
 * const b = tokensOf([
 *   { l: { n: 4 }, c: 'Where("entries.tenant_id = ?", tenantID).' },
 *   { l: { n: 5 }, c: 'Where("key = ?", key).' },
 * ]);
 * const a = tokensOf([{ l: { n: 4 }, c: 'Where("key LIKE ?", key+"%").' }]);
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => false, body: () => "",
 *   fn: () => "", block: () => ({ body: "", after: "" }),
 * };
 * assert.match(scopeDrops(b, a, ctx)[0].what, /query no longer scoped by `tenant_id`: `\.Where\(…\)` dropped/);
 * assert.deepEqual(scopeDrops(a, b, ctx), []);
 * ```
 */
export function scopeDrops(b: Tok[], a: Tok[], ctx: ShapeContext): Shape[] {
  const kept = scopingCalls(a).map((c) => text(c.args)).join(" ");
  const put = new Set(a.map((x) => x.t));
  const after = ctx.afterCode.replace(/\s+/g, "");
  for (const c of scopingCalls(b)) {
    const args = text(c.args);
    const key = SCOPE_KEY.exec(args)?.[0];
    if (!key || kept.includes(key)) continue;
    // (Still scoped another way, `filter(member=user)` → `access_qs(user)`, or moved elsewhere.)
    if (valueNames(c.args).some((v) => put.has(v))) continue;
    if (after.includes(`${c.name}(${c.args.join("")})`)) continue;
    if (ctx.secure(c.n) || REQUESTER.test(args) || OWNER_COLUMN.test(args)) {
      return [{
        rule: "auth-check-removed",
        n: c.n,
        what: `query no longer scoped by \`${key}\`: \`.${c.name}(…)\` dropped`,
      }];
    }
  }
  return [];
}

/** The names a scoping call compares its key with (`userID`, `request`, `user`, `id`). */
function valueNames(args: string[]): string[] {
  const at = args.findIndex((t) => t === "=" || t === "==" || t === "===" || t === ",");
  let quoted = false;
  return args.slice(at + 1).filter((t) => {
    if (t === '"' || t === "'" || t === "`") quoted = !quoted;
    return !quoted && /^[A-Za-z_$][\w$]*$/.test(t) &&
      !/^(true|false|True|False|None|null|nil)$/.test(t);
  });
}

/** The whole scoping calls of tokens: `.name(…)`, or `name(…)` opening a line of a chain. */
function scopingCalls(ts: Tok[]): { name: string; args: string[]; n: number }[] {
  const out: { name: string; args: string[]; n: number }[] = [];
  for (let i = 0; i + 1 < ts.length; i++) {
    const chained = ts[i - 1]?.t === "." || ts[i - 1]?.n !== ts[i].n;
    if (!chained || !SCOPING.test(ts[i].t) || ts[i + 1].t !== "(") continue;
    let depth = 0;
    for (let k = i + 1; k < ts.length; k++) {
      depth += ts[k].t === "(" ? 1 : ts[k].t === ")" ? -1 : 0;
      if (depth === 0) {
        out.push({ name: ts[i].t, args: ts.slice(i + 2, k).map((x) => x.t), n: ts[i].n });
        i = k;
        break;
      }
    }
  }
  return out;
}
