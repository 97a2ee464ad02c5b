// The Table sheet: the invite (a join code, its QR code and until when it works, a new code), a
// new game with the same players, a finished game reopened, and the look (auto, light or dark).
import { $, $$, api } from "../shared.js";
import { id, seat, state } from "./model.js";
import { act } from "./tracker.js";

export async function showInvite(fresh = false) {
  if (!seat) { $("#invite").hidden = true; return; }
  try {
    const path = `/api/tables/${encodeURIComponent(id)}/code`;
    const data = fresh ? await api("POST", path, {}, seat.token) : await api("GET", path, undefined, seat.token);
    if (!data.code) return showInvite(true);
    $("#invite-code").textContent = data.code;
    const qr = $("#invite-qr");
    qr.src = `/join/${encodeURIComponent(data.code)}/qr.svg`;
    qr.hidden = false;
    const until = new Date(data.expires * 1000);
    $("#invite-expires").textContent = "Works until " + until.toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" });
  } catch (err) {
    $("#invite-expires").textContent = err.status ? err.message : "No connection.";
  }
}

// A finished game (not reopened) offers this phone, if it has a seat, to reopen it.
export function showFinished() {
  $("#finished").hidden = !(state.tracker && state.tracker.over) || Boolean(state.reopened) || !seat;
}

export function wireMenu() {
  $("#new-code").addEventListener("click", () => showInvite(true));
  $("#new-game").addEventListener("click", async () => {
    const names = state.players.map((p) => p.name).join(", ");
    if (!window.confirm(`Start a new game with the same players (${names})? The log keeps this one.`)) return;
    if (await act({ type: "new_game" })) $("#menu-sheet").close();
  });
  $("#reopen").addEventListener("click", async () => {
    if (!window.confirm("Reopen the finished game? Every phone will see that you did.")) return;
    if (await act({ type: "reopen" })) $("#menu-sheet").close();
  });
  showFinished();

  const theme = localStorage.getItem("spellpress.theme") || "auto";
  $$("input[name=theme]").forEach((input) => {
    input.checked = input.value === theme;
    input.addEventListener("change", () => {
      localStorage.setItem("spellpress.theme", input.value);
      if (input.value === "auto") delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = input.value;
    });
  });
}
