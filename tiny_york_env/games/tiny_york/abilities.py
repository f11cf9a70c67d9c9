"""When a character ability may be used and which choices it offers (addendum 1-27; R8, R11,
R16, R18, R19). Read-only predicates: ``characters.py`` carries the effects out.

A character's ability is used on the owner's turn in its phase, once per game round per tile,
paying 1 dollar from the player board unless the tile is free. Each copy is its own tile.
Character 18 has its own turn: its holders are asked before the first bid of each bidding
round (R11, ``DEC_DECLARE_BID_LAST``).
"""

from ...core.jit import jit
from .components import (
    CHARACTER_FREE,
    CHARACTER_PHASE,
    ELEVATOR_COLUMNS,
    MAX_TILE_VALUE,
    NEUTRAL,
    NUM_ACTIVE_CHARACTERS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_TILES,
    PAIRS_PER_AGENT,
    PHASE_I,
    PHASE_II,
    PHASE_III,
    PRESS_LAST_SPACE,
    PRESTIGE,
    TILE_CHARACTER,
    TILE_VALUE,
    WILD,
)
from .state import (
    DEC_AFTER_EVALUATION,
    DEC_AFTER_PICK,
    DEC_BID,
    DEC_CHARACTER_BOROUGH,
    DEC_CHARACTER_CARD,
    DEC_CHARACTER_ELEVATOR,
    DEC_CHARACTER_PAIR,
    DEC_CHARACTER_PAIR_CARD,
    DEC_CHARACTER_STEPS,
    DEC_CHARACTER_TILE,
    DEC_DECLARE_BID_LAST,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    EMPTY,
    LOC_OWNED,
)

# Characters by number (addendum).
DRAW_AND_DISCARD_HAND = 1
TWO_SINGLE_CARDS = 2
BIGGER_RESERVE = 3
BOTH_PAIRS = 4
DRAW_THREE_DISCARD_TWO = 5
TWO_DOLLARS = 6
SWAP_CHARACTER = 7
MATCH_PAIR_FROM_RESERVE = 8
CARD_AND_DOLLAR = 9
DRAW_TWO = 10
REPLACE_NEUTRAL = 11
REFRESH_RESERVE = 12
ANY_CARD_AS_ROUND = 13
PRESS_BACK_AS_WILDS = 14
PLAY_FROM_RESERVE = 15
EXTRA_WILD = 16
EXTRA_PRESTIGE = 17
BID_LAST = 18
DOUBLE_PRESTIGE = 19
CARD_AS_TWO = 20
FREE_SKYSCRAPER = 21
TAKE_BACK_PLAYED = 22
TWO_POINTS = 23
POINT_AND_SKYSCRAPER = 24
THREE_POINTS = 25
SKYSCRAPER_AND_PRESS = 26
PRESS_BY_RANK = 27

PRESS_BACK_MAX = 2  # 14: "Go back 1 or 2 spaces"
TAKE_BACK_MAX = 2  # 22: "Return up to 2 of your cards"
DISCARD_AFTER_DRAW = 2  # 5: "Put 2 cards on the discard pile"
PAIR_MEMORY = 2  # ability_memory[2:4] hold the pair just taken (8)
SWAP_VALUE_STEP = 1  # 7: "a value up to 1 higher"


@jit
def unused_tile(st, seat, c):
    """An owned tile of character ``c`` not used this round, or EMPTY."""
    for tile in range(NUM_TILES):
        if (TILE_CHARACTER[tile] == c and st["tile_loc"][tile] == LOC_OWNED
                and st["tile_owner"][tile] == seat and st["tile_used"][tile] == 0):
            return tile
    return EMPTY


@jit
def owned_count(st, seat, c):
    """How many tiles of character ``c`` ``seat`` owns."""
    n = 0
    for tile in range(NUM_TILES):
        if (TILE_CHARACTER[tile] == c and st["tile_loc"][tile] == LOC_OWNED
                and st["tile_owner"][tile] == seat):
            n += 1
    return n


@jit
def hand_size(st, seat):
    """Cards in ``seat``'s hand."""
    n = 0
    for t in range(NUM_CARD_TYPES):
        n += st["hand"][seat, t]
    return n


@jit
def available_pairs(st):
    """How many pair slots still hold a card."""
    n = 0
    for p in range(st["num_pairs"]):
        if st["pairs"][p, 0] != EMPTY or st["pairs"][p, 1] != EMPTY:
            n += 1
    return n


