"""What the seat to move may do (``fill_legal_mask``): bid any card it still holds (R4)."""

from tiny_york_env.core.jit import jit

from .actions import BID, NUM_ACTIONS
from .state import DEC_BID, NUM_BID_CARDS


@jit
def fill_legal_mask(st, mask):
    """``mask[a]`` True for each legal action of the seat to move; all False at the end.

    - Bidding (R4): one bid per card value the actor still holds in its hand.
    """
    for a in range(NUM_ACTIONS):
        mask[a] = False
    if st["decision"] != DEC_BID:
        return
    for v in range(NUM_BID_CARDS):
        if st["hand"][st["actor"], v] != 0:
            mask[BID + v] = True


@jit
def pick_legal(mask, k):
    """The ``k``-th legal action (0-based) of ``mask``, -1 when there are fewer."""
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1
