"""The batched envs on several threads (``num_threads``): step for step the same observations,
masks, rewards, dones and infos as on one thread, for both games and both vector APIs, and as
B single envs."""

import copy
import pickle

import numpy as np
import pytest

from tiny_york_env.core.jit import max_threads
from tiny_york_env.envs.gym_vector import ConstructionYardVectorEnv, TinyYorkVectorEnv
from tiny_york_env.envs.single import TinyYorkEnv
from tiny_york_env.envs.vector import ConstructionYardVecEnv, TinyYorkVecEnv

THREADS = max(2, max_threads())  # numba starts with one thread per core; 2 on a 1-core machine
STEPS = 250
ILLEGAL_EVERY = 97  # now and then an illegal action ("terminate" ends that game)


def _actions(masks, rng, step):
    """A random legal action per game, and an illegal one in game 0 every ILLEGAL_EVERY steps."""
    actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks])
    if step % ILLEGAL_EVERY == ILLEGAL_EVERY - 1 and not masks[0].all():
        actions[0] = np.flatnonzero(~masks[0])[0]
    return actions


def _sb3_run(make, seed):
    env = make()
    env.seed(seed)
    trace = [env.reset()]
    rng = np.random.default_rng(seed)
    with pytest.warns(UserWarning, match="illegal"):
        for step in range(STEPS):
            masks = env.action_masks()
            obs, rewards, dones, infos = env.step(_actions(masks, rng, step))
            trace += [masks, obs, rewards, dones,
                      [sorted((k, str(v)) for k, v in info.items()) for info in infos]]
    return trace


def _gym_run(make, seed):
    env = make()
    obs, infos = env.reset(seed=seed)
    trace = [obs, infos["action_mask"]]
    rng = np.random.default_rng(seed)
    with pytest.warns(UserWarning, match="illegal"):
        for step in range(STEPS):
            masks = env.action_masks()
            obs, rewards, terminated, truncated, infos = env.step(_actions(masks, rng, step))
            trace += [obs, rewards, terminated, truncated, sorted((k, str(v)) for k, v in infos.items())]
    return trace


def _assert_same(one, many):
    assert len(one) == len(many)
    for a, b in zip(one, many, strict=True):
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b)
        else:
            assert a == b


@pytest.mark.parametrize("num_envs,seed", [(1, 0), (7, 1), (64, 2)])
def test_tiny_york_vecenv_on_threads_equals_one_thread(num_envs, seed):
    def make(threads):
        return lambda: TinyYorkVecEnv(num_envs, toms=(5, 12), num_threads=threads)
    _assert_same(_sb3_run(make(1), seed), _sb3_run(make(THREADS), seed))


@pytest.mark.parametrize("num_envs,seed", [(5, 3), (32, 4)])
def test_construction_yard_vecenv_on_threads_equals_one_thread(num_envs, seed):
    def make(threads):
        return lambda: ConstructionYardVecEnv(num_envs, num_players=3, bots=("greedy", "random"),
                                              num_threads=threads)
    _assert_same(_sb3_run(make(1), seed), _sb3_run(make(THREADS), seed))


@pytest.mark.parametrize("make", [
    lambda threads: TinyYorkVectorEnv(16, toms=(3,), num_threads=threads),
    lambda threads: ConstructionYardVectorEnv(16, num_threads=threads)],
    ids=["tiny_york", "construction_yard"])
def test_gymnasium_vector_env_on_threads_equals_one_thread(make):
    _assert_same(_gym_run(lambda: make(1), 5), _gym_run(lambda: make(THREADS), 5))


def test_threaded_vecenv_equals_single_envs():
    num_envs, seed = 6, 11
    batch = TinyYorkVecEnv(num_envs, toms=(5,), num_threads=THREADS, illegal_action="raise")
    batch.seed(seed)
    obs = batch.reset()
    singles = [TinyYorkEnv(toms=(5,)) for _ in range(num_envs)]
    single_obs = [env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]
    assert np.array_equal(obs, np.stack(single_obs))
    rng = np.random.default_rng(seed)
    for _ in range(300):
        actions = _actions(batch.action_masks(), rng, 0)
        obs, rewards, dones, _ = batch.step(actions)
        for i, env in enumerate(singles):
            o, r, terminated, _, _ = env.step(int(actions[i]))
            assert rewards[i] == r and dones[i] == terminated
            if terminated:
                o, _ = env.reset()
            assert np.array_equal(obs[i], o)
            assert np.array_equal(batch.action_masks()[i], env.action_masks())


def test_num_threads_is_checked_and_kept_by_copies():
    for bad in (0, -1, max_threads() + 1, 1.5, True, "2"):
        with pytest.raises(ValueError, match=f"num_threads must be an int 1-{max_threads()}"):
            TinyYorkVecEnv(2, num_threads=bad)
        with pytest.raises(ValueError, match="num_threads must be an int"):
            TinyYorkVectorEnv(2, num_threads=bad)
    assert TinyYorkVecEnv(64).num_threads == max_threads()  # default: every thread numba has,
    assert TinyYorkVecEnv(2).num_threads == 1  # but a thread per 8 games at least
    env = TinyYorkVecEnv(3, num_threads=1, seed=0)
    env.reset()
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert twin.num_threads == 1
        actions = _actions(env.action_masks(), np.random.default_rng(0), 0)
        assert np.array_equal(twin.step(actions)[0], copy.deepcopy(env).step(actions)[0])
