"""5th Avenue's turn, auctions, building stops, Alea and the end ("PLAYING THE GAME"; "The
auctions"; "Building stop"; "Auction in Central Park"; "Special rules for 2 players"; "GAME END").

``apply_unchecked(st, a)`` plays one legal action and runs the automatic steps (drawing cards,
Alea's bids and building, scorings) up to the next decision. The legal actions are in
``legal.py``, the board's values and the scorings in ``scoring.py``, the engine's bots and the
checked entry points in ``bots.py`` and ``engine.py``. Readings of the text: docs/fifth-avenue.md.
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
    MAX_BUILD,
    MOVE,
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
from .data import (
    ALEA_PLAYERS,
    BUILDING_STOPS_TO_END,
    CARD_VALUES,
    CENTRAL_PARK,
    CITY_HALL,
    MARKERS_PER_COMMISSIONER,
    MAX_BUSINESSES_PER_PLOT,
    NUM_CARD_COLOURS,
    NUM_CARD_VALUES,
    NUM_COMMISSIONERS,
    NUM_DISTRICTS,
    NUM_PLOTS,
    PLOT_COLOUR,
    PLOT_DISTRICT,
    PLOTS_PER_DISTRICT,
    SKYSCRAPERS_PICTURED,
    SUPPLY_SETS,
    TAKE_BLACK_CARDS,
    TAKE_SKYSCRAPERS,
    TURN_LIMIT,
)
from .scoring import (
    business_count,
    district_points,
    end_game,
    is_empty_plot,
    own_plot,
    plot_value,
    score_district,
    special_scoring,
)
from .setup import draw_black, draw_coloured, placing_seat
from .state import (
    ALEA_ROW,
    BLACK,
    DEC_BID,
    DEC_BUILD,
    DEC_BUSINESS_PLOT,
    DEC_BUSINESS_SPACE,
    DEC_COLOURED_CARDS,
    DEC_COMMISSIONER,
    DEC_GAME_OVER,
    DEC_OPTION,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    NO_CARD,
    NO_OPTION,
    NO_PLAYER,
    NO_PLOT,
    NUM_HAND_COLOURS,
    NUM_ROWS,
)
from .state import OPTION_A as OPT_A
from .state import OPTION_B as OPT_B
from .state import OPTION_C as OPT_C
from .state import OPTION_D as OPT_D

FIRST_ACTION, SECOND_ACTION, THIRD_ACTION = 1, 2, 3


# --- the supply row ----------------------------------------------------------------------------
@jit
def current_set(st):
    """(first space, end) of the left-most set that still has a business, or (-1, -1)."""
    start = 0
    for size in SUPPLY_SETS:
        for s in range(start, start + size):
            if st["supply_row"][s] != NO_BUSINESS:
                return start, start + size
        start += size
    return -1, -1


@jit
def take_business(st, space):
    """The player takes the business of ``space``; when one is left in its set, that one goes
    face up below Central Park ("As soon as the second to the last business is taken ...")."""
    st["held_business"] = st["supply_row"][space]
    st["supply_row"][space] = NO_BUSINESS
    start, end = current_set(st)
    if start < 0:
        return
    left, last = 0, -1
    for s in range(start, end):
        if st["supply_row"][s] != NO_BUSINESS:
            left += 1
            last = s
    if left == 1 and start <= space < end:
        st["park_business"][st["park_business_count"]] = st["supply_row"][last]
        st["park_business_count"] += 1
        st["supply_row"][last] = NO_BUSINESS


@jit
def can_take_business_plot(st, plot):
    """'any empty building plot or any building plot that has but one ... business'; never one
    with skyscrapers; not in a stopped district."""
    return (not st["stopped"][PLOT_DISTRICT[plot]] and st["plot_owner"][plot] == NO_PLAYER
            and business_count(st, plot) < MAX_BUSINESSES_PER_PLOT)


@jit
def any_business_plot(st):
    """Some plot can take a business (option B needs one: "on any empty building plot or any
    building plot that has but one ... business"; with every plot built on or full, it cannot be
    done)."""
    for p in range(NUM_PLOTS):
        if can_take_business_plot(st, p):
            return True
    return False


@jit
def supply_row_empty(st):
    start, _ = current_set(st)
    return start < 0


# --- the turn ----------------------------------------------------------------------------------
@jit
def start_turn(st, seat):
    st["actor"] = seat
    st["option"] = NO_OPTION
    st["turn_step"] = FIRST_ACTION
    st["decision"] = DEC_OPTION


@jit
def any_coloured_cards(st):
    for c in range(NUM_CARD_COLOURS):
        if st["coloured_count"][c] > 0:
            return True
    return False


@jit
def second_action(st):
    """A-C: two coloured cards of different colours (a decision); D: 2 black cards."""
    st["turn_step"] = SECOND_ACTION
    if st["option"] == OPT_D:
        for _ in range(TAKE_BLACK_CARDS):
            card = draw_black(st)
            if card >= 0:
                st["hand"][st["actor"], BLACK, card] += 1
        third_action(st)
    elif any_coloured_cards(st):
        st["decision"] = DEC_COLOURED_CARDS
    else:
        third_action(st)


@jit
def third_action(st):
    st["turn_step"] = THIRD_ACTION
    st["decision"] = DEC_COMMISSIONER


@jit
def end_turn(st):
    """The next player's turn; the game ends after TURN_LIMIT turns (data.py: not in the text)."""
    st["turn"] += 1
    if st["turn"] >= TURN_LIMIT:
        end_game(st)
        return
    start_turn(st, (st["actor"] + 1) % st["num_players"])


