// Spellpress companion: each game's own tracker on the table page. Every rule is the server's
// (spellpress/core/games/<game>/tracker.py): this only draws the tracker's state and sends the players'
// actions. Text is only ever set with textContent, never as HTML.
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

  // ---------------------------------------------------------------- Spellchamber

  function spellchamber(ctx, panel, extras) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    const kinds = r.kinds;
    const ammoName = (k) => r.ammo[k].name;
    const kindClass = (k) => "kind-" + kinds.indexOf(k);
    const short = shortNames(kinds.map(ammoName));

    if (t.over) panel.append(banner(t.winner !== null ? `${ctx.name(t.winner)} wins!` : "No wizard is left standing.", "win"));
    if (t.round && !t.over) {
      const s = t.scenario;
      panel.append(h("div", { class: "t-head" },
        h("span", { class: "t-title" }, `Round ${t.round}`),
        h("span", { class: "t-sub" }, `${s.name} (#${s.number}) \u00b7 ${plural(s.spells_per_player, "spell")} each`)));
    }

    if (t.phase === "battle" && !t.over) {
      const spent = t.chamber.spent;
      const left = sum(kinds.map((k) => t.chamber.left[k]));
      if (!spent.length && t.draft) {
        panel.append(h("p", { class: "hint" },
          `Draft: lay out ${t.draft.spells} spells; ${ctx.name(t.draft.first)} drafts first, then counter-clockwise.`));
      }
      const picture = h("div", {
        class: "chamber", role: "img",
        "aria-label": `The chamber: ${left} of ${t.chamber.size} cards left (` +
          kinds.map((k) => `${t.chamber.left[k]} ${ammoName(k)}`).join(", ") + ")",
      });
      picture.style.setProperty("--cards", String(Math.max(t.chamber.size, 1)));
      // A spent card (at most 48 px wide) shows the beginning of its name that tells the kinds
      // apart ("B" for Blank), never a clipped word; the line below spells the names out, in
      // the same colours.
      spent.forEach((k) => picture.append(h("span", { class: `ammo shown ${kindClass(k)}`, title: ammoName(k) },
        h("span", {}, short[kinds.indexOf(k)]))));
      for (let i = 0; i < left; i++) picture.append(h("span", { class: "ammo face-down", "aria-hidden": "true" }, "?"));
      panel.append(picture, h("p", { class: "chamber-left" },
        kinds.map((k) => h("span", { class: "left " + kindClass(k) }, h("b", {}, String(t.chamber.left[k])), " " + ammoName(k))),
        h("span", { class: "muted" }, " left")));
      if (t.odds) {
        panel.append(h("p", { class: "chamber-odds" }, "Next shot: " +
          kinds.map((k) => `${ammoName(k)} ${Math.round(t.odds[k])}%`).join(" \u00b7 ")));
      }

      const battle = t.turn.player;
      const ghost = state.players[battle].tracker.ghost;
      panel.append(row(h("span", { class: "t-turn" }, "Battle turn: ", h("b", {}, ctx.name(battle))),
        t.turn.extra ? chip("extra turn", "accent") : null));
      if (!t.over) {
        if (ghost) {
          panel.append(h("p", { class: "hint" }, `${ctx.name(battle)} is a ghost: draft ${plural(r.ghost_drafts, "spell")} first, play spells, then end the turn.`));
          panel.append(button("End the ghost's turn", () => ctx.act({ type: "pass", player: battle }), { cls: "big primary wide", act: "pass" }));
        } else {
          panel.append(button("Shoot\u2026", () => shootSheet(ctx), { cls: "big primary wide", act: "shoot" }));
        }
        panel.append(row(
          button("Chamber spells\u2026", () => chamberSpells(ctx), { cls: "small half", act: "chamber-spells" }),
          button("Skip the turn", async () => {
            const ok = await ask({ title: `${ctx.name(battle)} skips the turn?`, note: "For a spell that skips a battle turn: the gun moves on without a shot.", submit: "Skip the turn" });
            if (ok) ctx.act({ type: "pass", player: battle });
          }, { cls: "small half", act: "skip" })));
      }
    } else if (!t.over) {
      if (t.round) panel.append(h("p", { class: "t-line" }, `Round ${t.round} is over. ${ctx.name(t.next)} will be the battle player.`));
      else panel.append(h("p", { class: "hint" }, "Starting the round draws the scenario and shuffles the chamber on the server. " +
        (state.first_player === null ? `Each wizard's d${r.die_sides} is rolled for the first battle player (or draw who goes first under Dice).` : `${ctx.name(state.first_player)} goes first.`)));
      panel.append(button(`Start round ${t.round + 1}`, () => ctx.act({ type: "start_round" }), { cls: "big primary wide", act: "start-round" }));
    }

    state.players.forEach((p, i) => {
      const mine = p.tracker;
      const box = extras[i];
      if (!box) return;
      const chips = h("div", { class: "chips" });
      if (t.phase === "battle" && !t.over && t.turn && t.turn.player === i) chips.append(chip("battle turn", "accent"));
      if (mine.ghost) chips.append(chip("ghost \u00b7 always powered up", "ghost"));
      else if (mine.out) chips.append(chip("out", "down"));
      else if (mine.powered) chips.append(chip("powered up", "power"));
      box.append(chips);
      if (mine.alive && !t.over) {
        box.append(button(mine.powered ? "Power down" : "Power up",
          () => ctx.act({ type: "power", player: i, up: !mine.powered }),
          { cls: "small", act: "power", aria: `${mine.powered ? "Power down" : "Power up"} ${ctx.name(i)}` }));
      }
    });
  }

  // The round and its scenario while the game goes on; the winner once there is one.
  function spellchamberHeadline(ctx) {
    const t = ctx.state.tracker;
    if (t.over) return t.winner !== null ? `${ctx.name(t.winner)} wins!` : "No wizard is left standing.";
    if (!t.round) return null;
    return `Round ${t.round}: ${t.scenario.name}`;
  }

  // The shortest beginnings that tell the names apart ("L", "M", "B" for Live, Magic, Blank).
  function shortNames(names) {
    for (let n = 1; ; n++) {
      const cut = names.map((name) => name.slice(0, n).toUpperCase());
      if (new Set(cut).size === names.length || cut.every((c, i) => c.length === names[i].length)) return cut;
    }
  }

  async function shootSheet(ctx) {
    const { state } = ctx;
    const shooter = state.tracker.turn.player;
    const targets = playerOptions(ctx, (i, p) => p.tracker.alive, shooter);
    const values = await ask({
      title: `${ctx.name(shooter)} aims the Wizard Gun at\u2026`,
      fields: [
        { name: "target", type: "choice", list: true, label: "Aim at", options: targets, required: true },
        { name: "again", type: "check", label: `A spell lets ${ctx.name(shooter)} shoot again this turn` },
      ],
      submit: "Shoot!",
    });
    if (values) ctx.act({ type: "shoot", shooter, target: values.target, again: values.again });
  }

  async function chamberSpells(ctx) {
    const t = ctx.state.tracker;
    const left = sum(Object.values(t.chamber.left));
    const who = ctx.me ?? t.turn.player;
    const choice = await pick("Chamber spells", [
      { value: "peek1", label: "Look at the top card", sub: "only this phone sees it" },
      { value: "peek2", label: "Look at the top 2 cards", disabled: left < 2 },
      { value: "bottom", label: "Put the top card at the bottom" },
      { value: "swap", label: "Swap the top 2 cards", disabled: left < 2 },
      { value: "shuffle", label: "Shuffle the chamber", sub: "on the server" },
    ], `Played by ${ctx.name(who)}. The log says what was done, never which cards.`);
    if (!choice) return;
    if (choice.startsWith("peek")) {
      const result = await ctx.act({ type: "peek", player: who, count: Number(choice.slice(4)) });
      if (result && result.secret) {
        const names = result.secret.cards.map((k) => ctx.state.rules.ammo[k].name);
        tell("Only you see this", [`From the top: ${names.join(", then ")}.`]);
      }
    } else if (choice === "bottom") ctx.act({ type: "arrange", player: who, order: [0], bottom: 1 });
    else if (choice === "swap") ctx.act({ type: "arrange", player: who, order: [1, 0], bottom: 0 });
    else ctx.act({ type: "shuffle_chamber", player: who });
  }

  // ---------------------------------------------------------------- Magicka Mayhem

  function chanceText(level) {
    if (level.method === "always") return "every spell card spell is Mayhemified";
    if (level.method === "coin") return "a coin flip: heads is Mayhem";
    if (level.method === "die") return `a d${level.out_of}: ${level.hits === 1 ? "a 1" : `1 to ${level.hits}`} is Mayhem`;
    return `${level.hits} in ${level.out_of}`;
  }

  function statusChips(holder, dead) {
    const chips = [];
    if (dead) chips.push(chip("dead", "down"));
    if (holder.wet) chips.push(chip("wet", "wet"));
    if (holder.frozen) chips.push(chip(`frozen ${plural(holder.frozen, "turn")}`, "frozen"));
    if (holder.barrier) chips.push(chip(`barrier ${holder.barrier.strength}/${holder.barrier.max}`, "barrier"));
    return chips;
  }

  function magicka(ctx, panel, extras) {
    const { state } = ctx;
    const t = state.tracker;
    if (t.over) panel.append(banner(t.winner !== null ? `${ctx.name(t.winner)} wins!` : "Nobody is left standing.", "win"));
    panel.append(row(
      h("span", { class: "t-turn" }, t.turn ? ["Turn ", String(t.turn), ": ", h("b", {}, ctx.name(t.player))] : "No turn yet"),
      !t.over && t.next !== null ? button(t.turn ? `Next: ${ctx.name(t.next)} \u25b8` : `Start: ${ctx.name(t.next)} \u25b8`,
        () => ctx.act({ type: "start_turn", player: t.next }), {
          cls: "small primary", act: "next-turn",
          sub: state.players[t.next].tracker.frozen ? "frozen: skips it" : null,
        }) : null));
    panel.append(row(
      h("span", { class: "t-line" }, h("b", {}, t.level.name), ": ", chanceText(t.level)),
      button("Change", () => levelSheet(ctx), { cls: "small", act: "level" })));
    if (!t.over) panel.append(button("Mayhem Muster\u2026", () => musterSheet(ctx), { cls: "big primary wide", act: "muster" }));
    const last = t.last_muster;
    if (last) {
      const box = h("div", { class: "muster", "aria-label": "The last Mayhem Muster" });
      for (const m of last.musters) {
        const rolled = t.level.method === "always" ? "Mayhem!" : (m.face || `rolled ${m.roll}`) + (m.hit ? ": Mayhem!" : ": as cast");
        box.append(h("p", { class: "muster-line" + (m.hit ? " hit" : "") }, h("b", {}, ctx.name(m.player)), " ", rolled));
        if (m.card) box.append(h("div", { class: "mayhem-card" }, h("b", {}, m.card.name), h("p", {}, m.card.text)));
      }
      panel.append(box);
    }
    panel.append(h("p", { class: "hint" }, `Mayhem deck: ${t.deck.left} left \u00b7 ${t.deck.discard} discarded`));

    state.players.forEach((p, i) => {
      const box = extras[i];
      if (!box) return;
      const mine = p.tracker;
      const chips = statusChips(mine, mine.dead);
      if (t.player === i) chips.unshift(chip("their turn", "accent"));
      box.append(h("div", { class: "chips" }, chips));
      const list = h("ul", { class: "units" });
      for (const unit of t.units.filter((u) => u.owner === i)) {
        list.append(h("li", {}, h("button", {
          type: "button", class: "unit", dataset: { unit: unit.id }, onclick: () => magickaUnit(ctx, unit),
          "aria-label": `${unit.name}: attack ${unit.attack}, health ${unit.health}`,
        }, h("span", { class: "unit-name" }, unit.name),
        unitLine(unit, [`\u2694 ${unit.attack}`, `\u2665 ${unit.health}`, unit.ready ? "ready" : unit.turn ? `arrived turn ${unit.turn}` : "arrived"]),
        h("span", { class: "chips" }, statusChips(unit, false)))));
      }
      box.append(list);
      if (!t.over && !mine.dead) box.append(button("Actions\u2026", () => magickaWizard(ctx, i), { cls: "small", act: "wizard", aria: `Actions for ${ctx.name(i)}` }));
    });
  }

  async function levelSheet(ctx) {
    const { rules, tracker } = ctx.state;
    const values = await ask({
      title: "Mayhem level",
      fields: [
        { name: "level", type: "choice", list: true, label: "Level", value: tracker.level.id, required: true,
          options: rules.levels.map((l) => ({ value: l.id, label: l.name, sub: chanceText(l) })) },
        { name: "hits", type: "number", label: "Custom: Mayhem on", min: 1, max: 100, value: tracker.level.method === "custom" ? tracker.level.hits : 1 },
        { name: "out_of", type: "number", label: "Custom: out of", min: 1, max: 100, value: tracker.level.method === "custom" ? tracker.level.out_of : 3 },
      ],
      submit: "Play this level",
    });
    if (!values) return;
    const level = rules.levels.find((l) => l.id === values.level);
    const action = { type: "mayhem_level", level: level.id };
    if (level.method === "custom") Object.assign(action, { hits: values.hits, out_of: Math.max(values.hits, values.out_of) });
    ctx.act(action);
  }

  async function musterSheet(ctx) {
    const { state } = ctx;
    const t = state.tracker;
    const caster = defaultPlayer(ctx, t.player);
    const interactive = state.rules.interactive_modes.includes(state.options.mode);
    const fields = [
      { name: "caster", type: "choice", compact: true, label: "Cast by", value: caster, options: playerOptions(ctx, (i, p) => !p.tracker.dead), required: true },
      { name: "target", type: "choice", compact: true, label: "At", options: playerOptions(ctx), required: true },
    ];
    if (interactive) {
      fields.push({ name: "interaction", type: "choice", label: "Snapped at?", value: "none", options: [
        { value: "none", label: "Goes as cast" },
        { value: "countered", label: "Countered", sub: "both muster" },
        { value: "reflected", label: "Reflected", sub: "caster musters" },
      ] });
    }
    fields.push(
      { name: "spell", type: "choice", list: true, label: "Spell (optional)", value: null,
        options: [{ value: null, label: "\u2014" }, ...state.rules.spells.filter((s) => !s.summon).map((s) => ({
          value: s.id, label: s.name, sub: s.cost.join(" \u00b7 "), text: s.text || null }))] },
      { name: "draw", type: "check", label: "Draw a Mayhem card on a hit", value: true },
    );
    const values = await ask({ title: "Mayhem Muster", note: `${t.level.name}: ${chanceText(t.level)}. Flipped on the server.`, fields, submit: "Muster!" });
    if (!values) return;
    const action = { type: "muster", caster: values.caster, target: values.target, draw: values.draw };
    if (values.interaction && values.interaction !== "none") action.interaction = values.interaction;
    if (values.spell) action.spell = values.spell;
    ctx.act(action);
  }

  async function amount(title, value = 1, label = "Amount") {
    const values = await ask({ title, fields: [{ name: "n", type: "number", label, min: 1, max: 100, value }], submit: "OK" });
    return values ? values.n : null;
  }

  function statusChoices(holder) {
    return [
      { value: "damage", label: "Damage\u2026", sub: holder.barrier ? "the barrier takes it first" : null },
      { value: "heal", label: "Heal\u2026", disabled: Boolean(holder.barrier) },
      { value: holder.wet ? "dry" : "wet", label: holder.wet ? "Dry" : "Make wet", disabled: Boolean(holder.barrier) },
      { value: "zap", label: "Zap", disabled: !holder.wet || Boolean(holder.barrier) },
      { value: holder.frozen ? "thaw" : "freeze", label: holder.frozen ? "Thaw" : "Freeze", disabled: !holder.frozen && Boolean(holder.barrier) },
      { value: "shield", label: holder.barrier ? "Repair the barrier\u2026" : "Raise a barrier\u2026" },
      { value: "unshield", label: "Destroy the barrier", disabled: !holder.barrier },
    ];
  }

  async function statusAction(ctx, choice, target, holder, label) {
    const b = ctx.state.rules.barrier;
    if (choice === "damage") {
      const n = await amount(`Damage to ${label}`);
      if (n) ctx.act({ type: "damage", target, amount: n });
    } else if (choice === "heal") {
      const n = await amount(`Heal ${label}`);
      if (n) ctx.act({ type: "heal", target, amount: n });
    } else if (choice === "wet" || choice === "dry") ctx.act({ type: "wet", target, on: choice === "wet" });
    else if (choice === "freeze" || choice === "thaw") ctx.act({ type: "freeze", target, on: choice === "freeze" });
    else if (choice === "zap") ctx.act({ type: "zap", target });
    else if (choice === "unshield") ctx.act({ type: "unshield", target });
    else if (choice === "shield") {
      const n = await amount(holder.barrier ? "Shield elements to repair it" : "Shield elements in the barrier",
        holder.barrier ? 1 : b.shield_cost, "Shield elements");
      if (n) ctx.act({ type: "shield", target, shields: n });
    }
  }

  async function magickaWizard(ctx, i) {
    const mine = ctx.state.players[i].tracker;
    const choices = mine.dead ? [] : statusChoices(mine);
    if (!mine.dead) choices.push({ value: "summon", label: "Summon a creature card\u2026" }, { value: "custom", label: "Summon another creature\u2026" });
    if (!choices.length) return ctx.toast(`${ctx.name(i)} is dead; their creatures fight on.`);
    const choice = await pick(ctx.name(i), choices);
    if (!choice) return;
    if (choice === "summon") {
      const summons = ctx.state.rules.spells.filter((s) => s.summon);
      const id = await pick(`${ctx.name(i)} summons`, summons.map((s) => ({
        value: s.id, label: s.creature || s.name, text: s.text || null,
        sub: `${s.cost.join(" \u00b7 ")} \u00b7 attack ${s.attack} \u00b7 health ${s.health}` })));
      const card = summons.find((s) => s.id === id);
      if (!card) return;
      if (!card.grows || !card.grows_with) return ctx.act({ type: "summon", owner: i, card: card.id });
      // Its card says it grows from extra elements paid: ask only how many were paid.
      const values = await ask({
        title: `${ctx.name(i)} summons ${card.creature || card.name}`, note: card.text,
        fields: [{ name: "extra", type: "number", label: `Extra ${card.grows_with} paid beyond the cost`, min: 0, max: 20, value: 0 }],
        submit: "Summon",
      });
      if (values) ctx.act({ type: "summon", owner: i, card: card.id, extra: values.extra });
    } else if (choice === "custom") {
      const values = await ask({
        title: `${ctx.name(i)} summons`,
        fields: [
          { name: "name", type: "text", label: "Name", value: "Creature", required: true },
          { name: "attack", type: "number", label: "Attack", min: 0, max: 100, value: 1 },
          { name: "health", type: "number", label: "Health", min: 1, max: 100, value: 1 },
        ],
        submit: "Summon",
      });
      if (values) ctx.act({ type: "summon", owner: i, name: values.name, attack: values.attack, health: values.health });
    } else statusAction(ctx, choice, i, mine, ctx.name(i));
  }

  async function magickaUnit(ctx, unit) {
    const label = `${ctx.name(unit.owner)}'s ${unit.name}`;
    const choices = [
      { value: "attack", label: `Attack (${unit.attack})\u2026`, disabled: !unit.ready,
        sub: unit.ready ? null : "only on its summoner's turn, not the turn it arrived, once a turn" },
      ...statusChoices(unit),
      { value: "remove", label: "Leaves play" },
    ];
    const choice = await pick(label, choices);
    if (!choice) return;
    if (choice === "attack") {
      const t = ctx.state.tracker;
      const targets = [
        ...playerOptions(ctx, (i, p) => !p.tracker.dead),
        ...t.units.filter((u) => u.id !== unit.id).map((u) => ({ value: u.id, label: `${ctx.name(u.owner)}'s ${u.name}`, sub: `health ${u.health}` })),
      ];
      const target = await pick(`${unit.name} attacks\u2026`, targets);
      if (target !== null) ctx.act({ type: "attack", unit: unit.id, target });
    } else if (choice === "remove") ctx.act({ type: "remove", unit: unit.id });
    else statusAction(ctx, choice, unit.id, unit, label);
  }

  // ---------------------------------------------------------------- Sorcerer Duel

  function sorcerer(ctx, panel, extras) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    if (t.over) panel.append(banner(t.winner !== null ? `${ctx.name(t.winner)} wins the duel!` : "Both sorcerers fell.", "win"));
    if (t.player !== null) {
      panel.append(h("div", { class: "t-head" }, h("span", { class: "t-title" }, `Turn ${t.turn}: ${ctx.name(t.player)}`),
        h("span", { class: "t-sub" }, t.draw.skipped ? "goes first: no draw this turn" :
          `draw ${plural(t.draw.count, "card")} (not with ${t.draw.limit} in hand)`)));
      panel.append(row(
        h("span", { class: "t-line" }, `Converted ${t.conversions} of ${r.max_conversions}`),
        !t.over ? button(`Convert +${r.mana_per_conversion} mana`, () => ctx.act({ type: "convert", player: t.player }),
          { cls: "small", act: "convert", disabled: t.conversions >= r.max_conversions }) : null));
    }
    if (!t.over) {
      if (t.player === null && t.next === null) {
        panel.append(h("p", { class: "hint" }, "Who goes first? Draw it under Dice, or start their turn:"));
        panel.append(row(...state.players.map((p, i) => button(`${p.name} starts`, () => ctx.act({ type: "start_turn", player: i }), { cls: "primary", act: "first-turn" }))));
      } else {
        panel.append(button(`Start ${ctx.name(t.next)}'s turn \u25b8`, () => ctx.act({ type: "start_turn", player: t.next }),
          { cls: "big primary wide", act: "next-turn", sub: `mana back to ${r.mana_per_turn}` }));
      }
    }
    state.players.forEach((p, i) => {
      const box = extras[i];
      if (!box) return;
      const chips = [];
      if (t.player === i) chips.push(chip("their turn", "accent"));
      if (t.first === i) chips.push(chip("went first"));
      if (p.tracker.out) chips.push(chip("fallen", "down"));
      box.append(h("div", { class: "chips" }, chips));
      const list = h("ul", { class: "units" });
      for (const unit of t.units.filter((u) => u.owner === i)) {
        const stats = unit.kind === "creature" ? [`\u2694 ${unit.attack}`, `\u2665 ${unit.health}/${unit.max}`] : [`blocker \u2665 ${unit.health}/${unit.max}`];
        if (unit.kind === "creature") stats.push(unit.ready ? "ready" : unit.turn === t.turn && !unit.haste ? `arrived turn ${unit.turn}` : null);
        list.append(h("li", {}, h("button", {
          type: "button", class: "unit " + unit.kind, dataset: { unit: unit.id }, onclick: () => sorcererUnit(ctx, unit),
          "aria-label": `${unit.name}: ${stats.filter(Boolean).join(", ")}`,
        }, h("span", { class: "unit-name" }, unit.name), unitLine(unit, stats))));
      }
      box.append(list);
      if (t.player === i && !t.over) {
        box.append(row(button("Summon\u2026", () => sorcererSummon(ctx, i), { cls: "small", act: "summon", aria: `Summon for ${ctx.name(i)}` }),
          button("Cast\u2026", () => sorcererCast(ctx, i), { cls: "small", act: "cast", aria: `Cast for ${ctx.name(i)}` })));
      }
    });
  }

  function deckCards(ctx, i, types) {
    const deck = ctx.state.players[i].options.deck;
    return ((ctx.state.rules.decks[deck] || {}).cards || []).filter((c) => types.includes(c.type));
  }

  async function sorcererSummon(ctx, i) {
    const mana = ctx.state.players[i].counters.mana;
    const cards = deckCards(ctx, i, ["creature", "blocker"]);
    const values = await ask({
      title: `${ctx.name(i)} summons (${mana} mana)`,
      fields: [
        { name: "card", type: "choice", list: true, label: "From the deck", required: true,
          options: cards.map((c) => ({ value: c.id, label: c.name, disabled: c.cost > mana, text: cardText(c),
            sub: `${c.cost} mana \u00b7 ` + (c.type === "creature" ? `\u2694 ${c.attack} \u2665 ${c.health}` : `blocker \u2665 ${c.health}`) })) },
      ],
      submit: "Summon",
    });
    if (values) ctx.act({ type: "summon", player: i, card: values.card });
  }

  // A card's own words, as its card prints them: its text, and what happens when it dies.
  function cardText(c) {
    return [c.text, c.death ? `When it dies: ${c.death}` : null].filter(Boolean).join(" ") || null;
  }

  // A one-target attack aims at a sorcerer or a creature, never a blocker: the blockers of that side take it first.
  function sorcererTargets(ctx, i) {
    const t = ctx.state.tracker;
    const foes = ctx.state.players.map((p, j) => j).filter((j) => j !== i);
    const guarded = (j) => t.units.some((u) => u.owner === j && u.kind === "blocker");
    const first = (j) => guarded(j) ? " \u00b7 blockers take it first" : "";
    return [
      ...foes.map((j) => ({ value: j, label: ctx.name(j), sub: `the sorcerer${first(j)}` })),
      ...t.units.filter((u) => u.owner !== i && u.kind === "creature").map((u) => ({
        value: u.id, label: `${ctx.name(u.owner)}'s ${u.name}`, sub: `health ${u.health}${first(u.owner)}` })),
    ];
  }

  async function sorcererCast(ctx, i) {
    const mana = ctx.state.players[i].counters.mana;
    const spells = deckCards(ctx, i, ["attack-spell"]);
    const card = await pick(`${ctx.name(i)} casts (${mana} mana)`, spells.map((c) => ({
      value: c.id, label: c.name, disabled: c.cost > mana, text: cardText(c),
      sub: `${c.cost} mana \u00b7 ${c.damage} damage` + (c.target === "side" ? " to a whole side" : ""),
    })));
    if (!card) return;
    const spell = spells.find((c) => c.id === card);
    if (spell.target === "side") {
      const foe = ctx.state.players.findIndex((p, j) => j !== i);
      ctx.act({ type: "cast", player: i, card, target: foe });
      return;
    }
    const target = await pick(`${spell.name} at\u2026`, sorcererTargets(ctx, i));
    if (target !== null) ctx.act({ type: "cast", player: i, card, target });
  }

  async function sorcererUnit(ctx, unit) {
    const choices = [];
    if (unit.kind === "creature") {
      choices.push({ value: "attack", label: `Attack (${unit.attack})\u2026`, disabled: !unit.ready,
        sub: unit.ready ? null : "on its owner's turn, not the turn it arrived, once a turn" });
    }
    choices.push(
      { value: "hit", label: "Damage\u2026" },
      { value: "heal", label: "+1 health", disabled: unit.health >= unit.max },
      { value: "remove", label: "Destroyed", sub: unit.kind === "creature" ? "its owner draws" : null },
    );
    const choice = await pick(`${ctx.name(unit.owner)}'s ${unit.name}`, choices);
    if (choice === "attack") {
      const target = await pick(`${unit.name} attacks\u2026`, sorcererTargets(ctx, unit.owner));
      if (target !== null) ctx.act({ type: "attack", unit: unit.id, target });
    } else if (choice === "hit") {
      const n = await amount(`Damage to ${unit.name}`);
      if (n) ctx.act({ type: "unit", unit: unit.id, delta: -n });
    } else if (choice === "heal") ctx.act({ type: "unit", unit: unit.id, delta: 1 });
    else if (choice === "remove") ctx.act({ type: "remove", unit: unit.id });
  }

  // ---------------------------------------------------------------- PowerMage 54

  function powermage(ctx, panel, extras) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    if (t.over) panel.append(banner(t.winner !== null ? `${ctx.name(t.winner)} wins!` : "Everyone is defeated.", "win"));
    if (!t.over) {
      panel.append(row(
        button("Attack\u2026", () => powermageAttack(ctx), { cls: "big primary", act: "attack" }),
        button("Heal\u2026", () => powermageHeal(ctx), { cls: "big", act: "heal" })));
      panel.append(button("The draw deck ran out", async () => {
        const ok = await ask({ title: "Halve everyone's points?", note: `Everyone still in the game: points divided by ${r.divisor}, rounding down.`, submit: "Halve everyone's points", danger: true });
        if (ok) ctx.act({ type: "halve" });
      }, { cls: "wide", act: "halve", sub: `everyone's points \u00f7 ${r.divisor}` }));
    }
    if (t.halvings) panel.append(h("p", { class: "hint" }, `The deck has run out ${plural(t.halvings, "time")}.`));
    state.players.forEach((p, i) => {
      if (extras[i] && p.tracker.defeated) extras[i].append(h("div", { class: "chips" }, chip("defeated", "down")));
    });
  }

  function cardOptions(cards, key, none = null) {
    const sub = (c) => key === "multiplier" ? `\u00d7${c.multiplier}` : key === "value" ? String(c.value) : null;
    const options = (cards || []).map((c) => ({ value: c.id, label: c.name, sub: sub(c) }));
    return none ? [{ value: null, label: none }, ...options] : options;
  }

  function thumpFields(r, prefix, label) {
    // A thump, and the PowerMage shown for it when the game's YAML asks for one.
    const fields = [{ name: prefix + "thump", type: "choice", label: `${label} thump`, value: null, options: cardOptions(r.cards.thump, "multiplier", "None") }];
    if (r.thump_needs_powermage) {
      fields.push({ name: prefix + "powermage", type: "choice", label: `PowerMage shown for the ${label.toLowerCase()} thump`, value: null,
        options: cardOptions(r.cards.powermage, "name", "None") });
    }
    return fields;
  }

  async function powermageAttack(ctx) {
    const { cards } = ctx.state.rules;
    const inGame = (i, p) => !p.tracker.defeated;
    const attacker = defaultPlayer(ctx, null);
    const values = await ask({
      title: "Attack",
      fields: [
        { name: "attacker", type: "choice", compact: true, label: "Attacker", value: attacker, options: playerOptions(ctx, inGame), required: true },
        { name: "target", type: "choice", compact: true, label: "Attacked", options: playerOptions(ctx, inGame), required: true },
        { name: "attack", type: "choice", label: "Attack card", options: cardOptions(cards.attack, "value"), required: true },
        ...thumpFields(ctx.state.rules, "", "Attack"),
        { name: "defense", type: "choice", label: "Defense card", value: null, options: cardOptions(cards.defense, "value", "None") },
        ...thumpFields(ctx.state.rules, "defense_", "Defense"),
      ],
      submit: "Attack",
    });
    if (!values) return;
    const action = { type: "attack", attacker: values.attacker, target: values.target, attack: values.attack };
    for (const key of ["thump", "powermage", "defense", "defense_thump", "defense_powermage"]) if (values[key]) action[key] = values[key];
    ctx.act(action);
  }

  async function powermageHeal(ctx) {
    const { cards } = ctx.state.rules;
    const values = await ask({
      title: "A health card",
      fields: [
        { name: "player", type: "choice", compact: true, label: "Played by", value: defaultPlayer(ctx, null), options: playerOptions(ctx, (i, p) => !p.tracker.defeated), required: true },
        { name: "health", type: "choice", label: "Health card", options: cardOptions(cards.health, "value"), required: true },
        ...thumpFields(ctx.state.rules, "", "Health card's"),
      ],
      submit: "Heal",
    });
    if (!values) return;
    const action = { type: "heal", player: values.player, health: values.health };
    for (const key of ["thump", "powermage"]) if (values[key]) action[key] = values[key];
    ctx.act(action);
  }

  // ---------------------------------------------------------------- Powers Combined

  function powers(ctx, panel) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    const challenge = state.counters.challenge;
    if (t.outcome === "won") panel.append(banner("The caves are cleared: the party wins!", "win"));
    if (t.outcome === "lost") panel.append(banner("No lives left: the party has lost.", "lose"));
    panel.append(h("div", { class: "t-head" },
      h("span", { class: "t-title" }, `Challenge ${challenge} of ${r.last}`),
      h("span", { class: "t-sub" }, `Level ${t.level.number}: ${t.level.name} \u00b7 ` +
        (t.level.modifiers ? `add ${plural(t.level.modifiers, "modifier")} to the challenge` : "no modifiers on the challenge"))));
    panel.append(h("p", { class: "hint" }, `Each player submits ${plural(t.submit, "card")} this turn.`));
    const card = r.challenges.find((c) => c.id === t.card);
    const face = h("button", { type: "button", class: "challenge-card", onclick: () => faceSheet(ctx), "data-act": "face" },
      card ? [h("b", {}, card.name), h("span", {}, `${card.element} \u00b7 power ${card.power} \u00b7 ${plural(card.runes, "rune")}`)]
        : [h("b", {}, "Which card is face up?"), h("span", {}, "tap to choose (optional)")]);
    panel.append(face);
    if (card && t.matchup) {
      const parts = [];
      if (t.matchup.weak_to.length) parts.push(`weak to ${t.matchup.weak_to.join(", ")} (\u00d7${r.weakness_multiplier})`);
      if (t.matchup.resists.length) parts.push(`resists ${t.matchup.resists.join(", ")} (\u00f7${r.resistance_divisor}, rounding down)`);
      panel.append(h("p", { class: "hint" }, parts.join(" \u00b7 ")));
    }
    if (t.over) return;
    panel.append(row(
      h("span", { class: "t-line" }, `Runes spent: ${t.spent} of ${r.rune_limit} this turn`),
      button("Spend a rune", () => ctx.act({ type: "spend_rune" }),
        { cls: "small", act: "spend-rune", disabled: t.spent >= r.rune_limit || state.counters.runes <= 0 })));
    panel.append(row(
      button("Beaten", () => beaten(ctx, card), { cls: "big primary", act: "beaten", sub: card ? `+${plural(card.runes, "rune")}` : null }),
      button("Failed", async () => {
        const ok = await ask({ title: `Failed challenge ${challenge}?`, note: "The party loses a life, and the challenge stays.", submit: "Lose a life", danger: true });
        if (ok) ctx.act({ type: "resolve", result: "lost" });
      }, { cls: "big", act: "failed", sub: "\u22121 life" })));
  }

  async function faceSheet(ctx) {
    const { rules } = ctx.state;
    const choice = await pick("The face-up challenge card", [
      ...rules.challenges.map((c) => ({ value: c.id, label: c.name, sub: `${c.element} \u00b7 power ${c.power} \u00b7 ${plural(c.runes, "rune")}` })),
      { value: "", label: "None" },
    ]);
    if (choice !== null) ctx.act({ type: "face", card: choice || null });
  }

  async function beaten(ctx, card) {
    const { rules } = ctx.state;
    const fields = card
      ? [{ name: "double_up", type: "check", label: `A Double Up! is on the challenge (runes \u00d7${rules.double_up_on_challenge})` }]
      : [{ name: "runes", type: "number", label: "Runes it gives", min: 0, max: rules.rune_tokens, value: 1 }];
    const values = await ask({ title: "The party beat the challenge", fields, submit: "Take the runes" });
    if (!values) return;
    const action = { type: "resolve", result: "won" };
    if (card) action.double_up = values.double_up;
    else action.runes = values.runes;
    ctx.act(action);
  }

  // ---------------------------------------------------------------- a game of YAML alone
  // A draw pile for each deck (spellpress/core/games/generic/tracker.py): draw a card face up for
  // the table, discard it, gather and reshuffle the deck; the order stays on the server.

  function generic(ctx, panel) {
    const { state } = ctx;
    const decks = state.rules.decks;
    for (const [id, deck] of Object.entries(decks)) {
      const pile = state.tracker.piles[id];
      const names = Object.fromEntries(deck.cards.map((c) => [c.id, c]));
      const left = plural(pile.left, "card") + " left" + (pile.discard.length ? ` · ${pile.discard.length} discarded` : "");
      panel.append(h("h3", { class: "t-title" }, deck.name, " ", h("span", { class: "hint" }, left)));
      const faceUp = h("div", { class: "chips", "aria-label": `${deck.name}: face up` });
      pile.face_up.forEach((cardId) => {
        const card = names[cardId] || { name: cardId, text: "" };
        faceUp.append(button(card.name, async () => {
          const done = await pick(card.name, [{ value: "discard", label: "Discard it", cls: "primary" }, { value: null, label: "Keep it face up" }], card.text || null);
          if (done === "discard") ctx.act({ type: "discard", deck: id, card: cardId, player: ctx.me ?? null });
        }, { cls: "small", act: "face-up", aria: `${card.name}, face up from ${deck.name}: read or discard` }));
      });
      if (pile.face_up.length) panel.append(faceUp);
      panel.append(row(
        button("Draw", () => ctx.act({ type: "draw", deck: id, player: ctx.me ?? null }), {
          cls: "big primary", act: "draw", disabled: pile.shuffled && pile.left === 0,
          aria: `Draw from ${deck.name}, ${left}`,
        }),
        button("Discard all", () => ctx.act({ type: "discard", deck: id, player: ctx.me ?? null }), {
          cls: "big", act: "discard-all", disabled: !pile.face_up.length, aria: `Discard every face-up card of ${deck.name}`,
        }),
        button("Reshuffle\u2026", async () => {
          const ok = await ask({ title: `Reshuffle ${deck.name}?`, note: "Every card of the deck, face up and discarded too, goes back and is shuffled.", submit: "Reshuffle" });
          if (ok) ctx.act({ type: "reshuffle", deck: id, player: ctx.me ?? null });
        }, { cls: "big", act: "reshuffle", aria: `Gather and reshuffle ${deck.name}` })));
    }
  }

  // ---------------------------------------------------------------- drawing it all

  const RENDER = {
    "spellchamber": spellchamber,
    "magicka-mayhem": magicka,
    "sorcerer-duel": sorcerer,
    "powermage-54": powermage,
    "powers-combined": powers,
    "generic": generic,
  };

  const HEADLINE = {
    "spellchamber": spellchamberHeadline,
  };

  function render(ctx) {
    const panel = document.getElementById("tracker");
    if (!panel) return;
    const sub = document.getElementById("table-sub");
    const headline = HEADLINE[ctx.state.ruleset] && ctx.state.tracker ? HEADLINE[ctx.state.ruleset](ctx) : null;
    if (sub) {
      if (!sub.dataset.options) sub.dataset.options = sub.textContent;
      sub.textContent = headline || sub.dataset.options;
      sub.hidden = !sub.textContent;
    }
    const draw = RENDER[ctx.state.ruleset];
    if (!draw || !ctx.state.tracker) {
      panel.hidden = true;
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
    draw(ctx, fresh, extras);
    bringBack(ctx, extras);
    if (ctx.state.tracker.over && !ctx.state.reopened && ctx.me !== null) {
      fresh.append(button("New game, same players", () => document.getElementById("new-game").click(),
        { cls: "big primary wide", act: "new-game" }));
    }
    panel.replaceChildren(fresh);
    panel.hidden = false;
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

  return { render, ask, pick, h };
})();
