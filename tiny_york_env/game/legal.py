"""Which actions the pending decision allows: ``is_legal`` per action, ``fill_legal_mask`` for all.

One predicate serves both the mask and ``apply_action``'s check, so they can never disagree.
"""

from .actions import (
    BID_CARD,
    BID_DONE,
    BID_PAIR,
    BID_WILD,
    BID_WILD_PAIR,
    BUILD_STOP,
    ELEVATOR_TAKE,
    EXCHANGE,
    NUM_ACTIONS,
    PICK_PAIR,
    PRESTIGE_BOROUGH,
    PRESTIGE_FORFEIT,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    SELL_FROM,
    START_STACK,
)
from .cards import pair_is_available
from .components import (
    ELEVATOR_COLUMNS,
    NUM_CARD_TYPES,
    NUM_VESSELS,
    PRESTIGE_REVEALED_PER_ROUND,
    PRESTIGE_TILE_COLOUR,
    TILE_VALUE,
    VESSEL_COLOUR,
    VESSEL_ENDS,
    WILD,
)
from .jit import jit
from .state import (
    DEC_BID,
    DEC_BUILD,
    DEC_ELEVATOR,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    DEC_START_STACK,
    EMPTY,
    STACK_REVEALED,
    VESSEL_ON_BOARD,
)


@jit
def action_value(st, seat):
    """The value ``seat`` acts with in evaluation: bid value + 1 for the highest-bid bonus."""
    value = st["bid_value"][seat]
    if seat == st["bonus_winner"]:
        value += 1
    return value


@jit
def cards_played(st, seat):
    """Number of cards ``seat`` has played in the current bid."""
    total = 0
    for t in range(NUM_CARD_TYPES):
        total += st["played"][seat, t]
    return total


@jit
def colour_has_vessel(st, colour):
    """R15: a vessel of ``colour`` is still on the board."""
    for v in range(NUM_VESSELS):
        if VESSEL_COLOUR[v] == colour and st["vessel_owner"][v] == VESSEL_ON_BOARD:
            return True
    return False


@jit
def prestige_tile_available(st, slot):
    """R15: revealed tile ``slot`` is there and its colour still has a vessel on the board."""
    tile = st["prestige_revealed"][slot]
    return tile != EMPTY and colour_has_vessel(st, PRESTIGE_TILE_COLOUR[tile])


@jit
def any_prestige_tile_available(st):
    """True when some revealed prestige tile can still be taken."""
    for slot in range(PRESTIGE_REVEALED_PER_ROUND):
        if prestige_tile_available(st, slot):
            return True
    return False


@jit
def _legal_bid(st, seat, a):
    """R9 exchanges and R10 bid parts on ``seat``'s bidding turn."""
    round_type = st["bid_round"]
    hand = st["hand"]
    if EXCHANGE <= a < BID_CARD:
        h = (a - EXCHANGE) // NUM_CARD_TYPES
        r = (a - EXCHANGE) % NUM_CARD_TYPES
        return (h != r and st["exchanges_left"] > 0 and hand[seat, h] > 0
                and st["reserve"][seat, r] > 0)
    if a == BID_CARD:
        return hand[seat, round_type] > 0
    if BID_PAIR <= a < BID_WILD_PAIR:
        t = a - BID_PAIR
        if t == round_type or hand[seat, t] < 2:
            return False
        # Two wilds as a substitute only start a bid: later, single wilds are worth one each.
        return t != WILD or cards_played(st, seat) == 0
    if BID_WILD_PAIR <= a < BID_WILD:
        t = a - BID_WILD_PAIR
        return t != round_type and hand[seat, t] > 0 and hand[seat, WILD] > 0
    if a == BID_WILD:
        # "Wild cards may never be played on their own" (rulebook, bidding rounds).
        return hand[seat, WILD] > 0 and cards_played(st, seat) > 0
    return a == BID_DONE


