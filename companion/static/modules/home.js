// The home page: a join code typed in, and the tables this phone has a seat at.
import { $, normalCode, seats } from "./shared.js";

export function homePage() {
  $("[data-join-code]").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = normalCode($("#code").value);
    if (code) location.href = "/join/" + encodeURIComponent(code);
  });
  const mine = Object.entries(seats.all()).sort((a, b) => b[1].at - a[1].at).slice(0, 8);
  if (!mine.length) return;
  const list = $("#mine-list");
  for (const [id, seat] of mine) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "/t/" + encodeURIComponent(id);
    a.textContent = seat.title || "A table";
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = (seat.names || []).join(", ");
    a.append(who);
    li.append(a);
    list.append(li);
  }
  $("#mine").hidden = false;
}