@jit
def move_commissioner(st, c, dest):
    """Move commissioner ``c`` to ``dest`` (a district or Central Park), leaving a marker in the
    district it leaves; or from Central Park back to City Hall, which starts the auctions."""
    here = st["commissioner_place"][c]
    if dest == CITY_HALL:
        st["commissioner_place"][c] = CITY_HALL
        start_auctions(st, c)
        return
    if 0 <= here < NUM_DISTRICTS and not st["stopped"][here]:
        st["commissioner_markers"][c, st["markers_placed"][c]] = here
        st["markers_placed"][c] += 1
    st["commissioner_place"][c] = dest


@jit
def after_commissioner_move(st):
    """Go on with the turn after a move (unless auctions interrupted it)."""
    if st["decision"] == DEC_BID or st["decision"] == DEC_BUILD or st["decision"] == DEC_GAME_OVER:
        return
    if st["turn_step"] == FIRST_ACTION:
        second_action(st)
    else:
        end_turn(st)


# --- auctions ----------------------------------------------------------------------------------
@jit
def start_auctions(st, c):
    """'The players now bid on building plots in the districts that were visited by the just
    moved commissioner (the commissioner markers show which ones)' in the order visited, then
    Central Park."""
    n = 0
    for k in range(st["markers_placed"][c]):
        d = st["commissioner_markers"][c, k]
        if d >= 0:
            st["auction_places"][n] = d
            n += 1
        st["commissioner_markers"][c, k] = -1
    st["markers_placed"][c] = 0
    st["auction_places"][n] = CENTRAL_PARK
    st["auction_count"] = n + 1
    st["auction_at"] = 0
    st["auction_trigger"] = st["actor"]
    st["resume_step"] = st["turn_step"]
    open_auction(st)


@jit
def auction_place(st):
    return st["auction_places"][st["auction_at"]]


@jit
def district_is_full(st, d):
    for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):
        if is_empty_plot(st, p):
            return False
    return True


@jit
def open_auction(st):
    """The next auction of the set, skipping stopped districts; after Central Park the turn goes
    on where it was interrupted."""
    while st["auction_at"] < st["auction_count"]:
        place = auction_place(st)
        if place < NUM_DISTRICTS and st["stopped"][place]:
            st["auction_at"] += 1
            continue
        for row in range(NUM_ROWS):
            st["bid_colour"][row] = NO_CARD
            st["bid_total"][row] = 0
            st["bid_min_pictured"][row] = MAX_BUILD
            st["passed"][row] = 0
        st["high_bid"] = 0
        st["high_bidder"] = NO_PLAYER
        st["park_colour"] = NO_CARD
        st["alea_in"] = 0
        st["alea_card_count"] = 0
        st["district_full"] = 1 if place < NUM_DISTRICTS and district_is_full(st, place) else 0
        st["bidder"] = st["auction_trigger"]
        st["added_this_turn"] = 0
        st["decision"] = DEC_BID
        st["actor"] = st["bidder"]
        return
    # the set is over: back to the interrupted turn
    st["actor"] = st["auction_trigger"]
    st["turn_step"] = st["resume_step"]
    if st["building_stops"] >= BUILDING_STOPS_TO_END:
        end_game(st)
        return
    st["decision"] = DEC_OPTION
    after_commissioner_move(st)


