"""The global state: one float32 vector of the whole game, hidden parts included, for a
centralized critic (PettingZoo's ``state()`` / ``state_space``); never for a policy that acts.

It is seat 0's observation (seen from seat 0 the relative seats are the absolute ones), then
everything an observation leaves out (R7): every hand, every pending bid, and the prize deck in
order (top first). Every entry lies in [0, 1].
"""

import numpy as np
from gymnasium import spaces

from tiny_york_env.core.parts import part_slices

from .observation import OBS_SIZE, encode
from .state import MAX_PLAYERS, MIN_BID, NO_CARD, NUM_BID_CARDS, NUM_PRIZES

GLOBAL_STATE_PARTS = (
    ("public", OBS_SIZE, "seat 0's observation; its relative seats are absolute"),
    ("hands", MAX_PLAYERS * NUM_BID_CARDS, "per seat: 1 per bid card still held"),
    ("pending_bids", MAX_PLAYERS * NUM_BID_CARDS, "per seat: one-hot, its face-down bid this round"),
    ("deck_order", NUM_PRIZES, f"the prize deck from the top: value / {NUM_PRIZES} (0 past its end)"),
)
GLOBAL_STATE_SLICES, GLOBAL_STATE_SIZE = part_slices(GLOBAL_STATE_PARTS)


def global_state_space() -> spaces.Box:
    """The finite Box of ``encode_global_state``: [0, 1] per entry."""
    return spaces.Box(low=0.0, high=1.0, shape=(GLOBAL_STATE_SIZE,), dtype=np.float32)


def encode_global_state(state: np.ndarray) -> np.ndarray:
    """float32[GLOBAL_STATE_SIZE]: the whole game ``state`` (module doc)."""
    out = np.zeros(GLOBAL_STATE_SIZE, dtype=np.float32)
    out[GLOBAL_STATE_SLICES["public"]] = encode(state, 0)
    rec = state.reshape(1)[0]
    n = int(rec["num_players"])
    hands = out[GLOBAL_STATE_SLICES["hands"]].reshape(MAX_PLAYERS, NUM_BID_CARDS)
    hands[:n] = rec["hand"][:n]
    pending = out[GLOBAL_STATE_SLICES["pending_bids"]].reshape(MAX_PLAYERS, NUM_BID_CARDS)
    for seat in range(n):
        if rec["pending_bid"][seat] != NO_CARD:
            pending[seat, int(rec["pending_bid"][seat]) - MIN_BID] = 1.0
    count = int(rec["prize_count"])
    deck = out[GLOBAL_STATE_SLICES["deck_order"]]
    deck[:count] = rec["prize_deck"][:count][::-1] / NUM_PRIZES
    return out
