"""The balance lab (`spellpress simulate`): seeded runs of small cases whose answers are known by
hand, determinism (the same seed and any number of workers give the same bytes), and bad input."""

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from spellchamber_copies import chambered
from spellpress.cli import main
from spellpress.core import load_games
from spellpress.core.games.powermage_54 import lab as powermage_54
from spellpress.core.games.spellchamber import lab as spellchamber
from spellpress.lab.engine import Plan, run
from spellpress.lab.report import build
from spellpress.lab.run import simulate
from spellpress.lab.stats import quantile, wilson


@pytest.fixture(scope="module")
def labgames(cards_dir):
    return {g.slug: g for g in load_games(cards_dir, ["powermage-54", "spellchamber"])}


def _within(rate, p, n, sigmas=4):
    assert abs(rate - p) <= sigmas * math.sqrt(p * (1 - p) / n), (rate, p, n)


def test_wilson_and_quantiles_by_hand():
    lo, hi = wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)  # the textbook figure for 50 of 100
    assert wilson(0, 0) == (0.0, 1.0)
    from collections import Counter

    lengths = Counter({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
    assert (quantile(lengths, 0.1), quantile(lengths, 0.5), quantile(lengths, 0.9)) == (1, 5, 9)


def test_powermage_halving_alone_ends_the_game_as_worked_by_hand(labgames):
    """Idle players never play a card: each turn draws one card and discards one to the hand
    limit. The deck runs out after its cards less the hands dealt, and again every time the
    discard pile shuffled in is drawn through; points halve (rounding down) until both are 0 at once."""
    game = labgames["powermage-54"]
    c = game.constants
    report = simulate(game, 20, 3, policies=["idle"])
    halvings, points = 0, c.starting_points
    while points:
        points //= c.empty_deck_divisor
        halvings += 1
    first_run = c.deck_size - 2 * c.starting_hand  # draws before the first empty deck
    turns = first_run + 1 + (halvings - 1) * first_run
    assert report["figures"]["halvings"]["per_game"] == halvings == 7
    assert report["length"]["turns"] == {"median": turns, "p10": turns, "p90": turns, "mean": turns, "sd": 0}
    assert report["no_winner"] == 20 and report["win_rate"] == [0.0, 0.0]


def test_spellchamber_first_shot_is_live_as_often_as_the_chamber_says(labgames, cards_dir, tmp_path):
    """Every scenario's chamber that of one card, with no spells drafted (so no spell can look at,
    shuffle or discard the chamber before the first shot): the first shot of a game is Live with
    the chance its Live cards make of its chamber (every order of a shuffled chamber equally likely)."""
    card = labgames["spellchamber"].card("duel-2")
    game = chambered(cards_dir, tmp_path, card["live"], card.get("magic", 0), card.get("blank", 0), spells=0)
    p = card["live"] / (card["live"] + card.get("magic", 0) + card.get("blank", 0))
    plan = Plan(spellchamber.LAB, spellchamber.prepare(game), 5, 2, ("random", "random"))
    n = 1500
    report = build(game, spellchamber.LAB, plan, run(plan, n))
    _within(report["figures"]["first shot of the game live"]["total"] / n, p, n)
    # the roll-off gives each of two seats the first battle turn half the time
    firsts = [seat["first"] for seat in report["seats"]]
    assert sum(firsts) == n
    _within(firsts[0] / n, 0.5, n)


def test_spellchamber_one_live_a_round_the_first_player_always_wins(cards_dir, tmp_path):
    """A chamber of one Live, aimed at the opponent: the battle players alternate round by
    round, so the first player's fourth Live (the seventh round) ends it, every game. No spells
    are drafted (and no Magic shot draws one), so no spell or power changes that count."""
    game = chambered(cards_dir, tmp_path, 1, 0, 0, spells=0)
    plan = Plan(spellchamber.LAB, spellchamber.prepare(game), 1, 2, ("greedy", "greedy"))
    report = build(game, spellchamber.LAB, plan, run(plan, 200))
    life = game.constants.starting_life
    assert report["first_player"]["win_rate"] == 1.0
    assert report["first_player"]["edge"] == 0.5
    assert report["length"]["rounds"]["median"] == report["length"]["rounds"]["p90"] == 2 * life - 1


def test_a_game_that_does_not_end_is_reported_unfinished(labgames):
    game = labgames["powermage-54"]
    lab = replace(powermage_54.LAB, turn_cap=10)  # idle: with every card applied, a random game may end in 10 turns
    plan = Plan(lab, lab.prepare(game), 1, 2, ("idle", "idle"))
    report = build(game, lab, plan, run(plan, 30))
    assert report["games"] == 30 and report["unfinished"] == 30 and report["finished"] == 0
    assert report["win_rate"] == [0.0, 0.0]


def _cli(capsys, *args):
    code = main(["simulate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_same_seed_gives_the_same_bytes_with_any_number_of_workers(capsys):
    args = ("powermage-54", "--games", "120", "--seed", "11", "--json", "--policy", "greedy", "random")
    code, one, _ = _cli(capsys, *args)
    assert code == 0
    assert _cli(capsys, *args)[1] == one
    assert _cli(capsys, *args, "--workers", "2")[1] == one
    assert _cli(capsys, *args[:4], "12", *args[5:])[1] != one, "another seed plays other games"
    report = json.loads(one)
    for key in ("games", "seed", "win_rate", "modelled", "unmodelled", "first_player", "length", "cards", "seats"):
        assert key in report
    assert report["games"] == 120 and report["seed"] == 11
    assert [s["policy"] for s in report["seats"]] == ["greedy", "random"]
    assert all("win_rate" in s and len(s["ci95"]) == 2 for s in report["seats"])
    assert sum(s["wins"] for s in report["seats"]) + report["no_winner"] + report["unfinished"] == 120


def test_a_rule_the_lab_leaves_out_is_named_and_counted_in_the_share(labgames, tmp_path):
    """A turn step the lab does not play weighs in `modelled` as a card would, and every report
    (text, JSON, PDF) names it."""
    from spellpress.lab.pdf import write
    from spellpress.lab.report import as_text

    game = labgames["powermage-54"]
    lab = replace(powermage_54.LAB, unmodelled_rules=("the card exchange (step 2 of a turn)",))
    plan = Plan(lab, lab.prepare(game), 1, 2, ("random", "random"))
    report = build(game, lab, plan, run(plan, 3))
    applied, unapplied = lab.modelled(game)
    assert report["unmodelled_rules"] == ["the card exchange (step 2 of a turn)"]
    assert report["modelled"] == round(len(applied) / (len(applied) + len(unapplied) + 1), 4) < 1
    assert "rule not modelled: the card exchange (step 2 of a turn)" in as_text(report)
    write(report, tmp_path / "r.pdf")
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(tmp_path / "r.pdf"))
    text = " ".join(page.get_textpage().get_text_range() for page in pdf)
    assert "the card exchange (step 2 of a turn)" in text and "0 cards and 1 rule not yet" in text


def test_unmodelled_cards_are_named_in_every_report(capsys, labgames):
    game = labgames["powermage-54"]
    unapplied = []  # every card is applied now (tests/test_lab_cards.py)
    code, out, _ = _cli(capsys, "powermage-54", "--games", "5", "--json")
    report = json.loads(out)
    assert {c["id"] for c in report["unmodelled"]} == {c.id for c in unapplied}
    unique = len(game.decks["draw"].cards)
    assert report["modelled"] == round((unique - len(unapplied)) / unique, 4)
    # the tiny fixture's spells and wizards declare no effect: drafted, never played, and named
    fixtures = Path(__file__).parent / "fixtures" / "games"
    tiny = load_games(fixtures, ["tiny-chamber"])[0]
    code, text, _ = _cli(capsys, "tiny-chamber", "--cards", str(fixtures), "--games", "5")
    named = text.rsplit("not modelled", 1)[1]
    assert code == 0 and all(card.name in named for card in tiny.decks["spells"].cards)


@pytest.mark.parametrize("args, says", [
    (("no-such-game",), "no game 'no-such-game'"),
    (("spellchamber", "--games", "0"), "--games"),
    (("spellchamber", "--policy", "clever"), "unknown policy 'clever'"),
    (("spellchamber", "--players", "9"), "2 to 4 players"),
    (("magicka-mayhem", "--players", "7"), "2 to 6 players"),
    (("spellchamber", "--seed", "-1"), "--seed: -1: it must be from 0"),
    # every number bounded before it is used (issue 32): no range of a hundred million values made
    # to be counted, no 30-digit number turned into a range, no 500 processes started
    (("powermage-54", "--vary", "hand_limit=0..100000000"), "100,000,001 values; at most 50"),
    (("powermage-54", "--vary", "hand_limit=0.." + "9" * 30), "each number at most 999,999,999"),
    (("powermage-54", "--workers", "500"), "--workers: 500: it must be from 1 to"),
    (("powermage-54", "--games", "9" * 30), "it must be from 1 to 10,000,000"),
])
def test_bad_input_is_said_and_exits_2(capsys, args, says):
    try:
        code = main(["simulate", *args])
    except SystemExit as exit:  # argparse's own errors
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


def test_sorcerer_duel_coin_flip_and_the_first_players_skipped_draw(cards_dir):
    """A coin flip picks the first player, who draws nothing on the first turn: so after one
    turn each, the cards drawn are the two hands dealt and one draw (the second player's)."""
    from spellpress.core import load_games
    from spellpress.core.games.sorcerer_duel import lab as sorcerer_duel

    game = load_games(cards_dir, ["sorcerer-duel"])[0]
    c = game.constants
    lab = replace(sorcerer_duel.LAB, turn_cap=2)
    plan = Plan(lab, lab.prepare(game), 2, 2, ("random", "random"))
    n = 600
    report = build(game, lab, plan, run(plan, n))
    drawn = sum(card["drawn"] for card in report["cards"] if game.card(card["id"]).type != "sorcerer")  # from the decks
    deaths = report["figures"].get("creatures died", {"total": 0})["total"]  # each draws a card, within the limit
    effects = report["figures"].get("cards drawn by effects", {"total": 0})["total"]  # cards and sorcerers that draw
    assert 2 * c.starting_hand * n + c.draws_per_turn * (n - report["finished"]) <= drawn
    assert drawn <= 2 * c.starting_hand * n + c.draws_per_turn * n + deaths * c.draws_on_creature_death + effects
    _within(report["seats"][0]["first"] / n, 0.5, n)
    assert [s["plays"] for s in report["seats"]] == list(c.player_decks)


def test_powers_combined_reports_a_clear_rate_and_every_lost_game_spends_every_life(capsys, cards_dir):
    code, out, _ = _cli(capsys, "powers-combined", "--games", "40", "--json", "--seed", "4")
    report = json.loads(out)
    assert code == 0 and "clear_rate" in report and "win_rate" not in report and report["modelled"] == 1.0
    lost, cleared = report["no_winner"], report["cleared"]
    assert lost + cleared + report["unfinished"] == 40
    assert report["clear_rate"] == round(cleared / 40, 4)
    from spellpress.core import load_games

    lives = load_games(cards_dir, ["powers-combined"])[0].constants.lives
    spent = report["figures"]["lives lost"]["total"]
    assert lives * lost <= spent <= lives * lost + (lives - 1) * cleared


def test_against_other_cards_flags_only_what_moved(capsys, cards_dir, tmp_path):
    """The same seeds on the same cards move nothing; wizards with less life end duels sooner."""
    import shutil

    shutil.copytree(cards_dir / "spellchamber", tmp_path / "spellchamber")
    game_yaml = tmp_path / "spellchamber" / "game.yaml"
    text = game_yaml.read_text()
    assert "  starting_life: 4\n" in text
    game_yaml.write_text(text.replace("  starting_life: 4\n", "  starting_life: 2\n"))
    args = ("spellchamber", "--games", "300", "--policy", "greedy", "--json")
    code, out, _ = _cli(capsys, *args, "--against", str(cards_dir))
    same = json.loads(out)
    assert code == 0 and not any(row["moved"] for row in same["changes"]) and same["this"] == same["against"]
    code, out, _ = _cli(capsys, *args, "--against", str(tmp_path))
    moved = {row["figure"]: row for row in json.loads(out)["changes"]}
    assert moved["mean rounds per finished game"]["moved"] and moved["mean rounds per finished game"]["change"] > 0
    code, _, err = _cli(capsys, "spellchamber", "--against", str(tmp_path / "nowhere"))
    assert code == 2 and "no game 'spellchamber'" in err


def test_vary_plays_the_same_seeds_at_each_value_of_a_constant(capsys):
    code, out, _ = _cli(capsys, "spellchamber", "--games", "200", "--policy", "greedy", "--json", "--vary", "starting_life=2..6:4")
    sweep = json.loads(out)
    assert code == 0 and sweep["vary"] == "starting_life" and [p["value"] for p in sweep["points"]] == [2, 6]
    short, long = (p["length"]["turns"]["mean"] for p in sweep["points"])
    assert short < long, "more life, longer duels"
    for spec, says in (("nope=1..3", "no constant 'nope'"), ("starting_life=6..2", "LOW must be at most HIGH"),
                       ("starting_life", "CONSTANT=LOW..HIGH")):
        code, _, err = _cli(capsys, "spellchamber", "--vary", spec)
        assert code == 2 and says in err and "Traceback" not in err


def test_pdf_report_is_written_with_embedded_fonts(capsys, tmp_path):
    out = tmp_path / "balance.pdf"
    code, _, err = _cli(capsys, "sorcerer-duel", "--games", "40", "--pdf", str(out))
    data = out.read_bytes()
    assert code == 0 and f"wrote {out}" in err and data.startswith(b"%PDF")
    assert b"Helvetica" not in data and b"Literata" in data
