/**
 * Term shapes of a run that swaps tokens, or that sits anywhere in a hunk: a verdict handed on
 * flipped to yes, `or`/`and` swapped in a protective or granting value, a privilege lowered inside
 * a name, a check's result made a constant, what a check compares against passed as nothing, a
 * middleware dropped from a chain, a query unscoped or its conditions joined with `OR`, networks
 * opened to every address, an error no longer returned. Called by `guard_shapes_terms.ts` for each
 * run; pure.
 *
 * @module
 */
import { clip, REQUESTER } from "./guard_text.ts";
import type { Shape, ShapeContext } from "./guard_shapes.ts";
import { AND, type Chunk, openCall, OR, text } from "./term_diff.ts";
import {
  kindOf,
  level,
  loweredPrivilege,
  SAYS_NO,
  SAYS_YES,
  segments,
} from "./guard_term_polarity.ts";

/** What reading, writing or a key's half acts on (`File`, `Timeout`, `Key`). */
const DATA_WORD =
  /^(file|files|timeout|deadline|key|keys|stream|buffer|bytes|line|lines|text|json|config|dir|path|header|headers|body|size|lock|data|all|string|at)$/i;

/** A call that grants by what the function it is given answers. */
const PERMISSION_CALL = /^(allow|can|permit|grant|authori[sz]e|define|rule|policy|ability)$/i;

/** A handler's name (`onRuleError`, `handle_failure`): what it hands on is no predicate's yes. */
const HANDLER = /^_*(on|handle)([A-Z_]|$)/;

/**
 * The shapes of one run (`ch`) of a hunk's token diff, read on its before-line `line`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { swapShapes } from "./guard_shapes_swaps.ts";
 * const ch = { del: ["hasAdmin"], ins: ["hasMember"], n: 3, pre: ["if", "(", "!", "board", "."], post: ["("] };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "copy", block: () => ({ body: "", after: "" }),
 * };
 * const line = "if (!board.hasAdmin(this.userId)) throw new Error('no')";
 * assert.equal(swapShapes(ch, { ctx, line, addedText: "" })[0].what, "`hasAdmin` → `hasMember`");
 * ```
 */
