"""Sorcerer Duel's new moves on a phone (issue 25), in a real Chromium at 360 x 740 against a real
server: a seat told its sorcerer (Vessik converts one card more), the end of a turn, and a death's
damage aimed by its owner. Every number is read from the loaded game."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_tracker_browser import choose, fits_the_phone, num, seated, submit


@pytest.fixture
def server(module_server):
    return module_server


def test_vessik_the_end_of_a_turn_and_a_deaths_damage_on_the_phone(server, phone, games):
    game = games["sorcerer-duel"]
    c = game.constants
    vessik = next(card for card in game.cards if card.get("extra_conversions"))
    imp = next(card for card in game.decks["ember"].cards if card.get("death_effect") == "damage")
    allowed = c.max_conversions + vessik["extra_conversions"]
    players = [{"name": "Ann", "options": {"deck": imp.deck, "sorcerer": vessik.id}}, "Ben"]
    _, t = server.call("POST", "/api/tables", {"game": "sorcerer-duel", "players": players})
    ann = seated(phone(), server, t["id"], t["token"], 0)

    ann.get_by_role("button", name="Ann starts").click()
    expect(ann.locator('.player[data-index="0"] .chip').filter(has_text=vessik.name)).to_have_count(1)
    for _ in range(allowed):
        ann.locator('[data-act="convert"]').click()
    expect(ann.locator('[data-act="convert"]')).to_be_disabled()
    expect(num(ann, 0, "mana")).to_have_text(str(c.mana_per_turn + allowed * c.mana_per_conversion))
    ann.locator('[data-act="summon"]').click()
    choose(ann, imp.name)
    submit(ann)
    expect(ann.locator('.player[data-index="0"] .unit')).to_contain_text(imp.name)
    ann.locator('[data-act="end-turn"]').click()
    expect(ann.locator('[data-act="summon"]')).to_have_count(0)
    ann.locator('[data-act="next-turn"]').click()
    expect(ann.locator(".t-title")).to_have_text("Turn 2: Ben")

    uid = server.call("GET", f"/api/tables/{t['id']}")[1]["state"]["tracker"]["units"][0]["id"]
    server.call("POST", f"/api/tables/{t['id']}/actions",
                {"type": "cast", "player": 1, "damage": imp["health"], "target": uid}, t["token"])
    ann.locator('[data-act="aim"]').click()
    choose(ann, "Ben")
    expect(num(ann, 1, "health")).to_have_text(str(c.starting_health - imp["death_amount"]))
    expect(ann.locator('[data-act="aim"]')).to_have_count(0)
    fits_the_phone(ann)
