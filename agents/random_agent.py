"""``RandomAgent``: uniform over the legal actions."""

import numpy as np
from numpy.typing import ArrayLike


class RandomAgent:
    """Chooses uniformly among the legal actions; seeded for reproducible games."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: ArrayLike, action_mask: ArrayLike) -> int:
        """A uniformly random legal action; ValueError when the mask allows none."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action: the mask is all False (is the game over?)")
        return int(self.rng.choice(legal))
