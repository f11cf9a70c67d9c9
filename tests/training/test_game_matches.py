"""Matches through the game contract (``training/game_matches.py``, ``tiny-york eval --game``)."""

import io
import json
import re

import numpy as np
import pytest

from tiny_york_env import __version__
from tiny_york_env.arena.match import evaluate_match
from tiny_york_env.cli import main


def test_wins_are_shared_out_and_the_greedy_bot_beats_random():
    results = evaluate_match("construction_yard", ["greedy", "random"], games=40, seed=3, num_players=2)
    rows = {r["agent"]: r for r in results["agents"]}
    assert rows["greedy"]["wins"] + rows["random"]["wins"] == 40
    assert rows["greedy"]["win_rate"] > 0.8 and rows["greedy"]["mean_score"] > rows["random"]["mean_score"]


def test_the_same_seed_gives_the_same_results():
    setup = {"games": 6, "seed": 1, "num_players": 3, "bots": ("greedy", "random")}
    first, second = (evaluate_match("construction_yard", ["random"], **setup) for _ in range(2))
    first.pop("played_on"), second.pop("played_on")  # the day each run started: may differ
    assert first == second


def test_a_numpy_count_of_games_gives_a_json_result():
    results = evaluate_match("construction_yard", ["random", "random"], games=np.int64(2), seed=0)
    assert json.loads(json.dumps(results))["games"] == 2


def test_bad_matches_are_refused_clearly():
    with pytest.raises(ValueError, match="has 1 agent seats but 2 agents"):
        evaluate_match("construction_yard", ["greedy", "random"], games=2, num_players=2, bots=("greedy",))
    with pytest.raises(ValueError, match="unknown agent 'tom'"):
        evaluate_match("construction_yard", ["tom", "random"], games=2, num_players=2)
    with pytest.raises(ValueError, match="no trained policy is shipped for Construction Yard with 5"):
        evaluate_match("construction_yard", ["ppo"] * 5, games=2, num_players=5)
    with pytest.raises(ValueError, match="its module clever cannot be imported"):
        evaluate_match("construction_yard", ["clever:x", "random"], games=2, num_players=2)
    with pytest.raises(ValueError, match="unknown game"):
        evaluate_match("chess", ["random"], games=2)


def test_tiny_york_seats_take_its_registry_agents():
    results = evaluate_match("tiny_york", ["greedy", "random"], games=2, num_agents=2)
    assert [row["agent"] for row in results["agents"]] == ["greedy", "random"]
    assert sum(row["wins"] for row in results["agents"]) == 2  # no Toms: an agent wins every game


def test_the_cli_runs_a_construction_yard_match(tmp_path):
    out = io.StringIO()
    main(["eval", "--game", "construction_yard", "--vs", "greedy", "random", "--games", "4",
          "--out", str(tmp_path), "--no-progress"], stdout=out)
    text = out.getvalue()
    assert "greedy" in text and "win rate [95% CI]" in text
    saved = json.loads((tmp_path / "match.json").read_text())
    settings = saved["settings"]
    assert settings["game"] == "construction_yard" and settings["games"] == 4
    assert [cell["agent"] for cell in saved["cells"]] == ["greedy", "random"]
    assert settings["command"] == ("tiny-york eval --game construction_yard --vs greedy random --games 4 "
                                   f"--out {tmp_path} --no-progress")
    assert settings["version"] == __version__ and re.fullmatch(r"\d{4}-\d\d-\d\d", settings["played_on"])


def cli_outcomes(tmp_path, name, argv):
    """Run ``tiny-york eval`` with ``argv`` into ``tmp_path/name``; its JSON's cells without timings."""
    main(["eval", *argv, "--out", str(tmp_path / name), "--no-progress"], stdout=io.StringIO())
    saved = json.loads((tmp_path / name / ("ladder.json" if "--agent" in argv else "match.json")).read_text())
    return [{k: v for k, v in cell.items() if k != "seconds_per_game"} for cell in saved["cells"]]


def test_every_game_takes_workers_first_game_merge_and_save_games(tmp_path):
    """A match of another game than Tiny York plays in worker processes with the results of one
    process; its ladder (against each bot) is played in parts and joined as if in one run."""
    match = ["--game", "construction_yard", "--vs", "greedy", "random", "--bots", "greedy", "--games", "4"]
    assert cli_outcomes(tmp_path, "one", match) == cli_outcomes(tmp_path, "two", [*match, "--workers", "2"])
    ladder = ["--game", "fifth_avenue", "--agent", "random", "--levels", "greedy,random", "--seed", "3"]
    whole = cli_outcomes(tmp_path, "whole", [*ladder, "--games", "4", "--save-games", str(tmp_path / "lost")])
    assert [cell["opponents"] for cell in whole] == ["greedy bot", "random bot"]
    cli_outcomes(tmp_path, "part1", [*ladder, "--games", "2"])
    cli_outcomes(tmp_path, "part2", [*ladder, "--games", "2", "--first-game", "2"])
    main(["eval", "--merge", str(tmp_path / "part1" / "ladder.json"), str(tmp_path / "part2" / "ladder.json"),
          "--out", str(tmp_path / "joined")], stdout=io.StringIO())
    joined = json.loads((tmp_path / "joined" / "ladder.json").read_text())
    assert [{k: v for k, v in c.items() if k != "seconds_per_game"} for c in joined["cells"]] == whole
    lost = sorted((tmp_path / "lost").rglob("*.jsonl"))
    records = json.loads((tmp_path / "whole" / "ladder.json").read_text())["games"]
    assert len(lost) == sum(0 not in record["winners"] for record in records)  # a shared win is no loss
    assert lost and main(["replay", str(lost[0]), "--check"], stdout=io.StringIO()) == 0


