"""``determinize(state, seat, rng)``: a copy of a 5th Avenue game with everything hidden from
``seat`` dealt again at random, for planners that search from one seat's view.

Hidden from a seat: the values in other players' hands (each colour's count in a hand is kept:
a player takes coloured cards from the face-up stacks, in view of everyone), the coloured
stacks below their face-up top card ("only the top-most card in each stack can be seen"), and
the face-down black stack with the black cards in other hands (their counts kept). The black
cards put back face up under the stack, bids on the table, Alea's drawn cards, the board and
the supply row are public and stay. The unused businesses follow from the visible ones (nine of
each type in all), so they stay too. The record's generator (the future reshuffles and Central
Park's tiles) is seeded afresh from ``rng``.
"""

import numpy as np

from ...core.rng import seed_rng
from .data import NUM_CARD_COLOURS, NUM_CARD_VALUES
from .state import BLACK, STATE_DTYPE

SEED_BOUND = 2 ** 62


def _deal_again(values, hands, rng):
    """Shuffle the pooled ``values`` and deal them back, each hand keeping its count."""
    rng.shuffle(values)
    out, k = [], 0
    for count in hands:
        out.append(np.bincount(values[k:k + count], minlength=NUM_CARD_VALUES))
        k += count
    return out, values[k:]


def _cards_in_hands(rec, seats, colour):
    """The values of ``colour``'s cards in the hands of ``seats``, one entry per card."""
    return [v for s in seats for v in range(NUM_CARD_VALUES) for _ in range(int(rec["hand"][s, colour, v]))]


def determinize(state: np.ndarray, seat: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """A copy of ``state`` (one game) with what ``seat`` cannot see resampled (module doc);
    ``rng``: a generator or a seed."""
    rng = np.random.default_rng(rng)
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.size != 1:
        raise ValueError("determinize takes one 5th Avenue game record")
    out = state.reshape(1).copy()
    rec = out[0]
    n = int(rec["num_players"])
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat of this {n}-player game (0..{n - 1}), got {seat!r}")
    others = [s for s in range(n) if s != seat]
    for c in range(NUM_CARD_COLOURS):
        count = int(rec["coloured_count"][c])
        below_top = list(rec["coloured_stack"][c, :max(count - 1, 0)])
        in_hands = _cards_in_hands(rec, others, c)
        pool = np.array(below_top + in_hands, dtype=np.int64)
        hands, rest = _deal_again(pool, [int(rec["hand"][s, c].sum()) for s in others], rng)
        for s, counts in zip(others, hands, strict=True):
            rec["hand"][s, c] = counts
        rec["coloured_stack"][c, :len(rest)] = rest
    face_down = list(rec["black_stack"][:rec["black_count"]])
    in_hands = _cards_in_hands(rec, others, BLACK)
    pool = np.array(face_down + in_hands, dtype=np.int64)
    hands, rest = _deal_again(pool, [int(rec["hand"][s, BLACK].sum()) for s in others], rng)
    for s, counts in zip(others, hands, strict=True):
        rec["hand"][s, BLACK] = counts
    rec["black_stack"][:len(rest)] = rest
    seed_rng(rec["rng"], int(rng.integers(SEED_BOUND)))  # the future draws are hidden too
    return out.reshape(state.shape)
