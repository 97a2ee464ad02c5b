"""Sorcerer Duel's decks are complete and playable (issue 6).

Each player deck has a playable curve, the sizes the issue asks for, every kind of card the
rulebook names, and summoning requirements that name something the deck itself holds.
"""

import random
import re
import shutil
from math import comb

import pytest

from spellpress.core import ValidationFailed, load_game
from spellpress.core.games.sorcerer_duel.ruleset import most_mana

SLUG = "sorcerer-duel"
MIN_DECK = 30  # issue 6: two decks of at least 30 cards
MIN_SORCERERS = 4  # issue 6: at least 4 sorcerers
# The bound on "an opening hand holds a card you can play on your first turn without converting".
# A hand with none costs its owner the first turn (or two cards converted for one), a heavy
# start in a game of about a dozen turns; one such game in twenty is the most we accept.
MIN_PLAYABLE_OPENING = 0.95


def player_decks(game):
    return [game.decks[d] for d in game.constants.player_decks]


def copies(deck, keep):
    return sum(card.count for card in deck.cards if keep(card))


def copy_game(cards_dir, tmp_path):
    root = tmp_path / SLUG
    shutil.copytree(cards_dir / SLUG, root)
    return root


def edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1))


# ------------------------------------------------------------------------- sizes and contents


def test_the_sizes_the_issue_asks_for(games):
    game = games[SLUG]
    assert len(game.constants.player_decks) >= 2
    for deck in player_decks(game):
        assert deck.total >= MIN_DECK, f"{deck.name} holds {deck.total} cards, fewer than {MIN_DECK}"
    assert game.decks["sorcerers"].total >= MIN_SORCERERS
    assert game.decks["tokens"].total > 0


@pytest.mark.parametrize("deck_id", ["ember", "thornwood"])
def test_each_deck_has_creatures_spells_for_one_and_for_a_side_and_blockers(games, deck_id):
    deck = games[SLUG].decks[deck_id]
    creatures = [c for c in deck.cards if c.type == "creature"]
    spells = [c for c in deck.cards if c.type == "attack-spell"]
    assert creatures, "no creatures"
    for card in creatures:
        assert all(isinstance(card[f], int) for f in ("cost", "attack", "health")), card.id
    assert any(c.get("requirement") for c in creatures), "no creature has a summoning requirement"
    assert any(c.get("death") for c in creatures), "no creature has a death effect"
    assert any(c["target"] == "one" for c in spells), "no attack spell for one target"
    assert any(c["target"] == "side" for c in spells), "no attack spell for a whole side"
    assert any(c.type == "blocker" for c in deck.cards), "no blockers"


def test_ids_and_names_are_unique_in_the_game(games):
    cards = games[SLUG].cards
    for key in ("id", "name"):
        seen = [getattr(c, key) for c in cards]
        assert sorted({x for x in seen if seen.count(x) > 1}) == [], key


# ------------------------------------------------------------------------- the curve


def opening_hand_chance(deck, hand, playable) -> float:
    """The exact chance that a hand of `hand` cards from the shuffled deck holds at least one
    playable card: one minus the hypergeometric chance of drawing none of them."""
    total, good = deck.total, copies(deck, playable)
    return 1 - comb(total - good, hand) / comb(total, hand)


@pytest.mark.parametrize("deck_id", ["ember", "thornwood"])
def test_an_opening_hand_almost_always_holds_a_first_turn_play(games, deck_id):
    game = games[SLUG]
    c, deck = game.constants, game.decks[deck_id]

    def cheap(card):  # payable from a turn's own mana, without converting
        return card["cost"] <= c.mana_per_turn

    def playable(card):  # ... and with no summoning requirement to meet first
        return cheap(card) and not card.get("requirement")

    p_cheap = opening_hand_chance(deck, c.starting_hand, cheap)
    p = opening_hand_chance(deck, c.starting_hand, playable)
    print(f"\n{deck.name}: {copies(deck, playable)} of {deck.total} cards cost at most "
          f"{c.mana_per_turn} mana with no requirement; an opening hand of {c.starting_hand} "
          f"holds one with chance {p:.5f} (any card costing at most {c.mana_per_turn}: {p_cheap:.5f})")
    assert p >= MIN_PLAYABLE_OPENING, (
        f"{deck.name}: only {p:.4f} of opening hands of {c.starting_hand} hold a card costing at "
        f"most {c.mana_per_turn} mana with no requirement; want at least {MIN_PLAYABLE_OPENING}")

    # The same chance, counted by shuffling the printed deck: the formula is applied rightly.
    rng, cards = random.Random(6), [card for card in deck.cards for _ in range(card.count)]
    trials = 20000
    hits = sum(any(playable(x) for x in rng.sample(cards, c.starting_hand)) for _ in range(trials))
    assert abs(hits / trials - p) < 0.01, (hits / trials, p)


