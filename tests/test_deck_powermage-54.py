"""PowerMage 54's deck (issue 6): exactly deck_size cards, every action and PowerMage ability
that the tutorial lists on a card of its own, and values that make a game that ends.

The game is loaded on its own (load_game), so that work in progress on another game's cards
cannot hide what these tests say about this one.
"""

import re
import shutil
from math import comb

import pytest

from spellpress.core import ValidationFailed, load_game

SLUG = "powermage-54"


@pytest.fixture(scope="module")
def game(cards_dir):
    return load_game(cards_dir / SLUG)


@pytest.fixture(scope="module")
def deck(game):
    return game.decks[game.constants.draw_deck]


def cards_of(deck, type_):
    return [card for card in deck.cards if card.type == type_]


def values(deck, type_, field="value"):
    """Every copy's value: a card with count 3 counts three times."""
    return [card[field] for card in cards_of(deck, type_) for _ in range(card.count)]


def text_of(card):
    """What a card says: an Action card's text, a PowerMage's ability and extra ability."""
    return " ".join(card.get(f) or "" for f in ("text", "ability", "extra"))


# ------------------------------------------------------------------------------ the size


def test_the_deck_holds_exactly_deck_size_cards(game, deck):
    c = game.constants
    assert c.deck_size == 54
    assert deck.total == c.deck_size
    # The game is played from this one deck; besides it the box holds only the table aids.
    assert set(game.decks) == {c.draw_deck, "aids"}
    by_type = {t: sum(card.count for card in cards_of(deck, t)) for t in deck.types}
    assert set(by_type) == {"attack", "defense", "health", "thump", "action", "powermage"}
    assert all(n > 0 for n in by_type.values()), by_type
    assert sum(by_type.values()) == c.deck_size


def test_ids_and_names_are_unique_in_the_game(game):
    ids = [card.id for card in game.cards]
    names = [card.name for card in game.cards]
    assert len(set(ids)) == len(ids)
    assert len(set(names)) == len(names)


def copy_game(cards_dir, tmp_path):
    copy = tmp_path / SLUG
    shutil.copytree(cards_dir / SLUG, copy)
    return copy


def replace_once(path, old, new):
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        # a card too few, a card too many, and a deck_size that no longer matches the cards
        ("draw.yaml", "value: 10, count: 4}", "value: 10, count: 3}",
         "deck 'draw' holds 53 cards (each card times its count), but deck_size is 54: add 1 card(s) or change deck_size"),
        ("draw.yaml", "value: 5, count: 3}\n  - {id: fire-bolt", "value: 5, count: 5}\n  - {id: fire-bolt",
         "deck 'draw' holds 56 cards (each card times its count), but deck_size is 54: take out 2 card(s) or change deck_size"),
        ("game.yaml", "deck_size: 54", "deck_size: 52",
         "deck 'draw' holds 54 cards (each card times its count), but deck_size is 52: take out 2 card(s) or change deck_size"),
    ],
)
def test_a_deck_whose_total_is_not_deck_size_fails_validation(cards_dir, tmp_path, file, old, new, message):
    copy = copy_game(cards_dir, tmp_path)
    replace_once(copy / file, old, new)
    with pytest.raises(ValidationFailed) as failed:
        load_game(copy)
    [problem] = failed.value.problems
    assert problem.message == message
    # Reported where deck_size is written, so the designer sees both numbers' homes.
    game_yaml = (copy / "game.yaml").read_text().splitlines()
    assert problem.file.endswith("game.yaml") and problem.path == "constants.deck_size"
    assert game_yaml[problem.line - 1].strip().startswith("deck_size:")


def test_the_draw_deck_constant_must_name_a_deck(cards_dir, tmp_path):
    copy = copy_game(cards_dir, tmp_path)
    replace_once(copy / "game.yaml", "draw_deck: draw", "draw_deck: drawn")
    with pytest.raises(ValidationFailed) as failed:
        load_game(copy)
    assert [p.message for p in failed.value.problems] == ["unknown deck 'drawn' (did you mean 'draw'?)"]


# ------------------------------------------------------ what the tutorial lists, on cards

