"""Every use of reportlab's undocumented internals, in one place.

reportlab offers no public way to do what these functions do, so each reaches into its objects
for one thing. They are known to work with the reportlab versions that pyproject.toml allows;
a newer reportlab is let in there once they are checked against it (the press tests exercise
every one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.pdfbase import pdfdoc

if TYPE_CHECKING:  # the PDF sheets need none of platypus
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Table
    from reportlab.platypus.tableofcontents import TableOfContents

_FLATE = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])  # as reportlab names its own compression


def number_characters(canvas: Canvas, font: TTFont, text: str) -> None:
    """Give `text`'s characters the next codes of the font's first subset in this document,
    in order, and name that subset now."""
    font.splitString(text, canvas._doc)
    font.getSubsetInternalName(0, canvas._doc)


def form_operators(canvas: Canvas, name: str) -> bytes:
    """The drawing operators recorded for form `name`, uncompressed."""
    return _form(canvas, name).stream


def set_form_operators(canvas: Canvas, name: str, compressed: bytes) -> None:
    """Form `name` holds these operators, already compressed with zlib as reportlab would."""
    _form(canvas, name).Contents = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"Filter": _FLATE}), compressed)


def _form(canvas: Canvas, name: str):
    return canvas._doc.idToObject[pdfdoc.xObjectName(name)]


def contents_entries(toc: TableOfContents) -> list[tuple]:
    """The entries (level, text, page, key) a table of contents holds after a layout pass."""
    return toc._entries


def set_contents_entries(toc: TableOfContents, entries: list[tuple]) -> None:
    """Start a table of contents from these entries instead of none."""
    toc._entries = entries


def set_column_widths(table: Table, widths: list[float]) -> None:
    """The widths the table's columns take at its next wrap."""
    table._argW = widths
