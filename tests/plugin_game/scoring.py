"""Resolving a round's bids and the end of the game (R5, R6)."""

from tiny_york_env.core.jit import jit

from .state import NO_SEAT


@jit
def highest_bidder(st):
    """The seat whose bid is the single highest (R5), or NO_SEAT when two or more seats tie
    for the highest bid (nobody wins the prize)."""
    best = 0
    who = NO_SEAT
    for seat in range(st["num_players"]):
        bid = st["pending_bid"][seat]
        if bid > best:
            best, who = bid, seat
        elif bid == best:
            who = NO_SEAT
    return who


@jit
def set_winners(st):
    """The seats with the highest score share the win (R6)."""
    best = -1
    for seat in range(st["num_players"]):
        best = max(best, st["score"][seat])
    mask = 0
    for seat in range(st["num_players"]):
        if st["score"][seat] == best:
            mask |= 1 << seat
    st["winner_mask"] = mask