@jit
def first_colour_allowed(st, seat, colour):
    """The colour a bidder may start with (the three situations; Central Park: the starting
    bidder's colour for everyone)."""
    place = auction_place(st)
    if place == CENTRAL_PARK:
        return st["park_colour"] == NO_CARD or st["park_colour"] == colour
    own = own_plot(st, seat, place)
    plot = place * PLOTS_PER_DISTRICT
    for p in range(place * PLOTS_PER_DISTRICT, (place + 1) * PLOTS_PER_DISTRICT):
        if PLOT_COLOUR[p] == colour:
            plot = p
    if own >= 0:
        return plot == own  # (1) "only ... the color of the building plot where he already has skyscrapers"
    if not st["district_full"]:
        return is_empty_plot(st, plot)  # (2) an empty plot's colour
    # (3) a plot with businesses, "never ... a color that matches the building plot where another
    # player has skyscrapers": a building stop
    return business_count(st, plot) > 0 and st["plot_owner"][plot] == NO_PLAYER


@jit
def pictured(value_index):
    return SKYSCRAPERS_PICTURED[value_index]


@jit
def add_bid_card(st, seat, colour, value):
    st["hand"][seat, colour, value] -= 1
    st["bid_cards"][seat, colour, value] += 1
    st["bid_total"][seat] += CARD_VALUES[value]
    st["bid_min_pictured"][seat] = min(st["bid_min_pictured"][seat], pictured(value))
    if colour != BLACK and st["bid_colour"][seat] == NO_CARD:
        st["bid_colour"][seat] = colour
        if auction_place(st) == CENTRAL_PARK and st["park_colour"] == NO_CARD:
            st["park_colour"] = colour
    st["added_this_turn"] = 1


@jit
def take_bid_back(st, seat):
    for c in range(NUM_HAND_COLOURS):
        for v in range(NUM_CARD_VALUES):
            st["hand"][seat, c, v] += st["bid_cards"][seat, c, v]
            st["bid_cards"][seat, c, v] = 0
    st["bid_total"][seat] = 0


@jit
def alea_bids(st):
    """Alea's bid: black cards drawn until one repeats a number; in if above the high bid."""
    seen = np.zeros(NUM_CARD_VALUES, np.bool_)
    total = 0
    while st["alea_card_count"] < st["alea_cards"].shape[0]:
        card = draw_black(st)
        if card < 0:
            break
        st["alea_cards"][st["alea_card_count"]] = card
        st["alea_card_count"] += 1
        total += CARD_VALUES[card]
        if seen[card]:
            break
        seen[card] = True
    st["bid_total"][ALEA_ROW] = total
    if total > st["high_bid"]:
        st["alea_in"] = 1
        st["high_bid"] = total
        st["high_bidder"] = ALEA_ROW


@jit
def bidders_left(st):
    """Seats that have not passed, and Alea while his bid stands."""
    n = st["alea_in"]
    for seat in range(st["num_players"]):
        if not st["passed"][seat]:
            n += 1
    return n


@jit
def next_bidder(st):
    """After a bidder's turn: the auction ends when everyone but the high bidder has passed (or
    everyone has, with no bid); else the next seat clockwise that has not passed bids. With two
    players, Alea bids once, right after the second real player's first turn."""
    n = st["num_players"]
    seat = st["bidder"]
    if n == ALEA_PLAYERS and seat != st["auction_trigger"] and st["alea_card_count"] == 0:
        alea_bids(st)
    high = st["high_bidder"]
    if bidders_left(st) == 0 or (bidders_left(st) == 1 and high != NO_PLAYER
                                 and (high == ALEA_ROW or not st["passed"][high])):
        finish_auction(st)
        return
    for step in range(1, n + 1):
        other = (seat + step) % n
        if not st["passed"][other]:
            st["bidder"] = other
            st["actor"] = other
            st["added_this_turn"] = 0
            st["decision"] = DEC_BID
            return
    finish_auction(st)


