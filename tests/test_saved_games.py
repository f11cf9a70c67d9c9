"""Saved games (``tiny_york_env/saved_games.py``, ``tiny-york play --save``, ``tiny-york replay``):
save -> read -> replay round trips for random games of every game and setup, and damaged or
foreign files refused at the right line with what was expected there."""

import io
import json
import re

import numpy as np
import pytest

from tiny_york_env.cli import main
from tiny_york_env.registry import get_game
from tiny_york_env.saved_games import FORMAT, GameRecorder, SavedGameError, read_saved_game, replay_states

SETUPS = [
    ("tiny_york", {"num_agents": 2, "toms": ()}),
    ("tiny_york", {"num_agents": 1, "toms": (5,)}),
    ("tiny_york", {"num_agents": 3, "toms": ("C9",)}),
    ("tiny_york", {"num_agents": 4, "toms": ()}),
    ("construction_yard", {"num_players": 2, "bots": ()}),
    ("construction_yard", {"num_players": 2, "bots": ("greedy",)}),
    ("construction_yard", {"num_players": 3, "bots": ("random",)}),
    ("construction_yard", {"num_players": 6, "bots": ("greedy", "random")}),
]


def random_game(name, setup, seed, stop_after=None):
    """A random game recorded as it is played: (recorder, final or stopped state)."""
    game = get_game(name)
    config = game.make_config(**setup)
    state = game.new_game(config, seed)
    players = [f"player {s}" for s in range(game.num_participants(config))]
    recorder = GameRecorder(game, config, seed, players)
    rng = np.random.default_rng(seed)
    while not game.is_terminal(state) and len(recorder.saved.decisions) != stop_after:
        seat = game.current_player(state)
        action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        game.apply_action(state, action)
        recorder.record(seat, action)
    if game.is_terminal(state):
        recorder.finish(state)
    return recorder, state


@pytest.mark.parametrize("name, setup", SETUPS, ids=[f"{n}-{s}" for n, s in SETUPS])
def test_a_saved_game_reads_back_and_replays_to_the_same_end(name, setup, tmp_path):
    recorder, state = random_game(name, setup, seed=len(str(setup)))
    path = recorder.write(tmp_path / "game.jsonl")
    saved = read_saved_game(path)
    assert saved.decisions == recorder.saved.decisions and saved.result == recorder.saved.result
    assert saved.result is not None and saved.result["winners"]
    states = list(replay_states(saved))
    assert len(states) == len(saved.decisions) + 1
    assert states[-1].tobytes() == state.tobytes()


def test_an_unfinished_game_reads_back_without_a_result(tmp_path):
    recorder, state = random_game("construction_yard", {"num_players": 3}, seed=2, stop_after=15)
    saved = read_saved_game(recorder.write(tmp_path / "part.jsonl"))
    assert saved.result is None and len(saved.decisions) == 15
    assert list(replay_states(saved))[-1].tobytes() == state.tobytes()


def lines_of(name="tiny_york", setup=None, seed=3):
    """The lines of a finished random game's file."""
    recorder, _ = random_game(name, setup or {"num_agents": 1, "toms": (5,)}, seed)
    return recorder.saved.lines()


def write(tmp_path, lines):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def replaced(lines, number, text):
    """``lines`` with line ``number`` (from 1) replaced by ``text``."""
    out = list(lines)
    out[number - 1] = text
    return out


def with_field(line, **changes):
    return json.dumps({**json.loads(line), **changes})


@pytest.mark.parametrize("damage, line, message", [
    (lambda ls: replaced(ls, 5, "{not json"), 5, "not JSON"),
    (lambda ls: replaced(ls, 4, "[1, 2]"), 4, "expected a JSON object"),
    (lambda ls: replaced(ls, 6, with_field(ls[5], action=9999)), 6, "action 9999 is not legal here"),
    (lambda ls: replaced(ls, 3, with_field(ls[2], seat=1)), 3, "seat 1 decides here, but it is seat 0's"),
    (lambda ls: replaced(ls, 7, with_field(ls[6], action="3")), 7, "needs an int 'action'"),
    (lambda ls: replaced(ls, 1, with_field(ls[0], game="chess")), 1, "unknown game 'chess'"),
    (lambda ls: replaced(ls, 1, with_field(ls[0], format="other")), 1, "not a saved game"),
    (lambda ls: replaced(ls, 1, with_field(ls[0], format_version=9)), 1, "format version 9"),
    (lambda ls: replaced(ls, 1, with_field(ls[0], game_version="0")), 1, "engine version '0'"),
    (lambda ls: replaced(ls, 1, with_field(ls[0], config={"num_agents": 9})), 1, "bad setup"),
    (lambda ls: replaced(ls, 1, with_field(ls[0], seed=-1)), 1, "bad setup"),
    (lambda ls: replaced(ls, 1, with_field(ls[0], players=["a"])), 1, "players must be 2 names"),
    (lambda ls: replaced(ls, len(ls), with_field(ls[-1], scores=[0, 0])), -1, "the end line says"),
    (lambda ls: ls + [ls[-2]], 0, "a line after the end line"),
    (lambda ls: ls[:10] + [ls[-1]], 11, "the end line comes before the game is over"),
    (lambda ls: ls[:-1] + [ls[3]], -1, "a decision after the end of the game|seat"),
])
def test_damaged_files_are_refused_at_the_first_bad_line(damage, line, message, tmp_path):
    lines = lines_of()
    bad = damage(lines)
    number = {-1: len(bad), 0: len(bad)}.get(line, line)
    with pytest.raises(SavedGameError, match=rf"bad\.jsonl line {number}: .*({message})"):
        read_saved_game(write(tmp_path, bad))


