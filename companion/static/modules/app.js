// Spellpress companion: the little JavaScript that the server-rendered pages need, as ES modules
// served as they are (no build step). This one registers the offline shell and starts the page's
// own code, which body[data-page] names: the home page, starting a table, joining one, the table
// (table/page.js and its parts) and the rules. Every module's header says what it holds.
// Names and log lines are only ever set with textContent, never as HTML.
import { homePage } from "./home.js";
import { joinPage } from "./join.js";
import { newPage } from "./new-table.js";
import { $ } from "./shared.js";
import { tablePage } from "./table/page.js";

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* http on a LAN: no offline shell */ });
}

function rulesPage() {
  window.SpellpressRules.mount($("#rules"), document.body.dataset.game);
}

({ home: homePage, new: newPage, join: joinPage, table: tablePage, rules: rulesPage })[document.body.dataset.page]?.();
