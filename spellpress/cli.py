"""spellpress: print-and-play cards, rulebooks and a table companion from one YAML source per game."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import defaults, newgame
from .lab.cli import add_command as add_simulate
from .lab.cli import simulate_command
from .press import cli as press_cli
from .press.model import changes
from .press.model.options import Options
from .targets import GAME_FILE, Unclear, resolve

# The core (pydantic), the renderers (reportlab, Pillow), the lab, the preview and the companion
# (Flask) are imported by the commands that need them, when they run: `spellpress --help` and
# every other command start without them.
if TYPE_CHECKING:
    from .core import Game, ValidationFailed


def _load(cards: str, slugs: tuple[str, ...] = ()) -> tuple[Game, ...] | None:
    from .core import ValidationFailed, load_games  # here: the core (see the imports above)

    try:
        return load_games(Path(cards), list(slugs) or None)
    except ValidationFailed as failed:
        _report(failed, cards)
        return None


def _named(words: list[str], cards: str, command: str) -> tuple[str, tuple[str, ...]] | None:
    """The directory of games and the slugs that a command's words name (targets.py); None, and
    why said, when they name none."""
    try:
        return resolve(words, cards)
    except Unclear as unclear:
        print(f"spellpress {command}: {unclear}", file=sys.stderr)
        return None


def _named_games(words: list[str], cards: str, command: str) -> tuple[str, tuple[str, ...], tuple[Game, ...]] | int:
    """The games a command's words name, loaded: (directory, slugs, games); else the command's
    exit status, 2 for words that name no games and 1 for games that do not load (both said)."""
    named = _named(words, cards, command)
    if named is None:
        return 2
    games = _load(*named)
    return 1 if games is None else (*named, games)


def catalog(games: tuple[Game, ...]) -> dict:
    """The shape of `spellpress list --json` (documented in docs/designing.md, "The games as JSON")."""
    return {
        "games": [
            {
                "slug": g.slug,
                "title": g.title,
                "players": {"min": g.players.min, "max": g.players.max},
                "decks": [
                    {"id": d.id, "name": d.name, "unique": d.unique, "total": d.total}
                    for d in g.decks.values()
                ],
                "unique": sum(d.unique for d in g.decks.values()),
                "total": sum(d.total for d in g.decks.values()),
            }
            for g in games
        ]
    }


def _report(failed: ValidationFailed, where: str) -> int:
    for line in failed.said():
        print(line, file=sys.stderr)
    n = len(failed.problems) + failed.more
    print(f"{n} problem{'s' if n != 1 else ''} found in {where}", file=sys.stderr)
    return 1


def cmd_validate(args) -> int:
    found = _named_games(args.targets, args.cards, "validate")
    if isinstance(found, int):
        return found
    cards_dir, slugs, games = found
    cards = sum(len(g.cards) for g in games)
    note = ""
    # ./templates, or the package's layouts where it has none (spellpress/defaults/); a directory
    # named with --templates that is not there means: check the cards without their layouts
    if args.templates is None or Path(args.templates).is_dir():
        # here: the core and the renderers (see the imports above)
        from .core import ValidationFailed
        from .press.model.plan import plan  # layouts: every text must fit its box, the rulebooks must read

        try:
            _, warnings = plan(Options(cards=Path(cards_dir), templates=Path(args.templates or "templates"), games=slugs,
                                       allow_missing_art=args.allow_missing_art), games=games)
        except ValidationFailed as failed:
            return _report(failed, cards_dir)
        for warning in warnings:  # as `build` prints them: a missing or a blurry picture
            print(f"warning: {warning}", file=sys.stderr)
    else:
        note = f" (layouts not checked: no templates directory {args.templates})"
    if args.balance and _balance(games, cards_dir):
        return 1
    print(f"ok: {len(games)} games, {sum(len(g.decks) for g in games)} decks, {cards} unique cards in {cards_dir}{note}")
    return 0


def _balance(games: tuple[Game, ...], where: str) -> bool:
    """`validate --balance` (lab/balance.py): each game's run said on a line, its warnings and
    problems as validate says its own; True when there were problems."""
    from .lab import balance  # here: the lab and the core (see the imports above)

    problems = []
    for game in games:
        unplayed = balance.note_unplayed(game)
        if unplayed:
            print(unplayed)
            continue
        checked = balance.check(game)
        print(f"balance: {checked.summary}")
        for warning in checked.warnings:
            print(warning, file=sys.stderr)
        problems += checked.problems
    if problems:
        from .core import ValidationFailed  # here: the core (see the imports above)

        _report(ValidationFailed(problems), f"{where} (balance)")
    return bool(problems)


def cmd_list(args) -> int:
    games = _load(args.cards)
    if games is None:
        return 1
    data = catalog(games)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    for game in data["games"]:
        players = game["players"]
        print(f"{game['title']} ({game['slug']}), {players['min']}-{players['max']} players: "
              f"{game['unique']} unique cards, {game['total']} in all")
        for deck in game["decks"]:
            print(f"  {deck['name']:<28} {deck['unique']:>4} unique {deck['total']:>5} cards  [{deck['id']}]")
    return 0


def cmd_export(args) -> int:
    """Every deck of the games as a spreadsheet: `<out>/<slug>/<deck>.csv` (core/csvsource.py)."""
    # here: the core (see the imports above)
    from .core import csvsource
    from .core.loader import written_cards

    found = _named_games(args.games, args.cards, "export")
    if isinstance(found, int):
        return found
    cards_dir, slugs, games = found
    tables = {}
    try:
        for game in games:
            for deck, cards in written_cards(game).items():
                tables[Path(args.out) / game.slug / f"{deck}.csv"] = csvsource.rows(cards, f"{game.slug}/{deck}")
    except ValueError as exc:  # a value no cell can hold, or a file changed meanwhile: nothing is written
        print(f"spellpress export: {exc}", file=sys.stderr)
        return 1
    try:
        for path, table in tables.items():
            csvsource.write(path, table)
            print(f"{path}: {len(table) - 1} card{'' if len(table) == 2 else 's'}")
    except OSError as exc:
        print(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


def cmd_new(args) -> int:
    """A new game from a game (a variant) or from nothing (a game of YAML alone): spellpress/newgame.py."""
    source = None
    if args.source:
        try:
            cards_dir, slugs = resolve([args.source], args.cards)
        except Unclear as unclear:
            cards_dir, slugs, why = args.cards, (), f"{unclear}"
        else:
            why = f"no game '{args.source}' in {cards_dir}"
        if not slugs or not (Path(cards_dir) / slugs[0] / "game.yaml").is_file():
            # outside the repository the five games are not at hand: they are not in the package
            print(f"spellpress new: {why}. --from copies a game of {args.cards}/ or a game directory you name, "
                  "like ../spellpress/cards/spellchamber (the five Spellpress games are in its repository, "
                  "not in the installed package)", file=sys.stderr)
            return 2
        source = Path(cards_dir) / slugs[0]
    try:
        made = newgame.make(args.slug, Path(args.cards), Path(args.templates or "templates"), source, args.title)
    except newgame.Refused as refused:
        print(f"spellpress new: {refused}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"cannot write {exc.filename or args.cards}: {exc.strerror or exc}; nothing was left half-made", file=sys.stderr)
        return 1
    for path in made.files:
        print(f"wrote {path}")
    checked = main(["validate", args.slug, "--cards", args.cards, *(["--templates", args.templates] if args.templates else [])])
    if checked == 0:
        print(f"next: spellpress build {args.slug}, then open build/{args.slug}/; edit the cards in {Path(args.cards) / args.slug}")
        if source is None:
            from .core.problems import display_path  # here: the core (see the imports above)

            shared = display_path(defaults.find(Path(args.templates or "templates"), "card.yaml").parent)
            print(f"the cards are drawn with the shared layouts card.yaml and back.yaml in {shared}: "
                  "copy one into templates/ to change the look")
    return checked


def cmd_preview(args) -> int:
    """The live preview: spellpress/preview/."""
    found = _named_games(args.games, args.cards, "preview")
    if isinstance(found, int):
        return found
    cards_dir, slugs, _ = found
    from .preview import run  # here: Flask and the renderers (see the imports above)

    options = Options(cards=Path(cards_dir), templates=Path(args.templates), out=Path(args.out), games=slugs,
                      allow_missing_art=args.allow_missing_art)
    return run(options, args.host, args.port)


def cmd_icons(args) -> int:
    """`icons add` copies icons of game-icons.net into a game's game-icons.json; `icons find` lists
    the library's names holding a word (spellpress/iconlib.py)."""
    from . import iconlib
    from .core import gameicons

    try:
        library, info = iconlib.read_library(Path(args.source))
    except iconlib.Refused as refused:
        print(f"spellpress icons: {refused}", file=sys.stderr)
        return 2
    if args.action == "find":
        listed = library.get("icons")
        icons: dict[str, object] = listed if isinstance(listed, dict) else {}
        found = [n for n in sorted(icons) if all(w.lower() in n for w in args.names)]
        print("\n".join(found) if found else f"no icon's name holds {' and '.join(args.names)}")
        return 0 if found else 1
    named = _named([args.game] if args.game else [], args.cards, "icons add")
    if named is None:
        return 2
    cards_dir, slugs = named
    if not slugs:
        games = sorted(p.parent.name for p in Path(cards_dir).glob(f"*/{GAME_FILE}"))
        if len(games) != 1:
            print(f"spellpress icons add: name the game whose cards use them with --game ({', '.join(games) or f'no game in {cards_dir}'})",
                  file=sys.stderr)
            return 2
        slugs = (games[0],)
    game_dir = Path(cards_dir) / slugs[0]
    if not (game_dir / GAME_FILE).is_file():
        print(f"spellpress icons add: no game '{slugs[0]}' in {cards_dir}", file=sys.stderr)
        return 2
    dest = game_dir / gameicons.FILE
    try:
        added = iconlib.add(args.names, library, info, dest)
    except iconlib.Refused as refused:
        print(f"spellpress icons add: {refused}; nothing was written", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"spellpress icons add: cannot write {dest}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    kept = [n for n in dict.fromkeys(args.names) if n not in added]
    if added:
        print(f"added {', '.join(added)} to {dest}: name one on a card as `art: game-icons:{added[0]}`")
    if kept:
        print(f"{dest} held {', '.join(kept)} already")
    print(f"credit: icons by {gameicons.AUTHORS}, {gameicons.SOURCE_URL}, {gameicons.LICENCE} ({gameicons.LICENCE_URL}); "
          "the rulebook's credits page names them")
    return 0


def cmd_printed(args) -> int:
    """Mark the cards of each game's last build as printed: `build --reprint` then prints only
    what changed since (press/model/changes.py)."""
    named = _named(args.games, args.cards, "printed")
    if named is None:
        return 2
    cards_dir, slugs = named
    slugs = slugs or tuple(sorted(d.name for d in Path(cards_dir).iterdir() if (d / GAME_FILE).is_file()))
    missing = 0
    for slug in slugs:
        out = Path(args.out) / slug
        try:
            n = changes.mark_printed(out)
        except OSError as exc:
            print(f"cannot write {exc.filename or out}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        if n is None:
            missing += 1
            print(f"spellpress printed: {slug}: no cards built in {out}: run `spellpress build {slug}` "
                  "(and print its sheets) first", file=sys.stderr)
        else:
            print(f"{slug}: the {n} cards of the last build in {out} are marked printed; "
                  f"`spellpress build {slug} --reprint` prints the ones that change from now on")
    return 1 if missing else 0


def cmd_simulate(args) -> int:
    """Plays many seeded games of a game with the core's rules (spellpress/lab)."""
    return simulate_command(args)


def cmd_serve(args) -> int:
    if _load(args.cards) is None:
        return 1
    from companion.server import run  # Flask and gunicorn are needed by this command alone

    return run(host=args.host, port=args.port, db=args.db, cards=args.cards)


def cmd_db(args) -> int:
    from companion.transfer import run  # the companion's store is needed by this command alone

    return run(args.action, args.file, args.db, args.cards)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spellpress", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    v = sub.add_parser("validate", help="check every game's YAML and report every problem at once")
    v.add_argument("targets", nargs="*", metavar="GAME",
                   help="game slugs, game directories or a directory of games (default: every game in --cards)")
    v.add_argument("--cards", default="cards", metavar="DIR", help="the directory of games (default: ./cards)")
    v.add_argument("--templates", metavar="DIR",
                   help="card layouts (default: ./templates, and the package's own for what it lacks)")
    v.add_argument("--allow-missing-art", action="store_true",
                   help="an early draft: a card's picture that is not there yet is a warning, not a problem")
    v.add_argument("--balance", action="store_true",
                   help="also play a few hundred seeded games of each game (spellpress simulate): a game that cannot end or "
                        "a seat that wins too often (game.yaml's balance:) is a problem, a card never played a warning")
    v.set_defaults(run=cmd_validate)

    press_cli.add_commands(sub)

    ls = sub.add_parser("list", help="the games, their decks, and unique and total cards")
    ls.add_argument("--json", action="store_true", help="print JSON (shape in docs/designing.md)")
    ls.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
    ls.set_defaults(run=cmd_list)

    nw = sub.add_parser("new", help="start a game: a variant (--from GAME) or one of YAML alone")
    nw.add_argument("slug", metavar="SLUG", help="the new game's directory name, like goblin-market")
    nw.add_argument("--from", dest="source", metavar="GAME", help="copy this game (slug or directory), layouts and all")
    nw.add_argument("--title", help="the game's title (default: from the slug)")
    nw.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
    nw.add_argument("--templates", metavar="DIR", help="where a copied game's layouts go (default: ./templates)")
    nw.set_defaults(run=cmd_new)

    pv = sub.add_parser("preview", help="a live page of the cards, rulebook and playmat")
    pv.add_argument("games", nargs="*", metavar="GAME", help="game slugs or directories (default: every game)")
    pv.add_argument("--port", type=int, default=8001, help="default: 8001")
    pv.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1 (this computer only)")
    pv.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
    pv.add_argument("--templates", default="templates", metavar="DIR",
                    help="default: ./templates, and the package's own layouts for what it lacks")
    pv.add_argument("--out", default="build", metavar="DIR", help="where the images are built (default: ./build)")
    pv.add_argument("--allow-missing-art", action="store_true",
                    help="an early draft: a card's picture that is not there yet is a placeholder, not a problem")
    pv.set_defaults(run=cmd_preview)

    ex = sub.add_parser("export", help="every deck as a spreadsheet (CSV)")
    ex.add_argument("format", choices=("csv",), help="csv: one card a row, one field a column")
    ex.add_argument("games", nargs="*", metavar="GAME", help="game slugs or directories (default: every game)")
    ex.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
    ex.add_argument("--out", default="build", metavar="DIR", help="writes DIR/<game>/<deck>.csv (default: ./build)")
    ex.set_defaults(run=cmd_export)

    pr = sub.add_parser("printed", help="mark the cards as last built as printed (for `build --reprint`)")
    pr.add_argument("games", nargs="*", metavar="GAME", help="game slugs or directories (default: every game)")
    pr.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
    pr.add_argument("--out", default="build", metavar="DIR", help="where the cards were built (default: ./build)")
    pr.set_defaults(run=cmd_printed)

    ic = sub.add_parser("icons", help="icons of game-icons.net for the cards' art: add some to a game, or find names")
    ic.add_argument("action", choices=("add", "find"),
                    help="add NAME ...: copy the icons into the game's game-icons.json; find WORD ...: the names holding the words")
    ic.add_argument("names", nargs="+", metavar="NAME", help="icon names, as game-icons.net gives them (fire-ray), or words")
    ic.add_argument("--from", dest="source", required=True, metavar="LIBRARY",
                    help="the library: node_modules/@iconify-json/game-icons (npm install @iconify-json/game-icons), "
                         "its icons.json, or the tarball of `npm pack @iconify-json/game-icons`")
    ic.add_argument("--game", metavar="GAME", help="the game (slug or directory) to add them to; needed when --cards holds several")
    ic.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
    ic.set_defaults(run=cmd_icons)

    add_simulate(sub, cmd_simulate)

    sv = sub.add_parser("serve", help="the table companion, for the phones on the local network")
    sv.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every one, 0.0.0.0)")
    sv.add_argument("--port", type=int, default=8000, help="default: 8000")
    sv.add_argument("--db", metavar="PATH|URL", help="an SQLite file, or postgresql://user:password@host:port/dbname for tables "
                    "shared by several instances (default: $SPELLPRESS_DB, else ~/.local/share/spellpress/companion.db)")
    sv.add_argument("--cards", default="cards", metavar="DIR", help="default: ./cards")
    sv.set_defaults(run=cmd_serve)

    db = sub.add_parser("db", help="the companion's database: create or upgrade it, move tables between databases")
    db.add_argument("action", choices=("upgrade", "export", "import"),
                    help="upgrade: create or migrate the schema; export FILE / import FILE: every table as JSON lines")
    db.add_argument("file", nargs="?", metavar="FILE", help="for export and import: the JSON lines file (- for stdout/stdin)")
    db.add_argument("--db", metavar="PATH|URL", help="as for serve (default: $SPELLPRESS_DB, else the user's SQLite file)")
    db.add_argument("--cards", metavar="DIR", help="for import: the games its tables are checked against, as for serve "
                    "(default: $SPELLPRESS_CARDS, else cards)")
    db.set_defaults(run=cmd_db)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # `spellpress list | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
