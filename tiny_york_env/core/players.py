"""What a game's own players share (its record's ``players``, ``contract.PlayerEntry``): a heuristic
of the state as an agent.

``StatePolicyAgent`` plays a function of the state that returns the action of the seat to move
(a game's greedy heuristic, ``Game.greedy_action``). It plans on the seat's view, as every agent
with ``act_state`` does: the caller (``agents.base.choose_action``) hands it ``determinize``'s
seat-safe copy of the game, never the game itself.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

StatePolicy = Callable[[np.ndarray], int]  # the state -> the action of the seat to move


class StatePolicyAgent:
    """A state policy (a function of the state returning the action of the seat to move) as an
    agent that plans on the seat's determinized view (``act_state``)."""

    def __init__(self, policy: StatePolicy, label: str = "policy") -> None:
        self.policy, self.label = policy, label

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Refused: this policy decides from the game record (``act_state``)."""
        raise ValueError(f"{self.label} decides from the game record: call act_state(view, seat) "
                         f"(tiny_york_env.agents.base.choose_action does)")

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The policy's action for ``seat``, the seat to move in ``view``."""
        return int(self.policy(view))


def heuristic_player(policy: StatePolicy, label: str) -> Callable[..., StatePolicyAgent]:
    """A ``PlayerEntry.build`` of the heuristic ``policy``: ``build(game, config, seed)`` gives a
    ``StatePolicyAgent`` (the heuristic takes no seed: it decides from the view alone)."""
    def build(game, config, seed, **options) -> StatePolicyAgent:
        if options:
            raise ValueError(f"{label} takes no options, got {sorted(options)}")
        return StatePolicyAgent(policy, label)
    return build
