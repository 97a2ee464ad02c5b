"""A playmat laid out from a game's decks and counters, for a game with no layout of its own
(`templates/playmat/<slug>.yaml`): what `playmat.load` uses then, with a warning that says so.

Each deck gets its place and its discard pile in rows across the middle (a token deck its pile);
each player counter with bounds a track in a seat for every player of the game's largest table;
each bounded table counter a track across the middle. It is the same data a layout file holds,
checked and drawn the same way: a designer who wants more copies it into that file and edits it.
"""

from __future__ import annotations

from typing import Any

from ...core.models import Counter, Game

MAT = (609.6, 355.6)
CARD_W, CARD_H = 63.5, 88.9
DECK_W = 2 * CARD_W + 6 + 12  # a deck, its discard pile beside it, and room to the next
ROW_H = CARD_H + 16
CELL = 10.0  # a track's cell in a seat, mm: room for a coin or a bead as its marker
LONGEST = 100  # a track of more cells is left off: the companion keeps such a count
PALETTE = {"field": "#2b2438", "zone": "#3d3550", "discard": "#342d45", "ink": "#fbf7ee", "muted": "#c9bfd9",
           "accent": "#b08d3c"}


def generated(game: Game) -> dict[str, Any]:
    """The layout's data, as a layout file would hold it."""
    mat_w, mat_h = MAT
    seat = _seat(game)
    depth = seat["inset"] + seat["h"] + 6 if seat else 0
    sides = game.players.max >= 3 and seat is not None  # seats on the short sides too
    left = 14 + (depth if sides else 0)
    right = mat_w - 14 - (depth if sides else 0)
    top, bottom = 30 + depth, mat_h - 14 - depth
    zones: list[dict[str, Any]] = []
    y: float = top
    for counter in (c for c in game.counters if c.scope == "table"):
        track = _track(counter)
        if track and y + 20 <= bottom:
            cells = abs(track["stop"] - track["start"]) + 1 if not track.get("tens") else 10
            zones.append({**track, "x": left, "y": y + 4, "w": min(right - left, cells * 12.0), "per_row": max(cells, 1)})
            y += 22 if not track.get("tens") else 36
    per_row = max(1, int((right - left + 12) // DECK_W))
    decks = list(game.decks.values())
    rows = -(-len(decks) // per_row)
    # The decks in the middle of the room left: centred across, and down what the tracks leave.
    used_w = min(len(decks), per_row) * DECK_W - 12
    x0 = left + max(0.0, (right - left - used_w) / 2)
    y = y + max(0.0, (bottom - y - (rows * ROW_H - 16)) / 2)
    for i, deck in enumerate(decks):
        row, col = divmod(i, per_row)
        x, zone_y = x0 + col * DECK_W, y + row * ROW_H
        if zone_y + CARD_H > bottom:
            raise ValueError(f"{len(decks)} decks do not fit on a mat laid out for you: write "
                             f"templates/playmat/{game.slug}.yaml (see docs/designing.md), or list some under off_mat there")
        zone: dict[str, Any] = {"kind": "deck", "deck": deck.id, "x": x, "y": zone_y}
        if deck.token is not None:
            zone["w"] = min(DECK_W - 12, 3 * deck.token.size_mm)
        zones.append(zone)
    data: dict[str, Any] = {"palette": PALETTE, "zones": zones, "title": {"y": 20.0, "size": 18.0}}
    if seat:
        data["seat"] = seat
    return data


def _track(counter: Counter) -> dict[str, Any] | None:
    low = counter.min if counter.min is not None else 0
    high = counter.max if counter.max is not None else counter.start
    if high <= low or high - low > LONGEST:
        return None
    track: dict[str, Any] = {"kind": "track", "label": counter.label, "start": low, "stop": high}
    if high - low >= 30:
        track.update(tens=True, start=0)
    return track


def _seat(game: Game) -> dict[str, Any] | None:
    """A seat holding a track for each bounded player counter, or None if there is none."""
    zones, y = [], 7.0
    for counter in (c for c in game.counters if c.scope == "player"):
        track = _track(counter)
        if track is None or y > 45:  # a seat holds two or three tracks; the companion keeps the rest
            continue
        cells = 10 if track.get("tens") else min(track["stop"] - track["start"] + 1, 15)
        rows = 2 if track.get("tens") else -(-(track["stop"] - track["start"] + 1) // 15)
        zones.append({**track, "x": 14.0, "y": y, "w": cells * CELL, "per_row": 15})
        y += rows * CELL + (3 if track.get("tens") else 0) + 8
    if not zones:
        return None
    return {"w": 14.0 + 15 * CELL + 4, "h": min(y, 60.0), "inset": 8.0, "zones": zones}
