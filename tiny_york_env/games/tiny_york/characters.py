"""The abilities of characters 1-27 (addendum; R8, R11, R16, R18, R19): paying, acting, and
resolving each choice an ability asks for. When to offer them is in ``abilities.py``."""

from ...core.jit import jit
from .abilities import (
    ANY_CARD_AS_ROUND,
    BID_LAST,
    BIGGER_RESERVE,
    BOTH_PAIRS,
    CARD_AND_DOLLAR,
    CARD_AS_TWO,
    DISCARD_AFTER_DRAW,
    DOUBLE_PRESTIGE,
    DRAW_AND_DISCARD_HAND,
    DRAW_THREE_DISCARD_TWO,
    DRAW_TWO,
    EXTRA_PRESTIGE,
    EXTRA_WILD,
    FREE_SKYSCRAPER,
    MATCH_PAIR_FROM_RESERVE,
    PAIR_MEMORY,
    PLAY_FROM_RESERVE,
    POINT_AND_SKYSCRAPER,
    PRESS_BACK_AS_WILDS,
    PRESS_BY_RANK,
    REFRESH_RESERVE,
    REPLACE_NEUTRAL,
    SKYSCRAPER_AND_PRESS,
    SWAP_CHARACTER,
    TAKE_BACK_MAX,
    TAKE_BACK_PLAYED,
    THREE_POINTS,
    TWO_DOLLARS,
    TWO_POINTS,
    TWO_SINGLE_CARDS,
    can_use_character,
    character_card_options,
    hand_size,
    owned_count,
    swap_target_value,
    unused_tile,
)
from .cards import draw_faceup_to_reserve, draw_to_hand, draw_to_reserve, take_from_reserve
from .components import CHARACTER_27_STEPS, CHARACTER_FREE, NEUTRAL, NUM_CARD_TYPES, WILD
from .elevator import remove_tile, take_from_display
from .press import move_press, press_rank
from .state import (
    CTX_AFTER_PICK,
    CTX_BID,
    CTX_PICK,
    DEC_AFTER_PICK,
    DEC_BID,
    DEC_CHARACTER_BOROUGH,
    DEC_CHARACTER_CARD,
    DEC_CHARACTER_ELEVATOR,
    DEC_CHARACTER_PAIR,
    DEC_CHARACTER_PAIR_CARD,
    DEC_CHARACTER_STEPS,
    DEC_CHARACTER_TILE,
    DEC_NONE,
    DEC_PICK_PAIR,
    EMPTY,
)

CHARACTER_1_POINTS = 1
CHARACTER_3_POINTS = 1
CHARACTER_5_DRAW = 3
CHARACTER_6_DOLLARS = 2
CHARACTER_9_DOLLARS = 1
CHARACTER_10_DRAW = 2
CHARACTER_12_POINTS = 1
CHARACTER_18_DOLLARS = 1
CHARACTER_20_VALUE = 2
CHARACTER_23_POINTS = 2
CHARACTER_24_POINTS = 1
CHARACTER_25_POINTS = 3
CHARACTER_26_PRESS = 1
SUPPLY_SKYSCRAPER = 1
NO_LIMIT = 1 << 20


@jit
def refill_reserve(st, seat):
    """Draw into ``seat``'s reserve until it holds ``reserve_size`` cards (8, 12, 15). On the
    bidder's own bidding turn the exchange allowance starts afresh (R9, P1), so every new
    reserve card can be exchanged into the hand."""
    have = 0
    for t in range(NUM_CARD_TYPES):
        have += st["reserve"][seat, t]
    draw_to_reserve(st, seat, st["reserve_size"][seat] - have)
    if st["ability_context"] == CTX_BID:
        st["exchanges_left"] = st["reserve_size"][seat]


@jit
def free_skyscraper_bonus(st, seat, borough):
    """21 (R16): one skyscraper from the supply per tile of 21, once per building action."""
    if st["is_tom"][seat] == 0:
        st["skyscrapers"][borough, seat] += owned_count(st, seat, FREE_SKYSCRAPER)


