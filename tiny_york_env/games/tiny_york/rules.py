"""The phase machine and ``apply``: setup draft, Phase 0, I, II (bidding + evaluation), III,
round end and the end of the game (rulebook "Playing the Game", R3-R19)."""

import numpy as np

from ...core.jit import jit
from .abilities import BID_LAST, MATCH_PAIR_FROM_RESERVE, any_character_usable, can_use_character
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
    PICK_PAIR,
    PRESTIGE_BOROUGH,
    PRESTIGE_FORFEIT,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    SELL_FROM,
    START_STACK,
    USE_CHARACTER,
)
from .bot_moves import clear_tom_events
from .bots import tom_bid, tom_draw_before_bidding, toms_take_pairs, toms_take_start_stacks
from .building import can_sell_into, check_borough_bonus, start_building
from .cards import (
    deal_pairs,
    discard_hand,
    discard_pairs,
    discard_played,
    draw_to_hand,
    take_from_reserve,
    take_pair,
)
from .characters import (
    choose_borough,
    choose_card,
    choose_done,
    choose_elevator_tile,
    choose_pair,
    choose_pair_card,
    choose_steps,
    choose_tile,
    free_skyscraper_bonus,
    remember_pair,
    start_ability,
)
from .components import (
    HAND_DRAW_PHASE0,
    MAX_SEATS,
    MIN_PARTICIPANTS,
    NUM_ACTIVE_CHARACTERS,
    NUM_BIDDING_ROUNDS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_GAME_ROUNDS,
    NUM_START_STACKS,
    NUM_TILES,
    PAIRS_PER_AGENT,
    PRESTIGE_REVEALED_PER_ROUND,
    PRESTIGE_TILE_VALUE,
    WILD,
)
from .elevator import give_tile, remove_tile, take_from_display
from .evaluation import evaluate, start_evaluation
from .legal import is_legal
from .press import press_order, reverse_agent_press_order
from .scoring import final_scoring
from .state import (
    CTX_AFTER_EVALUATION,
    CTX_AFTER_PICK,
    CTX_BID,
    CTX_DECLARE_BID_LAST,
    CTX_PHASE3,
    CTX_PICK,
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
    DEC_GAME_OVER,
    DEC_NONE,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    DEC_START_STACK,
    EMPTY,
    NO_SEAT,
    PRESTIGE_REMOVED,
    PRESTIGE_REVEALED,
    STACK_REMOVED,
    STACK_TAKEN,
    STAGE_BID_END,
    STAGE_BID_START,
    STAGE_BIDDING,
    STAGE_DECLARE_BID_LAST,
    STAGE_EVALUATE,
    STAGE_GAME_OVER,
    STAGE_PHASE0,
    STAGE_PHASE1,
    STAGE_PHASE3,
    STAGE_RETURN_CARDS,
    STAGE_ROUND_END,
    STAGE_START_CHARACTERS,
)

ILLEGAL_ACTION = 1
OK = 0


# --- automatic stages ------------------------------------------------------------------------
@jit
def _stage_start_characters(st):
    """Setup step 16 with R4: agents choose a revealed stack in reverse press order; the
    stacks left over leave the game (step 17)."""
    if st["cursor"] < st["num_agents"]:
        st["actor"] = st["order"][st["cursor"]]
        st["decision"] = DEC_START_STACK
        return
    toms_take_start_stacks(st)
    for k in range(NUM_START_STACKS):
        if st["start_stack_status"][k] != STACK_TAKEN:
            remove_tile(st, st["start_stacks"][k, 0])
            remove_tile(st, st["start_stacks"][k, 1])
            st["start_stack_status"][k] = STACK_REMOVED
    st["stage"] = STAGE_PHASE0


@jit
def num_pairs_dealt(st):
    """R6: 2 per agent + 1 per Tom, + 1 when two or more agents play."""
    n = PAIRS_PER_AGENT * st["num_agents"] + (st["num_seats"] - st["num_agents"])
    if st["num_agents"] >= MIN_PARTICIPANTS:
        n += 1
    return n