@pytest.mark.parametrize(("flags", "message"), [
    (["--tom", "5"], "--tom does not apply to Construction Yard"),
    (["--first-game", "2"], "--first-game is for the ladder (--agent)"),
    (["--levels", "greedy"], "--levels is for the ladder (--agent)"),
    (["--players", "3"], "--players 3: the match has 2 agents (--vs) and 0 bots (--bots)")])
def test_a_match_refuses_what_it_would_ignore(tmp_path, capsys, flags, message):
    with pytest.raises(SystemExit):
        main(["eval", "--game", "construction_yard", "--vs", "greedy", "random", "--games", "2",
              *flags, "--out", str(tmp_path), "--no-progress"])
    assert message in capsys.readouterr().err
    assert not (tmp_path / "match.json").exists()


def test_margins_are_own_score_minus_the_best_other_seat():
    results = evaluate_match("construction_yard", ["greedy", "random"], games=4, seed=5, num_players=2)
    greedy, random = results["agents"]
    assert greedy["mean_margin"] > 0 > random["mean_margin"]
    assert greedy["mean_margin"] == pytest.approx(-random["mean_margin"])  # two seats: opposite margins


def test_the_cli_runs_a_construction_yard_tournament(tmp_path):
    out = io.StringIO()
    main(["tournament", "--game", "construction_yard", "--agents", "greedy", "random", "search:4",
          "--games", "2", "--out", str(tmp_path), "--no-progress"], stdout=out)
    text = out.getvalue()
    assert "Row finished ahead of column" in text and "search:4" in text
    saved = json.loads((tmp_path / "tournament.json").read_text())
    assert saved["settings"]["game"] == "construction_yard" and len(saved["games"]) == 3 * 2
    assert saved["settings"]["command"].startswith("tiny-york tournament --game construction_yard --agents")
    assert saved["settings"]["version"] == __version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", saved["settings"]["played_on"])
    standings = {row["agent"]: row for row in saved["standings"]}
    assert standings["greedy"]["wins"] == 4 and standings["random"]["wins"] == 0


def test_a_tournament_refuses_bad_setups():
    from tiny_york_env.arena.tournament import run_game_tournament
    with pytest.raises(ValueError, match="multiple of the number of agent seats"):
        run_game_tournament("construction_yard", ["greedy", "random"], games=3)
    with pytest.raises(ValueError, match="needs at least 3 agents"):
        run_game_tournament("construction_yard", ["greedy", "random"], games=3, game_size=3)


def play(argv, typed):
    """Run ``tiny-york play`` with ``typed`` as the person's input; (exit status, output)."""
    out = io.StringIO()
    status = main(["play", *argv], stdin=io.StringIO(typed), stdout=out)
    return status, out.getvalue()


def test_a_person_plays_construction_yard_to_the_end():
    status, text = play(["--game", "construction_yard", "--vs", "greedy", "--seed", "3"],
                        "x\n0\n99\n" + "1\n" * 400)
    assert status == 0
    assert "is not a number" in text and "out of range" in text
    assert "hand:" in text and "seat 1 greedy: " in text  # the board with the person's hand, the bot's moves
    assert "Final scores: seat 0 you" in text and "Dirk:" in text


def test_a_construction_yard_player_sees_only_their_own_hand():
    _, text = play(["--game", "construction_yard", "--bots", "greedy", "--vs", "random", "--seed", "1",
                    "--seat", "1"], "q\n")
    assert text.count("hand:") == 1 and "You quit the game." in text
    board = text[text.index("seat 1:"):]
    assert board.splitlines()[1].strip().startswith("hand:")  # under seat 1's line: the person's own


@pytest.mark.parametrize("argv, message", [
    (["--game", "construction_yard", "--tom", "5"], "--tom does not apply to Construction Yard"),
    (["--bots", "greedy", "--tom", "5"], "--bots does not apply to Tiny York"),
    (["--game", "construction_yard", "--vs", "greedy", "--seat", "4"], "not an agent seat"),
])
def test_bad_play_setups_are_refused(argv, message, capsys):
    with pytest.raises(SystemExit):
        play(argv, "")
    assert message in capsys.readouterr().err
