"""The opponent-model test's players (training/opponent_model.py): the shipped two-player champion,
and the same search told that its opponent plays greedy."""

import pytest

from tiny_york_env.agents.policy_search import ChampionAgent
from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.registry import get_game
from tiny_york_env.training.experiments.opponent_model import ModelledChampion


@pytest.mark.parametrize("game_name", ["construction_yard", "fifth_avenue"])
def test_the_players_are_the_champion_with_and_without_the_model(game_name):
    plain, modelled = ModelledChampion(game_name), ModelledChampion(game_name, "greedy")
    assert (plain.label, modelled.label) == ("champion", "champion, greedy opponents")
    assert plain.network == modelled.network == shipped_policy_path(get_game(game_name), 2)
    agents = plain(1), modelled(1)
    assert all(isinstance(agent, ChampionAgent) and agent.game.name == game_name for agent in agents)
    assert (agents[0].opponents, agents[1].opponents) == (None, "greedy")
    assert agents[0].network.source == agents[1].network.source == str(plain.network)
