/**
 * Where large tool results are kept whole, so the transcript can carry a preview and a ref.
 *
 * The text is stored in the content-addressed blob store (outside the workspace), so nothing is
 * discarded: `recall` returns the exact characters, and a ref stays valid after the session.
 *
 * @module
 */
import type { BlobStore } from "../core/blob_store.ts";
import { RetieError } from "../core/errors.ts";
import { buildPreview, PREVIEW_CHARS, PREVIEW_THRESHOLD } from "./preview.ts";

/** Most characters one recall returns; a longer request gets this much and says where to go on. */
export const RECALL_MAX_CHARS = 20_000;

/** Keeps large results out of the conversation. */
export class ResultStore {
  #blobs: BlobStore;
  #threshold: number;
  #budget: number;

  /**
   * @example
   * ```ts
   * import { BlobStore } from "../core/blob_store.ts";
   * import { ResultStore } from "./result_store.ts";
   * const store = new ResultStore(new BlobStore(":memory:"));
   * store.shrink("short").text; // "short"
   * ```
   */
  constructor(blobs: BlobStore, opts: { threshold?: number; previewChars?: number } = {}) {
    this.#blobs = blobs;
    this.#threshold = opts.threshold ?? PREVIEW_THRESHOLD;
    this.#budget = opts.previewChars ?? PREVIEW_CHARS;
  }

  /** Returns the text itself when small, else a preview carrying the ref of the stored whole. */
  shrink(text: string): { text: string; ref: string | null } {
    if (text.length <= this.#threshold) return { text, ref: null };
    const hash = this.#blobs.put(new TextEncoder().encode(text));
    const ref = `res_${hash.slice(0, 16)}`;
    this.#known.set(hash.slice(0, 16), hash);
    return { text: buildPreview(text, ref, this.#budget), ref };
  }

  /** The exact characters `[offset, offset+length)` of a stored result (at most
   * {@link RECALL_MAX_CHARS}; the trailer says where the next part starts). */
  recall(ref: string, offset = 0, length = 8000): string {
    const m = /^res_([0-9a-f]{16})$/.exec(ref);
    if (!m) {
      throw new RetieError(`unknown ref "${ref}"`, {
        hint: "refs look like res_0123456789abcdef; copy the one from the preview",
      });
    }
    const hash = this.#findHash(m[1]);
    const text = new TextDecoder().decode(this.#blobs.get(hash));
    const start = Math.max(0, Math.min(offset, text.length));
    const part = text.slice(start, start + Math.min(Math.max(0, length), RECALL_MAX_CHARS));
    const end = start + part.length;
    return `${part}\n[recall ${ref}: characters ${start}-${end} of ${text.length}${
      end < text.length ? `; next: recall(ref="${ref}", offset=${end})` : "; end of text"
    }]`;
  }

  #known = new Map<string, string>();
  #findHash(prefix: string): string {
    const known = this.#known.get(prefix);
    if (known) return known;
    throw new RetieError(`ref res_${prefix} is not from this session`, {
      hint: "recall only refs shown in this session's previews",
    });
  }
}
