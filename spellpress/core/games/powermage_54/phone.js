// PowerMage 54 on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, chip, plural, ask, playerOptions, defaultPlayer }) {
  function powermage(ctx, panel, extras, turn) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    const kept = state.options.turns === "on";
    if (!t.over && kept) {
      const first = t.player !== null ? t.player : state.first_player;
      panel.append(t.player !== null
        ? h("div", { class: "t-head" }, h("span", { class: "t-title" }, `Turn ${t.turns}: ${ctx.name(t.player)}`),
          h("span", { class: "t-sub" }, `round ${t.rounds}; one action play, then the next player`))
        : h("p", { class: "hint" }, first !== null ? `${ctx.name(first)} goes first.` : "The first play begins turn 1: draw who goes first under Dice, or just play."));
    }
    if (!t.over) {
      // A turn's plays, pinned where a thumb reaches them.
      const whose = kept && t.player !== null ? `End ${ctx.name(t.player)}'s turn` : "End a turn";
      turn.append(
        button("Attack\u2026", () => powermageAttack(ctx), { cls: "primary", act: "attack" }),
        button("Heal\u2026", () => powermageHeal(ctx), { act: "heal" }),
        button("Card\u2026", () => powermagePlay(ctx), { act: "play" }),
        button("End turn\u2026", () => powermageEnd(ctx), { act: "end-turn", aria: `${whose}: no action play, or an exchange` }));
      panel.append(button("The draw deck ran out", async () => {
        const ok = await ask({ title: "Halve everyone's points?", note: `Everyone still in the game: points divided by ${r.divisor}, rounding down.`, submit: "Halve everyone's points", danger: true });
        if (ok) ctx.act({ type: "halve" });
      }, { cls: "wide", act: "halve", sub: `everyone's points \u00f7 ${r.divisor}` }));
    }
    if (t.halvings) panel.append(h("p", { class: "hint" }, `The deck has run out ${plural(t.halvings, "time")}.`));
    state.players.forEach((p, i) => {
      if (extras[i] && p.tracker.defeated) extras[i].append(h("div", { class: "chips" }, chip("defeated", "down")));
      else if (extras[i] && kept && !t.over && t.player === i) extras[i].append(h("div", { class: "chips" }, chip("their turn", "accent")));
    });
  }

  // The current player, who makes the turn's play (a phone may make it for them).
  const current = (ctx) => ctx.state.tracker.player !== null ? ctx.state.tracker.player : defaultPlayer(ctx, ctx.state.first_player);
  const withEffect = (r, ...effects) => [...(r.cards.action || []), ...r.cards.powermage].filter((c) => effects.includes(c.effect));
  const playing = (r, kind) => [...r.cards[kind], ...withEffect(r, "as-card")];
  const inGame = (i, p) => !p.tracker.defeated;

  function cardOptions(cards, key, none = null) {
    const sub = (c) => key === "multiplier" ? `\u00d7${c.multiplier ?? c.times}` : key === "value" ? String(c.value ?? c.worth) : null;
    const options = (cards || []).map((c) => ({ value: c.id, label: c.name, sub: sub(c) }));
    return none ? [{ value: null, label: none }, ...options] : options;
  }

  function thumpFields(r, prefix, label, magnify = false) {
    // A thump (or Magnifier, with an Attack or Defense card), and the PowerMage shown for it when the game's YAML asks for one.
    const thumps = magnify ? [...r.cards.thump, ...withEffect(r, "multiply")] : r.cards.thump;
    const fields = [{ name: prefix + "thump", type: "choice", label: `${label} thump`, value: null, options: cardOptions(thumps, "multiplier", "None") }];
    if (r.thump_needs_powermage) {
      fields.push({ name: prefix + "powermage", type: "choice", label: `PowerMage shown for the ${label.toLowerCase()} thump`, value: null,
        options: cardOptions(r.cards.powermage, "name", "None") });
    }
    return fields;
  }

  async function powermageAttack(ctx) {
    const r = ctx.state.rules;
    const pairs = withEffect(r, "two-cards").length > 0;  // Annihilator: two cards at once
    const second = (name, kind) => pairs ? [{ name, type: "choice", label: `Second ${kind} card (a pair)`, value: null, options: cardOptions(playing(r, kind), "value", "None") }] : [];
    const gains = withEffect(r, "gain");
    const redirects = withEffect(r, "redirect");
    const values = await ask({
      title: "Attack",
      fields: [
        { name: "attacker", type: "choice", compact: true, label: "Attacker", value: current(ctx), options: playerOptions(ctx, inGame), required: true },
        { name: "target", type: "choice", compact: true, label: "Attacked", options: playerOptions(ctx, inGame), required: true },
        { name: "attack", type: "choice", label: "Attack card", options: cardOptions(playing(r, "attack"), "value"), required: true },
        ...second("second", "attack"),
        ...thumpFields(r, "", "Attack", true),
        ...(redirects.length ? [
          { name: "redirect", type: "choice", label: "Sent on by the attacked player with", value: null, options: cardOptions(redirects, "name", "Not sent on") },
          { name: "to", type: "choice", compact: true, label: "Sent on to", value: null, options: playerOptions(ctx, inGame) }] : []),
        ...(gains.length ? [{ name: "gain", type: "choice", label: "Turned into a gain with", value: null, options: cardOptions(gains, "name", "None") }] : []),
        { name: "defense", type: "choice", label: "Defense card", value: null, options: cardOptions(playing(r, "defense"), "value", "None") },
        ...second("defense_second", "defense"),
        ...thumpFields(r, "defense_", "Defense", true),
      ],
      submit: "Attack",
    });
    if (!values) return;
    const action = { type: "attack", attacker: values.attacker, target: values.target, attack: values.attack };
    for (const key of ["second", "thump", "powermage", "gain", "defense", "defense_second", "defense_thump", "defense_powermage"]) if (values[key]) action[key] = values[key];
    if (values.redirect) action.redirects = [{ card: values.redirect, to: values.to }];
    ctx.act(action);
  }

  async function powermagePlay(ctx) {
    // An action card or a PowerMage's ability as the turn's action play; Blister's target answers it here too.
    const r = ctx.state.rules;
    const cards = [...(r.cards.action || []), ...r.cards.powermage].filter((c) => c.timing === "on your turn");
    const answers = withEffect(r, "unblockable").length ? [
      { name: "cancel", type: "choice", label: "Against an attack that cannot be defended: cancelled with", value: null,
        options: cardOptions(r.cards.powermage.filter((c) => c.cancels_unblockable), "name", "Not cancelled") },
      { name: "give_up", type: "choice", label: "or the PowerMage given up", value: null, options: cardOptions(r.cards.powermage, "name", "None: the points are lost") }] : [];
    const values = await ask({
      title: "A card's ability",
      fields: [
        { name: "player", type: "choice", compact: true, label: "Played by", value: current(ctx), options: playerOptions(ctx, inGame), required: true },
        { name: "card", type: "choice", label: "Card", options: cardOptions(cards, "name"), required: true },
        { name: "target", type: "choice", compact: true, label: "Aimed at (a card aimed at a player)", value: null, options: playerOptions(ctx, inGame) },
        ...answers,
      ],
      submit: "Play it",
    });
    if (!values) return;
    const action = { type: "play", player: values.player, card: values.card };
    for (const key of ["target", "cancel", "give_up"]) if (values[key] !== null && values[key] !== undefined) action[key] = values[key];
    ctx.act(action);
  }

  async function powermageEnd(ctx) {
    // A turn with no action play: after an exchange, the discarded cards are shown.
    const r = ctx.state.rules;
    const every = Object.values(r.cards).flat();
    const shown = Array.from({ length: r.exchange }, (_, i) => ({ name: `card${i}`, type: "choice", label: `Exchanged card ${i + 1}`, value: null, options: cardOptions(every, "name", "None") }));
    const values = await ask({
      title: "End the turn",
      fields: [
        { name: "player", type: "choice", compact: true, label: "Whose turn", value: current(ctx), options: playerOptions(ctx, inGame), required: true },
        { type: "note", text: `An exchange discards ${plural(r.exchange, "card")} and draws as many, and ends the turn: name them, or none.` },
        ...shown,
      ],
      submit: "End the turn",
    });
    if (!values) return;
    const exchanged = shown.map((f) => values[f.name]).filter(Boolean);
    ctx.act({ type: "end_turn", player: values.player, ...(exchanged.length ? { exchanged } : {}) });
  }

  async function powermageHeal(ctx) {
    const { cards } = ctx.state.rules;
    const values = await ask({
      title: "A health card",
      fields: [
        { name: "player", type: "choice", compact: true, label: "Played by", value: current(ctx), options: playerOptions(ctx, inGame), required: true },
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
