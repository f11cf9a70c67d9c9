"""Tom, the automatic player (rulebook "Solo rules - You versus TOM"; R1, R4-R6, R21-R24).

Tom never decides through actions: the engine runs every Tom step inside ``advance``, so
``current_player`` only ever names an agent's seat. Tom's hand row holds his *supply*.
"""

import numpy as np

from ...core.jit import jit
from .bot_moves import (
    DRAW_DISCARDED,
    DRAW_KEPT,
    DRAW_NONE_LEFT,
    DRAW_PLAYED,
    NOTHING,
    TOM_BID,
    TOM_BUILD,
    TOM_CHARACTER,
    TOM_DRAW,
    TOM_PAIR,
    TOM_PRESTIGE,
    TOM_START_STACK,
    record_tom_event,
)
from .cards import draw_card
from .components import (
    ELEVATOR_COLUMNS,
    MAX_SEATS,
    MAX_TILE_VALUE,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_TILES,
    NUM_VESSELS,
    PLANS,
    PRESTIGE_REVEALED_PER_ROUND,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    SKYSCRAPERS,
    TILE_VALUE,
    VESSEL_COLOUR,
    VESSEL_ENDS,
    WILD,
)
from .elevator import give_tile, refill_display_slot
from .press import ahead, press_order
from .state import EMPTY, LOC_OWNED, STACK_REVEALED, STACK_TAKEN, VESSEL_ON_BOARD

TOM_MODE_A, TOM_MODE_B, TOM_MODE_C = 0, 1, 2
TOM_MAX_PER_BOROUGH = 5  # "Tom may never exceed his maximum of 5 skyscrapers in a borough"
SKYSCRAPER_WILD_PAIR = 2  # "he plays 2 wild cards as 1 skyscraper card"
NO_BOROUGH = -1


@jit
def is_wild_for_tom(t):
    """'The "building plans" cards are always considered wild cards for Tom!'"""
    return t == WILD or t == PLANS


@jit
def tom_wilds(st, seat):
    """Wild cards (building plans included) in Tom's supply."""
    return st["hand"][seat, WILD] + st["hand"][seat, PLANS]


@jit
def _play_from_supply(st, seat, t, n):
    st["hand"][seat, t] -= n
    st["played"][seat, t] += n


@jit
def _play_wilds(st, seat, n):
    """Play ``n`` of Tom's wilds, building plans first (both are wild for him)."""
    from_plans = min(n, st["hand"][seat, PLANS])
    _play_from_supply(st, seat, PLANS, from_plans)
    _play_from_supply(st, seat, WILD, n - from_plans)


# --- setup and Phase I -------------------------------------------------------------------------
@jit
def toms_take_start_stacks(st):
    """R4: after the agents, each Tom in press order takes a remaining revealed stack."""
    order = np.empty(MAX_SEATS, np.int16)
    press_order(st, order)
    for i in range(st["num_seats"]):
        seat = order[i]
        if st["is_tom"][seat] == 0:
            continue
        for k in range(st["start_stack_status"].shape[0]):
            if st["start_stack_status"][k] == STACK_REVEALED:
                give_tile(st, st["start_stacks"][k, 0], seat)
                give_tile(st, st["start_stacks"][k, 1], seat)
                st["start_stack_status"][k] = STACK_TAKEN
                record_tom_event(st, TOM_START_STACK, seat, k, st["start_stacks"][k, 0],
                                 st["start_stacks"][k, 1])
                break


@jit
def toms_take_pairs(st):
    """R6 and the solo Phase I: each Tom in press order takes a remaining pair (the first one
    left in the display), then draws as many cards as his level says into his supply."""
    order = np.empty(MAX_SEATS, np.int16)
    press_order(st, order)
    for i in range(st["num_seats"]):
        seat = order[i]
        if st["is_tom"][seat] == 0:
            continue
        first, second = NOTHING, NOTHING
        for p in range(st["num_pairs"]):
            if st["pairs"][p, 0] != EMPTY or st["pairs"][p, 1] != EMPTY:
                first, second = st["pairs"][p, 0], st["pairs"][p, 1]
                for k in range(2):
                    c = st["pairs"][p, k]
                    if c != EMPTY:
                        st["hand"][seat, c] += 1
                    st["pairs"][p, k] = EMPTY
                break
        drawn = 0
        for _ in range(st["tom_draw"][seat]):
            c = draw_card(st)
            if c != EMPTY:
                st["hand"][seat, c] += 1
                drawn += 1
        record_tom_event(st, TOM_PAIR, seat, first, second, drawn)  # the drawn cards face down