@jit
def return_cards(st, seat):
    """The winner's cards go face up under their stacks ("puts all the cards he bid face up under
    the corresponding color (or black) card stack")."""
    for c in range(NUM_HAND_COLOURS):
        for v in range(NUM_CARD_VALUES):
            for _ in range(st["bid_cards"][seat, c, v]):
                if c == BLACK:
                    st["black_returned"][st["black_returned_count"]] = v
                    st["black_returned_count"] += 1
                else:
                    count = st["coloured_count"][c]
                    for k in range(count, 0, -1):
                        st["coloured_stack"][c, k] = st["coloured_stack"][c, k - 1]
                    st["coloured_stack"][c, 0] = v
                    st["coloured_count"][c] = count + 1
            st["bid_cards"][seat, c, v] = 0
    st["bid_total"][seat] = 0


@jit
def alea_builds(st, d):
    """Alea wins a district: one skyscraper on each most valuable empty plot; a building stop in
    a full district."""
    if district_is_full(st, d):
        building_stop(st, d, ALEA_ROW)
        return
    best = -1
    for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):
        if is_empty_plot(st, p):
            best = max(best, plot_value(st, p))
    for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):
        if is_empty_plot(st, p) and plot_value(st, p) == best and st["general"][ALEA_ROW] > 0:
            st["plot_owner"][p] = ALEA_ROW
            st["plot_skyscrapers"][p] = 1
            st["general"][ALEA_ROW] -= 1


@jit
def finish_auction(st):
    """The winner pays and builds; passed bidders took their cards back; Alea's cards go under
    the black stack."""
    place = auction_place(st)
    winner = st["high_bidder"]
    if winner != NO_PLAYER and winner != ALEA_ROW and st["passed"][winner]:
        winner = NO_PLAYER
    for k in range(st["alea_card_count"]):
        st["black_returned"][st["black_returned_count"]] = st["alea_cards"][k]
        st["black_returned_count"] += 1
    st["alea_card_count"] = 0
    if winner == ALEA_ROW:
        if place < NUM_DISTRICTS:
            alea_builds(st, place)
        next_auction(st)
        return
    if winner == NO_PLAYER:
        next_auction(st)  # "If no player bids in an auction, that district is skipped"
        return
    return_cards(st, winner)
    st["build_limit"] = st["bid_min_pictured"][winner]
    plot = NO_PLOT
    if place < NUM_DISTRICTS:
        for p in range(place * PLOTS_PER_DISTRICT, (place + 1) * PLOTS_PER_DISTRICT):
            if PLOT_COLOUR[p] == st["bid_colour"][winner]:
                plot = p
    if place < NUM_DISTRICTS and plot == NO_PLOT:  # no colour bid: nothing to build (validate.py)
        next_auction(st)
        return
    st["build_plot"] = plot
    st["actor"] = winner
    st["decision"] = DEC_BUILD


@jit
def next_auction(st):
    if st["building_stops"] >= BUILDING_STOPS_TO_END:
        end_game(st)  # "The game ends immediately with no further auctions"
        return
    st["auction_at"] += 1
    open_auction(st)


@jit
def building_stop(st, d, declarer):
    """The declarer scores 1 VP per skyscraper in the district (everyone's, Alea's too), the other
    players half (rounded down) of a normal scoring; the district is cleared and closed."""
    total = 0
    for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):
        total += st["plot_skyscrapers"][p]
    for seat in range(st["num_players"]):
        if seat == declarer:
            st["score"][seat] += total
        else:
            st["score"][seat] += district_points(st, seat, d) // 2
    for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):  # "returned to the box"
        if st["plot_owner"][p] != NO_PLAYER:
            st["skyscrapers_removed"][st["plot_owner"][p]] += st["plot_skyscrapers"][p]
        st["plot_owner"][p] = NO_PLAYER
        st["plot_skyscrapers"][p] = 0
        for k in range(MAX_BUSINESSES_PER_PLOT):
            if st["plot_business"][p, k] != NO_BUSINESS:
                st["businesses_removed"] += 1
            st["plot_business"][p, k] = NO_BUSINESS
    st["stopped"][d] = 1
    st["building_stops"] += 1
    for c in range(NUM_COMMISSIONERS):  # "the other commissioner marker ... is returned"
        for k in range(MARKERS_PER_COMMISSIONER):
            if st["commissioner_markers"][c, k] == d:
                st["commissioner_markers"][c, k] = -1


