// Spellpress companion: the little JavaScript that the server-rendered pages need.
// Names and log lines are only ever set with textContent, never as HTML.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

// ---------------------------------------------------------------- shared helpers

const store = {
  get(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: memory only */ }
  },
};

// This phone's seats: table id -> {token, player, title, names, at}.
const seats = {
  all: () => store.get("spellpress.seats", {}),
  get: (id) => seats.all()[id],
  put(id, seat) { store.set("spellpress.seats", { ...seats.all(), [id]: { ...seat, at: Date.now() } }); },
};

// A request the server has not answered within this many ms fails as if offline: on a dead
// connection (a phone out of the Wi-Fi, a server that froze) fetch itself would wait minutes.
const SEND_LIMIT = 4000;

async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  const response = await fetch(path, {
    method, headers, cache: "no-store", signal: AbortSignal.timeout(SEND_LIMIT),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

let toastTimer = null;
function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}

function requestId() {
  return (crypto.randomUUID && crypto.randomUUID()) ||
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function normalCode(raw) {
  return (raw || "").toUpperCase().replace(/[\s-]/g, "");
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* http on a LAN: no offline shell */ });
}

// ---------------------------------------------------------------- home

function homePage() {
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

// ---------------------------------------------------------------- starting a table

function newPage() {
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
}

// ---------------------------------------------------------------- joining

function joinPage() {
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
  if ($("#code").value) find();
}

// ---------------------------------------------------------------- the table

function tablePage() {
  const id = document.body.dataset.table;
  const maxDelta = Number(document.body.dataset.maxDelta);
  const seat = seats.get(id);
  const initial = JSON.parse($("#state").textContent);
  let version = initial.version;
  let state = initial.state;
  let log = [];
  let lastLogSeq = 0;

  // Taps waiting for the server, kept through a reload: {rid, action, sent}.
  const pendingKey = "spellpress.pending." + id;
  let pending = store.get(pendingKey, []);
  const savePending = () => store.set(pendingKey, pending);

  const key = (player, counter) => `${player ?? ""}/${counter}`;

  function spec(counter) { return state.counter_specs.find((s) => s.id === counter); }

  function clamp(value, s) {
    if (s.min !== null) value = Math.max(value, s.min);
    if (s.max !== null) value = Math.min(value, s.max);
    return value;
  }

  function serverValue(player, counter) {
    return player === null ? state.counters[counter] : state.players[player].counters[counter];
  }

  function pendingDelta(player, counter) {
    return pending
      .filter((item) => key(item.action.player, item.action.counter) === key(player, counter))
      .reduce((sum, item) => sum + item.action.delta, 0);
  }

  function shown(player, counter) {
    return clamp(serverValue(player, counter) + pendingDelta(player, counter), spec(counter));
  }

  // -- drawing the state

  function render() {
    const board = $("#board");
    if (Number(board.dataset.players) !== state.players.length) {
      refreshBoard();
      return;
    }
    for (const el of $$(".counter", board)) {
      const player = el.dataset.player === "" ? null : Number(el.dataset.player);
      const counter = el.dataset.counter;
      const num = $(".num", el);
      const text = String(shown(player, counter));
      if (num.textContent !== text) {
        num.textContent = text;
        el.classList.remove("bump");
        void el.offsetWidth; // restart the animation
        el.classList.add("bump");
      }
      const waiting = pendingDelta(player, counter);
      el.classList.toggle("pending", waiting !== 0);
      const wait = $(".wait", el);
      wait.textContent = waiting ? `${waiting > 0 ? "+" : "\u2212"}${Math.abs(waiting)} not sent yet` : "";
      wait.hidden = !waiting;
      name(el, text, waiting);
    }
    $$(".player", board).forEach((card) => {
      const index = Number(card.dataset.index);
      const mine = seat && seat.player === index;
      card.classList.toggle("mine", Boolean(mine));
      $(".badge.you", card).hidden = !mine;
      $(".badge.first", card).hidden = state.first_player !== index;
    });
    // Keyed by the draw's event, not its words: heads after heads is a new draw, and looks it.
    const draw = $("#draw");
    if (state.last_draw && draw.dataset.seq !== String(state.last_draw.seq)) {
      draw.dataset.seq = String(state.last_draw.seq);
      const number = document.createElement("span");
      number.className = "draw-no";
      number.textContent = `Draw ${state.last_draw.number || 1}`;
      draw.replaceChildren(number, " " + state.last_draw.text);
      draw.hidden = false;
      draw.classList.remove("fresh");
      void draw.offsetWidth;
      draw.classList.add("fresh");
    }
    if (!state.last_draw) draw.hidden = true;
    showStatus();
    const unsent = pending.filter((item) => !item.sent);
    $("#undo").disabled = !seat || (!unsent.length && !state.undo);
    $("#undo-what").textContent = unsent.length ? "your last tap" : state.undo ? state.undo.text : "";
  }

  // A counter's buttons are named with whose number it is and its value, as shown.
  function name(el, value, waiting) {
    const what = `${el.dataset.who}${el.dataset.what} ${value}` +
      (waiting ? ` (${waiting > 0 ? "+" : "minus "}${Math.abs(waiting)} not sent yet)` : "");
    const step = Number(el.dataset.step);
    $(".step.down", el).setAttribute("aria-label", `${what}, decrease by ${step}, hold for ${5 * step}`);
    $(".value", el).setAttribute("aria-label", `${what}, type an amount`);
    $(".step.up", el).setAttribute("aria-label", `${what}, increase by ${step}, hold for ${5 * step}`);
  }

  async function refreshBoard() {
    try {
      const response = await fetch(`/t/${encodeURIComponent(id)}/board`, { cache: "no-store" });
      if (!response.ok) return;
      const holder = document.createElement("div");
      holder.innerHTML = await response.text(); // the server's own escaped HTML
      $("#board").replaceWith($("#board", holder));
      render();
      renderTracker();
    } catch { /* the next update tries again */ }
  }

  function accept(newVersion, newState) {
    if (newVersion < version) return;
    const moved = newVersion !== version || newState !== state;
    version = newVersion;
    state = newState;
    render();
    if (moved) renderTracker();
    $("#finished").hidden = !(state.tracker && state.tracker.over) || Boolean(state.reopened) || !seat;
  }

  // -- the game's own tracker (trackers.js draws it; the rules are the server's)

  // Actions whose meaning depends on what the phone saw (the server says which: core/table.py's
  // `ordered`): they carry the version, and a stale one is refused (409) rather than applied to
  // a table the player has not seen.
  const ORDERED = new Set(document.body.dataset.ordered.split(" ").filter(Boolean));

  async function settled() {
    // Taps still waiting to be sent go first, so the version is the table's.
    for (let i = 0; pending.length && link !== "offline" && i < 100; i++) {
      if (!flushing) flush();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  // `seen`: the version the player looked at when deciding (a sheet may stay open while the
  // table moves on). Only this phone's own taps, sent first, may move it on.
  async function act(action, seen = version) {
    if (!seat) { toast("Join this table to play."); return null; }
    if (refusedOffline("nothing was done")) return null;
    const own = pending.length > 0;
    await settled();
    if (refusedOffline("nothing was done")) return null;
    const body = { ...action, request_id: requestId() };
    if (ORDERED.has(action.type)) body.version = own ? version : seen;
    try {
      const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`, body, seat.token);
      accept(result.version, result.state);
      return result;
    } catch (err) {
      toast(err.status ? err.message : "No connection: nothing was done.");
      if (err.status === 409) refresh();
      return null;
    }
  }

  const trackerContext = (seen = version) => ({
    state, version, me: seat ? seat.player : null, act: (action) => act(action, seen), toast,
    name: (i) => (i !== null && i !== undefined && state.players[i] ? state.players[i].name : "someone"),
  });

  function renderTracker() {
    if (window.SpellpressTrackers) window.SpellpressTrackers.render(trackerContext());
  }

  // -- the log

  function addLog(entries) {
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
      if (tags.length) {
        const before = pending.length;
        pending = pending.filter((item) => !tags.some((tag) => item.rid.startsWith(tag)));
        if (pending.length !== before) savePending();
      }
    }
    if (log.length > 500) log = log.slice(-500);
    if ($("#log-sheet").open) renderLog();
  }

  // Another phone took back this phone's change: say who, and what (old undos, read when the
  // page loads, are history and are not told).
  function tellUndone(entry) {
    if (!seat || entry.seq <= initial.version || entry.by === seat.player || entry.data.of !== seat.player) return;
    toast(`${trackerContext().name(entry.by)} undid your change: ${entry.data.text}`);
  }

  function renderLog() {
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

  async function refreshLog() {
    try {
      const data = await api("GET", `/api/tables/${encodeURIComponent(id)}/log?after=${lastLogSeq}&limit=500`);
      if (lastLogSeq === 0) log = [];
      addLog(data.events);
    } catch { /* offline: the stream catches up */ }
  }

  // -- sending taps: never lost, never sent twice

  let flushing = false;
  let flushTimer = null;
  let backoff = 0;

  function schedule(ms) {
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flush, ms);
  }

  async function flush() {
    if (flushing || !pending.length || !seat) return;
    // With no network at all nothing can leave: a send now would only mark the burst as sent
    // and split the taps that follow into another change. The browser's 'online' event flushes.
    if (navigator.onLine === false) { setStatus("offline"); return; }
    flushing = true;
    const item = pending[0];
    item.sent = true;
    savePending();
    try {
      const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`,
        { ...item.action, request_id: item.rid }, seat.token);
      pending = pending.filter((p) => p.rid !== item.rid);
      savePending();
      backoff = 0;
      accept(result.version, result.state);
      render();
    } catch (err) {
      if (err.status && err.status < 500 && err.status !== 408 && err.status !== 429) {
        pending = pending.filter((p) => p.rid !== item.rid); // refused: it would be refused again
        savePending();
        render();
        toast(err.message);
      } else {
        backoff = Math.min(backoff ? backoff * 2 : 1000, 15000);
        setStatus("offline");
        flushing = false;
        schedule(backoff);
        return;
      }
    }
    flushing = false;
    if (pending.length) schedule(0);
  }

  function tap(el, steps) {
    if (!seat) { toast("Join this table to keep score."); return; }
    const player = el.dataset.player === "" ? null : Number(el.dataset.player);
    const counter = el.dataset.counter;
    const s = spec(counter);
    const base = serverValue(player, counter);
    const before = pendingDelta(player, counter);
    // Taps past a bound change nothing: they are not sent, so an undo takes back a real change.
    const after = clamp(base + before + steps * s.step, s) - base;
    if (after === before) {
      el.classList.remove("at-bound");
      void el.offsetWidth;
      el.classList.add("at-bound");
      return;
    }
    const delta = after - before;
    const last = pending[pending.length - 1];
    if (last && !last.sent && key(last.action.player, last.action.counter) === key(player, counter)) {
      last.action.delta += delta;
      if (last.action.delta === 0) pending.pop();
    } else {
      pending.push({ rid: requestId(), action: { type: "adjust", player, counter, delta } });
    }
    savePending();
    render();
    // At once; taps made while one is on its way, or while offline, go together as the next change.
    if (link !== "offline" && navigator.onLine !== false) flush();
  }

  // Taps and long presses (five steps, repeated while held); keyboard clicks count as taps.
  let held = null;
  function release() {
    if (!held) return;
    clearTimeout(held.timer);
    clearInterval(held.repeat);
    held.button.classList.remove("held");
    held = null;
  }
  document.addEventListener("pointerdown", (event) => {
    const button = event.target.closest(".counter .step");
    if (!button || event.button > 0) return;
    release();
    const counter = button.closest(".counter");
    const sign = Number(button.dataset.sign);
    held = { button, long: false };
    button.classList.add("held");
    held.timer = setTimeout(() => {
      held.long = true;
      tap(counter, 5 * sign);
      if (navigator.vibrate) navigator.vibrate(20);
      held.repeat = setInterval(() => tap(counter, 5 * sign), 600);
    }, 450);
  });
  document.addEventListener("pointerup", (event) => {
    if (!held) return;
    const { button, long } = held;
    release();
    if (!long && event.target.closest(".counter .step") === button) {
      tap(button.closest(".counter"), Number(button.dataset.sign));
    }
  });
  document.addEventListener("pointercancel", release);
  document.addEventListener("contextmenu", (event) => {
    if (event.target.closest(".counter")) event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".counter .step");
    if (button && event.detail === 0) tap(button.closest(".counter"), Number(button.dataset.sign));
  });

  // A typed amount
  let amountFor = null;
  document.addEventListener("click", (event) => {
    const value = event.target.closest(".counter .value");
    if (!value) return;
    if (!seat) { toast("Join this table to keep score."); return; }
    amountFor = value.closest(".counter");
    $("#amount-h").textContent = amountFor.dataset.label;
    $("#amount").value = "";
    $("#amount-sheet").returnValue = ""; // closed with Escape, it changes nothing
    $("#amount-sheet").showModal();
    $("#amount").focus();
  });
  $("#amount-sheet").addEventListener("close", () => {
    const sign = Number($("#amount-sheet").returnValue);
    const amount = Math.abs(Math.trunc(Number($("#amount").value)));
    if (!sign || !amount || !amountFor) return;
    const step = Number(amountFor.dataset.step);
    if (amount > maxDelta || amount % step) {
      toast(amount % step ? `Use steps of ${step}.` : `At most ${maxDelta} at once.`);
      return;
    }
    tap(amountFor, (sign * amount) / step);
  });

  // -- undo and draws

  $("#undo").addEventListener("click", async () => {
    const last = pending[pending.length - 1];
    if (last && !last.sent) {
      pending.pop();
      savePending();
      render();
      toast("Took back your last tap.");
      return;
    }
    if (!state.undo || refusedOffline("nothing was undone")) return;
    if (pending.length) { toast("Still sending your taps; undo again in a moment."); return; }
    try {
      const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`,
        { type: "undo", version }, seat.token);
      accept(result.version, result.state);
      toast("Undone: " + result.event.data.text);
    } catch (err) {
      toast(err.status ? err.message : "No connection: nothing was undone.");
      if (err.status === 409) refresh();
    }
  });

  $$("[data-draw]").forEach((button) => button.addEventListener("click", async () => {
    if (!seat) { toast("Join this table to roll."); return; }
    if (refusedOffline("nothing was drawn")) return;
    const action = { type: button.dataset.draw, request_id: requestId() };
    if (action.type === "roll") {
      action.sides = Number($("input[name=sides]:checked").value);
      action.count = Number($("#dice-count").value) || 1;
    }
    try {
      const result = await api("POST", `/api/tables/${encodeURIComponent(id)}/actions`, action, seat.token);
      accept(result.version, result.state);
      $("#dice-sheet").close();
    } catch (err) {
      toast(err.status ? err.message : "No connection: nothing was drawn.");
    }
  }));

  // -- sheets, invite, look

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

  async function showInvite(fresh = false) {
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
  $("#finished").hidden = !(state.tracker && state.tracker.over) || Boolean(state.reopened) || !seat;

  const theme = localStorage.getItem("spellpress.theme") || "auto";
  $$("input[name=theme]").forEach((input) => {
    input.checked = input.value === theme;
    input.addEventListener("change", () => {
      localStorage.setItem("spellpress.theme", input.value);
      if (input.value === "auto") delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = input.value;
    });
  });

  // -- live: the stream, and a fresh look after a reconnect or a wake

  // The pill says what is happening, in words: "live", or "Offline — 3 changes waiting to send".
  let link = "connecting";
  function setStatus(status) {
    link = status;
    document.body.dataset.link = status;
    showStatus();
  }

  function showStatus() {
    const el = $("#status");
    const n = pending.length;
    const waiting = n ? ` \u2014 ${n} ${n === 1 ? "change" : "changes"} waiting to send` : "";
    const text = { live: "live", offline: "Offline" + waiting, connecting: "connecting" + waiting }[link];
    el.dataset.status = link;
    if (el.textContent !== text) el.textContent = text;
  }

  // What needs the server now (a tracker's action, an undo, a draw) is refused at once offline.
  function refusedOffline(what) {
    if (link !== "offline" && navigator.onLine !== false) return false;
    toast(`Offline: ${what}. This phone cannot reach the table's server; ` +
      "counter taps are kept and sent when it is back.");
    return true;
  }

  // A stream the server refuses (it holds as many as it can) closes at once: the page then reads
  // the table every few seconds, and asks for a stream again less and less often.
  let source = null;
  let polling = null;
  let retry = 2000;
  let heard = 0; // when the stream last said anything (the server sends a beat every 2 s)
  let lastRead = -Infinity; // when the table was last read without a stream
  const SILENCE = 4000; // ms without a word before the phone says it is offline
  function connect() {
    if (source) source.close();
    heard = performance.now();
    source = new EventSource(`/api/tables/${encodeURIComponent(id)}/stream`);
    source.addEventListener("open", () => { heard = performance.now(); });
    // Any word from the server (a beat every 2 s, at least) means the table is live again.
    for (const kind of ["state", "patch", "beat"]) {
      source.addEventListener(kind, () => {
        heard = performance.now();
        if (link === "live") return;
        setStatus("live");
        flush();
      });
    }
    source.addEventListener("state", (event) => {
      const message = JSON.parse(event.data);
      addLog(message.events);
      accept(message.version, message.state);
      setStatus("live");
    });
    // What changed since `base`: applied to the state this phone holds if that is `base`;
    // a phone elsewhere (its own tap answered meanwhile) reads the whole table instead.
    source.addEventListener("patch", (event) => {
      const message = JSON.parse(event.data);
      addLog(message.events);
      setStatus("live");
      if (message.version <= version) return;
      if (message.base !== version) { refresh(); return; }
      const next = { ...state, ...message.set };
      for (const key of message.unset) delete next[key];
      accept(message.version, next);
    });
    source.addEventListener("open", () => {
      retry = 2000;
      if (polling) { clearInterval(polling); polling = null; }
      refreshLog();
      flush();
    });
    source.addEventListener("error", () => {
      // A stream that ended is reopened by the browser itself (every 5 minutes, by design): the
      // watchdog below says offline if that takes too long. A refused one is closed for good.
      if (source.readyState !== EventSource.CLOSED) return;
      if (!polling || performance.now() - lastRead > 5000) setStatus("offline");
      if (!polling) polling = setInterval(refresh, 3000);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    });
  }

  // A stream that falls silent (a dead Wi-Fi, a frozen server) sends no error: the phone notices
  // the missing beats, says so, and tries a new stream every few seconds.
  setInterval(() => {
    const quiet = performance.now() - heard;
    if (quiet < SILENCE || (source && source.readyState === EventSource.CLOSED)) return;
    setStatus("offline");
    if (quiet > 3 * SILENCE) connect();
  }, 500);

  async function refresh() {
    try {
      const data = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
      accept(data.version, data.state);
      refreshLog();
      if (polling) { // refused a stream, the page reads the table: that is live enough
        lastRead = performance.now();
        if (link !== "live") { setStatus("live"); flush(); }
      }
    } catch { setStatus("offline"); }
  }

  // -- the screen kept awake: the Wake Lock API where the browser has it (https, or localhost);
  // on a home network's plain http, a silent video drawn from a canvas plays instead, as browsers
  // keep the screen on while a video plays (Firefox for a stream's video; Chromium for one that
  // fills a fifth of the screen: it lies behind the page, see app.css). It starts on a tap.
  const awake = { want: store.get("spellpress.awake", true), lock: null, video: null };

  function awakeVideo() {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 16;
    const paint = canvas.getContext("2d");
    let tick = 0;
    const draw = () => { paint.fillStyle = tick++ % 2 ? "#5b3cc4" : "#5b3cc5"; paint.fillRect(0, 0, 16, 16); };
    draw();
    const video = document.createElement("video");
    video.className = "awake-video";
    video.muted = true;
    video.playsInline = true;
    video.setAttribute("aria-hidden", "true");
    video.srcObject = canvas.captureStream(1);
    setInterval(() => { if (!video.paused) draw(); }, 5000); // a fresh frame now and then: it keeps playing
    video.addEventListener("pause", showAwake);
    video.addEventListener("playing", showAwake);
    document.body.append(video);
    return video;
  }

  async function keepAwake(tapped = false) {
    if (!awake.want || document.visibilityState !== "visible") return showAwake();
    if (awake.lock || (awake.video && !awake.video.paused)) return showAwake();
    if ("wakeLock" in navigator) {
      try {
        awake.lock = await navigator.wakeLock.request("screen");
        awake.lock.addEventListener("release", () => { awake.lock = null; showAwake(); });
        return showAwake();
      } catch { /* refused (no focus, a power saver): the video may do it */ }
    }
    if (tapped || awake.video) { // once started by a tap, a muted video may start again by itself
      awake.video = awake.video || awakeVideo();
      try { await awake.video.play(); } catch { /* not allowed: said below */ }
    }
    showAwake();
  }

  function letSleep() {
    if (awake.lock) awake.lock.release();
    awake.lock = null;
    if (awake.video) awake.video.pause();
  }

  function showAwake() {
    const playing = Boolean(awake.video && !awake.video.paused);
    const on = Boolean(awake.lock) || playing;
    $("#awake").textContent = !awake.want ? "Screen: sleeps as usual." :
      awake.lock ? "Screen: kept awake while this table is open." :
        playing ? "Screen: kept awake while this table is open (by a silent video: this page is on plain http)." :
          "Screen: kept awake from your next tap on the table.";
    const toggle = $("#awake-toggle");
    toggle.setAttribute("aria-pressed", String(awake.want));
    $("span", toggle).textContent = awake.want ? "on" : "off";
    document.body.dataset.awake = on ? "on" : "off";
  }

  $("#awake-toggle").addEventListener("click", () => {
    awake.want = !awake.want;
    store.set("spellpress.awake", awake.want);
    if (awake.want) keepAwake(true); else { letSleep(); showAwake(); }
  });
  // Browsers let a page keep the screen on only after a tap: the first one on the table starts it.
  for (const kind of ["pointerup", "keydown"]) {
    document.addEventListener(kind, () => {
      if (awake.want && !awake.lock && !(awake.video && !awake.video.paused)) keepAwake(true);
    }, { capture: true });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    refresh();
    if (!source || source.readyState === EventSource.CLOSED) connect();
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
  connect();
  keepAwake();
  if (pending.length) schedule(0);
  if (new URLSearchParams(location.search).has("invite") && seat) {
    history.replaceState(null, "", location.pathname);
    showInvite();
    $("#menu-sheet").showModal();
  }
}

function rulesPage() {
  window.SpellpressRules.mount($("#rules"), document.body.dataset.game);
}

({ home: homePage, new: newPage, join: joinPage, table: tablePage, rules: rulesPage })[document.body.dataset.page]?.();