@jit
def _stage_phase0(st):
    """Phase 0: return dollars (R19), move the Mayor to the round's letter, reveal 2 prestige
    tiles, each agent draws 3 cards, deal the pairs. After round 5, the final scoring (R20)."""
    st["round"] += 1
    if st["round"] > NUM_GAME_ROUNDS:
        final_scoring(st)
        st["stage"] = STAGE_GAME_OVER
        st["decision"] = DEC_GAME_OVER
        st["actor"] = NO_SEAT
        return
    for tile in range(NUM_TILES):
        st["tile_used"][tile] = 0
        st["tile_dollar"][tile] = 0
    for b in range(NUM_BOROUGHS):
        if st["borough_sequence"][b] == st["round"] - 1:
            st["mayor"] = b
    for k in range(PRESTIGE_REVEALED_PER_ROUND):
        tile = st["prestige_stack"][st["prestige_next"]]
        st["prestige_next"] += 1
        st["prestige_revealed"][k] = tile
        st["prestige_loc"][tile] = PRESTIGE_REVEALED
    for seat in range(st["num_seats"]):
        st["pairs_taken"][seat] = 0
        if st["is_tom"][seat] == 0:
            draw_to_hand(st, seat, HAND_DRAW_PHASE0)
    deal_pairs(st, num_pairs_dealt(st))
    reverse_agent_press_order(st, st["order"])
    st["cursor"] = 0
    st["stage"] = STAGE_PHASE1


@jit
def _stage_phase1(st):
    """Phase I (R6): agents take one pair at a time in reverse press order until each has two;
    pairs left over are discarded."""
    n = st["num_agents"]
    while st["cursor"] < PAIRS_PER_AGENT * n:
        seat = st["order"][st["cursor"] % n]
        if st["pairs_taken"][seat] < PAIRS_PER_AGENT:
            st["actor"] = seat
            st["decision"] = DEC_PICK_PAIR
            return
        st["cursor"] += 1
    toms_take_pairs(st)
    discard_pairs(st)
    st["bid_round"] = 0
    st["stage"] = STAGE_BID_START


@jit
def _stage_bid_start(st):
    """R3: the first bidding round starts with the press leader, later ones with the previous
    bonus winner (kept in bid_start); bidding runs clockwise by seat. Toms draw (R21), then
    character 18 may be declared (R11)."""
    if st["bid_round"] == 0:
        press_order(st, st["order"])
        st["bid_start"] = st["order"][0]
    n = st["num_seats"]
    for i in range(n):
        st["order"][i] = (st["bid_start"] + i) % n
        st["bid_value"][i] = 0
        st["bid_done"][i] = 0
        st["bid_base"][i] = 0
        st["double_prestige"][i] = 0
        for t in range(NUM_CARD_TYPES):
            st["icons_played"][i, t] = 0
    st["character18_used"] = 0
    for i in range(n):
        seat = st["order"][i]
        if st["is_tom"][seat] != 0:
            tom_draw_before_bidding(st, seat)
    st["bonus_winner"] = NO_SEAT
    st["runner_up"] = NO_SEAT
    st["cursor"] = 0
    st["stage"] = STAGE_DECLARE_BID_LAST


@jit
def _stage_declare_bid_last(st):
    """R11 (addendum 18, "ties broken by the Press Track"): before the first bid, agents who
    can use character 18 are asked in press order (R2); the first who uses it bids last, and
    nobody else may use it in this bidding round, so the asking stops."""
    if st["character18_used"] == 0:
        ranking = np.empty(MAX_SEATS, np.int16)
        press_order(st, ranking)
        while st["cursor"] < st["num_seats"]:
            seat = ranking[st["cursor"]]
            if can_use_character(st, seat, BID_LAST, DEC_DECLARE_BID_LAST):
                st["actor"] = seat
                st["decision"] = DEC_DECLARE_BID_LAST
                return
            st["cursor"] += 1
    st["cursor"] = 0
    st["stage"] = STAGE_BIDDING


