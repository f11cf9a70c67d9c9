"""``determinize(state, seat, rng)``: a copy of a game in which everything hidden from ``seat``
is resampled consistently with what it has seen (for planners, R7).

Hidden from a seat: another seat's face-down bid of the current round (which seats have bid is
public, and so is each hand with its pending bid, the cards not played in a resolved round) and
the order of the prize deck (its contents are public: the prizes not yet revealed). Each other
seat that has bid gets a bid drawn uniformly from its hand with its bid (a bot's sealed bid in
the move log follows it), the deck is shuffled, and the copy's generator is reseeded from
``rng``, so its future draws are fresh too. Everything else is kept, so ``seat``'s observation
of the copy is its observation of ``state``.
"""

import numpy as np

from tiny_york_env.core.move_log import MOVE_ACTION, MOVE_SEAT
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.core.seeds import SEED_LIMIT

from .actions import BID
from .api import as_batch
from .observation import check_observer
from .state import MIN_BID, NO_CARD, NUM_BID_CARDS


def determinize(state: np.ndarray, seat: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """A copy of ``state`` with the other seats' pending bids and the prize deck's order
    resampled from ``seat``'s point of view (module doc); ``state`` is not changed."""
    seat = check_observer(state, seat)
    rng = np.random.default_rng(rng)
    out = state.copy()
    rec = as_batch(out)[0]
    for other in range(int(rec["num_players"])):
        bid = int(rec["pending_bid"][other])
        if other == seat or bid == NO_CARD:
            continue
        rec["hand"][other, bid - MIN_BID] = 1  # the bid back into the hand, then one drawn again
        held = [v for v in range(NUM_BID_CARDS) if rec["hand"][other, v]]
        drawn = held[int(rng.integers(len(held)))]
        rec["hand"][other, drawn] = 0
        rec["pending_bid"][other] = drawn + MIN_BID
    logged = min(int(rec["bot_move_count"]), rec["bot_moves"].shape[0])
    for row in range(int(rec["log_round_start"]), logged):  # this round's sealed bot bids
        bot = int(rec["bot_moves"][row, MOVE_SEAT])
        rec["bot_moves"][row, MOVE_ACTION] = BID + int(rec["pending_bid"][bot]) - MIN_BID
    count = int(rec["prize_count"])
    rec["prize_deck"][:count] = rng.permutation(rec["prize_deck"][:count])
    seed_rng(rec["rng"], int(rng.integers(SEED_LIMIT)))
    return out
