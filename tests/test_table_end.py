"""How a game ended, as the rules core says it (issue 29, build item 2): a finished table's state
holds `end` (the winner, or the party's win or loss, in the words every phone shows at its top),
decided by the game's own tracker from the fields it keeps, gone again once the game is reopened,
undone or started anew. Every state here equals the fold of its events (test_trackers.Table)."""

from __future__ import annotations

import dataclasses

import pytest

from spellpress.core import table
from spellpress.core.games import ruleset_of
from test_trackers import Table

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
LAST_STANDING = {  # each game where one player wins: its words for the winner and for nobody
    "magicka-mayhem": ("{} wins!", "Nobody is left standing."),
    "spellchamber": ("{} wins!", "No wizard is left standing."),
    "powermage-54": ("{} wins!", "Everyone is defeated."),
    "sorcerer-duel": ("{} wins the duel!", "Both sorcerers fell."),
}


def fell(t: Table, i: int) -> None:
    """Player `i` loses all of the counter that puts them out."""
    life = t.state["life"]
    t.act({"type": "adjust", "player": i, "counter": life, "delta": -t.state["players"][i]["counters"][life]})


def player_counts(game):
    return range(game.players.min, min(game.players.max, 6) + 1)


@pytest.mark.parametrize("slug", sorted(LAST_STANDING))
def test_the_last_one_standing_is_named_at_every_player_count(games, slug):
    game = games[slug]
    wins, _ = LAST_STANDING[slug]
    for n in player_counts(game):
        t = Table(game, NAMES[:n])
        assert "end" not in t.state
        for i in range(n - 1):  # everyone but the last seat falls, one by one
            assert "end" not in t.state, f"{n} players: the game ended with {n - 1 - i} still to fall"
            fell(t, i)
        assert t.state["end"] == {"text": wins.format(NAMES[n - 1]), "winner": n - 1, "won": True}
        assert t.state["end"]["winner"] == t.t["winner"], "the end is the tracker's own winner"

        t.act({"type": "reopen"})
        assert "end" not in t.state, "a reopened game is not over on the phones"
        t.act({"type": "bring_back", "player": 0, "to": 1})
        fell(t, 0)
        assert t.state["end"]["winner"] == n - 1, "played on, it ends again"
        t.act({"type": "new_game"})
        assert "end" not in t.state and t.state["games"] == 2


def test_an_undone_last_blow_takes_the_end_back(games):
    t = Table(games["magicka-mayhem"], ["Ann", "Ben"])
    fell(t, 0)
    assert t.state["end"]["text"] == "Ben wins!"
    t.act({"type": "undo"})
    assert "end" not in t.state


def test_the_party_wins_or_loses_together(games):
    game = games["powers-combined"]
    for n in player_counts(game):
        lost = Table(game, NAMES[:n])
        lost.act({"type": "adjust", "counter": "lives", "delta": -lost.counter("lives")})
        assert lost.state["end"] == {"text": "No lives left: the party has lost.", "winner": None, "won": False}
        won = Table(game, NAMES[:n])
        won.act({"type": "go_to", "to": won.state["rules"]["last"]})
        won.act({"type": "resolve", "result": "won", "runes": 1})
        assert won.t["outcome"] == "won"
        assert won.state["end"] == {"text": "The caves are cleared: the party wins!", "winner": None, "won": True}


def test_a_tracker_without_words_of_its_own_names_its_winner(games):
    """A game whose tracker says nothing of its end (a new one, say) still has one, from the
    `winner` every tracker keeps."""
    game = games["powermage-54"]
    t = Table(game, ["Ann", "Ben"])
    fell(t, 1)
    plain = dataclasses.replace(ruleset_of(game).tracker, end=None)
    assert table._ended(plain, t.state) == {"text": "Ann wins!", "winner": 0, "won": True}
    nobody = {**t.state, "tracker": {**t.t, "winner": None}}
    assert table._ended(plain, nobody) == {"text": "Nobody won.", "winner": None, "won": False}