@jit
def _pay(st, seat, c):
    """Mark an unused tile of ``c`` as used this round and place the dollar on it, unless free."""
    tile = unused_tile(st, seat, c)
    st["tile_used"][tile] = 1
    if CHARACTER_FREE[c] == 0:
        st["dollars"][seat] -= 1
        st["tile_dollar"][tile] = 1


@jit
def _play_card_as_round(st, seat, t, value):
    """13, 20: a hand card joins the bid, counting ``value`` cards of the round's type."""
    st["hand"][seat, t] -= 1
    st["played"][seat, t] += 1
    st["bid_value"][seat] += value
    st["bid_base"][seat] = 1


@jit
def _move_to_end_of_bidding(st, seat):
    """18 (R11): ``seat`` bids last in this bidding round; the others keep their clockwise
    order (R3)."""
    n = st["num_seats"]
    k = 0
    while st["order"][k] != seat:
        k += 1
    for i in range(k, n - 1):
        st["order"][i] = st["order"][i + 1]
    st["order"][n - 1] = seat


@jit
def finish_ability(st):
    """Go back to where the ability was used from (ability_context)."""
    seat = st["actor"]
    c = st["ability"]
    ctx = st["ability_context"]
    st["ability"] = 0
    if c == TWO_SINGLE_CARDS or c == BOTH_PAIRS:
        st["pairs_taken"][seat] += 1 if c == TWO_SINGLE_CARDS else 2
        st["cursor"] += 1  # the ability was this pick turn (R8)
        st["decision"] = DEC_NONE
    elif ctx == CTX_PICK:
        st["decision"] = DEC_PICK_PAIR
    elif ctx == CTX_AFTER_PICK:
        usable = can_use_character(st, seat, MATCH_PAIR_FROM_RESERVE, DEC_AFTER_PICK)
        st["decision"] = DEC_AFTER_PICK if usable else DEC_NONE
    elif ctx == CTX_BID:
        st["decision"] = DEC_BID
    else:
        st["decision"] = DEC_NONE  # the stage offers the next turn (after 18: the bidding)


@jit
def _ask(st, decision, limit):
    st["decision"] = decision
    st["ability_count"] = 0
    st["ability_limit"] = limit


