"""Spellchamber's spells and wizards' powers in the balance lab (issue 19, part 2): a seeded
small case worked by hand that a spell changes, the share of unique cards modelled, and the
new fields' validation."""

import shutil
from dataclasses import replace

import pytest

from spellchamber_copies import chambered
from spellpress.core import ValidationFailed, load_game, load_games
from spellpress.core.games.spellchamber import lab as spellchamber
from spellpress.lab.engine import Plan, run
from spellpress.lab.report import build


@pytest.fixture(scope="module")
def game(cards_dir):
    return load_games(cards_dir, ["spellchamber"])[0]


def _live_and_blank(cards_dir, tmp_path, spells_per_player):
    """Every round a chamber of one Live and one Blank, a spell deck of Scrying Glances alone
    (plenty: none runs short), no wizard's power in play."""
    game = chambered(cards_dir, tmp_path / f"spells-{spells_per_player}", 1, 0, 1, spells=spells_per_player)
    return game, replace(spellchamber.prepare(game), spell_deck=("scrying-glance",) * 60, wizards=())


def test_scrying_glance_lands_every_live_on_the_other_wizard(cards_dir, tmp_path):
    """Greedy looks at the top card first: a Live it shoots at the other wizard; a Blank at
    itself (another turn), and then the Live at the other. Either way the battle player's Live
    hits the other wizard and the next round's battle player is the other wizard (a Blank left
    to them is shot at themselves and earns them the next round), so the battle players alternate
    and the first player's fourth Live, in round 2 x 4 - 1 = 7, ends every game. Without the spell
    the first shot is the Blank half the time, aimed at the other wizard, who then lands the Live."""
    game, prepared = _live_and_blank(cards_dir, tmp_path, 1)
    life = game.constants.starting_life
    plan = Plan(spellchamber.LAB, prepared, 3, 2, ("greedy", "greedy"))
    report = build(game, spellchamber.LAB, plan, run(plan, 100))
    assert report["first_player"]["win_rate"] == 1.0
    assert report["length"]["rounds"]["p10"] == report["length"]["rounds"]["p90"] == 2 * life - 1
    glance = next(c for c in report["cards"] if c["id"] == "scrying-glance")
    assert glance["played"] >= 100 * life  # the first player looks in each of its rounds
    game, prepared = _live_and_blank(cards_dir, tmp_path, 0)
    plan = Plan(spellchamber.LAB, prepared, 3, 2, ("greedy", "greedy"))
    assert build(game, spellchamber.LAB, plan, run(plan, 100))["first_player"]["win_rate"] < 0.9


def test_every_spell_and_wizard_is_modelled(game):
    whole, rest = spellchamber.modelled(game)
    assert len(whole) / (len(whole) + len(rest)) >= 0.90
    assert rest == []
    assert {c.id for c in game.cards if c.type in ("spell", "wizard")} <= set(whole)


def test_the_same_seed_gives_the_same_games_with_any_number_of_workers(game):
    p = spellchamber.prepare(game)
    for k, policies in ((2, ("greedy", "random")), (4, ("random",) * 4)):
        plan = Plan(spellchamber.LAB, p, 7, k, policies)
        assert run(plan, 40, workers=2) == run(plan, 40)


@pytest.mark.parametrize("file, old, new, message", [
    ("spells.yaml", "    effect: heal\n    gains: 1\n", "    effect: heal\n",
     r"spells.yaml:\d+:\d+: .*effect: a 'heal' effect needs 'gains': how much"),
    ("spells.yaml", "    effect: bolt\n    drains: 1\n", "    effect: bolt\n    drains: 1\n    gains: 1\n",
     r"spells.yaml:\d+:\d+: .*gains: 'gains' goes with a 'heal' effect, not 'bolt'"),
    ("spells.yaml", "    kind: hybrid\n    slots: 1\n    count: 4\n    effect: ward\n",
     "    kind: hybrid\n    slots: 1\n    count: 4\n    effect: peek\n",
     r"effect: a 'peek' effect has no powered-up part for a hybrid spell: make the spell regular, or give it one of ward"),
    ("spells.yaml", "    effect: sleep\n", "    effect: slep\n",
     r"spells.yaml:\d+:\d+: .*effect: unknown value 'slep' \(did you mean 'sleep'\?\)"),
    ("wizards.yaml", "    effect: mend\n    mends: 1\n", "    effect: mend\n    power: Heal.\n",
     r"wizards.yaml:\d+:\d+: .*effect: a 'mend' effect needs 'mends': how much"),
])
def test_a_wrong_effect_field_is_refused_with_what_would_be_right(cards_dir, tmp_path, file, old, new, message):
    root = tmp_path / "spellchamber"
    shutil.copytree(cards_dir / "spellchamber", root)
    path = root / file
    text = path.read_text()
    assert old in text, f"{old!r} is not in {file}"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ValidationFailed, match=message):
        load_game(root)


def test_the_slot_rule_and_a_turned_shot_as_the_core_says_them():
    from spellpress.core.games.spellchamber import spells

    # 8 slots holding 3 + 2 + 2: a 2-slot spell needs one held spell out, the first in the drop order that makes room
    assert spells.make_room([3, 2, 2], 2, 8, [1, 0, 2]) == [1]
    assert spells.make_room([3, 2, 2], 1, 8, [1]) == []  # it fits already
    assert spells.make_room([3, 2, 2], 3, 8, []) is None  # nothing dropped: the new spell is discarded
    assert spells.draft_order(0, 3, 4) == [2, 1, 0, 2]  # from the battle player's right, counter-clockwise
    assert spells.redirected(1, 0, True, 2) == 0  # a Ricochet sends it back before a Misdirection
    assert spells.redirected(1, 0, False, 0) == 0 and spells.redirected(0, 0, True, 2) == 0
    assert spells.live_loss(1, 2, False) == 3 and spells.live_loss(1, 2, True) == 0
    assert not spells.may_play("powered", False) and spells.may_play("hybrid", False)
    assert spells.powered_part("hybrid", True) and not spells.powered_part("regular", True)
