"""The table on every screen and every connection, in a real Chromium against a real server:
axe-core on every page in light and dark at four sizes, counters on the screen without
scrolling, names that carry the player and the value, a dead connection said in words within
5 s, and the screen kept awake over plain http (issue 15, parts 4, 5 and 7)."""

from __future__ import annotations

import json
import os
import signal
import time

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import CHROMIUM, CHROMIUM_ARGS, _children

GAMES = ["spellchamber", "magicka-mayhem", "sorcerer-duel", "powermage-54", "powers-combined"]
PHONE, SIDEWAYS, SMALL, TABLET = (360, 740), (740, 360), (320, 568), (820, 1180)
axe = Axe()


def screen(chromium, size, scheme="light"):
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True,
                                   is_mobile=True, color_scheme=scheme)
    context.set_default_timeout(10_000)
    return context


def seat(page, server, seats: dict):
    """This phone holds the given seats (table id -> (token, player)), as joining leaves them."""
    page.goto(server.url + "/")
    held = {table_id: {"token": token, "player": player} for table_id, (token, player) in seats.items()}
    page.evaluate("seats => localStorage.setItem('spellpress.seats', seats)", json.dumps(held))


def table(page, server, table_id):
    page.goto(f"{server.url}/t/{table_id}")
    expect(page.locator("#status")).to_have_text("live")


