"""The lab and the table play by one engine: seeded lab games of every game, at every player count
its YAML allows and with every policy, replayed move by move through the companion's reducer
(`table.decide` and `table.evolve`, the path a phone's action takes). Every move must be accepted,
its draws asked for as the lab drew them, and after each the table's state must equal the lab's;
the lab's outcome (winner, end, turns, rounds) is the one the table shows at the end. A divergence
fails with the game, the players, the policy, the seed, the game's number and the move.

`make bench` plays 10,000 games a game the same way (benchmarks/engine.py).
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from spellpress.core import load_games
from spellpress.core.engine import check, lab_of, outcome_agrees
from spellpress.core.games import RULESETS
from spellpress.core.play.errors import TableError
from spellpress.lab.engine import game_rng

GAMES = 45  # a game over its player counts and policies: 3 of each of PowerMage 54's 15 kinds; make bench plays 10,000
SEED = 25

LABBED = sorted(slug for slug, ruleset in RULESETS.items() if lab_of(ruleset) is not None)


@pytest.fixture(scope="module")
def games(cards_dir):
    """A game of each labbed ruleset: cards/'s, else the tests' own small one (tests/fixtures/games:
    no game of cards/ is of YAML alone)."""
    found = {g.ruleset: g for g in load_games(cards_dir) if g.ruleset in LABBED}
    for g in load_games(Path(__file__).parent / "fixtures" / "games"):
        found.setdefault(g.ruleset, g)
    return found


@pytest.mark.parametrize("slug", LABBED)
def test_every_lab_game_replays_at_the_table_move_for_move(games, slug):
    game = games[slug]
    lab = lab_of(RULESETS[slug])
    prepared = lab.prepare(game)
    kinds = list(product(range(game.players.min, game.players.max + 1), sorted(lab.policies)))
    for i in range(GAMES):  # game i of one seed, as `simulate --seed` numbers its games
        players, policy = kinds[i % len(kinds)]
        case = f"{slug}, {players} players, policy {policy}, game {i} of seed {SEED}"
        try:
            outcome = lab.play(prepared, game_rng(SEED, i), players, (policy,) * players, lab.turn_cap, True)
        except TableError as refused:
            pytest.fail(f"{case}: the lab made a move the table refuses: {refused}")
        assert outcome.match is not None, f"{case}: the lab did not play through the game's engine"
        assert outcome.match.moves, f"{case}: no move was made"
        found = check(outcome.match)
        assert found is None, f"{case}: {found}"
        disagreement = outcome_agrees(outcome)
        assert disagreement is None, f"{case}: {disagreement}"
