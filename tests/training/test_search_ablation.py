"""The search ablation's cell names (training/search_ablation.py)."""

import pytest

from tiny_york_env.training.experiments.search_ablation import cell_options, markdown


def test_cell_names_give_the_search_options():
    assert cell_options("policy-prior-64") == {"playout": "policy", "prior": True, "simulations": 64}
    assert cell_options("random-blind-16") == {"playout": "random", "prior": False, "simulations": 16}
    assert cell_options("policy-prior-256-v10-s90") == {
        "playout": "policy", "prior": True, "simulations": 256, "value_depth": 10, "skip_above": 0.9}
    assert cell_options("policy-prior-256-s90-m100-w200") == {
        "playout": "policy", "prior": True, "simulations": 256, "skip_above": 0.9, "margin_weight": 1.0,
        "widening": 2.0}


@pytest.mark.parametrize("name, message", [
    ("policy-64", "bad cell"), ("greedy-prior-64", "bad cell"), ("policy-prior-0", "simulations"),
    ("random-prior-64-v10", "value_depth"), ("policy-blind-64-s90", "needs prior=True"),
    ("policy-prior-64-s150", "skip_above"), ("policy-prior-64-s0", "skip_above"),
    ("policy-prior-64-w0", "widening"), ("policy-prior-64-w100-m50", "bad cell"),
])
def test_bad_cells_are_refused_before_any_game(name, message):
    with pytest.raises(ValueError, match=message):
        cell_options(name)


def test_the_table_has_a_row_per_cell():
    rows = [{"cell": "ppo", "games": 40, "win_rate": 0.15, "ci_low": 0.07, "ci_high": 0.29,
             "mean_margin": -18.4, "ms_per_decision": 0.1}]
    table = markdown(rows, 12).splitlines()
    assert table[0].startswith("| cell (vs Tom 12)") and len(table) == 3
    assert "15.0% [7.0, 29.0]" in table[2] and "-18.4" in table[2]
