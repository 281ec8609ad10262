/**
 * The changed hunks of an edit, for the changed-line guard signals (`guard_lines.ts`): where the
 * two texts differ, whether anything around the change is about security (when nothing is, no
 * signal could fire and the edit is not diffed), and changes far apart in one file read when they
 * are few. Pure.
 *
 * @module
 */
import { diffArrays } from "diff";
import { PRIVILEGE_NAME } from "./guard_shape_vocab.ts";
import {
  DENIED_STATUS,
  LOOPBACK_LISTENER,
  MAX_CHANGED,
  PERMISSIVE,
  PREDICATE,
  SECURE_RANDOM,
  SECURE_SETTING,
  SECURITY_HEADER,
  speaksSecurity,
  WEAKENING_TEST,
} from "./guard_vocab.ts";
import { bare, enclosing, type Hunk, REQUESTER } from "./guard_text.ts";

/** Names of calls that narrow a query to what a user may see (checked by `guard_shapes.ts`). */
const SCOPING =
  /for_?user|visible_?to|accessible_?by|owned_?by|filter_?by_?(user|owner)|\b(filter|filter_by|where|Where|andWhere)\([^)\n]*\b(user|owner|tenant|org|account|team|workspace|creator|author)_?[iI][dD]\b|\b(find\w*|select\w*|filter\w*|where)\s*\(\s*\{[^}\n]*\b(status|type|state)\s*:|\b(find\w*|select\w*|filter\w*|where)\s*\(\s*\{[^}\n]*\b(user\w*|owner\w*|author\w*|tenant\w*|account\w*|creator\w*)\s*[,}]/i;

/** An account's state that keeps it out when unset, checked by `guard_shapes_grants.ts`. */
const ACCOUNT_STATE_WORD =
  /\b(is_?active|isActive|is_?enabled|isEnabled|email_?verified|emailVerified|is_?verified|isVerified)\b/;

/** A verdict about access by its name (`accessResults`, `canAccessAdmin`), checked by `guard_shapes_flow.ts`. */
const ACCESS_VERDICT = /\b(access|can)(_|[A-Z])\w*|\w[a-z]Access(Results?)?\b/;

/** An allow-list given a wildcard (`FORWARDED_ALLOW_IPS = "*"`), checked by `guard_shapes_values.ts`. */
const WILDCARD_ALLOW = /(allow|trusted|origin|hosts?|ips?)\w*\W.*(['"])\*\2/i;

/**
 * Whether anything around an edit is about security (the path, the changed lines with a few
 * around, the function they sit in, a setting, a weakening word, a failure taken away): when it is
 * not, no changed-line signal can fire. Null when more than `MAX_CHANGED` lines changed on a side.
 * `span` is the changed span of the two, when the caller has made it already.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { securityAround } from "./guard_hunks.ts";
 * assert.equal(securityAround(["a = 1"], ["a = 2"], "lib/math.py"), false);
 * assert.equal(securityAround(["verify = True"], ["verify = False"], "lib/client.py"), true);
 * ```
 */
export function securityAround(
  before: string[],
  after: string[],
  path: string,
  span = changedSpan(before, after),
): boolean | null {
  const { start, endB, endA } = span;
  if (endB - start > MAX_CHANGED || endA - start > MAX_CHANGED) return null;
  return speaksAround(
    before,
    path,
    start,
    before.slice(start, endB),
    after.slice(start, endA),
  );
}

/**
 * Whether the lines of `before` from 0-based `start` that an edit replaced (`removed`, with the
 * `added` lines in their place) are about security: the test of {@link securityAround} for one
 * changed stretch.
 */
function speaksAround(
  before: string[],
  path: string,
  start: number,
  removed: string[],
  added: string[],
): boolean {
  const middle = [
    ...before.slice(Math.max(0, start - 3), start + removed.length + 2),
    ...added,
  ].join("\n");
  return speaksSecurity(path) || speaksSecurity(middle) || SECURE_SETTING.test(middle) ||
    REQUESTER.test(middle) ||
    WEAKENING_TEST.test(middle) || SECURITY_HEADER.test(middle) || PERMISSIVE.test(middle) ||
    SCOPING.test(middle) || WILDCARD_ALLOW.test(middle) || PRIVILEGE_NAME.test(middle) ||
    /\b(chmod|umask)\b/.test(middle) || ACCESS_VERDICT.test(middle) ||
    LOOPBACK_LISTENER.test(middle) || /skew|leeway|tolerance/i.test(middle) ||
    SECURE_RANDOM.test(middle) || ACCOUNT_STATE_WORD.test(middle) ||
    speaksSecurity(enclosing(before, start + 1)) ||
    PREDICATE.test(bare(enclosing(before, start + 1))) ||
    failureToSuccess(removed, added) || failureGone(removed, added);
}

/** The first differing line and the ends of the differing middle of both sides. */
function changedSpan(before: string[], after: string[]) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) (endB--, endA--);
  return { start, endB, endA };
}

/** The changed hunks of an edit where security is around it (see {@link securityAround}). */
export function hunks(before: string[], after: string[], path: string): Hunk[] {
  // Nothing of security around the change: no signal could fire (they all need a security
  // word in the path, the function, the changed lines, a setting's name or a weakening word).
  const span = changedSpan(before, after);
  const around = securityAround(before, after, path, span);
  const { start, endB, endA } = span;
  // Changes far apart in one file (an import and a function, 600 lines below) make a wide span:
  // it is diffed when it is not a rewrite, and read when a stretch of it is about security.
  const wide = around === null && endB - start + endA - start <= WIDE_SPAN &&
    fewChanged(before.slice(start, endB), after.slice(start, endA));
  if (around !== true && !wide) return [];
  const norm = (l: string) => l.trim();
  const parts = diffArrays(before.slice(start, endB).map(norm), after.slice(start, endA).map(norm));
  const out: Hunk[] = [];
  let b = start;
  let a = start;
  let cur: Hunk | null = null;
  for (const p of parts) {
    const k = p.value.length;
    if (!p.added && !p.removed) {
      cur = null;
      b += k;
      a += k;
      continue;
    }
    cur ??= (out.push({ removed: [], added: [], at: b + 1 }), out[out.length - 1]);
    for (let i = 0; i < k; i++) {
      if (p.removed) cur.removed.push({ text: before[b + i], n: b + i + 1 });
      else cur.added.push({ text: after[a + i], n: a + i + 1 });
    }
    if (p.removed) b += k;
    else a += k;
  }
  if (!wide) return out;
  const removedAll = out.reduce((n, h) => n + h.removed.length, 0);
  const addedAll = out.reduce((n, h) => n + h.added.length, 0);
  // (Many changes spread over a file are a release or a rewrite, not an edit to read.)
  if (removedAll + addedAll > WIDE_CHANGED) return [];
  const about = out.some((h) =>
    speaksAround(
      before,
      path,
      (h.removed[0]?.n ?? h.at ?? 1) - 1,
      h.removed.map((l) => l.text),
      h.added.map((l) => l.text),
    )
  );
  return about ? out : [];
}

/**
 * Whether two stretches differ in at most {@link WIDE_CHANGED} lines, counted as lines one side
 * lacks anywhere in the other (a bound on what a diff finds, without diffing: a release's wide
 * span is turned away before the diff would cost anything).
 */
function fewChanged(b: string[], a: string[]): boolean {
  // (Sides that differ in length by more already differ in more lines.)
  if (Math.abs(b.length - a.length) > WIDE_CHANGED) return false;
  let n = 0;
  const lacks = (xs: string[], ys: string[]) => {
    const have = new Set(ys.map((l) => l.trim()));
    for (const l of xs) if (!have.has(l.trim()) && ++n > WIDE_CHANGED) return false;
    return true;
  };
  return lacks(b, a) && lacks(a, b);
}

/** The widest changed span (lines of both sides) diffed when its changes are far apart. */
const WIDE_SPAN = 6000;
/** The most changed lines (both sides) such a span may hold. */
const WIDE_CHANGED = 16;

/** A failure statement (raise, throw, an error handed on) the other side no longer has. */
function failureGone(removed: string[], added: string[]): boolean {
  const kept = new Set(added.map((l) => l.trim()));
  return removed.some((l) => {
    const t = l.trim();
    return !kept.has(t) && (DENIED_STATUS.test(t) ||
      /^(raise|throw)\b|\b(next|done|callback|cb|reject)\(\s*(new\s+\w+|err\w*|error)\b|^return\s+\w*(fail|deny|reject|unauthori|forbid)\w*\(/i
        .test(t));
  });
}

/** A `throw`/`raise` on one side where the other side exits with success. */
function failureToSuccess(removed: string[], added: string[]): boolean {
  return removed.some((l) => /^\s*(throw|raise)\b/.test(l)) &&
    added.some((l) =>
      /^\s*(return\s+(true|True|Promise\.resolve\(|next\()|(await\s+)?resolve\(|next\(\))/.test(l)
    );
}
