"""Sorcerer Duel: mana per turn, card conversions, the hand limit, each player's own deck,
where an attack's damage lands on a side with blockers (`one_target`, `whole_side`), and what
the cards' and sorcerers' effect fields do (`summon_options`, `death_draws`, `regained`, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pydantic

from ...models import Card, Game
from ...problems import did_you_mean
from ...ruleset import Report
from ...schema import Flag, Ident, Model, NonNegativeInt, PositiveInt
from ..checks import decks_exist

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


def check(game: Game, report: Report) -> None:
    c = game.constants_as(Constants)
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
            _check_death(card, report)
    for card in game.cards:
        if card.type == "sorcerer" and not any(card.get(f) is not None for f in SORCERER_EFFECTS):
            report.card(card, (), (
                "a sorcerer needs an effect, always on: give it one of " + ", ".join(SORCERER_EFFECTS)))


# The sorcerer's effect fields (decks.yaml declares them; each prints its own sentence).
SORCERER_EFFECTS = ("spell_bonus", "blocker_regains", "extra_conversions", "extra_death_draws", "haste_up_to",
                    "blocker_draws")
NO_SORCERER = "none"  # a seat whose sorcerer the table is not told: its effect is played by hand
DEATH_AMOUNTS = ("damage", "draw", "heal")  # the death effects that need a `death_amount`
# what a requirement's text says for each way `needs_how` meets it
NEEDS_WORDS = {"destroy": "destroy", "have": "have", "died": "died"}


def _check_death(card: Card, report: Report) -> None:
    """A death effect that deals, draws or heals says how much in `death_amount`; no other needs one."""
    effect, amount = card.get("death_effect"), card.get("death_amount")
    if effect in DEATH_AMOUNTS and amount is None:
        report.card(card, ("death_effect",), f"a '{effect}' death effect needs 'death_amount': how much")
    elif amount is not None and effect not in DEATH_AMOUNTS:
        report.card(card, ("death_amount",), (
            f"'death_amount' goes with a death_effect of {', '.join(DEATH_AMOUNTS)}"
            + (f", not '{effect}'" if effect else ": give the card a death_effect or take it out")))


def _check_requirement(game: Game, card: Card, types_here: set[str], cards_here: dict[str, Card], report: Report) -> None:
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
    how = card.get("needs_how")
    if how is None:
        report.card(card, ("needs",), (
            "'needs' goes with 'needs_how': destroy (one is destroyed to summon it), have (one is on "
            "your side) or died (one has died since the start of your last turn)"))
    elif NEEDS_WORDS[how] not in requirement.lower():
        report.card(card, ("needs_how",), f"needs_how is '{how}' but the requirement's text never says '{NEEDS_WORDS[how]}'")
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


# ---------------------------------------------------------------------------- turns


def turn_draws(first_skips_draw: bool, first_turn_of_game: bool, draws_per_turn: int) -> int:
    """Cards drawn as a turn starts: none on the game's first turn when the first player skips it."""
    return 0 if first_skips_draw and first_turn_of_game else draws_per_turn


def may_draw(held: int, hand_limit: int) -> bool:
    """At the hand limit a player draws no more (nothing is discarded: GUIDE.md section 3)."""
    return held < hand_limit


def summoning_sick(arrived: int, now: int, haste: bool) -> bool:
    """A creature cannot attack in the turn it arrives, unless its card gives it haste."""
    return arrived >= now and not haste


def sacrifices(needs: str | None, own: Sequence[tuple[str, str]]) -> list[int]:
    """Which of a player's own units (card id, card type) meet a summoning requirement's `needs`
    (a card type or a card id) and so may be destroyed for it; every one of them when it needs none."""
    if needs is None:
        return list(range(len(own)))
    return [i for i, (card, kind) in enumerate(own) if needs in (card, kind)]


def summon_options(how: str | None, needs: str | None, own: Sequence[tuple[str, str]], died_lately: bool) -> list[int | None]:
    """The ways a card may be summoned: None for as it is, or the index of the own unit (card
    id, card type) destroyed for a `destroy` requirement; none at all when the requirement is
    unmet. `have` needs one of `needs` on the side; `died` needs one of the player's creatures
    to have died since the start of their last turn (`died_lately`)."""
    if needs is None:
        return [None]
    if how == "destroy":
        return list(sacrifices(needs, own))
    if how == "have":
        return [None] if sacrifices(needs, own) else []
    return [None] if died_lately else []