# --- playing an action -------------------------------------------------------------------------
@jit
def apply_unchecked(st, a):
    """Play legal action ``a`` of the pending decision, then the automatic steps."""
    d = st["decision"]
    seat = st["actor"]
    if d == DEC_START_SKYSCRAPER:
        p = a - PLACE_START
        st["plot_owner"][p] = seat
        st["plot_skyscrapers"][p] = 1
        st["placing_step"] += 1
        n = st["num_players"]
        if st["placing_step"] < 2 * n:
            st["actor"] = placing_seat(st["start_player"], n, st["placing_step"])
        else:
            start_turn(st, st["start_player"])
    elif d == DEC_OPTION:
        if a == OPTION_A:
            st["option"] = OPT_A
            taken = min(TAKE_SKYSCRAPERS, st["general"][seat])
            st["general"][seat] -= taken
            st["supply"][seat] += taken
            second_action(st)
        elif a == OPTION_B:
            st["option"] = OPT_B
            st["decision"] = DEC_BUSINESS_SPACE
        elif a == OPTION_C:
            st["option"] = OPT_C
            card = draw_black(st)
            if card >= 0:
                st["hand"][seat, BLACK, card] += 1
            st["decision"] = DEC_COMMISSIONER
        else:
            st["option"] = OPT_D
            district = a - SCORE_DISTRICT
            score_district(st, district)
            for other in range(st["num_players"]):  # "each player, who has no skyscraper in the
                if own_plot(st, other, district) < 0:  # scored district, now takes one black card"
                    card = draw_black(st)
                    if card >= 0:
                        st["hand"][other, BLACK, card] += 1
            second_action(st)
    elif d == DEC_BUSINESS_SPACE:
        take_business(st, a - TAKE_SPACE)
        st["decision"] = DEC_BUSINESS_PLOT
    elif d == DEC_BUSINESS_PLOT:
        p = a - PLACE_BUSINESS
        k = business_count(st, p)
        st["plot_business"][p, k] = st["held_business"]
        st["held_business"] = NO_BUSINESS
        st["businesses_placed"] += 1
        special_scoring(st)
        if supply_row_empty(st):
            end_game(st)  # "The game ends immediately (the player does not take his 2nd and 3rd actions)"
        else:
            second_action(st)
    elif d == DEC_COLOURED_CARDS:
        if a >= TAKE_ONE:
            c = a - TAKE_ONE
            st["hand"][seat, c, draw_coloured(st, c)] += 1
        else:
            first, second = COLOUR_PAIRS[a - TAKE_PAIR]
            st["hand"][seat, first, draw_coloured(st, first)] += 1
            st["hand"][seat, second, draw_coloured(st, second)] += 1
        third_action(st)
    elif d == DEC_COMMISSIONER:
        c, dest = divmod(a - MOVE, NUM_DESTINATIONS)
        move_commissioner(st, c, CITY_HALL if dest == DEST_CITY_HALL else dest)
        after_commissioner_move(st)
    elif d == DEC_BID:
        if a == BID_PASS:
            take_bid_back(st, seat)
            st["passed"][seat] = 1
            if st["high_bidder"] == seat:  # cannot happen: the high bidder never bids again first
                st["high_bidder"] = NO_PLAYER
            next_bidder(st)
        elif a == BID_FINISH:
            st["high_bid"] = st["bid_total"][seat]
            st["high_bidder"] = seat
            if st["alea_in"] and st["high_bid"] > st["bid_total"][ALEA_ROW]:
                st["alea_in"] = 0  # "If one (or both) real players overbid Alea's bid, then Alea is out"
            next_bidder(st)
        else:
            colour, value = divmod(a - BID_CARD, NUM_CARD_VALUES)
            add_bid_card(st, seat, colour, value)
    elif d == DEC_BUILD:
        place = auction_place(st)
        if a == BUILDING_STOP:
            building_stop(st, place, seat)
        else:
            k = a - BUILD
            if place == CENTRAL_PARK:
                st["park_skyscrapers"][seat] += k
            elif k > 0:
                st["plot_owner"][st["build_plot"]] = seat
                st["plot_skyscrapers"][st["build_plot"]] += k
            st["supply"][seat] -= k
        next_auction(st)