@jit
def _stage_bidding(st):
    """Each participant bids once, in bidding order (R3, R9, R10; Toms by R21)."""
    if st["cursor"] < st["num_seats"]:
        seat = st["order"][st["cursor"]]
        if st["is_tom"][seat] != 0:
            tom_bid(st, seat)  # R21: Tom bids by himself
            st["cursor"] += 1
            return
        st["actor"] = seat
        st["exchanges_left"] = st["reserve_size"][seat]
        st["decision"] = DEC_BID
        return
    start_evaluation(st)
    st["stage"] = STAGE_EVALUATE


@jit
def _stage_bid_end(st):
    """After the evaluation: the borough bonus (R17); then character 22's turn (R11)."""
    check_borough_bonus(st)
    press_order(st, st["order"])  # as it stands after the evaluation (the press round moves it)
    st["cursor"] = 0
    st["stage"] = STAGE_RETURN_CARDS


@jit
def _stage_return_cards(st):
    """R11: in press order, agents with character 22 may take played cards back; then the
    played cards go to the discard pile, the next start player is set (R3) and the next
    bidding round, or Phase III, begins."""
    while st["cursor"] < st["num_seats"]:
        seat = st["order"][st["cursor"]]
        if any_character_usable(st, seat, DEC_AFTER_EVALUATION):
            st["actor"] = seat
            st["decision"] = DEC_AFTER_EVALUATION
            return
        st["cursor"] += 1
    for seat in range(st["num_seats"]):
        discard_played(st, seat)
    if st["bonus_winner"] != NO_SEAT:
        st["bid_start"] = st["bonus_winner"]
    st["bid_round"] += 1
    if st["bid_round"] == NUM_BIDDING_ROUNDS:
        press_order(st, st["order"])
        st["cursor"] = 0
        st["stage"] = STAGE_PHASE3
    else:
        st["stage"] = STAGE_BID_START


@jit
def _stage_phase3(st):
    """R18: in press order each agent may use their Phase III characters (23-27)."""
    while st["cursor"] < st["num_seats"]:
        seat = st["order"][st["cursor"]]
        if any_character_usable(st, seat, DEC_PHASE3):
            st["actor"] = seat
            st["decision"] = DEC_PHASE3
            return
        st["cursor"] += 1
    st["stage"] = STAGE_ROUND_END


@jit
def _stage_round_end(st):
    """R19: hands are discarded (reserves stay); prestige tiles not taken leave the game."""
    for seat in range(st["num_seats"]):
        discard_hand(st, seat)
    for k in range(PRESTIGE_REVEALED_PER_ROUND):
        tile = st["prestige_revealed"][k]
        if tile != EMPTY:
            st["prestige_loc"][tile] = PRESTIGE_REMOVED
            st["prestige_revealed"][k] = EMPTY
    st["stage"] = STAGE_PHASE0


@jit
def advance(st):
    """Run automatic steps until a participant must decide or the game is over."""
    while st["decision"] == DEC_NONE:
        stage = st["stage"]
        if stage == STAGE_START_CHARACTERS:
            _stage_start_characters(st)
        elif stage == STAGE_PHASE0:
            _stage_phase0(st)
        elif stage == STAGE_PHASE1:
            _stage_phase1(st)
        elif stage == STAGE_BID_START:
            _stage_bid_start(st)
        elif stage == STAGE_DECLARE_BID_LAST:
            _stage_declare_bid_last(st)
        elif stage == STAGE_BIDDING:
            _stage_bidding(st)
        elif stage == STAGE_EVALUATE:
            evaluate(st)
        elif stage == STAGE_BID_END:
            _stage_bid_end(st)
        elif stage == STAGE_RETURN_CARDS:
            _stage_return_cards(st)
        elif stage == STAGE_PHASE3:
            _stage_phase3(st)
        elif stage == STAGE_ROUND_END:
            _stage_round_end(st)
        else:
            return


