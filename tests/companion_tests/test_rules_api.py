"""/api/rules: every game's rule helpers over HTTP, and every kind of bad input refused with 400.

The hostile requests are made from each helper's own field descriptions, so a helper added
later is held to the same standard without a line here.
"""

from __future__ import annotations

import pytest

from spellpress.core.games import ruleset_of
from spellpress.core.play.helper import MAX_ITEMS


def starting_inputs(helper: dict) -> dict:
    """What the calculator sends before anyone touches it."""
    body = {}
    for field in helper["fields"]:
        if field["kind"] == "choice" and field["required"] and field["default"] is None:
            body[field["name"]] = field["options"][0]["value"]
    return body


def all_helpers(client, games) -> list[tuple[str, dict]]:
    found = []
    for slug in games:
        response = client.get(f"/api/rules/{slug}")
        assert response.status_code == 200
        assert response.json["game"] == slug
        found += [(slug, helper) for helper in response.json["helpers"]]
    return found


def test_every_game_lists_its_helpers_with_their_inputs(client, games):
    for slug, game in games.items():
        listed = client.get(f"/api/rules/{slug}").json["helpers"]
        assert [h["id"] for h in listed] == list(ruleset_of(game).helpers)
        for helper in listed:
            assert helper["title"] and helper["question"].endswith("?")
            for field in helper["fields"]:
                assert field["kind"] in ("choice", "many", "number", "flag")
                if field["kind"] in ("choice", "many"):
                    assert field["options"], field


def test_every_helper_answers_its_starting_inputs(client, games):
    helpers = all_helpers(client, games)
    assert helpers
    for slug, helper in helpers:
        response = client.post(f"/api/rules/{slug}/{helper['id']}", json=starting_inputs(helper))
        assert response.status_code == 200, (slug, helper["id"], response.json)
        assert isinstance(response.json["verdict"], str) and response.json["verdict"]
        assert all(isinstance(line, str) for line in response.json["details"])


def hostile_bodies(helper: dict):
    start = starting_inputs(helper)
    yield "not an object", [start]
    yield "unknown input", {**start, "sneaky": 1}
    for field in helper["fields"]:
        name = field["name"]
        wrong = {"choice": [1, {"a": 1}, "no-such-thing", True], "many": ["fire", [1], [None], ["no-such-thing"], [[]]],
                 "number": ["3", 2.5, True, -10**9, 10**18], "flag": ["yes", 1, []]}[field["kind"]]
        for value in wrong:
            yield f"{name} = {value!r}", {**start, name: value}
        if field["kind"] == "many":
            first = field["options"][0]["value"]
            yield f"{name} too many of one", {**start, name: [first] * (field["each"] + 1)}
            yield f"{name} far too many", {**start, name: [first] * (MAX_ITEMS + 1)}


def test_bad_input_to_any_helper_gets_400_with_a_reason(client, games):
    for slug, helper in all_helpers(client, games):
        path = f"/api/rules/{slug}/{helper['id']}"
        for what, body in hostile_bodies(helper):
            response = client.post(path, json=body)
            assert response.status_code == 400, (path, what, response.json)
            assert len(response.json["error"]) > 10, (path, what)
        for raw in (b"", b"{", b"null", b'"text"', b"\xff\xfe", b"[" * 7000 + b"]" * 7000, b'{"x": NaN}'):
            response = client.post(path, data=raw, content_type="application/json")
            assert response.status_code == 400, (path, raw)


def test_unknown_games_and_helpers_are_404_and_other_methods_405(client):
    assert client.get("/api/rules/no-such-game").status_code == 404
    response = client.post("/api/rules/spellchamber/no-such-helper", json={})
    assert response.status_code == 404 and "Next shot" in response.json["error"]
    assert client.get("/api/rules/spellchamber/next-shot").status_code == 405


def test_an_oversized_body_is_refused_before_it_is_read(client):
    response = client.post("/api/rules/spellchamber/next-shot", data=b"[" + b"1," * 20_000 + b"1]",
                           content_type="application/json")
    assert response.status_code == 413


def test_the_spellchamber_odds_follow_the_scenario_card(client, games):
    game = games["spellchamber"]
    card = next(c for c in game.decks["duel-scenarios"].cards if c["live"] and c["blank"])
    body = {"scenario": card.id, "shot_live": 1}
    answer = client.post("/api/rules/spellchamber/next-shot", json=body).json
    left = card["live"] - 1 + card["magic"] + card["blank"]
    assert answer["left"] == {"live": card["live"] - 1, "magic": card["magic"], "blank": card["blank"]}
    assert answer["odds"]["blank"] == {"numerator": card["blank"] // _gcd(card["blank"], left),
                                       "denominator": left // _gcd(card["blank"], left),
                                       "percent": round(100 * card["blank"] / left, 1)}
    too_many = client.post("/api/rules/spellchamber/next-shot", json={"scenario": card.id, "shot_live": card["live"] + 1})
    assert too_many.status_code == 400 and card.name in too_many.json["error"]


def _gcd(a: int, b: int) -> int:
    from math import gcd

    return gcd(a, b)


@pytest.mark.parametrize("body, reason", [
    ({"scenario": None}, "choose a scenario"),
    ({"chamber_live": 1, "chamber_magic": 0, "chamber_blank": 0}, "not both"),
    ({"scenario": None, "chamber_live": 0, "chamber_magic": 0, "chamber_blank": 0}, "empty"),
])
def test_a_chamber_typed_by_hand(client, body, reason):
    response = client.post("/api/rules/spellchamber/next-shot", json=body)
    assert response.status_code == 400 and reason in response.json["error"]
    typed = {"scenario": None, "chamber_live": 3, "chamber_magic": 1, "chamber_blank": 0, "shot_live": 1}
    assert client.post("/api/rules/spellchamber/next-shot", json=typed).json["verdict"] == "Live 67% · Magic 33% · Blank 0%"
