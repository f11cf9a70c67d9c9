"""The arena (``tiny_york_env.arena``): seeding, seat rotation, statistics, output files, agent
errors; and the one table of players it makes them from (``agents/registry.py``)."""

import csv
import json

import numpy as np
import pytest

from tiny_york_env.agents.random_agent import RandomAgent
from tiny_york_env.agents.registry import (
    PLAYERS,
    make_agent,
    normalize_agent_name,
    parse_agent_name,
    player_names,
    player_table,
)
from tiny_york_env.arena.intervals import wilson_interval
from tiny_york_env.arena.jobs import rotation_jobs
from tiny_york_env.arena.labels import agent_label
from tiny_york_env.arena.ladder import evaluate_vs_toms
from tiny_york_env.arena.match import evaluate_vs_agents
from tiny_york_env.arena.records import CellResult, EvalResults, GameRecord, cell_result, combine_results
from tiny_york_env.arena.result_files import plot_ladder, write_results
from tiny_york_env.arena.seeds import derive_seed
from tiny_york_env.arena.tables import format_table
from tiny_york_env.registry import game_names, get_game

PNG_MAGIC = b"\x89PNG"


class FirstLegalAgent:
    """Always the lowest legal action id."""

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


class IllegalAgent(FirstLegalAgent):
    """Always the lowest illegal action id."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(~np.asarray(action_mask, dtype=bool))[0])


class PlanningAgent(FirstLegalAgent):
    """A planning agent: ``choose_action`` must hand it a view of the game, never the observation."""

    calls = 0

    def act(self, observation, action_mask):
        raise AssertionError("a planning agent must be asked through act_state")

    def act_state(self, view, seat):
        from tiny_york_env.games.tiny_york import legal_actions
        PlanningAgent.calls += 1
        return int(legal_actions(view)[0])


def first_legal(seed):
    return FirstLegalAgent(seed)


# ---------------------------------------------------------------- Wilson interval

@pytest.mark.parametrize("wins, games, low, high", [
    (0, 10, 0.0, 0.2775),      # hand: centre = half = (z^2/20) / (1 + z^2/10) = 0.1388
    (5, 10, 0.2366, 0.7634),   # hand: 0.5 -+ 1.96 * sqrt(0.025 + 0.0096) / 1.3842
    (10, 10, 0.7225, 1.0),
])
def test_wilson_interval_matches_hand_computed_values(wins, games, low, high):
    got_low, got_high = wilson_interval(wins, games)
    assert got_low == pytest.approx(low, abs=1e-4)
    assert got_high == pytest.approx(high, abs=1e-4)


@pytest.mark.parametrize("wins, games", [(0, 0), (-1, 5), (6, 5)])
def test_wilson_interval_rejects_impossible_counts(wins, games):
    with pytest.raises(ValueError, match="wins <= games"):
        wilson_interval(wins, games)


# ---------------------------------------------------------------- registry

def test_registry_names_and_budget():
    """One table: the players of every game, then each game's own from its record."""
    assert set(PLAYERS) == {"random", "search", "gsearch", "psearch", "champion", "ppo", "rllib"}
    own = {name: {entry.name for entry in get_game(name).players} for name in game_names()}
    assert own["tiny_york"] == {"tomrules", "greedy"}
    assert own["construction_yard"] == own["fifth_avenue"] == {"greedy"}
    every_record = {entry.name for name in game_names() for entry in get_game(name).players}
    assert set(player_table()) == set(PLAYERS) | every_record  # the plug-in's lowbid included
    assert set(player_table(get_game("tiny_york"))) == set(PLAYERS) | {"tomrules", "greedy"}
    assert "tomrules" in player_names(get_game("tiny_york"))
    assert "tomrules" not in player_names(get_game("construction_yard"))
    assert "gsearch" not in player_names(get_game("tiny_york"))  # no compiled greedy heuristic
    assert parse_agent_name("search:64") == ("search", {"simulations": 64})
    assert isinstance(make_agent("random", seed=3), RandomAgent)


@pytest.mark.parametrize("name, message", [
    ("bogus", "unknown agent 'bogus'; known agents: champion, greedy, gsearch, (lowbid, )?ppo, psearch, "
              "random, rllib, search, tomrules, or MODULE:ATTRIBUTE"),
    ("random:5", "takes no budget"),
    ("search:x", "positive int"),
    ("search:0", "positive int"),
])
def test_registry_rejects_bad_names(name, message):
    with pytest.raises(ValueError, match=message):
        make_agent(name)


