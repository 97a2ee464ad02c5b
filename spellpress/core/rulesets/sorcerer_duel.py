"""Sorcerer Duel: mana per turn, card conversions, the hand limit, each player's own deck."""

from __future__ import annotations

import pydantic

from ..models import Game
from ..problems import did_you_mean
from ..schema import Flag, Ident, Model, NonNegativeInt, PositiveInt
from ._checks import decks_exist

SLUG = "sorcerer-duel"


class Constants(Model):
    starting_health: PositiveInt
    starting_hand: PositiveInt
    draws_per_turn: PositiveInt
    mana_per_turn: PositiveInt  # reset every turn, never carried over
    max_conversions: NonNegativeInt  # cards a player may turn into mana each turn
    mana_per_conversion: PositiveInt
    hand_limit: PositiveInt  # at the limit a player does not draw
    first_player_skips_draw: Flag
    draws_on_creature_death: NonNegativeInt
    player_decks: tuple[Ident, ...] = pydantic.Field(min_length=1)  # decks a player may pick


def most_mana(c: Constants) -> int:
    """The most mana a player can have in one turn without a sorcerer's help."""
    return c.mana_per_turn + c.max_conversions * c.mana_per_conversion


def check(game: Game, report) -> None:
    c: Constants = game.constants
    decks_exist(game, [(("player_decks", i), d) for i, d in enumerate(c.player_decks)], report)
    for deck_id in c.player_decks:
        deck = game.decks.get(deck_id)
        if deck is None:
            continue
        types_here = {card.type for card in deck.cards}
        cards_here = {card.id: card for card in deck.cards}
        for card in deck.cards:
            cost = card.get("cost")
            if cost is not None and cost > most_mana(c):
                report.card(card, ("cost",), (
                    f"it costs {cost} mana but a turn gives at most {most_mana(c)} "
                    f"(mana_per_turn {c.mana_per_turn} + max_conversions {c.max_conversions} "
                    f"x mana_per_conversion {c.mana_per_conversion})"))
            _check_requirement(game, card, types_here, cards_here, report)


def _check_requirement(game: Game, card, types_here: set, cards_here: dict, report) -> None:
    """A summoning requirement names (in `needs`) a card type or a card that its own deck holds,
    and its printed text says that name."""
    requirement, needs = card.get("requirement"), card.get("needs")
    if requirement is None and needs is None:
        return
    if needs is None:
        report.card(card, ("requirement",), (
            "a summoning requirement needs 'needs': the card type (creature, blocker) or the "
            "id of the card of this deck that it names"))
        return
    if requirement is None:
        report.card(card, ("needs",), "'needs' goes with a 'requirement': say on the card what the player must do")
        return
    if needs in game.card_types:
        if needs not in types_here:
            report.card(card, ("needs",), f"deck '{card.deck}' holds no {needs} card, so the requirement can never be met")
            return
        name = game.card_types[needs].name
    elif needs in cards_here:
        if needs == card.id:
            report.card(card, ("needs",), "a creature cannot need itself to be summoned")
            return
        name = cards_here[needs].name
    else:
        known = sorted(game.card_types) + sorted(cards_here)
        elsewhere = any(other.id == needs for other in game.cards)
        hint = f"; '{needs}' is in another deck" if elsewhere else (did_you_mean(needs, known) or "")
        report.card(card, ("needs",), (
            f"'{needs}' is neither a card type nor a card of deck '{card.deck}'{hint}"))
        return
    if name.lower() not in requirement.lower():
        report.card(card, ("requirement",), f"the requirement names '{needs}' in 'needs' but its text never says '{name}'")
