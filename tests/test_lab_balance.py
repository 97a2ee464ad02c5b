"""`spellpress validate --balance`: games edited in a temporary copy so that the first player
always wins, so that nobody can ever win, and so that a card can never be played; each is
flagged as a designer needs it, at the line of game.yaml's threshold; bad thresholds are
problems with their line like any game.yaml key."""

import re
import shutil

import pytest

from spellpress.cli import main
from spellpress.core import ValidationFailed, load_games
from spellpress.lab import balance, run


def _copy(cards_dir, tmp_path, slug):
    shutil.copytree(cards_dir / slug, tmp_path / slug)
    return tmp_path / slug


def _chambers(root, live, magic, blank):
    """Every duel scenario's chamber set to these counts of Live, Magic and Blank."""
    path = root / "duel-scenarios.yaml"
    text = path.read_text(encoding="utf-8")
    for kind, n in (("live", live), ("magic", magic), ("blank", blank)):
        text = re.sub(rf"^(\s+){kind}: \d+$", rf"\g<1>{kind}: {n}", text, flags=re.M)
    path.write_text(text, encoding="utf-8")


def _no_spells(root):
    """No spells laid out in any duel scenario (the copy's decks.yaml lets a scenario have none),
    so no spell or power changes a case worked by hand."""
    decks = root / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace(
        "spells_per_player: {type: int, required: true, min: 1", "spells_per_player: {type: int, required: true, min: 0"),
        encoding="utf-8")
    path = root / "duel-scenarios.yaml"
    path.write_text(re.sub(r"^(\s+)spells_per_player: \d+$", r"\g<1>spells_per_player: 0",
                           path.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")


def _balance_line(root, line):
    """game.yaml's `balance:` written as `line`, at a line of its own; that line's number."""
    path = root / "game.yaml"
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if not x.startswith("balance:")]
    lines.insert(3, line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 4


def _validate(capsys, cards, *words):
    code = main(["validate", "--balance", *words, "--cards", str(cards), "--templates", str(cards / "no-templates")])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_first_player_who_always_wins_is_a_problem_at_the_thresholds_line(capsys, cards_dir, tmp_path):
    """One Live a round, aimed at the opponent: the battle players alternate, so the first
    player's fourth Live ends every duel (tests/test_lab.py works it by hand), with no spells."""
    root = _copy(cards_dir, tmp_path, "spellchamber")
    _chambers(root, 1, 0, 0)
    _no_spells(root)
    written = "balance: {max_seat_edge: 0.3}"
    line = _balance_line(root, written)
    code, out, err = _validate(capsys, tmp_path, "spellchamber")
    assert code == 1
    assert "balance: spellchamber: 300 games, 2 players, policy greedy, seed 1:" in out and "first player +50.0 points" in out
    said = [x for x in err.splitlines() if "balance.max_seat_edge" in x]
    assert said == [f"{root / 'game.yaml'}:{line}:{written.index('0.3') + 1}: balance.max_seat_edge: the first player (a die roll-off: the "
                    "highest roll is the first battle player) wins 100.0% of 300 games (95% CI 98.7%-100.0%), "
                    "50.0 points over its fair share 50.0%; this game allows 30.0 points"]
    assert err.endswith("1 problem found in " + str(tmp_path) + " (balance)\n")
    assert "ok:" not in out


def test_a_fair_game_passes_and_the_default_threshold_is_said_where_it_applies(cards_dir, tmp_path):
    games = {g.slug: g for g in load_games(cards_dir, ["spellchamber"])}
    fair = balance.check(games["spellchamber"], games=200)
    assert fair.problems == [] and "0 unfinished" in fair.summary
    root = _copy(cards_dir, tmp_path, "spellchamber")
    _chambers(root, 1, 0, 0)
    checked = balance.check(load_games(tmp_path, ["spellchamber"])[0], games=100)
    problem, = checked.problems  # no balance: key, so the default 0.1 applies, written nowhere
    assert (problem.file, problem.line, problem.path) == (str(root / "game.yaml"), 0, "balance.max_seat_edge")
    assert "this game allows 10.0 points (the default: set `balance: {max_seat_edge: ...}` in game.yaml" in problem.message


def test_a_game_that_cannot_end_is_a_problem(cards_dir, tmp_path):
    """Only Blank in the chamber: nobody ever loses life, every game runs to the lab's turn cap."""
    root = _copy(cards_dir, tmp_path, "spellchamber")
    _chambers(root, 0, 0, 1)
    line = _balance_line(root, "balance: {max_unfinished: 0.05}")
    checked = balance.check(load_games(tmp_path, ["spellchamber"])[0], games=30)
    assert "30 unfinished" in checked.summary
    problem, = checked.problems
    assert (problem.line, problem.path) == (line, "balance.max_unfinished")
    assert problem.message == ("30 of 30 games (100.0%) were still going at the lab's turn cap (500): "
                               "the game may not end; at most 5.0% may")


def test_a_card_that_can_never_be_played_is_named(capsys, cards_dir, tmp_path):
    """Grove Warden made to need an Attack spell on its side, where only units stand: drawn, never summoned."""
    root = _copy(cards_dir, tmp_path, "sorcerer-duel")
    path = root / "thornwood.yaml"
    text = path.read_text(encoding="utf-8")
    line = text[:text.index("id: grove-warden")].count("\n") + 1
    path.write_text(text.replace("needs: mossling", "needs: attack-spell")
                    .replace("have a Mossling on your side", "have an Attack spell on your side"), encoding="utf-8")
    code, out, err = _validate(capsys, tmp_path, "sorcerer-duel")
    assert code == 0 and "ok: 1 games" in out  # a warning is not a problem
    warden = [x for x in err.splitlines() if "grove-warden" in x]
    assert len(warden) == 1 and warden[0].startswith(f"warning: {path}:{line}:")
    assert re.search(r"creature 'Grove Warden' \(grove-warden\): drawn \d+ times, never played in 300 games", warden[0])
    assert "mossling" not in err, "the cards it played are not named"


@pytest.mark.parametrize("written, says", [
    ("balance: {max_seat_edge: 1.5}", "balance.max_seat_edge: a share from 0 to 1 (0.1 is ten points of a hundred), got 1.5"),
    ("balance: {max_seat_edge: '0.1'}", "balance.max_seat_edge: expected a number, got the text '0.1'"),
    ("balance: {max_seat_edges: 0.1}", "balance.max_seat_edges: unknown key 'max_seat_edges' (did you mean 'max_seat_edge'?)"),
    ("balance: 0.1", "balance: expected a mapping (key: value lines), got the number 0.1"),
])
def test_a_bad_threshold_is_a_problem_with_its_line(cards_dir, tmp_path, written, says):
    root = _copy(cards_dir, tmp_path, "spellchamber")
    line = _balance_line(root, written)
    with pytest.raises(ValidationFailed) as failed:
        load_games(tmp_path, ["spellchamber"])
    problem, = failed.value.problems
    assert problem.line == line and str(problem).endswith(says)


def test_a_game_the_lab_cannot_play_is_one_note(capsys, cards_dir, monkeypatch):
    monkeypatch.delitem(run.LABS, "spellchamber")
    code, out, err = _validate(capsys, cards_dir, "spellchamber")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "note: spellchamber: not checked for balance: the lab cannot play its ruleset 'spellchamber' yet"


def test_where_one_seat_always_starts_its_edge_is_said_once(cards_dir):
    """PowerMage 54's seat 1 always plays first: its edge is one problem, not a seat's and a first player's."""
    game = load_games(cards_dir, ["powermage-54"])[0]
    seats = [{"seat": 1, "wins": 200, "first": 300}, {"seat": 2, "wins": 100, "first": 0}]
    report = {"games": 300, "players": 2, "seats": seats, "first_player": {"rule": "seat 1 plays first", "wins": 200}}
    problem, = balance._seat_edges(game, report)
    assert problem.message.startswith("seat 1 wins 66.7% of 300 games (95% CI 61.2%-71.8%), 16.7 points over its fair share 50.0%")
    seats[0]["first"], seats[1]["first"] = 150, 150  # who starts is drawn: the first player is said too
    assert [p.message.split(" wins")[0] for p in balance._seat_edges(game, report)] == ["seat 1", "the first player (seat 1 plays first)"]
