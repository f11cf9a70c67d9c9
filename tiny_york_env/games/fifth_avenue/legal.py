"""5th Avenue's legal actions: ``fill_legal_mask(st, mask)`` for the pending decision (every
decision of "PLAYING THE GAME", the auctions and the building stops). Readings of the text:
docs/fifth-avenue.md.
"""

import numpy as np

from ...core.jit import jit
from .actions import (
    BID_CARD,
    BID_FINISH,
    BID_PASS,
    BUILD,
    BUILDING_STOP,
    COLOUR_PAIRS,
    DEST_CITY_HALL,
    MOVE,
    NUM_ACTIONS,
    NUM_DESTINATIONS,
    OPTION_A,
    OPTION_B,
    OPTION_C,
    PLACE_BUSINESS,
    PLACE_START,
    SCORE_DISTRICT,
    TAKE_ONE,
    TAKE_PAIR,
    TAKE_SPACE,
)
from .data import CENTRAL_PARK, NUM_CARD_COLOURS, NUM_CARD_VALUES, NUM_COMMISSIONERS, NUM_PLOTS, PLOT_DISTRICT
from .rules import (
    any_business_plot,
    auction_place,
    can_take_business_plot,
    current_set,
    first_colour_allowed,
    supply_row_empty,
)
from .scoring import MAX_NEXT, commissioner_district, is_empty_plot, next_places, own_plot
from .state import (
    BLACK,
    DEC_BID,
    DEC_BUILD,
    DEC_BUSINESS_PLOT,
    DEC_BUSINESS_SPACE,
    DEC_COLOURED_CARDS,
    DEC_COMMISSIONER,
    DEC_OPTION,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    NO_CARD,
    NUM_HAND_COLOURS,
)


# --- the legal actions -------------------------------------------------------------------------
@jit
def start_plot_ok(st, seat, plot):
    """'any empty building plot', one plot per district for a player in the entire game."""
    return is_empty_plot(st, plot) and own_plot(st, seat, PLOT_DISTRICT[plot]) < 0


@jit
def fill_legal_mask(st, mask):
    """The legal actions of the pending decision (all False at the end)."""
    for a in range(NUM_ACTIONS):
        mask[a] = False
    d = st["decision"]
    seat = st["actor"]
    if d == DEC_START_SKYSCRAPER:
        for p in range(NUM_PLOTS):
            mask[PLACE_START + p] = start_plot_ok(st, seat, p)
    elif d == DEC_OPTION:
        mask[OPTION_A] = st["general"][seat] > 0
        mask[OPTION_B] = not supply_row_empty(st) and any_business_plot(st)
        mask[OPTION_C] = True
        for c in range(NUM_COMMISSIONERS):
            dist = commissioner_district(st, c)
            if dist >= 0 and not st["stopped"][dist]:
                mask[SCORE_DISTRICT + dist] = True
    elif d == DEC_BUSINESS_SPACE:
        start, end = current_set(st)
        for s in range(max(start, 0), max(end, 0)):
            mask[TAKE_SPACE + s] = st["supply_row"][s] != NO_BUSINESS
    elif d == DEC_BUSINESS_PLOT:
        for p in range(NUM_PLOTS):
            mask[PLACE_BUSINESS + p] = can_take_business_plot(st, p)
    elif d == DEC_COLOURED_CARDS:
        available = 0
        for c in range(NUM_CARD_COLOURS):
            if st["coloured_count"][c] > 0:
                available += 1
        if available >= 2:
            for k in range(len(COLOUR_PAIRS)):
                first, second = COLOUR_PAIRS[k]
                mask[TAKE_PAIR + k] = st["coloured_count"][first] > 0 and st["coloured_count"][second] > 0
        else:
            for c in range(NUM_CARD_COLOURS):
                mask[TAKE_ONE + c] = st["coloured_count"][c] > 0
    elif d == DEC_COMMISSIONER:
        out = np.empty(2 * MAX_NEXT, np.int64)
        for c in range(NUM_COMMISSIONERS):
            here = st["commissioner_place"][c]
            if here == CENTRAL_PARK:
                mask[MOVE + c * NUM_DESTINATIONS + DEST_CITY_HALL] = True
                continue
            for k in range(next_places(st, here, out)):
                mask[MOVE + c * NUM_DESTINATIONS + out[k]] = True
    elif d == DEC_BID:
        fill_bid_mask(st, seat, mask)
    elif d == DEC_BUILD:
        if st["build_plot"] < 0 or not st["district_full"] or own_plot(st, seat, auction_place(st)) >= 0:
            most = min(st["build_limit"], st["supply"][seat])
            for k in range(most + 1):
                mask[BUILD + k] = True
        if st["build_plot"] >= 0 and st["district_full"]:
            mask[BUILDING_STOP] = True


@jit
def fill_bid_mask(st, seat, mask):
    mask[BID_PASS] = True
    mask[BID_FINISH] = st["added_this_turn"] == 1 and st["bid_total"][seat] > st["high_bid"]
    colour = st["bid_colour"][seat]
    for c in range(NUM_HAND_COLOURS):
        for v in range(NUM_CARD_VALUES):
            if st["hand"][seat, c, v] == 0:
                continue
            if c == BLACK:
                ok = colour != NO_CARD  # "The first card bid ... must always be a colored card"
            elif colour == NO_CARD:
                ok = first_colour_allowed(st, seat, c)
            else:
                ok = c == colour
            mask[BID_CARD + c * NUM_CARD_VALUES + v] = ok


