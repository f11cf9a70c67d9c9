"""The batched SB3 VecEnv: step-for-step equality with single envs across auto-resets, seeding,
illegal actions ("raise" and "terminate"), the VecEnv methods sb3 and sb3-contrib call, and short
MaskablePPO runs."""

import hashlib
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor

from tests.envs.test_rewards import expected_rewards
from tiny_york_env.envs.single import SEED_STRIDE, TinyYorkEnv, next_seed
from tiny_york_env.envs.vector import TinyYorkVecEnv
from tiny_york_env.games.tiny_york import NUM_ACTIONS, legal_mask, new_game
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, encode


def random_actions(masks, rng):
    """One uniformly random legal action per row of ``masks``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


@pytest.mark.parametrize("toms, reward, num_envs, steps", [
    ((5,), "win", 8, 400),
    ((12, "C2"), "rank", 4, 300),
    ((1, 7, "B4"), "score", 3, 300),
])
def test_matches_single_envs_step_for_step(toms, reward, num_envs, steps):
    """Observations, rewards, dones, masks and end-of-game infos equal those of ``num_envs``
    single envs seeded ``s + i`` and given the same actions, through several auto-resets; each
    final reward is also the one worked out by hand from the finished game (test_rewards.py)."""
    seed, kind = 1000, reward  # ``reward`` is reused below for the single env's step result
    vec = TinyYorkVecEnv(num_envs, toms=toms, reward=reward, seed=seed)
    singles = [TinyYorkEnv(toms=toms, reward=reward) for _ in range(num_envs)]
    obs = vec.reset()
    np.testing.assert_array_equal(obs, np.stack([e.reset(seed=seed + i)[0]
                                                 for i, e in enumerate(singles)]))
    rng = np.random.default_rng(seed)
    resets = 0
    for _ in range(steps):
        masks = vec.action_masks()
        np.testing.assert_array_equal(masks, np.stack([e.action_masks() for e in singles]))
        actions = random_actions(masks, rng)
        obs, rewards, dones, infos = vec.step(actions)
        assert obs.shape == (num_envs, OBS_SIZE) and obs.dtype == np.float32
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        for i, env in enumerate(singles):
            single_obs, reward, terminated, _, info = env.step(int(actions[i]))
            assert rewards[i] == np.float32(reward)
            assert dones[i] == terminated
            if terminated:
                resets += 1
                assert rewards[i] == pytest.approx(expected_rewards(env.state, kind)[env.seat], abs=1e-6)
                np.testing.assert_array_equal(infos[i]["terminal_observation"], single_obs)
                np.testing.assert_array_equal(infos[i]["final_scores"], info["final_scores"])
                assert infos[i]["winner"] == info["winner"]
                assert infos[i]["TimeLimit.truncated"] is False
                single_obs, _ = env.reset()  # the next seed of the chain, as the VecEnv's
            else:
                assert reward == 0.0 and infos[i] == {}
            np.testing.assert_array_equal(obs[i], single_obs)
            assert vec.observation_space.contains(obs[i])
        assert vec.get_attr("game_seed") == [e.game_seed for e in singles]
    assert resets >= num_envs  # every game restarted at least once on average


def test_seeding():
    vec = TinyYorkVecEnv(3)
    assert vec.seed(40) == [40, 41, 42]
    obs = vec.reset()
    assert vec.get_attr("game_seed") == [40, 41, 42]
    np.testing.assert_array_equal(obs[2], encode(new_game(vec.config, 42), 0))
    vec.reset()  # no new seed: every game plays the next seed of its chain
    assert vec.get_attr("game_seed") == [next_seed(s) for s in (40, 41, 42)]
    assert vec.get_attr("game_seed", indices=1) == [41 + SEED_STRIDE]
    built = TinyYorkVecEnv(2, seed=7)
    built.reset()
    assert built.get_attr("game_seed") == [7, 8]
    unseeded = TinyYorkVecEnv(2)
    unseeded.reset()
    first, second = unseeded.get_attr("game_seed")
    assert second == first + 1


def test_another_seed_gives_another_game():
    """Each env of a batch plays its own game, and another seed gives other games: the laid-out
    records (generator words left out) and the learner's first observations differ."""
    a, b = TinyYorkVecEnv(3, seed=40), TinyYorkVecEnv(3, seed=50)
    obs_a, obs_b = a.reset(), b.reset()
    for obs in (obs_a, obs_b):
        assert len({row.tobytes() for row in obs}) == 3
    assert all(not np.array_equal(x, y) for x, y in zip(obs_a, obs_b, strict=True))
    layouts = set()
    for vec in (a, b):
        for state in vec.get_attr("state"):
            state = state.copy()
            state["rng"] = 0
            layouts.add(state.tobytes())
    assert len(layouts) == 6


