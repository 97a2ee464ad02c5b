"""What `qpdf --check` and poppler's `pdffonts` tell of a PDF, from pip-installed pikepdf.

`syntax_problems` takes the steps of `qpdf --check` (pikepdf wraps libqpdf, qpdf's library),
and `fonts` says of every font that anything in the file can draw with whether its program is
in the file.
"""

from pathlib import Path
from typing import NamedTuple

import pikepdf
from pikepdf import Name

FONT_PROGRAMS = ("/FontFile", "/FontFile2", "/FontFile3")


class Font(NamedTuple):
    name: str
    embedded: bool


def syntax_problems(path: Path) -> list[str]:
    """What `qpdf --check` would warn about or fail on; none for a sound file."""
    try:
        with pikepdf.open(path) as pdf:
            return pdf.check_pdf_syntax()
    except pikepdf.PdfError as err:
        return [f"ERROR: {err}"]


def fonts(path: Path) -> set[Font]:
    """Every font in the resources of every page and of everything a page can draw (form
    XObjects, annotation appearances, patterns, Type 3 glyphs, soft masks)."""
    with pikepdf.open(path) as pdf:
        return {Font(str(font.get("/BaseFont", "(unnamed)")), _embedded(font))
                for scope in pdf.content_scopes() if scope.resources is not None
                for font in (scope.resources.get_dict(Name.Font) or {}).values()}


def _embedded(font: pikepdf.Dictionary) -> bool:
    """A Type 3 font's glyphs are drawings in the file; any other font needs its program in a
    /FontFile, /FontFile2 or /FontFile3 stream of its descriptor (a composite font's is on its
    descendant)."""
    if font.get("/Subtype") == Name.Type3:
        return True
    if font.get("/Subtype") == Name.Type0:
        font = font.DescendantFonts[0]
    descriptor = font.get("/FontDescriptor")
    return isinstance(descriptor, pikepdf.Dictionary) and any(
        isinstance(descriptor.get(key), pikepdf.Stream) for key in FONT_PROGRAMS)


_SCRATCH = pikepdf.new()  # a file to hold content streams while qpdf parses them


def operations(page) -> list[tuple[list, bytes]]:
    """A pypdf page's content as (operands, operator) pairs, as pypdf's ContentStream gives them,
    parsed by qpdf (C++): pypdf's parser took a third of the sheet tests' time. Numbers come as
    int or Decimal (float() takes both), names as their text ('/FormXob.x')."""
    stream = pikepdf.Stream(_SCRATCH, page.get_contents().get_data())
    return [([_plain(o) for o in operands], op.unparse()) for operands, op in pikepdf.parse_content_stream(stream)]


def _plain(operand):
    return str(operand) if isinstance(operand, pikepdf.Name) else operand


def has_cards(page) -> bool:
    """Whether the page places a card's picture (a form XObject); a checklist page places none."""
    forms = page.get("/Resources", {}).get("/XObject", {})
    return any(str(name).startswith("/FormXob") for name in forms)