@jit
def display_has_up_to(st, value):
    """The elevator display shows a tile of value <= ``value``."""
    top = min(value, MAX_TILE_VALUE)
    for row in range(top):
        for col in range(ELEVATOR_COLUMNS):
            if st["elevator_display"][row, col] != EMPTY:
                return True
    return False


@jit
def swap_target_value(tile):
    """7: the highest value that may be taken for giving up ``tile``."""
    return min(TILE_VALUE[tile] + SWAP_VALUE_STEP, MAX_TILE_VALUE)


@jit
def play_from_reserve_legal(st, seat, t):
    """15 (addendum notes, R11): a reserve card of type ``t`` joins the bid when a card with
    the same icon was played from the hand (the round's type, or a wild once the bid has a base),
    or, for another type, together with a hand card of that type as a 2:1 substitute."""
    if st["reserve"][seat, t] == 0:
        return False
    round_type = st["bid_round"]
    if t == round_type:
        return st["icons_played"][seat, t] > 0
    if t == WILD:
        return st["icons_played"][seat, WILD] > 0 and st["bid_base"][seat] != 0
    return st["hand"][seat, t] > 0


@jit
def _has_play_from_reserve(st, seat):
    for t in range(NUM_CARD_TYPES):
        if play_from_reserve_legal(st, seat, t):
            return True
    return False


@jit
def _has_neutral_to_replace(st):
    for b in range(NUM_BOROUGHS):
        if st["skyscrapers"][b, NEUTRAL] > 0:
            return True
    return False


@jit
def _has_swap(st, seat):
    for tile in range(NUM_TILES):
        if (st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat
                and display_has_up_to(st, swap_target_value(tile))):
            return True
    return False


@jit
def pair_card_matches_reserve(st, seat):
    """8: a card of the pair just taken has an identical card in the reserve."""
    for k in range(PAIR_MEMORY, PAIR_MEMORY + 2):
        t = st["ability_memory"][k]
        if t != EMPTY and st["reserve"][seat, t] > 0:
            return True
    return False


@jit
def ability_has_effect(st, seat, c):
    """Character ``c``'s own conditions (addendum, R8, R11, R18) beyond phase, tile and dollar."""
    if c == TWO_SINGLE_CARDS:
        return available_pairs(st) >= PAIRS_PER_AGENT
    if c == BOTH_PAIRS:
        return st["pairs_taken"][seat] == 0 and available_pairs(st) >= PAIRS_PER_AGENT
    if c == SWAP_CHARACTER:
        return _has_swap(st, seat)
    if c == MATCH_PAIR_FROM_RESERVE:
        return pair_card_matches_reserve(st, seat)
    if c == REPLACE_NEUTRAL:
        return st["board_skyscrapers"][seat] > 0 and _has_neutral_to_replace(st)
    if c == ANY_CARD_AS_ROUND or c == CARD_AS_TWO:
        return hand_size(st, seat) > 0
    if c == PRESS_BACK_AS_WILDS:
        return st["bid_base"][seat] != 0 and st["press_space"][seat] > 0
    if c == PLAY_FROM_RESERVE:
        return _has_play_from_reserve(st, seat)
    if c == EXTRA_WILD:
        return st["bid_base"][seat] != 0
    if c == EXTRA_PRESTIGE:
        return st["bid_round"] == PRESTIGE
    if c == DOUBLE_PRESTIGE:
        return st["bid_round"] == PRESTIGE and st["double_prestige"][seat] == 0
    if c == BID_LAST:
        return st["character18_used"] == 0  # "No other player may play character 18" (R11)
    if c == PRESS_BY_RANK:
        return st["press_space"][seat] < PRESS_LAST_SPACE
    if c == TAKE_BACK_PLAYED:
        for t in range(NUM_CARD_TYPES):
            if st["played"][seat, t] > 0:
                return True
        return False
    return True


@jit
def character_fits_decision(d, c):
    """R8, R11, R18: which characters each decision offers; 18 only at its declaration before
    the first bid of a bidding round (R11), not on the bidding turn."""
    phase = CHARACTER_PHASE[c]
    if d == DEC_PICK_PAIR:
        return phase == PHASE_I and c != MATCH_PAIR_FROM_RESERVE
    if d == DEC_AFTER_PICK:
        return c == MATCH_PAIR_FROM_RESERVE
    if d == DEC_DECLARE_BID_LAST:
        return c == BID_LAST
    if d == DEC_BID:
        return (phase == PHASE_II and c != FREE_SKYSCRAPER and c != TAKE_BACK_PLAYED
                and c != BID_LAST)
    if d == DEC_AFTER_EVALUATION:
        return c == TAKE_BACK_PLAYED
    if d == DEC_PHASE3:
        return phase == PHASE_III
    return False


