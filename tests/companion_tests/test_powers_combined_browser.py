"""Powers Combined's spells on a phone in a real Chromium at 360 x 740: the challenge named, a spell
cast from its three cards, a rune flipping a Double Up! that lets a second spell be cast ("you get
to cast a second spell and add it's total power to your first spell's total power"), and the
turn ended by the sum the table worked out. Every number is read from the loaded game."""

from __future__ import annotations

from playwright.sync_api import expect
from test_tracker_browser import fits_the_phone, seated, submit


def spell(game, taken, **want):
    """A spell card carrying every field of `want`, not among `taken` (which it joins)."""
    card = next(card for card in game.cards if card.type == "spell" and card.id not in taken
                and all(card.get(k) == v for k, v in want.items()))
    taken.add(card.id)
    return card


def modifier_of(c, op, amount=None):
    return next(m.name for m in c.modifiers if m.op == op and (amount is None or m.amount == amount))


def cast(page, element, power, modifier):
    page.locator('[data-act="cast"]').click()
    page.select_option("#ask-element", label=f"{element.name}: {element['element']}")
    page.select_option("#ask-power", label=f"{power.name}: power {power['power']}")
    page.select_option("#ask-modifier", label=f"{modifier.name}: {modifier['modifier']}")
    submit(page)


def test_a_runes_double_up_casts_a_second_spell_on_the_phone(module_server, phone, games):
    game = games["powers-combined"]
    c = game.constants
    foe = next(card for card in game.cards if card.type == "challenge" and card["level"] == 1)
    m = c.matchups[foe["element"]]
    element = next(e for e in c.matchups if e not in m.weak_to and e not in m.resists)
    taken: set[str] = set()
    first = (spell(game, taken, element=element), spell(game, taken, power=5), spell(game, taken, modifier=modifier_of(c, "add", 1)))
    double = spell(game, taken, modifier=modifier_of(c, "double_up"))
    second = (spell(game, taken, element=element), spell(game, taken, power=4), spell(game, taken, modifier=modifier_of(c, "add", 2)))
    _, t = module_server.call("POST", "/api/tables", {"game": "powers-combined", "players": ["Ann", "Ben"]})
    module_server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "adjust", "counter": "runes", "delta": 1}, t["token"])
    ann = seated(phone(), module_server, t["id"], t["token"], 0)

    ann.locator('[data-act="face"]').click()
    ann.locator("#ask-sheet .btn.pick b").filter(has_text=foe.name).first.click()
    expect(ann.locator('[data-show="target"]')).to_contain_text(f"To beat: {foe['power']}")
    cast(ann, *first)
    expect(ann.locator('[data-show="total"]')).to_have_text(f"Total {5 + 1} against {foe['power']}")
    expect(ann.locator('[data-act="cast"]')).to_have_count(0)

    ann.locator('[data-act="spend-rune"]').click()
    ann.select_option("#ask-card", label=f"{double.name}: {double['modifier']}")
    submit(ann)
    expect(ann.locator('[data-show="total"]')).to_contain_text("Double Up!: the party may cast one more spell")
    cast(ann, *second)
    total = 5 + 1 + 4 + 2
    expect(ann.locator('[data-show="spell"]')).to_have_count(2)
    expect(ann.locator('[data-show="total"]')).to_have_text(f"Total {total} against {foe['power']}")
    fits_the_phone(ann)

    ann.locator('[data-act="resolve"]').click()
    beaten = total >= foe["power"]
    expect(ann.locator(".t-title")).to_have_text(f"Challenge {2 if beaten else 1} of {c.challenges_per_game}")
    expect(ann.locator('[data-show="spell"]')).to_have_count(0)
