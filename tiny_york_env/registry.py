"""One registry of games: name -> ``contract.Game`` (docs/games.md).

| name | title | Gymnasium id | PettingZoo |
|---|---|---|---|
| ``tiny_york`` | Tiny York | ``TinyYork-v0`` | ``env()`` = ``make_aec("tiny_york")`` |
| ``construction_yard`` | Construction Yard | ``ConstructionYard-v0`` | ``make_aec("construction_yard")`` |
| ``fifth_avenue`` | 5th Avenue | ``FifthAvenue-v0`` | ``make_aec("fifth_avenue")`` |

Automatic participants: Tiny York's Toms (levels 1-12); Construction Yard's bots ("random",
"greedy") and Dirk in every two-player game; 5th Avenue's random bots and Alea in every
two-player game.

Registering the Gymnasium ids builds the built-in games' records (importing their engines, not
compiling them); ``register_game`` adds another game at run time, and games of other packages
join on import: an installed package's entry points in the group ``tiny_york_env.games`` and the
environment variable ``TINY_YORK_ENV_GAMES`` ("module:function,..."), each naming a function that
returns a ``Game`` (docs/adding-a-game.md); one that fails to load is left out with a warning.
Every game's Gymnasium id is registered with its env classes, which ``envs/`` generates from the
record (``TinyYorkEnv``, ``TinyYorkVectorEnv``, ...: the id's name before ``-v``), and with
``max_episode_steps`` = the record's ``max_decisions``: a bound on the decisions of all agent
seats together that no game reaches, so gym.make's ``TimeLimit`` never truncates a game.
``game_of_state`` finds a record's game from its dtype, so functions that take a state (rewards,
persistence) need no game argument.
"""

from __future__ import annotations

import copyreg
import importlib
import importlib.metadata
import os
import warnings
from typing import NamedTuple

import gymnasium
import numpy as np

from .contract import Game


class BuiltinGame(NamedTuple):
    """A game of this package: its name, Gymnasium id and the "module:function" building its record."""

    name: str
    env_id: str
    builder: str


# The built-in games, built when their Gymnasium ids are registered (on import). A new game adds
# its line here (and its docs page).
BUILTIN_GAMES = {entry.name: entry for entry in (
    BuiltinGame("tiny_york", "TinyYork-v0", "tiny_york_env.games.tiny_york.contract:tiny_york_game"),
    BuiltinGame("construction_yard", "ConstructionYard-v0",
                "tiny_york_env.games.construction_yard.contract:construction_yard_game"),
    BuiltinGame("fifth_avenue", "FifthAvenue-v0",
                "tiny_york_env.games.fifth_avenue.contract:fifth_avenue_game"),
)}
DEFAULT_GAME = "tiny_york"
PLUGIN_GROUP = "tiny_york_env.games"  # installed packages' games: any name = "module:function"
PLUGIN_VARIABLE = "TINY_YORK_ENV_GAMES"  # "module:function,...": games of packages not installed
ENV_ID_VERSION = "-v"  # "TinyYork-v0": the env classes are named after what comes before it
_games: dict[str, Game] = {}
_game_of_dtype: dict[np.dtype, Game] = {}  # game_of_state's memory


def class_prefix(env_id: str) -> str:
    """The name of a game's env classes before their kind: ``"TinyYork"`` for ``"TinyYork-v0"``."""
    return env_id.split(ENV_ID_VERSION)[0]


def env_ids() -> dict[str, str]:
    """Gymnasium id -> game name, for every registered game (built-in ones without building them)."""
    ids = {entry.env_id: name for name, entry in BUILTIN_GAMES.items()}
    ids.update({game.env_id: name for name, game in _games.items()})
    return ids


def game_of_class_prefix(prefix: str) -> str | None:
    """The name of the game whose env classes start with ``prefix`` (``"TinyYork"``), or None."""
    for env_id, name in env_ids().items():
        if class_prefix(env_id) == prefix:
            return name
    return None


def _register_env_id(game: Game) -> None:
    """Register ``game``'s Gymnasium id: the single env and the native vector env generated for it,
    ``max_episode_steps`` its ``max_decisions`` (every agent seat's decisions plus one, so more than
    the learning seat's: gym.make's TimeLimit never truncates a game; None: no TimeLimit)."""
    registered = gymnasium.registry.get(game.env_id)
    if registered is not None and registered.max_episode_steps == game.max_decisions:
        return
    gymnasium.registry.pop(game.env_id, None)  # a game registered again with another bound
    prefix = class_prefix(game.env_id)
    gymnasium.register(id=game.env_id, entry_point=f"tiny_york_env.envs.single:{prefix}Env",
                       vector_entry_point=f"tiny_york_env.envs.gym_vector:{prefix}VectorEnv",
                       max_episode_steps=game.max_decisions)


