"""The native Gymnasium vector env: step-for-step equality with ``SyncVectorEnv`` over single envs
(Gymnasium's own ``check_environments_match`` included), next-step autoreset, legal sampling,
seeding, illegal actions, copies, rendering and Gymnasium's vector wrappers."""

import copy
import hashlib
import os
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.env_match import check_environments_match
from gymnasium.vector import AutoresetMode

import tiny_york_env  # noqa: F401  (registers TinyYork-v0)
from tiny_york_env import ENV_ID
from tiny_york_env.envs.gym_vector import LegalMultiDiscrete, TinyYorkVectorEnv
from tiny_york_env.envs.single import next_seed
from tiny_york_env.games.tiny_york import NUM_ACTIONS, GameConfig, legal_mask, new_game
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, encode, observation_space

COPIERS = {"deepcopy": copy.deepcopy, "pickle": lambda env: pickle.loads(pickle.dumps(env))}
SEED_LIMIT = 2 ** 63


def native(num_envs, **kwargs):
    """The compiled vector env, built as a user would through ``make_vec``."""
    return gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)


def assert_same(a, b, what):
    """Exact equality of two Gymnasium results (types, dtypes and shapes included)."""
    assert data_equivalence(a, b, exact=True), f"{what} differ:\n{a}\n{b}"


