"""`spellpress build`, `spellpress watch` and `spellpress resident`.

Only what reading the command line needs is imported here: a build that its resident builder
makes (see `resident`) starts without loading the renderers at all.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from ..targets import Unclear, resolve
from .drawing.papers import PAPER_NAMES
from .model.options import INKS, KINDS, Options
from .model.shops import HOME, SHOPS, TARGETS
from .runners import resident


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected X,Y in millimetres, like 0.5,-1") from None
    if abs(x) > 20 or abs(y) > 20:
        raise argparse.ArgumentTypeError("a back offset of more than 20 mm means the printer needs another fix")
    return x, y


def _url(text: str) -> str:
    if not re.fullmatch(r"https?://[^\s\"]+", text):
        raise argparse.ArgumentTypeError("expected a web address starting https:// (or http://), like https://example.com/cards")
    return text


def add_commands(sub) -> None:
    for name, helptext in (("build", "make the print outputs into build/"),
                           ("watch", "build, then build again whenever a card or layout is saved")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("games", nargs="*", metavar="GAME",
                       help="game slugs, game directories or a directory of games (default: every game in --cards)")
        p.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
        p.add_argument("--templates", default="templates", metavar="DIR",
                       help="default: ./templates, and the package's own layouts for what it lacks")
        p.add_argument("--out", default="build", metavar="DIR", help="default: ./build")
        p.add_argument("--only", nargs="+", choices=KINDS, metavar="KIND",
                       help=f"only these kinds: {', '.join(KINDS)}")
        p.add_argument("--paper", choices=PAPER_NAMES, action="append",
                       help="a4 or letter (default: both)")
        p.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y",
                       help="shift the backs of duplex sheets by X,Y mm (see the calibration page)")
        p.add_argument("--booklet", action="store_true", help="also print each rulebook as a booklet to fold and staple")
        p.add_argument("--allow-missing-art", action="store_true",
                       help="an early draft: draw a placeholder for a card whose picture is not there yet (a warning, not a problem)")
        p.add_argument("--target", choices=TARGETS, action="append",
                       help="home (the sheets and images: the default) or a print shop's files into build/<game>/<target>/: "
                            f"{', '.join(f'{key} ({shop.name})' for key, shop in SHOPS.items())}; may be repeated")
        p.add_argument("--tts-url", type=_url, metavar="URL",
                       help="the web address build/ will be copied to, for tts/<game>.json (default: file:/// of this folder)")
        p.add_argument("--reprint", action="store_true",
                       help="only cards-reprint-*.pdf: the cards changed since `spellpress printed`")
        p.add_argument("--ink", choices=INKS, default=None,
                       help="full colour, saver (light grounds, outline icons: a third of the ink or less) or mono "
                            "(greys, for black-and-white printers); written to build/<game>/ink-<mode>/ unless full "
                            "(default: each game.yaml's ink, else full)")
        p.add_argument("--identity", action=argparse.BooleanOptionalAction, default=None,
                       help="print each card's number (12/106) and the game's version in its footer, a checklist "
                            "page after the sheets and counts on overview.png (default: as game.yaml says, else on)")
        p.add_argument("--letter-3x3", action="store_true",
                       help="also cards-letter-3x3.pdf: nine cards a Letter sheet, for printers that print to 5 mm "
                            "of the edge (less bleed, shorter marks: see docs/printing.md)")
        p.add_argument("--jobs", type=int, default=None, help="worker processes (default: one per core)")
        if name == "build":
            p.add_argument("--here", action="store_true",
                           help="build in this process: neither use nor start a resident builder")
        p.set_defaults(run=cmd_build if name == "build" else cmd_watch)
    r = sub.add_parser("resident", help="the builder that keeps repeated builds here fast")
    r.add_argument("action", choices=("status", "stop"))
    r.set_defaults(run=cmd_resident)


def options(args) -> Options:
    try:
        cards, games = resolve(args.games, args.cards)
    except Unclear as unclear:  # as argparse says a bad argument
        print(f"spellpress {args.command}: error: {unclear}", file=sys.stderr)
        raise SystemExit(2) from None
    o = Options(
        cards=Path(cards), templates=Path(args.templates), out=Path(args.out), games=games,
        kinds=_kinds(args), papers=tuple(dict.fromkeys(args.paper or PAPER_NAMES)),
        back_offset=args.back_offset, booklet=args.booklet, allow_missing_art=args.allow_missing_art,
        tts_url=args.tts_url or "", ink=args.ink, identity=args.identity, letter_3x3=args.letter_3x3,
        game_targets=args.target is None and not args.reprint,
    )
    return o if args.jobs is None else Options(**{**o.__dict__, "jobs": max(1, args.jobs)})


def _kinds(args) -> tuple[str, ...]:
    """`--reprint` alone; else the plain build's kinds (or --only's) for the target home, and
    each print shop's kind (model/kinds.py) for its target: the targets given, else every one, of
    which each game's build makes those its game.yaml names (Options.game_targets)."""
    if args.reprint:
        return ("reprint",)
    if args.target is None:  # each game's own `targets:` (outputs/gamebuild.py), home unless its game.yaml says
        return tuple(args.only or KINDS) + tuple(SHOPS)
    targets = tuple(dict.fromkeys(args.target))
    if args.only and HOME not in targets:
        print(f"spellpress {args.command}: error: --only chooses among the kinds of the target home; a print shop's "
              "target makes its own files (add --target home for both)", file=sys.stderr)
        raise SystemExit(2)
    return (tuple(args.only or KINDS) if HOME in targets else ()) + tuple(t for t in targets if t != HOME)


