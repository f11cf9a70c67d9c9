"""Which actions the pending decision allows: ``is_legal`` per action, ``fill_legal_mask`` for all.

One predicate serves both the mask and ``apply_action``'s check, so they can never disagree: the
mask reads a bid's record fields once for the whole decision (``bid_part_legal`` is that
predicate) and asks ``may_use_unused`` of the characters it finds owned and unused, as
``can_use_character`` does after its own scan (a test compares them at every decision).
"""

from ...core.jit import jit, jit_inline
from .abilities import (
    PRESS_BACK_MAX,
    ability_may_stop,
    can_use_character,
    character_card_legal,
    character_elevator_legal,
    character_pair_card_legal,
    character_pair_legal,
    character_tile_legal,
    may_use_unused,
)
from .actions import (
    BID_CARD,
    BID_DONE,
    BID_PAIR,
    BID_WILD,
    BID_WILD_PAIR,
    BUILD_STOP,
    CHARACTER_BOROUGH,
    CHARACTER_CARD,
    CHARACTER_DONE,
    CHARACTER_PAIR_CARD,
    CHARACTER_STEPS,
    CHARACTER_TILE,
    ELEVATOR_TAKE,
    END_TURN,
    EXCHANGE,
    NUM_ACTIONS,
    PICK_PAIR,
    PRESTIGE_BOROUGH,
    PRESTIGE_FORFEIT,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    SELL_FROM,
    START_STACK,
    USE_CHARACTER,
)
from .cards import pair_is_available
from .components import (
    ELEVATOR_COLUMNS,
    NEUTRAL,
    NUM_ACTIVE_CHARACTERS,
    NUM_CARD_TYPES,
    NUM_TILES,
    NUM_VESSELS,
    PRESTIGE_REVEALED_PER_ROUND,
    PRESTIGE_TILE_COLOUR,
    TILE_CHARACTER,
    TILE_VALUE,
    VESSEL_COLOUR,
    VESSEL_ENDS,
    WILD,
)
from .state import (
    DEC_AFTER_EVALUATION,
    DEC_AFTER_PICK,
    DEC_BID,
    DEC_BUILD,
    DEC_CHARACTER_BOROUGH,
    DEC_CHARACTER_CARD,
    DEC_CHARACTER_ELEVATOR,
    DEC_CHARACTER_PAIR,
    DEC_CHARACTER_PAIR_CARD,
    DEC_CHARACTER_STEPS,
    DEC_CHARACTER_TILE,
    DEC_DECLARE_BID_LAST,
    DEC_ELEVATOR,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    DEC_START_STACK,
    EMPTY,
    LOC_OWNED,
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


@jit_inline
def bid_part_legal(hand, reserve, exchanges_left, bid_base, round_type, a):
    """R9 exchanges and R10 bid parts, from the bidder's ``hand`` and ``reserve`` rows, the
    exchanges left, its ``bid_base`` and the round's card type: the one predicate of a bid action
    (``_legal_bid`` for one action, ``_fill_bid_mask`` for the whole decision)."""
    if EXCHANGE <= a < BID_CARD:
        h = (a - EXCHANGE) // NUM_CARD_TYPES
        r = (a - EXCHANGE) % NUM_CARD_TYPES
        return h != r and exchanges_left > 0 and hand[h] > 0 and reserve[r] > 0
    if a == BID_CARD:
        return hand[round_type] > 0
    if BID_PAIR <= a < BID_WILD_PAIR:
        t = a - BID_PAIR
        if t == round_type or hand[t] < 2:
            return False
        # Two wilds as a substitute only start a bid: later, single wilds are worth one each.
        return t != WILD or bid_base == 0
    if BID_WILD_PAIR <= a < BID_WILD:
        t = a - BID_WILD_PAIR
        return t != round_type and hand[t] > 0 and hand[WILD] > 0
    if a == BID_WILD:
        # "Wild cards may never be played on their own" (rulebook, bidding rounds).
        return hand[WILD] > 0 and bid_base != 0
    return a == BID_DONE


@jit
def _legal_bid(st, seat, a):
    """R9 exchanges and R10 bid parts on ``seat``'s bidding turn."""
    return bid_part_legal(st["hand"][seat], st["reserve"][seat], st["exchanges_left"],
                          st["bid_base"][seat], st["bid_round"], a)


@jit
def _fill_bid_mask(st, seat, mask):
    """The bid actions ``seat`` may take into ``mask``: ``bid_part_legal`` with the record's
    fields read once for the whole decision (the mask's commonest decision)."""
    hand = st["hand"][seat]
    reserve = st["reserve"][seat]
    exchanges_left = st["exchanges_left"]
    bid_base = st["bid_base"][seat]
    round_type = st["bid_round"]
    first, end = decision_range(DEC_BID)
    for a in range(first, end):
        mask[a] = bid_part_legal(hand, reserve, exchanges_left, bid_base, round_type, a)


@jit
def _legal_character_choice(st, seat, d, a):
    """The choices of an ability being resolved (``abilities.py``)."""
    if d == DEC_CHARACTER_CARD:
        if a == CHARACTER_DONE:
            return ability_may_stop(st["ability"])
        return CHARACTER_CARD <= a < CHARACTER_TILE and character_card_legal(
            st, seat, a - CHARACTER_CARD)
    if d == DEC_CHARACTER_TILE:
        return CHARACTER_TILE <= a < CHARACTER_PAIR_CARD and character_tile_legal(
            st, seat, a - CHARACTER_TILE)
    if d == DEC_CHARACTER_ELEVATOR:
        return ELEVATOR_TAKE <= a < PRESTIGE_TILE and character_elevator_legal(
            st, a - ELEVATOR_TAKE)
    if d == DEC_CHARACTER_PAIR_CARD:
        p = (a - CHARACTER_PAIR_CARD) // 2
        return CHARACTER_PAIR_CARD <= a < CHARACTER_BOROUGH and character_pair_card_legal(
            st, p, (a - CHARACTER_PAIR_CARD) % 2)
    if d == DEC_CHARACTER_PAIR:
        return PICK_PAIR <= a < EXCHANGE and character_pair_legal(st, a - PICK_PAIR)
    if d == DEC_CHARACTER_BOROUGH:
        return (CHARACTER_BOROUGH <= a < CHARACTER_STEPS
                and st["skyscrapers"][a - CHARACTER_BOROUGH, NEUTRAL] > 0)
    if d == DEC_CHARACTER_STEPS:
        steps = a - CHARACTER_STEPS + 1
        return CHARACTER_STEPS <= a < CHARACTER_DONE and steps <= st["press_space"][seat]
    return False


@jit
def offers_characters(d):
    """Decisions at which a character may be used (R8, R11, R18)."""
    return (d == DEC_PICK_PAIR or d == DEC_BID or d == DEC_AFTER_PICK
            or d == DEC_AFTER_EVALUATION or d == DEC_PHASE3 or d == DEC_DECLARE_BID_LAST)


@jit
def is_character_turn(d):
    """Decisions that only offer characters, END_TURN going on without one (8, 18, 22, III)."""
    return (d == DEC_AFTER_PICK or d == DEC_AFTER_EVALUATION or d == DEC_PHASE3
            or d == DEC_DECLARE_BID_LAST)


@jit
def is_legal(st, a):
    """True when action ``a`` is allowed for the pending decision."""
    if a < 0 or a >= NUM_ACTIONS:
        return False
    d = st["decision"]
    seat = st["actor"]
    if USE_CHARACTER <= a < USE_CHARACTER + NUM_ACTIVE_CHARACTERS:
        return offers_characters(d) and can_use_character(st, seat, a - USE_CHARACTER + 1, d)
    if d == DEC_BID:
        return EXCHANGE <= a <= BID_DONE and _legal_bid(st, seat, a)
    if d == DEC_START_STACK:
        return (START_STACK <= a < PICK_PAIR
                and st["start_stack_status"][a - START_STACK] == STACK_REVEALED)
    if d == DEC_PICK_PAIR:
        p = a - PICK_PAIR
        return PICK_PAIR <= a < EXCHANGE and p < st["num_pairs"] and pair_is_available(st, p)
    if is_character_turn(d):
        return a == END_TURN
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
    return _legal_character_choice(st, seat, d, a)


@jit
def decision_range(d):
    """(first, end) of the action ids decision ``d`` may offer besides USE_CHARACTER."""
    if d == DEC_BID:
        return EXCHANGE, BID_DONE + 1
    if d == DEC_START_STACK:
        return START_STACK, PICK_PAIR
    if d == DEC_PICK_PAIR or d == DEC_CHARACTER_PAIR:
        return PICK_PAIR, EXCHANGE
    if d == DEC_ELEVATOR or d == DEC_CHARACTER_ELEVATOR:
        return ELEVATOR_TAKE, PRESTIGE_TILE
    if d == DEC_PRESTIGE_TILE:
        return PRESTIGE_TILE, PRESTIGE_FORFEIT + 1
    if d == DEC_PRESTIGE_VESSEL:
        return PRESTIGE_VESSEL, PRESTIGE_BOROUGH
    if d == DEC_PRESTIGE_BOROUGH:
        return PRESTIGE_BOROUGH, SELL_FROM
    if d == DEC_BUILD:
        return SELL_FROM, BUILD_STOP + 1
    if d == DEC_CHARACTER_CARD:
        return CHARACTER_CARD, CHARACTER_TILE
    if d == DEC_CHARACTER_TILE:
        return CHARACTER_TILE, CHARACTER_PAIR_CARD
    if d == DEC_CHARACTER_PAIR_CARD:
        return CHARACTER_PAIR_CARD, CHARACTER_BOROUGH
    if d == DEC_CHARACTER_BOROUGH:
        return CHARACTER_BOROUGH, CHARACTER_STEPS
    if d == DEC_CHARACTER_STEPS:
        return CHARACTER_STEPS, CHARACTER_STEPS + PRESS_BACK_MAX
    if is_character_turn(d):
        return END_TURN, END_TURN + 1
    return 0, 0


@jit
def fill_legal_mask(st, mask):
    """Write the legal actions of the pending decision into the bool array ``mask``."""
    for a in range(NUM_ACTIONS):
        mask[a] = False
    d = st["decision"]
    if d == DEC_BID:
        _fill_bid_mask(st, st["actor"], mask)
    else:
        first, end = decision_range(d)
        for a in range(first, end):
            if is_legal(st, a):
                mask[a] = True
    if d == DEC_CHARACTER_CARD and is_legal(st, CHARACTER_DONE):
        mask[CHARACTER_DONE] = True
    if offers_characters(d):
        seat = st["actor"]
        for tile in range(NUM_TILES):
            if (st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat
                    and st["tile_used"][tile] == 0):
                c = TILE_CHARACTER[tile]
                if c <= NUM_ACTIVE_CHARACTERS and may_use_unused(st, seat, c, d):
                    mask[USE_CHARACTER + c - 1] = True


@jit
def pick_legal(mask, k):
    """The ``k``-th True entry of ``mask`` (0-based), or -1."""
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1