@jit
def can_use_character(st, seat, c, d):
    """``seat`` may use character ``c`` at decision ``d``: ``d`` fits its phase, an unused tile
    of it is owned, a dollar is on the board unless the tile is free, and the ability has an
    effect."""
    if c < 1 or c > NUM_ACTIVE_CHARACTERS:
        return False
    return unused_tile(st, seat, c) != EMPTY and may_use_unused(st, seat, c, d)


@jit
def may_use_unused(st, seat, c, d):
    """``can_use_character`` for an active character ``c`` of which ``seat`` owns an unused tile:
    not a Tom, ``d`` fits its phase, a dollar unless the tile is free, and the ability has an
    effect (the legal mask asks this for each owned tile, the tile scan already done)."""
    if st["is_tom"][seat] != 0 or not character_fits_decision(d, c):
        return False
    if CHARACTER_FREE[c] == 0 and st["dollars"][seat] < 1:
        return False
    return ability_has_effect(st, seat, c)


@jit
def any_character_usable(st, seat, d):
    """Some character of ``seat``'s may be used at decision ``d``."""
    for tile in range(NUM_TILES):
        if (st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat
                and st["tile_used"][tile] == 0):
            c = TILE_CHARACTER[tile]
            if c <= NUM_ACTIVE_CHARACTERS and may_use_unused(st, seat, c, d):
                return True
    return False


@jit
def character_card_legal(st, seat, t):
    """The card choices of abilities 1, 5, 8, 12, 13, 15, 20 and 22."""
    c = st["ability"]
    if c == DRAW_AND_DISCARD_HAND or c == DRAW_THREE_DISCARD_TWO:
        return st["hand"][seat, t] > 0
    if c == ANY_CARD_AS_ROUND or c == CARD_AS_TWO:
        return st["hand"][seat, t] > 0
    if c == MATCH_PAIR_FROM_RESERVE:
        for k in range(2):
            if st["ability_memory"][k] == t and st["reserve"][seat, t] > 0:
                return True
        return False
    if c == REFRESH_RESERVE:
        return st["reserve"][seat, t] > 0
    if c == PLAY_FROM_RESERVE:
        return play_from_reserve_legal(st, seat, t)
    if c == TAKE_BACK_PLAYED:
        return st["played"][seat, t] > 0
    return False


@jit
def character_card_options(st, seat):
    """How many card types the pending card choice offers."""
    n = 0
    for t in range(NUM_CARD_TYPES):
        if character_card_legal(st, seat, t):
            n += 1
    return n


@jit
def ability_may_stop(c):
    """Abilities whose card choices are 'any number' / 'up to' / 'may' offer CHARACTER_DONE."""
    return (c == DRAW_AND_DISCARD_HAND or c == MATCH_PAIR_FROM_RESERVE or c == REFRESH_RESERVE
            or c == TAKE_BACK_PLAYED)


@jit
def character_tile_legal(st, seat, tile):
    """7: give up an owned tile when the display shows one of value up to its value + 1."""
    return (st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat
            and display_has_up_to(st, swap_target_value(tile)))


@jit
def character_elevator_legal(st, slot):
    """7: take a display tile of value up to the limit kept in ability_memory[0]."""
    tile = st["elevator_display"][slot // ELEVATOR_COLUMNS, slot % ELEVATOR_COLUMNS]
    return tile != EMPTY and TILE_VALUE[tile] <= st["ability_memory"][0]


@jit
def character_pair_card_legal(st, p, k):
    """2: a single card from a pair, the second from a different pair than the first."""
    if p >= st["num_pairs"] or st["pairs"][p, k] == EMPTY:
        return False
    return st["ability_count"] == 0 or p != st["ability_memory"][0]


@jit
def character_pair_legal(st, p):
    """4: a pair still on display."""
    return p < st["num_pairs"] and (st["pairs"][p, 0] != EMPTY or st["pairs"][p, 1] != EMPTY)


@jit
def is_character_decision(d):
    """Decisions that resolve an ability's choices."""
    return (d == DEC_CHARACTER_CARD or d == DEC_CHARACTER_TILE or d == DEC_CHARACTER_ELEVATOR
            or d == DEC_CHARACTER_PAIR_CARD or d == DEC_CHARACTER_PAIR
            or d == DEC_CHARACTER_BOROUGH or d == DEC_CHARACTER_STEPS)