def test_illegal_action_names_the_env_and_changes_nothing():
    vec = TinyYorkVecEnv(5, seed=3, illegal_action="raise")
    vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        vec.step(random_actions(vec.action_masks(), rng))
    states = [s.tobytes() for s in vec.get_attr("state")]
    seeds = vec.get_attr("game_seed")
    masks = vec.action_masks()
    actions = random_actions(masks, rng)
    actions[3] = int(np.flatnonzero(~masks[3])[0])
    with pytest.raises(ValueError, match=r"env 3: illegal action"):
        vec.step(actions)
    assert [s.tobytes() for s in vec.get_attr("state")] == states
    assert vec.get_attr("game_seed") == seeds
    np.testing.assert_array_equal(vec.action_masks(), masks)
    actions[3] = NUM_ACTIONS
    with pytest.raises(ValueError, match="env 3"):
        vec.step(actions)
    vec.step(random_actions(masks, rng))  # still usable
    for bad in (np.zeros(4, dtype=np.int64), np.zeros(5, dtype=np.float32), [[0, 1]]):
        with pytest.raises(ValueError, match="one per env"):
            vec.step(bad)


def illegal_for(masks, i, rng):
    """Random legal actions for every game, except an illegal one for game ``i``."""
    actions = random_actions(masks, rng)
    actions[i] = int(np.flatnonzero(~masks[i])[-1])
    return actions


@pytest.mark.parametrize("penalty", [None, 0.5])
def test_illegal_action_terminates_that_game_by_default(penalty):
    """The game with the illegal action is done, unplayed, with the penalty and its current
    observation as the terminal one, and restarts with the next seed of its chain; the other
    games step exactly as in a twin given a legal action there."""
    kwargs = {} if penalty is None else {"illegal_reward": penalty}
    vec = TinyYorkVecEnv(4, toms=(6,), seed=5, **kwargs)
    twin = TinyYorkVecEnv(4, toms=(6,), seed=5, illegal_action="raise")
    assert vec.illegal_action == "terminate" and vec.illegal_reward == (penalty or -1.0)
    np.testing.assert_array_equal(vec.reset(), twin.reset())
    rng = np.random.default_rng(5)
    for _ in range(8):
        actions = random_actions(vec.action_masks(), rng)
        vec.step(actions)
        twin.step(actions)
    state, seed = vec.get_attr("state", 1)[0], vec.get_attr("game_seed", 1)[0]
    actions = illegal_for(vec.action_masks(), 1, rng)
    with pytest.warns(UserWarning, match=f"env 1: illegal action {actions[1]}"):
        obs, rewards, dones, infos = vec.step(actions)
    assert dones[1] and rewards[1] == np.float32(penalty or -1.0)
    assert infos[1]["illegal_action"] == actions[1] and infos[1]["TimeLimit.truncated"] is False
    assert "final_scores" not in infos[1]  # never scored
    np.testing.assert_array_equal(infos[1]["terminal_observation"], encode(state, 0))
    assert vec.get_attr("game_seed", 1) == [next_seed(seed)]
    fresh = new_game(vec.config, next_seed(seed))
    np.testing.assert_array_equal(obs[1], encode(fresh, 0))
    np.testing.assert_array_equal(vec.action_masks()[1], legal_mask(fresh))
    legal = actions.copy()
    legal[1] = np.flatnonzero(twin.action_masks()[1])[0]
    t_obs, t_rewards, t_dones, t_infos = twin.step(legal)
    for i in (0, 2, 3):
        np.testing.assert_array_equal(obs[i], t_obs[i])
        assert rewards[i] == t_rewards[i] and dones[i] == t_dones[i]
        assert sorted(infos[i]) == sorted(t_infos[i])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one warning per env; later ones only in the infos
        again = illegal_for(vec.action_masks(), 3, rng)
        assert vec.step(again)[3][3]["illegal_action"] == again[3]
    for bad in (NUM_ACTIONS, -1):  # outside the action space: refused in this mode too
        out = random_actions(vec.action_masks(), rng)
        out[2] = bad
        states = [s.tobytes() for s in vec.get_attr("state")]
        with pytest.raises(ValueError, match="env 2"):
            vec.step(out)
        assert [s.tobytes() for s in vec.get_attr("state")] == states


