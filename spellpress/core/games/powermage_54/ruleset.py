"""PowerMage 54: points, thump multipliers, the hand limit and the halving on an empty draw deck.

The game's arithmetic is here too, as pure functions the tracker and the rule helpers share:
a card's value times its thump, an attack less its defense, the halving of points; and the two
plays both of them check, `attack` and `heal` (a thump needs its PowerMage shown, no card is
used more often than the deck holds it), so the tracker and the helper refuse the same plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...models import Card, Game
from ...play.errors import Invalid
from ...ruleset import Report
from ...schema import Flag, Ident, Model, PositiveInt
from ..checks import decks_exist

SLUG = "powermage-54"


class Constants(Model):
    starting_points: PositiveInt
    starting_hand: PositiveInt
    deck_size: PositiveInt  # the deck has exactly this many cards
    draw_deck: Ident  # the deck that holds them, the only one the game is played from
    hand_limit: PositiveInt  # cards a player may keep at the end of their own turn
    draws_per_turn: PositiveInt
    exchange_discard: PositiveInt  # cards discarded and redrawn instead of drawing
    empty_deck_divisor: PositiveInt  # points are divided by this, rounding down
    thump_needs_powermage: Flag  # a PowerMage must be shown before a thump is used


def check(game: Game, report: Report) -> None:
    c = game.constants_as(Constants)
    decks_exist(game, [(("draw_deck",), c.draw_deck)], report)
    deck = game.decks.get(c.draw_deck)
    if deck is not None and deck.total != c.deck_size:
        diff = c.deck_size - deck.total
        fix = f"add {diff} card(s)" if diff > 0 else f"take out {-diff} card(s)"
        report.constant(
            ("deck_size",),
            f"deck '{c.draw_deck}' holds {deck.total} cards (each card times its count), but "
            f"deck_size is {c.deck_size}: {fix} or change deck_size",
        )
    if c.hand_limit < c.starting_hand:
        report.constant(("hand_limit",), f"hand_limit ({c.hand_limit}) is less than starting_hand ({c.starting_hand}): "
                                         "players would have to throw away part of the hand they are dealt")
    if deck is not None:
        for card in deck.cards:
            _check_effect(card, report)
    dealt = c.starting_hand * game.players.max
    if dealt >= c.deck_size:
        report.constant(("starting_hand",), f"{game.players.max} players dealt {c.starting_hand} cards each take {dealt} cards, "
                                            f"leaving no draw deck of the {c.deck_size}")


# The effects of the action cards and PowerMages: effect -> (the timing it is played at, the
# number field it needs or None). Turnabout and Lifeweaver share `gain`.
ON_TURN, ATTACKED, EITHER, HELD = "on your turn", "when attacked", "to attack or defend", "while in your hand"
EFFECTS: dict[str, tuple[str, str | None]] = {
    "reshuffle": (ON_TURN, None), "see-hand": (ON_TURN, None), "take-blind": (ON_TURN, None),
    "new-hand": (ON_TURN, None), "take-thump": (ON_TURN, None), "discard-powermage": (ON_TURN, None),
    "swap-hands": (ON_TURN, None), "swap-points": (ON_TURN, None), "take-powermage": (ON_TURN, None),
    "unblockable": (ON_TURN, "forfeit"), "take-attack-or-defense": (ON_TURN, None), "extra-turn": (ON_TURN, None),
    "take-from-discard": (ON_TURN, None), "ruin": (ON_TURN, None), "silence": (ON_TURN, None),
    "two-cards": (EITHER, None), "as-card": (EITHER, "worth"), "multiply": (EITHER, "times"),
    "hold-more": (HELD, "holds"), "gain": (ATTACKED, None), "redirect": (ATTACKED, None),
}
NUMBERS = ("forfeit", "worth", "times", "holds")
AS_CARD, MULTIPLY, TWO_CARDS = "as-card", "multiply", "two-cards"  # the effects that change an attack's sums
# the effects aimed at another player, who is named when the card is played
AIMED = ("take-blind", "discard-powermage", "swap-hands", "swap-points", "take-powermage", "unblockable",
         "take-attack-or-defense", "ruin")


def _check_effect(card: Card, report: Report) -> None:
    """An effect is played at its timing, has the number it needs and no other; and a card
    says what it does (an ability, written or printed from its number)."""
    effect = card.get("effect")
    if effect is None:
        return
    timing, number = EFFECTS[effect]
    if card.get("timing") != timing:
        report.card(card, ("timing",), f"a '{effect}' effect is played '{timing}', not '{card.get('timing')}'")
    if number is not None and card.get(number) is None:
        report.card(card, ("effect",), f"a '{effect}' effect needs '{number}': how much")
    for other in NUMBERS:
        if other != number and card.get(other) is not None:
            report.card(card, (other,), f"'{other}' goes with a '{_needing(other)}' effect, not '{effect}'")
    if card.type == "powermage" and not card.get("ability"):
        report.card(card, ("ability",), "a PowerMage needs an ability: write it, or give the number its effect prints")


def _needing(number: str) -> str:
    return next(effect for effect, (_, n) in EFFECTS.items() if n == number)


def keep_limit(hand_limit: int, holds: int | None) -> int:
    """Cards a player may keep at the end of their turn: more with a card that `holds` more in hand."""
    return max(hand_limit, holds or 0)


def may_thump(needs_powermage: bool, mage_shown: bool, self_thumped: bool) -> bool:
    """A thump may multiply a card when a PowerMage is shown, or the card (a PowerMage played
    as a card, such as Spellblade) may be thumped without one, or the game needs none."""
    return not needs_powermage or mage_shown or self_thumped


def strength(values: tuple[int, ...], multiplier: int | None = None) -> int:
    """What one or two cards played as one (Annihilator's pair) are worth, times the thump or
    the multiplying PowerMage (Magnifier) that one multiplier applies to them all."""
    return thumped(sum(values), multiplier)


def answered(points: int, attack: int, block: int, gains: bool) -> int:
    """The attacked player's points once an attack of `attack` is answered: a block takes its
    value off it; an answer that `gains` (Turnabout, Lifeweaver) adds the attack instead."""
    return points_after(points, attack if gains else -clash(attack, None, block).damage)


# ---------------------------------------------------------------------------- the arithmetic


@dataclass(frozen=True)
class Clash:
    strength: int  # the attack card's value, thumped
    block: int  # the defense card's value, thumped (0 with no defense)
    damage: int  # what gets through: never below 0


def thumped(value: int, multiplier: int | None = None) -> int:
    """A card's value, times its thump card's multiplier if it has one."""
    return value * (multiplier or 1)


def clash(attack: int, attack_thump: int | None = None, defense: int = 0, defense_thump: int | None = None) -> Clash:
    strength, block = thumped(attack, attack_thump), thumped(defense, defense_thump)
    return Clash(strength, block, max(0, strength - block))


def points_after(points: int, change: int) -> int:
    """Points never go below 0 and have no upper limit."""
    return max(0, points + change)


def halved(points: int, divisor: int) -> int:
    """An empty draw deck's halving: rounding down."""
    return points // divisor


def defeated(points: int) -> bool:
    """A player at 0 points is defeated and out of the game."""
    return points <= 0


def over_hand_limit(held: int, limit: int) -> int:
    """Cards a player discards at the end of their own turn to keep no more than the hand limit."""
    return max(0, held - limit)


# ---------------------------------------------------------------------------- plays

# A card as a play names it: id, name, count, and its value (attack, defense, health) or its
# multiplier (thump). The tracker keeps these in a table's rules; the helper makes them from the
# game's cards, with `played`.
Played = Mapping[str, Any]


def played(card: Card) -> dict[str, Any]:
    """A card of the game as the plays read it: an action card or a PowerMage with its effect and
    the number the effect needs (Spellblade's worth, Magnifier's times, Blister's forfeit)."""
    entry: dict[str, Any] = {"id": card.id, "name": card.name, "count": card.count}
    for key in ("value", "multiplier"):
        if card.get(key) is not None:
            entry[key] = card.get(key)
    effect = card.get("effect")
    if effect in EFFECTS:
        entry["effect"] = effect
        entry["timing"], number = EFFECTS[effect]
        if number is not None and card.get(number) is not None:
            entry[number] = card.get(number)
    if card.get("cancels_unblockable"):
        entry["cancels_unblockable"] = True
    return entry


def worth(card: Played) -> int:
    """What a card attacks or blocks with: its value, or the worth of a PowerMage played as a card."""
    number: int = card["value"] if "value" in card else card["worth"]
    return number


def _within_the_deck(cards: tuple[Played | None, ...]) -> None:
    """No card is used more often than the deck holds it (each PowerMage is one of a kind)."""
    used = Counter(card["id"] for card in cards if card is not None)
    for card in cards:
        if card is None or card.get("count") is None:
            continue
        n = used.pop(card["id"], 0)
        if n > card["count"]:
            held = "one" if card["count"] == 1 else f"{card['count']}"
            raise Invalid(f"{card['name']} is used {n} times here, but the deck holds {held}")


def _multiplier(needs_powermage: bool, thump: Played | None, powermage: Played | None, what: str,
                cards: tuple[Played, ...] = ()) -> int | None:
    """A thump's multiplier, refused without the PowerMage the YAML asks for (unless the one card
    it multiplies is a PowerMage played as a card); or a multiplying PowerMage's (Magnifier), for
    one card, in place of a thump card."""
    if thump is None:
        return None
    if thump.get("effect") == MULTIPLY:
        if len(cards) > 1:
            raise Invalid(f"{thump['name']} multiplies one Attack or Defense card, not two: a pair takes a thump card")
        times: int = thump["times"]
        return times
    alone = len(cards) == 1 and cards[0].get("effect") == AS_CARD
    if not may_thump(needs_powermage, powermage is not None, alone):
        raise Invalid(f"the {what} thump needs a PowerMage shown first: say which PowerMage was shown")
    multiplier: int = thump["multiplier"]
    return multiplier


def attack(needs_powermage: bool, card: Played, thump: Played | None = None, powermage: Played | None = None,
           defense: Played | None = None, defense_thump: Played | None = None, defense_powermage: Played | None = None,
           second: Played | None = None, defense_second: Played | None = None, returned: bool = False) -> Clash:
    """An attack as played: its sums, or Invalid with the reason it cannot be played so. `second`
    and `defense_second` are the second cards of a pair (Annihilator's), one multiplier for both.
    `returned`: the attack was sent back to its attacker, whose shown PowerMage is in hand again."""
    again = None if returned else powermage
    _within_the_deck((thump, defense_thump, again, defense_powermage, card, second, defense, defense_second))
    if defense_thump is not None and defense is None:
        raise Invalid("a defense thump multiplies a defense card: name the defense card too")
    if defense_second is not None and defense is None:
        raise Invalid("a second defense card is half of a pair: name the first defense card too")
    cards = tuple(c for c in (card, second) if c is not None)
    guards = tuple(c for c in (defense, defense_second) if c is not None)
    hit = strength(tuple(worth(c) for c in cards), _multiplier(needs_powermage, thump, powermage, "attack's", cards))
    block = strength(tuple(worth(c) for c in guards), _multiplier(needs_powermage, defense_thump, defense_powermage, "defense's", guards))
    return Clash(hit, block, max(0, hit - block))


def heal(needs_powermage: bool, card: Played, thump: Played | None = None, powermage: Played | None = None) -> int:
    """The points a health card gives as played, or Invalid with the reason it cannot be played so."""
    _within_the_deck((thump, powermage))
    value: int = card["value"]
    return thumped(value, _multiplier(needs_powermage, thump, powermage, "health card's", (card,)))