@pytest.mark.parametrize("typed, options, label", [
    ("champion@0.5", {"time_limit": 0.5}, "champion@0.5"),
    ("Champion@2.0", {"time_limit": 2.0}, "champion@2"),
    ("champion@ NONE", {"time_limit": None}, "champion"),  # the champion has no limit of its own
    ("champion@1.0", {"time_limit": 1.0}, "champion@1"),
    ("psearch@none", {"time_limit": None}, "psearch"),  # psearch has none
    ("psearch:64@1e6", {"simulations": 64, "time_limit": 1e6}, "psearch:64@1000000"),
    ("champion:runs/g@1/policy.zip@3", {"network": "runs/g@1/policy.zip", "time_limit": 3.0},
     "champion:runs/g@1/policy.zip@3"),
    ("ppo:runs/a@2", {"path_or_model": "runs/a@2"}, "ppo:runs/a@2"),  # an '@' in a path, not a limit
])
def test_a_search_agent_name_may_end_in_a_time_limit(typed, options, label):
    """'NAME@S' sets the seconds a decision (or none) and stays in the label, one spelling per
    value, so results of different limits never pass for one agent's."""
    assert parse_agent_name(typed) == (typed.partition(":")[0].partition("@")[0].strip().lower(), options)
    assert normalize_agent_name(typed) == label == agent_label(typed)


@pytest.mark.parametrize("name, message", [
    ("greedy@2", "agent 'greedy' takes no time limit .* only psearch, champion do"),
    ("search:8@2", "agent 'search' takes no time limit"),
    ("champion@0", "bad time limit in 'champion@0': .*a number > 0"),
    ("champion@-1", "bad time limit"),
    ("champion@inf", "bad time limit"),
    ("champion@nan", "bad time limit"),
    ("champion@soon", "or 'none'"),
    ("psearch:0@1", "positive int"),
])
def test_bad_time_limits_are_refused(name, message):
    with pytest.raises(ValueError, match=message):
        make_agent(name)


# ---------------------------------------------------------------- the ladder

def test_ladder_is_reproducible_and_independent_of_workers():
    one = evaluate_vs_toms("random", levels=[1, 12], games=3, seed=5, progress=False)
    again = evaluate_vs_toms("random", levels=[1, 12], games=3, seed=5, progress=False)
    parallel = evaluate_vs_toms("random", levels=[1, 12], games=3, seed=5, workers=2, progress=False)
    assert one.outcomes() == again.outcomes() == parallel.outcomes()
    assert [r.scores for r in one.records] == [r.scores for r in parallel.records]
    other_seed = evaluate_vs_toms("random", levels=[1, 12], games=3, seed=6, progress=False)
    assert [r.game_seed for r in other_seed.records] != [r.game_seed for r in one.records]


def test_ladder_cell_does_not_depend_on_the_other_levels():
    both = evaluate_vs_toms(first_legal, levels=[2, 7], games=2, seed=1, progress=False)
    alone = evaluate_vs_toms(first_legal, levels=[7], games=2, seed=1, progress=False)
    assert alone.outcomes()[0] == both.outcomes()[1]


def test_ladder_cells_count_wins_scores_and_margins():
    results = evaluate_vs_toms("random", levels=[3], games=4, seed=2, progress=False)
    (cell,) = results.cells
    records = results.records
    assert (cell.agent, cell.opponents, cell.level, cell.games) == ("random", "Tom 3 (C2)", 3, 4)
    assert cell.wins == sum(r.winner == 0 for r in records)
    assert cell.mean_score == pytest.approx(np.mean([r.scores[0] for r in records]))
    assert cell.mean_margin == pytest.approx(np.mean([r.scores[0] - r.scores[1] for r in records]))
    assert (cell.ci_low, cell.ci_high) == pytest.approx(wilson_interval(cell.wins, 4))
    assert cell.seconds_per_game > 0
    assert "Tom 3 (C2)" in format_table(results)


def test_ladder_rejects_bad_levels_games_and_agents():
    with pytest.raises(ValueError, match="levels must be Tom levels 1-12"):
        evaluate_vs_toms("random", levels=[0], games=1, progress=False)
    with pytest.raises(ValueError, match="games must be a positive int"):
        evaluate_vs_toms("random", levels=[1], games=0, progress=False)
    with pytest.raises(ValueError, match="known agents"):
        evaluate_vs_toms("nobody", levels=[1], games=1, progress=False)


def test_planning_agents_are_played_through_choose_action():
    PlanningAgent.calls = 0
    results = evaluate_vs_toms(PlanningAgent, levels=[1], games=1, progress=False)
    assert PlanningAgent.calls >= results.records[0].decisions > 0  # plus an untimed warm-up game


