/**
 * The `recall` tool: fetch more of a large tool result that was kept out of the conversation.
 *
 * @module
 */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { noSideEffect } from "./ask.ts";
import { guarded } from "./results.ts";

/** Characters returned when no length is given. */
export const DEFAULT_RECALL_LENGTH = 20_000;

/** Arguments of `recall`. */
export const recallSchema = z.object({
  ref: z.string().min(1).describe("The reference given with the shortened result"),
  offset: z.number().int().min(0).optional().describe("Character offset to start at (default 0)"),
  length: z.number().int().min(1).max(200_000).optional().describe(
    `Number of characters (default ${DEFAULT_RECALL_LENGTH})`,
  ),
});
/** Arguments of `recall`, parsed. */
export type RecallArgs = z.infer<typeof recallSchema>;

/**
 * The `recall` tool.
 *
 * @example
 * ```ts
 * import { recallTool } from "./recall.ts";
 * recallTool.name; // "recall"
 * ```
 */
export const recallTool: Tool<RecallArgs> = {
  name: "recall",
  description: "Get more of a long tool result that was shortened. Give its ref; page with " +
    "offset and length.",
  schema: recallSchema,
  classify(args) {
    return Promise.resolve(
      noSideEffect(`recall ${args.ref}`, "reads a stored result of this session"),
    );
  },
  handler(args, ctx) {
    return guarded(async () => {
      const recall = ctx.services.recall;
      if (!recall) {
        return { ok: false, output: "error: no stored results can be recalled in this session" };
      }
      const offset = args.offset ?? 0;
      const length = args.length ?? DEFAULT_RECALL_LENGTH;
      const text = await recall(args.ref, offset, length);
      return {
        ok: true,
        output: text,
        detail: { ref: args.ref, offset, length: text.length },
      };
    });
  },
};
