"""One registry of games: name -> ``contract.Game`` (docs/games.md).

| name | title | Gymnasium id | PettingZoo |
|---|---|---|---|
| ``tiny_york`` | Tiny York | ``TinyYork-v0`` | ``env()`` = ``make_aec("tiny_york")`` |
| ``construction_yard`` | Construction Yard | ``ConstructionYard-v0`` | ``make_aec("construction_yard")`` |
| ``fifth_avenue`` | 5th Avenue | ``FifthAvenue-v0`` | ``make_aec("fifth_avenue")`` |

Automatic participants: Tiny York's Toms (levels 1-12); Construction Yard's bots ("random",
"greedy") and Dirk in every two-player game; 5th Avenue's random bots and Alea in every
two-player game.

Games are built on first use (each imports its engine only then); ``register_game`` adds another
one at run time. ``game_of_state`` finds a record's game from its dtype, so functions that take
a state (rewards, persistence) need no game argument.
"""

from __future__ import annotations

import importlib

import numpy as np

from .contract import Game, GameKernels

# name -> "module:function" that builds the game's record (imported on first use)
BUILTIN_GAMES = {
    "tiny_york": "tiny_york_env.registry:tiny_york_game",
    "construction_yard": "tiny_york_env.construction_yard.contract:construction_yard_game",
    "fifth_avenue": "tiny_york_env.fifth_avenue.contract:fifth_avenue_game",
}
DEFAULT_GAME = "tiny_york"
_games: dict[str, Game] = {}


def tiny_york_game() -> Game:
    """Tiny York's record: the engine in ``game/``, the encoder in ``observation.py``."""
    from . import game, global_state, observation
    from .envs.rewards import SCORE_MARGIN_SCALE
    from .game import api, kernels, legal, rules

    def render_rgb(state):
        from .render import render_rgb as draw  # pillow is only needed for pictures

        return draw(state)

    return Game(
        name="tiny_york", title="Tiny York", version="1", env_id="TinyYork-v0",
        aec_name="tiny_york_v0", rules_source="rules/rulebook-en.txt (docs/rules.md)",
        automatic_participants="Toms (levels 1-12 or codes like 'B4'), after the agent seats",
        config_type=game.GameConfig, make_config=game.GameConfig,
        num_agents=lambda config: config.num_agents,
        num_participants=lambda config: config.num_participants,
        config_params=api.config_params,
        state_dtype=game.STATE_DTYPE, num_actions=game.NUM_ACTIONS,
        new_game=game.new_game, current_player=game.current_player, legal_mask=game.legal_mask,
        apply_action=game.apply_action, step=game.step, is_terminal=game.is_terminal,
        final_scores=game.final_scores, winners=game.winners, placings=game.placings,
        score_breakdown=game.score_breakdown, describe_action=game.describe_action,
        render_text=game.render_text, determinize=game.determinize,
        validate_state=game.validate_state, save_state=game.save_state, load_state=game.load_state,
        automatic_moves=game.tom_events_of,
        obs_size=observation.OBS_SIZE, encode=observation.encode,
        observation_space=observation.observation_space, obs_slices=observation.OBS_SLICES,
        kernels=GameKernels(
            init_record=kernels.init_record, fill_legal_mask=legal.fill_legal_mask,
            apply_checked=rules.apply, apply_unchecked=rules.apply_unchecked,
            is_over=kernels.is_over, actor_of=kernels.actor_of,
            encode_record=observation.encode_record),
        batch_module="tiny_york_env.game.batch",
        score_scale=SCORE_MARGIN_SCALE, render_rgb=render_rgb,
        global_state=global_state.encode_global_state,
        global_state_space=global_state.global_state_space,
        env_defaults={"toms": (5,)},
        docs=("docs/rules.md", "docs/actions.md", "docs/observation.md", "docs/global-state.md"),
    )


def register_game(game: Game, *, replace: bool = False) -> None:
    """Add ``game`` under ``game.name`` (ValueError if the name is taken, unless ``replace``)."""
    if not isinstance(game, Game):
        raise ValueError(f"register_game takes a contract.Game, got {type(game).__name__}")
    if not replace and (game.name in _games or game.name in BUILTIN_GAMES):
        raise ValueError(f"a game named {game.name!r} is already registered")
    _games[game.name] = game


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
    module, function = BUILTIN_GAMES[name].split(":")
    _games[name] = getattr(importlib.import_module(module), function)()
    return _games[name]


def game_of_state(state: np.ndarray) -> Game:
    """The game whose ``state_dtype`` ``state`` has; ValueError for anything else."""
    dtype = getattr(state, "dtype", None)
    for name in game_names():
        game = get_game(name)
        if dtype == game.state_dtype:
            return game
    raise ValueError(f"not a game record: {type(state).__name__} of dtype {dtype}; a state comes "
                     f"from a game's new_game (games: {game_names()})")
