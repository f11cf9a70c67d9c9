"""Card helpers shared by the rules: shuffling, drawing, hand totals (compiled)."""

from ...core.jit import jit
from ...core.rng import randbelow
from .data import BUILDING_PRICE, BUILDING_TYPE, NUM_VALUES, SLOT_CURRENCY
from .state import NO_CARD, NUM_MONEY_CODES


@jit
def shuffle(cards, count, rng):
    """Fisher-Yates shuffle of ``cards[:count]`` with the record's generator."""
    for k in range(count - 1, 0, -1):
        j = randbelow(rng, k + 1)
        cards[k], cards[j] = cards[j], cards[k]


@jit
def money_value(code):
    """The value 1..9 of a money card code (0 for a scoring card)."""
    if code >= NUM_MONEY_CODES:
        return 0
    return code % NUM_VALUES + 1


@jit
def money_currency(code):
    """The currency 0..3 of a money card code."""
    return code // NUM_VALUES


@jit
def currency_total(st, seat, currency):
    """The total value of ``seat``'s money in ``currency``."""
    total = 0
    for v in range(NUM_VALUES):
        total += st["hand"][seat, currency, v] * (v + 1)
    return total


@jit
def hand_total(st, seat):
    """The total value of all of ``seat``'s money, currencies disregarded."""
    total = 0
    for c in range(st["hand"].shape[1]):
        total += currency_total(st, seat, c)
    return total


@jit
def hand_size(st, seat):
    """The number of money cards ``seat`` holds."""
    return st["hand"][seat].sum()


@jit
def add_to_hand(st, seat, code):
    """Put money card ``code`` into ``seat``'s hand."""
    st["hand"][seat, money_currency(code), code % NUM_VALUES] += 1


@jit
def building_price(card):
    """The printed price of building card ``card``."""
    return BUILDING_PRICE[card]


@jit
def building_type(card):
    """The type 0..5 of building card ``card``."""
    return BUILDING_TYPE[card]


@jit
def slot_currency(slot):
    """The currency a building in display slot ``slot`` is paid in (the construction yard)."""
    return SLOT_CURRENCY[slot]


@jit
def draw_building(st):
    """The top building card of the face-down deck, or NO_CARD when it is empty."""
    if st["building_count"] == 0:
        return NO_CARD
    st["building_count"] -= 1
    return st["building_deck"][st["building_count"]]
