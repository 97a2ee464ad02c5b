// Powers Combined on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, banner, row, plural, ask, pick }) {
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

  window.SpellpressTrackers.register("powers-combined", { render: powers });
})(window.SpellpressTrackers.parts);