def test_the_chance_is_computed_from_the_counts():
    """A hand-checked case: 2 playable cards in 6, a hand of 2: 1 - C(4,2)/C(6,2) = 1 - 6/15."""

    class Deck:
        total = 6
        cards = ()

    deck = Deck()
    deck.cards = (type("Card", (), {"count": 2, "ok": True})(), type("Card", (), {"count": 4, "ok": False})())
    assert opening_hand_chance(deck, 2, lambda card: card.ok) == pytest.approx(1 - 6 / 15)


def test_every_card_can_be_paid_in_one_turn(games):
    game = games[SLUG]
    c = game.constants
    most = c.mana_per_turn + c.max_conversions * c.mana_per_conversion
    assert most_mana(c) == most
    for deck in player_decks(game):
        for card in deck.cards:
            assert card["cost"] <= most, f"{card.id} costs {card['cost']}, a turn gives at most {most}"
            # converting takes other cards from the hand: the opening hand has room for them
            assert max(0, card["cost"] - c.mana_per_turn) <= c.starting_hand - 1, card.id


def test_a_card_that_costs_more_than_a_turn_gives_is_refused(cards_dir, tmp_path):
    root = copy_game(cards_dir, tmp_path)
    edit(root / "thornwood.yaml", "name: Elder Treant\n    art: game-icons:tree-face\n    cost: 4",
         "name: Elder Treant\n    art: game-icons:tree-face\n    cost: 5")
    with pytest.raises(ValidationFailed, match=r"it costs 5 mana but a turn gives at most 4"):
        load_game(root)


# ------------------------------------------------------------------------- summoning requirements


def test_every_summoning_requirement_names_something_in_the_game_and_its_deck(games):
    game = games[SLUG]
    names = {card.id: card.name for card in game.cards}
    checked = 0
    for deck in player_decks(game):
        for card in deck.cards:
            if card.type != "creature" or not card.get("requirement"):
                assert not card.get("needs"), f"{card.id} has 'needs' but no requirement"
                continue
            needs = card.get("needs")
            assert needs, f"{card.id}: its requirement does not say what it needs"
            if needs in game.card_types:
                name = game.card_types[needs].name
                assert any(other.type == needs for other in deck.cards), f"{card.id}: {deck.id} has no {needs}"
            else:
                assert needs in names, f"{card.id} needs '{needs}', which is no card type and no card"
                assert needs in {other.id for other in deck.cards}, f"{card.id} needs '{needs}' from another deck"
                assert needs != card.id
                name = names[needs]
            assert name.lower() in card["requirement"].lower(), (card.id, card["requirement"], name)
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("needs, message", [
    ("mosling", r"'mosling' is neither a card type nor a card of deck 'thornwood' \(did you mean 'mossling'\?\)"),
    ("cinder-imp", r"'cinder-imp' is neither a card type nor a card of deck 'thornwood'; 'cinder-imp' is in another deck"),
])
def test_a_requirement_naming_nothing_in_its_deck_is_refused(cards_dir, tmp_path, needs, message):
    root = copy_game(cards_dir, tmp_path)
    edit(root / "thornwood.yaml", "needs: mossling", f"needs: {needs}")
    with pytest.raises(ValidationFailed, match=message):
        load_game(root)


def test_a_requirement_whose_text_does_not_say_what_it_needs_is_refused(cards_dir, tmp_path):
    root = copy_game(cards_dir, tmp_path)
    edit(root / "thornwood.yaml", "requirement: have a Mossling on your side.", "requirement: have a friend.")
    with pytest.raises(ValidationFailed, match=r"its text never says 'Mossling'"):
        load_game(root)


# ------------------------------------------------------------------------- sorcerers and tokens


def test_sorcerers_start_at_the_constant_and_each_has_an_effect_of_its_own(games, cards_dir, tmp_path):
    game = games[SLUG]
    sorcerers = game.decks["sorcerers"].cards
    assert len(sorcerers) >= MIN_SORCERERS
    assert {card["health"] for card in sorcerers} == {str(game.constants.starting_health)}
    effects = [" ".join(card["text"].lower().split()) for card in sorcerers]
    assert all(effects) and len(set(effects)) == len(effects)
    # the health printed on them follows the constant
    root = copy_game(cards_dir, tmp_path)
    edit(root / "game.yaml", "starting_health: 20", "starting_health: 27")
    changed = load_game(root)
    assert {card["health"] for card in changed.decks["sorcerers"].cards} == {"27"}


