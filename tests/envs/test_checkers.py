"""Every ecosystem checker on the default envs, unpatched: Gymnasium's and SB3's ``check_env``,
PettingZoo's ``api_test``, ``seed_test``, ``render_test``, ``state_test`` and ``parallel_api_test``
(through ``turn_based_aec_to_parallel``), and RLlib's env pre-check when ray is installed. The
warnings they emit are recorded: only the ones listed here, each with its reason, may appear."""

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test, state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from tests.envs.test_aec import SETUPS
from tiny_york_env.envs.aec import env
from tiny_york_env.envs.single import ENV_ID

# gymnasium's check_step_determinism samples an action *before* reset(seed=123), from the
# position the previous check left, and steps it in the new game: it may be illegal there, and
# the default illegal_action="terminate" ends that episode with a warning, as documented.
ILLEGAL_ACTION_WARNING = "for the learning seat 0: the episode ends with reward"
# check_env on a wrapped env notes it is wrapped (it is: gym.make's checker and order wrappers).
WRAPPED_WARNING = "is different from the unwrapped version"
# PettingZoo's classic convention (connect_four, chess, ...) is a Dict observation with the mask
# in it, which api_test flags on every check.
DICT_OBSERVATION_WARNINGS = ("Observation is not a NumPy array",
                             "Observation space for each agent probably should be")


def _messages(check, *args, **kwargs):
    """Run ``check``; the messages of every warning it emitted (warnings module and EnvLogger)."""
    EnvLogger.flush()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    messages = [str(w.message) for w in caught] + [str(m) for m in EnvLogger.mqueue]
    EnvLogger.flush()
    return messages


def _unexpected(messages, *allowed):
    return [m for m in messages if not any(a in m for a in allowed)]


@pytest.mark.parametrize("render_mode", [None, "ansi", "human"])
def test_gymnasium_check_env_on_the_registered_env_and_unwrapped(render_mode, capsys):
    """check_env passes on gym.make("TinyYork-v0") as registered and on .unwrapped; the render
    check makes every declared mode. No warning about bounds, seeding, spaces or rendering."""
    kwargs = {} if render_mode is None else {"render_mode": render_mode}
    wrapped = _messages(gym_check_env, gymnasium.make(ENV_ID, **kwargs))
    assert _unexpected(wrapped, ILLEGAL_ACTION_WARNING, WRAPPED_WARNING) == []
    assert sum(WRAPPED_WARNING in m for m in wrapped) == 1
    raw = _messages(gym_check_env, gymnasium.make(ENV_ID, **kwargs).unwrapped)
    assert _unexpected(raw, ILLEGAL_ACTION_WARNING) == []
    assert "Tiny York" in capsys.readouterr().out  # the human mode's board, made by the render check


def test_stable_baselines3_check_env_without_warnings():
    assert _messages(sb3_check_env, gymnasium.make(ENV_ID).unwrapped, warn=True) == []


@pytest.mark.parametrize("name", SETUPS)
def test_pettingzoo_api_test(name):
    """api_test passes on env() with enough cycles to play whole games."""
    messages = _messages(api_test, env(**SETUPS[name]), num_cycles=1000)
    assert _unexpected(messages, *DICT_OBSERVATION_WARNINGS, "Passed") == []


@pytest.mark.parametrize("name", SETUPS)
def test_pettingzoo_seed_test(name):
    """seed_test: two envs reset with the same seed play the same game; no warnings."""
    assert _messages(seed_test, lambda: env(**SETUPS[name]), num_cycles=1000) == []


def test_pettingzoo_render_test(capsys):
    """render_test makes every declared mode: human prints and returns None, ansi is text,
    rgb_array a picture."""
    assert _messages(render_test, env) == []
    assert "Tiny York" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["2 agents", "4 agents", "1 agent + 3 Toms"])
def test_pettingzoo_state_test(name):
    """state_test steps unmasked samples: the first illegal one ends the game (env()'s
    "terminate"); every state() on the way lies in state_space. No state warning."""
    messages = _messages(state_test, env(**SETUPS[name]),
                         turn_based_aec_to_parallel(env(**SETUPS[name])), num_cycles=1000)
    assert _unexpected(messages, "Illegal move made by player_") == []


@pytest.mark.parametrize("name", ["2 agents", "3 agents", "solo vs Tom 5"])
def test_pettingzoo_parallel_api_test_through_turn_based_conversion(name):
    """parallel_api_test passes on turn_based_aec_to_parallel(env()): it samples an action for
    every live agent with that agent's mask; only the one to move acts (its mask is the legal
    one), the others' masks are all zero and their actions are not used."""
    par = turn_based_aec_to_parallel(env(**SETUPS[name]))
    messages = _messages(parallel_api_test, par, num_cycles=1000)
    assert _unexpected(messages) == []
    assert par.agents == []  # the game was played to its end within the cycles


def test_rllib_pre_check_through_its_pettingzoo_wrapper():
    """RLlib's env pre-check on its PettingZooEnv wrapper of env() (it steps unmasked samples:
    env()'s "terminate" ends the game on the first illegal one, as for state_test)."""
    pytest.importorskip("ray", reason="ray[rllib] is the scale-out issue's extra")
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(PettingZooEnv(env()))  # what RLlib's env runners call
