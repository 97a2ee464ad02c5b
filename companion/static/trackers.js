// Spellpress companion: the frame of each game's own tracker on the table page, and the parts every
// game's renderer shares. Each game draws its tracker in its own folder's phone.js
// (spellpress/core/games/<game>/phone.js), which registers itself here; every rule is the server's.
// Text is only ever set with textContent, never as HTML.
"use strict";

window.SpellpressTrackers = (function () {
  // ---------------------------------------------------------------- building blocks

  function h(tag, props, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "text") el.textContent = value;
      else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(el.dataset, value);
      else el.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  function button(label, onclick, opts = {}) {
    return h("button", {
      type: "button", class: "btn " + (opts.cls || ""), onclick, disabled: opts.disabled,
      "data-act": opts.act, "aria-label": opts.aria,
    }, label, opts.sub ? h("span", { class: "btn-sub" }, opts.sub) : null);
  }

  // A turn control's label: its action, and under it whose turn it is (a long name ends in an
  // ellipsis there; the button's name says it whole).
  function turnButton(label, who, onclick, opts = {}) {
    return button(label, onclick, { ...opts, sub: [who, opts.sub].filter(Boolean).join(" \u00b7 ") || null,
      aria: opts.aria || [label.replace(/[\u2026\u25b8]/g, "").trim(), who, opts.sub].filter(Boolean).join(": ") });
  }

  const chip = (text, cls = "") => h("span", { class: "chip " + cls }, text);
  const banner = (text, cls = "") => h("p", { class: "banner " + cls, role: "status" }, text);
  const row = (...children) => h("div", { class: "t-row" }, ...children);
  const plural = (n, word, many) => `${n} ${n === 1 ? word : many || word + "s"}`;
  const sum = (values) => values.reduce((a, b) => a + b, 0);

  // ---------------------------------------------------------------- the question sheet
  // ask(): a form of big choices, steppers and checks, answered with one thumb; resolves to
  // the values, or null if closed. pick(): one list of big buttons, resolved by a tap.

  let answer = null;

  function sheet() {
    const el = document.getElementById("ask-sheet");
    if (!el.dataset.watched) {
      el.dataset.watched = "1";
      // Closed by Escape or a tap beside it: the question is answered "no" (unless another
      // question has opened in its place meanwhile).
      el.addEventListener("close", () => { if (!el.open && answer) close(null); });
    }
    return el;
  }

  function close(value) {
    const resolve = answer;
    answer = null;
    if (sheet().open) sheet().close();
    if (resolve) resolve(value);
  }

  function field(spec, values) {
    const wrap = h("div", { class: "field", dataset: { field: spec.name || "" } });
    if (spec.type === "note") {
      wrap.append(h("p", { class: "hint" }, spec.text));
      return wrap;
    }
    const id = "ask-" + spec.name;
    if (spec.type === "choice") {
      wrap.append(h("p", { class: "field-label", id: id + "-l" }, spec.label));
      const group = h("div", { class: "choices-grid" + (spec.list ? " list" : "") + (spec.compact ? " compact" : ""), role: "radiogroup", "aria-labelledby": id + "-l" });
      spec.options.forEach((option, i) => {
        const input = h("input", {
          type: "radio", name: id, value: String(i), checked: option.value === values[spec.name],
          disabled: option.disabled,
        });
        input.addEventListener("change", () => { values[spec.name] = option.value; });
        group.append(h("label", { class: "pick-chip" }, input,
          h("span", {}, h("b", {}, option.label), option.sub ? h("small", {}, option.sub) : null,
            option.text ? h("small", { class: "card-text" }, option.text) : null)));
      });
      wrap.append(group);
    } else if (spec.type === "number") {
      const out = h("output", { class: "stepper-value", id, "aria-live": "polite" }, String(values[spec.name]));
      const set = (n) => {
        values[spec.name] = Math.max(spec.min, Math.min(spec.max, n));
        out.textContent = String(values[spec.name]);
      };
      wrap.append(
        h("p", { class: "field-label" }, spec.label),
        h("div", { class: "stepper" },
          h("button", { type: "button", class: "step down", "aria-label": spec.label + " down", onclick: () => set(values[spec.name] - 1) }, "\u2212"),
          out,
          h("button", { type: "button", class: "step up", "aria-label": spec.label + " up", onclick: () => set(values[spec.name] + 1) }, "+")),
      );
    } else if (spec.type === "check") {
      const input = h("input", { type: "checkbox", id, checked: values[spec.name] });
      input.addEventListener("change", () => { values[spec.name] = input.checked; });
      wrap.append(h("label", { class: "check", for: id }, input, h("span", {}, spec.label)));
    } else if (spec.type === "select") {
      const select = h("select", { id });
      spec.options.forEach((option, i) => select.append(h("option", { value: String(i), selected: option.value === values[spec.name] }, option.label)));
      select.addEventListener("change", () => { values[spec.name] = spec.options[Number(select.value)].value; });
      wrap.append(h("label", { class: "field-label", for: id }, spec.label), select);
    } else if (spec.type === "text") {
      const input = h("input", { id, maxlength: spec.maxlength || 24, value: values[spec.name] || "", autocomplete: "off" });
      input.addEventListener("input", () => { values[spec.name] = input.value; });
      wrap.append(h("label", { class: "field-label", for: id }, spec.label), input);
    }
    return wrap;
  }

  function ask({ title, fields = [], submit = "OK", note = null, danger = false }) {
    close(null);
    const values = {};
    for (const spec of fields) if (spec.name) values[spec.name] = spec.value ?? (spec.type === "check" ? false : null);
    const form = sheet().querySelector("form");
    const body = h("div", { class: "stack" }, note ? h("p", { class: "hint" }, note) : null, fields.map((spec) => field(spec, values)));
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const ok = h("button", { type: "submit", class: "btn big " + (danger ? "danger" : "primary"), "data-submit": "" }, submit);
    form.replaceChildren(h("h2", { id: "ask-h" }, title), body, error, h("div", { class: "sheet-actions" }, ok,
      h("button", { type: "button", class: "btn ghost", onclick: () => close(null) }, "Cancel")));
    form.onsubmit = (event) => {
      event.preventDefault();
      const missing = fields.find((spec) => spec.required && (values[spec.name] === null || values[spec.name] === ""));
      if (missing) {
        error.textContent = `Choose: ${missing.label}`;
        error.hidden = false;
        return;
      }
      close(values);
    };
    sheet().showModal();
    return new Promise((resolve) => { answer = resolve; });
  }

  function pick(title, options, note = null) {
    close(null);
    const form = sheet().querySelector("form");
    const list = h("div", { class: "pick-list" }, options.map((option) =>
      h("button", {
        type: "button", class: "btn big pick " + (option.cls || ""), disabled: option.disabled,
        onclick: () => close(option.value),
      }, h("b", {}, option.label), option.sub ? h("small", {}, option.sub) : null,
      option.text ? h("small", { class: "card-text" }, option.text) : null)));
    form.onsubmit = (event) => { event.preventDefault(); close(null); };
    form.replaceChildren(...[h("h2", { id: "ask-h" }, title), note ? h("p", { class: "hint" }, note) : null, list,
      h("button", { type: "button", class: "btn ghost", onclick: () => close(null) }, "Cancel")].filter(Boolean));
    sheet().showModal();
    return new Promise((resolve) => { answer = resolve; });
  }

  function tell(title, lines) {
    return pick(title, [{ label: "Done", value: true, cls: "primary" }], lines.join(" "));
  }

  // ---------------------------------------------------------------- shared pieces

  function playerOptions(ctx, filter = () => true, me = null) {
    // Choices of players: short names, three to a row.
    return ctx.state.players.map((p, i) => ({
      value: i, label: p.name + (i === me ? " (themselves)" : ""), disabled: !filter(i, p),
    })).filter((o) => !o.disabled);
  }

  function defaultPlayer(ctx, preferred) {
    if (preferred !== null && preferred !== undefined) return preferred;
    return ctx.me ?? 0;
  }

  function unitLine(unit, parts) {
    return h("span", { class: "unit-stats" }, parts.filter(Boolean).join(" \u00b7 "));
  }

  async function amount(title, value = 1, label = "Amount") {
    const values = await ask({ title, fields: [{ name: "n", type: "number", label, min: 1, max: 100, value }], submit: "OK" });
    return values ? values.n : null;
  }

  // ---------------------------------------------------------------- drawing it all

  // Each game's renderer, registered by its folder's phone.js (served together as /games.js):
  // render(ctx, panel, extras, turn) draws the game's state in its panel (below the players),
  // each player's own in their card's `extras`, and the turn's controls in `turn`, which the
  // page pins above the dock, where a thumb reaches them. The end of a finished game is the
  // table's to show (state.end, at the top: board.js), not each game's.
  const GAMES = {};

  function register(ruleset, { render, headline = null }) {
    GAMES[ruleset] = { render, headline };
  }

  function render(ctx) {
    const panel = document.getElementById("tracker");
    if (!panel) return;
    const sub = document.getElementById("table-sub");
    const game = GAMES[ctx.state.ruleset];
    const headline = game && game.headline && ctx.state.tracker ? game.headline(ctx) : null;
    if (sub) {
      if (!sub.dataset.options) sub.dataset.options = sub.textContent;
      sub.textContent = headline || sub.dataset.options;
      sub.hidden = !sub.textContent;
    }
    if (!game || !ctx.state.tracker) {
      panel.hidden = true;
      const bar = document.getElementById("turn");
      if (bar) bar.hidden = true;
      return;
    }
    const fresh = h("div", { class: "tracker-body" });
    const extras = {};
    document.querySelectorAll(".player[data-index]").forEach((card) => {
      let box = card.querySelector(".extras");
      if (!box) {
        box = h("div", { class: "extras" });
        card.append(box);
      }
      box.replaceChildren();
      extras[Number(card.dataset.index)] = box;
      const mine = ctx.state.players[Number(card.dataset.index)];
      const t = mine && mine.tracker;
      card.classList.toggle("down", Boolean(t && (t.dead || t.out || t.ghost || t.defeated)));
    });
    const turn = h("div");
    game.render(ctx, fresh, extras, turn);
    bringBack(ctx, extras);
    panel.replaceChildren(fresh);
    panel.hidden = false;
    const bar = document.getElementById("turn");
    if (bar) {
      bar.replaceChildren(...turn.childNodes);
      bar.hidden = !bar.children.length;
    }
  }

  // ---------------------------------------------------------------- bring back
  // Only this brings back a player who is out of the game (a + on their counter is refused):
  // it asks first, and the log says who did it. A finished game is reopened first (under Table).

  function gone(mine) {
    if (!mine) return null;
    if (mine.dead) return "dead";
    if (mine.ghost) return "a ghost";
    if (mine.defeated) return "defeated";
    if (mine.out) return "out of the game";
    return null;
  }

  function bringBack(ctx, extras) {
    const { state } = ctx;
    const spec = state.life && state.counter_specs.find((c) => c.id === state.life);
    const finished = state.tracker && state.tracker.over && !state.reopened;
    if (!spec || finished) return;
    state.players.forEach((p, i) => {
      const word = gone(p.tracker);
      if (!word || !extras[i]) return;
      extras[i].append(button("Bring back\u2026", async () => {
        const most = spec.max !== null && spec.max !== undefined ? spec.max : spec.start;
        const values = await ask({
          title: `Bring ${p.name} back?`,
          note: `${p.name} is ${word}. This brings them back into the game, and the log says you did it.`,
          fields: [{ name: "to", type: "number", label: `${spec.label} they come back with`, min: 1, max: most, value: 1 }],
          submit: `Bring ${p.name} back`, danger: true,
        });
        if (values) ctx.act({ type: "bring_back", player: i, to: values.to });
      }, { cls: "small", act: "bring-back", aria: `Bring back ${p.name}` }));
    });
  }

  const parts = { h, button, turnButton, chip, banner, row, plural, sum, ask, pick, tell, playerOptions, defaultPlayer, unitLine, amount };
  return { render, register, parts, ask, pick, h };
})();
