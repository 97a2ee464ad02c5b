"""Magicka Mayhem in the balance lab: a game whose damage arithmetic is worked by hand, the Mayhem
Muster's coin, determinism over workers, the share of cards modelled, and the card fields the
lab reads (checked, and printed in the cards' text)."""

import json
import math
import shutil
from collections import Counter
from dataclasses import replace

import pytest

from spellpress.core import load_games
from spellpress.core.games.magicka_mayhem import lab as magicka_mayhem
from spellpress.core.problems import ValidationFailed
from spellpress.lab.engine import game_rng, run
from spellpress.lab.report import build
from spellpress.lab.run import plan_for, simulate

SLUG = "magicka-mayhem"


@pytest.fixture(scope="module")
def mm(cards_dir):
    return load_games(cards_dir, [SLUG])[0]


def _fury_only(mm):
    """Every element card a Blended wild, every spell Fury of the Wizard (4 damage, one each of
    four elements), and a Mayhem deck of one card that changes nothing."""
    blended = next(card for card in mm.cards if card.type == "wild")
    fury = mm.card("fury-of-the-wizard")
    deck = mm.decks["mayhem"]
    inert = tuple(card for card in deck.cards if not any(card.get(f) for f in magicka_mayhem.MAYHEM_FIELDS))[:1]
    p = magicka_mayhem.prepare(replace(mm, decks={**mm.decks, "mayhem": replace(deck, cards=inert)}))
    return replace(p, element_deck=(blended.id,) * 60, spell_deck=(fury.id,) * 30), fury, blended


def test_a_duel_of_fury_alone_ends_when_the_hand_arithmetic_says(mm):
    """Dealt 5 elements and drawing 2 a turn, a wizard casts Fury (4 Blended cards) on their
    own turns 1 and 2: 7 -> 3 left, 5 -> 1. From turn 3 on, 1 + 2 = 3 elements pay for no Fury,
    so greedy trades a spell card in for 2 elements (step 2, the exchange) and casts: 5 -> 1,
    every turn. So the first player's fifth Fury lands on their 5th turn, when the second has
    cast only 4: the first player always wins, on the game's turn 9, after 9 Musters."""
    p, fury, blended = _fury_only(mm)
    c = p.c
    assert (p.deal, p.draw, c.starting_health, fury["damage"], len(fury["cost"])) == ((5, 3), (2, 1), 20, 4, 4)
    trade = next(x for x in c.exchanges if dict(x.give) == {"spells": 1} and set(x.get) == {"elements"})
    casts_needed = math.ceil(c.starting_health / fury["damage"])
    hand, own_turn, cast_turns = p.deal[0], 0, []
    while len(cast_turns) < casts_needed:
        own_turn += 1
        hand += p.draw[0]
        if hand < len(fury["cost"]):
            hand += trade.get["elements"]
        if hand >= len(fury["cost"]):
            hand -= len(fury["cost"])
            cast_turns.append(own_turn)
    assert cast_turns == [1, 2, 3, 4, 5]
    turns = 2 * cast_turns[-1] - 1
    musters = casts_needed + sum(1 for t in cast_turns if t < cast_turns[-1])
    for i in range(30):
        out = magicka_mayhem.play(p, game_rng(3, i), 2, ("greedy", "greedy"), 400)
        assert (out.finished, out.winner, out.turns, out.rounds) == (True, out.first, turns, cast_turns[-1])
        assert out.figures["card exchanges"] == 3 + 2  # the winner on their turns 3, 4 and 5, the loser on 3 and 4
        # the winner's casts take all 20; the loser's 4 casts land in full
        element = Counter(fury["cost"]).most_common(1)[0][0]
        assert out.figures["damage: " + element] == c.starting_health + (casts_needed - 1) * fury["damage"]
        mustered = out.figures["Mayhem Muster: Mayhem"] + out.figures["Mayhem Muster: goes on as cast"]
        assert mustered == musters and out.played[out.first][fury.id] == casts_needed


def test_the_mayhem_muster_is_a_fair_coin_at_the_standard_level(mm):
    """Standard Mayhem flips a coin for every spell card spell: about half are Mayhemified."""
    level = next(lv for lv in mm.constants.mayhem_levels if lv.id == mm.constants.default_mayhem)
    assert (level.method, level.hits, level.out_of) == ("coin", 1, 2)
    p, _, _ = _fury_only(mm)
    flips = Counter()
    for i in range(100):
        flips.update(magicka_mayhem.play(p, game_rng(11, i), 2, ("greedy", "greedy"), 400).figures)
    n = flips["Mayhem Muster: Mayhem"] + flips["Mayhem Muster: goes on as cast"]
    assert n == 900  # 9 Musters a game, as worked above
    rate = flips["Mayhem Muster: Mayhem"] / n
    assert abs(rate - 0.5) <= 4 * math.sqrt(0.25 / n), rate


def test_the_same_seed_gives_the_same_report_with_any_number_of_workers(mm):
    one = simulate(mm, 12, 7, policies=["greedy", "random"])
    two = simulate(mm, 12, 7, policies=["greedy", "random"], workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert one["finished"] == 12 and one["figures"]["creatures summoned"]["total"] > 0
    assert one != simulate(mm, 12, 8, policies=["greedy", "random"])


def test_every_card_is_modelled_or_named_and_at_least_70_percent_are(mm):
    applied, unapplied = magicka_mayhem.modelled(mm)
    playing = [card.id for card in mm.cards if card.type != "reference"]
    assert sorted(applied + unapplied) == sorted(playing) and not set(applied) & set(unapplied)
    plan = plan_for(mm, 1, None, ["greedy"])
    report = build(mm, plan.lab, plan, run(plan, 3))
    rules = magicka_mayhem.LAB.unmodelled_rules  # each rule not played counts as one card not applied
    assert report["modelled"] >= 0.70 and report["modelled"] == round(len(applied) / (len(playing) + len(rules)), 4)
    assert [c["id"] for c in report["unmodelled"]] == unapplied
    assert report["unmodelled_rules"] == ["Spell vs. Spell: snap spells cast at spells (counter, disrupt, reflect)"]
    assert "chicken-dance" in unapplied  # a forfeit for the table, with no field the lab could apply


def test_the_fields_the_lab_reads_are_checked_and_printed(tmp_path, cards_dir):
    """A card's text states its own numbers from its fields; a beam without `turns` is a problem
    naming its file, line and field."""
    game_dir = tmp_path / SLUG
    shutil.copytree(cards_dir / SLUG, game_dir)
    spells = game_dir / "spells.yaml"
    text = spells.read_text()
    spells.write_text(text.replace("    heal: 6\n", "    heal: 7\n", 1))
    surge = load_games(tmp_path, [SLUG])[0].card("vital-surge")
    assert surge["heal"] == 7 and surge["text"].startswith("Heal 7 damage")
    lines = text.splitlines()
    beam = lines.index("  - id: arcane-beam")
    turns = next(i for i in range(beam, len(lines)) if lines[i] == "    turns: 3")
    without = "\n".join(lines[:turns] + lines[turns + 1:])
    spells.write_text(without.replace("Lasts {{ turns | plural('turn') }}, this one included.", "Lasts a while."))
    with pytest.raises(ValidationFailed) as failed:
        load_games(tmp_path, [SLUG])
    said = [str(p) for p in failed.value.problems]
    assert any("spells.yaml" in s and "kind" in s and "needs 'turns'" in s for s in said), said
