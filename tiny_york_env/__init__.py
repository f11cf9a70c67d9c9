"""Tiny York: reinforcement-learning environments for the board game Tiny York and, through one
game contract (``contract.py``, ``registry.py``, docs/games.md), Construction Yard.

- ``get_game(name)`` / ``game_names()``: the registered games ("tiny_york", "construction_yard").
- ``make_aec(game, **setup)``: any game's PettingZoo AEC env; ``gymnasium.make("ConstructionYard-v0")``.

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

import importlib

import gymnasium

from .envs.aec import env, make_aec, make_raw_aec, raw_env
from .game import GameConfig, load_state, new_game, save_state, validate_state
from .observation import OBS_SIZE, encode, encode_batch
from .registry import game_names, get_game, register_game
from .render import render_rgb

__version__ = "0.2.0"  # pyproject reads it (dynamic version)
__all__ = ["OBS_SIZE", "ConstructionYardEnv", "ConstructionYardVecEnv", "ConstructionYardVectorEnv",
           "FifthAvenueEnv", "FifthAvenueVecEnv", "FifthAvenueVectorEnv",
           "GameConfig", "TinyYorkEnv", "TinyYorkVecEnv", "TinyYorkVectorEnv", "__version__",
           "encode", "encode_batch", "env", "game_names", "get_game", "load_state", "make_aec",
           "make_raw_aec", "new_game", "raw_env", "register_game", "render_rgb", "save_state",
           "validate_state"]

ENV_ID = "TinyYork-v0"
# Gymnasium id -> (single env class, vector env class), both in tiny_york_env.envs
GYMNASIUM_ENVS = {
    ENV_ID: ("TinyYorkEnv", "TinyYorkVectorEnv"),
    "ConstructionYard-v0": ("ConstructionYardEnv", "ConstructionYardVectorEnv"),
    "FifthAvenue-v0": ("FifthAvenueEnv", "FifthAvenueVectorEnv"),
}
for _env_id, (_single, _vector) in GYMNASIUM_ENVS.items():
    if _env_id not in gymnasium.registry:
        gymnasium.register(id=_env_id, entry_point=f"tiny_york_env.envs.single:{_single}",
                           vector_entry_point=f"tiny_york_env.envs.gym_vector:{_vector}")
LAZY_CLASSES = {  # name -> module: imported on first use (SB3 is an optional extra)
    "TinyYorkEnv": "single", "ConstructionYardEnv": "single", "FifthAvenueEnv": "single",
    "FifthAvenueVectorEnv": "gym_vector", "FifthAvenueVecEnv": "vector",
    "TinyYorkVectorEnv": "gym_vector", "ConstructionYardVectorEnv": "gym_vector",
    "TinyYorkVecEnv": "vector", "ConstructionYardVecEnv": "vector",
}


def __getattr__(name):
    """Import the Gymnasium and SB3 envs on first use (SB3 is an optional extra)."""
    if name in LAZY_CLASSES:
        module = importlib.import_module(f"tiny_york_env.envs.{LAZY_CLASSES[name]}")
        return getattr(module, name)
    raise AttributeError(f"module 'tiny_york_env' has no attribute {name!r}")
