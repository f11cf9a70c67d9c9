"""Misuse of the env adapters gets a ValueError saying what was wrong and what is allowed, and
leaves the env as it was: calls before reset or after the end (AEC), bad Toms, reset options
and seeds (AEC, single, vector)."""

import re
import warnings

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

from tiny_york_env.envs.aec import env, raw_env
from tiny_york_env.envs.single import TinyYorkEnv
from tiny_york_env.envs.vector import TinyYorkVecEnv
from tiny_york_env.games.tiny_york import GameConfig, new_game
from tiny_york_env.games.tiny_york.api import SEED_LIMIT

BAD_SEEDS = [SEED_LIMIT, 2**70, -1, np.int64(-5), 1.5, "3", True]
SEED_WORDS = "seed must be a non-negative int below 2**63"


def _random_action(obs, rng):
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(legal.size)])


def _play_until_over(aec, rng):
    """Random legal actions until every agent is terminated (no dead steps yet)."""
    while not aec.terminations[aec.agent_selection]:
        aec.step(_random_action(aec.last()[0], rng))


def _aec_snapshot(aec):
    """Everything a refused call must leave alone."""
    return (aec.game_state.tobytes(), aec.agent_selection, list(aec.agents), dict(aec.rewards),
            dict(aec._cumulative_rewards), dict(aec.terminations))


# --- AEC: before reset ------------------------------------------------------------------------
@pytest.mark.parametrize("call", [lambda e: e.step(0), lambda e: e.observe("player_0"),
                                  lambda e: e.last(), lambda e: e.last(observe=False)],
                         ids=["step", "observe", "last", "last without observation"])
def test_aec_calls_before_reset_say_reset_first(call):
    """These were AttributeErrors about 'agent_selection' and '_batch'."""
    e = raw_env()
    with pytest.raises(ValueError, match=r"call reset\(\) before .*there is no game yet"):
        call(e)
    assert e.game_state is None
    e.reset(seed=1)  # and the env is fine afterwards
    assert e.agent_selection == "player_0"


def test_aec_observe_names_the_agents_for_an_unknown_one():
    e = raw_env(num_agents=3)
    e.reset(seed=2)
    before = _aec_snapshot(e)
    for bad in ("player_3", "player0", 0, None):
        with pytest.raises(ValueError) as err:
            e.observe(bad)
        assert repr(bad) in str(err.value) and "'player_0', 'player_1', 'player_2'" in str(err.value)
    assert _aec_snapshot(e) == before


# --- AEC: after the end -----------------------------------------------------------------------
def test_aec_step_after_every_dead_step_says_reset():
    """PettingZoo: after termination each agent steps None once (_was_dead_step); a step after
    that was a KeyError and is now a ValueError naming reset(); nothing changes."""
    e = raw_env(num_agents=3)
    e.reset(seed=3)
    _play_until_over(e, np.random.default_rng(3))
    with pytest.raises(ValueError, match="only valid action is None"):  # PettingZoo's own check
        e.step(0)
    for _ in range(3):
        e.step(None)
    assert e.agents == []
    state = e.game_state.tobytes()
    for action in (None, 0):
        with pytest.raises(ValueError, match=r"game is over and every agent has stepped None.*reset\(\)"):
            e.step(action)
    with pytest.raises(ValueError, match=r"game is over.*reset\(\)"):
        e.last()
    assert e.game_state.tobytes() == state and e.agents == []
    assert e.observe("player_1")["action_mask"].sum() == 0  # observing a finished game is fine
    e.reset(seed=3)
    assert e.agents == ["player_0", "player_1", "player_2"]


def test_aec_wrapped_env_keeps_pettingzoo_warning_after_the_end():
    """env() answers a step with no agents left with PettingZoo's warning, as before."""
    e = env()
    e.reset(seed=4)
    _play_until_over(e.unwrapped, np.random.default_rng(4))
    for _ in range(2):
        e.step(None)
    EnvLogger.flush()
    e.step(None)
    assert any("after all agents are terminated" in message for message in EnvLogger.mqueue)
    EnvLogger.flush()