# --- decisions ---------------------------------------------------------------------------------
@jit
def _play_cards(st, seat, t, n):
    """Move ``n`` cards of type ``t`` from ``seat``'s hand into the bid, icons showing (15)."""
    st["hand"][seat, t] -= n
    st["played"][seat, t] += n
    st["icons_played"][seat, t] += n


@jit
def _apply_bid(st, seat, a):
    """R9 exchange or one R10 part of the bid; BID_DONE makes the bid final."""
    round_type = st["bid_round"]
    if a < BID_CARD:
        h = (a - EXCHANGE) // NUM_CARD_TYPES
        r = (a - EXCHANGE) % NUM_CARD_TYPES
        st["hand"][seat, h] -= 1
        take_from_reserve(st, seat, r, 1)  # face-down copies first (P24)
        st["reserve"][seat, h] += 1
        st["hand"][seat, r] += 1
        st["exchanges_left"] -= 1
        return
    if a == BID_DONE:
        st["bid_done"][seat] = 1
        st["cursor"] += 1
        st["decision"] = DEC_NONE
        return
    if a == BID_CARD:
        _play_cards(st, seat, round_type, 1)
    elif a < BID_WILD_PAIR:
        _play_cards(st, seat, a - BID_PAIR, 2)
    elif a < BID_WILD:
        _play_cards(st, seat, a - BID_WILD_PAIR, 1)
        _play_cards(st, seat, WILD, 1)
    else:
        _play_cards(st, seat, WILD, 1)
    if a != BID_WILD:
        st["bid_base"][seat] = 1
    st["bid_value"][seat] += 1


@jit
def _apply_prestige(st, seat, a):
    """R15: choose a revealed tile (or forfeit), then its vessel, then the borough; place the
    tile, keep the vessel and build one skyscraper there."""
    d = st["decision"]
    if d == DEC_PRESTIGE_TILE:
        if a == PRESTIGE_FORFEIT:
            st["decision"] = DEC_NONE
            return
        st["chosen_slot"] = a - PRESTIGE_TILE
        st["decision"] = DEC_PRESTIGE_VESSEL
    elif d == DEC_PRESTIGE_VESSEL:
        st["chosen_vessel"] = a - PRESTIGE_VESSEL
        st["decision"] = DEC_PRESTIGE_BOROUGH
    else:
        b = a - PRESTIGE_BOROUGH
        slot = st["chosen_slot"]
        tile = st["prestige_revealed"][slot]
        st["prestige_revealed"][slot] = EMPTY
        st["prestige_loc"][tile] = b
        st["borough_prestige"][b] += PRESTIGE_TILE_VALUE[tile]
        st["vessel_owner"][st["chosen_vessel"]] = seat
        st["decision"] = DEC_NONE
        start_building(st, seat, b, 1)


@jit
def _apply_sell(st, seat, a):
    """R16 with an empty board: move one own skyscraper from another borough, or stop."""
    if a == BUILD_STOP:
        st["build_left"] = 0
        st["decision"] = DEC_NONE
        return
    b = a - SELL_FROM
    target = st["build_borough"]
    st["skyscrapers"][b, seat] -= 1
    st["skyscrapers"][target, seat] += 1
    if st["build_bonus_due"] != 0:
        st["build_bonus_due"] = 0
        free_skyscraper_bonus(st, seat, target)
    st["build_left"] -= 1
    if st["build_left"] == 0 or not can_sell_into(st, seat, target):
        st["build_left"] = 0
        st["decision"] = DEC_NONE


@jit
def _apply_pick(st, seat, p):
    """R6: take pair ``p``; then character 8 may follow (R8)."""
    remember_pair(st, st["pairs"][p, 0], st["pairs"][p, 1])
    take_pair(st, seat, p)
    st["pairs_taken"][seat] += 1
    st["cursor"] += 1
    if can_use_character(st, seat, MATCH_PAIR_FROM_RESERVE, DEC_AFTER_PICK):
        st["decision"] = DEC_AFTER_PICK
    else:
        st["decision"] = DEC_NONE


