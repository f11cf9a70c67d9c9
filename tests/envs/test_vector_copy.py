"""Copies of the batched VecEnv (copy.deepcopy, pickle) play on exactly like the original and
independently of it, through game ends and restarts; the single env's copies sample from their
own mask."""

import copy
import pickle

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from tiny_york_env.envs.single import TinyYorkEnv  # noqa: E402
from tiny_york_env.envs.vector import TinyYorkVecEnv  # noqa: E402
from tiny_york_env.games.tiny_york import legal_mask  # noqa: E402

COPIERS = {"deepcopy": copy.deepcopy, "pickle": lambda env: pickle.loads(pickle.dumps(env))}


def random_actions(masks, rng):
    """One uniformly random legal action per row of ``masks``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def assert_same_step(a, b):
    """Two ``VecEnv.step`` results are equal: observations, rewards, dones and end-of-game infos."""
    (obs_a, rew_a, done_a, infos_a), (obs_b, rew_b, done_b, infos_b) = a, b
    np.testing.assert_array_equal(obs_a, obs_b)
    np.testing.assert_array_equal(rew_a, rew_b)
    np.testing.assert_array_equal(done_a, done_b)
    assert [sorted(i) for i in infos_a] == [sorted(i) for i in infos_b]
    for info_a, info_b in zip(infos_a, infos_b, strict=True):
        for key in ("terminal_observation", "final_scores"):
            if key in info_a:
                np.testing.assert_array_equal(info_a[key], info_b[key])
        assert info_a.get("winner") == info_b.get("winner")


def batch_bytes(vec):
    return [state.tobytes() for state in vec.get_attr("state")]


@pytest.mark.parametrize("how", COPIERS)
def test_copies_made_mid_game_play_on_identically_through_game_ends(how):
    """A copy taken mid-game steps like the original for 300 steps, several games ending and
    restarting in between (the copy's first game end used to raise)."""
    vec = TinyYorkVecEnv(3, toms=(5, "C2"), reward="rank", seed=21)
    vec.reset()
    rng = np.random.default_rng(21)
    for _ in range(25):
        vec.step(random_actions(vec.action_masks(), rng))
    clone = COPIERS[how](vec)
    assert batch_bytes(clone) == batch_bytes(vec)
    assert clone.get_attr("game_seed") == vec.get_attr("game_seed")
    ended = 0
    for _ in range(300):
        masks = vec.action_masks()
        np.testing.assert_array_equal(clone.action_masks(), masks)
        actions = random_actions(masks, rng)
        result = vec.step(actions)
        assert_same_step(result, clone.step(actions))
        ended += int(result[2].sum())
    assert ended >= 3  # the comparison went through game ends and restarts
    assert batch_bytes(clone) == batch_bytes(vec)
    assert clone.get_attr("game_seed") == vec.get_attr("game_seed")
    for i, state in enumerate(clone.get_attr("state")):  # the masks still describe the games
        np.testing.assert_array_equal(clone.action_masks()[i], legal_mask(state))


@pytest.mark.parametrize("how", COPIERS)
def test_copies_are_independent_of_the_original(how):
    """Stepping a copy, to and past game ends, leaves the original's games alone, and back."""
    vec = TinyYorkVecEnv(2, seed=22)
    vec.reset()
    rng = np.random.default_rng(22)
    clone = COPIERS[how](vec)
    before = batch_bytes(vec)
    ended = 0
    for _ in range(150):
        ended += int(clone.step(random_actions(clone.action_masks(), rng))[2].sum())
    assert ended >= 1 and batch_bytes(vec) == before
    clone_now = batch_bytes(clone)
    vec.step(random_actions(vec.action_masks(), rng))
    assert batch_bytes(clone) == clone_now


@pytest.mark.parametrize("how", COPIERS)
def test_copies_made_before_reset_play_like_the_original(how):
    vec = TinyYorkVecEnv(2, seed=23)
    clone = COPIERS[how](vec)
    np.testing.assert_array_equal(vec.reset(), clone.reset())
    rng = np.random.default_rng(23)
    for _ in range(120):
        actions = random_actions(vec.action_masks(), rng)
        assert_same_step(vec.step(actions), clone.step(actions))


@pytest.mark.parametrize("how", COPIERS)
def test_single_env_copies_sample_their_own_legal_actions(how):
    """The action space samples from the env's mask: a copy's space follows the copy's game."""
    env = TinyYorkEnv(toms=(5,))
    env.reset(seed=24)
    clone = COPIERS[how](env)
    assert clone.action_space.legal is clone._mask and clone._mask is not env._mask
    clone.action_space.seed(0)
    for _ in range(60):
        action = clone.action_space.sample()
        assert clone.action_masks()[action]
        _, _, terminated, _, _ = clone.step(action)
        if terminated:
            clone.reset()
    assert env.state.tobytes() != clone.state.tobytes()
    np.testing.assert_array_equal(env.action_masks(), legal_mask(env.state))