# --- Phase II: the draw before each bidding round ------------------------------------------------
@jit
def tom_draw_before_bidding(st, seat):
    """Solo Phase II: in modes B and C Tom draws one card before each bidding round (none before
    the building-plans round, which he skips). A wild (or building plans) is played at once if
    he can add a supply card of the round, else kept; a card of the round is played at once; a
    card of an earlier round is discarded; one of a later round is discarded in mode B and kept
    in mode C."""
    round_type = st["bid_round"]
    if st["tom_mode"][seat] == TOM_MODE_A or round_type == PLANS:
        return
    c = draw_card(st)
    if c == EMPTY:
        record_tom_event(st, TOM_DRAW, seat, NOTHING, DRAW_NONE_LEFT, round_type)
        return
    if is_wild_for_tom(c):
        if st["hand"][seat, round_type] > 0:
            st["played"][seat, c] += 1
            record_tom_event(st, TOM_DRAW, seat, c, DRAW_PLAYED, round_type)
        else:
            st["hand"][seat, c] += 1
            record_tom_event(st, TOM_DRAW, seat, NOTHING, DRAW_KEPT, round_type)
    elif c == round_type:
        st["played"][seat, c] += 1
        record_tom_event(st, TOM_DRAW, seat, c, DRAW_PLAYED, round_type)
    elif c < round_type or st["tom_mode"][seat] == TOM_MODE_B:
        st["discard"][c] += 1
        record_tom_event(st, TOM_DRAW, seat, c, DRAW_DISCARDED, round_type)
    else:
        st["hand"][seat, c] += 1
        record_tom_event(st, TOM_DRAW, seat, NOTHING, DRAW_KEPT, round_type)


# --- Phase II: Tom's bid (R21) -----------------------------------------------------------------
@jit
def _beats_all_so_far(st, seat, value):
    """``value`` beats every bid made so far this bidding round, ties judged by press order."""
    for other in range(st["num_seats"]):
        if other == seat or st["bid_done"][other] == 0:
            continue
        b = st["bid_value"][other]
        if b > value or (b == value and ahead(st, other, seat)):
            return False
    return True


@jit
def _played_count(st, seat):
    n = 0
    for t in range(NUM_CARD_TYPES):
        n += st["played"][seat, t]
    return n


@jit
def _skyscraper_round_bid(st, seat):
    """'Tom plays all his remaining cards': with a skyscraper card, all of them plus every wild;
    without, two wilds as one skyscraper card and the rest as wilds; one lone wild is
    discarded."""
    sky = st["hand"][seat, SKYSCRAPERS] + st["played"][seat, SKYSCRAPERS]
    wilds = tom_wilds(st, seat) + st["played"][seat, WILD] + st["played"][seat, PLANS]
    _play_from_supply(st, seat, SKYSCRAPERS, st["hand"][seat, SKYSCRAPERS])
    if sky > 0:
        _play_wilds(st, seat, tom_wilds(st, seat))
        return sky + wilds
    if wilds >= SKYSCRAPER_WILD_PAIR:
        _play_wilds(st, seat, tom_wilds(st, seat))
        return wilds - 1
    st["discard"][WILD] += st["hand"][seat, WILD]
    st["discard"][PLANS] += st["hand"][seat, PLANS]
    st["hand"][seat, WILD] = 0
    st["hand"][seat, PLANS] = 0
    return 0


@jit
def tom_bid(st, seat):
    """R21: Tom plays every supply card of the round's type, then the fewest wilds that make his
    bid beat every bid so far (none if no number does). Without a card of the round he passes;
    he skips the building-plans round; the skyscraper round has its own rule."""
    round_type = st["bid_round"]
    if round_type == PLANS:
        value = 0
    elif round_type == SKYSCRAPERS:
        value = _skyscraper_round_bid(st, seat)
    elif st["hand"][seat, round_type] + st["played"][seat, round_type] == 0:
        value = 0
    else:
        _play_from_supply(st, seat, round_type, st["hand"][seat, round_type])
        value = _played_count(st, seat)
        available = tom_wilds(st, seat)
        for extra in range(available + 1):
            if _beats_all_so_far(st, seat, value + extra):
                _play_wilds(st, seat, extra)
                value += extra
                break
    st["bid_value"][seat] = value
    st["bid_done"][seat] = 1
    record_tom_event(st, TOM_BID, seat, value, round_type, NOTHING)


# --- Phase II: evaluation ------------------------------------------------------------------------
@jit
def _row_tiles(st, row):
    """How many tiles the display row shows."""
    n = 0
    for col in range(ELEVATOR_COLUMNS):
        if st["elevator_display"][row, col] != EMPTY:
            n += 1
    return n


@jit
def tom_take_elevator(st, seat, value):
    """R14: the leftmost tile of the row of his value (capped at 5), falling back to lower rows
    when a row is empty; the remaining tiles move to the left and the row refills on the right."""
    row = min(value, MAX_TILE_VALUE) - 1
    while row >= 0 and _row_tiles(st, row) == 0:
        row -= 1
    if row < 0:
        return
    taken = False
    n = 0
    for col in range(ELEVATOR_COLUMNS):
        tile = st["elevator_display"][row, col]
        st["elevator_display"][row, col] = EMPTY
        if tile == EMPTY:
            continue
        if not taken:
            give_tile(st, tile, seat)
            record_tom_event(st, TOM_CHARACTER, seat, tile, value, NOTHING)
            taken = True
        else:
            st["elevator_display"][row, n] = tile
            n += 1
    refill_display_slot(st, row, n)