def test_foreign_files_are_refused_clearly(tmp_path):
    binary = tmp_path / "model.zip"
    binary.write_bytes(b"PK\x03\x04\xff\xfe\x00garbage")
    with pytest.raises(SavedGameError, match="cannot read a saved game"):
        read_saved_game(binary)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(SavedGameError, match="line 1: the file is empty"):
        read_saved_game(empty)
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"format": "something-else"}) + "\n")
    with pytest.raises(SavedGameError, match=f"expected '{FORMAT}'"):
        read_saved_game(other)
    with pytest.raises(SavedGameError, match="cannot read"):
        read_saved_game(tmp_path / "missing.jsonl")


def run(argv, typed=""):
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(typed), stdout=out)
    return status, out.getvalue()


def test_play_saves_and_replay_steps_through_the_game(tmp_path):
    path = tmp_path / "tom5.jsonl"
    status, text = run(["play", "--tom", "5", "--seed", "11", "--save", str(path)], "1\n" * 400)
    assert status == 0 and f"Saved the game to {path}" in text
    status, text = run(["replay", str(path), "--check"])
    assert "every one legal; ended: scores you" in text
    status, text = run(["replay", str(path)], "n\nn\nj 5\np\nwhat\ne\nq\n")
    shown = [line.split("]")[0] for line in text.splitlines() if line.startswith("[")]
    assert shown[:5] == ["[0/86", "[1/86", "[2/86", "[5/86", "[4/86"] and shown[-1] == "[86/86"
    assert "'what': Enter or n: next decision" in text
    assert "seat 1 Tom 5 (B4): took start stack" in text  # Tom's moves from the engine's log


def test_construction_yard_bots_moves_are_shown_in_play_and_replay(tmp_path):
    path = tmp_path / "bots.jsonl"
    status, text = run(["play", "--game", "construction_yard", "--vs", "greedy", "--bots", "random",
                        "--seed", "3", "--save", str(path)], "1\n" * 400)
    assert status == 0 and "seat 2 random bot: " in text and "seat 1 greedy: " in text
    status, text = run(["replay", str(path)], "\n" * 400)
    assert "seat 2 random bot: " in text


def test_quitting_saves_the_game_so_far_and_construction_yard_saves_too(tmp_path):
    path = tmp_path / "cy.jsonl"
    status, text = run(["play", "--game", "construction_yard", "--vs", "greedy", "--seed", "4",
                        "--save", str(path)], "1\n1\n1\nq\n")
    assert "You quit the game." in text and f"Saved the game to {path}" in text
    saved = read_saved_game(path)
    assert saved.game == "construction_yard" and saved.result is None and len(saved.decisions) >= 3
    assert saved.players == ["you", "greedy"]


def test_replay_of_a_bad_file_is_an_error_naming_the_line(tmp_path, capsys):
    path = write(tmp_path, replaced(lines_of(), 4, "{"))
    with pytest.raises(SystemExit):
        run(["replay", str(path)])
    assert "bad.jsonl line 4: not JSON" in capsys.readouterr().err


def test_eval_saves_the_lost_games_and_they_replay(tmp_path):
    folder = tmp_path / "lost"
    run(["eval", "--agent", "random", "--levels", "5", "--games", "3", "--save-games", str(folder),
         "--out", str(tmp_path / "out"), "--no-progress"])
    files = sorted((folder / "random").glob("*.jsonl"))
    assert len(files) == 3  # random never beats Tom 5
    saved = read_saved_game(files[0])
    assert saved.players == ["random", "Tom 5 (B4)"] and saved.result["winners"] == [1]


def test_eval_of_another_game_saves_every_game_when_asked(tmp_path):
    folder = tmp_path / "all"
    run(["eval", "--game", "construction_yard", "--vs", "greedy", "random", "--games", "2",
         "--save-games", str(folder), "--save-which", "all", "--out", str(tmp_path / "out")])
    files = sorted(folder.glob("*.jsonl"))
    assert [f.name for f in files] == ["cell0-game00000.jsonl", "cell0-game00001.jsonl"]
    assert read_saved_game(files[1]).players == ["random", "greedy"]  # seats rotated in game 1
    run(["eval", "--game", "construction_yard", "--vs", "greedy", "random", "--games", "2",
         "--save-games", str(tmp_path / "lost"), "--out", str(tmp_path / "out")])
    assert not (tmp_path / "lost").exists() or not list((tmp_path / "lost").glob("*"))  # greedy won both


def test_a_line_that_is_not_utf8_is_named_with_its_column(tmp_path, capsys):
    lines = lines_of()
    data = "\n".join(lines).encode() + b"\n"
    start = data.index(lines[5].encode())
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data[:start + 3] + b"\xff" + data[start + 4:])
    expected = "bad.jsonl line 6: cannot read a saved game: not UTF-8 text (byte 0xff at column 4)"
    with pytest.raises(SavedGameError, match=re.escape(expected)):
        read_saved_game(path)
    with pytest.raises(SystemExit) as done:
        run(["replay", str(path), "--check"])
    assert done.value.code == 2 and expected in capsys.readouterr().err


def test_an_earlier_bad_line_comes_before_a_later_line_that_is_not_utf8(tmp_path):
    lines = replaced(lines_of(), 3, "{not json")
    path = tmp_path / "bad.jsonl"
    path.write_bytes("\n".join(lines).encode() + b"\n\xff\xfe\n")
    with pytest.raises(SavedGameError, match=r"bad\.jsonl line 3: not JSON"):
        read_saved_game(path)
