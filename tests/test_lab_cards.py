"""Every card's effect in the balance lab (issue 19, part 2): seeded small cases whose answers
are worked by hand, each exercising an effect the lab now applies from a card's declared fields;
the share of unique cards modelled; and the new fields' validation."""

import math
import shutil
from dataclasses import replace

import pytest

from spellpress.core import ValidationFailed, load_game, load_games
from spellpress.core.games.powermage_54 import lab as powermage_54
from spellpress.core.games.sorcerer_duel import lab as sorcerer_duel
from spellpress.core.games.sorcerer_duel.ruleset import NO_SORCERER
from spellpress.lab.engine import Plan, run


@pytest.fixture(scope="module")
def labgames(cards_dir):
    return {g.slug: g for g in load_games(cards_dir, ["sorcerer-duel", "powermage-54"])}


def copy_game(cards_dir, tmp_path, slug):
    shutil.copytree(cards_dir / slug, tmp_path / slug)
    return tmp_path / slug


def edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1))


# ---------------------------------------------------------------------------- Sorcerer Duel


@pytest.mark.parametrize("sorcerer, turns, draws", [(None, 19, 38), ("ignara-the-ember-witch", 13, 25)])
def test_sorcerer_duel_thorn_darts_alone_as_worked_by_hand(labgames, sorcerer, turns, draws):
    """Both decks hold only Thorn Darts (1 mana, 1 damage at one target, then draw 1 card),
    nobody may convert, and the players are greedy: each turn's 2 mana casts two at the opposing
    sorcerer, each drawing a card back, so no hand runs dry. 2 damage a turn takes 20 health in 10 turns: the first player
    wins on the game's 19th turn, having cast 38 darts and drawn a card for each. With Ignara
    (once a turn, a spell that damages the sorcerer deals 1 more) it is 3 a turn: after 6 turns
    each the second sorcerer has 2 health, and the 13th turn's first dart (1 + 1) ends the duel:
    25 darts cast."""
    game = labgames["sorcerer-duel"]
    c, dart = game.constants, game.card("thorn-dart")
    told = sorcerer or NO_SORCERER
    bonus = game.card(sorcerer).get("spell_bonus") or 0 if sorcerer else 0
    casts = c.mana_per_turn // dart["cost"]
    per_turn = casts * dart["damage"] + bonus
    assert 2 * math.ceil(c.starting_health / per_turn) - 1 == turns
    darts = ("thornwood", tuple("thorn-dart" for _ in range(30)))  # the deck that holds the dart, for both
    variant = replace(game, constants=c.model_copy(update={"max_conversions": 0}))
    p = replace(sorcerer_duel.prepare(variant), decks=(darts, darts), sorcerers=(told, told))
    plan = Plan(sorcerer_duel.LAB, p, 3, 2, ("greedy", "greedy"))
    tally = run(plan, 20)
    assert tally.games == 20 and tally.turns == {turns: 20}
    assert tally.wins == tally.first and tally.first_wins == 20
    assert tally.figures["cards drawn by effects"] == 20 * draws * dart["draws"]


def test_sorcerer_duel_models_every_card(labgames):
    whole, rest = sorcerer_duel.modelled(labgames["sorcerer-duel"])
    assert len(whole) / (len(whole) + len(rest)) >= 0.90
    assert rest == []


def test_sorcerer_duel_a_card_with_text_no_field_prints_is_not_modelled(cards_dir, tmp_path):
    root = copy_game(cards_dir, tmp_path, "sorcerer-duel")
    edit(root / "thornwood.yaml", "    attack: 2\n    health: 3\n    count: 3\n",
         "    attack: 2\n    health: 3\n    count: 3\n    text: It gains 1 attack each turn.\n")
    _, rest = sorcerer_duel.modelled(load_game(root))
    assert rest == ["thorn-stag"]


@pytest.mark.parametrize("file, old, new, message", [
    ("ember.yaml", "    death_effect: damage\n    death_amount: 1\n", "    death_effect: damage\n",
     r"ember.yaml:\d+:\d+: .*death_effect: a 'damage' death effect needs 'death_amount': how much"),
    ("ember.yaml", "    death_effect: reshuffle\n", "    death_effect: reshuffle\n    death_amount: 2\n",
     r"death_amount: 'death_amount' goes with a death_effect of damage, draw, heal, not 'reshuffle'"),
    ("thornwood.yaml", "needs_how: have\n", "needs_how: destroy\n",
     r"needs_how: needs_how is 'destroy' but the requirement's text never says 'destroy'"),
    ("thornwood.yaml", "    death_effect: heal\n", "    death_effect: heals\n",
     r"thornwood.yaml:\d+:\d+: .*death_effect: unknown value 'heals' \(did you mean 'heal'\?\)"),
    ("sorcerers.yaml", "    spell_bonus: 1\n", "",
     r"a sorcerer needs an effect, always on: give it one of spell_bonus"),
])
def test_sorcerer_duel_a_wrong_effect_field_is_refused_with_what_would_be_right(cards_dir, tmp_path, file, old, new,
                                                                                message):
    root = copy_game(cards_dir, tmp_path, "sorcerer-duel")
    edit(root / file, old, new)
    with pytest.raises(ValidationFailed, match=message):
        load_game(root)


