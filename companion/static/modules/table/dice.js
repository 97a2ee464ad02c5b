// Draws: the last one (dice, a coin, who goes first) shown under the title, and the dice sheet's
// buttons, which ask the server to draw (it writes the draw in the log, for everyone to see).
import { $, $$, api, requestId, toast } from "../shared.js";
import { accept, id, seat, state } from "./model.js";
import { refusedOffline } from "./status.js";

export function showDraw() {
  // Keyed by the draw's event, not its words: heads after heads is a new draw, and looks it.
  const draw = $("#draw");
  if (state.last_draw && draw.dataset.seq !== String(state.last_draw.seq)) {
    draw.dataset.seq = String(state.last_draw.seq);
    const number = document.createElement("span");
    number.className = "draw-no";
    number.textContent = `Draw ${state.last_draw.number || 1}`;
    draw.replaceChildren(number, " " + state.last_draw.text);
    draw.hidden = false;
    draw.classList.remove("fresh");
    void draw.offsetWidth;
    draw.classList.add("fresh");
  }
  if (!state.last_draw) draw.hidden = true;
}

export function wireDice() {
  $$("[data-draw]").forEach((button) => button.addEventListener("click", async () => {
    if (!seat) { toast("Join this table to roll."); return; }
    if (refusedOffline("nothing was drawn")) return;
    const action = { type: button.dataset.draw, request_id: requestId() };
    if (action.type === "roll") {
      action.sides = Number($("input[name=sides]:checked").value);
      action.count = Number($("#dice-count").value) || 1;
    }
    try {
      const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`, action, seat.token);
      accept(result.version, result.state);
      $("#dice-sheet").close();
    } catch (err) {
      toast(err.status ? err.message : "No connection: nothing was drawn.");
    }
  }));
}