def random_actions(masks, rng):
    """A random legal action per game (0 for a game that has just ended: it is ignored)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks],
                    dtype=np.int64)


def one_illegal(masks, i, rng):
    """Random legal actions for every game, except an illegal one for game ``i`` (in play)."""
    assert masks[i].any()
    actions = random_actions(masks, rng)
    actions[i] = int(np.flatnonzero(~masks[i])[0])
    return actions


@pytest.mark.parametrize("toms, reward, num_envs, steps, illegal_every", [
    ((3,), "win", 4, 320, 0),
    ((12, "C2"), "rank", 3, 260, 0),
    ((5,), "score", 3, 200, 25),
])
def test_matches_sync_vector_env_step_for_step(toms, reward, num_envs, steps, illegal_every):
    """Observations, rewards, terminations, truncations, infos (masks, final scores, winners) and
    ``action_masks()`` equal ``SyncVectorEnv``'s over B ``TinyYorkEnv`` with the same seeds and
    the same (legal, random) actions, through several game ends and next-step autoresets; with
    ``illegal_every``, an illegal action every that many steps ends a game in both
    (``illegal_action="terminate"``, the default of both)."""
    sync = gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="sync", toms=toms, reward=reward)
    vec = native(num_envs, toms=toms, reward=reward)
    assert isinstance(vec, TinyYorkVectorEnv) and isinstance(vec, gym.vector.VectorEnv)
    assert vec.single_action_space == sync.single_action_space == gym.spaces.Discrete(NUM_ACTIONS)
    assert vec.action_space == sync.action_space
    assert vec.single_observation_space == sync.single_observation_space == observation_space()
    assert vec.observation_space == sync.observation_space
    assert vec.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert_same(vec.reset(seed=700), sync.reset(seed=700), "reset results")
    vec.action_space.seed(700)
    rng = np.random.default_rng(700)
    ends = illegal = 0
    for step in range(steps):
        masks = vec.action_masks()
        np.testing.assert_array_equal(masks, np.stack(sync.call("action_masks")))
        actions = vec.action_space.sample()
        if illegal_every and step % illegal_every == illegal_every - 1 and masks.any():
            k = int(rng.choice(np.flatnonzero(masks.any(axis=1))))
            actions[k] = int(rng.choice(np.flatnonzero(~masks[k])))
            illegal += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # both warn about the illegal actions
            result, expected = vec.step(actions), sync.step(actions)
        assert_same(result, expected, f"step {step} results")
        assert result[0].dtype == np.float32 and vec.observation_space.contains(result[0])
        ends += int(result[2].sum())
    assert ends >= num_envs  # every game ended and restarted at least once on average
    assert illegal == (steps // illegal_every if illegal_every else 0)


def test_gymnasium_check_environments_match():
    """Gymnasium's own checker (single-env shaped, so one game per env): the native env and
    ``SyncVectorEnv`` agree on resets, steps, infos and renders, game ends included."""
    vec = native(1, toms=(2,), render_mode="ansi")
    sync = gym.make_vec(ENV_ID, num_envs=1, vectorization_mode="sync", toms=(2,), render_mode="ansi")
    # Gymnasium 1.2's checker compares renders with `(a == b).all()`, which text frames (tuples of
    # str) do not have (1.3 fixed it; ray pins 1.2): renders are compared here instead.
    check_environments_match(vec, sync, num_steps=250, seed=5, skip_render=True)
    vec.reset(seed=5)
    sync.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(120):
        assert vec.render() == sync.render()
        actions = random_actions(vec.action_masks(), rng)
        vec.step(actions)
        sync.step(actions)


def test_autoreset_is_next_step():
    """A finished game reports its last observation, reward and an all-False mask; the next step
    ignores its action and returns the next game of its seed chain with reward 0."""
    vec = native(2, toms=(1,), reward="score")
    obs, _ = vec.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(1000):
        actions = random_actions(vec.action_masks(), rng)
        before = vec.game_seeds
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        assert not truncated.any()
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert rewards[i] != 0 and not infos["action_mask"][i].any() and not vec.action_masks()[i].any()
    ended = vec.game_state(i)
    assert infos["winner"][i] == ended["winner"] and infos["_final_scores"][i]
    np.testing.assert_array_equal(obs[i], encode(ended, 0))
    actions = random_actions(vec.action_masks(), rng)
    actions[i] = NUM_ACTIONS - 1  # ignored: game i restarts instead
    obs, rewards, terminated, _, infos = vec.step(actions)
    assert vec.game_seeds[i] == next_seed(before[i])
    np.testing.assert_array_equal(obs[i], encode(new_game(vec.config, vec.game_seeds[i]), 0))
    assert rewards[i] == 0 and not terminated[i]
    assert "_final_scores" not in infos or not infos["_final_scores"][i]
    np.testing.assert_array_equal(infos["action_mask"][i], legal_mask(vec.game_state(i)))


def test_action_space_samples_legal_actions_per_game():
    vec = native(5, toms=(5, 9))
    vec.reset(seed=3)
    vec.action_space.seed(3)
    assert isinstance(vec.action_space, LegalMultiDiscrete)
    for _ in range(150):
        masks = vec.action_masks()
        actions = vec.action_space.sample()
        assert actions.shape == (5,) and actions.dtype == np.int64 and vec.action_space.contains(actions)
        for i, row in enumerate(masks):
            assert row[actions[i]] or not row.any()
        vec.step(actions)
    only = np.zeros(NUM_ACTIONS, dtype=np.int8)
    only[7] = 1
    np.testing.assert_array_equal(vec.action_space.sample(mask=(only,) * 5), np.full(5, 7))
    vec.action_space.seed(9)
    first = vec.action_space.sample()
    vec.action_space.seed(9)
    np.testing.assert_array_equal(vec.action_space.sample(), first)  # its own generator
    made = gym.make_vec(ENV_ID, 2)  # the example: the default mode is now this env
    made.reset(seed=0)
    assert isinstance(made, TinyYorkVectorEnv)
    assert made.action_masks()[np.arange(2), made.action_space.sample()].all()


def test_seeding_and_partial_resets():
    vec = native(3)
    vec.reset(seed=40)
    assert vec.game_seeds == [40, 41, 42]
    np.testing.assert_array_equal(vec.reset()[0][2], encode(new_game(vec.config, next_seed(42)), 0))
    assert vec.game_seeds == [next_seed(s) for s in (40, 41, 42)]
    obs, infos = vec.reset(seed=[5, None, 7])
    assert vec.game_seeds == [5, next_seed(next_seed(41)), 7]
    np.testing.assert_array_equal(infos["action_mask"], vec.action_masks())
    seeds, masks = vec.game_seeds, vec.action_masks()
    for bad in (SEED_LIMIT, -1, 1.5, True, [1, 2], [1, 2, SEED_LIMIT], "7"):
        with pytest.raises(ValueError, match="seed"):
            vec.reset(seed=bad)
    for bad in ({"toms": (3,)}, {"reset_mask": [True, False, True]},
                {"reset_mask": np.zeros(3, dtype=np.bool_)}):
        with pytest.raises(ValueError):
            vec.reset(options=bad)
    assert vec.game_seeds == seeds
    np.testing.assert_array_equal(vec.action_masks(), masks)
    before = vec.game_state(0).tobytes()
    which = np.array([False, True, False])
    last = obs
    obs, infos = vec.reset(seed=[None, 100, None], options={"reset_mask": which})
    np.testing.assert_array_equal(obs[[0, 2]], last[[0, 2]])  # as they were
    assert vec.game_seeds == [seeds[0], 100, seeds[2]] and vec.game_state(0).tobytes() == before
    np.testing.assert_array_equal(infos["_action_mask"], which)
    # Every row holds its game's mask now (SyncVectorEnv leaves the rows not reset zero).
    np.testing.assert_array_equal(infos["action_mask"], vec.action_masks())
    assert infos["action_mask"][1].any()
    np.testing.assert_array_equal(obs[1], encode(new_game(vec.config, 100), 0))
    top = native(3)
    top.reset(seed=SEED_LIMIT - 2)  # wraps as TinyYorkVecEnv's seeds and the seed chain do
    assert top.game_seeds == [SEED_LIMIT - 2, SEED_LIMIT - 1, 0]
    unseeded = native(2)
    unseeded.reset()
    assert all(0 <= s < SEED_LIMIT for s in unseeded.game_seeds)
    with pytest.raises(ValueError, match="first reset"):
        native(2).reset(options={"reset_mask": np.array([True, False])})


@pytest.mark.parametrize("penalty", [-1.0, -2.5])
def test_illegal_action_terminates_that_game_only(penalty):
    kwargs = {} if penalty == -1.0 else {"illegal_reward": penalty}
    vec = native(4, toms=(4,), **kwargs)
    vec.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(6):
        vec.step(vec.action_space.sample())
    twin = copy.deepcopy(vec)
    actions = one_illegal(vec.action_masks(), 2, rng)
    state, seed, last_obs = vec.game_state(2), vec.game_seeds[2], encode(vec.game_state(2), 0)
    with pytest.warns(UserWarning, match=f"env 2: illegal action {actions[2]}"):
        obs, rewards, terminated, truncated, infos = vec.step(actions)
    assert rewards[2] == penalty and terminated[2] and not truncated[2]
    assert vec.game_state(2).tobytes() == state.tobytes()  # nothing played
    np.testing.assert_array_equal(obs[2], last_obs)
    assert infos["illegal_action"][2] == actions[2]
    np.testing.assert_array_equal(infos["_illegal_action"], [False, False, True, False])
    assert not infos["action_mask"][2].any() and not infos.get("_final_scores", np.zeros(4))[2]
    legal = actions.copy()
    legal[2] = np.flatnonzero(twin.action_masks()[2])[0]
    t_obs, t_rewards, t_terminated, _, _ = twin.step(legal)
    for i in (0, 1, 3):  # the other games played on as without the illegal action
        np.testing.assert_array_equal(obs[i], t_obs[i])
        assert rewards[i] == t_rewards[i] and terminated[i] == t_terminated[i]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once per env: later ones only in the infos
        vec.step(vec.action_space.sample())  # the autoreset step
        masks = vec.action_masks()
        k = int(np.flatnonzero(masks.any(axis=1))[0])
        again = one_illegal(masks, k, rng)
        assert vec.step(again)[4]["illegal_action"][k] == again[k]
    assert vec.game_seeds[2] == next_seed(seed)


def test_raise_mode_and_out_of_space_actions_change_nothing():
    for mode in ("raise", "terminate"):
        vec = native(4, illegal_action=mode)
        vec.reset(seed=9)
        for _ in range(4):
            vec.step(vec.action_space.sample())
        states = [vec.game_state(i).tobytes() for i in range(4)]
        masks, seeds = vec.action_masks(), vec.game_seeds
        actions = vec.action_space.sample()
        bad = actions.copy()
        bad[1] = NUM_ACTIONS
        with pytest.raises(ValueError, match="env 1: action 264 is not in the action space"):
            vec.step(bad)
        bad[1] = -1
        with pytest.raises(ValueError, match="env 1"):
            vec.step(bad)
        if mode == "raise":
            k = int(np.flatnonzero(masks.any(axis=1))[-1])
            illegal = one_illegal(masks, k, np.random.default_rng(0))
            with pytest.raises(ValueError, match=f"env {k}: illegal action"):
                vec.step(illegal)
        for wrong in (actions.astype(np.float64), actions[:3], actions.reshape(4, 1), "0123"):
            with pytest.raises(ValueError, match="one per env"):
                vec.step(wrong)
        assert [vec.game_state(i).tobytes() for i in range(4)] == states
        assert vec.game_seeds == seeds
        np.testing.assert_array_equal(vec.action_masks(), masks)
        vec.step(actions)  # still usable


def test_returned_arrays_are_fresh():
    """What a step returns is the caller's: later steps and the caller's edits do not mix."""
    vec = native(2)
    first, infos = vec.reset(seed=0)
    second, rewards, terminated, truncated, step_infos = vec.step(vec.action_space.sample())
    for a, b in ((first, second), (infos["action_mask"], step_infos["action_mask"])):
        assert not np.shares_memory(a, b)
    kept = second.copy()
    second[:] = -1
    step_infos["action_mask"][:] = True
    assert not vec.action_masks().all()
    obs, _ = vec.reset(options={"reset_mask": np.array([True, False])})
    np.testing.assert_array_equal(obs[1], kept[1])


def test_bad_construction_and_misuse():
    for bad in ({"num_envs": 0}, {"num_envs": True}, {"num_envs": 2, "toms": ()},
                {"num_envs": 2, "reward": "x"}, {"num_envs": 2, "illegal_action": "random"},
                {"num_envs": 2, "illegal_reward": float("nan")}, {"num_envs": 2, "illegal_reward": "1"},
                {"num_envs": 2, "render_mode": "human"}, {"num_envs": 2, "seat": 1},
                {"num_envs": 2, "opponents": [object()]}):
        with pytest.raises(ValueError):
            TinyYorkVectorEnv(**bad)
    with pytest.raises(ValueError, match="reset"):
        TinyYorkVectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_make_vec_passes_kwargs_and_records_the_spec():
    vec = native(3, toms=(3, "B4"), reward="rank", illegal_action="raise", illegal_reward=-3.0)
    assert vec.num_envs == 3 and vec.config.toms == GameConfig(num_agents=1, toms=(3, "B4")).toms
    assert (vec.reward_kind, vec.illegal_action, vec.illegal_reward) == ("rank", "raise", -3.0)
    assert vec.spec.id == ENV_ID and vec.spec.kwargs["toms"] == (3, "B4")
    assert vec.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    obs, _ = vec.reset(seed=1)
    assert obs.shape == (3, OBS_SIZE)


def test_render_modes():
    assert native(2, render_mode=None).render() is None
    vec = native(2, render_mode="ansi")
    assert vec.render() is None  # before the first reset
    vec.reset(seed=0)
    texts = vec.render()
    assert len(texts) == 2 and all(isinstance(t, str) and t for t in texts) and texts[0] != texts[1]
    if "rgb_array" in TinyYorkVectorEnv.metadata["render_modes"]:
        pictures = native(2, render_mode="rgb_array")
        pictures.reset(seed=0)
        frames = pictures.render()
        assert len(frames) == 2 and frames[0].ndim == 3 and frames[0].dtype == np.uint8


def test_gymnasium_vector_wrappers():
    """CleanRL's usual stack: episode statistics arrive with each game end."""
    vec = gym.wrappers.vector.RecordEpisodeStatistics(native(3, toms=(1,)))
    vec.reset(seed=2)
    vec.action_space.seed(2)
    lengths = []
    for _ in range(400):
        _, _, terminated, _, infos = vec.step(vec.action_space.sample())
        if "episode" in infos:
            lengths += infos["episode"]["l"][infos["_episode"]].tolist()
    assert lengths and all(length > 1 for length in lengths)


