// PowerMage 54 on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, chip, banner, row, plural, ask, playerOptions, defaultPlayer }) {
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

  window.SpellpressTrackers.register("powermage-54", { render: powermage });
})(window.SpellpressTrackers.parts);
