"""Tiny York: reinforcement-learning environments for the board games Tiny York, Construction Yard
and 5th Avenue, through one game contract (``contract.py``, ``registry.py``, docs/games.md).

- ``get_game(name)`` / ``game_names()``: the registered games ("tiny_york", "construction_yard",
  "fifth_avenue"); ``register_game`` adds one.
- ``make_aec(game, **setup)``: any game's PettingZoo AEC env; ``gymnasium.make("ConstructionYard-v0")``.

- :mod:`tiny_york_env.games`: one package per game (``games/tiny_york`` is Tiny York's rules engine,
  a numpy state record compiled with numba); the old paths (``tiny_york_env.game``,
  ``.observation``, ``.render``, ...) are deprecated aliases (``deprecated_paths.py``).
- ``env()`` / ``raw_env()``: the PettingZoo AEC environment for 2-4 agents, with Toms.
- ``gymnasium.make("TinyYork-v0")``: one learning seat against Toms and fixed opponents.
- ``TinyYorkVecEnv``: B single-agent games in compiled batch kernels, for stable-baselines3
  (needs the ``train`` extra).
- ``gymnasium.make_vec("TinyYork-v0", num_envs=B)``: the same compiled batch kernels as a native
  Gymnasium vector env (``TinyYorkVectorEnv``, Gymnasium's three autoreset modes, next-step by
  default, masks in ``infos["action_mask"]``); ``vectorization_mode="sync"`` gives B Python envs.
- ``obs_dtype="uint8"`` (every env above): the compact observation, a byte an entry holding the
  game quantity behind it; ``decode_observation`` / ``compact_observation`` convert,
  ``sparse_observation`` lists the set entries (docs/compact-observations.md).
- :mod:`tiny_york_env.agents`: the one table of players of every game (``agents.registry``), the
  shipped policies and the search agents (the repository's ``agents/`` folder);
  :mod:`tiny_york_env.arena`: where players meet (ladders, matches, tournaments, sequential
  tests, result files); :mod:`tiny_york_env.training`: the learners (the repository's
  ``training/`` folder).
- :mod:`tiny_york_env.openspiel`: registers the OpenSpiel game ``python_<name>`` of every game on
  import (``python_tiny_york``, ...).
"""

import importlib

from . import deprecated_paths  # first: it installs the finder of the old import paths
from .envs.aec import env, make_aec, make_raw_aec, raw_env
from .envs.compact import (
    compact_observation,
    compact_observation_space,
    decode_observation,
    sparse_observation,
)
from .games.tiny_york import GameConfig, load_state, new_game, save_state, validate_state
from .games.tiny_york.observation import OBS_SIZE, encode, encode_batch
from .games.tiny_york.picture import render_rgb
from .registry import (
    BUILTIN_GAMES,
    DEFAULT_GAME,
    game_names,
    game_of_class_prefix,
    get_game,
    load_plugins,
    register_game,
)

__version__ = "0.2.0"  # pyproject reads it (dynamic version)
__all__ = ["OBS_SIZE", "ConstructionYardEnv", "ConstructionYardVecEnv", "ConstructionYardVectorEnv",
           "FifthAvenueEnv", "FifthAvenueVecEnv", "FifthAvenueVectorEnv", "GameConfig", "TinyYorkEnv",
           "TinyYorkVecEnv", "TinyYorkVectorEnv", "__version__", "compact_observation",
           "compact_observation_space", "decode_observation", "encode", "encode_batch", "env",
           "game_names", "get_game", "load_state", "make_aec", "make_raw_aec", "new_game", "raw_env",
           "register_game", "render_rgb", "save_state", "sparse_observation", "validate_state"]

ENV_ID = BUILTIN_GAMES[DEFAULT_GAME].env_id  # "TinyYork-v0"; registry.py registers every game's id
# class name ending -> the env module that generates it for each game (envs/generated.py)
GENERATED_CLASS_MODULES = {"VectorEnv": "gym_vector", "VecEnv": "vector", "AECEnv": "aec", "Env": "single"}


def __getattr__(name):
    """A game's env class by name (``TinyYorkEnv``, ``ConstructionYardVecEnv``...; imported on first
    use, SB3 being an optional extra); an old module name (``tiny_york_env.game``, ...) imports its
    new module with a DeprecationWarning."""
    for ending, module in GENERATED_CLASS_MODULES.items():
        if name.endswith(ending) and game_of_class_prefix(name[:-len(ending)]) is not None:
            return getattr(importlib.import_module(f"{__name__}.envs.{module}"), name)
    if deprecated_paths.new_path(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'tiny_york_env' has no attribute {name!r}")


load_plugins()  # the games of other packages (entry points, TINY_YORK_ENV_GAMES), last of all