@pytest.mark.parametrize("how", COPIERS)
def test_copies_play_on_identically_and_independently(how):
    vec = native(3, toms=(5, "C2"), reward="rank")
    vec.reset(seed=21)
    vec.action_space.seed(21)
    for _ in range(25):
        vec.step(vec.action_space.sample())
    clone = COPIERS[how](vec)
    assert clone.action_space.legal is clone._masks and clone._masks is not vec._masks
    assert clone.game_seeds == vec.game_seeds
    ends = 0
    for _ in range(200):
        actions = vec.action_space.sample()
        result = vec.step(actions)
        assert_same(result, clone.step(actions), "copy's step")
        ends += int(result[2].sum())
    assert ends >= 2
    snapshot = [vec.game_state(i).tobytes() for i in range(3)]
    for _ in range(50):
        clone.step(clone.action_space.sample())
    assert [vec.game_state(i).tobytes() for i in range(3)] == snapshot


def run_digest(steps):
    """(sha256 of a seeded random run's observations, rewards, terminations and infos, with an
    illegal action every 40 steps, games ended)."""
    vec = TinyYorkVectorEnv(3, toms=(5,), reward="rank")
    obs, _ = vec.reset(seed=21)
    digest = hashlib.sha256(obs.tobytes())
    rng = np.random.default_rng(0)
    ended = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in range(steps):
            masks = vec.action_masks()
            actions = random_actions(masks, rng)
            if step % 40 == 39 and masks[1].any():
                actions[1] = int(np.flatnonzero(~masks[1])[0])
            obs, rewards, terminated, _, infos = vec.step(actions)
            for array in [obs, rewards, terminated, masks] + [infos[k] for k in sorted(infos)]:
                digest.update(np.ascontiguousarray(array).tobytes())
            ended += int(terminated.sum())
    return digest.hexdigest(), ended


def test_compiled_and_plain_python_kernels_agree():
    """TINY_YORK_JIT=0 runs the same next-step kernel as plain Python, autoresets and illegal
    actions included."""
    steps = 130
    root = Path(__file__).resolve().parents[2]
    code = f"from tests.envs.test_gym_vector import run_digest; print(*run_digest({steps}))"
    env = dict(os.environ, TINY_YORK_JIT="0", PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True,
                         text=True, check=True).stdout.split()
    digest, ended = run_digest(steps)
    assert ended >= 3
    assert out == [digest, str(ended)]
