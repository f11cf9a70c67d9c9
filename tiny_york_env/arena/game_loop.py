"""The one game loop of the evaluation harness, the matches and the tournaments: a game played to
its end through the game contract, whatever decides each seat.

``play_out(game, state, decide)`` asks ``decide(state, seat)`` for the action of the seat to move,
applies it with the engine's checked ``apply_action`` (the engine plays its own participants) and
calls ``on_decision(seat, action)`` after each; an illegal choice is a ValueError that starts with
``who(seat)`` (who chose it, in which game), then the engine's words.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..contract import Game


def play_out(game: Game, state: np.ndarray, decide: Callable[[np.ndarray, int], int],
             on_decision: Callable[[int, int], None] | None = None,
             who: Callable[[int], str] | None = None) -> int:
    """Play ``state`` to the end in place; the number of decisions made."""
    decisions = 0
    while not game.is_terminal(state):
        seat = game.current_player(state)
        action = decide(state, seat)
        try:
            game.apply_action(state, action)
        except ValueError as error:
            if who is None:
                raise
            raise ValueError(f"{who(seat)}: {error}") from error
        if on_decision is not None:
            on_decision(seat, int(action))
        decisions += 1
    return decisions