def test_an_illegal_action_names_agent_seat_and_seed():
    with pytest.raises(ValueError, match=r"agent 'IllegalAgent' in seat 0 .* game with seed \d+"):
        evaluate_vs_toms(IllegalAgent, levels=[1], games=1, progress=False)


# ---------------------------------------------------------------- agents against agents

def test_rotation_seats_every_player_in_every_seat_equally_and_shares_deals():
    jobs = rotation_jobs(0, (0, 1, 2), 6, (), (9,))
    counts = np.zeros((3, 3), dtype=int)
    for job in jobs:
        for seat, player in enumerate(job.seating):
            counts[player, seat] += 1
    assert (counts == 2).all()
    assert len({job.game_seed for job in jobs}) == 2
    assert len({job.agent_seeds for job in jobs}) == 6
    with pytest.raises(ValueError, match="multiple of the number of agent seats \\(3\\).*use 6 or 9"):
        rotation_jobs(0, (0, 1, 2), 7, (), (9,))


def test_match_results_and_reproducibility():
    results = evaluate_vs_agents(["random", first_legal], games=4, seed=3, progress=False)
    assert [c.agent for c in results.cells] == ["random", "first_legal"]
    assert sum(c.wins for c in results.cells) == 4
    assert all(c.games == 4 for c in results.cells)
    parallel = evaluate_vs_agents(["random", first_legal], games=4, seed=3, workers=2, progress=False)
    assert parallel.outcomes() == results.outcomes()


def test_match_with_a_tom_and_repeated_names():
    results = evaluate_vs_agents(["random", "random"], games=2, seed=0, toms=(5,), progress=False)
    assert [c.agent for c in results.cells] == ["random", "random#2"]
    assert all(len(r.scores) == 3 for r in results.records)
    with pytest.raises(ValueError, match="2-4 participants"):
        evaluate_vs_agents(["random"], games=2, progress=False)


def test_cell_result_margin_is_against_the_best_other():
    records = [GameRecord(0, 0, 1, (0, 1), (30, 20, 40), 2, 10, 1.0),
               GameRecord(0, 1, 1, (1, 0), (25, 35, 10), 1, 10, 3.0)]
    cell = cell_result(records, 0, "a", "b")
    assert (cell.games, cell.wins) == (2, 1)
    assert cell.mean_score == pytest.approx((30 + 35) / 2)
    assert cell.mean_margin == pytest.approx(((30 - 40) + (35 - 25)) / 2)
    assert cell.seconds_per_game == pytest.approx(2.0)


def test_derive_seed_is_stable_and_bounded():
    assert derive_seed(1, 2, 3) == derive_seed(1, 2, 3) != derive_seed(1, 2, 4)
    assert 0 <= derive_seed(0) < 2 ** 63


@pytest.mark.parametrize("games", [3, 10, 500, 1000])
def test_wilson_interval_is_exact_at_no_wins_and_all_wins(games):
    assert wilson_interval(0, games)[0] == 0.0
    assert wilson_interval(games, games)[1] == 1.0


# ---------------------------------------------------------------- output files

def test_plot_accepts_cells_with_no_wins_and_all_wins(tmp_path):
    cells = []
    for level, wins in ((1, 0), (2, 500), (3, 7)):
        low, high = wilson_interval(wins, 500)
        cells.append(CellResult("x", f"Tom {level}", level, 500, wins, wins / 500, low, high,
                                mean_score=50.0, mean_margin=0.0, seconds_per_game=0.01))
    path = tmp_path / "ladder.png"
    plot_ladder(EvalResults("ladder", cells), path)
    assert path.read_bytes()[:4] == PNG_MAGIC


def test_write_results_writes_csv_json_and_png(tmp_path):
    ladder = combine_results([
        evaluate_vs_toms("random", levels=[1, 2], games=1, progress=False),
        evaluate_vs_toms(first_legal, levels=[1, 2], games=1, progress=False)])
    paths = write_results(ladder, tmp_path / "out")
    assert [p.name for p in paths] == ["ladder.csv", "ladder.json", "ladder.png"]
    with open(paths[0]) as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["agent"], r["level"]) for r in rows] == [
        ("random", "1"), ("random", "2"), ("first_legal", "1"), ("first_legal", "2")]
    data = json.loads(paths[1].read_text())
    assert len(data["cells"]) == 4 and len(data["games"]) == 4
    assert paths[2].read_bytes()[:4] == PNG_MAGIC
    match = evaluate_vs_agents(["random", "random"], games=2, progress=False)
    assert [p.suffix for p in write_results(match, tmp_path)] == [".csv", ".json"]
