"""`spellpress preview` in a real Chromium: every card, the rulebook's pages and the playmat; an
edited card redrawn in place; a problem shown with its file and line, then gone once fixed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import expect

from conftest import ROOT, free_port


def _serve(project, port):
    log = open(project / "preview.log", "wb")  # a file, not a pipe nobody reads: a full pipe would stop the server
    process = subprocess.Popen([sys.executable, "-m", "spellpress.cli", "preview", "spellchamber", "--port", str(port)],
                               cwd=project, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError((project / "preview.log").read_text())
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/state", timeout=1).read()
            return process
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the preview did not answer within 30 s")


def test_the_preview_redraws_an_edited_card_and_shows_problems(tmp_path, cards_dir, phone, games):
    project = tmp_path
    shutil.copytree(cards_dir / "spellchamber", project / "cards" / "spellchamber")
    shutil.copytree(ROOT / "templates", project / "templates")
    port = free_port()
    process = _serve(project, port)
    try:
        page = phone()
        failed = []
        page.on("response", lambda r: failed.append(r.url) if r.status >= 500 else None)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"http://127.0.0.1:{port}/")
        unique = len(games["spellchamber"].cards)
        expect(page.locator("figure[data-card]")).to_have_count(unique, timeout=90_000)
        expect(page.locator('img[alt="Rulebook page 1"]')).to_be_visible()
        expect(page.locator('img[alt="Playmat"]')).to_have_count(1)
        page.wait_for_function("() => document.querySelector('img[alt=\"Rulebook page 1\"]').naturalWidth > 0")
        sleep = page.locator('figure[data-card="sleep-magic"] img')
        before = sleep.get_attribute("src")
        others = page.locator('figure[data-card="mind-control"] img').get_attribute("src")

        spells = project / "cards" / "spellchamber" / "spells.yaml"
        text = spells.read_text()
        spells.write_text(text.replace("they skip their next battle turn", "they skip two battle turns"))
        expect(page.locator('figure[data-card="sleep-magic"]')).to_have_class("changed", timeout=30_000)
        assert sleep.get_attribute("src") != before
        assert page.locator('figure[data-card="mind-control"] img').get_attribute("src") == others, "only the edited card"

        lines = spells.read_text().splitlines()
        at = next(i for i, line in enumerate(lines) if "- id: sleep-magic" in line)
        lines[at + 1] = "     name: Sleep Magic"  # indented one space too far
        spells.write_text("\n".join(lines) + "\n")
        problems = page.locator("#problems")
        expect(problems).to_be_visible(timeout=30_000)
        expect(problems).to_contain_text(f"spells.yaml:{at + 2}:")
        expect(problems).to_contain_text("indent it like")
        expect(page.locator("figure[data-card]")).to_have_count(unique)  # the last good pictures stay
        spells.write_text(text)
        expect(problems).to_be_hidden(timeout=30_000)
        assert failed == [], failed
        said = (project / "preview.log").read_text()
        assert "spellchamber: cards 1 changed (Sleep Magic)" in said and "problem(s): shown in the page" in said
    finally:
        process.terminate()
        process.wait(timeout=15)
