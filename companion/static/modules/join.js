// Joining a table: its code looked up, then a seat taken by a player's name (or a new player's).
import { $, api, normalCode, ready, seats } from "./shared.js";

export function joinPage() {
  const error = $("#join-error");
  let code = "";

  function fail(err) {
    error.textContent = err.status ? err.message : "No connection to the server; try again.";
    error.hidden = false;
  }

  async function join(name) {
    error.hidden = true;
    try {
      const table = await api("POST", "/api/tables/join", { code, name });
      seats.put(table.id, {
        token: table.token, player: table.player, title: table.state.title,
        names: table.state.players.map((p) => p.name),
      });
      location.href = "/t/" + encodeURIComponent(table.id);
    } catch (err) { fail(err); }
  }

  async function find() {
    error.hidden = true;
    code = normalCode($("#code").value);
    if (!code) return;
    try {
      const found = await api("GET", "/api/codes/" + encodeURIComponent(code));
      $("#pick-h").textContent = found.title;
      const names = $("#pick-names");
      names.replaceChildren();
      for (const name of found.players) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "btn big";
        button.textContent = name;
        button.addEventListener("click", () => join(name));
        names.append(button);
      }
      $("#new-player").hidden = !found.room;
      $("#pick").hidden = false;
    } catch (err) { fail(err); }
  }

  $("#find").addEventListener("submit", (event) => { event.preventDefault(); find(); });
  $("#new-player").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("#new-name").value.trim();
    if (name) join(name);
  });
  ready($("#find"));
  ready($("#new-player"));
  if ($("#code").value) find();
}
