"""`spellpress new SLUG [--from GAME]`: a new game that validates and builds at once.

From a game, its directory is copied (YAML, spreadsheets, pictures) with its own layouts, its
rulebook template and its playmat (from the templates/ beside the game's directory of games, so
a game of another folder can be copied too), each renamed to the new slug and every reference
to the old one's layouts pointed at the copies; the copy keeps the game's ruleset, so it is a
variant that plays by the same rules. Without one, a game of YAML alone (the generic ruleset) is written:
one deck of three cards, two counters, how the game ends and a rules section, drawn with the shared layouts
(the project's templates/card.yaml and back.yaml, else the package's: spellpress/defaults/).
Nothing that exists is overwritten: a name already taken is refused before anything is written.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

SLUG = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class Refused(ValueError):
    """The new game cannot be made as asked: the message says why and what would do."""


@dataclass
class Made:
    files: list[Path] = field(default_factory=list)


def make(slug: str, cards: Path, templates: Path, source: Path | None = None, title: str | None = None) -> Made:
    """Write the game `slug` into `cards` (and its layouts into `templates`); returns what was written."""
    if not SLUG.match(slug) or len(slug) > 40:
        raise Refused(f"'{slug}' cannot name a game: use lowercase letters, digits and single dashes, like 'goblin-market'")
    target = cards / slug
    if target.exists():
        raise Refused(f"{target} exists already: choose another name, or delete it first")
    title = title or slug.replace("-", " ").title()
    if source is None:
        return _generic(target, title)
    base = source.name
    # The game's own layouts are in the templates/ beside its directory of games (a game of
    # another folder, like the repository's, brings its own); else in this project's.
    beside = source.parent.parent / "templates"
    theirs = beside if beside.is_dir() else templates
    planned = {source: target}
    for old, new in ((theirs / base, templates / slug),
                     (theirs / "rulebook" / f"{base}.md.j2", templates / "rulebook" / f"{slug}.md.j2"),
                     (theirs / "playmat" / f"{base}.yaml", templates / "playmat" / f"{slug}.yaml")):
        if old.exists():
            if new.exists():
                raise Refused(f"{new} exists already: delete it, or choose another name")
            planned[old] = new
    made = Made()
    try:
        for old, new in planned.items():
            if old.is_dir():
                shutil.copytree(old, new, symlinks=False)
                made.files += sorted(p for p in new.rglob("*") if p.is_file())
            else:
                new.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(old, new)
                made.files.append(new)
    except OSError:  # a full disk, a file that cannot be read: no half-made game is left behind
        for new in planned.values():
            shutil.rmtree(new, ignore_errors=True) if new.is_dir() else new.unlink(missing_ok=True)
        raise
    # Layouts named by the old slug (`magicka-mayhem/spell`) become the copies' (`frenzy/spell`).
    layout_ref = re.compile(rf"(?m)^(\s*(?:extends|template|back):\s*['\"]?){re.escape(base)}/")
    for path in [target / "decks.yaml", *sorted((templates / slug).glob("*.yaml"))]:
        if path.is_file():
            path.write_text(layout_ref.sub(rf"\g<1>{slug}/", path.read_text(encoding="utf-8")), encoding="utf-8")
    game = target / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(re.sub(r"(?m)^title:.*$", f"title: {_quoted(title)}", text, count=1), encoding="utf-8")
    return made


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _generic(target: Path, title: str) -> Made:
    files = {
        "game.yaml": f"""# {title}: the game's identity, its constants and what the companion's table counts.
# No `ruleset:`: the game plays by the generic ruleset (decks, counters, dice and a coin).
title: {_quoted(title)}
pitch: One line that sells the game.
players: {{min: 2, max: 4}}
play_minutes: {{min: 15, max: 30}}

# Numbers the rules and cards refer to as {{{{ name }}}}: change one here and every text follows.
constants:
  starting_health: 10
  hand_size: 3

counters:
  - {{id: health, label: Health, scope: player, start: starting_health, min: 0, max: starting_health}}
  - {{id: round, label: Round, scope: table, start: 1, min: 1}}

# How the game ends, as the table and the balance lab play it: a player at 0 health is out, and
# the last one standing wins (or, say, win: {{counter: gold, at_least: 10}}).
end:
  out: {{counter: health, at_most: 0}}
  win: last_standing
""",
        "decks.yaml": """# Card types (the layout that draws them and the fields they carry) and the decks.
card_types:
  action:
    name: Action
    template: card
    fields:
      text: {type: text, required: true}
decks:
  actions:
    name: Actions
    back: back
    types: [action]
""",
        "actions.yaml": """# The action deck. A card's `count` is how many copies print (1 if left out).
actions:
  - id: quick-strike
    name: Quick Strike
    count: 3
    text: Another player loses 2 health.
  - id: second-wind
    name: Second Wind
    count: 2
    text: Gain 3 health, up to {{ starting_health }}.
  - id: gather
    name: Gather
    text: Draw until you hold {{ hand_size }} cards.
""",
        "rules.yaml": """# The rulebook's sections, in order. Write numbers as {{ constants }}.
rules:
  - id: setup
    title: Setup
    text: |
      Each player starts with {{ starting_health }} health. Shuffle the action deck and deal
      {{ hand_size }} cards to each player.
  - id: turn
    title: A turn
    text: |
      Play one card, then draw one. A player at 0 health is out; the last one standing wins.
""",
    }
    target.mkdir(parents=True)
    made = Made()
    for name, text in files.items():
        (target / name).write_text(text, encoding="utf-8")
        made.files.append(target / name)
    return made
