// The game's own tracker, drawn by trackers.js with the game's phone.js (/games.js: classic
// scripts that register with window.SpellpressTrackers); every rule is the server's. And `act`:
// how the tracker, and the Table sheet, ask the server to do something.
import { api, requestId, toast } from "../shared.js";
import { accept, id, pending, playerName, seat, state, version } from "./model.js";
import { settled } from "./queue.js";
import { refusedOffline } from "./status.js";
import { refresh } from "./stream.js";

// Actions whose meaning depends on what the phone saw (the server says which: core/table.py's
// `ordered`): they carry the version, and a stale one is refused (409) rather than applied to
// a table the player has not seen.
const ordered = (type) => document.body.dataset.ordered.split(" ").filter(Boolean).includes(type);

// `seen`: the version the player looked at when deciding (a sheet may stay open while the
// table moves on). Only this phone's own taps, sent first, may move it on.
export async function act(action, seen = version) {
  if (!seat) { toast("Join this table to play."); return null; }
  if (refusedOffline("nothing was done")) return null;
  const own = pending.length > 0;
  await settled(); // taps still waiting to be sent go first, so the version is the table's
  if (refusedOffline("nothing was done")) return null;
  const body = { ...action, request_id: requestId() };
  if (ordered(action.type)) body.version = own ? version : seen;
  try {
    const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`, body, seat.token);
    accept(result.version, result.state);
    return result;
  } catch (err) {
    toast(err.status ? err.message : "No connection: nothing was done.");
    if (err.status === 409) refresh();
    return null;
  }
}

const trackerContext = (seen = version) => ({
  state, version, me: seat ? seat.player : null, act: (action) => act(action, seen), toast, name: playerName,
});

export function renderTracker() {
  if (window.SpellpressTrackers) window.SpellpressTrackers.render(trackerContext());
}
