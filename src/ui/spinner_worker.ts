/**
 * The status line's own thread: it redraws the spinner, the label and the elapsed time every
 * 100 ms even while the main thread is busy (a large first snapshot, a slow ledger write), so the
 * screen never looks frozen. The main thread starts it with a message and stops it through shared
 * memory, waiting until the line is cleared, so no frame is drawn over what it writes next.
 *
 * Shared Int32Array: [0] change counter, [1] running (1) or stopped (0), [2] the change counter
 * the worker has acted on, [3] the generation being shown.
 *
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";

const ctl = new Int32Array(workerData.sab as SharedArrayBuffer);
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const enc = new TextEncoder();
let shown: { gen: number; head: string; tail: string; started: number; color: boolean } | null =
  null;
let drawn = false;
let frame = 0;

parentPort!.on(
  "message",
  (
    m: { gen: number; head?: string; tail?: string; started?: number; color?: boolean },
  ) => {
    if (m.head !== undefined) {
      shown = { gen: m.gen, head: m.head, tail: "", started: m.started!, color: m.color! };
    } else if (m.tail !== undefined && shown?.gen === m.gen) shown.tail = m.tail;
  },
);

function write(s: string): void {
  try {
    Deno.stdout.writeSync(enc.encode(s));
  } catch { /* the terminal went away */ }
}

function draw(): void {
  if (!shown || shown.gen !== Atomics.load(ctl, 3)) return;
  const secs = ((Date.now() - shown.started) / 1000).toFixed(1);
  const f = FRAMES[frame++ % FRAMES.length];
  const text = `${shown.head} · ${secs}s${shown.tail ? ` · ${shown.tail}` : ""}`;
  write(
    shown.color ? `\r\x1b[2K\x1b[36m${f}\x1b[39m \x1b[2m${text}\x1b[22m` : `\r\x1b[2K${f} ${text}`,
  );
  drawn = true;
}

async function loop(): Promise<void> {
  let seen = -1;
  while (true) {
    // Stopped: sleep until the next change (no wake-ups while the person types).
    const r = Atomics.waitAsync(ctl, 0, seen, Atomics.load(ctl, 1) === 1 ? 100 : Infinity);
    if (r.async) await r.value;
    // Let messages that arrived meanwhile (a new label, a tail) be handled first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    seen = Atomics.load(ctl, 0);
    if (Atomics.load(ctl, 1) === 1) draw();
    else {
      if (drawn) write("\r\x1b[2K");
      drawn = false;
    }
    if (Atomics.load(ctl, 2) !== seen && Atomics.load(ctl, 1) === 0) {
      Atomics.store(ctl, 2, seen);
      Atomics.notify(ctl, 2);
    }
  }
}

void loop();
