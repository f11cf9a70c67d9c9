"""A global state made of every seat's observation, for games that define it so.

PettingZoo's ``state()`` (a centralized critic's input, CTDE: MAPPO, QMIX) is one vector of the
whole game. For a game whose hidden information is the seats' own cards, every seat's
observation side by side holds all of it but the decks' order: ``SeatViews`` builds that vector,
seat 0's view first, each seat's view from its own side (its hand in full), and zeros for the
seats a smaller game does not have, so the length is the same for every player count.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray


@dataclass(frozen=True)
class SeatViews:
    """The global state of a game with ``max_seats`` seats: ``encode(state, seat)`` for every seat
    of ``num_seats(state)``, each ``observation_space()`` long, in seat order."""

    encode: Callable[[np.ndarray, int], NDArray[np.float32]]
    observation_space: Callable[[], spaces.Box]
    num_seats: Callable[[np.ndarray], int]
    max_seats: int

    def space(self) -> spaces.Box:
        """The Box of the global state: the observation's bounds, once per seat."""
        one = self.observation_space()
        return spaces.Box(low=np.tile(one.low, self.max_seats), high=np.tile(one.high, self.max_seats),
                          dtype=np.float32)

    def encode_state(self, state: np.ndarray) -> NDArray[np.float32]:
        """float32[max_seats * obs_size]: every seat's observation, zeros past the game's seats."""
        size = self.observation_space().shape[0]
        out = np.zeros(self.max_seats * size, dtype=np.float32)
        for seat in range(self.num_seats(state)):
            out[seat * size:(seat + 1) * size] = self.encode(state, seat)
        return out
