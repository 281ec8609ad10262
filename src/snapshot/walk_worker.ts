/**
 * Worker of the two-thread listing: claims chunks of a {@link ListingJob} until none are left
 * (the main thread claims from the same counter), walks them, and replies with its part in compact
 * form, or with the error that stopped it (the main thread then lists the whole tree itself).
 *
 * A `node:worker_threads` worker rather than a web Worker: only it can be unref'd, so an idle one
 * does not keep the process alive.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import {
  claimChunk,
  type ListingJob,
  type ListingReply,
  PartWriter,
  walkChunk,
} from "./walk_split.ts";

const port = parentPort!;

port.on("message", (job: ListingJob) => {
  let reply: ListingReply;
  try {
    const control = new Int32Array(job.control);
    const exclude = new Set(job.exclude);
    const part = new PartWriter();
    for (let i = claimChunk(control, job.chunks.length); i >= 0;) {
      walkChunk(job.root, job.chunks[i], exclude, (rel, abs, seen) => {
        part.add(rel, seen.kind === "l" ? Deno.readLinkSync(abs) : "", seen);
      });
      i = claimChunk(control, job.chunks.length);
    }
    reply = { id: job.id, ...part.finish() };
  } catch (e) {
    reply = { id: job.id, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
  port.postMessage(reply, "nums" in reply ? [reply.nums.buffer as ArrayBuffer] : []);
});