# The tutorial's action cards, in its order, each as patterns that the card's own text must
# all match (case-insensitive). Wording is ours, so the patterns test meaning, not sentences.
TUTORIAL_ACTIONS = {
    "combine and shuffle both draw and discard decks": [r"shuffle", r"discard pile", r"draw deck"],
    "look at any one player's hand": [r"\blook at\b", r"\bhand\b"],
    "take a card from a player's hand, unseen": [r"\btake one card\b", r"\bhand\b", r"hidden|without seeing|face down"],
    "discard your hand and draw a new one": [r"discard every card in your hand", r"\bdraw {starting_hand} new cards\b"],
    "take any one thump card from the discard pile": [r"\btake\b", r"\bthump card\b", r"\bdiscard pile\b"],
    "any one player loses a face card": [r"\bdiscards?\b[^.]*\bPowerMage\b"],
    "swap hands with another player": [r"\btrade\b|\bswap\b", r"\bhand\b[^.]*\bhand\b"],
    "turn damage received into health": [r"\bwhen you are attacked\b", r"\bgain\b"],
    "switch health with any player": [r"\btrade\b|\bswap\b|\bswitch\b", r"\bpoints\b", r"\btheir total\b"],
    "take any face card from a player, unseen": [r"\btake\b", r"\bPowerMages?\b", r"without seeing|face down|hidden"],
}

TUTORIAL_ABILITIES = {
    "take an Attack or Defense card from a player, who shows them all": [r"\bshow you every Attack and Defense card\b", r"\btake one\b"],
    "take another turn": [r"\banother turn\b"],
    "use two Attack or Defense cards, one thump for both": [r"\btwo Attack or Defense cards\b", r"\bsingle thump card\b[^.]*\bboth\b"],
    "take any Attack or Defense card from the discard pile": [r"\btake\b", r"\bAttack or Defense card\b", r"\bdiscard pile\b"],
    "destroy all Attack and Defense cards in one player's hand": [r"\bevery Attack and Defense card\b", r"\bgoes to the discard pile\b"],
    "use as an Attack or Defense card worth 10, thump allowed":
        [r"\bas an Attack card\b", r"\bas a Defense card\b", r"\b10\b", r"\bthump\b"],
    "cannot be defended: lose a PowerMage or take 50": [r"\bcannot be defended\b", r"\bPowerMage\b", r"\b50 points\b"],
    "destroy all thump cards in all players' hands": [r"\bevery thump card in every player's hand\b", r"\bdiscard pile\b"],
    "multiply an Attack or Defense card by 10": [r"\bmultipl", r"\bby 10\b", r"\bAttack card\b", r"\bDefense card\b"],
    "hold up to 7 cards": [r"\bhold up to 7 cards\b"],
    "take no damage and divert the attack, even to the attacker":
        [r"\bwhen you are attacked\b", r"\blose no points\b", r"\bsend the attack\b", r"\battacker\b"],
    "turn damage received into health": [r"\bwhen you are attacked\b", r"\blose no points\b", r"\bgain\b"],
}


def matches(card, patterns, context):
    text = text_of(card)
    return all(re.search(p.format(**context), text, re.I) for p in patterns)


def assign(entries, cards, context):
    """A card of its own for every entry (a perfect matching, by backtracking), or None."""
    options = {label: [c for c in cards if matches(c, patterns, context)] for label, patterns in entries.items()}
    labels = sorted(options, key=lambda label: len(options[label]))

    def search(i, used):
        if i == len(labels):
            return {}
        for card in options[labels[i]]:
            if card.id not in used:
                rest = search(i + 1, used | {card.id})
                if rest is not None:
                    return {labels[i]: card.id, **rest}
        return None

    return options, search(0, frozenset())


@pytest.mark.parametrize("type_, entries", [("action", TUTORIAL_ACTIONS), ("powermage", TUTORIAL_ABILITIES)])
def test_every_action_and_ability_the_tutorial_lists_is_on_a_card_of_its_own(game, deck, type_, entries):
    cards = cards_of(deck, type_)
    options, assignment = assign(entries, cards, game.text_context)
    missing = [label for label, found in options.items() if not found]
    assert not missing, f"no {type_} card says: {missing}"
    assert assignment is not None, f"some {type_} cards would have to carry two of the tutorial's effects: {options}"
    # And nothing beyond the tutorial: every card of the type is one of its entries, once.
    assert sorted(assignment.values()) == sorted(card.id for card in cards)
    assert sum(card.count for card in cards) == len(entries)


