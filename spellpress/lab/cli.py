"""The `simulate` subcommand's arguments and its run: bad input is said in one line and exits 2."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: it must be at least 1")
    return n


def add_command(sub, run) -> None:
    s = sub.add_parser("simulate", help="play many seeded games of a game and report its balance")
    s.add_argument("game", metavar="GAME", help="the game's slug, as in cards/")
    s.add_argument("--games", type=_positive, default=1000, metavar="N", help="games to play (default: 1000)")
    s.add_argument("--seed", type=int, default=1, metavar="S",
                   help="0 or more; the same seed gives the same report (default: 1)")
    s.add_argument("--players", type=_positive, metavar="K", help="players (default: the game's fewest)")
    s.add_argument("--policy", nargs="+", metavar="NAME",
                   help="one policy for every seat, or one per seat (default: random); each game lists its own")
    s.add_argument("--workers", type=_positive, default=1, metavar="N",
                   help="processes to play the batches on; the report is the same for any N (default: 1)")
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.add_argument("--cards", default="cards", metavar="DIR", help="the directory of games (default: ./cards)")
    s.set_defaults(run=run)


def simulate_command(args) -> int:
    from ..core import ValidationFailed, load_games
    from .engine import LabError
    from .report import as_json, as_text
    from .run import simulate

    cards = Path(args.cards)
    if not (cards / args.game / "game.yaml").is_file():
        known = sorted(d.name for d in cards.iterdir() if (d / "game.yaml").is_file()) if cards.is_dir() else []
        print(f"spellpress simulate: no game '{args.game}' in {cards}/ (no {cards / args.game / 'game.yaml'}); "
              f"the games are: {', '.join(known) or 'none'}", file=sys.stderr)
        return 2
    try:
        game = load_games(cards, [args.game])[0]
    except ValidationFailed as failed:
        for problem in failed.problems:
            print(problem, file=sys.stderr)
        return 1
    try:
        report = simulate(game, args.games, args.seed, args.players, args.policy, args.workers)
    except LabError as err:
        print(f"spellpress simulate: {err}", file=sys.stderr)
        return 2
    sys.stdout.write(as_json(report) if args.json else as_text(report))
    return 0
