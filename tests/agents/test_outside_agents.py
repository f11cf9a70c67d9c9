"""Agents from outside the package: ``MODULE:ATTRIBUTE`` names and the entry-point group
``tiny_york_env.agents`` (agents/registry.py), in the registry, the seats of the terminal game and
the matches (agents/seats.py) and ``tiny-york eval``."""

import importlib.metadata
import io

import numpy as np
import pytest

from tiny_york_env.agents import registry
from tiny_york_env.agents.registry import check_player, offered_players
from tiny_york_env.agents.seats import seat_decider
from tiny_york_env.arena.match import evaluate_match
from tiny_york_env.cli import main
from tiny_york_env.registry import get_game

OUTSIDE = "tests.agents.outside_agent:LowestLegal"


def test_a_module_attribute_name_is_an_agent_of_every_game():
    assert registry.parse_agent_name(OUTSIDE) == (OUTSIDE, {})
    assert registry.normalize_agent_name(f" {OUTSIDE} ") == OUTSIDE  # the module path keeps its case
    agent = registry.make_agent("tests.agents.outside_agent:make_lowest", seed=7)
    assert agent.seed == 7 and agent.act(None, np.array([False, True, True])) == 1
    for name in ("tiny_york", "construction_yard", "fifth_avenue"):
        game = get_game(name)
        assert check_player(game, OUTSIDE) == OUTSIDE
        state = game.new_game(seed=2)
        policy = seat_decider(game, OUTSIDE, 0, None, np.random.default_rng(0))
        assert policy(state) == int(np.flatnonzero(game.legal_mask(state))[0])


def test_registered_names_are_not_taken_for_outside_agents():
    assert registry.parse_agent_name("search:64") == ("search", {"simulations": 64})
    assert registry.parse_agent_name("ppo:model")[0] == "ppo"  # a path, not a module
    assert not registry.is_external_name("ppo:model")


@pytest.mark.parametrize("name, words", [
    ("tests.agents.outside_agent:Missing", "has no Missing"),
    ("tests.agents.no_such_module:Agent", "cannot be imported"),
    ("not a module:Agent", "unknown agent"),
])
def test_bad_outside_names_say_what_is_wrong(name, words):
    with pytest.raises(ValueError, match=words):
        registry.make_agent(name, seed=0)


def test_an_installed_packages_agent_joins_by_its_entry_point(monkeypatch):
    point = importlib.metadata.EntryPoint("lowest", "tests.agents.outside_agent:LowestLegal",
                                          registry.ENTRY_POINT_GROUP)
    real = importlib.metadata.entry_points

    def entry_points(**kwargs):
        if kwargs.get("group") == registry.ENTRY_POINT_GROUP:
            return importlib.metadata.EntryPoints([point])
        return real(**kwargs)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    registry.installed_players.cache_clear()
    try:
        assert "lowest" in registry.installed_players()
        assert registry.normalize_agent_name("Lowest") == "lowest"
        agent = registry.make_agent("lowest", seed=1)
        assert agent.act(None, np.array([False, False, True])) == 2
        assert "lowest" in registry.agent_name_forms()
        assert "lowest" in registry.player_names(get_game("fifth_avenue"))  # it plays any game
    finally:
        registry.installed_players.cache_clear()


def test_eval_takes_an_outside_agent_for_every_game(tmp_path):
    out = io.StringIO()
    status = main(["eval", "--agent", OUTSIDE, "--levels", "1", "--games", "2", "--no-progress",
                   "--out", str(tmp_path / "ladder")], stdout=out)
    assert status == 0 and OUTSIDE in out.getvalue()
    results = evaluate_match("construction_yard", [OUTSIDE, "random"], games=2, seed=3)
    assert [row["agent"] for row in results["agents"]] == [OUTSIDE, "random"]
    assert sum(row["wins"] for row in results["agents"]) <= 2


def test_the_browser_board_offers_each_games_policies():
    assert offered_players(get_game("tiny_york")) == ("greedy", "random", "ppo", "champion", "psearch",
                                                      "search", "tomrules")
    assert offered_players(get_game("construction_yard")) == ("greedy", "random", "ppo", "champion",
                                                              "psearch", "gsearch", "search")
