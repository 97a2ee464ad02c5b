// The end of a finished game at the top of every phone, in the rules core's words (state.end:
// the winner, or the party's win or loss), with "New game, same players" beside it for a phone
// with a seat; it goes once the game is reopened or a new one starts.
import { $ } from "../shared.js";
import { seat, state } from "./model.js";

export function showEnd() {
  const bar = $("#end");
  const end = state.end;
  bar.hidden = !end;
  if (!end) return;
  const text = $(".end-text", bar);
  if (text.textContent !== end.text) text.textContent = end.text;
  bar.classList.toggle("lost", !end.won);
  $(".end-new", bar).hidden = !seat;
}

export function wireEnd() {
  // The Table sheet's own button: it asks first, and says what it does.
  $("#end .end-new").addEventListener("click", () => $("#new-game").click());
}
