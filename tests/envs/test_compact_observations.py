"""Compact observations (``obs_dtype="uint8"``): every env of every built-in game gives the bytes
of the float32 observation it gives by default, the float one comes back from them within the
stated steps, the spaces hold every observation and the checkers pass (docs/compact-observations.md)."""

import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test

import tiny_york_env
from tiny_york_env.core.compact import INTEGRAL_TOLERANCE, compact_steps, quantize
from tiny_york_env.envs.aec import make_aec, make_raw_aec
from tiny_york_env.envs.compact import (
    compact_observation,
    compact_observation_space,
    compact_table_markdown,
    decode_observation,
    sparse_observation,
)
from tiny_york_env.envs.vector import vec_env_class
from tiny_york_env.registry import BUILTIN_GAMES, get_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(BUILTIN_GAMES)  # the plug-in test game has no compact form (a test below)
PLUGIN_GAME = "sealed_bids"
NUM_ENVS = 4
STEPS = 250
FLOAT_SLACK = 1e-6  # float32 rounding of a whole quantity over its denominator


def legal_actions(masks, rng):
    """A random legal action per game (0 for a game with none)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks], np.int64)


def assert_same_information(game, floats, compact):
    """``compact`` is ``floats``' bytes, and ``floats`` comes back from it within half a step."""
    assert compact.dtype == np.uint8 and compact.shape == floats.shape
    np.testing.assert_array_equal(compact_observation(game, floats), compact)
    steps = compact_steps(game.obs_denominators, game.obs_quanta)
    tolerance = np.where(steps > 1, 0.5 * steps / game.obs_denominators, 0.0) + FLOAT_SLACK
    assert (np.abs(decode_observation(game, compact) - floats) <= tolerance).all()


@pytest.mark.parametrize("name", GAMES)
def test_every_entry_is_a_whole_quantity_within_a_byte(name):
    """The stated denominators are right: over random games of every example setup and every
    seat, each float entry times its denominator is a whole number, and within the bytes."""
    game = get_game(name)
    space = compact_observation_space(game)
    rng = np.random.default_rng(7)
    for setup in game.example_setups:
        config = game.make_config(**setup)
        state = game.new_game(config, seed=int(rng.integers(1 << 30)))
        while not game.is_terminal(state):
            for seat in range(game.num_agents(config)):
                quantity = game.encode(state, seat).astype(np.float64) * game.obs_denominators
                assert np.abs(quantity - np.rint(quantity)).max() < INTEGRAL_TOLERANCE
                assert space.contains(compact_observation(game, game.encode(state, seat)))
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))


@pytest.mark.parametrize("name", GAMES)
def test_the_vector_env_gives_the_float_envs_bytes_game_for_game(name):
    """``gym.make_vec(..., obs_dtype="uint8")`` on one thread and on two equals the float32 env's
    observations quantised, and ``SyncVectorEnv`` over compact single envs, step for step (games
    that end and restart included)."""
    game = get_game(name)
    floats = gym.make_vec(game.env_id, NUM_ENVS)
    compact = gym.make_vec(game.env_id, NUM_ENVS, obs_dtype="uint8")
    threaded = gym.make_vec(game.env_id, 2 * NUM_ENVS, obs_dtype="uint8", num_threads=2)
    sync = gym.make_vec(game.env_id, NUM_ENVS, vectorization_mode="sync", obs_dtype="uint8")
    assert compact.single_observation_space == compact_observation_space(game)
    obs, _ = floats.reset(seed=11)
    outs = [env.reset(seed=11)[0] for env in (compact, sync)]
    seeds = [11 + i for i in range(NUM_ENVS)]  # SyncVectorEnv's seeds for seed=11
    wide, _ = threaded.reset(seed=seeds + seeds)  # each game twice, one copy on each thread
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(STEPS):
        for out in (*outs, wide[:NUM_ENVS], wide[NUM_ENVS:]):
            assert_same_information(game, obs, out)
        assert compact.observation_space.contains(outs[0])
        actions = legal_actions(floats.unwrapped.action_masks(), rng)
        obs, _, terminated, _, _ = floats.step(actions)
        outs = [env.step(actions)[0] for env in (compact, sync)]
        wide = threaded.step(np.concatenate([actions, actions]))[0]
        ended += int(terminated.sum())
    assert ended > 0


