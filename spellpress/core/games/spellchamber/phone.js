// Spellchamber on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, chip, banner, row, plural, sum, ask, pick, tell, playerOptions }) {
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

  window.SpellpressTrackers.register("spellchamber", { render: spellchamber, headline: spellchamberHeadline });
})(window.SpellpressTrackers.parts);
