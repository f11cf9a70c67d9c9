"""Sealed Bids' own players (the record's ``players``): its greedy bot deciding for an agent seat,
and ``lowbid``, a player no other game has (it bids the least it may), which the whole project
then offers for this game without a file outside this package naming it."""

import numpy as np

from tiny_york_env.contract import PlayerEntry
from tiny_york_env.core.players import heuristic_player

from .api import greedy_choice


class LowestBid:
    """Bids the lowest legal amount (the lowest legal action: bids are numbered by amount)."""

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, observation, action_mask):
        """The lowest legal action."""
        return int(np.flatnonzero(action_mask)[0])


def build_lowest_bid(game, config, seed):
    """A ``LowestBid`` (it needs no seed: it never draws)."""
    return LowestBid(seed)


PLAYERS = (
    PlayerEntry("greedy", "the engine's greedy bot playing an agent seat",
                heuristic_player(greedy_choice, "greedy")),
    PlayerEntry("lowbid", "bids the lowest legal amount", build_lowest_bid),
)
