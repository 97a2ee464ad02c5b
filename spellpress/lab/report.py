"""A tally as a designer reads it: a plain table, or JSON (`--json`). Rates carry 95% Wilson
intervals; every float is rounded to 4 places so a report is the same byte for byte."""

from __future__ import annotations

import json
import math
from typing import Any

from ..core.engine import Lab
from ..core.models import Game
from .engine import Plan, Tally
from .stats import quantile, wilson

PLACES = 4


def _r(x: float) -> float:
    return round(x, PLACES)


def _rate(wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"wins": wins, "of": n, "rate": _r(wins / n) if n else None, "ci95": [_r(lo), _r(hi)]}


def _spread(counts: Any) -> dict[str, Any]:
    n = sum(counts.values())
    mean = sum(v * c for v, c in counts.items()) / n if n else None
    sd = math.sqrt(sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1)) if mean is not None and n > 1 else 0.0
    return {"median": quantile(counts, 0.5), "p10": quantile(counts, 0.1), "p90": quantile(counts, 0.9),
            "mean": _r(mean) if mean is not None else None, "sd": _r(sd)}


def build(game: Game, lab: Lab, plan: Plan, tally: Tally) -> dict[str, Any]:
    applied, unapplied = lab.modelled(game)
    names = {card.id: card.name for card in game.cards}
    k, n = tally.players, tally.games
    seats = []
    for s in range(k):
        rate = _rate(tally.wins[s], n)
        seats.append({"seat": s + 1, "policy": plan.policies[s], "wins": rate["wins"], "win_rate": rate["rate"],
                      "ci95": rate["ci95"], "first": tally.first[s]})
        if lab.seat_plays is not None:
            seats[-1]["plays"] = lab.seat_plays(game, s)
    first = _rate(tally.first_wins, n)
    total_wins = tally.cleared * k if lab.coop else sum(tally.wins.values())  # (game, seat) pairs that won
    cards = []
    for cid in sorted(set(tally.drawn) | set(tally.played), key=lambda c: (names.get(c, c), c)):
        sides, won = tally.sides[cid], tally.side_wins[cid]
        rest, rest_won = n * k - sides, total_wins - won
        cards.append({
            "id": cid, "name": names.get(cid, cid), "drawn": tally.drawn[cid], "played": tally.played[cid],
            "sides_played": sides,
            "win_rate_played": _r(won / sides) if sides else None,
            "win_rate_not_played": _r(rest_won / rest) if rest else None,
        })
    report: dict[str, Any] = {
        "game": game.slug,
        "title": game.title,
        "games": n,
        "seed": plan.seed,
        "players": k,
        "policies": {name: lab.policies[name] for name in sorted(set(plan.policies))},
        "finished": n - tally.unfinished,
        "unfinished": tally.unfinished,
        "turn_cap": lab.turn_cap,
        "no_winner": tally.nobody,
        "seats": seats,
        "win_rate": [seat["win_rate"] for seat in seats],
        "first_player": {"rule": lab.first_rule, "wins": first["wins"], "win_rate": first["rate"], "ci95": first["ci95"],
                         "edge": _r(first["rate"] - 1 / k) if first["rate"] is not None else None},
        "length": {"turns": _spread(tally.turns), "rounds": _spread(tally.rounds)},
        "figures": {name: {"total": tally.figures[name], "per_game": _r(tally.figures[name] / n)} for name in sorted(tally.figures)},
        "modelled": _modelled(applied, unapplied, lab.unmodelled_rules),
        "unmodelled": [{"id": cid, "name": names.get(cid, cid)} for cid in unapplied],
        "unmodelled_rules": list(lab.unmodelled_rules),
        "cards": cards,
    }
    if lab.coop:  # the party wins or loses together: no seat wins alone
        clear = _rate(tally.cleared, n)
        for key in ("seats", "win_rate", "first_player"):
            del report[key]
        report = {**report, "clear_rate": clear["rate"], "clear_ci95": clear["ci95"], "cleared": tally.cleared,
                  "policies_by_seat": list(plan.policies)}
    return report


def _modelled(applied: list[str], unapplied: list[str], rules: tuple[str, ...]) -> float:
    """The share of the game the lab plays: its unique cards applied, of the unique cards and the
    rules (turn steps) it leaves out; a rule left out weighs as much as a card."""
    whole = len(applied) + len(unapplied) + len(rules)
    return _r(len(applied) / whole) if whole else 1.0


def as_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{x * 100:5.1f}%"


def as_text(report: dict[str, Any]) -> str:
    r = report
    lines = [f"{r['game']}: {r['games']} games, seed {r['seed']}, {r['players']} players"]
    for name, line in r["policies"].items():
        lines.append(f"  policy {name}: {line}")
    ended = f"lost {r['no_winner']}" if "clear_rate" in r else f"finished with no winner {r['no_winner']}"
    lines.append(f"  finished {r['finished']}, unfinished (turn cap {r['turn_cap']}) {r['unfinished']}, {ended}")
    if "clear_rate" in r:
        lo, hi = r["clear_ci95"]
        lines += ["", f"the party cleared {r['cleared']} of {r['games']} games: {_pct(r['clear_rate'])} "
                      f"(95% CI {lo * 100:.1f}-{hi * 100:.1f}%); seats' policies: {', '.join(r['policies_by_seat'])}"]
    else:
        lines += _seat_lines(r)
    for what, d in r["length"].items():
        lines.append(f"{what:>6} per finished game: median {d['median']}, p10 {d['p10']}, p90 {d['p90']}, mean {d['mean']}")
    if r["figures"]:
        lines.append("")
        for name, d in r["figures"].items():
            lines.append(f"{name}: {d['total']} ({d['per_game']} per game)")
    lines += ["", "card                        drawn   played  win rate played / not"]
    for c in r["cards"]:
        rates = f"{_pct(c['win_rate_played'])} / {_pct(c['win_rate_not_played'])}"
        lines.append(f"{c['name'][:26]:<26} {c['drawn']:>7} {c['played']:>8}  {rates}")
    names = ", ".join(c["name"] for c in r["unmodelled"]) or "none"
    rules = r.get("unmodelled_rules", [])
    lines += ["", f"modelled: {r['modelled'] * 100:.0f}% of the unique cards{' and rules' if rules else ''}; "
                  f"cards not modelled ({len(r['unmodelled'])}): {names}"]
    lines += [f"rule not modelled: {rule}" for rule in rules]
    return "\n".join(lines) + "\n"


def _seat_lines(r: dict[str, Any]) -> list[str]:
    lines = ["", "seat  policy    wins   win rate   95% CI           played first"]
    for s in r["seats"]:
        lo, hi = s["ci95"]
        lines.append(f"{s['seat']:>4}  {s['policy']:<8} {s['wins']:>5}   {_pct(s['win_rate'])}   "
                     f"{lo * 100:5.1f}-{hi * 100:5.1f}%   {s['first']:>6}" + (f"   plays {s['plays']}" if "plays" in s else ""))
    f = r["first_player"]
    lo, hi = f["ci95"]
    edge = "   -" if f["edge"] is None else f"{f['edge'] * 100:+.1f} points"
    lines += ["", f"first player ({f['rule']}): wins {_pct(f['win_rate'])} ({lo * 100:.1f}-{hi * 100:.1f}%), "
                  f"edge over 1/{r['players']}: {edge}"]
    return lines
