// The board: the whole table drawn from what this phone holds (the counters, the players' cards
// with this phone's seat and who goes first, the end of a finished game, the last draw, the
// status, the undo button), fitted to the screen; a board whose table gained a player is read
// again from the server, which draws its players. A tap on a player's name shows it whole.
import { $, $$ } from "../shared.js";
import { showCounters } from "./counters.js";
import { showDraw } from "./dice.js";
import { showEnd } from "./end.js";
import { fit } from "./fit.js";
import { id, seat, state } from "./model.js";
import { showStatus } from "./status.js";
import { renderTracker } from "./tracker.js";
import { showUndo } from "./undo.js";

export function render() {
  const board = $("#board");
  if (Number(board.dataset.players) !== state.players.length) {
    refreshBoard();
    return;
  }
  showCounters(board);
  $$(".player", board).forEach((card) => {
    const index = Number(card.dataset.index);
    const mine = seat && seat.player === index;
    card.classList.toggle("mine", Boolean(mine));
    $(".badge.you", card).hidden = !mine;
    $(".badge.first", card).hidden = state.first_player !== index;
  });
  showEnd();
  showDraw();
  showStatus();
  showUndo();
  fit();
}

// A name too long for its card ends in an ellipsis: a tap on it shows it whole, with the
// player's options (their wizard, their deck).
export function wireNames() {
  document.addEventListener("click", (event) => {
    const button = event.target.closest('.player [data-act="whole-name"]');
    const trackers = window.SpellpressTrackers;
    if (!button || !trackers) return;
    const card = button.closest(".player");
    const player = state.players[Number(card.dataset.index)];
    if (!player) return;
    const options = $(".player-options", card);
    const lines = [options ? options.textContent.trim() : "", seat && seat.player === Number(card.dataset.index) ? "This phone's seat." : ""];
    trackers.parts.tell(player.name, lines.filter(Boolean));
  });
}

async function refreshBoard() {
  try {
    const response = await fetch(`/t/${encodeURIComponent(id)}/board`, { cache: "no-store" });
    if (!response.ok) return;
    const holder = document.createElement("div");
    holder.innerHTML = await response.text(); // the server's own escaped HTML
    $("#board").replaceWith($("#board", holder));
    render();
    renderTracker();
  } catch { /* the next update tries again */ }
}
