"""Each game's tracker in a real Chromium at 360 x 740, against a real server: one round of each
game played through the phone's own buttons to its end. Every number the test expects is read
from the loaded game, never written here."""

from __future__ import annotations

import re
import time
from collections import Counter

import pytest
from playwright.sync_api import expect


@pytest.fixture
def server(module_server):
    """One server for this file's tests: each plays at tables of its own, and none stops it."""
    return module_server


def seated(page, server, table_id: str, token: str, player: int):
    """A phone that holds a seat at the table (as starting or joining it leaves it), on its page."""
    page.goto(server.url + "/")
    page.evaluate(
        "([id, token, player]) => localStorage.setItem('spellpress.seats', JSON.stringify({[id]: {token, player}}))",
        [table_id, token, player],
    )
    page.goto(f"{server.url}/t/{table_id}")
    expect(page.locator("#status")).to_have_text("live")
    expect(page.locator("#tracker")).to_be_visible()
    return page


def state(server, table_id: str) -> dict:
    return server.call("GET", f"/api/tables/{table_id}")[1]["state"]


def settled_on(server, table_id: str, done, seconds: float = 10.0) -> dict:
    """The table's state once `done(state)` holds: a phone's tap reaches the server after its sheet closes."""
    deadline = time.monotonic() + seconds
    while not done(now := state(server, table_id)):
        assert time.monotonic() < deadline, f"the table never got there: {now['tracker']}"
        time.sleep(0.05)
    return now


def num(page, player: int, counter: str):
    return page.locator(f'.counter[data-player="{player}"][data-counter="{counter}"] .num')


def choose(page, text: str, field: str | None = None):
    """Tap the choice in the open sheet (in one of its fields) whose title begins with `text`."""
    scope = f'#ask-sheet [data-field="{field}"]' if field else "#ask-sheet"
    page.locator(f"{scope} .pick-chip b, {scope} .btn.pick b").filter(has_text=re.compile(f"^{re.escape(text)}")).first.click()


def submit(page):
    page.locator("#ask-sheet [data-submit]").click()
    expect(page.locator("#ask-sheet")).not_to_be_visible()


