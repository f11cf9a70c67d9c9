"""An agent written outside the package, for the tests of ``MODULE:ATTRIBUTE`` agent names."""

import numpy as np


class LowestLegal:
    """Plays the lowest legal action id; works for any game (it reads only the mask)."""

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, observation, action_mask):
        """The lowest legal action."""
        return int(np.flatnonzero(action_mask)[0])


def make_lowest(seed=None):
    """A factory function works as well as a class."""
    return LowestLegal(seed)


NOT_CALLABLE = 3
