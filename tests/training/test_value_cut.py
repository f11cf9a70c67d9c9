"""The value-head test's players (training/experiments/value_cut.py): one search with whole
playouts, the same search cut after some decisions."""

import json

from tiny_york_env.agents.policy_search import CHAMPION_MARGIN_WEIGHT, CHAMPION_SKIP_ABOVE, PolicySearchAgent
from tiny_york_env.agents.ppo_agent import CHAMPION_MODEL_PATH
from tiny_york_env.training.experiments.value_cut import SearchWithCut, main


def test_the_players_differ_only_in_the_cut():
    whole, cut = SearchWithCut(str(CHAMPION_MODEL_PATH), 32), SearchWithCut(str(CHAMPION_MODEL_PATH), 32, 10)
    assert whole.label == "psearch:32 on models/champion.zip, whole playouts"
    assert cut.label == "psearch:32 on models/champion.zip, value head after 10"
    agents = whole(1), cut(1)
    assert all(isinstance(agent, PolicySearchAgent) and agent.simulations == 32 for agent in agents)
    assert (agents[0].value_depth, agents[1].value_depth) == (None, 10)
    assert all((agent.skip_above, agent.margin_weight) == (CHAMPION_SKIP_ABOVE, CHAMPION_MARGIN_WEIGHT)
               for agent in agents)


def test_a_short_test_writes_its_file(tmp_path, capsys):
    out = tmp_path / "cut"
    main(["--simulations", "4", "--depth", "3", "--tom", "5", "--max-pairs", "2", "--out", str(out)])
    result = json.loads((out / "compare.json").read_text())
    assert result["kind"] == "compare" and result["result"]["pairs_played"] == 2
    assert "value head after 3" in json.dumps(result) and "whole playouts" in json.dumps(result)
    assert "--depth 3" in json.dumps(result)