def fits_the_phone(page):
    """No sideways scroll, and every shown button of the tracker at least 44 px tall, read in one
    look at the page (button by button, a button the page redrew between the list and its box was
    gone: None for a box)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    short = page.evaluate("""[...document.querySelectorAll('#tracker button')]
        .map(b => [b, b.getBoundingClientRect()])
        .filter(([b, r]) => r.width > 0 && r.height > 0 && getComputedStyle(b).visibility !== 'hidden')
        .filter(([b, r]) => r.height < 44).map(([b, r]) => b.innerText)""")  # shown as Playwright's :visible
    assert not short, short


def test_a_round_of_spellchamber_to_its_end(server, phone, games):
    game = games["spellchamber"]
    kinds = list(game.constants.ammo)
    _, t = server.call("POST", "/api/tables", {"game": "spellchamber", "players": ["Ann", "Ben"]})
    _, ben_seat = server.call("POST", "/api/tables/join", {"code": t["code"], "name": "Ben"})
    ann = seated(phone(), server, t["id"], t["token"], 0)
    ben = seated(phone("dark"), server, t["id"], ben_seat["token"], 1)
    scenario = game.card(t["state"]["options"]["scenario"])
    size = sum(scenario[k] for k in kinds)

    ann.locator('[data-act="start-round"]').click()
    expect(ann.locator(".chamber .ammo.face-down")).to_have_count(size)
    expect(ben.locator(".chamber .ammo.face-down")).to_have_count(size)
    expect(ann.locator(".t-title")).to_have_text("Round 1")
    fits_the_phone(ann)

    # The battle player aims while the table moves on: the shot is refused (409), not fired
    # at a table they have not seen, and the phone looks again.
    shooter = state(server, t["id"])["tracker"]["turn"]["player"]
    page = (ann, ben)[shooter]
    page.locator('[data-act="shoot"]').click()
    choose(page, ("Ann", "Ben")[1 - shooter])
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "adjust", "player": shooter, "counter": "life", "delta": 1},
                (t["token"], ben_seat["token"])[1 - shooter])
    submit(page)
    expect(page.locator("#toast")).to_contain_text("changed the table while you were deciding")
    expect(page.locator(".chamber .ammo.shown")).to_have_count(0)
    expect(num(page, shooter, "life")).to_have_text(str(game.constants.starting_life + 1))

    for shot in range(size):
        now = state(server, t["id"])
        shooter = now["tracker"]["turn"]["player"]
        page = (ann, ben)[shooter]  # the gun is passed: each wizard shoots from their own phone
        target = max((0, 1), key=lambda i: now["players"][i]["counters"]["life"])  # nobody falls
        page.locator('[data-act="shoot"]').click()
        choose(page, now["players"][target]["name"])
        submit(page)
        expect(page.locator("#draw")).to_contain_text(f"shot {now['players'][target]['name']}")
        if shot + 1 < size:  # the last shot ends the round, and the chamber is put away
            for each in (ann, ben):
                expect(each.locator(".chamber .ammo.shown")).to_have_count(shot + 1)

    for page in (ann, ben):
        expect(page.locator(".t-line")).to_contain_text("Round 1 is over")
        expect(page.locator('[data-act="start-round"]')).to_have_text("Start round 2")
    end = state(server, t["id"])
    log = server.call("GET", f"/api/tables/{t['id']}/log")[1]["events"]
    shots = [e["data"]["card"] for e in log if e["type"] == "shoot"]
    assert Counter(shots) == Counter({k: scenario[k] for k in kinds if scenario[k]})
    assert not any(p["tracker"]["powered"] for p in end["players"]), "the round's end powers everyone down"
    assert next(e for e in log if e["type"] == "start_round")["data"]["revealed"]["chamber"] == shots


def test_a_spellchamber_spell_drafted_and_played_from_the_phone(server, phone, games):
    """The battle player drafts a spell into their slots and plays it at the other wizard from
    their phone; the table applies the card (Arcane Bolt's drain, once powered up)."""
    game = games["spellchamber"]
    bolt = next(c for c in game.decks[game.constants.spell_deck].cards if c["effect"] == "bolt")
    _, t = server.call("POST", "/api/tables", {"game": "spellchamber", "players": ["Ann", "Ben", "Cy"]})
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "start_round", "version": 1}, t["token"])
    battle = state(server, t["id"])["tracker"]["turn"]["player"]
    _, seat = server.call("POST", "/api/tables/join", {"code": t["code"], "name": ("Ann", "Ben", "Cy")[battle]})
    page = seated(phone(), server, t["id"], seat["token"], battle)
    page.locator('[data-act="draft"]').click()
    page.locator('#ask-sheet [data-field="spell"] select').select_option(label=f"{bolt.name} ({bolt['slots']} slot" +
                                                                          ("" if bolt["slots"] == 1 else "s") + ")")
    submit(page)
    expect(page.locator("body")).to_contain_text(f"Holds: {bolt.name}")
    page.locator(f'[aria-label="Power up {("Ann", "Ben", "Cy")[battle]}"]').click()
    expect(page.locator("body")).to_contain_text("powered up")
    fits_the_phone(page)
    page.locator('[data-act="cast"]').click()
    choose(page, bolt.name)
    other = (battle + 1) % 3
    choose(page, ("Ann", "Ben", "Cy")[other], "target")
    submit(page)
    expect(num(page, other, "life")).to_have_text(str(game.constants.starting_life - bolt["drains"]))
    assert state(server, t["id"])["players"][battle]["tracker"]["held"] == []


