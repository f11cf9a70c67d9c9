"""One seat's decision maker for one game, a function of the state: what the arena's games, the
terminal game, the browser board and the single-agent env's opponents call at each decision.

``seat_decider(game, spec, seed, config, rng)`` makes the player (``registry.make_player``: a name,
an ``AgentFactory`` or a ``factory(seed)``) seeded with ``seed`` and decides through
``base.choose_action`` with ``rng``: a planning player gets ``determinize``'s seat-safe view drawn
with ``rng``, any other the seat's observation and legal mask. The player is kept as the
decider's ``agent`` attribute.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tiny_york_env.agents.base import Agent, choose_action
from tiny_york_env.agents.registry import AgentSpec, make_player
from tiny_york_env.contract import Game

Decider = Callable[[np.ndarray], int]  # the state -> the action of the seat to move


class SeatDecider:
    """A player deciding one seat: ``decider(state)`` is its action for the seat to move."""

    def __init__(self, agent: Agent, rng: np.random.Generator) -> None:
        self.agent, self.rng = agent, rng

    def __call__(self, state: np.ndarray) -> int:
        """The player's action for the seat to move in ``state`` (left unchanged)."""
        return int(choose_action(self.agent, state, self.rng))


def seat_decider(game: Game, spec: AgentSpec, seed: int | None, config: Any,
                 rng: np.random.Generator) -> SeatDecider:
    """The decider of one seat of ``game`` with the setup ``config``: the player ``spec`` seeded
    with ``seed``, its views drawn with ``rng``."""
    return SeatDecider(make_player(game, spec, seed, config), rng)


def observation_policy(game: Game, agent: Agent) -> Decider:
    """A state policy of an ``act(observation, mask)`` agent: it sees only the seat's observation
    and legal mask, like in the envs."""
    def policy(state: np.ndarray) -> int:
        seat = game.current_player(state)
        return int(agent.act(game.encode(state, seat), game.legal_mask(state)))
    return policy
