"""Every use of reportlab's undocumented internals, in one place.

reportlab offers no public way to do what these functions do, so each reaches into its objects
for one thing. They are known to work with the reportlab versions that pyproject.toml allows;
a newer reportlab is let in there once they are checked against it (the press tests exercise
every one).
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from reportlab.pdfbase import pdfdoc, ttfonts

if TYPE_CHECKING:  # the PDF sheets need none of platypus
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Flowable, Table
    from reportlab.platypus.tableofcontents import TableOfContents

_FLATE = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])  # as reportlab names its own compression


def number_characters(canvas: Canvas, font: TTFont, text: str) -> None:
    """Give `text`'s characters the next codes of the font's first subset in this document,
    in order, and name that subset now."""
    font.splitString(text, _document(canvas))
    font.getSubsetInternalName(0, _document(canvas))


def glyph_heights(font: TTFont, chars: str) -> list[tuple[float, float]]:
    """How far each of `chars`' glyphs reaches below and above the baseline (its yMin and yMax,
    as shares of the face's size), for those the face has and that draw anything: read from
    the head of each glyph's outline, where reportlab's parser found it (its glyf table and
    glyph offsets), which it keeps only for the subsets it makes."""
    face = font.face
    data: bytes = face._ttf_data  # type: ignore[attr-defined]  # private: not in the stubs
    glyf: int = face.table["glyf"]["offset"]  # type: ignore[attr-defined]
    offsets: list[int] = face.glyphPos  # type: ignore[attr-defined]
    units: float = face.unitsPerEm  # type: ignore[attr-defined]
    out = []
    for ch in chars:
        glyph = face.charToGlyph.get(ord(ch))  # type: ignore[attr-defined]
        if glyph is None or glyph + 1 >= len(offsets) or offsets[glyph + 1] <= offsets[glyph]:
            continue  # none, or an empty outline (a space)
        at = glyf + offsets[glyph]
        bottom, top = struct.unpack(">h", data[at + 4:at + 6])[0], struct.unpack(">h", data[at + 8:at + 10])[0]
        out.append((bottom / units, top / units))
    return out


def form_operators(canvas: Canvas, name: str) -> bytes:
    """The drawing operators recorded for form `name`, uncompressed."""
    return _form(canvas, name).stream


def set_form_operators(canvas: Canvas, name: str, compressed: bytes) -> None:
    """Form `name` holds these operators, already compressed with zlib as reportlab would."""
    _form(canvas, name).Contents = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"Filter": _FLATE}), compressed)


def _form(canvas: Canvas, name: str) -> pdfdoc.PDFFormXObject:
    form = _document(canvas).idToObject[pdfdoc.xObjectName(name)]
    assert isinstance(form, pdfdoc.PDFFormXObject)
    return form


def _document(canvas: Canvas) -> pdfdoc.PDFDocument:
    return canvas._doc  # type: ignore[attr-defined]  # private: not in the stubs


def saved_objects(canvas: Canvas) -> list[tuple[str | None, int]] | None:
    """After `canvas.save()`: each indirect object in the order the file holds them, as (the name
    of the form it is, if it is a form, else None; its offset in the file); None if an object is
    not numbered in that order or not of version 0 (reportlab writes none such)."""
    doc = _document(canvas)
    found: list[tuple[str | None, int]] = []
    for number in range(1, len(doc.numberToId) + 1):
        oid = doc.numberToId[number]
        if doc.idToObjectNumberAndVersion[oid] != (number, 0):
            return None
        form = oid[len("FormXob."):] if isinstance(doc.idToObject[oid], pdfdoc.PDFFormXObject) else None
        found.append((form, doc.idToOffset[oid]))
    return found


def contents_entries(toc: TableOfContents) -> list[tuple]:
    """The entries (level, text, page, key) a table of contents holds after a layout pass."""
    entries: list[tuple] = toc._entries  # type: ignore[attr-defined]  # private: not in the stubs
    return entries


def set_contents_entries(toc: TableOfContents, entries: list[tuple]) -> None:
    """Start a table of contents from these entries instead of none."""
    toc._entries = entries  # type: ignore[attr-defined]  # private: not in the stubs


def text_cursor(canvas: Canvas) -> tuple[float, float]:
    """Where the text last drawn on the canvas ended: after a contents entry's last word (as
    reportlab's own drawPageNumbers reads it)."""
    info = canvas._curr_tx_info  # type: ignore[attr-defined]  # private: not in the stubs
    return float(info["cur_x"]), float(info["cur_y"])


def frame_height(flowable: Flowable) -> float | None:
    """The whole height of the frame that is placing the flowable (None while none is: a group
    measuring it, say): whether it would fit on a fresh page."""
    frame = getattr(flowable, "_frame", None)  # set by a frame's add and split, for their while
    return None if frame is None else float(frame._height)


def set_column_widths(table: Table, widths: list[float]) -> None:
    """The widths the table's columns take at its next wrap."""
    table._argW = widths  # type: ignore[attr-defined]  # private: not in the stubs



_SUBSETS_KEPT = 64  # in all: a game's PDFs embed one subset of each of its four fonts, or a few more
_subsets: dict[tuple[int, tuple[int, ...]], bytes] = {}  # (font, its characters) -> the subset's bytes
_compressed: dict[int, tuple[bytes, bytes | None]] = {}  # id of a kept subset -> (it, its compressed bytes)
_remembering = False  # remember_font_data has replaced reportlab's methods in this process


def remember_font_data() -> None:
    """From now on, this process keeps what reportlab makes of an embedded font for a PDF: the
    TrueType subset, its compressed bytes and its ToUnicode map, by the characters in it. Every
    card sheet embeds the same subsets (pdf.prepare fixes their characters), and making them
    again was a third of a sheet's time. What is kept is exactly what reportlab would make again:
    the same function of the same input."""
    global _remembering
    if _remembering:
        return
    _remembering = True
    make_subset = ttfonts.TTFontFile.makeSubset
    compress = pdfdoc.PDFStreamFilterZCompress.encode

    def subset(self: ttfonts.TTFontFile, chars: Sequence[int]) -> bytes:
        key = (id(self), tuple(chars))  # a registered font lives as long as the process
        data = _subsets.get(key)
        if data is None:
            if len(_subsets) >= _SUBSETS_KEPT:
                _subsets.clear()
                _compressed.clear()
            data = _subsets[key] = make_subset(self, chars)
            _compressed[id(data)] = (data, None)
        return data

    def encode(self: pdfdoc.PDFStreamFilterZCompress, text: bytes) -> bytes:
        kept = _compressed.get(id(text))
        if kept is None or kept[0] is not text:  # not a kept subset: any other stream
            return compress(self, text)
        compressed = kept[1]
        if compressed is None:
            compressed = compress(self, text)
            _compressed[id(text)] = (text, compressed)
        return compressed

    # reportlab's own methods replaced, on purpose: mypy forbids that of a class it knows
    ttfonts.TTFontFile.makeSubset = subset  # type: ignore[method-assign, assignment]
    pdfdoc.PDFStreamFilterZCompress.encode = encode  # type: ignore[method-assign]
    ttfonts.makeToUnicodeCMap = _to_unicode_map(ttfonts.makeToUnicodeCMap)


def _to_unicode_map(make: Callable[[str, list[int]], str]) -> Callable[..., str]:
    @functools.lru_cache(maxsize=_SUBSETS_KEPT)
    def kept(fontname: str, subset: tuple[int, ...]) -> str:
        return make(fontname, list(subset))

    return lambda fontname, subset: kept(fontname, tuple(subset))
