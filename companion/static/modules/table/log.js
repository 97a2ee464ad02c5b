// The log: the table's events as this phone has heard them (a burst of taps is one entry, an
// undone change is marked), drawn in the log sheet newest first; a change of this phone's that
// another phone undid is told. An event that carries this phone's request tag takes the taps it
// answers out of the queue.
import { $, api, toast } from "../shared.js";
import { dropPending, id, initial, playerName, seat } from "./model.js";

let log = [];
let lastLogSeq = 0;

export function addLog(entries) {
  for (const entry of entries || []) {
    if (entry.seq <= lastLogSeq) continue;
    lastLogSeq = entry.seq;
    // A burst of taps is one entry, sent again whole as it grows: it replaces its taps shown so far.
    if (entry.seqs) log = log.filter((e) => !entry.seqs.includes(e.seq));
    log.push(entry);
    if (entry.type === "undo") {
      const targets = entry.data.targets || [entry.data.target];
      for (const e of log) if ((e.seqs || [e.seq]).some((s) => targets.includes(s))) e.undone = true;
      tellUndone(entry);
    }
    const tags = entry.request_tags || (entry.request_tag ? [entry.request_tag] : []);
    if (tags.length) dropPending((item) => tags.some((tag) => item.rid.startsWith(tag)));
  }
  if (log.length > 500) log = log.slice(-500);
  if ($("#log-sheet").open) renderLog();
}

// Another phone took back this phone's change: say who, and what (old undos, read when the
// page loads, are history and are not told).
function tellUndone(entry) {
  if (!seat || entry.seq <= initial.version || entry.by === seat.player || entry.data.of !== seat.player) return;
  toast(`${playerName(entry.by)} undid your change: ${entry.data.text}`);
}

export function renderLog() {
  const list = $("#log");
  list.replaceChildren();
  for (const entry of [...log].reverse()) {
    const li = document.createElement("li");
    const time = document.createElement("time");
    const when = new Date(entry.at * 1000);
    time.dateTime = when.toISOString();
    time.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const text = document.createElement("span");
    text.textContent = entry.text;
    if (entry.undone) text.className = "undone";
    if (entry.type === "new_game") li.className = "game-start"; // the games before it stay below
    li.append(time, text);
    list.append(li);
  }
}

export async function refreshLog() {
  try {
    const data = await api("GET", `/api/tables/${encodeURIComponent(id)}/log?after=${lastLogSeq}&limit=500`);
    if (lastLogSeq === 0) log = [];
    addLog(data.events);
  } catch { /* offline: the stream catches up */ }
}
