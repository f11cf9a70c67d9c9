"""Each game's env classes, generated from its record: ``TinyYorkEnv``, ``ConstructionYardVecEnv``...

The envs are written once (``GameEnv``, ``GameVectorEnv``, ``GameVecEnv``, ``GameAECEnv``) against
the game contract; a game's classes only fix the game and turn its setup keywords into a config.
So they are made here, not written per game: ``<Prefix><Kind>`` where the prefix is the game's
Gymnasium id before ``-v`` (``TinyYork-v0``: ``TinyYorkEnv``, ``TinyYorkVectorEnv``,
``TinyYorkVecEnv``, ``TinyYorkAECEnv``). The setup keywords and their defaults are the record's
``env_defaults`` (single-agent, vector and VecEnv: one learning seat) and ``aec_defaults`` (the
AEC env: every agent seat), inserted into the base class's signature where its ``setup`` /
``game, config`` parameters stand, so ``inspect.signature`` and positional calls read as a
hand-written class would. A class is built on first use and cached; it pickles by name (each env
module finds it in its ``__getattr__``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from ..contract import Game
from ..core.labels import count_noun
from ..registry import class_prefix, game_of_class_prefix, get_game

REPLACED_PARAMETERS = ("setup", "game", "config")  # the base class's parameters a game fixes
LEADING_PARAMETERS = ("self", "num_envs")  # the setup keywords come after these
_classes: dict[tuple[str, str, int], type] = {}


def setup_config(game: Game, num_agents: int | None, setup: Mapping[str, Any]) -> Any:
    """The game's config from its setup keywords, with exactly ``num_agents`` agent seats when
    given (ValueError otherwise, or from the config's own checks)."""
    keywords = dict(setup)
    takes_agents = "num_agents" in inspect.signature(game.config_type).parameters
    if num_agents is not None and takes_agents:
        keywords["num_agents"] = num_agents
    config = game.make_config(**keywords)
    if num_agents is not None and game.num_agents(config) != num_agents:
        raise ValueError(f"{game.title} with {dict(setup)} has "
                         f"{count_noun(game.num_agents(config), 'agent seat')}, but this env needs "
                         f"{num_agents} (the learning seat and one per opponent): leave "
                         f"{count_noun(num_agents, 'seat')} to agents, the rest to {game.automatic_kind}")
    return config


def default_automatic(game: Game) -> tuple[Any, ...]:
    """The automatic participants of the single-agent envs' default setup (``Game.env_defaults``,
    one agent seat: Tiny York's Tom 5, the other games' greedy bot), as ``seat_config`` takes them."""
    return game.automatic_of(setup_config(game, 1, game.env_defaults))


def normal_setup(config: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
    """The setup keywords as the checked config keeps them (e.g. Tom codes normalised)."""
    return {key: getattr(config, key, value) for key, value in setup.items()}


def _signature(base: type, game: Game, defaults: Mapping[str, Any]) -> inspect.Signature:
    """``base.__init__``'s signature with the game's setup keywords (their defaults, and their
    annotations from the config's fields) in place of the parameters a game fixes."""
    base_signature = inspect.signature(base.__init__)
    kept = [p for p in base_signature.parameters.values() if p.name not in REPLACED_PARAMETERS]
    split = sum(1 for p in kept if p.name in LEADING_PARAMETERS)
    fields = inspect.signature(game.config_type).parameters
    setup = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=value,
                               annotation=fields[name].annotation if name in fields else Any)
             for name, value in defaults.items()]
    rest = [p.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD)
            if p.kind is inspect.Parameter.KEYWORD_ONLY else p for p in kept[split:]]
    return inspect.Signature(kept[:split] + setup + rest, return_annotation=base_signature.return_annotation)


def make_game_class(base: type, kind: str, game_name: str, defaults: Callable[[Game], Mapping[str, Any]],
                    build: Callable[..., None], extra: Callable[[Game], dict[str, Any]]) -> type:
    """The ``kind`` class of the game ``game_name`` over ``base``: its ``__init__`` binds the
    generated signature and calls ``build(self, game, setup, **other_arguments)``; ``extra``
    gives class attributes (metadata, reset options)."""
    game = get_game(game_name)
    key = (kind, game_name, id(game))  # a game registered again (another record) gets new classes
    if key in _classes:
        return _classes[key]
    setup_defaults = dict(defaults(game))
    signature = _signature(base, game, setup_defaults)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        setup = {name: arguments.pop(name) for name in setup_defaults}
        build(self, game, setup, **arguments)

    name = class_prefix(game.env_id) + kind
    __init__.__signature__ = signature
    __init__.__qualname__ = f"{name}.__init__"
    __init__.__doc__ = (f"A new env of {game.title}; the setup keywords "
                        f"{', '.join(setup_defaults) or '(none)'} make its config (see the module's table).")
    cls = type(name, (base,), {"__init__": __init__, "game_name": game.name, **extra(game),
                               "__doc__": f"{base.__doc__.splitlines()[0]} Game: {game.title} "
                                          f"({game.automatic_participants}).",
                               "__module__": base.__module__, "__qualname__": name})
    _classes[key] = cls
    return cls


def game_class_name(name: str, kind: str) -> str | None:
    """The game whose ``kind`` class is called ``name`` (``"TinyYorkEnv"``, kind ``"Env"``), or None."""
    if not name.endswith(kind) or name == kind:
        return None
    return game_of_class_prefix(name[:-len(kind)])


RENDER_FPS = 4  # every env's metadata["render_fps"]: the AEC, single and vector envs alike


def render_modes(game: Game, text_modes: tuple[str, ...]) -> list[str]:
    """``text_modes`` and ``"rgb_array"`` where the game draws pictures."""
    return list(text_modes) + (["rgb_array"] if game.render_rgb is not None else [])