@pytest.mark.parametrize("name", GAMES)
def test_same_step_autoreset_gives_the_final_observations_bytes(name):
    """With ``SAME_STEP`` the compact env's ``final_obs`` are the float env's, quantised (the
    compact env on two threads)."""
    game = get_game(name)
    floats = gym.make_vec(game.env_id, NUM_ENVS, autoreset_mode="SameStep")
    compact = gym.make_vec(game.env_id, NUM_ENVS, autoreset_mode="SameStep", obs_dtype="uint8",
                           num_threads=2)
    obs, _ = floats.reset(seed=21)
    out, _ = compact.reset(seed=21)
    rng = np.random.default_rng(21)
    ended = 0
    for _ in range(STEPS):
        assert_same_information(game, obs, out)
        actions = legal_actions(floats.unwrapped.action_masks(), rng)
        obs, _, terminated, _, infos = floats.step(actions)
        out, _, _, _, compact_infos = compact.step(actions)
        for i in np.flatnonzero(terminated):
            assert_same_information(game, infos["final_obs"][i], compact_infos["final_obs"][i])
            ended += 1
    assert ended > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_sb3_vec_env_and_its_terminal_observations(name):
    """The SB3 VecEnv with ``obs_dtype="uint8"`` (on two threads): the float env's observations
    and terminal observations, quantised."""
    game = get_game(name)
    cls = vec_env_class(game)
    floats, compact = cls(NUM_ENVS, seed=5), cls(NUM_ENVS, seed=5, obs_dtype="uint8", num_threads=2)
    assert compact.observation_space == compact_observation_space(game)
    obs, out = floats.reset(), compact.reset()
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(STEPS):
        assert_same_information(game, obs, out)
        actions = legal_actions(floats.action_masks(), rng)
        obs, _, dones, infos = floats.step(actions)
        out, _, _, compact_infos = compact.step(actions)
        for i in np.flatnonzero(dones):
            assert_same_information(game, infos[i]["terminal_observation"],
                                    compact_infos[i]["terminal_observation"])
            ended += 1
    assert ended > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_aec_env_observes_compactly_and_passes_api_test(name):
    """Every agent's compact observation is its float one's bytes, in its space; PettingZoo's
    api_test passes."""
    game = get_game(name)
    setup = next(s for s in game.example_setups if game.num_agents(game.make_config(**s)) > 1)
    floats, compact = make_raw_aec(name, **setup), make_raw_aec(name, obs_dtype="uint8", **setup)
    floats.reset(seed=2)
    compact.reset(seed=2)
    rng = np.random.default_rng(2)
    while floats.agents:
        for agent in floats.agents:
            out = compact.observe(agent)
            assert compact.observation_space(agent).contains(out)
            assert_same_information(game, floats.observe(agent)["observation"], out["observation"])
        mask = floats.observe(floats.agent_selection)["action_mask"]
        action = None if not mask.any() else int(rng.choice(np.flatnonzero(mask)))
        floats.step(action)
        compact.step(action)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make_aec(name, obs_dtype="uint8", **setup), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_and_the_single_env(name):
    """The single env with ``obs_dtype="uint8"`` passes Gymnasium's checker and observes the float
    env's bytes over a whole game."""
    game = get_game(name)
    env = gym.make(game.env_id, obs_dtype="uint8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker's documented illegal-action warning
        gym_check_env(env.unwrapped, skip_render_check=True)
    floats = gym.make(game.env_id)
    obs, info = floats.reset(seed=9)
    out, _ = env.reset(seed=9)
    rng = np.random.default_rng(9)
    done = False
    while not done:
        assert_same_information(game, obs, out)
        assert env.observation_space.contains(out)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, done, _, info = floats.step(action)
        out, *_ = env.step(action)
    assert_same_information(game, obs, out)


def test_stable_baselines3_check_env_and_learning_on_compact_observations():
    """SB3's checker passes and MaskablePPO learns a few steps on compact observations; the
    project's policy loader refuses the model it makes."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    from tiny_york_env.agents.ppo_agent import check_model_spaces

    env = gym.make("TinyYork-v0", obs_dtype="uint8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_check_env(env.unwrapped)
    model = MaskablePPO("MlpPolicy", vec_env_class("tiny_york")(2, seed=1, obs_dtype="uint8"),
                        n_steps=16, batch_size=16, n_epochs=1, seed=1)
    model.learn(32)
    assert model.num_timesteps >= 32
    with pytest.raises(ValueError, match="trained on compact"):  # the project's agents play floats
        check_model_spaces(model, game="tiny_york")


def test_construction_yards_scores_are_kept_in_steps_of_two_points():
    """The one entry whose quantity needs more than a byte (scores to 400) is stored in steps of
    two points and decodes within one point."""
    game = get_game("construction_yard")
    steps = compact_steps(game.obs_denominators, game.obs_quanta)
    scores = game.obs_slices["scores"]
    assert set(steps[scores]) == {2} and (np.delete(steps, np.r_[scores]) == 1).all()
    floats = np.zeros(game.obs_size, np.float32)
    floats[scores.start] = 333 / 400
    back = decode_observation(game, compact_observation(game, floats))[scores.start] * 400
    assert abs(back - 333) <= 1


def test_bad_dtypes_and_foreign_arrays_are_clear_errors():
    """An obs_dtype outside float32/uint8, a game without a compact form and arrays of the wrong
    dtype or size are ValueErrors that say what is allowed."""
    for bad in ("float64", np.int8, True, None, "bytes"):
        with pytest.raises(ValueError, match="obs_dtype must be one of"):
            gym.make("TinyYork-v0", obs_dtype=bad)
    assert PLUGIN_GAME in tiny_york_env.game_names()  # tests/conftest.py registers it
    for make in (lambda: make_raw_aec(PLUGIN_GAME, obs_dtype="uint8"),
                 lambda: compact_observation_space(PLUGIN_GAME)):
        with pytest.raises(ValueError, match="has no compact observation"):
            make()
    game = get_game("tiny_york")
    with pytest.raises(ValueError, match="uint8 observations of 1929"):
        decode_observation(game, np.zeros(game.obs_size, np.float32))
    with pytest.raises(ValueError, match="float32 observations of 1929"):
        compact_observation(game, np.zeros(12, np.float32))
    for bad in (-0.5, 300.0, np.nan):
        with pytest.raises(ValueError, match="outside Tiny York's observation space"):
            compact_observation(game, np.full(game.obs_size, bad, np.float32))
    assert gym.make("TinyYork-v0", obs_dtype=np.uint8).unwrapped.obs_dtype == np.uint8


def test_bytes_saturate_and_the_tables_are_read_only():
    """A value beyond a byte saturates (the compiled rows never wrap), and a game's quanta cannot
    be changed in place (the compiled kernels froze them)."""
    quanta = np.ones(3, np.float32)
    np.testing.assert_array_equal(quantize(np.array([300.0, -2.0, 7.4], np.float32), quanta), [255, 0, 7])
    game = get_game("tiny_york")
    with pytest.raises(ValueError, match="read-only"):
        game.obs_quanta[0] = 2.0


def test_sparse_observation_lists_the_set_entries():
    """``sparse_observation`` gives the indices and values that rebuild the observation."""
    env = gym.make("TinyYork-v0", obs_dtype="uint8")
    obs, _ = env.reset(seed=1)
    indices, values = sparse_observation(obs)
    rebuilt = np.zeros_like(obs)
    rebuilt[indices] = values
    np.testing.assert_array_equal(rebuilt, obs)
    assert (values > 0).all() and len(indices) < obs.size // 4
    with pytest.raises(ValueError, match="one observation"):
        sparse_observation(np.zeros((2, 3)))


@pytest.mark.parametrize("name", GAMES)
def test_the_docs_tables_are_the_games_denominators(name):
    """docs/compact-observations.md's table of each game is ``compact_table_markdown``'s."""
    text = (ROOT / "docs" / "compact-observations.md").read_text()
    start, end = f"<!-- compact-table:{name}:start -->", f"<!-- compact-table:{name}:end -->"
    assert text[text.index(start) + len(start):text.index(end)].strip() == compact_table_markdown(name)
