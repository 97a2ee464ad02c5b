"""Powers Combined played by its one engine: the tracker sums the turn's spells against the face-up
challenge as the rulebook says, and the lab casts every spell a Double Up! allows (issue 25); the
challenge counter and the face-up card agree (issue 29).

Cards are found in the loaded game by what they carry, never by name, and every expected number
is worked from the game's constants.
"""

from __future__ import annotations

import pytest

from spellpress.core import table
from spellpress.core.engine import Match, lab_of
from spellpress.core.games import RULESETS
from spellpress.core.play.errors import Invalid
from spellpress.lab.engine import game_rng

SLUG = "powers-combined"


@pytest.fixture(scope="module")
def game(games):
    return games[SLUG]


@pytest.fixture(scope="module")
def c(game):
    return game.constants


def modifier_of(c, op, amount=None):
    return next(m.name for m in c.modifiers if m.op == op and (amount is None or m.amount == amount))


def spells(game, n=None, **want):
    """The ids of `n` (or all) different spell cards carrying every field of `want`."""
    found = [card.id for card in game.cards if card.type == "spell" and all(card.get(k) == v for k, v in want.items())]
    assert len(found) >= (n or 1), want
    return found[:n]


def challenge(game, level=1):
    return next(card for card in game.cards if card.type == "challenge" and card["level"] == level)


def neutral(c, foe):
    """An element the challenge `foe` is neither weak to nor resists."""
    m = c.matchups[foe]
    return next(e for e in c.matchups if e not in m.weak_to and e not in m.resists)


def test_a_double_up_flipped_with_a_rune_casts_a_second_spell_whose_total_is_added(game, c):
    """Double Up!: "it means you get to cast a second spell and add it's total power to your first
    spell's total power"; the rules.yaml: "A Double Up! bought this way works like any other".
    The issue: flipped by a rune it gave x1 and no second spell, a total of 6 with it, 6 without."""
    foe = challenge(game)
    element = neutral(c, foe["element"])
    first = dict(zip(("element", "power", "modifier"), (*spells(game, 1, element=element), *spells(game, 1, power=5),
                                                         *spells(game, 1, modifier=modifier_of(c, "add", 1)))))
    used = set(first.values())
    double = spells(game, 1, modifier=modifier_of(c, "double_up"))[0]
    second = {slot: next(x for x in spells(game, **want) if x not in used | {double})
              for slot, want in (("element", {"element": element}), ("power", {"power": 4}),
                                 ("modifier", {"modifier": modifier_of(c, "add", 2)}))}
    m = Match(game, 2, lambda n: 0)
    m.act("adjust", counter="runes", delta=c.rune_spend_limit)
    m.act("face", card=foe.id, modifiers=[])
    m.act("cast", **first)
    six = 5 + 1
    assert m.tracked["total"] == six and m.tracked["more"] == 0
    with pytest.raises(Invalid, match="second spell"):
        m.act("cast", **second)  # no Double Up! yet: one spell
    flipped = m.act("spend_rune", card=double)
    assert m.tracked["total"] == six, "the Double Up! itself does nothing to the first spell's power"
    assert m.tracked["more"] == 1 and flipped["more"] == 1, "it lets the party cast a second spell"
    m.act("cast", **second)
    assert m.tracked["spells"][1]["total"] == 4 + 2
    assert m.tracked["total"] == six + 4 + 2, "the second spell's total is added to the first's"
    assert m.tracked["more"] == 0, f"the spells use {c.double_up_limit} Double Up! a turn"
    done = m.act("resolve")
    assert done["result"] == ("won" if six + 6 >= foe["power"] else "lost") and m.tracked["turns"] == 1