def test_misuse():
    vec = TinyYorkVecEnv(2)
    with pytest.raises(ValueError, match="reset"):
        vec.step(np.zeros(2, dtype=np.int64))
    for bad in ({"num_envs": 0}, {"num_envs": 2, "toms": ()}, {"num_envs": 2, "reward": "x"},
                {"num_envs": 2, "toms": (1, 2, 3, 4)}, {"num_envs": 2, "illegal_action": "random"},
                {"num_envs": 2, "illegal_reward": float("inf")}, {"num_envs": 2, "illegal_reward": None}):
        with pytest.raises(ValueError):
            TinyYorkVecEnv(**bad)
    with pytest.raises(ValueError, match="options"):
        vec.set_options({"toms": (3,)})
    vec.set_options(None)
    vec.reset()


def test_vecenv_methods_for_sb3_and_sb3_contrib():
    vec = TinyYorkVecEnv(4, seed=0)
    vec.reset()
    wrapped = VecMonitor(vec)
    for env in (vec, wrapped):
        assert is_masking_supported(env)
        masks = get_action_masks(env)
        assert masks.shape == (4, NUM_ACTIONS) and masks.dtype == np.bool_
        np.testing.assert_array_equal(masks, vec.action_masks())
    for i, state in enumerate(vec.get_attr("state")):
        np.testing.assert_array_equal(vec.action_masks()[i], legal_mask(state))
    rows = vec.env_method("action_masks", indices=[1, 3])
    np.testing.assert_array_equal(np.stack(rows), vec.action_masks()[[1, 3]])
    assert vec.get_attr("reward_kind") == ["win"] * 4
    vec.set_attr("reward_kind", "rank")
    assert vec.reward_kind == "rank"
    with pytest.raises(ValueError):
        vec.set_attr("reward_kind", "win", indices=[0])
    with pytest.raises(ValueError):
        vec.set_attr("config", None)
    assert vec.env_is_wrapped(VecMonitor) == [False] * 4
    assert vec.has_attr("action_masks") and not vec.has_attr("no_such_attribute")
    with pytest.raises(AttributeError):
        vec.env_method("no_such_method")
    texts = vec.env_method("render", indices=0)
    assert isinstance(texts[0], str) and texts[0]
    checked = VecCheckNan(vec, raise_exception=True)
    checked.reset()
    rng = np.random.default_rng(0)
    for _ in range(20):
        checked.step(random_actions(vec.action_masks(), rng))
    vec.close()


def test_observations_are_fresh_arrays():
    vec = TinyYorkVecEnv(2, seed=0)
    first = vec.reset()
    second, _, _, _ = vec.step(random_actions(vec.action_masks(), np.random.default_rng(0)))
    assert not np.shares_memory(first, second)
    masks = vec.action_masks()
    masks[:] = True
    assert not vec.action_masks().all()


@pytest.fixture
def one_torch_thread():
    """Tiny networks: extra torch threads only wait on each other, badly so on a busy machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_maskable_ppo_trains_on_the_vecenv(one_torch_thread):
    vec = VecMonitor(TinyYorkVecEnv(8, seed=0))
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=128, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(total_timesteps=2_048)
    assert model.num_timesteps >= 2_048
    assert len(model.ep_info_buffer) > 0  # games ended and were counted through auto-reset


def run_digest(steps):
    """(sha256 of every observation, reward, done and mask of a seeded random run with an illegal
    action every 40 steps, games ended)."""
    vec = TinyYorkVecEnv(3, toms=(5,), reward="rank", seed=21)
    digest = hashlib.sha256(vec.reset().tobytes())
    rng = np.random.default_rng(0)
    ended = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the first illegal action's warning
        for step in range(steps):
            masks = vec.action_masks()
            digest.update(masks.tobytes())
            actions = illegal_for(masks, 1, rng) if step % 40 == 39 else random_actions(masks, rng)
            obs, rewards, dones, infos = vec.step(actions)
            for array in [obs, rewards, dones] + [info["terminal_observation"] for info in infos if info]:
                digest.update(array.tobytes())
            ended += int(dones.sum())
    return digest.hexdigest(), ended


def test_compiled_and_plain_python_kernels_agree():
    """TINY_YORK_JIT=0 runs the same kernels as plain Python (architecture: a test keeps both
    paths equal), auto-resets included."""
    steps = 130
    root = Path(__file__).resolve().parents[2]
    code = f"from tests.envs.test_vector import run_digest; print(*run_digest({steps}))"
    env = dict(os.environ, TINY_YORK_JIT="0", PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True,
                         text=True, check=True).stdout.split()
    digest, ended = run_digest(steps)
    assert ended >= 1
    assert out == [digest, str(ended)]
