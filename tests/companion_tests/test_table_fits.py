"""Every table fits its phones, and its end is unmistakable (issue 29, build items 1 and 2), read
from the pages' geometry in a real Chromium against a real server.

For each game, at each player count its YAML allows from 2 to 6, on an upright phone (360 x 740),
a phone on its side (740 x 360) and a tablet (820 x 1180), with a game under way (turns taken,
chips on the cards, a creature, the latest draw in its banner, the longest names a phone takes):
every counter's number and its − and + are on the screen without scrolling and under nothing; the
game's turn controls are on the screen, pinned, in the lower half where a thumb reaches; no word
is broken inside, no text is cut without an ellipsis, a name cut with one is a button (the whole
name a tap away); every chip, creature and button of a player's card stays inside the card.
One browser page and one server serve every case: the viewport changes, as a phone turns.

Then the end: in each game a finished game names the winner (the party's win or loss) at the top
of every phone in the server's own words, with "New game, same players" beside it, which starts
the next game with the same seats; a draw's banner fades once the next move is made.

Screenshots of what was checked go to $SPELLPRESS_SCREENS when it is set (none are taken otherwise).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_live_screens import violations

from conftest import PHONE

SIZES = [(360, 740), (740, 360), (820, 1180)]
# The longest names a phone takes (24 characters), one long word and a double-barrelled one among them.
NAMES = ["Bartholomew Featherstone", "Oyelaran-Smith", "Featherstonehaugh", "Maximiliana Okonkwo", "Wen", "Ann"]
# Each game's turn controls, by their buttons' data-act, once a game is under way as `busy` leaves it.
TURN = {
    "magicka-mayhem": ["next-turn", "muster"],
    "spellchamber": ["cast"],  # and the battle player's shot, or a ghost's end of its turn: `turn_controls`
    "powermage-54": ["attack", "heal", "play", "end-turn"],
    "powers-combined": ["beaten", "failed"],
    "sorcerer-duel": ["next-turn", "end-turn"],
}
SCREENS = os.environ.get("SPELLPRESS_SCREENS")


@pytest.fixture
def server(module_server):
    """One server for this file's tests: each plays at tables of its own, and none stops it."""
    return module_server


@pytest.fixture(scope="module")
def page(chromium):
    """One phone for the whole file: its viewport is set for each case."""
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


class Play:
    """A table driven through the API by its creator's seat, each action at the table's version."""

    def __init__(self, server, game: str, players: list[str], options: dict | None = None):
        self.server = server
        status, t = server.call("POST", "/api/tables", {"game": game, "players": players, "options": options or {}})
        assert status == 201, t
        self.id, self.token, self.state, self.version = t["id"], t["token"], t["state"], t["version"]

    def __call__(self, action: dict) -> dict:
        status, answer = self.server.call("POST", f"/api/tables/{self.id}/actions", {**action, "version": self.version}, self.token)
        assert status == 200, (action, answer)
        self.state, self.version = answer["state"], answer["version"]
        return answer


