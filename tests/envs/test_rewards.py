"""End-of-game rewards (``envs/rewards.py``; README "Rewards"): "win", "rank" and "score",
worked out by hand.

``expected_rewards`` recomputes them from the final totals, the winner and the press order
read from the record (R2: higher space first, on one space the token on top first), without the
code under test; the env tests (AEC, single, vector) compare their rewards with it. The unit
tests below give ``final_rewards`` finished games whose totals, winner and press tokens are
written into the record, ties included, and check numbers written out by hand.
"""

import numpy as np
import pytest

from tiny_york_env.envs.rewards import (
    REWARD_KINDS,
    check_reward_kind,
    final_info,
    final_outcome,
    final_rewards,
)
from tiny_york_env.games.tiny_york import GameConfig, final_scores, new_game, winner
from tiny_york_env.games.tiny_york.contract import SCORE_SCALE as SCORE_MARGIN_SCALE
from tiny_york_env.games.tiny_york.state import DEC_GAME_OVER, SCORE_TRACK
from tiny_york_env.registry import get_game

MARGIN_SCALE = 50.0  # README: "score" is (own total - best other total) / 50


def press_order_by_hand(r):
    """The participants of record ``r`` in press order (R2, neutral excluded)."""
    n = int(r["num_seats"])
    return sorted(range(n), key=lambda s: (-int(r["press_space"][s]), -int(r["press_height"][s])))


def rewards_by_hand(totals, winning_seat, press_order, kind):
    """The README's reward table for final ``totals`` (one per participant, Toms included)."""
    n = len(totals)
    if kind == "win":
        return [1.0 if s == winning_seat else -1.0 / (n - 1) for s in range(n)]
    if kind == "rank":
        ranking = sorted(range(n), key=lambda s: (-totals[s], press_order.index(s)))
        return [1.0 - 2.0 * ranking.index(s) / (n - 1) for s in range(n)]
    assert kind == "score"
    return [(totals[s] - max(t for k, t in enumerate(totals) if k != s)) / MARGIN_SCALE for s in range(n)]


def expected_rewards(state, kind):
    """Every participant's reward for the finished ``state``, worked out by hand."""
    r = state.reshape(1)[0]
    totals = [int(x) for x in final_scores(state)]
    return rewards_by_hand(totals, winner(state), press_order_by_hand(r), kind)


def finished(num_agents, totals, winning_seat, press, toms=()):
    """A game marked finished with ``totals`` (all on the track line), ``winning_seat`` and
    press tokens ``press`` = [(space, height), ...], everything written into the record."""
    state = new_game(GameConfig(num_agents=num_agents, toms=toms), seed=0)
    r = state.reshape(1)[0]
    n = int(r["num_seats"])
    assert len(totals) == len(press) == n
    r["score_lines"][:] = 0
    r["score_lines"][:n, SCORE_TRACK] = totals
    r["winner"] = winning_seat
    for seat, (space, height) in enumerate(press):
        r["press_space"][seat] = space
        r["press_height"][seat] = height
    r["decision"] = DEC_GAME_OVER
    return state


def test_the_scale_is_the_documented_one():
    assert SCORE_MARGIN_SCALE == MARGIN_SCALE
    assert REWARD_KINDS == ("win", "rank", "score")
    with pytest.raises(ValueError, match="reward must be one of"):
        check_reward_kind("points")


def test_two_players():
    """Seat 1 wins 44 to 36: win +1/-1, rank +1/-1, score -8/50 and +8/50."""
    state = finished(2, [36, 44], 1, [(6, 3), (12, 4)])
    assert final_rewards(state, "win").tolist() == [-1.0, 1.0]
    assert final_rewards(state, "rank").tolist() == [-1.0, 1.0]
    assert final_rewards(state, "score") == pytest.approx([-0.16, 0.16])


def test_three_players_tie_for_second_place_goes_to_the_one_ahead_on_the_press_track():
    """Totals 40, 50, 40; seat 2 is ahead of seat 0 on the press track: rank 1st seat 1 (+1),
    2nd seat 2 (0), 3rd seat 0 (-1). Win: +1 for seat 1, -1/2 for the others."""
    state = finished(3, [40, 50, 40], 1, [(3, 5), (2, 4), (7, 6)])
    assert final_rewards(state, "win").tolist() == [-0.5, 1.0, -0.5]
    assert final_rewards(state, "rank").tolist() == [-1.0, 1.0, 0.0]
    assert final_rewards(state, "score") == pytest.approx([-0.2, 0.2, -0.2])


