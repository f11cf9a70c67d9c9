"""The terminal game tells what happened: each game's stages of play, what changed on the board,
5th Avenue's auction in progress, and ``play --resume`` of a saved game."""

import io
import json
import re

import numpy as np
import pytest

from tiny_york_env.cli import main
from tiny_york_env.registry import game_names, get_game
from tiny_york_env.saved_games import read_saved_game
from tiny_york_env.terminal_game import changed_lines

ENOUGH_CHOICES = "1\n" * 3000  # always the first option, more than any game needs


def run(argv, stdin_text=""):
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin_text), stdout=out)
    return status, out.getvalue()


def test_changed_lines_give_new_lines_with_the_line_they_belong_under_and_mark_lines_gone():
    before = ["turn 1", "seat 0: 3 points", "  hand: red 1", "seat 1: 0 points", "stacks: A B"]
    after = ["turn 2", "seat 0: 3 points", "  hand: red 1 2", "seat 1: 0 points"]
    assert changed_lines(before, after) == ["turn 2", "seat 0: 3 points", "  hand: red 1 2",
                                            "(gone) stacks: A B"]
    assert changed_lines(after, after) == []
    # three lines under a heading become one: the two left over are gone, under that heading
    assert changed_lines(["H0", "  a", "  b", "  c"], ["H0", "  z"]) == \
        ["H0", "  z", "  (gone) b", "  (gone) c"]
    assert changed_lines(["H0", "  a", "H1", "  b"], ["H0", "  a", "H1"]) == ["H1", "  (gone) b"]


def random_states(name, games=3, seed=0):
    """Every state of a few random games of ``name``'s first example setup."""
    game = get_game(name)
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_game(game.make_config(**game.example_setups[0]), seed + g)
        while not game.is_terminal(state):
            yield state
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        yield state


@pytest.mark.parametrize("name", ["tiny_york", "construction_yard", "fifth_avenue"])
def test_each_game_names_its_stages_of_play(name):
    """Tiny York's rounds and phases and Construction Yard's scorings never go back; 5th Avenue
    goes from its turns to a set of auctions and back."""
    expected = {"tiny_york": r"setup|round [1-5]/5, (phase (0|I|II|III)|round end)|game over",
                "construction_yard": r"(before|after) scoring [ABC]|game over",
                "fifth_avenue": r"turns, (\d building stops?)|auctions|game over"}[name]
    game = get_game(name)
    phases = []
    for state in random_states(name):
        phase = game.phase(state)
        assert re.fullmatch(expected, phase), phase
        if not phases or phases[-1] != phase:
            phases.append(phase)
    assert phases.count("game over") == 3 and len(set(phases)) > 3
    if name != "fifth_avenue":  # within each game, a stage once left never comes back
        games = "|".join(phases).split("game over")
        assert all(len(g.strip("|").split("|")) == len(set(g.strip("|").split("|"))) for g in games)
    else:
        assert "turns, 1 building stop" in phases


def test_fifth_avenue_shows_the_auction_in_progress():
    """While a set of auctions runs the board names the auction, the high bid and every bidder's
    bid or pass (5th Avenue's rules, 'The auction'); outside it, no auction line."""
    game = get_game("fifth_avenue")
    seen = 0
    for state in random_states("fifth_avenue", games=2):
        text = game.render_text(state, 0)
        lines = [line for line in text.splitlines() if line.startswith("auction ")]
        if game.phase(state) != "auctions":
            assert lines == []
            continue
        assert len(lines) == 1, text
        assert re.fullmatch(r"auction \d of \d in [\w ]+: (no bid yet|high bid \d+ by (seat \d|Alea)); "
                            r"seat 0 .+, seat 1 .+(, Alea (\d+|out))?", lines[0]), lines[0]
        assert game.pending_decision(state) in ("bid or pass", "build skyscrapers or declare a building stop")
        seen += "high bid" in lines[0]
    assert seen > 0


