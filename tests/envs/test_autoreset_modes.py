"""The native vector env of every game in each of Gymnasium's autoreset modes equals
``SyncVectorEnv`` over single envs in the same mode, game for game: observations, rewards,
terminations, infos (``final_obs`` and ``final_info`` with ``SAME_STEP``), partial resets with
``DISABLED``, illegal actions included."""

import copy
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

import tiny_york_env  # noqa: F401  (registers the ids)
from tiny_york_env.envs.gym_vector import GameVectorEnv, check_autoreset_mode
from tiny_york_env.registry import game_names, get_game

GAMES = game_names()
NUM_ENVS = 3
STEPS = 360
ILLEGAL_EVERY = 45  # an illegal action (ended by "terminate") this often, in both envs


def pair(name, mode, **kwargs):
    """The compiled vector env and ``SyncVectorEnv`` over single envs, both in ``mode``."""
    game = get_game(name)
    native = gym.make_vec(game.env_id, num_envs=NUM_ENVS, autoreset_mode=mode, **kwargs)
    sync = gym.make_vec(game.env_id, num_envs=NUM_ENVS, vectorization_mode="sync",
                        vector_kwargs={"autoreset_mode": mode}, **kwargs)
    return native, sync


def flagged_rows(infos):
    """Reset infos with each value's rows kept only where its ``_key`` flags them (the others
    zeroed): the compiled env fills every row of the mask, ``SyncVectorEnv`` only the reset ones."""
    kept = dict(infos)
    for key, value in infos.items():
        if not key.startswith("_") and f"_{key}" in infos and isinstance(value, np.ndarray):
            rows = infos[f"_{key}"].reshape(-1, *[1] * (value.ndim - 1))
            kept[key] = np.where(rows, value, np.zeros_like(value))
    return kept


def actions_for(masks, rng, step):
    """Random legal actions (0 for a game with none), one illegal every ``ILLEGAL_EVERY`` steps."""
    actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks],
                       dtype=np.int64)
    playing = np.flatnonzero(masks.any(axis=1) & ~masks.all(axis=1))  # in play, with an illegal id
    if step % ILLEGAL_EVERY == ILLEGAL_EVERY - 1 and playing.size:
        k = int(rng.choice(playing))
        actions[k] = int(np.flatnonzero(~masks[k])[0])
    return actions


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("name", GAMES)
def test_each_mode_equals_sync_vector_env_game_for_game(name, mode):
    native, sync = pair(name, mode)
    assert native.autoreset_mode == native.metadata["autoreset_mode"] == sync.autoreset_mode == mode
    assert data_equivalence(native.reset(seed=41), sync.reset(seed=41), exact=True)
    rng = np.random.default_rng(41)
    ends = finals = 0
    for step in range(STEPS):
        masks = native.action_masks()
        np.testing.assert_array_equal(masks, np.stack(sync.call("action_masks")))
        actions = actions_for(masks, rng, step)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # both warn at the first illegal action
            result, expected = native.step(actions), sync.step(actions)
        assert data_equivalence(result, expected, exact=True), f"step {step} differs"
        ended = result[2]
        ends += int(ended.sum())
        infos = result[4]
        if mode == AutoresetMode.SAME_STEP and ended.any():
            finals += 1
            assert np.array_equal(infos["_final_obs"], ended) and "final_scores" not in infos
            for i in np.flatnonzero(ended):
                assert native.single_observation_space.contains(infos["final_obs"][i])
        if mode == AutoresetMode.DISABLED and ended.any():
            with pytest.raises(ValueError, match="reset them first"):
                native.step(actions)
            which = ended.copy()
            reset, reset_sync = native.reset(options={"reset_mask": which}), \
                sync.reset(options={"reset_mask": which.copy()})
            assert np.array_equal(reset[0], reset_sync[0])
            assert data_equivalence(flagged_rows(reset[1]), reset_sync[1], exact=True)
            np.testing.assert_array_equal(reset[1]["action_mask"], native.action_masks())
    assert ends >= NUM_ENVS
    assert finals or mode != AutoresetMode.SAME_STEP


def test_disabled_refuses_a_step_before_the_reset_and_changes_nothing():
    native, _ = pair("tiny_york", AutoresetMode.DISABLED)
    native.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        _, _, ended, _, _ = native.step(actions_for(native.action_masks(), rng, 0))
        if ended.any():
            break
    records = [native.game_state(i).tobytes() for i in range(NUM_ENVS)]
    with pytest.raises(ValueError, match=r"AutoresetMode.DISABLED: reset them first with "
                                         r"reset\(options=\{'reset_mask'"):
        native.step(np.zeros(NUM_ENVS, dtype=np.int64))
    assert [native.game_state(i).tobytes() for i in range(NUM_ENVS)] == records


def test_modes_by_name_or_value_and_bad_ones():
    assert check_autoreset_mode("SameStep") == check_autoreset_mode("SAME_STEP") == AutoresetMode.SAME_STEP
    assert check_autoreset_mode(AutoresetMode.DISABLED) is AutoresetMode.DISABLED
    for bad in ("same_step", 1, None, "next"):
        with pytest.raises(ValueError, match=r"autoreset_mode must be one of AutoresetMode.NEXT_STEP"):
            gym.make_vec("TinyYork-v0", num_envs=2, autoreset_mode=bad)
    native, _ = pair("tiny_york", "Disabled")
    assert native.autoreset_mode is AutoresetMode.DISABLED
    assert GameVectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP  # the class's stays
    assert gym.make_vec("TinyYork-v0", num_envs=2).autoreset_mode is AutoresetMode.NEXT_STEP


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))])
def test_same_step_copies_play_on_identically(copier):
    native, _ = pair("construction_yard", AutoresetMode.SAME_STEP)
    native.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(40):
        native.step(actions_for(native.action_masks(), rng, 1))
    twin = copier(native)
    for _ in range(300):
        actions = actions_for(native.action_masks(), rng, 1)
        assert data_equivalence(native.step(actions), twin.step(actions), exact=True)