def test_blister_and_annihilator_are_named_and_annihilator_cancels_blister(deck):
    by_name = {card.name: card for card in deck.cards}
    blister, annihilator = by_name["Blister"], by_name["Annihilator"]
    assert blister.type == annihilator.type == "powermage"
    assert re.search(r"cannot be defended", blister["ability"])
    assert re.search(r"two Attack or Defense cards", annihilator["ability"])
    extra = annihilator["extra"]
    assert re.search(r"\bcancels Blister's ability\b", extra, re.I)
    assert re.search(r"\bAnnihilator stays in your hand\b", extra)
    # Only Annihilator has an extra ability, as in the tutorial.
    assert [card.name for card in cards_of(deck, "powermage") if card.get("extra")] == ["Annihilator"]


def test_when_a_card_is_played_agrees_with_what_it_says(deck):
    """The type line prints the timing: it must not contradict the card's own text."""
    for card in cards_of(deck, "action") + cards_of(deck, "powermage"):
        text, timing = text_of(card), card["timing"]
        answers = bool(re.search(r"\bwhen you are attacked\b", text, re.I))
        if timing == "when attacked":
            assert answers, card.id
        elif timing == "to attack or defend":
            # it says how it attacks and how it defends
            assert re.search(r"\battack\b", text, re.I) and re.search(r"\bdefen(d|se)\b", text, re.I), card.id
        elif timing == "while in your hand":
            assert re.search(r"\bin your hand\b", text) and re.search(r"never used up", text), card.id
        else:
            assert timing == "on your turn" and not answers, card.id


# ------------------------------------------------------------------ the values make a game


def test_the_value_distribution_makes_a_game_that_ends(game, deck):
    """The figures, with today's deck: 13 Attack cards worth 160 points (mean 12.31), 7 Defense
    cards worth 65 (mean 9.29), 6 Health cards worth 60 (mean 10.0), thumps x2 and x3."""
    c = game.constants
    attack, defense, health = values(deck, "attack"), values(deck, "defense"), values(deck, "health")
    thumps = values(deck, "thump", "multiplier")

    def mean(xs):
        return sum(xs) / len(xs)

    assert (len(attack), sum(attack), round(mean(attack), 2)) == (13, 160, 12.31)
    assert (len(defense), sum(defense), round(mean(defense), 2)) == (7, 65, 9.29)
    assert (len(health), sum(health), round(mean(health), 2)) == (6, 60, 10.0)

    # An attack answered by a Defense card still costs points on average...
    assert mean(attack) > mean(defense)
    # ...and not every attack can be answered at all.
    assert len(attack) > len(defense)
    # The deck as a whole takes more points than it blocks and gives back, so every pass
    # through it brings the table nearer an end (the halving on an empty deck comes on top).
    assert sum(attack) > sum(defense) + sum(health)
    # No single Attack card, even with the biggest thump, knocks out a fresh mage...
    assert max(attack) * max(thumps) < c.starting_points
    # ...nor does Blister's undefendable blow, though it outhits any Attack card unthumped.
    blister = next(card for card in deck.cards if card.name == "Blister")
    damage = int(re.search(r"(\d+) points", blister["ability"]).group(1))
    assert max(attack) < damage < c.starting_points
    # Values are steps of 5, so the halving on an empty draw deck keeps round scores longer.
    assert all(v % 5 == 0 for v in attack + defense + health)
    assert all(m >= 2 for m in thumps)


def test_a_thump_card_is_rarely_dead_in_the_opening_hand(game, deck):
    """A thump needs a PowerMage shown. With 12 PowerMages among 54 cards, an opening hand of 5
    holds at least one with probability 1 - C(42,5)/C(54,5) = 0.731."""
    c = game.constants
    mages = sum(card.count for card in cards_of(deck, "powermage"))
    p = 1 - comb(c.deck_size - mages, c.starting_hand) / comb(c.deck_size, c.starting_hand)
    assert round(p, 3) == 0.731
    assert p > 0.5
    # And an opening hand usually has something to attack with: 1 - C(41,5)/C(54,5) = 0.763.
    attacks = sum(card.count for card in cards_of(deck, "attack"))
    q = 1 - comb(c.deck_size - attacks, c.starting_hand) / comb(c.deck_size, c.starting_hand)
    assert round(q, 3) == 0.763 and q > 0.5


def test_the_deal_leaves_a_draw_deck_at_the_largest_table(game):
    c = game.constants
    assert c.starting_hand * game.players.max < c.deck_size
    assert c.hand_limit >= c.starting_hand