def test_health_tokens_show_any_losses_of_both_sorcerers_at_once(games):
    game = games[SLUG]
    full = game.constants.starting_health
    supply = {}
    for card in game.decks["tokens"].cards:
        supply[card["value"]] = supply.get(card["value"], 0) + card.count
    assert sum(v * n for v, n in supply.items()) >= 2 * full

    def fits(losses):
        left = dict(supply)
        for loss in losses:
            for value in sorted(left, reverse=True):
                take = min(left[value], loss // value)
                left[value] -= take
                loss -= take * value
            if loss:
                return False
        return True

    bad = [(a, b) for a in range(full) for b in range(full) if not fits((a, b))]
    assert bad == []


# ------------------------------------------------------------------------- rule text


def test_the_rules_explain_every_phrase_the_cards_use(games):
    game = games[SLUG]
    rules = " ".join(s.text for s in game.rules).lower()
    words = ["one target", "your side", "regains", "shuffle it into your deck", "at the start of your turn",
             "at the end of your turn", "destroy", "draw", "can attack on the turn", "dies", "convert"]
    card_text = " ".join(str(card.get(f, "")) for card in game.cards for f in ("text", "death", "requirement")).lower()
    used = [w for w in words if w in card_text]
    assert len(used) >= 8, used
    assert [w for w in used if w not in rules] == []
    # the whole-side sharing rule is there, and a note on each deck's intent and balance
    assert "as evenly as possible" in game.rule("whole-side").text
    note = game.rule("designers-note").text
    for deck in player_decks(game):
        assert deck.name.replace(" deck", "") in note


def test_what_the_designers_note_says_of_the_decks_holds(games):
    game = games[SLUG]
    c = game.constants
    ember, thornwood = game.decks["ember"], game.decks["thornwood"]

    def total(deck, kind, field):
        return sum(card[field] * card.count for card in deck.cards if card.type == kind)

    def mean(deck, kind, value):
        cards = [card for card in deck.cards if card.type == kind]
        return sum(value(card) * card.count for card in cards) / sum(card.count for card in cards)

    # "well over half of each deck costs [a turn's mana] or less and has no requirement"
    for deck in (ember, thornwood):
        share = copies(deck, lambda card: card["cost"] <= c.mana_per_turn and not card.get("requirement")) / deck.total
        assert share >= 0.6, (deck.id, share)
    # Ember's creatures are cheaper, Thornwood's sturdier for their cost
    assert mean(ember, "creature", lambda card: card["cost"]) < mean(thornwood, "creature", lambda card: card["cost"])

    def sturdiness(card):
        return card["health"] / max(card["cost"], 1)

    assert mean(thornwood, "creature", sturdiness) > mean(ember, "creature", sturdiness)
    # "several [Ember creatures] may attack on the turn they arrive"
    assert copies(ember, lambda card: "can attack on the turn" in card.get("text", "").lower()) >= 3
    # "[Thornwood's] blockers together hold about as much health as all the Ember Coven's spells can deal"
    walls, fire = total(thornwood, "blocker", "health"), total(ember, "attack-spell", "damage")
    assert abs(walls - fire) <= 0.2 * fire, (walls, fire)
    # Ember has the more reach and the thinner blockers
    assert total(ember, "attack-spell", "damage") > total(thornwood, "attack-spell", "damage")
    assert total(ember, "blocker", "health") < total(thornwood, "blocker", "health")
    # the cards and sorcerers it names are in the game
    note = game.rule("designers-note").text
    for word in ("imp", "phoenix", "drake", "matriarch", "sporecap", "Ignara", "Selka", "Bramble", "Oswin",
                 "Vessik", "Morrow"):
        assert word in note and any(word.lower() in card.name.lower() for card in game.cards), word


def test_rule_sections_of_the_rulebook_are_all_there(games):
    ids = {s.id for s in games[SLUG].rules}
    assert {"setup", "winning", "turn", "convert", "summon", "attack", "spells", "blockers", "whole-side",
            "damage", "creature-death", "card-words", "hand-limit", "deck-out", "tokens", "sorcerers",
            "designers-note"} <= ids
    assert not [s.id for s in games[SLUG].rules if re.search(r"\{\{|\{%", s.text)]


def test_a_creature_that_attacks_at_once_says_so_from_its_field(game):
    """Ashen Hound, Briar Wolf and Blazing Salamander: `haste`, and their text prints it."""
    hasty = {c.name for c in game.cards if c.get("haste")}
    assert hasty == {"Ashen Hound", "Briar Wolf", "Blazing Salamander"}
    for card in game.cards:
        assert ("Can attack on the turn it is summoned." in (card.get("text") or "")) == bool(card.get("haste")), card.id
