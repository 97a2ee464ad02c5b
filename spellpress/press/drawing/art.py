"""Where a card's picture sits in its box: one rule for the PDF and the raster backends, so
that they agree. The file itself was checked by core/pictures.py."""

from __future__ import annotations


def place(width: float, height: float, w: float, h: float, fit: str, focus: tuple[float, float]) -> tuple[float, float, float, float]:
    """Where a picture `width` x `height` is drawn in a box `w` x `h` (any one unit): its offset
    from the box's top left and its drawn size. `cover` fills the box (what overflows is cropped
    by the caller), `contain` fits inside it; the focus point of the picture falls on the same
    point of the box, so 0.5,0.5 centres it and 0,0 keeps its top left corner."""
    scale = (min if fit == "contain" else max)(w / width, h / height)
    dw, dh = width * scale, height * scale
    return (w - dw) * focus[0], (h - dh) * focus[1], dw, dh
