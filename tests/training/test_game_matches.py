"""Matches through the game contract (``training/game_matches.py``, ``tiny-york eval --game``)."""

import io
import json

import pytest

from tiny_york_env.cli import main
from tiny_york_env.training.game_matches import evaluate_match


def test_wins_are_shared_out_and_the_greedy_bot_beats_random():
    results = evaluate_match("construction_yard", ["greedy", "random"], games=40, seed=3, num_players=2)
    rows = {r["agent"]: r for r in results["agents"]}
    assert rows["greedy"]["wins"] + rows["random"]["wins"] == 40
    assert rows["greedy"]["win_rate"] > 0.8 and rows["greedy"]["mean_score"] > rows["random"]["mean_score"]


def test_the_same_seed_gives_the_same_results():
    setup = {"games": 6, "seed": 1, "num_players": 3, "bots": ("greedy", "random")}
    assert evaluate_match("construction_yard", ["random"], **setup) == \
        evaluate_match("construction_yard", ["random"], **setup)


def test_bad_matches_are_refused_clearly():
    with pytest.raises(ValueError, match="has 1 agent seats but 2 agents"):
        evaluate_match("construction_yard", ["greedy", "random"], games=2, num_players=2, bots=("greedy",))
    with pytest.raises(ValueError, match="unknown policy 'ppo'"):
        evaluate_match("construction_yard", ["ppo", "random"], games=2, num_players=2)
    with pytest.raises(ValueError, match="has no greedy heuristic"):
        evaluate_match("tiny_york", ["greedy", "random"], games=2, num_agents=2)
    with pytest.raises(ValueError, match="unknown game"):
        evaluate_match("chess", ["random"], games=2)


def test_the_cli_runs_a_construction_yard_match(tmp_path):
    out = io.StringIO()
    main(["eval", "--game", "construction_yard", "--vs", "greedy", "random", "--games", "4",
          "--out", str(tmp_path), "--no-progress"], stdout=out)
    text = out.getvalue()
    assert "greedy" in text and "mean place" in text
    saved = json.loads((tmp_path / "construction_yard_match.json").read_text())
    assert saved["games"] == 4 and [r["agent"] for r in saved["agents"]] == ["greedy", "random"]
