"""`spellpress validate --balance`: a quick seeded run of each game the lab plays, and the checks
a designer wants before printing (issue 19): a game that cannot end, a card nobody plays, a seat
that wins more than game.yaml's `balance:` allows (models.Balance, with its defaults' reasons).

A game that cannot end and a seat's edge are problems, said at the line of the threshold they
break (at game.yaml when the threshold is the default, written nowhere); a card never played is
a warning. Only cards of a kind that is played in the run are checked (a creature, a spell, an
ammo card): scenarios and challenges are revealed, never played by a seat.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..core.models import Game
from ..core.problems import Problem, display_path
from .run import LABS, simulate
from .stats import wilson

GAMES = 300  # a few seconds a game on a two-core machine; the Balance defaults are set for it
SEED = 1
POLICY = "greedy"  # a sensible player where the game has one, else `random`
WORKERS = min(4, os.cpu_count() or 1)


@dataclass
class Checked:
    """One game's balance: a line of what was played, its problems and its warnings."""

    summary: str
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def note_unplayed(game: Game) -> str | None:
    """What to say of a game the lab cannot play (None: it can)."""
    lab = LABS.get(game.ruleset)
    if lab is None:
        return f"note: {game.slug}: not checked for balance: the lab cannot play its ruleset '{game.ruleset}' yet"
    refused = lab.refuses(game) if lab.refuses else None
    return f"note: {game.slug}: not checked for balance: {refused}" if refused else None


def check(game: Game, games: int = GAMES, seed: int = SEED, workers: int = WORKERS) -> Checked:
    lab = LABS[game.ruleset]
    policy = POLICY if POLICY in lab.policies else "random"
    report = simulate(game, games, seed, policies=[policy], workers=workers)
    played = f"{games} games, {report['players']} players, policy {policy}, seed {seed}"
    if "clear_rate" in report:
        summary = f"{game.slug}: {played}: the party clears {report['clear_rate'] * 100:.1f}%"
    else:
        rates = " / ".join(f"{rate * 100:.1f}%" for rate in report["win_rate"])
        summary = f"{game.slug}: {played}: seats win {rates}, first player {report['first_player']['edge'] * 100:+.1f} points"
    checked = Checked(f"{summary}, {report['unfinished']} unfinished")
    checked.problems += _unfinished(game, report) + _seat_edges(game, report)
    checked.warnings += _never_played(game, report, lab.modelled(game)[0], policy)
    return checked


def _at(game: Game, key: str, message: str) -> Problem:
    """A problem at the line of the threshold `key` in game.yaml, or at the file when it is the default."""
    written = game.balance_at.get(key)
    if written is not None:
        return Problem(*written, f"balance.{key}", message)
    return Problem(display_path(game.root / "game.yaml"), 0, 0, f"balance.{key}",
                   f"{message} (the default: set `balance: {{{key}: ...}}` in game.yaml to change it)")


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _unfinished(game: Game, report: dict[str, Any]) -> list[Problem]:
    n, most = report["games"], game.balance.max_unfinished
    share = report["unfinished"] / n
    if share <= most:
        return []
    return [_at(game, "max_unfinished", f"{report['unfinished']} of {n} games ({_pct(share)}) were still going at the lab's "
                                        f"turn cap ({report['turn_cap']}): the game may not end; at most {_pct(most)} may")]


def _seat_edges(game: Game, report: dict[str, Any]) -> list[Problem]:
    if "seats" not in report:  # co-operative: the party wins or loses together
        return []
    most, k, n = game.balance.max_seat_edge, report["players"], report["games"]
    fair = 1 / k
    said = f"of {n} games"
    limit = f"over its fair share {_pct(fair)}; this game allows {most * 100:.1f} points"
    problems = []
    first = report["first_player"]
    who_wins = [(f"seat {seat['seat']}", seat["wins"]) for seat in report["seats"]]
    if all(seat["first"] < n for seat in report["seats"]):  # where one seat always starts, its line says it
        who_wins.append((f"the first player ({first['rule']})", first["wins"]))
        if k == 2:  # in a duel the second player's edge is one too, and no seat need show it (who starts is drawn)
            who_wins.append(("the second player", sum(seat["wins"] for seat in report["seats"]) - first["wins"]))
    for who, wins in who_wins:
        if wins / n - fair > most:
            lo, hi = wilson(wins, n)
            problems.append(_at(game, "max_seat_edge", f"{who} wins {_pct(wins / n)} {said} (95% CI "
                                f"{_pct(lo)}-{_pct(hi)}), {(wins / n - fair) * 100:.1f} points {limit}"))
    return problems


def _never_played(game: Game, report: dict[str, Any], applied: list[str], policy: str) -> list[str]:
    """A warning for each applied card of a played kind that no seat played in the run."""
    seen = {c["id"]: c for c in report["cards"]}
    kinds = {game.card(cid).type for cid, c in seen.items() if c["played"]}
    out = []
    for cid in applied:
        card = game.card(cid)
        if card.type not in kinds or seen.get(cid, {}).get("played"):
            continue
        drawn = seen.get(cid, {}).get("drawn", 0)
        why = f"drawn {drawn} times, never played" if drawn else "never came into play"
        out.append(f"warning: {card.where}: {card.type} '{card.name}' ({cid}): {why} in {report['games']} games "
                   f"(policy {policy}): can it be played at all?")
    return out