def test_the_lab_casts_the_second_spell_a_runes_double_up_allows(game):
    """In seeded greedy games, every rune that flips a Double Up! within the turn's limit is
    followed by a second spell, whose total the table adds to the first's."""
    lab = lab_of(RULESETS[SLUG])
    prepared = lab.prepare(game)
    doubles = {card.id for card in game.cards if card.type == "spell" and card["modifier"] == modifier_of(game.constants, "double_up")}
    seen = 0
    for seed in range(40):
        out = lab.play(prepared, game_rng(seed, 2), 2, ("greedy", "greedy"), lab.turn_cap, True)
        moves, states = out.match.moves, out.match.states
        for i, move in enumerate(moves):
            if move.type == "spend_rune" and move.sent.get("card") in doubles and states[i]["tracker"]["more"]:
                before, after = states[i]["tracker"], states[i + 1]["tracker"]
                assert moves[i + 1].type == "cast", f"seed {seed}, move {i}: no second spell after the rune's Double Up!"
                assert after["total"] == before["total"] + after["spells"][-1]["total"]
                seen += 1
        assert out.figures["spells cast by a Double Up! flipped with a rune"] == sum(
            1 for i, move in enumerate(moves) if move.type == "cast" and i and moves[i - 1].type == "spend_rune"
            and states[i - 1]["tracker"]["more"] and moves[i - 1].sent.get("card") in doubles)
    assert seen, "some rune flips a Double Up! in 40 games"


def test_the_challenge_counter_and_the_face_up_card_agree(game):
    """Issue 29: "+ on its challenge counter moves the number while the face-up challenge stays".
    One door: a + takes the party to the next challenge, and the card turned up for the one it
    left is put away; the log says so."""
    foe = challenge(game)
    state = table.evolve(None, table.Event(1, "create", table.start(game, ["Ann", "Ben"])))
    for seq, action in enumerate(({"type": "face", "card": foe.id}, {"type": "adjust", "counter": "challenge", "delta": 1}), 2):
        kind, data = table.decide(state, seq - 1, {**action, "version": seq - 1}, lambda n: 0)
        event = table.Event(seq, kind, data, 0)
        state = table.evolve(state, event)
    assert state["counters"]["challenge"] == 2 and state["tracker"]["card"] is None
    assert f"{foe.name}, face up for challenge 1, is put away" in table.describe(event, state)


def test_a_challenges_wild_surge_is_rolled_once_when_laid_and_stays_after_a_failed_turn(game, c):
    """"A die rolled for a challenge is rolled once, when the modifier is laid on it, and the result
    stays for as long as the challenge does"; a failed challenge waits "with the same modifiers"."""
    level = c.levels[1]
    foe = challenge(game, level=2)
    surge = spells(game, level.modifiers, modifier=modifier_of(c, "roll"))
    rolled = iter(range(100))
    m = Match(game, 3, lambda n: next(rolled) % n)
    with pytest.raises(Invalid, match=f"{c.levels[0].name}, which lays no modifiers"):
        m.act("face", card=foe.id, modifiers=surge)  # challenge 1 is on the first level, which lays none
    m.act("adjust", counter="challenge", delta=level.first - 1)
    data = m.act("face", card=foe.id, modifiers=surge)
    target = foe["power"] + sum(data["rolls"])
    assert data["rolls"] and m.tracked["target"]["power"] == target
    lost = m.act("resolve", result="lost")
    assert lost["lives"] == {"from": c.lives, "to": c.lives - 1}
    assert m.tracked["target"]["power"] == target and m.tracked["laid"] == surge and m.tracked["card"] == foe.id


def test_the_spells_say_whether_the_challenge_is_beaten(game, c):
    """The total "greater than or equal to the challenge card's power" wins; a result that the
    spells contradict is refused, and so is a rune's card before any spell or a spell before the
    challenge is known."""
    foe = challenge(game)
    element = neutral(c, foe["element"])
    m = Match(game, 2, lambda n: 0)
    m.act("adjust", counter="runes", delta=1)
    trio = dict(zip(("element", "power", "modifier"), (*spells(game, 1, element=element), *spells(game, 1, power=1),
                                                       *spells(game, 1, modifier=modifier_of(c, "add", 1)))))
    with pytest.raises(Invalid, match="name the face-up challenge"):
        m.act("cast", **trio)
    m.act("face", card=foe.id, modifiers=[])
    with pytest.raises(Invalid, match="cast a spell first"):
        m.act("spend_rune", card=trio["modifier"])
    m.act("cast", **trio)
    assert m.tracked["total"] == 1 + 1 < m.tracked["target"]["power"]
    with pytest.raises(Invalid, match="falls short"):
        m.act("resolve", result="won")
    failed = m.act("resolve")
    assert failed["result"] == "lost" and failed["sum"] == 2 and m.counter("lives") == c.lives - 1
    assert m.tracked["spells"] == [] and m.tracked["spent"] == 0 and m.tracked["turns"] == 1
