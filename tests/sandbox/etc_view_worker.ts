/// <reference lib="deno.worker" />
/** Builds an /etc view in a worker (its own module instance: no shared memo), for the race test. */
import { buildEtcView, type EtcViewOptions } from "../../src/sandbox/etc_view.ts";

self.onmessage = (e: MessageEvent<EtcViewOptions>) => {
  try {
    self.postMessage({ path: buildEtcView(e.data) });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