def busy(server, game: str, n: int) -> Play:
    """A table of `game` for `n` players with a game under way, as full as a real one gets: turns
    taken, chips on the cards (a ghost's among them), a creature, and the latest draw in its banner."""
    options = {"turns": "on"} if game == "powermage-54" else {}
    t = Play(server, game, NAMES[:n], options)
    rules = t.state["rules"]
    if game == "magicka-mayhem":
        t({"type": "start_turn", "player": 0})
        summons = [s for s in rules["spells"] if s["summon"]]
        longest = max(summons, key=lambda s: len(s.get("creature", s["name"])))
        t({"type": "summon", "owner": 0, "card": longest["id"], **({"extra": 0} if longest.get("grows") else {})})
        t({"type": "wet", "target": 1, "on": True})
        t({"type": "shield", "target": 1, "shields": rules["barrier"]["shield_cost"]})
        if n > 2:
            t({"type": "freeze", "target": 2, "on": True})
        t({"type": "muster", "caster": 0, "target": 1, "draw": True})
    elif game == "spellchamber":
        t({"type": "start_round"})
        shooter = t.state["tracker"]["turn"]["player"]
        if n >= rules["ghosts_from"]:  # a wizard other than the battle player falls, and is a ghost
            ghost = 1 if shooter != 1 else 2
            t({"type": "adjust", "player": ghost, "counter": "life", "delta": -t.state["players"][ghost]["counters"]["life"]})
        t({"type": "power", "player": shooter, "up": True})
        target = next(i for i, p in enumerate(t.state["players"]) if i != shooter and p["tracker"]["alive"])
        t({"type": "shoot", "shooter": shooter, "target": target})
    elif game == "powermage-54":
        if n > 2:  # one defeated, the game goes on
            t({"type": "adjust", "player": n - 1, "counter": "points", "delta": -t.state["players"][n - 1]["counters"]["points"]})
        first_is_me(t)
    elif game == "powers-combined":
        t({"type": "face", "card": rules["challenges"][0]["id"], "modifiers": []})
        t({"type": "coin"})
    elif game == "sorcerer-duel":
        t({"type": "start_turn", "player": 0})
        first_is_me(t)
    return t


def first_is_me(t: Play) -> None:
    """Who goes first is drawn until it is this phone's seat: both its badges beside the longest name."""
    for _ in range(60):
        if t({"type": "first"})["state"]["first_player"] == 0:
            return
    pytest.fail("sixty draws of who goes first, and never the first seat")


def seat(page, server, t: Play, player: int = 0):
    """This phone holds the seat `player` (by the table creator's token, which acts for any seat),
    and opens the table."""
    if not page.url.startswith(server.url):
        page.goto(server.url + "/")
    page.evaluate("([id, token, player]) => { const seats = JSON.parse(localStorage.getItem('spellpress.seats') || '{}');"
                  " seats[id] = {token, player}; localStorage.setItem('spellpress.seats', JSON.stringify(seats)); }",
                  [t.id, t.token, player])
    page.goto(f"{server.url}/t/{t.id}")
    expect(page.locator("#status")).to_have_text("live")
    expect(page.locator("#tracker")).to_be_visible()


