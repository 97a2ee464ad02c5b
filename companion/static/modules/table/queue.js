// Sending taps: never lost, never sent twice. The oldest waiting tap goes first, the next when it
// is answered; one the server refuses is dropped (it would be refused again), one that cannot
// reach it is tried again later, less and less often.
import { api, toast } from "../shared.js";
import { accept, dropPending, id, pending, redraw, savePending, seat } from "./model.js";
import { link, setStatus } from "./status.js";

let flushing = false;
let flushTimer = null;
let backoff = 0;

export function schedule(ms) {
  clearTimeout(flushTimer);
  flushTimer = setTimeout(flush, ms);
}

export async function flush() {
  if (flushing || !pending.length || !seat) return;
  // With no network at all nothing can leave: a send now would only mark the burst as sent
  // and split the taps that follow into another change. The browser's 'online' event flushes.
  if (navigator.onLine === false) { setStatus("offline"); return; }
  flushing = true;
  const item = pending[0];
  item.sent = true;
  savePending();
  try {
    const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`,
      { ...item.action, request_id: item.rid }, seat.token);
    dropPending((p) => p.rid === item.rid);
    backoff = 0;
    accept(result.version, result.state);
    redraw();
  } catch (err) {
    if (err.status && err.status < 500 && err.status !== 408 && err.status !== 429) {
      dropPending((p) => p.rid === item.rid); // refused: it would be refused again
      redraw();
      toast(err.message);
    } else {
      backoff = Math.min(backoff ? backoff * 2 : 1000, 15000);
      setStatus("offline");
      flushing = false;
      schedule(backoff);
      return;
    }
  }
  flushing = false;
  if (pending.length) schedule(0);
}

// Until the taps still waiting are sent (or the phone is offline, or five seconds pass): what
// is done next then acts on the table's own version.
export async function settled() {
  for (let i = 0; pending.length && link !== "offline" && i < 100; i++) {
    if (!flushing) flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
