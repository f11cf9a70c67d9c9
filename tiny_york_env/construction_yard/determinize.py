"""``determinize(state, seat, rng)``: a copy of a game in which everything hidden from ``seat``
is resampled consistently with what it has seen (for planners, ruling Y2).

Hidden from a seat: the other hands' cards (their sizes are public), the order of the money
deck (the sizes of its piles are public, so an undrawn scoring card stays in its pile, at a
uniform position) and the order of the building deck. Everything else is kept. The copy's own
generator is reseeded from ``rng``, so its future draws are fresh too.
"""

import numpy as np

from ..core.rng import seed_rng
from ..core.seeds import SEED_LIMIT
from .api import as_batch
from .data import NUM_CURRENCIES, NUM_VALUES, SCORING_A_PILE, SCORING_B_PILE
from .observation import check_observer
from .state import SCORING_A, SCORING_B

PILE_OF_SCORING = {SCORING_A: SCORING_A_PILE, SCORING_B: SCORING_B_PILE}


def _pile_range(rec, pile: int, count: int) -> tuple[int, int]:
    """Deck indices [low, high) of ``pile`` in the current deck of ``count`` cards."""
    high = count if pile == 0 else min(int(rec["pile_bottom"][pile - 1]), count)
    return int(rec["pile_bottom"][pile]), high


def determinize(state: np.ndarray, seat: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """A copy of ``state`` with the other hands, the money deck and the building deck resampled
    from ``seat``'s point of view (module doc); ``state`` is not changed."""
    seat = check_observer(state, seat)
    rng = np.random.default_rng(rng)
    out = state.copy()
    rec = as_batch(out)[0]
    n = int(rec["num_players"])
    count = int(rec["money_count"])
    deck = rec["money_deck"][:count]
    scoring_at = [k for k in range(count) if deck[k] in (SCORING_A, SCORING_B)]
    pool = [int(c) for k, c in enumerate(deck) if k not in scoring_at]
    others = [s for s in range(n) if s != seat]
    sizes = {}
    for s in others:
        sizes[s] = int(rec["hand"][s].sum())
        for c in range(NUM_CURRENCIES):
            for v in range(NUM_VALUES):
                pool += [c * NUM_VALUES + v] * int(rec["hand"][s, c, v])
        rec["hand"][s] = 0
    pool = list(rng.permutation(np.array(pool, dtype=np.int64)))
    for s in others:
        for _ in range(sizes[s]):
            code = int(pool.pop())
            rec["hand"][s, code // NUM_VALUES, code % NUM_VALUES] += 1
    k = 0
    for j in range(count):
        if j not in scoring_at:
            deck[j] = pool[k]
            k += 1
    for j in scoring_at:  # a scoring card goes to a uniform position of its pile
        low, high = _pile_range(rec, PILE_OF_SCORING[int(deck[j])], count)
        if high > low:
            target = int(rng.integers(low, high))
            deck[j], deck[target] = deck[target], deck[j]
    buildings = rec["building_deck"][:int(rec["building_count"])]
    buildings[:] = rng.permutation(buildings)
    seed_rng(rec["rng"], int(rng.integers(SEED_LIMIT)))
    return out


