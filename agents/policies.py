"""Deprecated (removed in 0.4): the players of every game are the agent registry's
(``agents/registry.py``: ``make_player``, ``check_player``, ``offered_players``), a seat's decision
maker is ``agents/seats.py``'s ``seat_decider`` and the shipped networks are ``agents/shipped.py``'s.
The names below keep their 0.2 signatures on top of those."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from tiny_york_env.agents.registry import (
    AgentFactory,
    agent_name_forms,
    check_player,
    make_player,
    offered_players,
    player_table,
)
from tiny_york_env.agents.seats import observation_policy, seat_decider
from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.contract import Game
from tiny_york_env.core.players import StatePolicyAgent

__all__ = ["POLICY_FORMS", "POLICY_NAMES", "Policy", "StatePolicyAgent", "act_policy", "check_policy_name",
           "make_policy", "offered_policies", "policy_agent", "seat_policy", "shipped_policy_path"]
warnings.warn("tiny_york_env.agents.policies is deprecated: use tiny_york_env.agents.registry "
              "(make_player, check_player, offered_players), agents.seats.seat_decider and "
              "agents.shipped.shipped_policy_path (removed in tiny_york_env 0.4)",
              DeprecationWarning, stacklevel=2)

Policy = Callable[[np.ndarray], int]
POLICY_SEED_BOUND = 2 ** 31  # a policy's own seed is drawn below this from the match's generator
POLICY_NAMES = tuple(player_table())
POLICY_FORMS = agent_name_forms()
act_policy = observation_policy


def seat_policy(game: Game, name: Any, rng: np.random.Generator, config: Any = None,
                agent_seed: int | None = None, unsafe_unpickle: bool = False) -> Policy:
    """One seat's policy (``agents.seats.seat_decider``), seeded ``agent_seed`` or a draw from ``rng``."""
    seed = int(rng.integers(POLICY_SEED_BOUND)) if agent_seed is None else agent_seed
    spec = AgentFactory(name, {"unsafe_unpickle": True}) if unsafe_unpickle else name
    return seat_decider(game, spec, seed, config, rng)


def make_policy(game: Game, name: Any, rng: np.random.Generator, config: Any = None,
                unsafe_unpickle: bool = False) -> Policy:
    """A seat's policy by name (a function of the state passes through)."""
    if callable(name):
        return name
    return seat_policy(game, name, rng, config, unsafe_unpickle=unsafe_unpickle)


def check_policy_name(game: Game, name: Any, config: Any = None) -> str:
    """``name`` when it names a player of ``game`` (``agents.registry.check_player``)."""
    if not isinstance(name, str):
        raise ValueError(f"a policy is named by a string, got {name!r}")
    return check_player(game, name, config)


def policy_agent(game: Game, name: str, seed: int, config: Any = None) -> Any:
    """A player of ``game`` by name (``agents.registry.make_player``)."""
    return make_player(game, name, seed, config)


offered_policies = offered_players
