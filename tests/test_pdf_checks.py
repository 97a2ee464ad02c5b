"""The PDF checks the print tests rely on find what they are there to find."""

import re

import pikepdf
import pytest
from reportlab.pdfgen import canvas

from pdf_checks import Font, fonts, syntax_problems
from spellpress.press.drawing import fonts as press_fonts

TEXT_FACE = Font("/AAAAAA+Literata-Regular", embedded=True)


def tiny_pdf(path, helvetica_in: str = "page"):
    """One page: a line in the text face (embedded), and a line in Helvetica, one of the standard fonts
    that reportlab never embeds, drawn on the page or only inside a form XObject."""
    pdf = canvas.Canvas(str(path), initialFontName=press_fonts.pdf_name("regular"))
    pdf.drawString(72, 720, "Embedded")
    if helvetica_in == "form":
        pdf.beginForm("label")
    pdf.setFont("Helvetica", 12)
    pdf.drawString(72, 700, "Not embedded")
    if helvetica_in == "form":
        pdf.endForm()
        pdf.doForm("label")
    pdf.showPage()
    pdf.save()
    if helvetica_in == "form":
        _only_the_form_names_helvetica(path)
    return path


def _only_the_form_names_helvetica(path):
    """reportlab gives a page and its forms one font dictionary: give the form its own, so that
    Helvetica is in the form's resources and not the page's."""
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        resources = pdf.pages[0].obj.Resources
        name, helvetica = next((n, f) for n, f in resources.Font.items() if f.BaseFont == "/Helvetica")
        resources.XObject["/FormXob.label"].Resources = pikepdf.Dictionary(Font={name: helvetica})
        del resources.Font[name]
        pdf.save(path)


@pytest.mark.parametrize("where", ["page", "form"])
def test_a_font_left_out_of_the_file_is_reported(tmp_path, where):
    assert fonts(tiny_pdf(tmp_path / "tiny.pdf", where)) == {TEXT_FACE, Font("/Helvetica", embedded=False)}


def test_a_sound_file_has_no_syntax_problems(tmp_path):
    assert syntax_problems(tiny_pdf(tmp_path / "tiny.pdf")) == []


def test_a_truncated_file_is_reported(tmp_path):
    data = tiny_pdf(tmp_path / "tiny.pdf").read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 2])
    problems = syntax_problems(cut)
    assert problems and any("damaged" in problem for problem in problems), problems


def test_a_cross_reference_entry_that_points_at_the_wrong_byte_is_reported(tmp_path):
    data = tiny_pdf(tmp_path / "tiny.pdf").read_bytes()
    # the first object in use, in the table after 'xref': move its offset by one byte
    entry = re.search(rb"xref\n0 \d+\n0000000000 65535 f \n(\d{10}) 00000 n ", data)
    wrong = b"%010d" % (int(entry[1]) + 1)
    bad = tmp_path / "bad-xref.pdf"
    bad.write_bytes(data[: entry.start(1)] + wrong + data[entry.end(1):])
    problems = syntax_problems(bad)
    assert problems and any("damaged" in problem for problem in problems), problems
