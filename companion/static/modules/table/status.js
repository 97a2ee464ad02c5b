// The pill that says what is happening, in words: "live", or "Offline — 3 changes waiting to
// send"; and what needs the server now, refused at once while this phone cannot reach it.
import { $, toast } from "../shared.js";
import { pending } from "./model.js";

// "connecting", "live" or "offline": the other parts read it live.
export let link = "connecting";

export function setStatus(status) {
  link = status;
  document.body.dataset.link = status;
  showStatus();
}

export function showStatus() {
  const el = $("#status");
  const n = pending.length;
  const waiting = n ? ` \u2014 ${n} ${n === 1 ? "change" : "changes"} waiting to send` : "";
  const text = { live: "live", offline: "Offline" + waiting, connecting: "connecting" + waiting }[link];
  el.dataset.status = link;
  if (el.textContent !== text) el.textContent = text;
}

// What needs the server now (a tracker's action, an undo, a draw) is refused at once offline.
export function refusedOffline(what) {
  if (link !== "offline" && navigator.onLine !== false) return false;
  toast(`Offline: ${what}. This phone cannot reach the table's server; ` +
    "counter taps are kept and sent when it is back.");
  return true;
}
