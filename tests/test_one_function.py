"""One function per play: every rule helper and the tracker action for the same play agree.

Each helper of each game is walked here over many inputs, beside the tracker action that plays
the same thing at a table: both must refuse the same plays and give the same numbers, because
both call one function of the core. A helper with no play at the table says why, in WALKS; a new
helper that is in neither fails `test_every_helper_is_walked`, so no second path can slip in.
Every number and card is read from the loaded games.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from spellpress.core.games import RULESETS, ask
from spellpress.core.games.magicka_mayhem.helpers import INTERACTIVE_MODES
from spellpress.core.play.errors import TableError
from test_trackers import Table, names


def _asked(game, helper, inputs):
    """('ok', the helper's answer) or ('refused', its message)."""
    try:
        return "ok", ask(game, helper, inputs)
    except TableError as err:
        return "refused", str(err)


def _refusal(t, action):
    """The message a table refuses `action` with, or None if it takes it (and then it is played)."""
    try:
        return None, t.act(action)
    except TableError as err:
        return str(err), None


# ================================================================================ Magicka Mayhem


def _wizard_behind(game, strength_shields):
    t = Table(game, names(2))
    if strength_shields:
        t.act({"type": "shield", "target": 1, "shields": strength_shields})
    return t


def walk_mm_damage(game):
    """Plain damage against a wizard behind a barrier (or none): the helper's `damage`, the
    tracker's `damage` and a `−` on the wizard's health all absorb alike (the barrier first)."""
    b = game.constants.barrier
    walked = 0
    for shields in (0, *range(b.shield_cost, b.shield_cost + 4)):
        strength = 0 if not shields else b.strength + (shields - b.shield_cost) * b.per_extra_shield
        for amount in range(1, 3 * strength + 6):
            answer = ask(game, "damage", {"amount": amount, "barrier": strength})
            for action in ({"type": "damage", "target": 1, "amount": amount},
                           {"type": "adjust", "player": 1, "counter": "health", "delta": -amount}):
                t = _wizard_behind(game, shields)
                event = t.act(action)
                assert event.type == ("damage" if strength or action["type"] == "damage" else "adjust"), action
                assert game.constants.starting_health - t.counter("health", 1) == answer["damage"], (shields, amount, action)
                barrier = t.mine(1)["barrier"]
                assert (barrier["strength"] if barrier else 0) == answer["barrier"], (shields, amount, action)
                assert event.data.get("absorbed", 0) == answer["absorbed"]
                walked += 1
    return walked


def walk_mm_can_cast(game):
    """A summons paid with a hand: the helper's `can-cast` and the tracker's `summon` with those
    cards agree on whether it is paid, and on the creature's attack and health."""
    rng = random.Random(15)
    elements = [c for c in game.cards if c.get("elements") and c.get("value")]
    pool = [c.id for c in elements for _ in range(c.count)]
    summons = [c for c in game.cards if c.type == "summon"]
    walked = 0
    for card in summons:
        for size in range(1, 9):
            for _ in range(12):
                hand = rng.sample(pool, size)
                answer = ask(game, "can-cast", {"spell": card.id, "hand": hand})
                t = Table(game, names(2))
                t.turn_of(0)
                refused, event = _refusal(t, {"type": "summon", "owner": 0, "card": card.id, "paid": hand})
                if not answer["paid"]:
                    assert refused and refused.endswith("short"), (card.id, hand, refused)
                    for element, n in answer["missing"].items():
                        assert f"{n} {element}" in refused
                else:
                    assert refused is None, (card.id, hand, refused)
                    unit = t.t["units"][0]
                    creature = answer["creature"]
                    assert (unit["name"], unit["attack"], unit["health"]) == (creature["name"], creature["attack"], creature["health"])
                    assert event.data.get("extra", 0) == creature["extra"]
                walked += 1
    # more copies of a card than the deck holds: both refuse
    card, element = summons[0], elements[0]
    hand = [element.id] * (element.count + 1)
    assert _asked(game, "can-cast", {"spell": card.id, "hand": hand})[0] == "refused"
    refused, _ = _refusal(Table(game, names(2)), {"type": "summon", "owner": 0, "card": card.id, "paid": hand})
    assert refused and "but the deck has only" in refused
    return walked


def walk_mm_snap_vs_spell(game):
    """A snap spell at a spell: what the helper says it does is what the tracker's Mayhem Muster
    takes, and who musters is the same (nobody, when the helper says nobody: the muster refuses)."""
    modes = [m.id for m in game.constants.modes if m.id in INTERACTIVE_MODES]
    snaps = [c for c in game.cards if c.type == "snap"]
    spells = [c for c in game.cards if c.type in ("spell", "summon")]
    walked = 0
    for snap, spell, shield in itertools.product(snaps, spells, (False, True)):
        answer = ask(game, "snap-vs-spell", {"snap": snap.id, "spell": spell.id, "shield": shield})
        t = Table(game, names(2), {"mode": modes[0]} if modes else None)
        t.turn_of(0)
        refused, event = _refusal(t, {"type": "muster", "caster": 0, "target": 1, "spell": spell.id,
                                      "interaction": answer["outcome"], "draw": False})
        if not answer["mayhem"]:
            assert refused, (snap.id, spell.id, answer["outcome"])
        else:
            assert refused is None, (snap.id, spell.id, refused)
            roles = {"caster": 0, "target": 1}
            assert [m["player"] for m in event.data["musters"]] == list(dict.fromkeys(roles[r] for r in answer["mayhem"]))
        walked += 1
    return walked


# ================================================================================ Spellchamber


def walk_sc_next_shot(game):
    """Every shot of a round of every scenario: the table's odds are the `next-shot` helper's."""
    from test_trackers import scenarios, shoot, start_round

    walked = 0
    for card in scenarios(game, 2):
        t = Table(game, names(2), {"scenario": card.id})
        start_round(t)
        shot = Counter()
        while t.t["phase"] == "battle":
            answer = ask(game, "next-shot", {"scenario": card.id, **{f"shot_{k}": n for k, n in shot.items()}})
            assert t.t["odds"] == {k: odds["percent"] for k, odds in answer["odds"].items()}, card.id
            shot[shoot(t, max((0, 1), key=lambda i: t.counter("life", i))).data["card"]] += 1
            walked += 1
    return walked


# ================================================================================ PowerMage 54


def _pm_cards(game, kind):
    return [c.id for c in game.cards if c.type == kind]


def walk_pm_attack(game):
    """Attacks with and without thumps, PowerMages shown and defenses: the helper's `attack` and
    the tracker's `attack` refuse the same plays with the same words and take the same points."""
    rng = random.Random(54)
    start = game.constants.starting_points
    pick = {k: _pm_cards(game, k) for k in ("attack", "defense", "thump", "powermage")}
    walked = 0
    for _ in range(400):
        kinds = {"thump": "thump", "powermage": "powermage", "defense": "defense", "defense_thump": "thump",
                 "defense_powermage": "powermage"}
        some = {key: rng.choice([None, *pick[kind]]) for key, kind in kinds.items()}
        attack = rng.choice(pick["attack"])
        helped = _asked(game, "attack", {
            "attack": attack, "attack_thump": some["thump"], "attack_powermage": some["powermage"], "defense": some["defense"],
            "defense_thump": some["defense_thump"], "defense_powermage": some["defense_powermage"], "points": start})
        t = Table(game, names(2))
        action = {"type": "attack", "attacker": 0, "target": 1, "attack": attack, **{k: v for k, v in some.items() if v}}
        refused, event = _refusal(t, action)
        if helped[0] == "refused":
            assert refused == helped[1], (action, helped)
        else:
            assert refused is None, (action, refused)
            answer = helped[1]
            sums = (event.data["strength"], event.data["block"], event.data["damage"])
            assert sums == (answer["strength"], answer["block"], answer["damage"])
            assert t.counter("points", 1) == answer["points"]["to"]
        walked += 1
    return walked


def walk_pm_heal(game):
    start = game.constants.starting_points
    walked = 0
    for health, thump, mage in itertools.product(_pm_cards(game, "health"), [None, *_pm_cards(game, "thump")],
                                                 [None, *_pm_cards(game, "powermage")[:2]]):
        helped = _asked(game, "heal", {"health": health, "thump": thump, "powermage": mage, "points": start})
        t = Table(game, names(2))
        action = {"type": "heal", "player": 0, "health": health, **({"thump": thump} if thump else {}),
                  **({"powermage": mage} if mage else {})}
        refused, event = _refusal(t, action)
        if helped[0] == "refused":
            assert refused == helped[1], (action, helped)
        else:
            assert refused is None and event.data["amount"] == helped[1]["amount"], (action, refused)
            assert t.counter("points", 0) == helped[1]["points"]["to"]
        walked += 1
    return walked


def walk_pm_empty_deck(game):
    rng = random.Random(4)
    start = game.constants.starting_points
    walked = 0
    for n in range(game.players.min, game.players.max + 1):
        for _ in range(25):
            points = [rng.randint(1, 3 * start) for _ in range(n)]
            answer = ask(game, "empty-deck", {f"points_{i + 1}": p for i, p in enumerate(points)})
            t = Table(game, names(n))
            for i, p in enumerate(points):
                if p != start:
                    t.act({"type": "adjust", "player": i, "counter": "points", "delta": p - start})
            t.act({"type": "halve"})
            assert [t.counter("points", i) for i in range(n)] == [a["to"] for a in answer["points"]]
            walked += 1
    return walked


# ================================================================================ Powers Combined


def walk_pc_spell_power(game):
    """The runes a challenge gives: what the helper says it is worth under the modifiers laid on
    it is what the tracker adds to the pot when the party beats that card (a Double Up! among
    them said so)."""
    c = game.constants
    doubles = {m.name for m in c.modifiers if m.op == "double_up"}
    walked = 0
    for card in (card for card in game.cards if card.type == "challenge"):
        laid = c.levels[card["level"] - 1].modifiers
        for modifiers in itertools.combinations_with_replacement([m.name for m in c.modifiers], laid):
            answer = ask(game, "spell-power", {"challenge": card.id, "challenge_modifiers": list(modifiers)})
            t = Table(game, names(2))
            t.act({"type": "face", "card": card.id})
            event = t.act({"type": "resolve", "result": "won", "double_up": bool(doubles & set(modifiers))})
            assert event.data["reward"] == answer["runes"], (card.id, modifiers)
            walked += 1
    return walked


# ================================================================================ Sorcerer Duel


def walk_sd_attack(game):
    """An attack spell or a creature's attack into a side of blockers and creatures: the helper's
    `attack` and the tracker's `cast` or `attack` put every point of damage in the same place."""
    rng = random.Random(2)
    decks = list(game.constants.player_decks)
    walked = 0
    for _ in range(250):
        mine, theirs = rng.sample(decks, 2)
        own = [c for c in game.decks[mine].cards]
        side = [c for c in game.decks[theirs].cards]
        attack = rng.choice([c for c in own if c.type == "attack-spell" or (c.type == "creature" and c["attack"] > 0)])

        def units(kind, side):
            chosen = []
            cards = [c for c in side if c.type == kind]
            for card in rng.sample(cards, rng.randint(0, min(3, len(cards)))):
                left = rng.randint(1, card["health"])
                chosen.append((card, left, card.id if left == card["health"] else f"{card.id}@{left}"))
            return chosen

        blockers, creatures = units("blocker", side), units("creature", side)
        area = attack.type == "attack-spell" and attack["target"] == "side"
        aim = None if area or not creatures or rng.random() < 0.4 else rng.randrange(len(creatures))
        answer = ask(game, "attack", {
            "attack": attack.id, "target": None if area else (creatures[aim][2] if aim is not None else "sorcerer"),
            "blockers": [b[2] for b in blockers], "creatures": [c[2] for c in creatures]})
        if aim is not None:
            aim = [c[2] for c in creatures].index(creatures[aim][2])  # the helper aims at the first one so named
        t = Table(game, [{"name": "Ann", "options": {"deck": mine}}, {"name": "Ben", "options": {"deck": theirs}}])
        t.act({"type": "start_turn", "player": 1})
        for card, left, _ in blockers + creatures:
            t.act({"type": "summon", "player": 1, "kind": card.type, "name": card.name, "health": left, "cost": 0,
                   **({"attack": card["attack"]} if card.type == "creature" else {})})
        ids = [u["id"] for u in t.t["units"]]
        t.act({"type": "start_turn", "player": 0})
        target = 1 if aim is None else ids[len(blockers) + aim]
        if attack.type == "attack-spell":
            event = t.act({"type": "cast", "player": 0, "damage": attack["damage"], "area": area, "cost": 0, "target": target})
        else:
            t.act({"type": "summon", "player": 0, "name": attack.name, "attack": attack["attack"], "health": attack["health"],
                   "cost": 0, "ready": True})
            event = t.act({"type": "attack", "unit": t.t["units"][-1]["id"], "target": target})
        took = {h.get("unit", "sorcerer"): h["damage"] for h in event.data["hits"]}
        helper = [h["damage"] for h in answer["blockers"] + answer["creatures"]]
        assert [took.get(uid, 0) for uid in ids] == helper, (attack.id, blockers, creatures, aim)
        assert took.get("sorcerer", 0) == answer["sorcerer"]["damage"]
        assert (event.data["lost"], event.data["odd"]) == (answer["lost"], answer["odd"])
        walked += 1
    return walked


# ================================================================================ the walk


WALKS = {
    ("magicka-mayhem", "damage"): walk_mm_damage,
    ("magicka-mayhem", "can-cast"): walk_mm_can_cast,
    ("magicka-mayhem", "snap-vs-spell"): walk_mm_snap_vs_spell,
    ("magicka-mayhem", "snap-spells"): "which snap spells a hand makes: the table keeps no hands, so it plays no such thing",
    ("spellchamber", "next-shot"): walk_sc_next_shot,
    ("powermage-54", "attack"): walk_pm_attack,
    ("powermage-54", "heal"): walk_pm_heal,
    ("powermage-54", "empty-deck"): walk_pm_empty_deck,
    ("powers-combined", "spell-power"): walk_pc_spell_power,
    ("sorcerer-duel", "attack"): walk_sd_attack,
}


def test_every_helper_is_walked(games):
    helpers = {(game.slug, helper) for game in games.values() for helper in RULESETS[game.ruleset].helpers}
    assert helpers == set(WALKS), "each helper is walked beside its tracker play here, or says why it has none"


@pytest.mark.parametrize("key", [k for k, walk in WALKS.items() if callable(walk)], ids="/".join)
def test_the_helper_and_the_tracker_agree(games, key):
    slug, _ = key
    walked = WALKS[key](games[slug])
    assert walked >= 10, "a walk covers many plays"