def test_a_powered_up_ricochet_is_chosen_on_its_holders_phone_once_the_card_is_turned_up(server, phone, games):
    """Ricochet, powered up: "Wait until the ammo card is turned up, then choose whether it hits
    them or you." The shot waits on every phone; its holder's buttons send it back."""
    game = games["spellchamber"]
    ricochet = next(c for c in game.decks[game.constants.spell_deck].cards if c["effect"] == "ricochet")
    _, t = server.call("POST", "/api/tables", {"game": "spellchamber", "players": ["Ann", "Ben"]})
    _, ben_seat = server.call("POST", "/api/tables/join", {"code": t["code"], "name": "Ben"})
    tokens = (t["token"], ben_seat["token"])

    def act(who, action):
        version = server.call("GET", f"/api/tables/{t['id']}")[1]["version"]
        status, answer = server.call("POST", f"/api/tables/{t['id']}/actions", {**action, "version": version}, tokens[who])
        assert status == 200, answer
        return answer

    act(0, {"type": "start_round"})
    shooter = state(server, t["id"])["tracker"]["turn"]["player"]
    holder = 1 - shooter
    act(shooter, {"type": "pass", "player": shooter})
    act(holder, {"type": "draft", "player": holder, "spell": ricochet.id})
    act(holder, {"type": "power", "player": holder, "up": True})
    act(holder, {"type": "cast", "player": holder, "spell": ricochet.id})
    act(holder, {"type": "pass", "player": holder})
    act(shooter, {"type": "shoot", "shooter": shooter, "target": holder})
    page = seated(phone(), server, t["id"], tokens[holder], holder)
    expect(page.locator("#tracker")).to_contain_text("powered-up Ricochet: whom does it hit?")
    page.locator('[data-act="ricochet-back"]').click()
    names = ("Ann", "Ben")
    expect(page.locator("#draw")).to_contain_text(f"back at {names[shooter]}")
    assert state(server, t["id"])["tracker"]["pending"] is None


def test_the_spell_draft_laid_out_and_picked_on_a_phone_before_the_battle(server, phone):
    """The round's grid typed in as turned face up; the draft's picker picks on the phone, and the
    Shoot button waits until the grid is drafted."""
    _, t = server.call("POST", "/api/tables", {"game": "spellchamber", "players": ["Ann", "Ben"]})
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "start_round", "version": 1}, t["token"])
    page = seated(phone(), server, t["id"], t["token"], 0)
    page.locator('[data-act="lay-out"]').click()
    submit(page)
    now = settled_on(server, t["id"], lambda s: "grid" in s["tracker"]["draft"])
    laid = now["tracker"]["draft"]["grid"]
    assert len(laid) == now["tracker"]["draft"]["spells"] and now["tracker"]["scenario"]["spells_per_player"] * 2 == len(laid)
    expect(page.locator('[data-act="shoot"]')).to_have_count(0)
    fits_the_phone(page)
    for n in range(len(laid)):
        page.locator('[data-act="pick"]').click()
        submit(page)
        expect(page.locator("body")).to_contain_text("Holds:")
        # the draft moves on: one spell held more with each pick
        settled_on(server, t["id"], lambda s, n=n: sum(len(p["tracker"]["held"]) for p in s["players"]) == n + 1)
    expect(page.locator('[data-act="shoot"]')).to_be_visible()
    held = [len(p["tracker"]["held"]) for p in state(server, t["id"])["players"]]
    assert sum(held) == len(laid) and abs(held[0] - held[1]) <= 1, held


