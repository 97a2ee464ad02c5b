"""A game's decks as a Tabletop Simulator saved object: `tts/<slug>.json`.

Put the file in Tabletop Simulator's `Saves/Saved Objects` folder and it is under Objects >
Saved Objects in the game; loaded, it lays every deck of cards on the table, face down, each
card with its name and its text (hover over it). The pictures are the deck sheets beside it
(kind `tts`), at `file:///` URLs of the build folder, or under the base URL given at build time
(`--tts-url`) for a table where the other players do not share that folder.

The fields written, and where they are documented:
- the file: a save (the Tabletop Simulator wiki's "Save File Format" page, mirrored from the
  knowledge base's kb.tabletopsimulator.com/custom-content/save-file-format/), with the outer
  fields a *saved object* leaves empty (TTS Mod Manager's `saved-object-feature.md`: SaveName,
  Date, VersionNumber, GameMode, GameType, GameComplexity, Table, Sky, Note, LuaScript,
  LuaScriptState, XmlUI "", Tags [], TabStates {}, Gravity and PlayArea 0.5) and its
  `ObjectStates`, the objects;
- an object: Name ("DeckCustom" for a deck, "Card" for a deck of one card), Transform (posX..
  scaleZ; rotZ 180 lays it face down; a card of another size than poker is scaled to it, scaleX
  its width over 63.5 mm and scaleZ its height over 88.9 mm, as a player would resize it, for
  a custom card is drawn in a poker card's shape), Nickname and Description (the tooltip), GUID;
- a deck: `DeckIDs`, the CardID of each card from top to bottom, and `ContainedObjects`, the
  cards themselves; `CustomDeck`, one entry a sheet, keyed by a number N: FaceURL and BackURL
  (the sheet and the back), NumWidth and NumHeight (the sheet's grid, at most 10 x 7),
  BackIsHidden (true: the sheet's last slot is the hidden card's), UniqueBack (true when the
  back is a sheet of each card's own back in the same grid), Type 0 (rectangle);
- a card: CardID = N x 100 + its index on sheet N (left to right, top to bottom, from 0), and
  the one CustomDeck entry of its sheet.
"""

from __future__ import annotations

import hashlib
import json
import re

from ...core import Game
from ...core.models import Card

SAVED_OBJECT = {"SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
                "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
                "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}
DECK_SPACING = 3.0  # table units between the decks laid out side by side


def saved_object(game: Game, sheets: list[tuple], base: str) -> dict:
    """The saved object, as JSON values (written with indent 2: `file_bytes`). `sheets`: (deck,
    its entry in tts/sheets.json, the cards on the sheet in slot order) for each sheet, a deck's
    sheets in order, and the deck's card size in mm; `base`: the URL of the folder holding them."""
    decks: dict[str, list[tuple]] = {}
    for deck, entry, cards, size in sheets:
        decks.setdefault(deck.id, []).append((deck, entry, cards, size))
    objects, number = [], 0
    for place, (deck_id, deck_sheets) in enumerate(decks.items()):
        deck, size = deck_sheets[0][0], deck_sheets[0][3]
        custom, contained = {}, []
        for _, entry, cards, _ in deck_sheets:
            number += 1
            sheet = {"FaceURL": f"{base}/{entry['sheet']}", "BackURL": f"{base}/{entry.get('backs', entry['back'])}",
                     "NumWidth": entry["width"], "NumHeight": entry["height"], "BackIsHidden": True,
                     "UniqueBack": "backs" in entry, "Type": 0}
            custom[str(number)] = sheet
            for index, card in enumerate(cards):
                contained.append(_object("Card", card.name, describe(game, card), _guid(game.slug, deck_id, number, index),
                                         0.0, size, CardID=number * 100 + index, CustomDeck={str(number): sheet}))
        x = place * DECK_SPACING
        if len(contained) == 1:  # a deck of one card is a card
            objects.append({**contained[0], "Transform": _transform(x, size)})
            continue
        objects.append(_object("DeckCustom", deck.name, f"{game.title}: {len(contained)} cards", _guid(game.slug, deck_id),
                               x, size, DeckIDs=[c["CardID"] for c in contained], CustomDeck=custom,
                               ContainedObjects=contained))
    return {**SAVED_OBJECT, "SaveName": game.title, "ObjectStates": objects}


def file_bytes(saved: dict) -> bytes:
    """The saved object's file, indented as Tabletop Simulator writes its own."""
    return json.dumps(saved, indent=2).encode()


def digest(saved: dict) -> str:
    """What names the file's content, without indenting it: indenting takes json's pure-Python
    encoder, ten times slower than the compact one, which a build would wait for."""
    return hashlib.sha256(json.dumps(saved).encode()).hexdigest()


def describe(game: Game, card: Card) -> str:
    """The card's tooltip: its fields as its type labels them, then its flavour; inline icons
    (`{fire}`) by name, bold (`**words**`) as Tabletop Simulator's [b] tags."""
    ctype = game.card_types[card.type]
    lines = []
    for name, spec in ctype.fields.items():
        value = card.fields.get(name)
        if value is None or value is False or value == ():
            continue
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        label = spec.label or name.replace("_", " ").capitalize()
        if name == "text":  # the card's own words need no label
            lines.append(_plain(str(value)))
        else:
            lines.append(label if value is True else f"{label}: {_plain(str(value))}")
    if card.flavor:
        lines.append(f"[i]{_plain(card.flavor)}[/i]")
    return "\n".join(lines)


def _plain(text: str) -> str:
    text = re.sub(r"\*\*(.+?)\*\*", r"[b]\1[/b]", text)
    return re.sub(r"\{([a-z][a-z0-9_-]*)\}", lambda m: m.group(1).replace("-", " ").capitalize(), text)


POKER = (63.5, 88.9)  # mm: the card Tabletop Simulator's custom card is at scale 1


def _transform(x: float, size: tuple[float, float]) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": round(size[0] / POKER[0], 4), "scaleY": 1.0, "scaleZ": round(size[1] / POKER[1], 4)}


def _object(name: str, nickname: str, description: str, guid: str, x: float, size: tuple[float, float], **fields) -> dict:
    return {"Name": name, "GUID": guid, "Transform": _transform(x, size), "Nickname": nickname, "Description": description,
            **fields}


def _guid(*parts: object) -> str:
    """Six hex digits, as Tabletop Simulator writes them; the same for the same card every build."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:6]
