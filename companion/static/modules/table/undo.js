// Undo: the dock's button says what it would take back (this phone's last tap not yet sent, or
// the table's last change), and takes it back: a waiting tap here, a change on the server.
import { $, api, toast } from "../shared.js";
import { accept, id, pending, redraw, savePending, seat, state, version } from "./model.js";
import { refusedOffline } from "./status.js";
import { refresh } from "./stream.js";

export function showUndo() {
  const unsent = pending.filter((item) => !item.sent);
  $("#undo").disabled = !seat || (!unsent.length && !state.undo);
  $("#undo-what").textContent = unsent.length ? "your last tap" : state.undo ? state.undo.text : "";
}

export function wireUndo() {
  $("#undo").addEventListener("click", async () => {
    const last = pending[pending.length - 1];
    if (last && !last.sent) {
      pending.pop();
      savePending();
      redraw();
      toast("Took back your last tap.");
      return;
    }
    if (!state.undo || refusedOffline("nothing was undone")) return;
    if (pending.length) { toast("Still sending your taps; undo again in a moment."); return; }
    try {
      const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`,
        { type: "undo", version }, seat.token);
      accept(result.version, result.state);
      toast("Undone: " + result.event.data.text);
    } catch (err) {
      toast(err.status ? err.message : "No connection: nothing was undone.");
      if (err.status === 409) refresh();
    }
  });
}