def register_game(game: Game, *, replace: bool = False) -> None:
    """Add ``game`` under ``game.name`` (ValueError if the name is taken, unless ``replace``)."""
    if not isinstance(game, Game):
        raise ValueError(f"register_game takes a contract.Game, got {type(game).__name__}")
    if not replace and (game.name in _games or game.name in BUILTIN_GAMES):
        raise ValueError(f"a game named {game.name!r} is already registered")
    other = env_ids().get(game.env_id)
    if other is not None and other != game.name:
        raise ValueError(f"the Gymnasium id {game.env_id!r} is {other!r}'s; give {game.name!r} its own")
    _games[game.name] = game
    _register_env_id(game)


def unregister_game(name: str) -> None:
    """Remove a game that ``register_game`` added (and its Gymnasium id); ValueError for a built-in
    game or an unknown name."""
    if name in BUILTIN_GAMES:
        raise ValueError(f"{name!r} is a built-in game and stays registered")
    if name not in _games:
        raise ValueError(f"no game named {name!r} was registered; registered: {game_names()}")
    game = _games.pop(name)
    for dtype in [d for d, g in _game_of_dtype.items() if g is game]:
        del _game_of_dtype[dtype]
    gymnasium.registry.pop(game.env_id, None)


def game_names() -> list[str]:
    """Every registered game's name, built-in ones first."""
    return list(BUILTIN_GAMES) + [name for name in _games if name not in BUILTIN_GAMES]


def get_game(game: str | Game | None = None) -> Game:
    """The game named ``game`` (a ``Game`` passes through; None is Tiny York); ValueError names
    the registered games otherwise."""
    if isinstance(game, Game):
        return game
    name = DEFAULT_GAME if game is None else game
    if name in _games:
        return _games[name]
    if not isinstance(name, str) or name not in BUILTIN_GAMES:
        raise ValueError(f"unknown game {game!r}; the games are {game_names()}")
    module, function = BUILTIN_GAMES[name].builder.split(":")
    _games[name] = getattr(importlib.import_module(module), function)()
    return _games[name]


def game_of_state(state: np.ndarray) -> Game:
    """The game whose ``state_dtype`` ``state`` has; ValueError for anything else."""
    dtype = getattr(state, "dtype", None)
    game = _game_of_dtype.get(dtype) if isinstance(dtype, np.dtype) else None
    if game is not None and _games.get(game.name) is game:
        return game
    built = [name for name in game_names() if name in _games]  # those first: no engine imported
    for name in built + [name for name in game_names() if name not in built]:
        game = get_game(name)
        if dtype == game.state_dtype:
            _game_of_dtype[dtype] = game
            return game
    raise ValueError(f"not a game record: {type(state).__name__} of dtype {dtype}; a state comes "
                     f"from a game's new_game (games: {game_names()})")


def _reduce_game(game: Game) -> tuple:
    """Pickle (and deepcopy) a game by name: the registry rebuilds the record (it holds functions)."""
    return get_game, (game.name,)


copyreg.pickle(Game, _reduce_game)
for _name in BUILTIN_GAMES:
    _register_env_id(get_game(_name))


def plugin_builders() -> list[str]:
    """The "module:function" of every outside game: ``PLUGIN_GROUP``'s entry points, then
    ``PLUGIN_VARIABLE``'s entries."""
    found = [point.value for point in importlib.metadata.entry_points(group=PLUGIN_GROUP)]
    found += [item.strip() for item in os.environ.get(PLUGIN_VARIABLE, "").split(",") if item.strip()]
    return found


def load_plugins() -> list[str]:
    """Build and register every outside game not registered yet; their names. A builder that fails
    (or returns no ``Game``) is left out with a warning naming it and the error."""
    loaded = []
    for builder in plugin_builders():
        module, _, function = builder.partition(":")
        try:
            game = getattr(importlib.import_module(module.strip()), function.strip())()
            if not isinstance(game, Game):
                raise ValueError(f"it returned {type(game).__name__}, not a contract.Game")
            if _games.get(game.name) is not None and _games[game.name].env_id == game.env_id:
                continue  # already registered (the same plug-in named twice, or loaded before)
            register_game(game)
            loaded.append(game.name)
        except Exception as error:  # noqa: BLE001  (a broken plug-in must not break the package)
            warnings.warn(f"the game {builder!r} ({PLUGIN_VARIABLE} or entry point group "
                          f"{PLUGIN_GROUP!r}) could not be loaded: {error}", RuntimeWarning, stacklevel=2)
    return loaded
