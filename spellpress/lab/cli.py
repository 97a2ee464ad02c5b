"""The `simulate` subcommand's arguments and its run: bad input is said in one line and exits 2.

Every command reads this module (its arguments are in `spellpress --help`), so what a run needs
(the core, the lab's engine and reports, reportlab for --pdf, Dask for --cluster) is imported
inside the functions that run it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.models import Game


MOST_GAMES = 10_000_000  # a run of a few hours on one core; more is a typo, or wants --cluster and several runs
MOST_SEED = 2**63 - 1
MOST_PLAYERS = 64  # the games say their own, fewer; this only keeps a number from being used before they do


def _most_workers() -> int:
    """Processes on this machine: more than four a core only wait for each other."""
    return 4 * (os.cpu_count() or 1)


def _whole(text: str, least: int, most: int) -> int:
    """A whole number from `least` to `most`, checked on its digits before it is made a number."""
    digits = text.strip()
    if not digits.removeprefix("-").isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (from {least:,} to {most:,})")
    n = int(digits) if len(digits) <= 24 else None
    if n is None or not least <= n <= most:
        raise argparse.ArgumentTypeError(f"{digits if n is None else f'{n:,}'}: it must be from {least:,} to {most:,}")
    return n


def _games(text: str) -> int:
    return _whole(text, 1, MOST_GAMES)


def _seed(text: str) -> int:
    return _whole(text, 0, MOST_SEED)


def _players(text: str) -> int:
    return _whole(text, 1, MOST_PLAYERS)


def _workers(text: str) -> int:
    return _whole(text, 1, _most_workers())


def _address(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("give the scheduler's address, such as tcp://10.0.0.5:8786")
    return text.strip()


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser], run: Callable[[argparse.Namespace], int]) -> None:
    s = sub.add_parser("simulate", help="play many seeded games of a game and report its balance")
    s.add_argument("game", metavar="GAME", help="the game's slug, as in cards/")
    s.add_argument("--games", type=_games, default=1000, metavar="N", help="games to play (default: 1000)")
    s.add_argument("--seed", type=_seed, default=1, metavar="S",
                   help="0 or more; the same seed gives the same report (default: 1)")
    s.add_argument("--players", type=_players, metavar="K", help="players (default: the game's fewest)")
    s.add_argument("--policy", nargs="+", metavar="NAME",
                   help="one policy for every seat, or one per seat (default: random); each game lists its own")
    s.add_argument("--workers", type=_workers, default=1, metavar="N",
                   help="processes to play the batches on; the report is the same for any N (default: 1)")
    s.add_argument("--cluster", metavar="ADDRESS", type=_address,
                   help="play the batches on a Dask distributed cluster, such as tcp://10.0.0.5:8786 "
                        "(pip install 'spellpress[cluster]'); the report is the same as on one core")
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.add_argument("--pdf", nargs="?", const="", metavar="PATH",
                   help="draw the report as a PDF too (default PATH: build/<game>/balance.pdf)")
    s.add_argument("--vary", metavar="CONSTANT=LOW..HIGH[:STEP]",
                   help="play the same seeds at each value of a game.yaml constant, such as starting_life=2..6")
    s.add_argument("--against", metavar="DIR",
                   help="another directory of games (an earlier version): play the same seeds on both and say what moved")
    s.add_argument("--cards", default="cards", metavar="DIR", help="the directory of games (default: ./cards)")
    s.set_defaults(run=run)


def _game(cards: Path, slug: str) -> Game | int:
    """The game `slug` of directory `cards`, loaded; else the exit status, said (2: no such game,
    1: it does not validate)."""
    from ..core import ValidationFailed, load_games  # here: see the module's docstring

    if not (cards / slug / "game.yaml").is_file():
        known = sorted(d.name for d in cards.iterdir() if (d / "game.yaml").is_file()) if cards.is_dir() else []
        print(f"spellpress simulate: no game '{slug}' in {cards}/ (no {cards / slug / 'game.yaml'}); "
              f"the games are: {', '.join(known) or 'none'}", file=sys.stderr)
        return 2
    try:
        return load_games(cards, [slug])[0]
    except ValidationFailed as failed:
        for line in failed.said():
            print(line, file=sys.stderr)
        return 1


def _runner(args: argparse.Namespace) -> contextlib.AbstractContextManager[Any]:
    """Where the games are played: a Dask cluster's client (`--cluster`, kept for the whole
    command), else nothing to open (this machine's processes, `--workers`)."""
    if args.cluster is None:
        return contextlib.nullcontext()
    # here: see the module's docstring
    from .cluster import connect
    from .engine import LabError

    if args.workers > 1:
        raise LabError(f"--cluster and --workers {args.workers} go one at a time: the cluster's workers play the batches "
                       "(give the cluster more workers to play faster)")
    return connect(args.cluster)


def simulate_command(args: argparse.Namespace) -> int:
    from .engine import LabError  # here: see the module's docstring

    game = _game(Path(args.cards), args.game)
    if isinstance(game, int):
        return game
    other = _game(Path(args.against), args.game) if args.against else None
    if isinstance(other, int):
        return other
    try:
        if args.vary and args.against:
            raise LabError("--vary and --against go one at a time")
        with _runner(args) as client:
            return _sweep(args, client) if args.vary else _simulate(args, game, other, client)
    except LabError as err:
        print(f"spellpress simulate: {err}", file=sys.stderr)
        return 2


def _simulate(args: argparse.Namespace, game: Game, other: Game | None, client: Any) -> int:
    # here: see the module's docstring
    from . import compare, report
    from .run import simulate

    this = simulate(game, args.games, args.seed, args.players, args.policy, args.workers, client)
    before = simulate(other, args.games, args.seed, args.players, args.policy, args.workers, client) if other else None
    if before is not None:
        moved = compare.compare(before, this)
        sys.stdout.write(report.as_json(moved) if args.json else compare.as_text(moved, args.against, args.cards))
    else:
        sys.stdout.write(report.as_json(this) if args.json else report.as_text(this))
        if args.pdf is not None:
            from . import pdf  # here: see the module's docstring

            path = Path(args.pdf or Path("build") / args.game / "balance.pdf")
            try:
                pdf.write(this, path)
            except OSError as exc:
                print(f"spellpress simulate: cannot write {exc.filename or path}: {exc.strerror or exc}", file=sys.stderr)
                return 1
            print(f"wrote {path}", file=sys.stderr)
    return 0


def _sweep(args: argparse.Namespace, client: Any) -> int:
    # here: see the module's docstring
    from . import report, vary
    from .run import simulate

    name, values = vary.parse(args.vary)
    tmp, dirs = vary.variants(Path(args.cards), args.game, name, values)
    with tmp:
        points = []
        for value, cards in zip(values, dirs):
            game = _game(cards, args.game)
            if isinstance(game, int):
                print(f"spellpress simulate: with {name} = {value} the game does not load (above)", file=sys.stderr)
                return game
            points.append(vary.point(value, simulate(game, args.games, args.seed, args.players, args.policy, args.workers, client)))
    sweep = {"game": args.game, "games": args.games, "seed": args.seed, "vary": name, "points": points}
    sys.stdout.write(report.as_json(sweep) if args.json else vary.as_text(sweep))
    return 0