def cmd_build(args) -> int:
    o = options(args)
    if args.here or not resident.enabled():
        return _run_once(o)
    try:
        code = resident.build_there(o)
    except KeyboardInterrupt:
        print("interrupted; the resident builder finishes this build (every file it writes is whole)", file=sys.stderr)
        return 130
    if code is None:  # no builder here yet (or it failed): build now, and start one for next time
        code = _run_once(o)
        resident.start()
    return code


def _run_once(o: Options) -> int:
    # imported here: a build loads the renderers, which reading the command line (and a build the
    # resident builder makes) need not
    from .runners.once import run_once

    return run_once(o)


def cmd_watch(args) -> int:
    # imported here: watching builds, and a build loads the renderers, which reading the command line need not
    from .model.session import BuildSession
    from .runners.once import run_once
    from .runners.watch import watch

    session = BuildSession()  # what each build keeps for the next
    return watch(options(args), lambda o: run_once(o, session))


def cmd_resident(args) -> int:
    if not resident.supported():
        print("no resident builder on this system: every build runs in its own process")
        return 0
    if args.action == "stop":
        found = resident.stop()
        if found is None:
            print("no resident builder here")
        elif found.get("wedged"):
            print(f"ended this directory's resident builder (pid {found['pid']}), which did not answer")
        else:
            during = " during a build (its command is told)" if found.get("since") else ""
            print(f"stopped this directory's resident builder{during}")
        return 0
    found = resident.status()
    if found is None:
        print("no resident builder here; the next `spellpress build` starts one")
    elif found.get("wedged"):
        print(f"resident builder: pid {found['pid']} does not answer (stopped or stuck); the next `spellpress build` "
              "ends it and starts a fresh one, or `spellpress resident stop` ends it now")
    else:
        line = f"resident builder: pid {found['pid']}, {found['builds']} builds served, in {found['cwd']}"
        if found.get("since"):
            began = time.strftime("%H:%M:%S", time.localtime(found["since"]))
            line += (f"; building since {began} ({time.time() - found['since']:.0f} s; it gives up after "
                     f"{resident.duration(resident.BUILD_SECONDS)})")
        print(line)
    return 0