export function swapShapes(
  ch: Chunk,
  env: { ctx: ShapeContext; line: string; addedText: string },
): Shape[] {
  const { ctx, line, addedText } = env;
  const { del, ins, n } = ch;
  const out: Shape[] = [];
  const push = (rule: Shape["rule"], n: number, what: string) => out.push({ rule, n, what });
  if (del.length === 1 && ins.length === 1) {
    const [d, i] = [del[0], ins[0]];
    // A verdict handed on flipped to yes (`resolve(false)` → `resolve(true)`, `.catch(() =>
    // false)` → `=> true`): a failure or an error now answers yes.
    // (Any argument of the call counts: `cb(pw === null ? false : …)`, `callback(a, b, false)`.)
    const handed = /^(resolve|callback|cb|done|next)$/.test(ch.pre.at(-2) ?? "") ||
      /^(callback|cb|done|resolve)$/.test(openCall(ch.pre) ?? "") ||
      (ch.pre.at(-1) === "=>" && ch.pre.slice(-6).includes("catch")) ||
      // (`role.allow(action, () => false)` → `() => true`)
      (ch.pre.at(-1) === "=>" && PERMISSION_CALL.test(openCall(ch.pre) ?? ""));
    if (
      /^(false|False)$/.test(d) && /^(true|True)$/.test(i) && handed &&
      (!SAYS_NO.test(ctx.fn(n)) || HANDLER.test(ctx.fn(n))) && ctx.secure(n)
    ) {
      push("auth-check-removed", n, `a refusal now answers yes: \`${clip(line)}\``);
      return out;
    }
    // `or` and `and` swapped in a protective or a granting value (`secure = a || b` → `a && b`).
    const { kind, name } = kindOf(line);
    const swap = OR.has(d) && AND.has(i) ? "fewer" : AND.has(d) && OR.has(i) ? "more" : null;
    const protective =
      /secur|verif|strict|requir|enforc|protect|deny|denied|block|reject|forbid|lock|ssl|tls|https/i;
    if (
      swap && kind === "assign" && ctx.secure(n) &&
      ((swap === "fewer" && protective.test(name)) ||
        (swap === "more" && SAYS_YES.test(name) && !protective.test(name)))
    ) {
      push("secure-default-weakened", n, `\`${d}\` → \`${i}\` in \`${clip(line)}\``);
      return out;
    }
  }
  // A middleware dropped from a chain (`.Use(middleware.CasbinHandler())` gone).
  // (The run may start anywhere in `.Use(…)`: the diff picks one of its rotations.)
  if (
    ins.length === 0 && del.some((t) => /^(Use|use)$/.test(t)) &&
    del.filter((t) => t === "(").length === del.filter((t) => t === ")").length &&
    /casbin|auth|jwt|guard|perm|acl|role|csrf|session|login|rbac|policy|verify/i.test(
      del.join(""),
    )
  ) {
    const k = del.findIndex((t) => /^(Use|use)$/.test(t));
    const from = del[k - 1] === "." ? k - 1 : k;
    const call = [...del.slice(from), ...del.slice(0, from)];
    // (Moved elsewhere in the chain, or to another line, it is still used.)
    const flat = (t: string) => t.replace(/\s+/g, "");
    const used = flat(call.join(""));
    const times = (t: string) => flat(t).split(used).length - 1;
    if (times(ctx.afterCode) < times(ctx.beforeCode)) {
      push("auth-check-removed", n, `middleware no longer used: \`${clip(text(call))}\``);
      return out;
    }
  }
  // A query no longer scoped to the caller (`.filter(pk=request.user.pk)` → `.all()`).
  if (
    /^(filter|filter_by|where)$/.test(del[0] ?? "") &&
    (ins.join("") === "all()" || ins.join("") === "all" || ins.length === 0) &&
    new RegExp(`\\b${del[0]}\\([^)]*(user|owner|tenant|org|account|member)`, "i").test(line) &&
    (ctx.secure(n) || REQUESTER.test(line))
  ) {
    push("auth-check-removed", n, `query no longer scoped: \`${clip(line)}\``);
    return out;
  }
  // A query's conditions joined with OR instead of AND (`WHERE state = ? AND expiry > ?`).
  if (
    del.length === 1 && ins.length === 1 && del[0] === "AND" && ins[0] === "OR" &&
    /\bWHERE\b/.test(line)
  ) {
    push("auth-check-removed", n, `query conditions joined with OR: \`${clip(line)}\``);
    return out;
  }
  // An allow-list of networks opened to every address (`['10.0.0.0/8', …]` → `['0.0.0.0/0']`).
  if (
    ins.length > 0 && /0\.0\.0\.0\/0|::\/0/.test(addedText) &&
    !/0\.0\.0\.0\/0|::\/0/.test(line) &&
    /trust|allow|proxies|whitelist|cidr|network|subnet/i.test(
      `${ch.pre.slice(-12).join(" ")} ${line}`,
    )
  ) {
    push("secure-default-weakened", n, `allow-list opened to every address: \`${clip(line)}\``);
    return out;
  }
  // An error no longer returned (`return result, err` → `return result, nil`).
  if (
    del.length === 1 && /^(err|error)$/.test(del[0]) && ins.length === 1 && ins[0] === "nil" &&
    kindOf(line).kind === "return" && ctx.secure(n)
  ) {
    push("auth-check-removed", n, `error no longer returned: \`${clip(line)}\``);
    return out;
  }
  // What a check compares against no longer passed (`this.issuers,` → `undefined,`).
  if (
    ins.length === 1 && /^(undefined|None|null|nil)$/.test(ins[0]) && del.length % 2 === 1 &&
    del.every((t, k) => k % 2 === 0 ? /^[A-Za-z_$]/.test(t) : t === ".") &&
    /issuer|audience|nonce|state|host|cert|secret|expected|fingerprint|subject|algorithm|tls/i
      .test(del[del.length - 1]) &&
    openCall(ch.pre) !== null &&
    [",", "("].includes(ch.pre.at(-1) ?? "")
  ) {
    push("crypto-verification-removed", n, `\`${text(del)}\` no longer passed`);
    return out;
  }
  if (del.length === 1 && ins.length === 1 && /^[A-Za-z_$]/.test(del[0])) {
    // A privilege lowered inside a name (`hasAdmin` → `hasMember`, `UserLevelUser` → `…Optional`).
    const namesPrivilege = /perm|role|access|scope/i.test(line);
    const low = loweredPrivilege(del[0], ins[0], namesPrivilege);
    const assigning = kindOf(line).kind === "assign" &&
      !new RegExp(`[=(,]\\s*\\b${del[0].replace(/\$/g, "\\$")}\\b`).test(line);
    // (A write permission is a privilege where the line names permissions or roles.)
    const privileged = segments(del[0]).some((x) =>
      level(x) >= 0 && (level(x) <= 2 || (level(x) <= 3 && namesPrivilege))
    );
    // (Reading and writing data, or a key's halves, are no privileges: `writeFile` → `readFile`,
    // `WriteTimeout` → `ReadTimeout`, `privateKey` → `publicKey`.)
    const data = low && segments(del[0]).some((w) => /^(read|write|private|public)$/i.test(w)) &&
      segments(del[0]).some((w) => DATA_WORD.test(w));
    if (low && !data && !assigning && (ctx.secure(n) || privileged)) {
      push("auth-check-removed", n, `\`${low[0]}\` → \`${low[1]}\``);
      return out;
    }
  }
  // A check's result replaced by a constant (`is_blocked = user.is_blocked(…)` → `= False`).
  const { kind, name } = kindOf(line);
  if (
    kind === "assign" && del.includes("(") && ins.length > 0 &&
    ins.every((t) => /^(true|True|false|False|None|null|nil|undefined|0|,)$/.test(t)) &&
    /^:?=$/.test(ch.pre[ch.pre.length - 1] ?? "") && ctx.secure(n)
  ) {
    const first = name.split(",")[0].trim();
    const yes = /^(true|True)$/.test(ins[0]);
    const weak = SAYS_NO.test(first) ? !yes : SAYS_YES.test(first) && yes;
    const calls = del.filter((t, k) => del[k + 1] === "(" && /^[A-Za-z_$]/.test(t));
    if (weak && calls.length > 0) {
      push("auth-check-removed", n, `\`${first}\` hard-coded to \`${ins[0]}\``);
    }
  }
  return out;
}
