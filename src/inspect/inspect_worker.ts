/**
 * Worker of the inspection pool (`pool.ts`): loads the parsers once, then inspects each edit it is
 * sent and replies with its findings, or with the error that stopped it (the main thread then
 * inspects that edit itself).
 *
 * A `node:worker_threads` worker, like the other workers of retie: it can be unref'd, so an idle
 * one does not keep the process alive.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import { inspectText, loadParsers } from "./mod.ts";
import type { PoolJob, PoolReply } from "./pool.ts";

const port = parentPort!;
const ready = loadParsers();

port.on("message", async (job: PoolJob) => {
  let reply: PoolReply;
  try {
    await ready;
    reply = { i: job.i, findings: inspectText(job.path, job.before, job.after) };
  } catch (e) {
    reply = { i: job.i, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
  port.postMessage(reply);
});
