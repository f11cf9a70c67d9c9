"""The agent interface shared by the baselines, the envs and the evaluation harness.

Every agent has ``act(observation, action_mask) -> action``: the seat's observation (the game
record's ``encode``, float32[obs_size]) and its legal mask (bool[num_actions]), exactly what the
Gymnasium and PettingZoo envs hand a policy. Agents that plan with the engine may also define
``act_state(view, seat) -> action``. ``view`` is never the real game: it is the record's
``determinize(state, seat, seed)``, a copy in which everything ``seat`` may not know (in Tiny York,
R25: other hands and reserves, Tom supplies, pile and stack orders, the generator) is resampled
from what it does know. So an agent can read, copy and play out ``view`` freely and
still cannot cheat. ``choose_action`` is the one place that makes this call; the evaluation
harness, the terminal player and the single-agent env go through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeGuard

import numpy as np
from numpy.typing import NDArray

from tiny_york_env.registry import game_of_state

SEED_BOUND = 2 ** 63


class Agent(Protocol):
    """The interface every agent has: ``act(observation, action_mask) -> action``."""

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.bool_]) -> int:
        """The action for one seat's observation (float32[obs_size]) and legal mask (bool[num_actions])."""
        ...


class StateAgent(Agent, Protocol):
    """An agent that plans on a seat-safe engine view: ``act_state(view, seat) -> action``."""

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The action for ``seat`` in ``view``, a seat-safe copy of the game from ``determinize``."""
        ...


def uses_state(agent: object) -> TypeGuard[StateAgent]:
    """True when ``agent`` plans on a seat-safe engine view (it has ``act_state``)."""
    return callable(getattr(agent, "act_state", None))


def choose_action(agent: Agent, state: np.ndarray, rng: np.random.Generator) -> int:
    """The action ``agent`` chooses for the seat to move in ``state`` (left unchanged).

    A planning agent gets a determinized view drawn with ``rng`` (numpy Generator); any other
    agent gets the seat's observation and legal mask. The game is the record's (any registered
    game). ValueError when the game is over."""
    game = game_of_state(state)
    seat = game.current_player(state)
    if seat < 0:
        raise ValueError("the game is over: no seat is to move")
    if uses_state(agent):
        view = game.determinize(state, seat, int(rng.integers(SEED_BOUND)))
        return int(agent.act_state(view, seat))
    return int(agent.act(game.encode(state, seat), game.legal_mask(state)))


def check_agent(agent: object, name: str = "agent") -> None:
    """ValueError unless ``agent`` has an ``act(observation, action_mask)`` method."""
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"{name} {agent!r} has no act(observation, action_mask) method")


def legal_or_error(action: int | np.integer, action_mask: np.ndarray | Sequence[bool],
                   who: str = "agent") -> int:
    """``action`` as an int, or ValueError saying it is not among the legal ones."""
    action = int(action)
    if not (0 <= action < len(action_mask)) or not action_mask[action]:
        legal = np.flatnonzero(action_mask)
        raise ValueError(f"{who} chose action {action}, which is not legal now; legal: "
                         f"{legal.tolist()}")
    return action
