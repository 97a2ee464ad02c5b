"""The rule helpers' calculators in a real Chromium at 360 x 740, against a real server."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


@pytest.fixture
def server(module_server):
    """One server for this file's tests: each plays at tables of its own, and none stops it."""
    return module_server


def test_the_rules_sheet_on_a_spellchamber_table(server, phone, games):
    game = games["spellchamber"]
    _, t = server.call("POST", "/api/tables", {"game": "spellchamber", "players": ["Ann", "Ben"]})
    page = phone("dark")
    page.goto(f"{server.url}/t/{t['id']}")
    docked = [b.bounding_box() for b in page.locator(".dock-btn").all()]
    assert len(docked) == 5 and len({box["y"] for box in docked}) == 1, "the dock's five buttons share one row"
    assert all(box["width"] >= 44 for box in docked)
    page.get_by_role("button", name="Rules").click()
    sheet = page.locator("#rules-sheet")
    expect(sheet).to_be_visible()
    verdict = sheet.locator(".calc-verdict")
    _, start = server.call("POST", "/api/rules/spellchamber/next-shot", {})
    expect(verdict).to_have_text(start["verdict"])

    live = game.constants.ammo["live"].name
    sheet.get_by_role("button", name=f"{live} shot so far up").click()
    _, after = server.call("POST", "/api/rules/spellchamber/next-shot", {"shot_live": 1})
    expect(verdict).to_have_text(after["verdict"])
    assert after["verdict"] != start["verdict"]

    sheet.get_by_label("Scenario").select_option("")  # none: the chamber must then be typed
    expect(sheet.locator(".calc-answer.refused")).to_contain_text("choose a scenario")
    own = sheet.locator("details.calc-group")
    expect(own.get_by_role("spinbutton").first).to_be_hidden()  # seldom needed: folded
    own.locator("summary").click()
    for kind, n in (("live", 2), ("magic", 1), ("blank", 1)):
        sheet.get_by_role("spinbutton", name=f"{game.constants.ammo[kind].name} in the chamber").fill(str(n))
    _, typed = server.call("POST", "/api/rules/spellchamber/next-shot",
                           {"scenario": None, "chamber_live": 2, "chamber_magic": 1, "chamber_blank": 1, "shot_live": 1})
    expect(verdict).to_have_text(typed["verdict"])
    expect(sheet.locator(".calc-answer.refused")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for button in sheet.locator("button:visible").all():
        assert button.bounding_box()["height"] >= 44, button.inner_text()


def test_every_games_helpers_on_their_own_page(server, phone, games):
    page = phone()
    for slug, game in games.items():
        _, listed = server.call("GET", f"/api/rules/{slug}")
        page.goto(f"{server.url}/new/{slug}")
        link = page.get_by_role("link", name="Rule helpers")
        if not listed["helpers"]:
            expect(link).to_have_count(0)
            continue
        link.click()
        expect(page.locator("h1")).to_have_text(f"{game.title}: rules")
        for helper in listed["helpers"]:
            if len(listed["helpers"]) > 1:
                page.get_by_role("radio", name=helper["title"]).check(force=True)
            expect(page.get_by_text(helper["question"])).to_be_visible()
            expect(page.locator(".calc-verdict")).not_to_be_empty()
            expect(page.locator(".calc-answer.refused")).to_have_count(0)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, (slug, helper["id"])


def test_the_rulebook_example_on_a_phone_and_a_hand_picked_card_by_card(server, phone, games):
    """Fire Bolt paid with Raging Fire and Limitless Lightning wastes one Lightning: asked the
    way a player asks it, one card at a time from the picker."""
    game = games["magicka-mayhem"]
    page = phone()
    page.goto(f"{server.url}/rules/magicka-mayhem")
    page.get_by_label("Spell", exact=True).select_option("fire-bolt")
    hand = page.get_by_label("Add to Element cards in hand")
    for card in ("raging-fire", "limitless-lightning"):
        hand.select_option(card)
    _, expected = server.call("POST", "/api/rules/magicka-mayhem/can-cast",
                              {"spell": "fire-bolt", "hand": ["raging-fire", "limitless-lightning"]})
    verdict = page.locator(".calc-verdict")
    expect(verdict).to_have_text(expected["verdict"])
    assert "1 Lightning wasted" in expected["verdict"]
    picked = page.locator(".calc-picked li")
    expect(picked).to_have_count(2)
    expect(picked.nth(0)).to_contain_text(game.card("raging-fire").name)
    page.get_by_role("button", name=f"Remove {game.card('raging-fire').name}").click()
    _, short = server.call("POST", "/api/rules/magicka-mayhem/can-cast", {"spell": "fire-bolt", "hand": ["limitless-lightning"]})
    expect(verdict).to_have_text(short["verdict"])
    assert short["verdict"].startswith("No:")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