def test_a_round_of_magicka_mayhem_from_a_new_table(server, phone, games):
    game = games["magicka-mayhem"]
    c = game.constants
    maximum = next(lv for lv in c.mayhem_levels if lv.method == "always")
    summon = next(card for card in game.cards if card.type == "summon" and card.get("grows") == "attack")
    called = summon.name.removeprefix(c.summon_prefix)
    grown = summon["attack"] + c.extra_element_growth  # one extra element of its kind paid
    ann = phone()
    ann.goto(server.url + "/new/magicka-mayhem")
    ann.get_by_role("radio", name="3", exact=True).check(force=True)
    for i, name in enumerate(["Ann", "Ben", "Cy"]):
        ann.locator(f"#name-{i}").fill(name)
    ann.get_by_role("radio", name=maximum.name).check()
    ann.get_by_role("button", name="Start the table").click()
    expect(ann.locator("#status")).to_have_text("live")
    ann.keyboard.press("Escape")

    ann.locator('[data-act="next-turn"]').click()  # the first turn
    expect(ann.locator(".t-turn")).to_contain_text("Turn 1: Ann")
    ann.locator('.player[data-index="0"] [data-act="wizard"]').click()
    choose(ann, "Summon a creature card")
    shown = ann.locator("#ask-sheet .btn.pick").filter(has_text=re.compile(f"^{re.escape(called)}"))
    expect(shown.locator(".card-text")).to_have_text(" ".join(summon["text"].split()).replace("{fire}", "Fire"))
    choose(ann, called)
    expect(ann.locator("#ask-sheet")).to_contain_text(f"Extra {summon['grows_with']} paid beyond the cost")
    ann.locator("#ask-sheet .step.up").click()
    submit(ann)
    creature = ann.locator('.player[data-index="0"] .unit')
    expect(creature.locator(".unit-name")).to_have_text(called)
    expect(creature).to_contain_text(f"\u2694 {grown} \u00b7 \u2665 {summon['health']}")
    expect(creature).to_contain_text("arrived turn 1")

    ann.locator('[data-act="muster"]').click()
    choose(ann, "Ben", "target")
    submit(ann)
    card = ann.locator(".muster .mayhem-card b")
    expect(card).to_have_count(1)
    assert card.inner_text() in {m.name for m in game.decks["mayhem"].cards}, "Maximum Mayhem always hits"
    expect(ann.locator("#draw")).to_contain_text("Mayhem Muster for Ann's spell at Ben")

    ann.locator('[data-act="next-turn"]').click()
    expect(ann.locator(".t-turn")).to_contain_text("Ben")
    ann.locator('.player[data-index="1"] [data-act="wizard"]').click()
    choose(ann, "Raise a barrier")
    submit(ann)  # the stepper starts at the YAML's shield cost
    expect(ann.locator('.player[data-index="1"] .chip.barrier')).to_have_text(f"barrier {c.barrier.strength}/{c.barrier.strength}")

    ann.locator('[data-act="next-turn"]').click()
    expect(ann.locator(".t-turn")).to_contain_text("Cy")
    ann.locator('.player[data-index="1"] [data-act="wizard"]').click()
    choose(ann, "Damage")
    for _ in range(c.barrier.strength):
        ann.locator('#ask-sheet .step.up').click()
    submit(ann)
    expect(num(ann, 1, "health")).to_have_text(str(c.starting_health - 1))
    expect(ann.locator('.player[data-index="1"] .chip.barrier')).to_have_count(0)

    ann.locator('[data-act="next-turn"]').click()  # the round comes back to Ann: her creature may attack
    expect(ann.locator(".t-turn")).to_contain_text("Turn 4: Ann")
    expect(creature).to_contain_text("ready")
    creature.click()
    choose(ann, "Attack")
    choose(ann, "Cy")
    expect(num(ann, 2, "health")).to_have_text(str(c.starting_health - grown))
    fits_the_phone(ann)