def settle(page):
    """Two frames: the page has laid itself out again for the new viewport."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def shot(page, name: str):
    if SCREENS:
        Path(SCREENS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENS) / f"{name}.png"))


# What is wrong with the page as it stands, in words: run in the page, for the turn controls named.
PROBLEMS = """(turn) => {
  const W = innerWidth, H = innerHeight, problems = [];
  const say = (text) => problems.push(text);
  const box = (r) => `${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)}`;
  const rendered = (el) => el.getClientRects().length > 0;

  // on the screen, and the thing a tap there reaches (nothing fixed lies over it)
  function inView(el, what) {
    const r = el.getBoundingClientRect();
    if (!rendered(el) || r.width < 1 || r.height < 1) return say(`${what}: not shown`);
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > H + 0.5 || r.right > W + 0.5) return say(`${what}: off the screen at ${box(r)}`);
    for (const [fx, fy] of [[0.5, 0.5], [0.3, 0.3], [0.7, 0.7], [0.3, 0.7], [0.7, 0.3]]) {
      const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
      if (!hit || !(hit === el || el.contains(hit))) {
        return say(`${what}: under ${hit ? (hit.id ? '#' + hit.id : hit.tagName.toLowerCase() + '.' + hit.className) : 'nothing'}`);
      }
    }
  }

  if (scrollY !== 0) say(`the page opened scrolled (${scrollY})`);
  if (document.documentElement.scrollWidth > W) say(`the page is wider than the screen (${document.documentElement.scrollWidth})`);

  // every counter: its number and its two buttons, each clear of the others, the number within its place
  const meets = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  for (const c of document.querySelectorAll('#board .counter')) {
    const who = c.dataset.label;
    const [num, value, down, up] = ['.value .num', '.value', '.step.down', '.step.up'].map((s) => c.querySelector(s));
    inView(num, `${who}: the number`);
    inView(down, `${who}: −`);
    inView(up, `${who}: +`);
    const [n, v, d, u] = [num, value, down, up].map((el) => el.getBoundingClientRect());
    if (n.left < v.left - 0.5 || n.right > v.right + 0.5) say(`${who}: the number is wider than its place (${box(n)} in ${box(v)})`);
    if (meets(v, d) || meets(v, u) || meets(d, u)) say(`${who}: the number and its − and + overlap`);
  }

  // every control on the board and among the turn's: at least 44 px each way
  for (const b of document.querySelectorAll('#board button, #turn button, #end button')) {
    const r = b.getBoundingClientRect();
    if (rendered(b) && (r.width < 44 || r.height < 44)) {
      say(`a control under 44 px: "${b.textContent.trim().slice(0, 30)}" ${Math.round(r.width)} x ${Math.round(r.height)}`);
    }
  }

  // the turn controls: there, on the screen, pinned, in the lower half, big enough
  for (const act of turn) {
    const buttons = [...document.querySelectorAll(`[data-act="${act}"]`)].filter(rendered);
    if (!buttons.length) { say(`turn control ${act}: missing`); continue; }
    for (const b of buttons) {
      inView(b, `turn control ${act}`);
      const r = b.getBoundingClientRect();
      if (r.top < H / 2) say(`turn control ${act}: in the upper half (top ${Math.round(r.top)})`);
      if (r.height < 44 || r.width < 44) say(`turn control ${act}: ${Math.round(r.width)} x ${Math.round(r.height)} px`);
      let pinned = false;
      for (let el = b; el; el = el.parentElement) if (['fixed', 'sticky'].includes(getComputedStyle(el).position)) pinned = true;
      if (!pinned) say(`turn control ${act}: not pinned (it scrolls away)`);
    }
  }

  // words never broken inside (a break after a hyphen or a dash is a line's to make)
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const lines = (start, end, node) => {
    range.setStart(node, start); range.setEnd(node, end);
    const tops = [];
    for (const r of range.getClientRects()) {
      if (r.width < 0.5) continue;
      if (!tops.some((t) => Math.abs(t - r.top) < Math.max(2, r.height / 2))) tops.push(r.top);
    }
    return tops;
  };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('script, style, option, select') || !rendered(el)) continue;
    for (const m of node.data.matchAll(/\\S+/g)) {
      if (lines(m.index, m.index + m[0].length, node).length < 2) continue;
      let bad = false;
      for (let i = 1; i < m[0].length; i++) {
        const a = lines(m.index + i - 1, m.index + i, node), b = lines(m.index + i, m.index + i + 1, node);
        if (a.length && b.length && Math.abs(a[0] - b[0]) > 2 && !/[-\u2010-\u2014\\/]/.test(m[0][i - 1])) bad = true;
      }
      if (bad) say(`a word broken inside: "${m[0]}" in ${el.tagName.toLowerCase()}.${el.className}`);
    }
  }

  // text wider than its box: cut only with an ellipsis, and a name so cut is a button (a tap shows it whole)
  for (const el of document.querySelectorAll('body *')) {
    if (!rendered(el) || el.closest('dialog:not([open])')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.display === 'contents') continue;
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
    if (!text || el.scrollWidth <= el.clientWidth + 1) continue;
    const what = `"${el.textContent.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}.${el.className})`;
    if (style.overflowX === 'visible') say(`text spills out of its box: ${what}`);
    else if (style.textOverflow !== 'ellipsis' && style.webkitLineClamp === 'none') say(`text cut without an ellipsis: ${what}`);
    else if (el.closest('.player-name') && !el.closest('button')) say(`a name cut with no tap to show it whole: ${what}`);
  }

  // a player's card holds its chips, creatures and buttons
  for (const card of document.querySelectorAll('#board .player')) {
    const c = card.getBoundingClientRect();
    for (const el of card.querySelectorAll('.chip, .unit, button, .badge')) {
      if (!rendered(el)) continue;
      const r = el.getBoundingClientRect();
      let clip = null;  // a scrolling part of the card: below its fold is still inside the card
      for (let up = el.parentElement; up && up !== card; up = up.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowY)) clip = up;
      }
      const outside = r.left < c.left - 0.5 || r.right > c.right + 0.5 || (!clip && (r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5));
      const whose = card.querySelector('.name').textContent.trim();
      if (outside) say(`"${el.textContent.trim().slice(0, 30)}" (${el.className}) outside ${whose}'s card: ${box(r)} in ${box(c)}`);
    }
  }
  return problems;
}"""


def turn_controls(slug: str, t: Play) -> list[str]:
    """The turn controls a table shows as `busy` left it."""
    if slug != "spellchamber":
        return TURN[slug]
    battle = t.state["tracker"]["turn"]["player"]
    return [*TURN[slug], "pass" if t.state["players"][battle]["tracker"]["ghost"] else "shoot"]


def counts(game) -> range:
    return range(max(2, game.players.min), min(6, game.players.max) + 1)


def test_every_table_fits_its_phones(server, page, games):
    """Each game at each player count it allows (2 to 6) at three sizes: every number with its
    − and +, the turn controls, whole words, chips inside their cards."""
    problems = []
    for slug in TURN:
        for n in counts(games[slug]):
            t = busy(server, slug, n)
            turn = turn_controls(slug, t)
            page.set_viewport_size({"width": 360, "height": 740})
            seat(page, server, t)
            for w, h in SIZES:
                page.set_viewport_size({"width": w, "height": h})
                page.evaluate("scrollTo(0, 0)")
                settle(page)
                found = page.evaluate(PROBLEMS, turn)
                problems += [f"{slug}, {n} players, {w}x{h}: {p}" for p in found]
                shot(page, f"{slug}-{n}-{w}x{h}")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_a_long_name_is_a_tap_away_whole(server, page):
    """Six at a table on an upright phone: a name too long for its card ends in an ellipsis, and a
    tap on it shows the whole name."""
    t = busy(server, "magicka-mayhem", 6)
    page.set_viewport_size({"width": 360, "height": 740})
    seat(page, server, t)
    name = page.locator('.player[data-index="0"] .player-name .name')
    assert name.evaluate("n => n.scrollWidth > n.clientWidth"), "the longest name fits: no ellipsis to test"
    assert name.evaluate("n => getComputedStyle(n).textOverflow") == "ellipsis"
    name.click()
    whole = page.get_by_role("dialog").filter(has_text=NAMES[0])
    expect(whole).to_be_visible()
    heading = whole.get_by_role("heading", name=NAMES[0])
    expect(heading).to_be_visible()
    assert heading.evaluate("h => h.scrollWidth <= h.clientWidth"), "the whole name shows whole"
    shot(page, "whole-name")
    page.keyboard.press("Escape")
    expect(whole).to_be_hidden()


# ---------------------------------------------------------------------------- the end


def finish(server, slug: str, n: int, party_wins: bool = False) -> tuple[Play, int | None]:
    """A table of `slug` for `n` players whose game is over: (it, the winner's seat or None)."""
    t = Play(server, slug, NAMES[:n])
    if slug == "powers-combined":
        rules = t.state["rules"]
        if party_wins:
            t({"type": "go_to", "to": rules["last"]})
            t({"type": "resolve", "result": "won", "runes": 1})
        else:
            t({"type": "adjust", "counter": "lives", "delta": -t.state["counters"]["lives"]})
        return t, None
    life = t.state["life"]
    winner = n - 1  # everyone else falls, the last seat last
    for i in range(n - 1):
        t({"type": "adjust", "player": i, "counter": life, "delta": -t.state["players"][i]["counters"][life]})
    return t, winner


ENDS = [("magicka-mayhem", False), ("spellchamber", False), ("powermage-54", False), ("sorcerer-duel", False),
        ("powers-combined", False), ("powers-combined", True)]


@pytest.mark.parametrize(("slug", "party_wins"), ENDS, ids=[f"{s}{'-won' if w else ''}" for s, w in ENDS])
def test_the_end_is_at_the_top_with_a_new_game_beside_it(server, page, games, slug, party_wins):
    """The winner (or the party's win or loss) at the top of the phone, in the rules core's words,
    with "New game, same players" beside it; the new game has the same seats, and no end."""
    n = min(6, games[slug].players.max)
    t, winner = finish(server, slug, n, party_wins)
    end = t.state.get("end")
    assert end, "the core says the game is over"
    assert end["winner"] == winner, end
    if slug == "powers-combined":
        assert end["won"] is party_wins
    else:
        assert end["won"] and NAMES[winner] in end["text"]
    page.set_viewport_size({"width": 360, "height": 740})
    seat(page, server, t, player=1)
    bar = page.locator("#end")
    expect(bar).to_be_visible()
    expect(bar.locator(".end-text")).to_have_text(end["text"])
    new = bar.get_by_role("button", name="New game, same players")
    expect(new).to_be_visible()
    top = bar.bounding_box()
    board = page.locator("#board").bounding_box()
    assert top["y"] >= 0 and top["y"] + top["height"] <= board["y"] + 1, "above every player's card"
    assert top["y"] < 160, f"at the top of the screen, not at y = {top['y']}"
    button = new.bounding_box()
    assert button["height"] >= 44 and button["y"] + button["height"] <= 740
    assert abs((button["y"] + button["height"] / 2) - (top["y"] + top["height"] / 2)) < top["height"] / 2, "beside it"
    assert not page.evaluate(PROBLEMS, []), "the finished table fits too"
    for scheme in ("light", "dark"):  # axe-core finds nothing, the end's colours among it
        page.emulate_media(color_scheme=scheme)
        assert not violations(page), scheme
        shot(page, f"end-{slug}{'-won' if party_wins else ''}-{scheme}")
    page.emulate_media(color_scheme="light")

    page.once("dialog", lambda dialog: dialog.accept())
    new.click()
    expect(bar).to_be_hidden()
    status, now = server.call("GET", f"/api/tables/{t.id}")
    assert now["state"]["games"] == 2 and [p["name"] for p in now["state"]["players"]] == NAMES[:n]
    assert "end" not in now["state"] and not now["state"]["tracker"]["over"]


def test_a_draws_banner_fades_once_the_next_move_is_made(server, page):
    """"Ann drew who goes first" shows on every phone until the next move; then it fades, and a
    page opened later does not show it either. A new draw shows again."""
    t = Play(server, "sorcerer-duel", ["Ann", "Ben"])
    page.set_viewport_size({"width": 360, "height": 740})
    seat(page, server, t)
    draw = page.locator("#draw")
    expect(draw).to_be_hidden()
    t({"type": "first"})
    expect(draw).to_contain_text("drew who goes first")
    expect(draw).to_be_visible()
    t({"type": "start_turn", "player": t.state["first_player"]})
    expect(draw).to_be_hidden()
    page.reload()
    expect(page.locator("#status")).to_have_text("live")
    expect(draw).to_be_hidden()
    t({"type": "coin"})
    expect(draw).to_contain_text("flipped a coin")
    expect(draw).to_be_visible()
    page.locator('.counter[data-player="0"][data-counter="health"] .step.down').click()
    expect(draw).to_be_hidden()
    assert "flipped a coin" in server.call("GET", f"/api/tables/{t.id}")[1]["state"]["last_draw"]["text"], "the table keeps it"