@jit
def _context_of(d):
    """Where an ability used at decision ``d`` goes back to."""
    if d == DEC_PICK_PAIR:
        return CTX_PICK
    if d == DEC_AFTER_PICK:
        return CTX_AFTER_PICK
    if d == DEC_BID:
        return CTX_BID
    if d == DEC_AFTER_EVALUATION:
        return CTX_AFTER_EVALUATION
    if d == DEC_DECLARE_BID_LAST:
        return CTX_DECLARE_BID_LAST
    return CTX_PHASE3


@jit
def _apply_character_choice(st, seat, a):
    """The choices of an ability being resolved."""
    d = st["decision"]
    if d == DEC_CHARACTER_CARD:
        if a == CHARACTER_DONE:
            choose_done(st, seat)
        else:
            choose_card(st, seat, a - CHARACTER_CARD)
    elif d == DEC_CHARACTER_TILE:
        choose_tile(st, seat, a - CHARACTER_TILE)
    elif d == DEC_CHARACTER_ELEVATOR:
        choose_elevator_tile(st, seat, a - ELEVATOR_TAKE)
    elif d == DEC_CHARACTER_PAIR_CARD:
        choose_pair_card(st, seat, (a - CHARACTER_PAIR_CARD) // 2, (a - CHARACTER_PAIR_CARD) % 2)
    elif d == DEC_CHARACTER_PAIR:
        choose_pair(st, seat, a - PICK_PAIR)
    elif d == DEC_CHARACTER_BOROUGH:
        choose_borough(st, seat, a - CHARACTER_BOROUGH)
    elif d == DEC_CHARACTER_STEPS:
        choose_steps(st, seat, a - CHARACTER_STEPS + 1)


@jit
def apply_unchecked(st, a):
    """Carry out legal action ``a`` for the pending decision, then run the engine on."""
    d = st["decision"]
    seat = st["actor"]
    st["num_decisions"] += 1
    clear_tom_events(st)  # the log holds what follows this decision
    if USE_CHARACTER <= a < USE_CHARACTER + NUM_ACTIVE_CHARACTERS:
        start_ability(st, seat, a - USE_CHARACTER + 1, _context_of(d))
    elif a == END_TURN:  # go on without a character (8, 18, 22, Phase III)
        st["cursor"] += d != DEC_AFTER_PICK  # after a pick the cursor has moved already
        st["decision"] = DEC_NONE
    elif d == DEC_BID:
        _apply_bid(st, seat, a)
    elif d == DEC_START_STACK:
        k = a - START_STACK
        give_tile(st, st["start_stacks"][k, 0], seat)
        give_tile(st, st["start_stacks"][k, 1], seat)
        st["start_stack_status"][k] = STACK_TAKEN
        st["cursor"] += 1
        st["decision"] = DEC_NONE
    elif d == DEC_PICK_PAIR:
        _apply_pick(st, seat, a - PICK_PAIR)
    elif d == DEC_ELEVATOR:
        take_from_display(st, seat, a - ELEVATOR_TAKE)
        st["decision"] = DEC_NONE
    elif d == DEC_PRESTIGE_TILE or d == DEC_PRESTIGE_VESSEL or d == DEC_PRESTIGE_BOROUGH:
        _apply_prestige(st, seat, a)
    elif d == DEC_BUILD:
        _apply_sell(st, seat, a)
    else:
        _apply_character_choice(st, seat, a)
    if st["decision"] == DEC_NONE:
        advance(st)


@jit
def apply(st, a):
    """Apply action ``a`` if legal and return OK; otherwise change nothing, ILLEGAL_ACTION."""
    if not is_legal(st, a):
        return ILLEGAL_ACTION
    apply_unchecked(st, a)
    return OK