@jit
def tom_build(st, seat, borough, count):
    """R22: Tom's skyscrapers come from the supply, at most 5 of his in any borough; surplus
    ones are not built."""
    room = TOM_MAX_PER_BOROUGH - st["skyscrapers"][borough, seat]
    built = max(0, min(count, room))
    st["skyscrapers"][borough, seat] += built
    record_tom_event(st, TOM_BUILD, seat, borough, count, built)


@jit
def _slot_usable(st, slot):
    tile = st["prestige_revealed"][slot]
    if tile == EMPTY:
        return False
    for v in range(NUM_VESSELS):
        if st["vessel_owner"][v] == VESSEL_ON_BOARD and VESSEL_COLOUR[v] == PRESTIGE_TILE_COLOUR[tile]:
            return True
    return False


@jit
def _vessel_reachable(st, v):
    """A vessel on the board whose colour matches a revealed tile that can still be taken."""
    if st["vessel_owner"][v] != VESSEL_ON_BOARD:
        return False
    for slot in range(PRESTIGE_REVEALED_PER_ROUND):
        tile = st["prestige_revealed"][slot]
        if tile != EMPTY and PRESTIGE_TILE_COLOUR[tile] == VESSEL_COLOUR[v]:
            return True
    return False


@jit
def _tom_prestige_borough(st, seat):
    """R23 steps 1-3: reachable boroughs; fewest of Tom's skyscrapers; highest letter."""
    best = NO_BOROUGH
    for b in range(NUM_BOROUGHS):
        reachable = False
        for v in range(NUM_VESSELS):
            if _vessel_reachable(st, v) and (VESSEL_ENDS[v, 0] == b or VESSEL_ENDS[v, 1] == b):
                reachable = True
        if not reachable:
            continue
        if best == NO_BOROUGH:
            best = b
            continue
        mine, best_mine = st["skyscrapers"][b, seat], st["skyscrapers"][best, seat]
        if mine < best_mine or (mine == best_mine
                                and st["borough_sequence"][b] > st["borough_sequence"][best]):
            best = b
    return best


@jit
def _tom_prestige_vessel(st, b):
    """R23 step 4: of the vessels joining ``b``, the one to the borough with the highest letter."""
    best = -1
    best_letter = -1
    for v in range(NUM_VESSELS):
        if not _vessel_reachable(st, v):
            continue
        if VESSEL_ENDS[v, 0] == b:
            other = VESSEL_ENDS[v, 1]
        elif VESSEL_ENDS[v, 1] == b:
            other = VESSEL_ENDS[v, 0]
        else:
            continue
        if st["borough_sequence"][other] > best_letter:
            best = v
            best_letter = st["borough_sequence"][other]
    return best


@jit
def tom_prestige_move(st, seat):
    """R23: Tom places a prestige tile by the rulebook's four steps (with two tiles of one colour,
    the higher value), keeps the vessel and builds one skyscraper there from the supply."""
    any_slot = False
    for slot in range(PRESTIGE_REVEALED_PER_ROUND):
        any_slot = any_slot or _slot_usable(st, slot)
    if not any_slot:
        return
    b = _tom_prestige_borough(st, seat)
    v = _tom_prestige_vessel(st, b)
    chosen = -1
    for slot in range(PRESTIGE_REVEALED_PER_ROUND):
        tile = st["prestige_revealed"][slot]
        if tile == EMPTY or PRESTIGE_TILE_COLOUR[tile] != VESSEL_COLOUR[v]:
            continue
        if chosen < 0 or PRESTIGE_TILE_VALUE[tile] > PRESTIGE_TILE_VALUE[st["prestige_revealed"][chosen]]:
            chosen = slot
    tile = st["prestige_revealed"][chosen]
    st["prestige_revealed"][chosen] = EMPTY
    st["prestige_loc"][tile] = b
    st["borough_prestige"][b] += PRESTIGE_TILE_VALUE[tile]
    st["vessel_owner"][v] = seat
    record_tom_event(st, TOM_PRESTIGE, seat, tile, b, v)
    tom_build(st, seat, b, 1)


# --- final scoring (R24) -------------------------------------------------------------------------
@jit
def tom_character_points(st, seat):
    """R24: characters sorted by value ascending get Tom's dollars one each left to right, then a
    second round, at most two each; two dollars double a character's value. Returns (points,
    dollars left over)."""
    values = np.empty(NUM_TILES, np.int64)
    n = 0
    for tile in range(NUM_TILES):
        if st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat:
            values[n] = TILE_VALUE[tile]
            n += 1
    values = np.sort(values[:n])
    dollars = st["dollars"][seat]
    first_round = min(dollars, n)
    doubled = min(dollars - first_round, n)  # the second round, left to right
    dollars -= first_round + doubled
    points = 0
    for i in range(n):
        points += values[i] * (2 if i < doubled else 1)
    return points, dollars