@pytest.mark.parametrize("name", game_names())
def test_a_quit_game_resumes_where_it_stopped_and_saves_back_to_its_file(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, text = run(["play", "--game", name, "--seed", "4"], "1\n1\nq\ny\nkept.jsonl\n")
    first = read_saved_game(tmp_path / "kept.jsonl")
    assert status == 0 and len(first.decisions) >= 2 and first.result is None
    status, text = run(["play", "--resume", "kept.jsonl"], "1\nq\ny\n\n")
    assert status == 0 and f"resumed from kept.jsonl after {len(first.decisions)} decisions" in text
    assert "File name (Enter: kept.jsonl)" in text  # saved back where it came from
    second = read_saved_game(tmp_path / "kept.jsonl")
    assert second.decisions[:len(first.decisions)] == first.decisions
    assert len(second.decisions) > len(first.decisions) and second.players == first.players
    status, text = run(["play", "--resume", "kept.jsonl"], ENOUGH_CHOICES)
    assert status == 0 and "Final scores: " in text  # played to its end, and written back
    assert "Saved the game to kept.jsonl" in text and read_saved_game(tmp_path / "kept.jsonl").result


def test_resume_refuses_what_the_saved_game_decides_and_a_finished_game(tmp_path, capsys):
    path = tmp_path / "done.jsonl"
    run(["play", "--game", "construction_yard", "--seed", "4", "--save", str(path)], ENOUGH_CHOICES)
    assert read_saved_game(path).result is not None
    with pytest.raises(SystemExit):
        run(["play", "--resume", str(path)])
    assert "the game ended; nothing to resume" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run(["play", "--resume", str(path), "--seed", "3", "--tom", "5"])
    assert "leave out --seed, --tom" in capsys.readouterr().err


def test_resume_asks_for_a_seat_when_none_is_saved_as_you(tmp_path, capsys):
    status, text = run(["play", "--vs", "greedy", "--tom", "5", "--seed", "2", "--save",
                        str(tmp_path / "g.jsonl")], "1\nq\n")
    saved = (tmp_path / "g.jsonl").read_text().replace('"you"', '"someone"')
    (tmp_path / "h.jsonl").write_text(saved)
    with pytest.raises(SystemExit):
        run(["play", "--resume", str(tmp_path / "h.jsonl")])
    assert "no single seat is saved as 'you'" in capsys.readouterr().err
    status, text = run(["play", "--resume", str(tmp_path / "h.jsonl"), "--seat", "0"], "q\nn\n")
    assert status == 0 and "you are seat 0; seat 1 greedy, seat 2 Tom 5 (B4)" in text
    with pytest.raises(SystemExit):
        run(["play", "--resume", str(tmp_path / "g.jsonl"), "--seat", "1", "--vs", "nobody"])
    assert "unknown agent 'nobody'" in capsys.readouterr().err


@pytest.mark.parametrize("saved_name", ["ppo:/etc/passwd", "search:100000000", "os:system", "person 1"])
def test_resume_plays_a_saved_seat_only_by_an_offered_name(saved_name, tmp_path, capsys):
    """A saved file says who played, never what runs: a path, a budget or an outside module as a
    seat's name is refused (naming the seat), and --vs names the agent instead."""
    path = tmp_path / "g.jsonl"
    run(["play", "--vs", "greedy", "--tom", "5", "--seed", "2", "--save", str(path)], "1\nq\n")
    (tmp_path / "h.jsonl").write_text(path.read_text().replace('"greedy"', json.dumps(saved_name)))
    with pytest.raises(SystemExit):
        run(["play", "--resume", str(tmp_path / "h.jsonl")])
    error = capsys.readouterr().err
    assert f"seat 1 ({saved_name!r}) not a player resumed by name" in error and "--vs" in error
    status, text = run(["play", "--resume", str(tmp_path / "h.jsonl"), "--vs", "random"], "q\nn\n")
    assert status == 0 and "seat 1 random" in text
