"""The engine's automatic players ("bots"): random and greedy (compiled).

- **Greedy** bids its lowest card worth more than half the prize (2 * card > prize), else its
  lowest card.
- **Random** picks uniformly among its cards with the record's generator.
"""

from tiny_york_env.core.jit import jit
from tiny_york_env.core.rng import randbelow

from .actions import BID
from .legal import pick_legal
from .state import BOT_RANDOM, MIN_BID, NUM_BID_CARDS


@jit
def greedy_action(st, mask):
    """The greedy bid (module doc); always one ``mask`` allows (-1 when none is legal)."""
    for v in range(MIN_BID, MIN_BID + NUM_BID_CARDS):
        if mask[BID + v - MIN_BID] and 2 * v > st["prize"]:
            return BID + v - MIN_BID
    return pick_legal(mask, 0)


@jit
def bot_action(st, mask):
    """The action of the bot to move (its kind in ``bot_kind``); ``mask`` holds its legal actions."""
    if st["bot_kind"][st["actor"]] == BOT_RANDOM:
        return pick_legal(mask, randbelow(st["rng"], mask.sum()))
    return greedy_action(st, mask)
