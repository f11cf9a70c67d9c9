"""Tiny York: a reinforcement-learning environment for the board game Tiny York.

- :mod:`tiny_york_env.game`: the rules engine (a numpy state record, compiled with numba).
- ``env()`` / ``raw_env()``: the PettingZoo AEC environment for 2-4 agents, with Toms.
- ``gymnasium.make("TinyYork-v0")``: one learning seat against Toms and fixed opponents.
- ``TinyYorkVecEnv``: B single-agent games in compiled batch kernels, for stable-baselines3
  (needs the ``train`` extra).
- ``gymnasium.make_vec("TinyYork-v0", num_envs=B)``: the same compiled batch kernels as a native
  Gymnasium vector env (``TinyYorkVectorEnv``, next-step autoreset, masks in
  ``infos["action_mask"]``); ``vectorization_mode="sync"`` gives B Python envs.
- :mod:`tiny_york_env.agents`, :mod:`tiny_york_env.training`: baseline agents, the shipped policy,
  evaluation and training (the repository's ``agents/`` and ``training/`` folders).
- :mod:`tiny_york_env.openspiel`: registers the OpenSpiel game ``python_tiny_york`` on import.
"""

import gymnasium

from .envs.aec import env, raw_env
from .game import GameConfig, load_state, new_game, save_state, validate_state
from .observation import OBS_SIZE, encode, encode_batch
from .render import render_rgb

__version__ = "0.2.0"  # pyproject reads it (dynamic version)
__all__ = ["OBS_SIZE", "GameConfig", "TinyYorkEnv", "TinyYorkVecEnv", "TinyYorkVectorEnv", "__version__",
           "encode",
           "encode_batch", "env", "load_state", "new_game", "raw_env", "render_rgb", "save_state",
           "validate_state"]

ENV_ID = "TinyYork-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="tiny_york_env.envs.single:TinyYorkEnv",
                       vector_entry_point="tiny_york_env.envs.gym_vector:TinyYorkVectorEnv")


def __getattr__(name):
    """Import the Gymnasium and SB3 envs on first use (SB3 is an optional extra)."""
    if name == "TinyYorkVectorEnv":
        from .envs.gym_vector import TinyYorkVectorEnv
        return TinyYorkVectorEnv
    if name == "TinyYorkEnv":
        from .envs.single import TinyYorkEnv
        return TinyYorkEnv
    if name == "TinyYorkVecEnv":
        from .envs.vector import TinyYorkVecEnv
        return TinyYorkVecEnv
    raise AttributeError(f"module 'tiny_york_env' has no attribute {name!r}")
