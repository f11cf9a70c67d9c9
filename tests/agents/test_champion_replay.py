"""The champion's recorded games replay move for move: its strength is defined by playouts, not by
the clock, so the same seed gives the same game on any machine and under any load
(tests/playthroughs/champion, recorded by scripts/record_champion_games.py)."""

import json
from pathlib import Path

import pytest

from tiny_york_env.arena.ladder import evaluate_ladder
from tiny_york_env.arena.play import GameSaving
from tiny_york_env.saved_games import read_saved_game

RECORDED = Path(__file__).resolve().parents[1] / "playthroughs" / "champion"
ENTRIES = json.loads((RECORDED / "games.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_a_recorded_champion_game_replays_move_for_move(entry, tmp_path):
    """The harness plays the recorded game's seed again: every decision of every seat and the
    final scores are the recorded ones."""
    recorded = read_saved_game(RECORDED / entry["file"])
    results = evaluate_ladder("champion", [entry["rung"]], games=1, seed=entry["seed"],
                              first_game=entry["first_game"], progress=False,
                              saving=GameSaving(str(tmp_path), "all"), game=entry["game"], warm=False)
    (path,) = tmp_path.glob("*.jsonl")
    replayed = read_saved_game(path)
    assert (replayed.game, replayed.seed) == (recorded.game, recorded.seed)
    assert replayed.players == recorded.players
    pairs = zip(replayed.decisions, recorded.decisions, strict=False)  # lengths compared below
    first_difference = next((k for k, (a, b) in enumerate(pairs) if a != b), None)
    assert first_difference is None, f"decision {first_difference} differs from the recording"
    assert len(replayed.decisions) == len(recorded.decisions) > 0
    assert replayed.result["scores"] == recorded.result["scores"] == list(results.records[0].scores)
    assert results.settings["agent"] == "champion"


def test_the_champion_has_no_clock_in_its_definition():
    """ChampionAgent's defaults set playouts, not seconds: time_limit is None unless asked for."""
    from tiny_york_env.agents.registry import make_agent
    assert make_agent("champion", seed=0).time_limit is None
    assert make_agent("champion@0.5", seed=0).time_limit == 0.5