@jit
def is_legal(st, a):
    """True when action ``a`` is allowed for the pending decision."""
    if a < 0 or a >= NUM_ACTIONS:
        return False
    d = st["decision"]
    seat = st["actor"]
    if d == DEC_BID:
        return EXCHANGE <= a <= BID_DONE and _legal_bid(st, seat, a)
    if d == DEC_START_STACK:
        return (START_STACK <= a < PICK_PAIR
                and st["start_stack_status"][a - START_STACK] == STACK_REVEALED)
    if d == DEC_PICK_PAIR:
        p = a - PICK_PAIR
        return PICK_PAIR <= a < EXCHANGE and p < st["num_pairs"] and pair_is_available(st, p)
    if d == DEC_ELEVATOR:
        if not ELEVATOR_TAKE <= a < PRESTIGE_TILE:
            return False
        slot = a - ELEVATOR_TAKE
        tile = st["elevator_display"][slot // ELEVATOR_COLUMNS, slot % ELEVATOR_COLUMNS]
        return tile != EMPTY and TILE_VALUE[tile] <= action_value(st, seat)
    if d == DEC_PRESTIGE_TILE:
        if a == PRESTIGE_FORFEIT:
            return True
        return PRESTIGE_TILE <= a < PRESTIGE_FORFEIT and prestige_tile_available(st, a - PRESTIGE_TILE)
    if d == DEC_PRESTIGE_VESSEL:
        if not PRESTIGE_VESSEL <= a < PRESTIGE_BOROUGH:
            return False
        v = a - PRESTIGE_VESSEL
        return (st["vessel_owner"][v] == VESSEL_ON_BOARD
                and VESSEL_COLOUR[v]
                == PRESTIGE_TILE_COLOUR[st["prestige_revealed"][st["chosen_slot"]]])
    if d == DEC_PRESTIGE_BOROUGH:
        if not PRESTIGE_BOROUGH <= a < SELL_FROM:
            return False
        b = a - PRESTIGE_BOROUGH
        v = st["chosen_vessel"]
        return VESSEL_ENDS[v, 0] == b or VESSEL_ENDS[v, 1] == b
    if d == DEC_BUILD:
        if a == BUILD_STOP:
            return True
        if not SELL_FROM <= a < BUILD_STOP:
            return False
        b = a - SELL_FROM
        return b != st["build_borough"] and st["skyscrapers"][b, seat] > 0
    return False


# The id range each decision draws from (the mask only tests these).
@jit
def decision_range(d):
    """(first, end) of the action ids decision ``d`` may offer."""
    if d == DEC_BID:
        return EXCHANGE, BID_DONE + 1
    if d == DEC_START_STACK:
        return START_STACK, PICK_PAIR
    if d == DEC_PICK_PAIR:
        return PICK_PAIR, EXCHANGE
    if d == DEC_ELEVATOR:
        return ELEVATOR_TAKE, PRESTIGE_TILE
    if d == DEC_PRESTIGE_TILE:
        return PRESTIGE_TILE, PRESTIGE_FORFEIT + 1
    if d == DEC_PRESTIGE_VESSEL:
        return PRESTIGE_VESSEL, PRESTIGE_BOROUGH
    if d == DEC_PRESTIGE_BOROUGH:
        return PRESTIGE_BOROUGH, SELL_FROM
    if d == DEC_BUILD:
        return SELL_FROM, BUILD_STOP + 1
    return 0, 0


@jit
def fill_legal_mask(st, mask):
    """Write the legal actions of the pending decision into the bool array ``mask``."""
    for a in range(NUM_ACTIONS):
        mask[a] = False
    first, end = decision_range(st["decision"])
    for a in range(first, end):
        if is_legal(st, a):
            mask[a] = True


@jit
def count_legal(st):
    """Number of legal actions for the pending decision."""
    first, end = decision_range(st["decision"])
    n = 0
    for a in range(first, end):
        if is_legal(st, a):
            n += 1
    return n


@jit
def nth_legal(st, k):
    """The ``k``-th legal action (0-based) in id order, or -1."""
    first, end = decision_range(st["decision"])
    for a in range(first, end):
        if is_legal(st, a):
            if k == 0:
                return a
            k -= 1
    return -1
