"""Print shops as build targets (`--target mpc|tgc|dtc`): their numbers, from shops.yaml.

A shop's files are the faces drawn again at its pixel size and bleed (the layouts keep text
1/8 in inside the trim, the safe zone of every shop here), named as it takes them, with an
`order.txt` that says which file to upload where and how many of each. The command line reads
this module for the shops' names: what draws a shop's files is outputs/shopfiles.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

DATA = Path(__file__).with_name("shops.yaml")
HOME = "home"  # the plain build: sheets and card images (no shop)


@dataclass(frozen=True)
class Shop:
    key: str  # its --target name
    name: str
    upload: str
    dpi: int
    size_px: tuple[int, int]
    bleed_px: float
    safe_px: float
    colour: str  # 'RGB' or 'CMYK'
    format: str  # 'png' or 'pdf'
    files: dict[str, str]
    max_ink: int = 0  # CMYK only: the most total ink, per cent
    profile: str = ""  # CMYK only: the file name of the ICC profile its pictures are separated for (outputs/cmyk.py)

    @property
    def bleed_mm(self) -> float:
        return self.bleed_px / self.dpi * 25.4

    @property
    def trim_px(self) -> tuple[float, float]:
        return self.size_px[0] - 2 * self.bleed_px, self.size_px[1] - 2 * self.bleed_px

    @property
    def fingerprint(self) -> str:
        """What of the shop shapes its files: joins their keys."""
        return repr((self.dpi, self.size_px, self.bleed_px, self.colour, self.format, self.max_ink))


def _load() -> dict[str, Shop]:
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return {key: Shop(key=key, **{**spec, "size_px": tuple(spec["size_px"])}) for key, spec in data.items()}


SHOPS = _load()
TARGETS = (HOME, *SHOPS)


def misfit(shop: Shop, drawing) -> str | None:
    """Why the shop cannot take this face as laid out (another size of card, too little bleed),
    or None."""
    w, h = ((drawing.width + 2 * shop.bleed_mm) * shop.dpi / 25.4, (drawing.height + 2 * shop.bleed_mm) * shop.dpi / 25.4)
    if shop.bleed_mm > drawing.bleed + 1e-9:
        return f"{shop.name} wants {shop.bleed_mm:.2f} mm of bleed; the layout draws {drawing.bleed:g} mm"
    if (round(w), round(h)) != shop.size_px:
        tw, th = (px / shop.dpi * 25.4 for px in shop.trim_px)
        return (f"{shop.name}'s product here (shops.yaml) is {tw:.1f} x {th:.1f} mm cards, {shop.size_px[0]} x "
                f"{shop.size_px[1]} px ({shop.dpi} dpi with bleed); these cards, {drawing.width:g} x {drawing.height:g} mm, "
                f"come to {w:.0f} x {h:.0f} px: shops.yaml lists no product of that size for it")
    return None


def file_name(pattern: str, deck: str, n: int = 0, card: str = "") -> str:
    return pattern.format(deck=deck, n=n, card=card)