def died_lately(last_death: int | None, now: int, players: int) -> bool:
    """Whether a player's creature has died since the start of their last turn (turns numbered
    from 1, every player's in turn): before a player's first turn, since the game began."""
    return last_death is not None and last_death >= now - players


def conversions_allowed(max_conversions: int, extra: int) -> int:
    """Cards a player may convert in a turn, with a sorcerer's extra conversions."""
    return max_conversions + extra


def death_draws(on_creature_death: int, extra: int, death_effect: str | None, amount: int) -> int:
    """Cards the owner draws as their creature dies: the rule's, a sorcerer's extra, and a
    `draw` death effect's amount (the hand limit still stops each draw)."""
    return on_creature_death + extra + (amount if death_effect == "draw" else 0)


def regained(health: int, amount: int, printed: int) -> int:
    """Health after regaining `amount` lost health: never above what is printed."""
    return min(health + amount, printed)


def once_a_turn(used_on: int | None, now: int) -> bool:
    """Whether an effect allowed once per turn is still free in turn `now`."""
    return used_on != now


def spell_bonus(reached: int, bonus: int, free: bool) -> int:
    """Damage an attack spell deals the opposing sorcerer with a once-a-turn bonus: `bonus`
    more when it damages the sorcerer at all and the bonus is still free this turn."""
    return reached + bonus if reached > 0 and free else reached


def heralded(cost: int, up_to: int | None, free: bool, haste: bool) -> bool:
    """Whether a sorcerer's once-a-turn effect lets a creature just summoned attack at once
    (one without haste of its own, costing `up_to` or less)."""
    return up_to is not None and free and not haste and cost <= up_to


# ---------------------------------------------------------------------------- damage


@dataclass(frozen=True)
class Blow:
    """Where an attack's damage lands on one side."""

    blockers: tuple[int, ...]  # what each blocker takes, in its owner's order
    creatures: tuple[int, ...]  # what each creature takes
    sorcerer: int
    lost: int = 0  # damage past a one-target creature's health: it goes nowhere
    odd: int = 0  # a whole-side attack's points that did not share evenly (the attacker places them)


def through_blockers(damage: int, blockers: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """What each blocker (by health left, in its owner's order) takes, and what gets past them all."""
    taken = []
    for health in blockers:
        take = min(damage, health)
        taken.append(take)
        damage -= take
    return tuple(taken), damage


def one_target(damage: int, blockers: Sequence[int], creatures: Sequence[int], target: int | None) -> Blow:
    """An attack at the sorcerer (`target` None) or at creature number `target`: the blockers
    first, what is left to the target; past a creature's health it is lost."""
    taken, left = through_blockers(damage, blockers)
    hits = [0] * len(creatures)
    if target is None:
        return Blow(taken, tuple(hits), left)
    hits[target] = min(left, creatures[target])
    return Blow(taken, tuple(hits), 0, left - hits[target])


def whole_side(damage: int, blockers: Sequence[int], creatures: Sequence[int]) -> Blow:
    """A whole-side attack: one pool, the blockers first; what gets past them is shared as evenly
    as possible among the creatures and the sorcerer. A creature that needs less than its share
    takes only what it needs and the rest is shared among the others. The odd points go to the
    sorcerer first, then the creatures in order (the attacker may place them otherwise)."""
    taken, pool = through_blockers(damage, blockers)
    hits = [0] * len(creatures)
    standing = list(range(len(creatures)))
    while True:
        share = pool // (len(standing) + 1)
        dying = [i for i in standing if creatures[i] <= share]
        if not dying:
            break
        for i in dying:
            hits[i] = creatures[i]
            pool -= creatures[i]
            standing.remove(i)
    share, odd = divmod(pool, len(standing) + 1)
    for n, i in enumerate(standing, start=1):
        hits[i] = share + (1 if n < odd else 0)
    return Blow(taken, tuple(hits), share + (1 if odd else 0), odd=odd)
