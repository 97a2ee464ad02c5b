"""What the phones say, in a real Chromium at 360 x 740 against a real server: a repeated draw is
new on the other phone, an undo tells the phone whose change it took back, the log opens at its
newest entry, Spellchamber's header follows the rounds and the winner is named at the top, and a new game with
the same players starts from a finished one. Each test leaves screenshots of what it checked in
$SPELLPRESS_SCREENS (the test's own temporary folder if unset), to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_tracker_browser import seated, state


@pytest.fixture
def server(module_server):
    """One server for this file's tests: each plays at tables of its own, and none stops it."""
    return module_server


@pytest.fixture
def screens(tmp_path):
    folder = Path(os.environ.get("SPELLPRESS_SCREENS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return lambda page, name: page.screenshot(path=str(folder / f"{name}.png"))


def two_phones(server, phone, game, names=("Ann", "Ben")):
    _, t = server.call("POST", "/api/tables", {"game": game, "players": list(names)})
    _, other = server.call("POST", "/api/tables/join", {"code": t["code"], "name": names[1]})
    return t, seated(phone(), server, t["id"], t["token"], 0), seated(phone("dark"), server, t["id"], other["token"], 1), other


def test_a_draw_that_repeats_its_result_is_new_on_the_other_phone(server, phone, screens):
    t, ann, ben, _ = two_phones(server, phone, "magicka-mayhem")
    expect(ben.locator("#draw")).to_be_hidden()
    previous = None
    for number in range(1, 40):  # flips until one repeats the one before (heads, then heads)
        ann.locator('[data-open="dice-sheet"]').click()
        ann.locator('[data-draw="coin"]').click()
        expect(ben.locator("#draw .draw-no")).to_have_text(f"Draw {number}")
        result = state(server, t["id"])["last_draw"]["result"]
        expect(ben.locator("#draw")).to_have_text(f"Draw {number} Ann flipped a coin: {result}")
        if result == previous:
            break
        previous = result
    else:
        pytest.fail("forty flips and never the same result twice running")
    expect(ben.locator("#draw")).to_have_class("draw fresh")
    assert ben.locator("#draw").get_attribute("aria-live") == "polite", "a screen reader hears each new draw"
    screens(ben, "draw-repeated-on-the-other-phone")


def test_an_undo_on_one_phone_tells_the_other_whose_change_it_was(server, phone, screens):
    t, ann, ben, _ = two_phones(server, phone, "magicka-mayhem")
    start = t["state"]["players"][0]["counters"]["health"]
    minus = ann.locator('.counter[data-player="0"][data-counter="health"] .step.down')
    for _ in range(3):
        minus.click()
    expect(ben.locator('.counter[data-player="0"][data-counter="health"] .num')).to_have_text(str(start - 3))
    expect(ben.locator("#undo-what")).to_have_text(f"Ann: Health \N{MINUS SIGN}3 \N{RIGHTWARDS ARROW} {start - 3}")
    ben.locator("#undo").click()
    expect(ann.locator("#toast")).to_have_text(f"Ben undid your change: Ann: Health \N{MINUS SIGN}3 \N{RIGHTWARDS ARROW} {start - 3}")
    expect(ann.locator('.counter[data-player="0"][data-counter="health"] .num')).to_have_text(str(start))
    expect(ben.locator("#toast")).not_to_contain_text("undid your change")  # Ben did it: Ben is not told
    screens(ann, "undo-told-on-the-other-phone")


def test_the_log_opens_at_its_newest_entry_under_its_title(server, phone, screens):
    t, ann, _, _ = two_phones(server, phone, "magicka-mayhem")
    for i in range(40):
        action = {"type": "adjust", "player": i % 2, "counter": "health", "delta": -1} if i % 4 else {"type": "coin"}
        server.call("POST", f"/api/tables/{t['id']}/actions", action, t["token"])
    newest = server.call("GET", f"/api/tables/{t['id']}/log")[1]["events"][-1]["text"]
    expect(ann.locator("#undo-what")).to_have_text(newest)  # the phone has the table's latest
    ann.locator('[data-open="log-sheet"]').click()
    sheet = ann.locator("#log-sheet")
    expect(sheet).to_be_visible()
    expect(ann.locator("#log li").first).to_contain_text(newest)
    assert sheet.evaluate("s => s.scrollTop") == 0
    for visible in (ann.locator("#log-h"), ann.locator("#log li").first):
        box, view = visible.bounding_box(), sheet.bounding_box()
        assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"], "in sight when the log opens"
    expect(ann.locator("#log-h")).to_be_focused()
    screens(ann, "log-opens-at-the-newest")


def _shoot_round(server, t, seats):
    """Shoot (through the API) until the round's chamber is empty, never felling anyone."""
    while True:
        now = server.call("GET", f"/api/tables/{t['id']}")[1]
        tracker = now["state"]["tracker"]
        if tracker["phase"] != "battle":
            return
        shooter = tracker["turn"]["player"]
        target = max((i for i in range(2) if i != shooter), key=lambda i: now["state"]["players"][i]["counters"]["life"])
        code, _ = server.call("POST", f"/api/tables/{t['id']}/actions",
                              {"type": "shoot", "shooter": shooter, "target": target, "version": now["version"]}, seats[shooter])
        assert code == 200


def test_spellchamber_header_follows_the_rounds_then_names_the_winner(server, phone, screens, games):
    game = games["spellchamber"]
    t, ann, ben, other = two_phones(server, phone, "spellchamber", ("Cat", "Dan"))
    seats = (t["token"], other["token"])
    first = ann.locator("#table-sub").inner_text()
    assert first and "Round" not in first  # the table's options, before any round

    def start_round():
        version = server.call("GET", f"/api/tables/{t['id']}")[1]["version"]
        code, body = server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "start_round", "version": version}, t["token"])
        assert code == 200
        return body["state"]["tracker"]["scenario"]

    one = start_round()
    expect(ben.locator("#table-sub")).to_have_text(f"Round 1: {one['name']}")
    _shoot_round(server, t, seats)
    two = start_round()
    for page in (ann, ben):
        expect(page.locator("#table-sub")).to_have_text(f"Round 2: {two['name']}")
        expect(page.locator(".t-title")).to_have_text("Round 2")
    # one shot, so a spent card shows: its label fits its card
    now = server.call("GET", f"/api/tables/{t['id']}")[1]
    shooter = now["state"]["tracker"]["turn"]["player"]
    server.call("POST", f"/api/tables/{t['id']}/actions",
                {"type": "shoot", "shooter": shooter, "target": 1 - shooter, "version": now["version"]}, seats[shooter])
    spent = ann.locator(".chamber .ammo.shown")
    expect(spent).to_have_count(1)
    kind = server.call("GET", f"/api/tables/{t['id']}")[1]["state"]["tracker"]["chamber"]["spent"][0]
    assert spent.get_attribute("title") == game.constants.ammo[kind].name
    assert spent.evaluate("a => a.scrollWidth <= a.clientWidth && a.scrollHeight <= a.clientHeight"), "the label is not clipped"
    assert spent.inner_text() and game.constants.ammo[kind].name.upper().startswith(spent.inner_text())
    screens(ann, "spellchamber-round-2")

    # Dan falls: Cat wins, and the top of the page says so; the round, turns and odds are gone
    life = server.call("GET", f"/api/tables/{t['id']}")[1]["state"]["players"][1]["counters"]["life"]
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "adjust", "player": 1, "counter": "life", "delta": -life}, t["token"])
    for page in (ann, ben):
        expect(page.locator("#end .end-text")).to_have_text("Cat wins!")
        expect(page.locator("#table-sub")).to_have_text(first)  # the table's options again, not the round
        expect(page.locator("#tracker .t-turn")).to_have_count(0)
        expect(page.locator("#tracker .chamber-odds")).to_have_count(0)
        expect(page.locator("#tracker .t-title")).to_have_count(0)
    screens(ann, "spellchamber-winner")

    # between games: the same players start again, from beside the winner at the top
    ben.on("dialog", lambda dialog: dialog.accept())
    ben.locator('[data-act="new-game"]').click()
    for page in (ann, ben):
        expect(page.locator("#table-sub")).to_have_text(first)
        expect(page.locator('[data-act="start-round"]')).to_have_text("Start round 1")
        for i in (0, 1):
            expect(page.locator(f'.counter[data-player="{i}"][data-counter="life"] .num')).to_have_text(str(game.constants.starting_life))
    after = state(server, t["id"])
    assert after["games"] == 2 and [p["name"] for p in after["players"]] == ["Cat", "Dan"]
    ann.locator('[data-open="log-sheet"]').click()
    expect(ann.locator("#log li").first).to_contain_text("Dan started game 2 of Spellchamber with the same players: Cat and Dan")
    expect(ann.locator("#log li").first).to_have_class("game-start")  # marked off from the game before
    assert ann.locator("#log li").filter(has_text="Round 2:").count() == 1, "the old game's log stays readable"
    screens(ann, "new-game-same-players-log")


def test_new_game_from_the_table_menu(server, phone, screens):
    t, ann, ben, _ = two_phones(server, phone, "sorcerer-duel")
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "start_turn", "player": 0}, t["token"])
    expect(ben.locator('.counter[data-player="0"][data-counter="mana"] .num')).not_to_have_text("0")
    ann.on("dialog", lambda dialog: dialog.accept())
    ann.locator('[data-open="menu-sheet"]').click()
    ann.locator("#new-game").click()
    expect(ann.locator("#menu-sheet")).to_be_hidden()
    for page in (ann, ben):
        expect(page.locator('.counter[data-player="0"][data-counter="mana"] .num')).to_have_text("0")
    assert state(server, t["id"])["tracker"]["turn"] == 0
    screens(ben, "new-game-from-the-menu")
