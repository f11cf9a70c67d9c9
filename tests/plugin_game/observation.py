"""Sealed Bids' per-seat observation: one flat float32 vector with named slices (``OBS_PARTS``).

Seen from the observing seat: seat-indexed parts are rotated so the observer comes first (then
the next seat clockwise, ...). It holds only what that seat may know (R7): its own hand and its
own pending bid, which seats have bid this round (not what), the revealed prizes, the resolved
rounds (every bid, each prize and who won it), the scores and the turn. Never another seat's
pending bid, nor the order of the prize deck (what is left of it is public: the prizes not yet
seen). Every entry lies in [0, 1].
"""

import numpy as np
from gymnasium import spaces

from tiny_york_env.core.jit import jit
from tiny_york_env.core.parts import part_slices

from .state import (
    DEC_BID,
    DEC_GAME_OVER,
    MAX_PLAYERS,
    MAX_SCORE,
    MIN_BID,
    MIN_PLAYERS,
    NO_CARD,
    NO_SEAT,
    NUM_BID_CARDS,
    NUM_PRIZES,
    NUM_ROUNDS,
)

NUM_PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
WINNER_SLOTS = MAX_PLAYERS + 1  # a seat (observer first), or nobody (a tie)

OBS_PARTS = (
    ("num_players", NUM_PLAYER_COUNTS, "one-hot: 2..4 players"),
    ("round", NUM_ROUNDS + 1, "one-hot: rounds resolved, 0..6 (6: the game is over)"),
    ("prize", NUM_PRIZES, "one-hot: the revealed prize of this round (all 0 at the end)"),
    ("own_hand", NUM_BID_CARDS, "1 per bid card 1..6 the observer still holds"),
    ("own_bid", NUM_BID_CARDS, "one-hot: the observer's face-down bid this round"),
    ("to_move", MAX_PLAYERS, "one-hot: the seat to bid (observer first)"),
    ("has_bid", MAX_PLAYERS, "1 per seat (observer first) that has bid this round"),
    ("bids_played", MAX_PLAYERS * NUM_BID_CARDS,
     "per seat (observer first): 1 per bid card played in a resolved round"),
    ("scores", MAX_PLAYERS, f"score per seat (observer first) / {MAX_SCORE}"),
    ("prizes_seen", NUM_PRIZES, "1 per prize value revealed so far (the rest is the deck)"),
    ("prize_history", NUM_ROUNDS, f"each resolved round's prize / {NUM_PRIZES}"),
    ("round_winner", NUM_ROUNDS * WINNER_SLOTS,
     "per resolved round one-hot: the winning seat (observer first), last: nobody (a tie)"),
    ("game_over", 1, "1 once the game is over"),
)

OBS_SLICES, OBS_SIZE = part_slices(OBS_PARTS)
_S = {name: s.start for name, s in OBS_SLICES.items()}  # offsets, readable by compiled code
O_PLAYERS, O_ROUND, O_PRIZE = _S["num_players"], _S["round"], _S["prize"]
O_HAND, O_BID, O_MOVE, O_HAS_BID = _S["own_hand"], _S["own_bid"], _S["to_move"], _S["has_bid"]
O_PLAYED, O_SCORES, O_SEEN = _S["bids_played"], _S["scores"], _S["prizes_seen"]
O_PRIZES, O_WINNERS, O_OVER = _S["prize_history"], _S["round_winner"], _S["game_over"]


def observation_space() -> spaces.Box:
    """The finite Box every env uses: [0, 1] per entry."""
    return spaces.Box(low=0.0, high=1.0, shape=(OBS_SIZE,), dtype=np.float32)


@jit
def relative(st, observer, seat):
    """``seat``'s position counted clockwise from ``observer`` (0 = the observer)."""
    return (seat - observer) % st["num_players"]


@jit
def encode_record(st, observer, out):
    """Write ``observer``'s view of record ``st`` into ``out`` (float32[OBS_SIZE])."""
    for k in range(out.shape[0]):
        out[k] = 0.0
    n = st["num_players"]
    out[O_PLAYERS + n - MIN_PLAYERS] = 1.0
    out[O_ROUND + st["round"]] = 1.0
    if st["prize"] != NO_CARD:
        out[O_PRIZE + st["prize"] - 1] = 1.0
        out[O_SEEN + st["prize"] - 1] = 1.0
    for v in range(NUM_BID_CARDS):
        out[O_HAND + v] = st["hand"][observer, v]
    if st["pending_bid"][observer] != NO_CARD:
        out[O_BID + st["pending_bid"][observer] - MIN_BID] = 1.0
    for seat in range(n):
        k = relative(st, observer, seat)
        if st["decision"] == DEC_BID and seat == st["actor"]:
            out[O_MOVE + k] = 1.0
        if st["pending_bid"][seat] != NO_CARD:
            out[O_HAS_BID + k] = 1.0
        out[O_SCORES + k] = st["score"][seat] / MAX_SCORE
        for r in range(st["round"]):
            out[O_PLAYED + k * NUM_BID_CARDS + st["bid_history"][seat, r] - MIN_BID] = 1.0
    for r in range(st["round"]):
        prize = st["prize_history"][r]
        out[O_SEEN + prize - 1] = 1.0
        out[O_PRIZES + r] = prize / NUM_PRIZES
        winner = st["round_winner"][r]
        slot = MAX_PLAYERS if winner == NO_SEAT else relative(st, observer, winner)
        out[O_WINNERS + r * WINNER_SLOTS + slot] = 1.0
    if st["decision"] == DEC_GAME_OVER:
        out[O_OVER] = 1.0


@jit
def encode_batch_kernel(states, seats, out):
    """Row i of ``out``: seat ``seats[i]``'s view of game i."""
    for i in range(states.shape[0]):
        encode_record(states[i], seats[i], out[i])


def check_observer(state: np.ndarray, seat: int) -> int:
    """``seat`` as an int; ValueError unless it is a seat of the game."""
    n = int(state.reshape(1)[0]["num_players"])
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat of this {n}-player game (0..{n - 1}), got {seat!r}")
    return int(seat)


def encode(state: np.ndarray, seat: int) -> np.ndarray:
    """float32[OBS_SIZE]: ``seat``'s view of the single game ``state``."""
    from .api import as_batch  # noqa: PLC0415  (api imports kernels; keep this module light)

    batch = as_batch(state)
    seat = check_observer(state, seat)
    out = np.zeros((1, OBS_SIZE), dtype=np.float32)
    encode_batch_kernel(batch, np.array([seat], dtype=np.int64), out)
    return out[0]


def observation_table() -> str:
    """The slice table, as Markdown."""
    lines = ["| slice | size | name | content |", "|---|---|---|---|"]
    for (name, size, text), s in zip(OBS_PARTS, OBS_SLICES.values(), strict=True):
        lines.append(f"| {s.start}:{s.stop} | {size} | `{name}` | {text} |")
    return "\n".join(lines)