@jit
def start_ability(st, seat, c, context):
    """USE_CHARACTER: pay (1 dollar unless free), mark the tile used this round, then act at
    once or ask for the ability's first choice (addendum 1-27)."""
    _pay(st, seat, c)
    st["ability"] = c
    st["ability_context"] = context
    st["actor"] = seat
    if c == DRAW_AND_DISCARD_HAND:
        st["points"][seat] += CHARACTER_1_POINTS
        _ask(st, DEC_CHARACTER_CARD, NO_LIMIT)
        if hand_size(st, seat) == 0:
            finish_ability(st)
    elif c == TWO_SINGLE_CARDS:
        _ask(st, DEC_CHARACTER_PAIR_CARD, 2)
    elif c == BIGGER_RESERVE:
        st["points"][seat] += CHARACTER_3_POINTS
        st["reserve_size"][seat] += 1
        draw_faceup_to_reserve(st, seat)
        finish_ability(st)
    elif c == BOTH_PAIRS:
        _ask(st, DEC_CHARACTER_PAIR, 2)
    elif c == DRAW_THREE_DISCARD_TWO:
        draw_to_hand(st, seat, CHARACTER_5_DRAW)
        _ask(st, DEC_CHARACTER_CARD, min(DISCARD_AFTER_DRAW, hand_size(st, seat)))
        if st["ability_limit"] == 0:
            finish_ability(st)
    elif c == TWO_DOLLARS:
        st["dollars"][seat] += CHARACTER_6_DOLLARS
        finish_ability(st)
    elif c == SWAP_CHARACTER:
        _ask(st, DEC_CHARACTER_TILE, 1)
    elif c == MATCH_PAIR_FROM_RESERVE:
        # Each use allows one card per card of the pair (kept in memory[2:4]).
        st["ability_memory"][0] = st["ability_memory"][PAIR_MEMORY]
        st["ability_memory"][1] = st["ability_memory"][PAIR_MEMORY + 1]
        _ask(st, DEC_CHARACTER_CARD, 2)
    elif c == CARD_AND_DOLLAR:
        draw_to_hand(st, seat, 1)
        st["dollars"][seat] += CHARACTER_9_DOLLARS
        finish_ability(st)
    elif c == DRAW_TWO:
        draw_to_hand(st, seat, CHARACTER_10_DRAW)
        finish_ability(st)
    elif c == REPLACE_NEUTRAL:
        _ask(st, DEC_CHARACTER_BOROUGH, 1)
    elif c == REFRESH_RESERVE:
        st["points"][seat] += CHARACTER_12_POINTS
        _ask(st, DEC_CHARACTER_CARD, NO_LIMIT)
    elif c == ANY_CARD_AS_ROUND or c == PLAY_FROM_RESERVE or c == CARD_AS_TWO:
        _ask(st, DEC_CHARACTER_CARD, 1)
    elif c == PRESS_BACK_AS_WILDS:
        _ask(st, DEC_CHARACTER_STEPS, 1)
    elif c == EXTRA_WILD:
        st["bid_value"][seat] += 1
        finish_ability(st)
    elif c == EXTRA_PRESTIGE:
        st["bid_value"][seat] += 1
        st["bid_base"][seat] = 1
        finish_ability(st)
    elif c == BID_LAST:  # declared before the first bid of the bidding round (R11)
        st["dollars"][seat] += CHARACTER_18_DOLLARS
        st["character18_used"] = 1
        _move_to_end_of_bidding(st, seat)
        finish_ability(st)
    elif c == DOUBLE_PRESTIGE:
        st["double_prestige"][seat] = 1
        finish_ability(st)
    elif c == TAKE_BACK_PLAYED:
        _ask(st, DEC_CHARACTER_CARD, TAKE_BACK_MAX)
    else:
        _phase3_effect(st, seat, c)
        finish_ability(st)


@jit
def _phase3_effect(st, seat, c):
    """23-27 (R18)."""
    if c == TWO_POINTS:
        st["points"][seat] += CHARACTER_23_POINTS
    elif c == POINT_AND_SKYSCRAPER:
        st["points"][seat] += CHARACTER_24_POINTS
        st["board_skyscrapers"][seat] += SUPPLY_SKYSCRAPER
    elif c == THREE_POINTS:
        st["points"][seat] += CHARACTER_25_POINTS
    elif c == SKYSCRAPER_AND_PRESS:
        st["board_skyscrapers"][seat] += SUPPLY_SKYSCRAPER
        move_press(st, seat, CHARACTER_26_PRESS)
    elif c == PRESS_BY_RANK:
        move_press(st, seat, CHARACTER_27_STEPS[st["num_seats"], press_rank(st, seat)])


@jit
def _end_card_choices(st, seat):
    """The closing step of abilities that take 'any number' of cards."""
    c = st["ability"]
    if c == DRAW_AND_DISCARD_HAND:
        draw_to_hand(st, seat, st["ability_count"])
    elif c == MATCH_PAIR_FROM_RESERVE or c == REFRESH_RESERVE:
        refill_reserve(st, seat)
    finish_ability(st)


@jit
def choose_card(st, seat, t):
    """CHARACTER_CARD: the card choice of abilities 1, 5, 8, 12, 13, 15, 20 and 22."""
    c = st["ability"]
    st["ability_count"] += 1
    if c == DRAW_AND_DISCARD_HAND or c == DRAW_THREE_DISCARD_TWO:
        st["hand"][seat, t] -= 1
        st["discard"][t] += 1
    elif c == MATCH_PAIR_FROM_RESERVE:
        take_from_reserve(st, seat, t, 1)
        st["hand"][seat, t] += 1
        k = 0 if st["ability_memory"][0] == t else 1
        st["ability_memory"][k] = EMPTY
    elif c == REFRESH_RESERVE:
        take_from_reserve(st, seat, t, 1)
        st["discard"][t] += 1
    elif c == ANY_CARD_AS_ROUND:
        _play_card_as_round(st, seat, t, 1)
    elif c == CARD_AS_TWO:
        _play_card_as_round(st, seat, t, CHARACTER_20_VALUE)
    elif c == PLAY_FROM_RESERVE:
        _play_from_reserve(st, seat, t)
    elif c == TAKE_BACK_PLAYED:
        st["played"][seat, t] -= 1
        st["hand"][seat, t] += 1
    if st["ability_count"] >= st["ability_limit"] or character_card_options(st, seat) == 0:
        _end_card_choices(st, seat)