def test_sorcerer_duel_the_same_seed_gives_the_same_games_with_any_number_of_workers(labgames):
    p = sorcerer_duel.prepare(labgames["sorcerer-duel"])
    for policies in (("greedy", "random"), ("random", "random")):
        plan = Plan(sorcerer_duel.LAB, p, 7, 2, policies)
        assert run(plan, 40, workers=2) == run(plan, 40)


def test_a_field_says_its_sentence_into_a_text_field_the_card_type_has(cards_dir, tmp_path):
    """`into` sends a field's sentence to another text field (a death effect under the skull):
    that field must exist and be text."""
    root = copy_game(cards_dir, tmp_path, "sorcerer-duel")
    edit(root / "decks.yaml", "        into: death\n", "        into: requirements\n")
    with pytest.raises(ValidationFailed, match=r"decks.yaml:\d+:\d+: .*field 'death_effect' says something in the "
                                               r"card's 'requirements': the card type needs a 'requirements' field of type text"):
        load_game(root)


# ---------------------------------------------------------------------------- PowerMage 54


def test_powermage_blister_alone_as_worked_by_hand(labgames):
    """A deck of Blisters only: the greedy first player aims one at the idle second player each
    turn, who takes the loss (Blister's `forfeit`, 50) rather than give up a PowerMage: 100
    points are gone after 2 Blisters, on the game's 3rd turn."""
    game = labgames["powermage-54"]
    c, forfeit = game.constants, game.card("blister")["forfeit"]
    p = replace(powermage_54.prepare(game), deck=("blister",) * c.deck_size)
    tally = run(Plan(powermage_54.LAB, p, 5, 2, ("greedy", "idle")), 10)
    blisters = math.ceil(c.starting_points / forfeit)
    assert (blisters, 2 * blisters - 1) == (2, 3)
    assert tally.turns == {3: 10} and tally.wins == {0: 10}
    assert tally.figures["effects played"] == 10 * blisters and tally.played["blister"] == 10 * blisters


def test_powermage_chronomancer_alone_gives_one_player_every_turn(labgames):
    """A deck of Chronomancers only: the greedy first player has nothing better than to take
    another turn, every turn, and so plays them all. Each turn draws one and plays one, so the
    deck (54 less the two hands dealt: 44) empties every 44 turns, and the halving (100, 50, 25,
    12, 6, 3, 1, 0) ends the game with both players at 0 on the 7th: turn 45 + 6 x 44 = 309,
    with one Chronomancer played on every turn but the last, and still in the first round."""
    game = labgames["powermage-54"]
    c = game.constants
    p = replace(powermage_54.prepare(game), deck=("chronomancer",) * c.deck_size)
    tally = run(Plan(powermage_54.LAB, p, 5, 2, ("greedy", "greedy")), 5)
    run_length = c.deck_size - 2 * c.starting_hand
    assert tally.turns == {run_length + 1 + 6 * run_length: 5} == {309: 5}
    assert tally.figures["halvings"] == 5 * 7 and tally.nobody == 5
    assert tally.played["chronomancer"] == 5 * 308 and tally.rounds == {1: 5}


def test_powermage_models_every_card(labgames):
    whole, rest = powermage_54.modelled(labgames["powermage-54"])
    assert len(whole) / (len(whole) + len(rest)) >= 0.90
    assert rest == []


@pytest.mark.parametrize("old, new, message", [
    ("    effect: gain\n", "    effect: gains\n", r"draw.yaml:\d+:\d+: .*effect: unknown value 'gains' \(did you mean 'gain'\?\)"),
    ("    timing: when attacked\n    effect: gain\n", "    timing: on your turn\n    effect: gain\n",
     r"draw.yaml:\d+:\d+: .*timing: a 'gain' effect is played 'when attacked', not 'on your turn'"),
    ("    forfeit: 50\n", "", r"effect: a 'unblockable' effect needs 'forfeit': how much"),
    ("    holds: 7\n", "    holds: 7\n    times: 3\n", r"times: 'times' goes with a 'multiply' effect, not 'hold-more'"),
])
def test_powermage_a_wrong_effect_field_is_refused_with_what_would_be_right(cards_dir, tmp_path, old, new, message):
    root = copy_game(cards_dir, tmp_path, "powermage-54")
    edit(root / "draw.yaml", old, new)
    with pytest.raises(ValidationFailed, match=message):
        load_game(root)