# --- AEC: seeds and reset options ---------------------------------------------------------------
@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_aec_refuses_bad_seeds_and_changes_nothing(seed):
    """2**63 used to play seed 0's game; now only 0..2**63-1 are seeds."""
    with pytest.raises(ValueError, match=r"seed must be a non-negative int below 2\*\*63"):
        raw_env(seed=seed)
    e = raw_env(seed=7)
    with pytest.raises(ValueError, match=r"seed must be a non-negative int below 2\*\*63"):
        e.reset(seed=seed)
    assert e.game_state is None
    e.reset()  # the constructor's seed was not used up by the refused reset
    assert e.game_state.tobytes() == new_game(GameConfig(), 7).tobytes()
    before = _aec_snapshot(e)
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=seed)
    assert _aec_snapshot(e) == before


def test_aec_plays_the_largest_seed():
    e = raw_env()
    e.reset(seed=SEED_LIMIT - 1)
    assert e.game_state.tobytes() == new_game(GameConfig(), SEED_LIMIT - 1).tobytes()


@pytest.mark.parametrize("options", ["abc", 5, ["toms"], ("toms", (3,))])
def test_aec_refuses_reset_options_that_are_not_a_dict(options):
    e = raw_env()
    e.reset(seed=5)
    e.step(_random_action(e.last()[0], np.random.default_rng(5)))
    before = _aec_snapshot(e)
    with pytest.raises(ValueError, match="reset options must be None or a dict"):
        e.reset(seed=6, options=options)
    assert _aec_snapshot(e) == before


def test_aec_reset_options_change_nothing_and_only_setup_keywords_warn():
    """raw_env's game is fixed at construction: reset options are ignored. Keys naming a setup
    keyword are named in a warning; others (PettingZoo's api_test passes {'options': 1}) pass
    silently, as in PettingZoo's own envs."""
    plain, optioned = raw_env(num_agents=1, toms=(5,)), raw_env(num_agents=1, toms=(5,))
    plain.reset(seed=8)
    with pytest.warns(UserWarning, match=r"fixed at construction; ignoring the reset options "
                                         r"\['seat', 'toms'\]"):
        optioned.reset(seed=8, options={"toms": (3,), "seat": 1, "options": 1})
    assert optioned.game_state.tobytes() == plain.game_state.tobytes()
    assert optioned.config.toms == ("B4",)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        optioned.reset(seed=8, options={"options": 1})  # PettingZoo's api_test: no warning
        assert optioned.game_state.tobytes() == plain.game_state.tobytes()
        optioned.reset(seed=8, options={})
        optioned.reset(seed=8, options=None)


# --- single env ---------------------------------------------------------------------------------
@pytest.mark.parametrize("toms", [5, "B4", {3, 5}, (t for t in (5,))],
                         ids=["int", "str", "set", "generator"])
def test_single_env_refuses_toms_that_are_not_a_sequence(toms):
    """TinyYorkEnv(toms=5) was "TypeError: 'int' object is not iterable"."""
    with pytest.raises(ValueError, match=r"toms must be a sequence such as a tuple or list"):
        TinyYorkEnv(toms=toms)
    with pytest.raises(ValueError, match=r"toms must be a sequence such as a tuple or list"):
        TinyYorkVecEnv(2, toms=toms)
    with pytest.raises(ValueError, match=r"toms must be a sequence such as a tuple or list"):
        raw_env(num_agents=1, toms=toms)


def test_single_env_refuses_opponents_that_are_not_a_sequence():
    with pytest.raises(ValueError, match="opponents must be a sequence of agents"):
        TinyYorkEnv(opponents=5)


def _single_snapshot(env):
    return (env.state.tobytes(), env.game_seed, env.config, env.seat,
            env.np_random.bit_generator.state, env.action_masks().tobytes())


