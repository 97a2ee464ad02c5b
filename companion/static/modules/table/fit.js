// The board fitted to the screen. What is pinned at the screen's foot (the turn's controls, the
// dock along the bottom) is measured, and the page leaves room for it; when the players' cards
// are taller than the room between the top of the board and that foot, each row of cards gets an
// equal share, and a card's extras (chips, creatures, buttons) scroll inside it: every player's
// name, number, − and + stay on the screen without scrolling the page.
import { $, $$ } from "../shared.js";

let queued = false;

export function fit() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => { queued = false; fitNow(); });
}

function fitNow() {
  const root = document.documentElement.style;
  const dock = $(".dock");
  const along = (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= innerWidth / 2 && r.bottom >= innerHeight - 1 ? r : null;
  };
  const docked = dock && along(dock);
  // the turn's controls sit on the dock (a hair over it rather than a hair above it)
  root.setProperty("--dock-h", `${docked ? Math.floor(innerHeight - docked.top) : 0}px`);
  const turn = $("#turn");
  const pinned = turn && !turn.hidden ? turn.getBoundingClientRect() : null;
  const foot = Math.ceil(innerHeight - Math.min(pinned && pinned.height ? pinned.top : innerHeight, docked ? docked.top : innerHeight));
  root.setProperty("--foot", `${foot}px`);

  const board = $("#board");
  if (!board) return;
  board.style.removeProperty("--tile-max");
  $$(".player > .extras.more", board).forEach((extras) => extras.classList.remove("more"));
  const cards = $$(":scope > .player", board);
  if (cards.length < 2) return;
  const box = board.getBoundingClientRect();
  const room = innerHeight - foot - (box.top + scrollY) - 8;
  if (box.height <= room) return;
  const rows = new Map();
  for (const card of cards) {
    const r = card.getBoundingClientRect();
    const top = Math.round(r.top);
    rows.set(top, Math.max(rows.get(top) || 0, r.height));
  }
  const heights = [...rows.values()].sort((a, b) => a - b);
  // The rows' room, less the gaps and the whole table's counters: a row shorter than its share
  // keeps its height and leaves the rest to the taller ones, which share it evenly.
  let left = room - (box.height - heights.reduce((a, b) => a + b, 0));
  let share = left / heights.length;
  for (let i = 0; i < heights.length && heights[i] <= share; i++) {
    left -= heights[i];
    share = left / (heights.length - i - 1);
  }
  if (!Number.isFinite(share)) return; // every row fits after all
  board.style.setProperty("--tile-max", `${Math.max(Math.floor(share), 0)}px`);
  for (const extras of $$(".player > .extras", board)) extras.classList.toggle("more", extras.scrollHeight > extras.clientHeight + 1);
}

export function wireFit() {
  addEventListener("resize", fit);
  if (document.fonts) document.fonts.ready.then(fit);
}
