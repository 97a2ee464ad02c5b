// Powers Combined on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, row, plural, ask, pick }) {
  function powers(ctx, panel, extras, turn) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    const challenge = state.counters.challenge;
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
    if (t.target) {
      const laid = (t.laid || []).map((id) => spellCard(r, id).modifier);
      panel.append(h("p", { class: "t-line", "data-show": "target" },
        `To beat: ${t.target.power}, for ${plural(t.target.runes, "rune")}` + (laid.length ? ` (laid on it: ${laid.join(", ")})` : "")));
    }
    (t.spells || []).forEach((spell, i) => {
      const [element, power, mod] = [spell.element, spell.power, spell.modifier].map((id) => spellCard(r, id));
      const runes = spell.runes.map((id) => spellCard(r, id).modifier);
      panel.append(h("p", { class: "t-line", "data-show": "spell" },
        `Spell ${i + 1}: ${element.element} (${element.name}), power ${power.power} (${power.name}), ${mod.modifier} (${mod.name})` +
        (runes.length ? `, runes: ${runes.join(", ")}` : "") + ` = ${spell.total}`));
    });
    if (t.total != null && t.target) {
      panel.append(h("p", { class: "t-line", "data-show": "total" }, `Total ${t.total} against ${t.target.power}` +
        (t.more > 0 ? " \u00b7 Double Up!: the party may cast one more spell" : "")));
    }
    if (t.over) return;
    // The turn's controls, pinned where a thumb reaches them: a spell, then the challenge beaten or failed.
    if (t.target && t.more > 0) {
      turn.append(button(t.spells.length ? "Next spell" : "Cast a spell", () => castSheet(ctx),
        { act: "cast", sub: "element, power, modifier" }));
    }
    panel.append(row(
      h("span", { class: "t-line" }, `Runes spent: ${t.spent} of ${r.rune_limit} this turn`),
      button("Spend a rune", () => runeSheet(ctx),
        { cls: "small", act: "spend-rune", disabled: t.spent >= r.rune_limit || state.counters.runes <= 0 })));
    if (t.total != null && t.target) {
      const beatenNow = t.total >= t.target.power;
      turn.append(button("End the turn", () => ctx.act({ type: "resolve" }), {
        cls: "primary", act: "resolve", sub: beatenNow ? `beaten: +${plural(t.target.runes, "rune")}` : "failed: \u22121 life",
      }));
      return;
    }
    turn.append(
      button("Beaten", () => beaten(ctx, card), { cls: "primary", act: "beaten", sub: card ? `+${plural(card.runes, "rune")}` : null }),
      button("Failed", async () => {
        const ok = await ask({ title: `Failed challenge ${challenge}?`, note: "The party loses a life, and the challenge stays.", submit: "Lose a life", danger: true });
        if (ok) ctx.act({ type: "resolve", result: "lost" });
      }, { act: "failed", sub: "\u22121 life" }));
  }

  function spellCard(rules, id) {
    return rules.spells.find((c) => c.id === id) || { id, name: id, element: "?", power: 0, modifier: "?" };
  }

  function spellOptions(rules, shown) {
    return rules.spells.map((c) => ({ value: c.id, label: `${c.name}: ${shown(c)}` }));
  }

  async function castSheet(ctx) {
    const { rules } = ctx.state;
    const slots = [["element", (c) => c.element], ["power", (c) => `power ${c.power}`], ["modifier", (c) => c.modifier]];
    const values = await ask({
      title: "Cast a spell", submit: "Cast it", note: "One card gives the element, one the power, one the modifier.",
      fields: slots.map(([name, shown]) => ({ name, type: "select", label: `The ${name} card`, options: spellOptions(rules, shown), required: true, value: rules.spells[0].id })),
    });
    if (values) ctx.act({ type: "cast", element: values.element, power: values.power, modifier: values.modifier });
  }

  async function runeSheet(ctx) {
    const { rules, tracker } = ctx.state;
    if (!(tracker.spells || []).length) {
      ctx.act({ type: "spend_rune" });
      return;
    }
    const values = await ask({
      title: "Spend a rune", submit: "Flip it", note: "The flipped card's modifier joins the spell cast last.",
      fields: [{ name: "card", type: "select", label: "The card flipped", options: spellOptions(rules, (c) => c.modifier), required: true, value: rules.spells[0].id }],
    });
    if (values) ctx.act({ type: "spend_rune", card: values.card });
  }

  async function faceSheet(ctx) {
    const { rules } = ctx.state;
    const choice = await pick("The face-up challenge card", [
      ...rules.challenges.map((c) => ({ value: c.id, label: c.name, sub: `${c.element} \u00b7 power ${c.power} \u00b7 ${plural(c.runes, "rune")}` })),
      { value: "", label: "None" },
    ]);
    if (choice === null) return;
    const laying = ctx.state.tracker.level.modifiers;
    if (!choice || !laying) {
      ctx.act(choice ? { type: "face", card: choice, modifiers: [] } : { type: "face", card: null });
      return;
    }
    const values = await ask({
      title: "The cards laid on it", submit: "Lay them",
      note: `Its level lays ${plural(laying, "modifier")} from the top of the spell deck. Cancel to name the card alone.`,
      fields: Array.from({ length: laying }, (_, i) => ({
        name: `laid${i}`, type: "select", label: `Card ${i + 1}`, options: spellOptions(rules, (c) => c.modifier), required: true, value: rules.spells[0].id,
      })),
    });
    ctx.act(values ? { type: "face", card: choice, modifiers: Array.from({ length: laying }, (_, i) => values[`laid${i}`]) } : { type: "face", card: choice });
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

  window.SpellpressTrackers.register("powers-combined", { render: powers });
})(window.SpellpressTrackers.parts);
