// The board: the whole table drawn from what this phone holds (the counters, the players' cards
// with this phone's seat and who goes first, the last draw, the status, the undo button); a board
// whose table gained a player is read again from the server, which draws its players.
import { $, $$ } from "../shared.js";
import { showCounters } from "./counters.js";
import { showDraw } from "./dice.js";
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
  showDraw();
  showStatus();
  showUndo();
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
