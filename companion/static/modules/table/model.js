// The table as this phone holds it: the server's state and version, this phone's seat, and its
// taps not yet sent (kept through a reload); what each counter shows from them. The other parts
// read these bindings live (always the newest) and change them only through what this exports.
// How a change is drawn is given by the page's wiring (page.js), so that no part imports another
// that imports it back.
import { $, seats, store } from "../shared.js";

export let id = null;
export let maxDelta = 0;
export let seat = null;
export let initial = null; // the table as the page came, with its version
export let version = 0;
export let state = null;
// Taps waiting for the server, kept through a reload: {rid, action, sent}.
export let pending = [];
let pendingKey = "";

export function load() {
  id = document.body.dataset.table;
  maxDelta = Number(document.body.dataset.maxDelta);
  seat = seats.get(id);
  initial = JSON.parse($("#state").textContent);
  version = initial.version;
  state = initial.state;
  pendingKey = "spellpress.pending." + id;
  pending = store.get(pendingKey, []);
}

export const savePending = () => store.set(pendingKey, pending);

// The taps for which `done(item)` holds leave the queue (sent, or refused for good).
export function dropPending(done) {
  const before = pending.length;
  pending = pending.filter((item) => !done(item));
  if (pending.length !== before) savePending();
}

export const key = (player, counter) => `${player ?? ""}/${counter}`;

export function spec(counter) { return state.counter_specs.find((s) => s.id === counter); }

export function clamp(value, s) {
  if (s.min !== null) value = Math.max(value, s.min);
  if (s.max !== null) value = Math.min(value, s.max);
  return value;
}

export function serverValue(player, counter) {
  return player === null ? state.counters[counter] : state.players[player].counters[counter];
}

export function pendingDelta(player, counter) {
  return pending
    .filter((item) => key(item.action.player, item.action.counter) === key(player, counter))
    .reduce((sum, item) => sum + item.action.delta, 0);
}

export function shown(player, counter) {
  return clamp(serverValue(player, counter) + pendingDelta(player, counter), spec(counter));
}

export function playerName(i) {
  return i !== null && i !== undefined && state.players[i] ? state.players[i].name : "someone";
}

// -- drawing: `board` draws what this phone holds (after a tap too); `accepted(moved)` what a
// state from the server may also change (told whether it moved the table on).

const draw = { board() {}, accepted() {} };

export function drawnBy(board, accepted) {
  draw.board = board;
  draw.accepted = accepted;
}

export function redraw() { draw.board(); }

export function accept(newVersion, newState) {
  if (newVersion < version) return;
  const moved = newVersion !== version || newState !== state;
  version = newVersion;
  state = newState;
  draw.board();
  draw.accepted(moved);
}
