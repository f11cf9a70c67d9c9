"""The clairvoyant measurement (training/information_value.py): it plans on the game itself, and its
table pairs its games with the ladder's on the same deals."""

import json

import numpy as np
import pytest

from tiny_york_env.arena.jobs import rotation_jobs
from tiny_york_env.arena.seeds import ladder_seed_keys
from tiny_york_env.games.tiny_york import GameConfig, apply_action, determinize, legal_mask, new_game
from tiny_york_env.training.experiments.information_value import clairvoyant_game, ladder_shares, paired_row


def test_the_clairvoyant_sees_what_the_seat_may_not():
    state = new_game(GameConfig(num_agents=1, toms=(12,)), seed=5)
    seen = clairvoyant_game("everything").determinize(state, 0, np.random.default_rng(1))
    assert seen.tobytes() == state.tobytes() and seen is not state
    assert determinize(state, 0, 1).tobytes() != state.tobytes()  # the seat's own view is redrawn
    with pytest.raises(ValueError, match="knows must be one of"):
        clairvoyant_game("the future")


def test_knowing_the_hands_keeps_them_and_redraws_what_nobody_has_seen():
    state = new_game(GameConfig(num_agents=1, toms=(12,)), seed=5)
    for _ in range(4):  # Tom has his supply
        apply_action(state, int(np.flatnonzero(legal_mask(state))[0]))
    before = state.copy()
    seat_view = determinize(state, 0, 1)
    assert not np.array_equal(seat_view["hand"][1], state["hand"][1])  # Tom's supply: hidden to seat 0
    told = [clairvoyant_game("hands").determinize(state, 0, np.random.default_rng(k)) for k in (1, 2)]
    count = int(state["draw_count"])
    for seen in told:
        for field in ("hand", "reserve", "discard", "draw_count"):
            assert np.array_equal(seen[field], state[field]), field
        assert sorted(seen["draw_pile"][:count]) == sorted(state["draw_pile"][:count])  # the same cards
    assert not np.array_equal(told[0]["draw_pile"][:count], told[1]["draw_pile"][:count])  # redrawn order
    assert state.tobytes() == before.tobytes()  # untouched


def test_its_games_are_the_ladders_and_pair_on_the_same_deals(tmp_path):
    jobs = rotation_jobs(0, (0,), 3, (12,), ladder_seed_keys(3, 12))
    ladder = {"kind": "ladder", "games": [
        {"game_seed": jobs[0].game_seed, "winners": [0]},
        {"game_seed": jobs[1].game_seed, "winners": [1]},
        {"game_seed": jobs[2].game_seed, "winners": [0, 1]},  # a shared win: half
        {"game_seed": 1, "winners": [0]}]}  # a deal the clairvoyant did not play
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(ladder))
    shares = ladder_shares(path)
    assert shares[jobs[2].game_seed] == 0.5
    games = [{"game_seed": job.game_seed, "share": share, "margin": margin, "seconds": 2.0}
             for job, share, margin in zip(jobs, (1.0, 1.0, 0.0), (4, 2, -3), strict=True)]
    row = paired_row(12, "everything", games, shares)
    assert row[0] == "Tom 12" and row[2:4] == ["3", "50.0% [12.5, 87.5]"]  # 1.5 wins of 3 (Wilson)
    assert row[5].startswith("+16.7 [")  # (0 + 1 - 0.5) / 3 points a deal more
    assert row[6] == "+1.0"
    with pytest.raises(ValueError, match="none of the games knowing hands at Tom 12"):
        paired_row(12, "hands", [{"game_seed": 2, "share": 1.0, "margin": 0, "seconds": 1.0}], shares)
    path.write_text(json.dumps({"kind": "match"}))
    with pytest.raises(ValueError, match="not a ladder result file"):
        ladder_shares(path)