def test_magicka_mayhem_has_one_door_and_hasty_creatures(server, phone, games):
    """A − on a wizard behind a barrier hits the barrier; a + never raises the dead, Bring back
    does, after asking; a creature whose card says so attacks on arrival."""
    game = games["magicka-mayhem"]
    c = game.constants
    _, t = server.call("POST", "/api/tables", {"game": "magicka-mayhem", "players": ["Ann", "Ben", "Cy"]})
    path = f"/api/tables/{t['id']}/actions"
    ann = seated(phone(), server, t["id"], t["token"], 0)
    server.call("POST", path, {"type": "shield", "target": 1, "shields": c.barrier.shield_cost}, t["token"])
    barrier = ann.locator('.player[data-index="1"] .chip.barrier')
    expect(barrier).to_have_text(f"barrier {c.barrier.strength}/{c.barrier.strength}")
    ann.locator('.counter[data-player="1"][data-counter="health"] .step.down').click()
    expect(barrier).to_have_text(f"barrier {c.barrier.strength - 1}/{c.barrier.strength}")
    expect(num(ann, 1, "health")).to_have_text(str(c.starting_health))

    server.call("POST", path, {"type": "damage", "target": 1, "amount": c.starting_health + c.barrier.strength}, t["token"])
    expect(num(ann, 1, "health")).to_have_text("0")
    ann.locator('.counter[data-player="1"][data-counter="health"] .step.up').click()
    expect(ann.locator("#toast")).to_contain_text("Ben is dead, and a + does not bring them back")
    expect(num(ann, 1, "health")).to_have_text("0")
    ann.locator('.player[data-index="1"] [data-act="bring-back"]').click()
    expect(ann.locator("#ask-sheet h2")).to_have_text("Bring Ben back?")
    for _ in range(4):
        ann.locator("#ask-sheet .step.up").click()
    submit(ann)
    expect(num(ann, 1, "health")).to_have_text("5")
    expect(ann.locator("#undo-what")).to_contain_text("Ann brought Ben back (Ben was dead)")
    expect(ann.locator('[data-act="bring-back"]')).to_have_count(0)

    hasty = next(card for card in game.cards if card.type == "summon" and card.get("haste"))
    called = hasty.name.removeprefix(c.summon_prefix)
    ann.locator('[data-act="next-turn"]').click()
    expect(ann.locator(".t-turn")).to_contain_text("Turn 1: Ann")
    ann.locator('.player[data-index="0"] [data-act="wizard"]').click()
    choose(ann, "Summon a creature card")
    choose(ann, called)
    creature = ann.locator('.player[data-index="0"] .unit')
    expect(creature).to_contain_text("ready")
    creature.click()
    choose(ann, "Attack")
    choose(ann, "Cy")
    expect(num(ann, 2, "health")).to_have_text(str(c.starting_health - hasty["attack"]))
    fits_the_phone(ann)


def test_a_round_of_sorcerer_duel(server, phone, games):
    game = games["sorcerer-duel"]
    c = game.constants
    _, t = server.call("POST", "/api/tables", {"game": "sorcerer-duel", "players": ["Ann", "Ben"]})
    ann = seated(phone(), server, t["id"], t["token"], 0)
    deck = t["state"]["players"][0]["options"]["deck"]
    creature = min((card for card in game.decks[deck].cards if card.type == "creature"), key=lambda card: card["cost"])
    ben_deck = t["state"]["players"][1]["options"]["deck"]
    spell = min((card for card in game.decks[ben_deck].cards if card.type == "attack-spell" and card["target"] == "one"),
                key=lambda card: card["cost"])
    assert spell["cost"] <= c.mana_per_turn + c.max_conversions * c.mana_per_conversion

    for i in (0, 1):  # mana comes with a turn: nobody has any before the first
        expect(num(ann, i, "mana")).to_have_text("0")
    ann.get_by_role("button", name="Ann starts").click()
    expect(ann.locator(".t-title")).to_have_text("Turn 1: Ann")
    if c.first_player_skips_draw:
        expect(ann.locator(".t-sub")).to_have_text("goes first: no draw this turn")
    expect(num(ann, 0, "mana")).to_have_text(str(c.mana_per_turn))
    ann.locator('[data-act="convert"]').click()
    mana = c.mana_per_turn + c.mana_per_conversion
    expect(num(ann, 0, "mana")).to_have_text(str(mana))
    ann.locator('[data-act="summon"]').click()
    expect(ann.locator("#ask-sheet .check")).to_have_count(0)  # no checkbox asks what the card says
    for card in (card for card in game.decks[deck].cards if card.type == "creature" and card.get("text")):
        listed = ann.locator("#ask-sheet .pick-chip").filter(has_text=re.compile(f"^{re.escape(card.name)}"))
        expect(listed.locator(".card-text")).to_contain_text(card["text"])
    choose(ann, creature.name)
    submit(ann)
    expect(num(ann, 0, "mana")).to_have_text(str(mana - creature["cost"]))
    unit = ann.locator('.player[data-index="0"] .unit')
    expect(unit).to_contain_text("arrived turn 1")

    ann.locator('[data-act="next-turn"]').click()
    expect(ann.locator(".t-title")).to_have_text("Turn 2: Ben")
    expect(num(ann, 0, "mana")).to_have_text("0")
    expect(num(ann, 1, "mana")).to_have_text(str(c.mana_per_turn))
    expect(ann.locator(".t-sub")).to_contain_text(f"draw {c.draws_per_turn} card")
    for _ in range(max(0, spell["cost"] - c.mana_per_turn)):
        ann.locator('[data-act="convert"]').click()
    ann.locator('[data-act="cast"]').click()
    choose(ann, spell.name)
    choose(ann, "Ann")
    expect(num(ann, 0, "health")).to_have_text(str(c.starting_health - spell["damage"]))
    wall = min((card for card in game.decks[ben_deck].cards if card.type == "blocker"), key=lambda card: card["health"])
    server.call("POST", f"/api/tables/{t['id']}/actions",
                {"type": "summon", "player": 1, "kind": "blocker", "name": wall.name, "health": wall["health"]}, t["token"])
    expect(ann.locator('.player[data-index="1"] .unit')).to_contain_text(wall.name)

    ann.locator('[data-act="next-turn"]').click()
    expect(ann.locator(".t-title")).to_have_text("Turn 3: Ann")
    expect(num(ann, 0, "mana")).to_have_text(str(c.mana_per_turn))
    unit.click()
    choose(ann, "Attack")
    expect(ann.locator("#ask-sheet .pick-chip, #ask-sheet .btn.pick").filter(has_text=wall.name)).to_have_count(0)
    choose(ann, "Ben")
    expect(num(ann, 1, "health")).to_have_text(str(c.starting_health - max(0, creature["attack"] - wall["health"])))
    fits_the_phone(ann)


