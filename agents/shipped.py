"""The shipped networks of every game (agents/models), by the game's record: the trained policy of a
setup (``Game.shipped_policies`` by players, else ``Game.default_policy``) and the champion's
network (``Game.champion_policy``, else the setup's policy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tiny_york_env.agents.ppo_agent import MODELS_DIR
from tiny_york_env.contract import Game


def has_shipped_policy(game: Game) -> bool:
    """Whether ``game`` ships a trained policy for some setup."""
    return bool(game.shipped_policies) or game.default_policy is not None


def shipped_policy_path(game: Game, players: int) -> Path:
    """The shipped policy file for ``game`` with ``players`` seats (agents and bots, the record's
    ``shipped_policies``, else its ``default_policy``); ValueError when none is shipped for that
    setup."""
    name = game.shipped_policies.get(players, game.default_policy)
    if name is None:
        shipped = sorted(f"{n} players" for n in game.shipped_policies) or "none"
        raise ValueError(f"no trained policy is shipped for {game.title} with {players} players "
                         f"(shipped: {shipped}); give ppo:PATH of one you trained")
    return MODELS_DIR / name


def setup_policy_path(game: Game, config: Any = None) -> Path:
    """The shipped policy of the setup ``config`` (None: the game's default setup)."""
    config = game.make_config() if config is None else config
    return shipped_policy_path(game, game.num_participants(config))


def champion_network(game: Game, config: Any = None) -> Path:
    """The network the champion of ``game`` searches with: the record's ``champion_policy``, else
    the shipped policy of the setup ``config``."""
    if game.champion_policy is not None:
        return MODELS_DIR / game.champion_policy
    return setup_policy_path(game, config)
