"""``determinize(state, seat, rng)``: a copy of a game in which everything hidden from ``seat``
is resampled consistently with what it has seen (for planners, ruling Y2).

Hidden from a seat: the other hands' cards (their sizes are public), the order of the money
deck (the sizes of its piles are public, so an undrawn scoring card stays in its pile, at a
uniform position) and the order of the building deck. Everything else is kept. The copy's own
generator is reseeded from ``rng``, so its future draws are fresh too.

What a seat has seen also limits the other hands: a player paying for a building could afford
it when they bought it (Buy one building card, Y4), so their hand still holds at least the rest
of the price in the slot's currency. The deal is drawn again until the payer's hand does (a
uniform deal among those that do); when ``MAX_REDEALS`` more deals miss too, the payer gets the
fewest largest cards of that currency that cover it and the rest of their hand at random, so the
copy always has a legal move at every decision, as the real game has.
"""

import numpy as np

from ...core.rng import seed_rng
from ...core.seeds import SEED_LIMIT
from .api import as_batch
from .data import BUILDING_PRICE, NUM_CURRENCIES, NUM_VALUES, SCORING_A_PILE, SCORING_B_PILE, SLOT_CURRENCY
from .observation import check_observer
from .state import DEC_PAY, SCORING_A, SCORING_B

PILE_OF_SCORING = {SCORING_A: SCORING_A_PILE, SCORING_B: SCORING_B_PILE}
MAX_REDEALS = 64  # deals drawn again before the payer's hand is built to cover the price


def _pile_range(rec, pile: int, count: int) -> tuple[int, int]:
    """Deck indices [low, high) of ``pile`` in the current deck of ``count`` cards."""
    high = count if pile == 0 else min(int(rec["pile_bottom"][pile - 1]), count)
    return int(rec["pile_bottom"][pile]), high


def _currency_total(codes, currency: int) -> int:
    """The value of the money cards ``codes`` in ``currency``."""
    return sum(code % NUM_VALUES + 1 for code in codes if code // NUM_VALUES == currency)


def payer_needs(rec, seat: int) -> tuple[int, int, int] | None:
    """(payer, currency, amount) when a seat other than ``seat`` is paying for a building: the
    payer's hand holds at least ``amount`` more in ``currency`` (Y4: the price was covered when
    the building was bought); None otherwise."""
    if rec["decision"] != DEC_PAY or int(rec["actor"]) == seat:
        return None
    slot = int(rec["buy_slot"])
    price = int(BUILDING_PRICE[rec["building_display"][slot]])
    return int(rec["actor"]), int(SLOT_CURRENCY[slot]), max(price - int(rec["paid"]), 0)


def _deal(pool, sizes: dict[int, int]) -> tuple[dict[int, list[int]], list[int]]:
    """Each hand of ``sizes`` from the end of the shuffled ``pool``, in seat order; the rest."""
    rest = [int(c) for c in pool]
    return {s: [rest.pop() for _ in range(size)] for s, size in sizes.items()}, rest


def _covering_deal(pool, sizes, needs, rng) -> tuple[dict[int, list[int]], list[int]]:
    """A deal in which the payer holds the fewest largest cards of the currency that cover the
    amount, then random cards; the other hands at random."""
    payer, currency, amount = needs
    order = sorted(rng.permutation(pool).tolist(),
                   key=lambda c: -(c % NUM_VALUES + 1) if c // NUM_VALUES == currency else 0)
    covering, covered = [], 0
    while covered < amount and order:
        covering.append(order.pop(0))
        covered = _currency_total(covering[-1:], currency) + covered
    if covered < amount or len(covering) > sizes[payer]:
        raise ValueError(f"seat {payer} pays for a building with money that cannot cover it: not a "
                         "position the game can reach (validate_state refuses it)")
    rest = rng.permutation(np.array(order, dtype=np.int64))
    hands, rest = _deal(rest, {s: size - len(covering) if s == payer else size for s, size in sizes.items()})
    hands[payer] += covering
    return hands, rest


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
    sizes = {}
    for s in (s for s in range(n) if s != seat):
        sizes[s] = int(rec["hand"][s].sum())
        for c in range(NUM_CURRENCIES):
            for v in range(NUM_VALUES):
                pool += [c * NUM_VALUES + v] * int(rec["hand"][s, c, v])
        rec["hand"][s] = 0
    pool = np.array(pool, dtype=np.int64)
    needs = payer_needs(rec, seat)
    hands, rest = _deal(rng.permutation(pool), sizes)
    redeals = 0
    while needs is not None and _currency_total(hands[needs[0]], needs[1]) < needs[2]:
        if redeals == MAX_REDEALS:
            hands, rest = _covering_deal(pool, sizes, needs, rng)
            break
        hands, rest = _deal(rng.permutation(pool), sizes)
        redeals += 1
    for s, codes in hands.items():
        for code in codes:
            rec["hand"][s, code // NUM_VALUES, code % NUM_VALUES] += 1
    k = 0
    for j in range(count):
        if j not in scoring_at:
            deck[j] = rest[k]
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
