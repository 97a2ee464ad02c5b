"""Two phones in a real Chromium against a real server, at 360 x 740: start, join, keep score."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


@pytest.fixture
def server(module_server):
    """One server for this file's tests: each plays at tables of its own, and none stops it."""
    return module_server


def counter(page, player: int, name: str):
    return page.locator(f'.counter[data-player="{player}"][data-counter="{name}"]')


def test_one_phone_starts_a_second_joins_and_both_keep_score(server, phone):
    ann = phone()
    ann.goto(server.url + "/")
    ann.get_by_role("link", name=re.compile("Magicka Mayhem")).click()
    ann.get_by_label("You").fill("Ann")
    ann.get_by_label("Player 2").fill("Ben")
    ann.get_by_role("button", name="Start the table").click()
    expect(ann.locator("#status")).to_have_text("live")
    code = ann.locator("#invite-code")
    expect(code).to_have_text(re.compile(r"^[2-9A-Z]{6}$"))
    expect(ann.locator("#invite-qr")).to_be_visible()
    invite = code.inner_text()
    ann.get_by_role("button", name="Close").last.click()

    ben = phone(color_scheme="dark")
    ben.goto(server.url + "/")
    ben.get_by_label("Code").fill(invite.lower())
    ben.get_by_role("button", name="Join").click()
    ben.get_by_role("button", name="Ben", exact=True).click()
    expect(ben.locator("#status")).to_have_text("live")
    expect(ben.locator('.player[data-index="1"] .badge.you')).to_be_visible()

    # A tap on one phone shows on the other within a second.
    counter(ann, 1, "health").locator(".step.down").click()
    expect(counter(ben, 1, "health").locator(".num")).to_have_text("19", timeout=1000)

    # A long press moves five steps; the other phone sees it.
    plus = counter(ben, 0, "health").locator(".step.up")
    plus.hover()
    ben.mouse.down()
    ben.wait_for_timeout(700)
    ben.mouse.up()
    expect(counter(ann, 0, "health").locator(".num")).to_have_text("25", timeout=1000)

    # A typed amount.
    counter(ben, 1, "health").locator(".value").click()
    ben.locator("#amount").fill("4")
    ben.get_by_role("button", name="Take").click()
    expect(counter(ann, 1, "health").locator(".num")).to_have_text("15", timeout=1000)

    # Undo names what it takes back, and both phones see it taken back.
    undo = ann.locator("#undo")
    expect(undo.locator("#undo-what")).to_have_text(re.compile("Ben: Health .4"), timeout=1000)
    undo.click()
    expect(counter(ben, 1, "health").locator(".num")).to_have_text("19", timeout=1000)

    # Dice are drawn on the server and shown on every phone.
    ben.get_by_role("button", name="Dice").click()
    ben.get_by_role("button", name="Roll").click()
    expect(ann.locator("#draw")).to_have_text(re.compile(r"^Draw 1 Ben rolled 1d6: [1-6]$"), timeout=1000)

    # The log, as anyone at the table reads it.
    ann.get_by_role("button", name="Log").click()
    log = ann.locator("#log li")
    expect(log.first).to_contain_text("Ben rolled 1d6")
    expect(ann.locator("#log .undone")).to_have_text(re.compile("Ben: Health .4"))
    ann.keyboard.press("Escape")

    # A reload keeps everything; nothing lived only in the page.
    ben.reload()
    expect(counter(ben, 0, "health").locator(".num")).to_have_text("25")
    expect(counter(ben, 1, "health").locator(".num")).to_have_text("19")

    # The phones fit the screen: nothing wider than 360 px, big enough targets.
    for page in (ann, ben):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        box = counter(page, 0, "health").locator(".step.up").bounding_box()
        assert box["width"] >= 48 and box["height"] >= 48


def test_taps_made_offline_arrive_once_when_the_phone_is_back(server, phone):
    _, t = server.call("POST", "/api/tables", {"game": "spellchamber", "players": ["Ann", "Ben"]})
    ann = phone()
    ann.goto(server.url + "/")
    ann.evaluate(
        "([id, token]) => localStorage.setItem('spellpress.seats', JSON.stringify({[id]: {token, player: 0}}))",
        [t["id"], t["token"]],
    )
    ann.goto(f"{server.url}/t/{t['id']}")
    expect(ann.locator("#status")).to_have_text("live")

    ann.context.set_offline(True)
    # The page learns it is offline from the browser's event; taps made before that would go at once.
    expect(ann.locator("#status")).to_have_attribute("data-status", "offline")
    down = counter(ann, 1, "life").locator(".step.down")
    for _ in range(3):
        down.click()
        # Between taps the phone may try to send (a heartbeat still arriving on the open stream,
        # the page shown again): with no network nothing leaves, so the taps stay one change.
        ann.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(counter(ann, 1, "life").locator(".num")).to_have_text("1")
    ann.wait_for_timeout(1500)  # the send fails and is queued for later
    assert server.call("GET", f"/api/tables/{t['id']}")[1]["state"]["players"][1]["counters"]["life"] == 4

    ann.context.set_offline(False)
    ann.evaluate("window.dispatchEvent(new Event('online'))")
    expect(ann.locator('.counter.pending')).to_have_count(0, timeout=5000)
    _, now = server.call("GET", f"/api/tables/{t['id']}")
    assert now["state"]["players"][1]["counters"]["life"] == 1
    assert now["version"] == 2, "three quick taps went as one change, sent once"


def test_a_new_player_with_markup_like_characters_is_shown_as_text(server, phone):
    _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    ann = phone()
    ann.goto(f"{server.url}/t/{t['id']}")
    expect(ann.locator("#watching")).to_be_visible()

    cy = phone()
    cy.goto(f"{server.url}/join/{t['code']}")
    cy.get_by_label("Someone new").fill("<3 Cy & <i>co")
    cy.get_by_role("button", name="Join", exact=True).click()
    expect(cy.locator("#join-error")).to_contain_text("markup")
    cy.get_by_label("Someone new").fill("<3 Cy & co")
    cy.get_by_role("button", name="Join", exact=True).click()
    expect(cy.locator('.player[data-index="2"] .name')).to_have_text("<3 Cy & co")

    expect(ann.locator('.player[data-index="2"] .name')).to_have_text("<3 Cy & co", timeout=1000)
    assert ann.locator('.player[data-index="2"] .name i').count() == 0
