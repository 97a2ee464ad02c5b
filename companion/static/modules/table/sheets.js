// The dock's sheets: each opens from its button (the log at its newest entry, the Table sheet
// with the invite read afresh, the rules drawn by rules.js), and a tap beside a sheet closes it.
import { $, $$ } from "../shared.js";
import { renderLog } from "./log.js";
import { showInvite } from "./menu.js";

export function wireSheets() {
  $$("[data-open]").forEach((button) => button.addEventListener("click", () => {
    const sheet = document.getElementById(button.dataset.open);
    if (sheet.id === "log-sheet") renderLog();
    if (sheet.id === "menu-sheet") showInvite();
    if (sheet.id === "rules-sheet") window.SpellpressRules.mount($("#rules"), $("#rules").dataset.game);
    sheet.showModal();
    if (sheet.id === "log-sheet") { sheet.scrollTop = 0; $("#log-h").focus(); } // the newest entry, under its title
  }));
  $$("dialog.sheet").forEach((sheet) => sheet.addEventListener("click", (event) => {
    if (event.target === sheet) sheet.close(); // a tap on the backdrop
  }));
}
