// Sorcerer Duel on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, turnButton, chip, row, plural, ask, pick, unitLine, amount }) {
  function sorcerer(ctx, panel, extras, turn) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    if (t.player !== null) {
      panel.append(h("div", { class: "t-head" }, h("span", { class: "t-title" }, `Turn ${t.turn}: ${ctx.name(t.player)}`),
        h("span", { class: "t-sub" }, t.draw.skipped ? "goes first: no draw this turn" :
          `draw ${plural(t.draw.count, "card")} (not with ${t.draw.limit} in hand)`)));
      const allowed = t.conversions_allowed ?? r.max_conversions;  // with the seat's sorcerer's extra
      panel.append(row(
        h("span", { class: "t-line" }, `Converted ${t.conversions} of ${allowed}`),
        !t.over && !t.ended ? button(`Convert +${r.mana_per_conversion} mana`, () => ctx.act({ type: "convert", player: t.player }),
          { cls: "small", act: "convert", disabled: t.conversions >= allowed }) : null));
      // The turn's controls, pinned where a thumb reaches them: the turn ended, then the next one started.
      if (!t.over && !t.ended) {
        turn.append(turnButton("End turn", ctx.name(t.player), () => ctx.act({ type: "end_turn", player: t.player }),
          { act: "end-turn", sub: "end-of-turn damage" }));
      }
    }
    for (const waiting of (t.pending || []).slice(0, 1)) {
      // a death's damage: its owner aims it before anything else is played
      panel.append(row(h("span", { class: "t-line" }, `${ctx.name(waiting.owner)} aims ${waiting.damage} damage (${waiting.source} died)`),
        button("Aim\u2026", () => sorcererAim(ctx, waiting), { cls: "small primary", act: "aim" })));
    }
    if (!t.over) {
      if (t.player === null && t.next === null) {
        panel.append(h("p", { class: "hint" }, "Who goes first? Draw it under Dice, or start their turn:"));
        turn.append(...state.players.map((p, i) => turnButton("Starts \u25b8", p.name, () => ctx.act({ type: "start_turn", player: i }),
          { cls: "primary", act: "first-turn", aria: `${p.name} starts` })));
      } else {
        turn.append(turnButton("Next turn \u25b8", ctx.name(t.next), () => ctx.act({ type: "start_turn", player: t.next }),
          { cls: "primary", act: "next-turn", sub: `mana back to ${r.mana_per_turn}` }));
      }
    }
    state.players.forEach((p, i) => {
      const box = extras[i];
      if (!box) return;
      const chips = [];
      if (t.player === i) chips.push(chip("their turn", "accent"));
      if (t.first === i) chips.push(chip("went first"));
      const told = (r.sorcerers || {})[p.options.sorcerer];
      if (told) chips.push(chip(told.name));
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
      if (t.player === i && !t.over && !t.ended) {
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
    if (!values) return;
    const card = cards.find((c) => c.id === values.card);
    if (card.needs_how !== "destroy") {
      ctx.act({ type: "summon", player: i, card: values.card });
      return;
    }
    // its requirement: one of the player's own units destroyed for it (the server says which may be)
    const own = ctx.state.tracker.units.filter((u) => u.owner === i);
    const sacrifice = await pick(`${card.name}: ${card.requirement || "destroy one of your own"}`,
      own.map((u) => ({ value: u.id, label: u.name, sub: `${u.kind} \u00b7 health ${u.health}` })));
    if (sacrifice !== null) ctx.act({ type: "summon", player: i, card: values.card, sacrifice });
  }

  async function sorcererAim(ctx, waiting) {
    const target = await pick(`${waiting.source}: ${waiting.damage} damage at\u2026`, sorcererTargets(ctx, waiting.owner));
    if (target !== null) ctx.act({ type: "aim", target });
  }

  // A card's own words, as its card prints them: its text, and what happens when it dies.
  function cardText(c) {
    return [c.requirement ? `To summon: ${c.requirement}` : null, c.text, c.death ? `When it dies: ${c.death}` : null]
      .filter(Boolean).join(" ") || null;
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

  window.SpellpressTrackers.register("sorcerer-duel", { render: sorcerer });
})(window.SpellpressTrackers.parts);
