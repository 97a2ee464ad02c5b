// Spellchamber on the phones: draws the state of this folder's tracker.py and sends its
// actions; every rule is the server's. Registered with the companion's trackers.js, whose shared
// parts it takes; text is only ever set with textContent, never as HTML.
"use strict";

(function ({ h, button, turnButton, chip, row, plural, sum, ask, pick, tell, playerOptions }) {
  function spellchamber(ctx, panel, extras, turn) {
    const { state } = ctx;
    const t = state.tracker;
    const r = state.rules;
    const kinds = r.kinds;
    const ammoName = (k) => r.ammo[k].name;
    const kindClass = (k) => "kind-" + kinds.indexOf(k);
    const short = shortNames(kinds.map(ammoName));

    if (t.round && !t.over) {
      const s = t.scenario;
      panel.append(h("div", { class: "t-head" },
        h("span", { class: "t-title" }, `Round ${t.round}`),
        h("span", { class: "t-sub" }, `${s.name} (#${s.number}) \u00b7 ${plural(s.spells_per_player, "spell")} each`)));
    }

    if (t.phase === "battle" && !t.over) {
      const spent = t.chamber.spent;
      const left = sum(kinds.map((k) => t.chamber.left[k]));
      const picks = (t.draft && t.draft.picks) || [];
      if (!spent.length && t.draft && t.draft.grid == null) {
        panel.append(h("p", { class: "hint" },
          `Draft: lay out ${t.draft.spells} spells; ${ctx.name(t.draft.first)} drafts first, then counter-clockwise.`));
        panel.append(button("Lay out the draft\u2026", () => layOutSheet(ctx), { cls: "small wide", act: "lay-out" }));
      } else if (picks.length) {
        const names = t.draft.grid.map((id) => (r.spells[id] || { name: id }).name);
        panel.append(h("p", { class: "hint" }, `Draft: ${ctx.name(picks[0])} picks from ${names.join(", ")}.`));
        turn.append(turnButton("Pick a spell\u2026", ctx.name(picks[0]), () => draftSheet(ctx), { cls: "primary", act: "pick" }));
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

      if (t.pending) {
        // A powered-up Ricochet: the card is turned up, and its holder chooses whom it hits.
        const shot = t.pending;
        const card = r.ammo[shot.card].name;
        panel.append(h("p", { class: "t-line" }, `${ctx.name(shot.shooter)} shot ${ctx.name(shot.target)}: ${card}! ` +
          `${ctx.name(shot.target)}'s powered-up Ricochet: whom does it hit?`));
        turn.append(
          turnButton("It hits them", ctx.name(shot.target), () => ctx.act({ type: "ricochet", player: shot.target, back: false }),
            { act: "ricochet-keep", aria: `${ctx.name(shot.target)} takes it` }),
          turnButton("Back at\u2026", ctx.name(shot.shooter), () => ctx.act({ type: "ricochet", player: shot.target, back: true }),
            { cls: "primary", act: "ricochet-back", aria: `Back at ${ctx.name(shot.shooter)}` }));
      }
      const battle = t.turn.player;
      const ghost = state.players[battle].tracker.ghost;
      panel.append(row(h("span", { class: "t-turn" }, "Battle turn: ", h("b", {}, ctx.name(battle))),
        t.turn.extra ? chip("extra turn", "accent") : null));
      if (!t.over && !t.pending && !picks.length) {
        // The battle turn's controls, pinned where a thumb reaches them: a spell, then the shot.
        turn.append(button("Play a spell\u2026", () => spellSheet(ctx), { act: "cast" }));
        if (ghost) {
          panel.append(h("p", { class: "hint" }, `${ctx.name(battle)} is a ghost: draft ${plural(r.ghost_drafts, "spell")} first, play spells, then end the turn.`));
          turn.append(turnButton("End the turn", ctx.name(battle), () => ctx.act({ type: "pass", player: battle }),
            { cls: "primary", act: "pass", aria: "End the ghost's turn" }));
        } else {
          turn.append(turnButton("Shoot\u2026", ctx.name(battle), () => shootSheet(ctx), { cls: "primary", act: "shoot" }));
        }
        const theirs = state.players[battle];
        const wizard = (r.wizards || {})[(theirs.options || {}).wizard];
        panel.append(button("Draft a spell\u2026", () => draftSheet(ctx), { cls: "small wide", act: "draft" }));
        if (wizard && wizard.effect && theirs.tracker.alive && theirs.tracker.powered) {
          panel.append(button(`Use ${wizard.power}\u2026`, () => powerSheet(ctx, wizard), { cls: "small wide", act: "use-power" }));
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
      turn.append(button(`Start round ${t.round + 1}`, () => ctx.act({ type: "start_round" }), { cls: "primary", act: "start-round" }));
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
      // the spells kept in front of them until their effects end, as the table keeps them
      (mine.wards || []).forEach(() => chips.append(chip("Warding Charm", "accent")));
      (mine.ricochets || []).forEach(() => chips.append(chip("Ricochet", "accent")));
      (mine.curses || []).forEach(() => chips.append(chip("Blood Curse", "down")));
      (mine.asleep || []).forEach(() => chips.append(chip("asleep", "down")));
      if (mine.misdirect !== null && mine.misdirect !== undefined) chips.append(chip(`Misdirection \u2192 ${ctx.name(mine.misdirect)}`, "accent"));
      if (mine.controlled !== null && mine.controlled !== undefined) chips.append(chip(`aimed by ${ctx.name(mine.controlled)}`, "down"));
      box.append(chips);
      const spells = r.spells || {};
      if ((mine.held || []).length) {
        box.append(h("p", { class: "muted" }, "Holds: " + mine.held.map((id) => (spells[id] || { name: id }).name).join(", ")));
      }
      if (mine.alive && !t.over) {
        box.append(button(mine.powered ? "Power down" : "Power up",
          () => ctx.act({ type: "power", player: i, up: !mine.powered }),
          { cls: "small", act: "power", aria: `${mine.powered ? "Power down" : "Power up"} ${ctx.name(i)}` }));
      }
    });
  }

  // The round and its scenario while the game goes on (the end is said at the top: state.end).
  function spellchamberHeadline(ctx) {
    const t = ctx.state.tracker;
    if (t.over || !t.round) return null;
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

  const TARGETED = ["mind-control", "sleep", "curse", "bolt", "siphon"]; // spells that choose another wizard

  // A spell the battle player plays: the table applies what its card says.
  async function spellSheet(ctx) {
    const { state } = ctx;
    const who = state.tracker.turn.player;
    const spells = state.rules.spells || {};
    const powered = state.players[who].tracker.powered;
    const held = [...new Set(state.players[who].tracker.held || [])];
    if (!held.length) { tell(`${ctx.name(who)} holds no spell`, ["Draft spells first: Draft a spell\u2026"]); return; }
    const spell = await pick(`${ctx.name(who)} plays\u2026`, held.map((id) => ({
      value: id, label: spells[id].name, disabled: spells[id].kind === "powered" && !powered,
      sub: spells[id].kind === "powered" ? "only while powered up" : spells[id].kind === "hybrid" ? "more while powered up" : null,
    })), "Play spells before you shoot; the table applies each.");
    if (!spell) return;
    const sent = { type: "cast", player: who, spell };
    if (TARGETED.includes(spells[spell].effect)) {
      const values = await ask({
        title: `${spells[spell].name}: choose another wizard`,
        fields: [{ name: "target", type: "choice", list: true, label: "Wizard", required: true,
          options: playerOptions(ctx, (i, p) => p.tracker.alive && i !== who) }],
        submit: "Play",
      });
      if (!values) return;
      sent.target = values.target;
    }
    look(ctx, who, await ctx.act(sent));
  }

  // A spell drafted by this phone's player (from the round's grid, a Magic shot, a ghost's turn):
  // into their slots, or discarded; held spells may go to make room.
  async function draftSheet(ctx) {
    const { state } = ctx;
    const draft = state.tracker.draft;
    const picking = draft && draft.picks && draft.picks.length;  // the round's grid, in its order
    const who = picking ? draft.picks[0] : ctx.me ?? state.tracker.turn.player;
    const spells = state.rules.spells || {};
    const held = state.players[who].tracker.held || [];
    const choices = picking ? [...new Set(draft.grid)] : Object.keys(spells);
    const values = await ask({ title: `${ctx.name(who)} drafts\u2026`, fields: placing(spells, choices, held), submit: "Draft" });
    if (values && values.spell) ctx.act({ type: "draft", player: who, spell: values.spell, ...placed(values, held) });
  }

  // The round's spells as turned face up from the spell deck: the grid the table drafts from.
  async function layOutSheet(ctx) {
    const { state } = ctx;
    const spells = state.rules.spells || {};
    const ids = Object.keys(spells);
    const fields = Array.from({ length: state.tracker.draft.spells }, (_, i) => ({
      name: `spell${i}`, type: "select", label: `Spell ${i + 1}`, value: ids[0],
      options: ids.map((id) => ({ value: id, label: spells[id].name })),
    }));
    const values = await ask({ title: "The spells laid out", fields, submit: "Lay them out" });
    if (values) ctx.act({ type: "lay_out", spells: fields.map((f) => values[f.name]) });
  }

  // The spell taken and how it fits the slot rule: held spells discarded to make room, or the new one.
  function placing(spells, choices, held) {
    return [
      { name: "spell", type: "select", label: "The spell", required: true, value: choices[0],
        options: choices.map((id) => ({ value: id, label: `${spells[id].name} (${plural(spells[id].slots, "slot")})` })) },
      ...held.map((id, i) => ({ name: `drop${i}`, type: "check", label: `Discard ${spells[id].name} to make room` })),
      { name: "discard", type: "check", label: "No room: discard the new spell instead" },
    ];
  }

  function placed(values, held) {
    return { drop: held.filter((id, i) => values[`drop${i}`]), keep: !values.discard };
  }

  // The battle player's power ability (it powers them down).
  async function powerSheet(ctx, wizard) {
    const { state } = ctx;
    const who = state.tracker.turn.player;
    const sent = { type: "use_power", player: who };
    const choose = { misdirect: (i, p) => p.tracker.alive, mend: (i, p) => p.tracker.alive, pickpocket: (i, p) => (p.tracker.held || []).length }[wizard.effect];
    if (choose) {
      const values = await ask({
        title: `${wizard.power}: choose another ${wizard.effect === "pickpocket" ? "player" : "wizard"}`,
        fields: [{ name: "target", type: "choice", list: true, label: "Whom", required: wizard.effect !== "mend",
          options: playerOptions(ctx, (i, p) => i !== who && choose(i, p)) }],
        submit: `Use ${wizard.power}`,
      });
      if (!values) return;
      if (values.target !== null) sent.target = values.target;
    }
    const spells = state.rules.spells || {};
    const from = wizard.effect === "pickpocket" ? state.players[sent.target].tracker.held
      : wizard.effect === "graverobber" ? state.tracker.discard : null;
    if (from) {
      const held = state.players[who].tracker.held || [];
      const values = await ask({ title: `${wizard.power}: take which spell?`, fields: placing(spells, [...new Set(from)], held), submit: "Take it" });
      if (!values || !values.spell) return;
      Object.assign(sent, { spell: values.spell }, placed(values, held));
    }
    look(ctx, who, await ctx.act(sent));
  }

  // A spell or power that lets its player look at the chamber: the look is Chamber spells' (this phone only).
  function look(ctx, who, result) {
    const looks = result && result.event && result.event.data.looks;
    if (looks) tell(`${ctx.name(who)} may look`, [`Look at the top ${plural(looks, "card")} of the chamber under Chamber spells\u2026, then put them back as the card says.`]);
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