def test_a_round_of_powermage_54_and_the_empty_deck(server, phone, games):
    game = games["powermage-54"]
    c = game.constants
    attack = max((card for card in game.cards if card.type == "attack"), key=lambda card: card["value"])
    thump = min((card for card in game.cards if card.type == "thump"), key=lambda card: card["multiplier"])
    health = min((card for card in game.cards if card.type == "health"), key=lambda card: card["value"])
    mage = next(card for card in game.cards if card.type == "powermage")
    _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben", "Cy"]})
    ann = seated(phone("dark"), server, t["id"], t["token"], 0)

    ann.locator('[data-act="attack"]').click()
    choose(ann, "Ben", "target")
    choose(ann, attack.name, "attack")
    choose(ann, thump.name, "thump")
    submit(ann)  # a thump with no PowerMage shown is refused, as the rule helper refuses it
    expect(ann.locator("#toast")).to_contain_text("needs a PowerMage shown first")
    expect(num(ann, 1, "points")).to_have_text(str(c.starting_points))
    ann.locator('[data-act="attack"]').click()
    choose(ann, "Ben", "target")
    choose(ann, attack.name, "attack")
    choose(ann, thump.name, "thump")
    choose(ann, mage.name, "powermage")
    submit(ann)
    ben = max(0, c.starting_points - attack["value"] * thump["multiplier"])
    expect(num(ann, 1, "points")).to_have_text(str(ben))

    ann.locator('[data-act="heal"]').click()  # the attack was Ann's action play: it is Ben's turn now
    choose(ann, "Cy", "player")
    choose(ann, health.name, "health")
    submit(ann)
    expect(ann.locator("#toast")).to_contain_text("it is Ben's turn")
    expect(num(ann, 2, "points")).to_have_text(str(c.starting_points))
    ann.locator('[data-act="heal"]').click()
    choose(ann, "Ben", "player")
    choose(ann, health.name, "health")
    submit(ann)
    ben += health["value"]
    expect(num(ann, 1, "points")).to_have_text(str(ben))
    expect(ann.locator(".t-title")).to_have_text("Turn 3: Cy")
    ann.locator('[data-act="end-turn"]').click()  # Cy has no action play
    submit(ann)
    expect(ann.locator(".t-title")).to_have_text("Turn 4: Ann")

    ann.locator('[data-act="halve"]').click()
    submit(ann)
    for i, points in enumerate((c.starting_points, ben, c.starting_points)):
        expect(num(ann, i, "points")).to_have_text(str(points // c.empty_deck_divisor))
    expect(ann.locator("#undo-what")).to_contain_text("The draw deck ran out")
    fits_the_phone(ann)


def test_a_level_of_powers_combined(server, phone, games):
    game = games["powers-combined"]
    c = game.constants
    first = c.levels[0]
    _, t = server.call("POST", "/api/tables", {"game": "powers-combined", "players": ["Ann", "Ben"]})
    ann = seated(phone(), server, t["id"], t["token"], 0)
    expect(ann.locator(".t-sub")).to_contain_text(f"Level 1: {first.name}")
    expect(ann.locator("#tracker")).to_contain_text(f"submits {c.cards_submitted_two_players} cards")

    card = max(game.decks["challenges"].cards, key=lambda card: card["runes"])
    ann.locator('[data-act="face"]').click()
    choose(ann, card.name)
    expect(ann.locator(".challenge-card")).to_contain_text(f"power {card['power']}")
    ann.locator('[data-act="beaten"]').click()
    submit(ann)
    runes = min(card["runes"], c.rune_tokens)
    expect(ann.locator('.counter[data-counter="runes"] .num')).to_have_text(str(runes))

    if runes:
        ann.locator('[data-act="spend-rune"]').click()
        expect(ann.locator(".t-line")).to_contain_text("Runes spent: 1 of")
    ann.locator('[data-act="failed"]').click()
    submit(ann)
    expect(ann.locator('.counter[data-counter="lives"] .num')).to_have_text(str(c.lives - 1))
    expect(ann.locator(".t-title")).to_have_text(f"Challenge 2 of {c.challenges_per_game}")

    for number in range(2, first.last + 1):  # the rest of the first level, each beaten for no rune
        ann.locator('[data-act="beaten"]').click()
        ann.locator("#ask-sheet .step.down").click()
        submit(ann)
        expect(ann.locator(".t-title")).to_have_text(f"Challenge {number + 1} of {c.challenges_per_game}")
    second = c.levels[1]
    expect(ann.locator(".t-sub")).to_contain_text(f"Level 2: {second.name} \u00b7 add {second.modifiers} modifier")
    fits_the_phone(ann)


def test_a_magicka_spell_card_and_a_snap_spell_cast_from_a_phone(server, phone, games):
    """The phone casts a spell card spell whole (the server musters it and applies its card) and a
    snap spell, on the caster's turn; the log says what each did."""
    game = games["magicka-mayhem"]
    minimum = next(lv for lv in game.constants.mayhem_levels if lv.method == "die")
    _, t = server.call("POST", "/api/tables", {"game": "magicka-mayhem", "players": ["Ann", "Ben"], "options": {"mayhem": minimum.id}})
    ann = seated(phone(), server, t["id"], t["token"], 0)
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "start_turn", "player": 0}, t["token"])
    expect(ann.locator(".t-turn")).to_contain_text("Turn 1: Ann")
    ann.locator('.player[data-index="0"] [data-act="wizard"]').click()
    choose(ann, "Cast a spell card")
    choose(ann, game.card("fury-of-the-wizard").name)
    choose(ann, "Ben")
    cast = _logged(ann, server, t["id"], "cast")
    assert cast["data"]["spell"] == "fury-of-the-wizard" and cast["data"]["target"] == 1
    ann.locator('.player[data-index="0"] [data-act="wizard"]').click()
    choose(ann, "Cast a snap spell")
    choose(ann, game.card("baby-boulder").name)
    choose(ann, "Ben")
    snap = _logged(ann, server, t["id"], "snap")
    assert snap["data"]["snap"] == "baby-boulder" and snap["data"]["target"] == 1
    fits_the_phone(ann)


def _logged(page, server, table_id, kind):
    """The table's first event of `kind`, once the phone's tap has reached the server."""
    for _ in range(50):
        found = [e for e in server.call("GET", f"/api/tables/{table_id}/log")[1]["events"] if e["type"] == kind]
        if found:
            return found[0]
        page.wait_for_timeout(100)
    raise AssertionError(f"no {kind} reached the table")
