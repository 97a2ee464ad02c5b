"""The balance report drawn as a PDF (`simulate --pdf`): a one-line verdict per finding, charts
of the seats' win rates (or the clear rate per level) with their intervals and of game length,
and the per-card table. Drawn with reportlab's platypus and graphics, in the text face the
cards use (Literata, embedded)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ..core.play.words import plural
from ..press.drawing.fonts import pdf_name

INK, BAR, EVEN = colors.HexColor("#222222"), colors.HexColor("#4c6ef5"), colors.HexColor("#868e96")


def verdicts(r: dict[str, Any]) -> list[str]:
    """One line per finding, with a word for it: high, low or even (the interval holds the fair share)."""
    lines = []
    if "clear_rate" in r:
        lo, hi = r["clear_ci95"]
        lines.append(f"The party clears {r['clear_rate'] * 100:.1f}% of games (95% CI {lo * 100:.1f}-{hi * 100:.1f}%).")
    else:
        fair = 1 / r["players"]
        f = r["first_player"]
        lo, hi = f["ci95"]
        word = "even" if lo <= fair <= hi else "high" if lo > fair else "low"
        half = (hi - lo) / 2 * 100
        lines.append(f"First player wins {f['win_rate'] * 100:.1f}% ± {half:.1f}% (fair: {fair * 100:.1f}%): {word}.")
        for s in r["seats"]:
            lo, hi = s["ci95"]
            word = "even" if lo <= fair <= hi else "high" if lo > fair else "low"
            plays = f" ({s['plays']})" if "plays" in s else ""
            lines.append(f"Seat {s['seat']}{plays} wins {s['win_rate'] * 100:.1f}% ({lo * 100:.1f}-{hi * 100:.1f}%): {word}.")
    t = r["length"]["turns"]
    lines.append(f"A game lasts {t['median']} turns at the median (p10 {t['p10']}, p90 {t['p90']}).")
    if r["unfinished"]:
        lines.append(f"{r['unfinished']} of {r['games']} games did not end within {r['turn_cap']} turns.")
    rules = r.get("unmodelled_rules", [])
    left = plural(len(r["unmodelled"]), "card") + (f" and {plural(len(rules), 'rule')}" if rules else "")
    lines.append(f"Modelled: {r['modelled'] * 100:.0f}% of the unique cards{' and rules' if rules else ''}; {left} not yet.")
    return lines


def _bars(title: str, labels: Sequence[str], values: Sequence[float], spans: Sequence[tuple[float, float]] | None,
          fair: float | None, top: float, font: str) -> Drawing:
    """A bar chart of `values` (0..top) with each one's interval as a whisker, and a fair line."""
    d = Drawing(170 * mm, 62 * mm, initialFontName=font)  # else the drawing starts in Helvetica, unembedded
    chart = VerticalBarChart()
    # types-reportlab has a plot area's place and size as int; reportlab takes any number of points
    chart.x, chart.y, chart.width, chart.height = 14 * mm, 10 * mm, 150 * mm, 42 * mm  # type: ignore[assignment]
    chart.data = [list(values)]
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = 0, top
    chart.valueAxis.labels.fontName = chart.categoryAxis.labels.fontName = font
    chart.valueAxis.labels.fontSize = chart.categoryAxis.labels.fontSize = 7
    chart.categoryAxis.categoryNames = list(labels)
    chart.barLabels.fontName = font
    chart.bars[0].fillColor = BAR
    chart.bars[0].strokeColor = None
    d.add(chart)
    d.add(String(14 * mm, 56 * mm, title, fontName=font, fontSize=9, fillColor=INK))
    scale = chart.height / top
    step = chart.width / max(1, len(values))
    for i, (lo, hi) in enumerate(spans or []):
        x = chart.x + step * (i + 0.5)
        d.add(Line(x, chart.y + lo * scale, x, chart.y + hi * scale, strokeColor=INK, strokeWidth=1.2))
    if fair is not None:
        y = chart.y + fair * scale
        d.add(Line(chart.x, y, chart.x + chart.width, y, strokeColor=EVEN, strokeDashArray=[3, 2]))
    return d


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:.1f}%"


def write(report: dict[str, Any], path: Path) -> None:
    regular, bold = pdf_name("regular"), pdf_name("bold")
    body = ParagraphStyle("body", fontName=regular, fontSize=9, leading=12, textColor=INK)
    head = ParagraphStyle("head", parent=body, fontName=bold, fontSize=15, leading=19, spaceAfter=4)
    sub = ParagraphStyle("sub", parent=body, fontName=bold, fontSize=11, leading=14, spaceBefore=8, spaceAfter=3)
    r = report
    policies = "; ".join(f"{name}: {line}" for name, line in r["policies"].items())
    story: list[Any] = [
        Paragraph(f"Balance of {escape(r['title'])}", head),
        Paragraph(escape(f"{r['games']} games, seed {r['seed']}, {r['players']} players. Policies: {policies}"), body),
        Paragraph("Findings", sub),
        *(Paragraph("• " + escape(line), body) for line in verdicts(r)),
        Spacer(1, 4 * mm),
    ]
    if "clear_rate" in r:
        levels = [(name, d["per_game"]) for name, d in r["figures"].items() if name.startswith("level ")]
        story.append(_bars("Clear rate per level (share of games that cleared it)", [n.split(" (")[0] for n, _ in levels],
                           [v for _, v in levels], None, None, 1.0, regular))
    else:
        story.append(_bars("Win rate per seat, with its 95% interval (dashed: a fair share)",
                           [f"seat {s['seat']}" for s in r["seats"]], [s["win_rate"] for s in r["seats"]],
                           [tuple(s["ci95"]) for s in r["seats"]], 1 / r["players"], 1.0, regular))
    t = r["length"]["turns"]
    story.append(_bars("Game length in turns: p10, median, p90", ["p10", "median", "p90"],
                       [t["p10"] or 0, t["median"] or 0, t["p90"] or 0], None, None, max(1, t["p90"] or 1) * 1.1, regular))
    story.append(Paragraph("Cards", sub))
    rows = [["card", "drawn", "played", "win rate played", "not played"]]
    rows += [[c["name"], c["drawn"], c["played"], _percent(c["win_rate_played"]), _percent(c["win_rate_not_played"])] for c in r["cards"]]
    table = Table(rows, colWidths=[70 * mm, 22 * mm, 22 * mm, 30 * mm, 26 * mm], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), regular, 8), ("FONT", (0, 0), (-1, 0), bold, 8),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f1f3f5")]),
    ]))
    story.append(table)
    if r["unmodelled"] or r.get("unmodelled_rules"):
        story.append(Paragraph("Not modelled yet", sub))
        if r["unmodelled"]:
            story.append(Paragraph(escape(", ".join(c["name"] for c in r["unmodelled"])), body))
        for rule in r.get("unmodelled_rules", []):
            story.append(Paragraph(escape(rule), body))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".pdf.tmp")
    SimpleDocTemplate(str(tmp), pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm, bottomMargin=16 * mm,
                      title=f"Balance of {r['title']}", author="spellpress simulate", invariant=1,
                      initialFontName=regular).build(story)  # else Helvetica, unembedded
    tmp.replace(path)  # a failed drawing leaves the previous PDF in place
