"""`simulate --vary CONSTANT=LOW..HIGH[:STEP]`: the same seeds played at each value of one of a
game's constants (game.yaml's `constants`; a dotted name reaches inside one, such as
`ammo.live.life_loss`). Each value is a copy of the game's folder with that one number changed,
loaded and checked like any game, so every rule and counter that reads the constant follows it."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

from .engine import LabError

SPEC = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)=(?P<low>-?\d+)\.\.(?P<high>-?\d+)(?::(?P<step>\d+))?$")
MOST_VALUES = 50
MOST_NUMBER = 999_999_999  # a game's constants are counts and amounts: nine digits is room and to spare


def parse(spec: str) -> tuple[str, list[int]]:
    """NAME=LOW..HIGH[:STEP] as the constant's name and its values, low to high."""
    m = SPEC.match(spec)
    if not m:
        raise LabError(f"--vary {spec}: write CONSTANT=LOW..HIGH or CONSTANT=LOW..HIGH:STEP, such as starting_life=2..6")
    if any(len(m[part].lstrip("-")) > 9 for part in ("low", "high", "step") if m[part]):
        raise LabError(f"--vary {spec}: each number at most {MOST_NUMBER:,} either way")
    low, high, step = int(m["low"]), int(m["high"]), int(m["step"] or 1)
    if high < low or step < 1:
        raise LabError(f"--vary {spec}: LOW must be at most HIGH, and STEP at least 1")
    count = (high - low) // step + 1  # counted before any value is made
    if count > MOST_VALUES:
        raise LabError(f"--vary {spec}: {count:,} values; at most {MOST_VALUES} in one sweep")
    return m["name"], list(range(low, high + 1, step))


def _set(constants: dict[str, Any], name: str, value: int, where: Path) -> None:
    holder: Any = constants
    parts = name.split(".")
    for part in parts[:-1]:
        holder = holder.get(part) if isinstance(holder, dict) else None
    if not isinstance(holder, dict) or parts[-1] not in holder:
        raise LabError(f"--vary: {where} has no constant '{name}'; its constants are {', '.join(sorted(constants))}")
    if isinstance(holder[parts[-1]], bool) or not isinstance(holder[parts[-1]], int):
        raise LabError(f"--vary: constant '{name}' of {where} is {holder[parts[-1]]!r}, not a whole number")
    holder[parts[-1]] = value


def variants(cards: Path, slug: str, name: str, values: list[int]) -> tuple[tempfile.TemporaryDirectory[str], list[Path]]:
    """A directory of games per value, each holding a copy of the game with the constant set (the
    caller keeps the temporary directory until it has loaded them)."""
    tmp = tempfile.TemporaryDirectory(prefix="spellpress-vary-")
    dirs = []
    source = cards / slug / "game.yaml"
    for value in values:
        root = Path(tmp.name) / str(value)
        shutil.copytree(cards / slug, root / slug)
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
        _set(data.get("constants") or {}, name, value, source)
        (root / slug / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        dirs.append(root)
    return tmp, dirs


def point(value: int, report: dict[str, Any]) -> dict[str, Any]:
    """One value's figures: who wins (or the clear rate), the first player's, the length."""
    out: dict[str, Any] = {"value": value, "unfinished": report["unfinished"]}
    if "clear_rate" in report:
        out.update(clear_rate=report["clear_rate"], clear_ci95=report["clear_ci95"])
    else:
        out.update(win_rate=report["win_rate"], first_player=report["first_player"]["win_rate"],
                   first_ci95=report["first_player"]["ci95"], first_edge=report["first_player"]["edge"])
    out["length"] = {what: {k: report["length"][what][k] for k in ("median", "mean")} for what in ("turns", "rounds")}
    return out


def as_text(sweep: dict[str, Any]) -> str:
    s = sweep
    lines = [f"{s['game']}: {s['games']} games at each value of {s['vary']}, seed {s['seed']}", ""]
    coop = s["points"] and "clear_rate" in s["points"][0]
    head = "clear rate (95% CI)" if coop else "first player wins (95% CI)   seats' win rates"
    lines.append(f"{s['vary']:>20}  {head:<46} median turns  median rounds  unfinished")
    for p in s["points"]:
        if coop:
            lo, hi = p["clear_ci95"]
            rates = f"{p['clear_rate'] * 100:5.1f}% ({lo * 100:.1f}-{hi * 100:.1f}%)"
        else:
            lo, hi = p["first_ci95"]
            seats = " ".join(f"{r * 100:.1f}%" for r in p["win_rate"])
            rates = f"{p['first_player'] * 100:5.1f}% ({lo * 100:.1f}-{hi * 100:.1f}%)   {seats}"
        lines.append(f"{p['value']:>20}  {rates:<46} {p['length']['turns']['median']!s:>12}  "
                     f"{p['length']['rounds']['median']!s:>13}  {p['unfinished']:>10}")
    return "\n".join(lines) + "\n"