@pytest.mark.parametrize("options, words", [
    ({"toms": 5}, "toms must be a sequence"),
    ({"toms": {3, 5}}, "set has no fixed order"),
    ({"toms": (13,)}, "Tom level 13 is out of range"),
    ({"seat": 1}, "seat must be an agent seat 0..0"),
    ({"players": 2}, "unknown reset options ['players']; allowed: ['toms', 'seat']"),
    ("abc", "reset options must be None or a dict with keys from ['toms', 'seat'], got 'abc'"),
    ([("toms", (3,))], "reset options must be None or a dict"),
], ids=["toms int", "toms set", "bad Tom", "bad seat", "unknown key", "str", "list of pairs"])
def test_single_env_refuses_bad_reset_options_and_changes_nothing(options, words):
    env = TinyYorkEnv(toms=(5,))
    env.reset(seed=9)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    before = _single_snapshot(env)
    with pytest.raises(ValueError) as err:
        env.reset(options=options)
    assert words in str(err.value)
    assert _single_snapshot(env) == before
    # the seed chain goes on as if the refused reset had not happened
    after_refusal = env.reset()[0]
    fresh = TinyYorkEnv(toms=(5,))
    fresh.reset(seed=9)
    np.testing.assert_array_equal(after_refusal, fresh.reset()[0])


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_single_env_refuses_bad_seeds_and_changes_nothing(seed):
    env = TinyYorkEnv()
    env.reset(seed=10)
    before = _single_snapshot(env)
    with pytest.raises(ValueError) as err:
        env.reset(seed=seed)
    assert SEED_WORDS in str(err.value)
    assert _single_snapshot(env) == before


def test_single_env_plays_the_largest_seed():
    env = TinyYorkEnv()
    env.reset(seed=SEED_LIMIT - 1)
    assert env.game_seed == SEED_LIMIT - 1
    assert env.state.tobytes() == new_game(env.config, SEED_LIMIT - 1).tobytes()


# --- vector env ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_vec_env_refuses_bad_seeds_and_keeps_the_earlier_one(seed):
    """seed(-1) used to be accepted (and seed(2**63) to play seed 0's games)."""
    with pytest.raises(ValueError, match=r"seed must be a non-negative int below 2\*\*63"):
        TinyYorkVecEnv(3, seed=seed)
    vec = TinyYorkVecEnv(3, seed=11)
    with pytest.raises(ValueError) as err:
        vec.seed(seed)
    assert SEED_WORDS in str(err.value)
    vec.reset()  # the earlier seed() still holds
    assert vec.get_attr("game_seed") == [11, 12, 13]


def test_vec_env_seeds_near_the_top_wrap_like_the_seed_chain():
    """Seed s plays s + i mod 2**63 in game i, as next_seed's chain wraps: every valid seed works
    for every batch size and the games' seeds stay distinct."""
    vec = TinyYorkVecEnv(3)
    top = SEED_LIMIT - 1
    assert vec.seed(np.int64(top - 1)) == [top - 1, top, 0]
    vec.reset()
    assert vec.get_attr("game_seed") == [top - 1, top, 0]
    assert vec.game_state(1).tobytes() == new_game(GameConfig(1, (5,)), top).tobytes()
    assert vec.game_state(2).tobytes() == new_game(GameConfig(1, (5,)), 0).tobytes()


@pytest.mark.parametrize("name, options", [("construction_yard", {"bots": ("random",)}),
                                           ("fifth_avenue", {"num_players": 4})])
def test_aec_reset_options_naming_another_games_setup_keywords_warn(name, options):
    from tiny_york_env import make_aec
    env = make_aec(name).unwrapped
    with pytest.warns(UserWarning, match=re.escape(f"ignoring the reset options {list(options)}")):
        env.reset(seed=3, options=options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=3, options={"options": 1})
