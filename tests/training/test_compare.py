"""``tiny-york compare``: paired games decided by the SPRT, in resumable batches (training/compare.py)."""

import io
import json

import pytest

from tiny_york_env.arena.compare import RESULT_NAME, compare_agents, read_comparison, share
from tiny_york_env.arena.sprt import ACCEPT_H0, ACCEPT_H1, INCONCLUSIVE, SprtBounds, sprt_state
from tiny_york_env.cli import main

QUICK = {"delta1": 0.1, "batch": 10, "seed": 3}


def test_both_agents_meet_the_same_deals():
    """Game k of A and game k of B share the deal: two equal agents play equal games, so every
    difference is 0 and the test accepts H0 ("B is no better")."""
    comparison = compare_agents("random", "random", automatic=[1], max_pairs=200, **QUICK)
    assert [r.game_seed for r in comparison.a_games] == [r.game_seed for r in comparison.b_games]
    assert [r.scores for r in comparison.a_games] == [r.scores for r in comparison.b_games]
    assert set(comparison.differences()) == {0.0}
    assert comparison.state.decision == ACCEPT_H0 and comparison.counted < 200


def test_a_clearly_stronger_b_is_accepted_and_a_weaker_one_rejected():
    """greedy wins some games against Tom 1, random none: H1 with greedy as B, H0 with it as A,
    each well before the cap; the decision is the test's at the first deal that crosses a bound."""
    better = compare_agents("random", "greedy", automatic=[1], max_pairs=400, **QUICK)
    assert better.state.decision == ACCEPT_H1 and better.counted < 100
    differences = better.differences()
    assert sprt_state(differences[:better.counted], better.bounds, 400).decision == ACCEPT_H1
    assert sprt_state(differences[:better.counted - 1], better.bounds, 400).decision == "continue"
    worse = compare_agents("greedy", "random", automatic=[1], max_pairs=400, **QUICK)
    assert worse.state.decision == ACCEPT_H0
    result = better.to_dict()["result"]
    assert result["b_wins"] == sum(share(r) for r in better.b_games[:better.counted]) > result["a_wins"] == 0
    assert result["pairs"] == better.counted <= result["pairs_played"] == len(better.a_games)


def test_the_cap_ends_a_test_that_crosses_no_bound():
    comparison = compare_agents("random", "random", automatic=[1], max_pairs=4, **QUICK)
    assert comparison.state.decision == INCONCLUSIVE and comparison.counted == 4
    assert len(comparison.a_games) == 4  # the last batch plays only what the cap leaves


def test_agent_opponents_rotate_seats_and_pair_by_seat():
    """Against another agent the seats rotate deal by deal; A and B sit in the same seat of the
    same deal."""
    comparison = compare_agents("random", "greedy", game="construction_yard", opponents=["random"],
                                max_pairs=8, batch=4, delta1=0.1)
    seats = [r.seating.index(0) for r in comparison.a_games]
    assert seats == [0, 1] * 4 == [r.seating.index(0) for r in comparison.b_games]
    assert [r.game_seed for r in comparison.a_games] == [r.game_seed for r in comparison.b_games]
    with pytest.raises(ValueError, match="multiple of the agent seats"):
        compare_agents("random", "greedy", game="construction_yard", opponents=["random"], batch=3)


class Stop(Exception):
    """Raised by the report callback to break a run after a batch, as a killed run would stop."""


def test_a_stopped_test_resumes_where_it_was(tmp_path):
    """The file is written after every batch; --resume goes on to the same decision, deal for deal,
    as a run that was never stopped."""
    whole = compare_agents("random", "greedy", automatic=[3], max_pairs=400, **QUICK)

    def stop(comparison):
        raise Stop

    with pytest.raises(Stop):
        compare_agents("random", "greedy", automatic=[3], max_pairs=400, out=tmp_path, report=stop, **QUICK)
    assert len(read_comparison(tmp_path / RESULT_NAME).a_games) == QUICK["batch"]
    with pytest.raises(ValueError, match="exists: --resume"):
        compare_agents("random", "greedy", automatic=[3], max_pairs=400, out=tmp_path, **QUICK)
    with pytest.raises(ValueError, match="another test: its b is 'greedy', not 'search:2'"):
        compare_agents("random", "search:2", automatic=[3], max_pairs=400, out=tmp_path, resume=True, **QUICK)
    resumed = compare_agents("random", "greedy", automatic=[3], max_pairs=400, out=tmp_path, resume=True,
                             **QUICK)
    assert resumed.differences() == whole.differences()
    assert (resumed.state, resumed.counted) == (whole.state, whole.counted)
    assert read_comparison(tmp_path / RESULT_NAME).state == whole.state
    with pytest.raises(ValueError, match="nothing to resume"):
        compare_agents("random", "greedy", automatic=[3], out=tmp_path / "new", resume=True, **QUICK)


def test_bad_settings_and_files_are_refused(tmp_path):
    with pytest.raises(ValueError, match="delta1 must exceed delta0"):
        compare_agents("random", "greedy", automatic=[1], delta0=0.1, delta1=0.1)
    with pytest.raises(ValueError, match="max_pairs must be a positive int"):
        compare_agents("random", "greedy", automatic=[1], max_pairs=0)
    other = tmp_path / "ladder.json"
    other.write_text(json.dumps({"kind": "ladder", "cells": []}))
    with pytest.raises(ValueError, match="not a compare result file"):
        read_comparison(other)


def test_the_command_line(tmp_path):
    """``tiny-york compare A B --vs ...``: a Tom level is an automatic opponent, a line a batch,
    the decision and the file at the end."""
    out = io.StringIO()
    status = main(["compare", "random", "greedy", "--vs", "1", "--delta1", "0.1", "--batch", "10",
                   "--max-pairs", "400", "--seed", "3", "--out", str(tmp_path)], stdout=out)
    text = out.getvalue()
    assert status == 0 and "greedy against random: H1 after" in text and "LLR" in text
    data = json.loads((tmp_path / RESULT_NAME).read_text())
    assert data["settings"]["automatic"] == [1]
    assert data["settings"]["command"].startswith("tiny-york compare")
    assert data["result"]["decision"] == ACCEPT_H1
    bounds = SprtBounds.of(0.0, 0.1)
    assert (data["result"]["lower"], data["result"]["upper"]) == (bounds.lower, bounds.upper)


def test_the_command_line_names_what_an_opponent_may_be(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "random", "greedy", "--vs", "Tom13"])
    error = capsys.readouterr().err
    assert "neither one of Tiny York's toms" in error and "nor an agent" in error
