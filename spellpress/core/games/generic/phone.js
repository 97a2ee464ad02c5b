// A game of YAML alone on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, chip, row, plural, ask, pick }) {
  // A draw pile for each deck (spellpress/core/games/generic/tracker.py): draw a card face up for
  // the table, discard it, gather and reshuffle the deck; the order stays on the server. Where the
  // game's YAML says how it ends, how is said, who is out is marked, and the winner is named.

  const finished = (state) => Boolean(state.tracker.over && !state.reopened);

  function label(state, counter) {
    const spec = state.counter_specs.find((c) => c.id === counter);
    return spec ? spec.label : counter;
  }

  // "Out at Health 0 or less · first to 6 Points wins · the last one standing wins"
  function howItEnds(state) {
    const end = state.rules.end;
    if (!end) return null;
    const said = [];
    if (end.out) said.push(`Out at ${label(state, end.out.counter)} ${end.out.value} or less`);
    if (end.reach) said.push(`first to ${end.reach.value} ${label(state, end.reach.counter)} wins`);
    if (end.out) said.push("the last one standing wins");
    return said.join(" \u00b7 ");
  }

  function generic(ctx, panel, extras) {
    const { state } = ctx;
    const decks = state.rules.decks;
    const over = finished(state);
    const ends = howItEnds(state);
    if (ends) panel.append(h("p", { class: "hint", "data-act": "how-it-ends" }, ends));
    state.players.forEach((p, i) => {
      if (extras && extras[i] && p.tracker && p.tracker.out) extras[i].append(h("div", { class: "chips" }, chip("out", "down")));
    });
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
      if (over) continue; // the piles rest once the game is over
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

  // The winner is said at the top once the game is over (state.end, in the rules core's words).
  window.SpellpressTrackers.register("generic", { render: generic });
})(window.SpellpressTrackers.parts);
