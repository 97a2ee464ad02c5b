"""The README and docs/ hold together: every link between them reaches a file and a heading that
exist, and the README's list of commands is the `spellpress` command's own."""

import re
from pathlib import Path

import pytest

from spellpress.cli import parser

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The page without its fenced code blocks (a `](x)` in code is no link)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to dashes."""
    found = set()
    for line in _prose(page.read_text()).splitlines():
        heading = re.match(r"#+ (.*)", line)
        if heading:
            found.add(re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_reaches_a_file_and_a_heading(page):
    for target in LINK.findall(_prose(page.read_text())):
        if re.match(r"[a-z]+:", target):
            continue  # an address on the web
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        assert file.exists(), f"{page.name}: {target}: no such file"
        if anchor:
            assert anchor in anchors(file), f"{page.name}: {target}: no such heading"


def test_the_readme_names_every_command():
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("## The commands"):]
    named = set(re.findall(r"^spellpress ([a-z]+)", block, re.M))
    commands = {action for a in parser()._subparsers._group_actions for action in a.choices}
    assert named == commands
