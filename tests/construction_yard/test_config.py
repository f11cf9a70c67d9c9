"""Construction Yard's ``GameConfig``: defaults, the seats it gives (agents first, bots last,
Dirk with two players), and clear ValueErrors for every bad config, seed or state argument."""

import dataclasses

import numpy as np
import pytest

from tiny_york_env.games.construction_yard import GameConfig, new_game, new_games
from tiny_york_env.games.construction_yard.data import MAX_PLAYERS, MIN_PLAYERS
from tiny_york_env.games.construction_yard.state import BOT_GREEDY, BOT_NONE, BOT_RANDOM


def test_defaults_are_two_agents_with_dirk():
    config = GameConfig()
    assert (config.num_players, config.bots, config.num_agents, config.has_dirk) == (2, (), 2, True)


@pytest.mark.parametrize("n", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_dirk_joins_only_two_player_games(n):
    assert GameConfig(num_players=n).has_dirk == (n == 2)
    rec = new_game(GameConfig(num_players=n), seed=n)
    assert bool(rec["has_dirk"]) == (n == 2)
    assert int(rec["num_players"]) == n


def test_bots_take_the_last_seats_in_order():
    config = GameConfig(num_players=5, bots=["greedy", "random"])
    assert config.bots == ("greedy", "random")  # kept as a tuple
    assert config.num_agents == 3
    assert config.bot_kinds() == (BOT_NONE,) * 3 + (BOT_GREEDY, BOT_RANDOM)
    rec = new_game(config, seed=1)
    assert int(rec["num_agents"]) == 3
    assert list(rec["bot_kind"][:5]) == [BOT_NONE, BOT_NONE, BOT_NONE, BOT_GREEDY, BOT_RANDOM]


def test_numpy_ints_are_accepted_and_stored_as_int():
    config = GameConfig(num_players=np.int64(4))
    assert type(config.num_players) is int and config.num_players == 4


@pytest.mark.parametrize("n", [0, 1, MAX_PLAYERS + 1, -2, 2.0, True, "3", None])
def test_bad_player_counts_are_refused(n):
    with pytest.raises(ValueError, match=f"num_players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}"):
        GameConfig(num_players=n)


@pytest.mark.parametrize("bots, words", [
    ("random", "sequence"),  # a string is not a list of bots
    ({"random"}, "sequence"),  # a set has no seat order
    (3, "sequence"),
    (("clever",), "unknown bot 'clever'"),
    (("Random",), "unknown bot"),
    ((None,), "unknown bot"),
    (("random", "greedy"), "no agent seat"),  # two players, two bots
])
def test_bad_bots_are_refused(bots, words):
    with pytest.raises(ValueError, match=words):
        GameConfig(num_players=2, bots=bots)


def test_at_most_num_players_minus_one_bots():
    assert GameConfig(num_players=6, bots=("random",) * 5).num_agents == 1
    with pytest.raises(ValueError, match="at most 5 bots"):
        GameConfig(num_players=6, bots=("random",) * 6)


def test_config_is_frozen():
    config = GameConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.num_players = 3


@pytest.mark.parametrize("config", [3, "2 players", {"num_players": 2}])
def test_new_game_refuses_what_is_not_a_config(config):
    with pytest.raises(ValueError, match="GameConfig"):
        new_game(config, seed=0)


@pytest.mark.parametrize("seed", [-1, 2 ** 63, 1.5, True, "7"])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        new_game(GameConfig(), seed=seed)
    with pytest.raises(ValueError, match="seed"):
        new_games(GameConfig(), [0, seed])


def test_largest_seed_and_none_are_accepted():
    assert new_game(GameConfig(), seed=2 ** 63 - 1).dtype == new_game(GameConfig(), seed=None).dtype
