// Magicka Mayhem on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, turnButton, chip, row, plural, ask, pick, playerOptions, defaultPlayer, unitLine, amount }) {
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

  function magicka(ctx, panel, extras, turn) {
    const { state } = ctx;
    const t = state.tracker;
    panel.append(row(
      h("span", { class: "t-turn" }, t.turn ? ["Turn ", String(t.turn), ": ", h("b", {}, ctx.name(t.player))] : "No turn yet")));
    panel.append(row(
      h("span", { class: "t-line" }, h("b", {}, t.level.name), ": ", chanceText(t.level)),
      button("Change", () => levelSheet(ctx), { cls: "small", act: "level" })));
    // The turn's controls, pinned where a thumb reaches them: the next wizard's turn, and a muster.
    if (!t.over && t.next !== null) {
      turn.append(turnButton(t.turn ? "Next turn \u25b8" : "First turn \u25b8", ctx.name(t.next),
        () => ctx.act({ type: "start_turn", player: t.next }), {
          cls: "primary", act: "next-turn", sub: state.players[t.next].tracker.frozen ? "frozen: skips it" : null,
        }));
    }
    if (!t.over) turn.append(button("Mayhem Muster\u2026", () => musterSheet(ctx), { cls: "primary", act: "muster" }));
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
    if (!mine.dead) {
      choices.push({ value: "cast", label: "Cast a spell card\u2026", sub: "on their turn: mustered, and its card applied" },
        { value: "snap", label: "Cast a snap spell\u2026" });
      choices.push({ value: "summon", label: "Summon a creature card\u2026" }, { value: "custom", label: "Summon another creature\u2026" });
    }
    if (!choices.length) return ctx.toast(`${ctx.name(i)} is dead; their creatures fight on.`);
    const choice = await pick(ctx.name(i), choices);
    if (!choice) return;
    if (choice === "cast" || choice === "snap") return castSheet(ctx, i, choice);
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

  function targets(ctx, keep) {
    // Whom a spell may land on: the living wizards and every creature in play.
    const t = ctx.state.tracker;
    return [
      ...playerOptions(ctx, (i, p) => !p.tracker.dead && keep(i)),
      ...t.units.filter((u) => keep(u.owner)).map((u) => ({ value: u.id, label: `${ctx.name(u.owner)}'s ${u.name}`, sub: `health ${u.health}` })),
    ];
  }

  async function castSheet(ctx, i, kind) {
    const { rules } = ctx.state;
    const spells = kind === "cast"
      ? rules.spells.filter((s) => !s.summon).map((s) => ({ value: s.id, label: s.name, sub: s.cost.join(" \u00b7 "), text: s.text || null }))
      : Object.entries(rules.effects || {}).filter(([, e]) => e.element).map(([id, e]) => ({ value: id, label: e.name, sub: `${rules.snap_cost || 2} ${e.element}` }));
    const spell = await pick(`${ctx.name(i)} casts`, spells);
    if (spell === null || spell === undefined) return;
    const target = await pick("At\u2026", targets(ctx, () => true));
    if (target === null || target === undefined) return;
    if (kind === "cast") return ctx.act({ type: "cast", caster: i, spell, target });
    const effect = rules.effects[spell];
    let extra = 0;
    if (effect.heal_per_extra || effect.raises_barrier) {
      const values = await ask({ title: effect.name, fields: [{ name: "extra", type: "number", label: `Extra ${effect.element} paid`, min: 0, max: 20, value: 0 }], submit: "Cast" });
      if (!values) return;
      extra = values.extra;
    }
    ctx.act({ type: "snap", caster: i, snap: spell, target, extra });
  }

  async function magickaUnit(ctx, unit) {
    const label = `${ctx.name(unit.owner)}'s ${unit.name}`;
    const choices = [
      { value: "attack", label: `Attack (${unit.attack})\u2026`, disabled: !unit.ready,
        sub: unit.ready ? null : "only on its summoner's turn, not the turn it arrived, once a turn" },
      ...statusChoices(unit),
      { value: "remove", label: "Leaves play" },
    ];
    const card = ctx.state.rules.spells.find((s) => s.id === unit.card);
    if (card && card.tends) choices.unshift({ value: "tend", label: `Tend (heal ${card.tends})\u2026`, sub: "once in each of its wizard's turns" });
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
    } else if (choice === "tend") {
      const target = await pick(`${unit.name} tends\u2026`, targets(ctx, (owner) => owner === unit.owner));
      if (target !== null && target !== undefined) ctx.act({ type: "tend", unit: unit.id, target });
    } else if (choice === "remove") ctx.act({ type: "remove", unit: unit.id });
    else statusAction(ctx, choice, unit.id, unit, label);
  }

  window.SpellpressTrackers.register("magicka-mayhem", { render: magicka });
})(window.SpellpressTrackers.parts);
