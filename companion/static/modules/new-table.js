// Starting a table: how many players (which hides the options that do not fit), their names and
// options, and the table made on the server; the phone that made it takes the first seat.
import { $, $$, api, ready, seats } from "./shared.js";

export function newPage() {
  const form = $("#new-table");
  const error = $("#form-error");
  const count = () => Number($("input[name=count]:checked", form).value);

  function fit() {
    const n = count();
    $$(".names li", form).forEach((li) => { li.hidden = Number(li.dataset.seat) >= n; });
    const groups = new Set($$("[data-option]", form).map((input) => input.dataset.option));
    for (const option of groups) {
      const inputs = $$(`[data-option="${option}"]`, form);
      for (const input of inputs) {
        const label = input.closest(".choice");
        const min = Number(label.dataset.playersMin || 0);
        const max = Number(label.dataset.playersMax || Infinity);
        label.hidden = n < min || n > max;
        if (label.hidden) input.checked = false;
      }
      if (!inputs.some((input) => input.checked)) {
        const shown = inputs.filter((input) => !input.closest(".choice").hidden);
        (shown.find((input) => input.hasAttribute("data-preferred")) || shown[0] || {}).checked = true;
      }
    }
  }
  form.addEventListener("change", (event) => { if (event.target.name === "count") fit(); });
  fit();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const n = count();
    const players = $$(".names li", form).slice(0, n).map((li, i) => {
      const options = {};
      $$("[data-player-option]", li).forEach((select) => { options[select.dataset.playerOption] = select.value; });
      return { name: $("input", li).value.trim() || `Player ${i + 1}`, options };
    });
    const options = {};
    $$("[data-option]:checked", form).forEach((input) => { options[input.dataset.option] = input.value; });
    const button = $("button[type=submit]", form);
    button.disabled = true;
    try {
      const table = await api("POST", "/api/tables", { game: document.body.dataset.game, players, options });
      seats.put(table.id, {
        token: table.token, player: table.player, title: table.state.title,
        names: table.state.players.map((p) => p.name),
      });
      location.href = `/t/${encodeURIComponent(table.id)}?invite=1`;
    } catch (err) {
      error.textContent = err.status ? err.message : "No connection to the server; try again.";
      error.hidden = false;
      button.disabled = false;
    }
  });
  ready(form);
}
