/**
 * The `ask` tool: put a question to the person at the terminal.
 *
 * @module
 */
import { z } from "zod";
import { type Effect, effect } from "../core/effect.ts";
import type { Tool } from "../core/tool.ts";
import { guarded } from "./results.ts";

/** Arguments of `ask`. */
export const askSchema = z.object({
  question: z.string().min(1).describe("The question, short and specific"),
});
/** Arguments of `ask`, parsed. */
export type AskArgs = z.infer<typeof askSchema>;

/** What the model is told when nobody can answer. */
export const HEADLESS_ANSWER =
  "no one is at the terminal (headless run); continue with your best judgement";

/**
 * The effect of a question: no side effect.
 *
 * @example
 * ```ts
 * import { noSideEffect } from "./ask.ts";
 * noSideEffect("ask the user", "asks a question").class; // "none"
 * ```
 */
export function noSideEffect(summary: string, reason: string): Effect {
  return effect({ class: "none", summary, consequence: "no change", reason });
}

/**
 * The `ask` tool.
 *
 * @example
 * ```ts
 * import { askTool } from "./ask.ts";
 * askTool.name; // "ask"
 * ```
 */
export const askTool: Tool<AskArgs> = {
  name: "ask",
  description: "Ask the user a question when you cannot proceed without their decision. " +
    "Returns their answer.",
  schema: askSchema,
  classify(args) {
    const q = args.question.length > 120 ? `${args.question.slice(0, 120)}…` : args.question;
    return Promise.resolve(noSideEffect(`ask the user: ${q}`, "asking changes nothing"));
  },
  handler(args, ctx) {
    return guarded(async () => {
      const ask = ctx.services.ask;
      const answer = ctx.headless || !ask ? null : await ask(args.question);
      if (answer === null) {
        return { ok: false, output: HEADLESS_ANSWER, detail: { headless: true } };
      }
      return { ok: true, output: answer, detail: { headless: false } };
    });
  },
};
