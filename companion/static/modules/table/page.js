// The table page's wiring: the table loaded, each part's buttons and listeners set in turn, the
// page shown again after a wake or a lost network, and everything started (drawn, connected,
// kept awake, the taps left from last time sent, the invite opened for a table just made).
import { $ } from "../shared.js";
import { render, wireNames } from "./board.js";
import { wireCounters } from "./counters.js";
import { wireDice } from "./dice.js";
import { wireEnd } from "./end.js";
import { fit, wireFit } from "./fit.js";
import { showFinished, showInvite, wireMenu } from "./menu.js";
import { drawnBy, load, pending, seat } from "./model.js";
import { flush, schedule } from "./queue.js";
import { wireSheets } from "./sheets.js";
import { setStatus } from "./status.js";
import { connect, refresh, streamClosed, watch } from "./stream.js";
import { renderTracker } from "./tracker.js";
import { wireUndo } from "./undo.js";
import { keepAwake, wireWake } from "./wake.js";

export function tablePage() {
  load();
  drawnBy(render, (moved) => {
    if (moved) { renderTracker(); fit(); }
    showFinished();
  });
  wireCounters();
  wireNames();
  wireEnd();
  wireFit();
  wireUndo();
  wireDice();
  wireSheets();
  wireMenu();
  watch();
  wireWake();

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    refresh();
    if (streamClosed()) connect();
    keepAwake();
    flush();
  });
  window.addEventListener("online", () => { refresh(); connect(); flush(); });
  window.addEventListener("offline", () => setStatus("offline"));

  if (!seat) {
    $("#watching").hidden = false;
    document.body.classList.add("watching");
  }
  render();
  renderTracker();
  fit();
  connect();
  keepAwake();
  if (pending.length) schedule(0);
  if (new URLSearchParams(location.search).has("invite") && seat) {
    history.replaceState(null, "", location.pathname);
    showInvite();
    $("#menu-sheet").showModal();
  }
}
