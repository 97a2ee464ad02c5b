"""`simulate --against DIR`: the same seeds played on two versions of a game's cards, and what
moved between them. A change is flagged when the 95% interval of the difference leaves out 0
(rates: the normal interval of a difference of two proportions; lengths: of two means)."""

from __future__ import annotations

import math
from typing import Any

from .report import PLACES
from .stats import Z95


def _moved(diff: float, se: float) -> bool:
    return abs(diff) > Z95 * se if se > 0 else diff != 0


def _rate(name: str, a: float | None, b: float | None, n_a: int, n_b: int) -> dict[str, Any] | None:
    if a is None or b is None:
        return None
    se = math.sqrt(a * (1 - a) / n_a + b * (1 - b) / n_b)
    diff = b - a
    return {"figure": name, "against": a, "this": b, "change": round(diff, PLACES),
            "ci95": [round(diff - Z95 * se, PLACES), round(diff + Z95 * se, PLACES)], "moved": _moved(diff, se)}


def _mean(name: str, a: dict[str, Any], b: dict[str, Any], n_a: int, n_b: int) -> dict[str, Any] | None:
    if a["mean"] is None or b["mean"] is None:
        return None
    se = math.sqrt(a["sd"] ** 2 / n_a + b["sd"] ** 2 / n_b)
    diff = b["mean"] - a["mean"]
    return {"figure": name, "against": a["mean"], "this": b["mean"], "change": round(diff, PLACES),
            "ci95": [round(diff - Z95 * se, PLACES), round(diff + Z95 * se, PLACES)], "moved": _moved(diff, se)}


def compare(against: dict[str, Any], this: dict[str, Any]) -> dict[str, Any]:
    """What moved from the report of the other cards (`against`) to this one's, the same seeds."""
    n_a, n_b = against["games"], this["games"]
    rows = []
    if "clear_rate" in this:
        rows.append(_rate("clear rate", against.get("clear_rate"), this["clear_rate"], n_a, n_b))
    else:
        for seat_a, seat_b in zip(against["seats"], this["seats"]):
            rows.append(_rate(f"seat {seat_b['seat']} win rate", seat_a["win_rate"], seat_b["win_rate"], n_a, n_b))
        rows.append(_rate("first player win rate", against["first_player"]["win_rate"], this["first_player"]["win_rate"], n_a, n_b))
    done_a, done_b = against["finished"], this["finished"]
    for what in ("turns", "rounds"):
        rows.append(_mean(f"mean {what} per finished game", against["length"][what], this["length"][what], done_a, done_b))
    return {
        "game": this["game"], "games": n_b, "seed": this["seed"],
        "changes": [row for row in rows if row is not None],
        "modelled": {"against": against["modelled"], "this": this["modelled"]},
        "against": against, "this": this,
    }


def as_text(comparison: dict[str, Any], against_dir: str, this_dir: str) -> str:
    c = comparison
    lines = [f"{c['game']}: {c['games']} games, seed {c['seed']}: {this_dir} against {against_dir}", "",
             "figure                             against      this    change   95% CI of the change"]
    for row in c["changes"]:
        lo, hi = row["ci95"]
        flag = "  MOVED" if row["moved"] else ""
        lines.append(f"{row['figure']:<32} {row['against']:>9} {row['this']:>9} {row['change']:>+9}   "
                     f"{lo:+.4f} .. {hi:+.4f}{flag}")
    moved = sum(row["moved"] for row in c["changes"])
    lines += ["", f"{moved} of {len(c['changes'])} figures moved beyond their 95% interval"]
    m = c["modelled"]
    if m["against"] != m["this"]:
        lines.append(f"modelled: {m['against'] * 100:.0f}% against, {m['this'] * 100:.0f}% here")
    return "\n".join(lines) + "\n"
