"""`spellpress simulate`: checks its input, plays the games and returns the report."""

from __future__ import annotations

from typing import Any

from ..core.engine import Lab, lab_of
from ..core.games import RULESETS
from ..core.models import Game
from .engine import LabError, Plan, run
from .report import build

# Every game whose folder declares a lab (core/games/<game>/lab.py), by ruleset.
LABS: dict[str, Lab] = {slug: lab for slug, ruleset in RULESETS.items() if (lab := lab_of(ruleset)) is not None}


def lab_for(game: Game) -> Lab:
    lab = LABS.get(game.ruleset)
    if lab is None:
        raise LabError(f"the lab cannot play {game.slug} yet (its ruleset '{game.ruleset}'); "
                       f"it plays {', '.join(sorted(LABS))}")
    refused = lab.refuses(game) if lab.refuses else None
    if refused:
        raise LabError(f"the lab cannot play {refused}")
    return lab


def plan_for(game: Game, seed: int, players: int | None, policies: list[str] | None) -> Plan:
    lab = lab_for(game)
    k = players if players is not None else game.players.min
    if not game.players.min <= k <= game.players.max:
        span = f"{game.players.min}" if game.players.min == game.players.max else f"{game.players.min} to {game.players.max}"
        raise LabError(f"--players {k}: {game.slug} is for {span} players")
    names = policies or ["random"]
    for name in names:
        if name not in lab.policies:
            raise LabError(f"unknown policy '{name}' for {game.slug}: the policies are {', '.join(sorted(lab.policies))}")
    if len(names) not in (1, k):
        raise LabError(f"--policy names one policy for every seat, or one per seat ({k}); got {len(names)}")
    per_seat = tuple(names * k if len(names) == 1 else names)
    return Plan(lab, lab.prepare(game), seed, k, per_seat)


def simulate(game: Game, games: int, seed: int, players: int | None = None, policies: list[str] | None = None,
             workers: int = 1, client: Any = None) -> dict[str, Any]:
    """The report of `games` seeded games; played on a Dask cluster when given its client (lab/cluster.py)."""
    if not 1 <= games < 2**32:
        raise LabError(f"--games {games}: play at least 1 game, and fewer than 2**32")
    if seed < 0:
        raise LabError(f"--seed {seed}: a seed is a whole number 0 or more")
    if workers < 1:
        raise LabError(f"--workers {workers}: use at least 1 worker")
    plan = plan_for(game, seed, players, policies)
    if client is not None:
        from . import cluster  # imported here: Dask's distributed takes 0.7 s to import, and only --cluster needs it

        return build(game, plan.lab, plan, cluster.run(client, plan, games))
    return build(game, plan.lab, plan, run(plan, games, workers))