def violations(page) -> list[str]:
    """axe-core's findings on the page as it stands (its script put in once per page load)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(axe.axe_script)
    found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")["violations"]
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:4]} {v['nodes'][0].get('failureSummary', '')}" for v in found]


def hidden_counters(page) -> list[str]:
    """Counters not wholly on the screen as it opens: past an edge, or under the dock."""
    return page.evaluate("""() => {
      const dock = document.querySelector('.dock').getBoundingClientRect();
      return [...document.querySelectorAll('#board .counter')].filter((c) => {
        const r = c.getBoundingClientRect();
        const under = !(r.right <= dock.left || r.left >= dock.right || r.bottom <= dock.top || r.top >= dock.bottom);
        return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth || under;
      }).map((c) => c.dataset.label);
    }""")


def spend_ammo(server, t) -> None:
    """A Spellchamber round with shots fired, so the spent ammo (small coloured labels) shows."""
    path = f"/api/tables/{t['id']}/actions"
    status, now = server.call("POST", path, {"type": "start_round", "version": t["version"]}, t["token"])
    assert status == 200, now
    for _ in range(4):
        turn = now["state"]["tracker"].get("turn") or {}
        if "player" not in turn:
            break
        shooter = turn["player"]
        status, shot = server.call("POST", path, {"type": "shoot", "shooter": shooter, "target": 1 - shooter,
                                                  "version": now["version"]}, t["token"])
        if status != 200:
            break
        now = shot
    assert now["state"]["tracker"]["chamber"]["spent"], "no ammo was spent"


# Dark changes colours, not layout: it is checked on an upright phone and on a tablet.
SCREENS = [(PHONE, "light"), (PHONE, "dark"), (SIDEWAYS, "light"), (SMALL, "light"), (TABLET, "light"), (TABLET, "dark")]


def test_every_page_on_every_screen(server, chromium):
    """axe-core finds nothing on any page, light (and dark, see SCREENS); every counter of a two-player table is
    on the screen without scrolling (a Spellchamber round under way among them); nothing is
    wider than the screen. Each page is opened once and turned through the screens, as a phone
    turned on its side or a window resized: the page lays itself out again each time."""
    tables = {}
    for game in GAMES:
        _, t = server.call("POST", "/api/tables", {"game": game, "players": ["Ann", "Ben"]})
        tables[game] = t
    spend_ammo(server, tables["spellchamber"])
    pages = ["/", "/new/magicka-mayhem", "/join", "/rules/spellchamber"] + [f"/t/{t['id']}" for t in tables.values()]
    problems = []
    context = screen(chromium, PHONE)
    page = context.new_page()
    seat(page, server, {t["id"]: (t["token"], 0) for t in tables.values()})
    for path in pages:
        if path.startswith("/t/"):
            table(page, server, path[3:])
            expect(page.locator("#tracker")).to_be_visible()
        else:
            page.goto(server.url + path)
            page.wait_for_load_state("load")  # a static page: no 500 ms wait for a quiet network
        for size, scheme in SCREENS:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.emulate_media(color_scheme=scheme)
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            where = f"{size[0]}x{size[1]} {scheme} {path}"
            assert page.evaluate("innerWidth") == size[0] and page.evaluate(
                f"matchMedia('(prefers-color-scheme: {scheme})').matches"), where
            if path.startswith("/t/"):
                hidden = hidden_counters(page)
                if hidden:
                    problems.append(f"{where}: counters off the screen: {hidden}")
            if page.evaluate("document.documentElement.scrollWidth") > size[0]:
                problems.append(f"{where}: wider than the screen")
            problems += [f"{where}: {v}" for v in violations(page)]
    context.close()
    assert not problems, "\n".join(problems)


def test_spent_ammo_and_the_muster_sheet_on_a_phone_on_its_side(server, chromium):
    _, t = server.call("POST", "/api/tables", {"game": "magicka-mayhem", "players": ["Ann", "Ben"]})
    context = screen(chromium, SIDEWAYS)
    page = context.new_page()
    seat(page, server, {t["id"]: (t["token"], 0)})
    table(page, server, t["id"])
    page.locator('[data-act="muster"]').click()
    sheet = page.locator("#ask-sheet")
    expect(sheet).to_be_visible()
    # Who casts, at whom, and the spell list all begin on the screen, above the sheet's buttons.
    buttons = page.locator("#ask-sheet .sheet-actions").bounding_box()
    for label in ("Cast by", "At", "Spell"):
        box = sheet.locator(".field-label", has_text=label).first.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= buttons["y"], label
    assert not violations(page)
    context.close()


def test_names_carry_the_player_and_the_value(server, chromium):
    _, mayhem = server.call("POST", "/api/tables", {"game": "magicka-mayhem", "players": ["Ann", "Ben"]})
    _, chamber = server.call("POST", "/api/tables", {"game": "spellchamber", "players": ["Ann", "Ben"]})
    health = mayhem["state"]["players"][0]["counters"]["health"]
    context = screen(chromium, PHONE)
    page = context.new_page()
    seat(page, server, {mayhem["id"]: (mayhem["token"], 0), chamber["id"]: (chamber["token"], 0)})
    table(page, server, mayhem["id"])
    up = page.get_by_role("button", name=f"Ann, Health {health}, increase by 1, hold for 5")
    expect(up).to_have_count(1)
    up.click()
    expect(page.get_by_role("button", name=f"Ann, Health {health + 1}, decrease by 1, hold for 5")).to_have_count(1)
    expect(page.get_by_role("button", name=f"Ben, Health {health}, type an amount")).to_have_count(1)
    expect(page.get_by_role("button", name="Actions for Ann")).to_have_count(1)
    expect(page.get_by_role("button", name="Actions for Ben")).to_have_count(1)
    for table_id in (mayhem["id"], chamber["id"]):
        table(page, server, table_id)
        names = page.evaluate("""() => [...document.querySelectorAll('#board button, #tracker button')]
          .map((b) => b.getAttribute('aria-label') || b.textContent.trim())""")
        assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    expect(page.get_by_role("button", name="Power up Ann")).to_have_count(1)
    expect(page.get_by_role("button", name="Power up Ben")).to_have_count(1)
    context.close()


def freeze(server, sig) -> None:
    """Stop (or start again) the server and its workers: the connections stay open, and silent."""
    for pid in [server.process.pid, *_children(server.process.pid)]:
        os.kill(pid, sig)


def test_a_silent_server_is_shown_offline_within_5_s_with_what_waits(server, phone):
    _, t = server.call("POST", "/api/tables", {"game": "magicka-mayhem", "players": ["Ann", "Ben"]})
    health = t["state"]["players"][0]["counters"]["health"]
    ann, ben = phone(), phone()
    seat(ann, server, {t["id"]: (t["token"], 0)})
    table(ann, server, t["id"])
    table(ben, server, t["id"])  # watching
    freeze(server, signal.SIGSTOP)
    frozen = time.monotonic()
    try:
        ann.locator('.counter[data-player="0"] .step.up').click()
        ann.locator('.counter[data-player="0"] .step.up').click()
        ann.locator('.counter[data-player="1"] .step.down').click()
        left = 5000 - (time.monotonic() - frozen) * 1000
        expect(ann.locator("#status")).to_have_text("Offline \u2014 3 changes waiting to send", timeout=left)
        expect(ben.locator("#status")).to_have_text("Offline", timeout=max(100, 5000 - (time.monotonic() - frozen) * 1000))
        assert time.monotonic() - frozen <= 5.0
        # The numbers waiting say so, on the screen and in their names.
        expect(ann.locator('.counter[data-player="0"] .wait')).to_have_text("+2 not sent yet")
        expect(ann.locator('.counter[data-player="1"] .wait')).to_have_text("\u22121 not sent yet")
        expect(ann.get_by_role("button", name=f"Ann, Health {health + 2} (+2 not sent yet), type an amount")).to_have_count(1)
        # What needs the server now is refused at once, with the reason.
        asked = time.monotonic()
        ann.locator('[data-act="next-turn"]').click()
        expect(ann.locator("#toast")).to_contain_text("Offline: nothing was done", timeout=1000)
        assert time.monotonic() - asked < 1.0
    finally:
        freeze(server, signal.SIGCONT)
    # Back: the waiting changes go once each (request ids), and every phone is live again.
    expect(ann.locator("#status")).to_have_text("live", timeout=10_000)
    expect(ben.locator("#status")).to_have_text("live", timeout=10_000)
    expect(ben.locator('.counter[data-player="0"] .num')).to_have_text(str(health + 2))
    expect(ben.locator('.counter[data-player="1"] .num')).to_have_text(str(health - 1))
    expect(ann.locator('.counter[data-player="0"] .wait')).to_be_hidden()
    now = server.call("GET", f"/api/tables/{t['id']}")[1]["state"]
    assert [p["counters"]["health"] for p in now["players"]] == [health + 2, health - 1]
    assert not now["tracker"]["turn"], "the refused action was done after all"


def test_a_stopped_server_is_shown_offline_at_once(server, phone):
    _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    ann = phone()
    seat(ann, server, {t["id"]: (t["token"], 0)})
    table(ann, server, t["id"])
    server.stop()
    expect(ann.locator("#status")).to_have_text("Offline", timeout=5000)
    ann.locator('.counter[data-player="0"] .step.down').click()
    expect(ann.locator("#status")).to_have_text("Offline \u2014 1 change waiting to send")


def awake_state(page) -> dict:
    return page.evaluate("""() => { const v = document.querySelector('video.awake-video');
      return { secure: isSecureContext, api: 'wakeLock' in navigator, shown: document.body.dataset.awake,
               video: v ? { playing: !v.paused, time: v.currentTime } : null,
               pressed: document.querySelector('#awake-toggle').getAttribute('aria-pressed') }; }""")


def test_the_screen_stays_awake_over_plain_http_on_a_home_network(server, chromium):
    """Served as http://table.lan (not localhost: no secure context, no Wake Lock API), the
    first tap starts the silent video; switched off, it stops. On http://127.0.0.1 (a secure
    context) the Wake Lock API is there and the page uses it, or the video if it is refused."""
    _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    port = server.url.rsplit(":", 1)[1]
    lan = chromium.browser_type.launch(executable_path=CHROMIUM,
                                       args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP table.lan 127.0.0.1"])
    try:
        page = lan.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True).new_page()
        page.set_default_timeout(10_000)
        page.goto(f"http://table.lan:{port}/")
        page.evaluate("s => localStorage.setItem('spellpress.seats', s)",
                      json.dumps({t["id"]: {"token": t["token"], "player": 0}}))
        page.goto(f"http://table.lan:{port}/t/{t['id']}")
        expect(page.locator("#status")).to_have_text("live")
        before = awake_state(page)
        assert before["secure"] is False and before["api"] is False
        assert before["shown"] == "off" and before["video"] is None and before["pressed"] == "true"
        page.locator('.counter[data-player="0"] .step.up').click()  # the first tap
        expect(page.locator("body")).to_have_attribute("data-awake", "on")
        first = awake_state(page)["video"]
        assert first["playing"]
        # What Chromium asks before a playing video keeps the screen on: most of it in view, and a
        # fifth of the screen or more (video_wake_lock.cc); and it takes no taps.
        box = page.locator("video.awake-video").bounding_box()
        assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= 360 and box["y"] + box["height"] <= 740
        assert box["width"] * box["height"] >= 0.2 * 360 * 740
        page.locator('.counter[data-player="0"] .step.down').click()
        expect(page.locator('.counter[data-player="0"] .num')).to_have_text(str(t["state"]["players"][0]["counters"]["points"]))
        page.wait_for_timeout(1500)
        assert awake_state(page)["video"]["time"] > first["time"]  # it really plays
        page.get_by_role("button", name="Table").click()
        expect(page.locator("#awake")).to_contain_text("silent video")
        assert not violations(page)
        toggle = page.locator("#awake-toggle")
        expect(toggle).to_have_text("Screen on: on")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_have_text("Screen on: off")
        assert awake_state(page)["video"]["playing"] is False
        assert awake_state(page)["shown"] == "off"
    finally:
        lan.close()

    context = screen(chromium, PHONE)
    page = context.new_page()
    seat(page, server, {t["id"]: (t["token"], 0)})
    table(page, server, t["id"])
    page.locator('.counter[data-player="0"] .step.up').click()
    expect(page.locator("body")).to_have_attribute("data-awake", "on")
    local = awake_state(page)
    assert local["secure"] is True and local["api"] is True
    note = page.locator("#awake").text_content()
    assert (local["video"] is None) == ("silent video" not in note), note
    context.close()
