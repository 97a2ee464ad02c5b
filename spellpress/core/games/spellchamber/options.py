"""Spellchamber's table options: the first round's scenario, and each player's wizard."""

from __future__ import annotations

from ...models import Game
from ...play.options import Choice, Option
from .ruleset import Constants

SHUFFLED = "shuffled"  # the first scenario drawn like any other, for players who know the game


def options(game: Game) -> tuple[Option, ...]:
    """The first round's scenario: the beginner's card by default, any card, or the shuffled deck's
    top; and each player's wizard (by default, each a different one in turn)."""
    c = game.constants_as(Constants)
    choices, preferred = [Choice(SHUFFLED, "Shuffled: the first scenario is the deck's top card")], []
    for spec in c.scenario_decks.values():
        for card in sorted(game.decks[spec.deck].cards, key=lambda card: card["number"]):
            ammo = ", ".join(f"{card[kind]} {effect.name}" for kind, effect in c.ammo.items())
            spells = card["spells_per_player"]
            label = f"{card.name}: {spells} spell{'' if spells == 1 else 's'} each, {ammo}"
            choices.append(Choice(card.id, label, (spec.players.min, spec.players.max)))
            if card["number"] == c.beginner_scenario:
                preferred.append(card.id)
    wizards = tuple(Choice(card.id, f"{card.name}: {card.get('power_name') or 'no power'}")
                    for card in game.cards if card.type == "wizard")
    scenario = Option("scenario", "First scenario", "table", tuple(choices), tuple(preferred))
    # "Each player chooses one die and one Wizard card": the table knows whose power is whose
    return (scenario, Option("wizard", "Wizard", "player", wizards)) if wizards else (scenario,)
