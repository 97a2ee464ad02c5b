// Draws: the last one (dice, a coin, who goes first, a game's own draw) shown under the title
// until the next move is made, then faded away (the log keeps it); and the dice sheet's buttons,
// which ask the server to draw (it writes the draw in the log, for everyone to see).
import { $, $$, api, requestId, toast } from "../shared.js";
import { fit } from "./fit.js";
import { accept, id, seat, state, version } from "./model.js";
import { refusedOffline } from "./status.js";

const FADE = 600; // ms: app.css fades a past draw (.draw.past) as long

let fading = null;

export function showDraw() {
  // Keyed by the draw's event, not its words: heads after heads is a new draw, and looks it.
  const draw = $("#draw");
  const last = state.last_draw;
  if (!last) {
    draw.hidden = true;
    return;
  }
  const fresh = draw.dataset.seq !== String(last.seq);
  if (fresh) {
    draw.dataset.seq = String(last.seq);
    const number = document.createElement("span");
    number.className = "draw-no";
    number.textContent = `Draw ${last.number || 1}`;
    const lines = document.createElement("span");
    lines.className = "draw-lines"; // at most three lines on the screen (app.css); the log has it whole
    lines.append(number, " " + last.text);
    draw.replaceChildren(lines);
  }
  // The table's latest event is the draw: shown. Anything since (a move, a tap): it fades.
  if (last.seq >= version) {
    clearTimeout(fading);
    draw.classList.remove("past");
    if (draw.hidden || fresh) {
      draw.hidden = false;
      draw.classList.remove("fresh");
      void draw.offsetWidth;
      draw.classList.add("fresh");
    }
  } else if (!draw.hidden && !draw.classList.contains("past")) {
    draw.classList.add("past");
    fading = setTimeout(() => {
      if (draw.classList.contains("past")) { draw.hidden = true; fit(); }
    }, FADE);
  }
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