@jit
def _play_from_reserve(st, seat, t):
    """15: the reserve card joins the bid (with a hand card of its type for a 2:1 substitute),
    then the reserve is refilled and may be exchanged again at once (addendum notes; the
    refill gives a fresh exchange allowance, P1)."""
    take_from_reserve(st, seat, t, 1)
    st["played"][seat, t] += 1
    if t != st["bid_round"] and t != WILD:
        st["hand"][seat, t] -= 1
        st["played"][seat, t] += 1
        st["icons_played"][seat, t] += 1
    st["bid_value"][seat] += 1
    st["bid_base"][seat] = 1
    refill_reserve(st, seat)


@jit
def choose_done(st, seat):
    """CHARACTER_DONE: stop an 'any number' / 'up to' card choice."""
    _end_card_choices(st, seat)


@jit
def choose_tile(st, seat, tile):
    """7: give up ``tile`` (it leaves the game), then take one up to its value + 1."""
    st["ability_memory"][0] = swap_target_value(tile)
    remove_tile(st, tile)
    st["tile_dollar"][tile] = 0  # a dollar on it returns to the supply with the tile
    st["tile_used"][tile] = 0
    st["decision"] = DEC_CHARACTER_ELEVATOR


@jit
def choose_elevator_tile(st, seat, slot):
    """7: take the display tile in ``slot``; the gap is refilled (R14)."""
    take_from_display(st, seat, slot)
    finish_ability(st)


@jit
def choose_pair_card(st, seat, p, k):
    """2: take one single card; after the second, the two leftovers form a new pair."""
    card = st["pairs"][p, k]
    st["hand"][seat, card] += 1
    st["pairs"][p, k] = EMPTY
    if st["ability_count"] == 0:
        st["ability_memory"][0] = p
        st["ability_count"] = 1
        return
    first = st["ability_memory"][0]
    left_first = st["pairs"][first, 0] if st["pairs"][first, 0] != EMPTY else st["pairs"][first, 1]
    left_second = st["pairs"][p, 0] if st["pairs"][p, 0] != EMPTY else st["pairs"][p, 1]
    st["pairs"][first, 0] = left_first
    st["pairs"][first, 1] = left_second
    st["pairs"][p, 0] = EMPTY
    st["pairs"][p, 1] = EMPTY
    finish_ability(st)


@jit
def choose_pair(st, seat, p):
    """4: take a whole pair; after the second, the pick turn is over."""
    for k in range(2):
        card = st["pairs"][p, k]
        if card != EMPTY:
            st["hand"][seat, card] += 1
        st["pairs"][p, k] = EMPTY
    st["ability_count"] += 1
    if st["ability_count"] == 2:
        finish_ability(st)


@jit
def choose_borough(st, seat, b):
    """11: a neutral skyscraper in ``b`` leaves the game; one from the board takes its place."""
    st["skyscrapers"][b, NEUTRAL] -= 1
    st["skyscrapers"][b, seat] += 1
    st["board_skyscrapers"][seat] -= 1
    finish_ability(st)


@jit
def choose_steps(st, seat, steps):
    """14: go back ``steps`` press spaces; each counts as a wild card in the bid."""
    move_press(st, seat, -steps)
    st["bid_value"][seat] += steps
    finish_ability(st)


@jit
def remember_pair(st, pair_cards0, pair_cards1):
    """8 (R8): the pair just taken, for following uses of character 8."""
    st["ability_memory"][PAIR_MEMORY] = pair_cards0
    st["ability_memory"][PAIR_MEMORY + 1] = pair_cards1