def test_tie_for_first_place_on_one_press_space_the_token_on_top_ranks_first():
    """Totals 50, 50, 20, 10; seats 0 and 1 share space 4, seat 1 on top (R2): seat 1 is the
    winner and ranks first (+1), seat 0 second (+1/3), then seat 2 (-1/3) and seat 3 (-1).
    Score: 0 for both leaders (the best other total is their own), -30/50 and -40/50."""
    state = finished(4, [50, 50, 20, 10], 1, [(4, 7), (4, 9), (9, 8), (1, 1)])
    assert final_rewards(state, "win") == pytest.approx([-1 / 3, 1.0, -1 / 3, -1 / 3])
    assert final_rewards(state, "rank") == pytest.approx([1 / 3, 1.0, -1 / 3, -1.0])
    assert final_rewards(state, "score") == pytest.approx([0.0, 0.0, -0.6, -0.8])


def test_everybody_tied_the_press_track_orders_everything():
    """All four on 30; press order 3, 1, 0, 2: rank +1, +1/3, -1/3, -1 in that order; score 0."""
    state = finished(4, [30, 30, 30, 30], 3, [(5, 1), (6, 1), (2, 1), (8, 1)])
    assert final_rewards(state, "rank") == pytest.approx([-1 / 3, 1 / 3, -1.0, 1.0])
    assert final_rewards(state, "score").tolist() == [0.0, 0.0, 0.0, 0.0]
    assert final_rewards(state, "win") == pytest.approx([-1 / 3, -1 / 3, -1 / 3, 1.0])


def test_toms_count_as_participants():
    """One agent and two Toms (P = 3): the agent, second on 35 behind a Tom's 41, gets rank 0,
    win -1/2 and score -6/50; the rewards cover all three participants."""
    state = finished(1, [35, 41, 12], 1, [(2, 1), (3, 2), (0, 3)], toms=(5, 12))
    assert final_rewards(state, "rank").tolist() == [0.0, 1.0, -1.0]
    assert final_rewards(state, "win").tolist() == [-0.5, 1.0, -0.5]
    assert final_rewards(state, "score") == pytest.approx([-0.12, 0.12, -0.58])


@pytest.mark.parametrize("kind", REWARD_KINDS)
@pytest.mark.parametrize("case", [
    (2, [36, 44], 1, [(6, 3), (12, 4)]),
    (3, [40, 50, 40], 1, [(3, 5), (2, 4), (7, 6)]),
    (4, [50, 50, 20, 10], 1, [(4, 7), (4, 9), (9, 8), (1, 1)]),
    (4, [30, 30, 30, 30], 3, [(5, 1), (6, 1), (2, 1), (8, 1)]),
    (3, [12, 61, 60], 1, [(15, -9), (15, -4), (0, 2)]),  # space 15: arrivals go underneath
])
def test_the_hand_computation_agrees_and_win_and_rank_sum_to_zero(kind, case):
    """``rewards_by_hand`` (used by the env tests) gives the same numbers; "win" and "rank" are
    zero-sum over the participants."""
    num_agents, totals, winning_seat, press = case
    state = finished(num_agents, totals, winning_seat, press)
    got = final_rewards(state, kind)
    assert got == pytest.approx(expected_rewards(state, kind))
    if kind != "score":
        assert got.sum() == pytest.approx(0.0)


@pytest.mark.parametrize("kind", REWARD_KINDS)
def test_the_batch_envs_outcome_is_the_rewards_and_the_info(kind):
    """``final_outcome`` (scores and winners read once, the batch envs' path) gives the same
    rewards as the hand computation and the same info as ``final_info``."""
    state = finished(3, [12, 61, 60], 1, [(15, -9), (15, -4), (0, 2)])
    rewards, info = final_outcome(state, kind)
    assert rewards == pytest.approx(expected_rewards(state, kind))
    expected_info = final_info(get_game("tiny_york"), state)
    assert info.keys() == expected_info.keys() == {"final_scores", "winner"}
    assert info["final_scores"].tolist() == expected_info["final_scores"].tolist() == [12, 61, 60]
    assert info["winner"] == expected_info["winner"] == 1


def test_no_rewards_before_the_end():
    """Rewards exist only for a finished game: final_scores refuses an unfinished one."""
    with pytest.raises(ValueError, match="not over"):
        final_rewards(new_game(GameConfig(num_agents=2), seed=0), "win")
    assert isinstance(final_rewards(finished(2, [1, 0], 0, [(0, 1), (0, 2)]), "win"), np.ndarray)
