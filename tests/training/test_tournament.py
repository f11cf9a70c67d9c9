"""The round robin: ranks, OpenSkill ratings, the win-rate matrix, files."""

import json

import numpy as np
import pytest

from tiny_york_env.arena.records import GameRecord
from tiny_york_env.arena.tournament import game_ranks, pairwise_matrix, run_tournament, write_tournament


class FirstLegalAgent:
    """Always the lowest legal action id (beats RandomAgent in practice)."""

    def __init__(self, seed=None):
        pass

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


class LastLegalAgent(FirstLegalAgent):
    """Always the highest legal action id: mostly passes and ends turns, so it scores little."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[-1])


def first_legal(seed):
    return FirstLegalAgent(seed)


def last_legal(seed):
    return LastLegalAgent(seed)


def test_game_ranks_put_the_engine_winner_first_and_share_ties():
    record = GameRecord(0, 0, 1, (0, 1, 2, 3), (40, 50, 50, 20), 2, 10, 1.0)
    assert game_ranks(record) == [3, 2, 1, 4]
    record = GameRecord(0, 0, 1, (0, 1, 2), (30, 30, 60), 2, 10, 1.0)
    assert game_ranks(record) == [2, 2, 1]


def test_pairwise_matrix_counts_finishing_ahead():
    records = [GameRecord(0, 0, 1, (0, 1, 2), (30, 30, 60), 2, 10, 1.0),
               GameRecord(0, 1, 1, (1, 2, 0), (50, 10, 40), 0, 10, 1.0)]
    matrix = pairwise_matrix(records, 3)
    # players 0 and 1: a tie at 30 (half each), then player 1's 50 beats player 0's 40
    assert matrix[0][1] == pytest.approx((0.5 + 0) / 2)
    assert matrix[1][0] == pytest.approx((0.5 + 1) / 2)
    assert matrix[2][0] == pytest.approx(0.5)
    assert matrix[1][1] is None


def test_a_clearly_weaker_agent_is_rated_last(tmp_path):
    results = run_tournament(["random", first_legal, last_legal], games=6, seed=0, progress=False)
    assert results.standings[-1].agent == "last_legal"
    assert results.standings[-1].rating < min(s.rating for s in results.standings[:-1])
    matrix = results.matrix
    for i in range(3):
        for j in range(3):
            if i != j:
                assert matrix[i][j] + matrix[j][i] == pytest.approx(1.0)
    assert all(s.games == 12 for s in results.standings)
    paths = write_tournament(results, tmp_path)
    assert [p.name for p in paths] == ["tournament.csv", "tournament_matrix.csv", "tournament.json"]
    assert json.loads(paths[2].read_text())["labels"] == ["random", "first_legal", "last_legal"]
    assert paths[1].read_text().splitlines()[0] == "agent,random,first_legal,last_legal"


def test_tournament_is_reproducible_with_workers_and_groups_of_three():
    serial = run_tournament(["random", first_legal, "random"], games=3, seed=4, game_size=3,
                            progress=False)
    parallel = run_tournament(["random", first_legal, "random"], games=3, seed=4, game_size=3,
                              workers=2, progress=False)
    assert serial.standings == parallel.standings
    assert [r.scores for r in serial.records] == [r.scores for r in parallel.records]
    assert [s.games for s in serial.standings] == [3, 3, 3]


def test_tournament_rejects_bad_sizes():
    with pytest.raises(ValueError, match="needs at least 3 agents"):
        run_tournament(["random", "random"], games=3, game_size=3, progress=False)
    with pytest.raises(ValueError, match="game_size 5 with toms \\[\\] is no setup of Tiny York"):
        run_tournament(["random", "random"], games=2, game_size=5, progress=False)


def test_ratings_do_not_depend_on_the_order_of_the_games():
    """OpenSkill rates game after game; rate_games averages seeded shuffled orders, so the same
    games in any order give the same ratings, and one order alone would differ."""
    from tiny_york_env.arena.records import GameRecord
    from tiny_york_env.arena.tournament import _rate_in_order, rate_games
    rng = np.random.default_rng(0)
    records = []
    for index in range(40):
        seating = tuple(int(p) for p in rng.permutation(3)[:2])
        scores = tuple(int(s) for s in rng.integers(50, 120, size=2))
        records.append(GameRecord(0, index, index, seating, scores, int(np.argmax(scores)), 10, 0.1))
    forward = rate_games(records, 3)
    backward = rate_games(records[::-1], 3)
    assert [(r.mu, r.sigma) for r in forward] == [(r.mu, r.sigma) for r in backward]
    from openskill.models import PlackettLuce
    one_way = _rate_in_order(PlackettLuce(), records, 3)
    other_way = _rate_in_order(PlackettLuce(), records[::-1], 3)
    assert [r.mu for r in one_way] != [r.mu for r in other_way]  # why the orders are averaged
