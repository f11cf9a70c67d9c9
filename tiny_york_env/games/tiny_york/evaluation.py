"""Phase II evaluation: the six actions (rulebook "Cards and their related actions", R12-R16).

Each ``evaluate_*`` function is re-entrant: it advances its own cursor before handing a
decision to a participant, and the engine calls it again once that decision is resolved.
"""

from ...core.jit import jit
from .bots import tom_build, tom_prestige_move, tom_take_elevator
from .building import start_building
from .components import DOLLARS, ELEVATOR, PLANS, PRESS, PRESTIGE, SKYSCRAPERS
from .elevator import display_has_tile_up_to
from .legal import action_value, any_prestige_tile_available
from .press import ahead, move_press, press_order
from .state import (
    DEC_ELEVATOR,
    DEC_PRESTIGE_TILE,
    NO_SEAT,
    PRESTIGE_STEP_DONE,
    PRESTIGE_STEP_POINTS,
    PRESTIGE_STEP_RUNNER_UP,
    PRESTIGE_STEP_WINNER,
    STAGE_BID_END,
)


@jit
def highest_bidder(st, excluded):
    """R12: the seat with the highest bid value (> 0), ties to the one ahead in press order,
    ignoring ``excluded``; NO_SEAT if nobody bid."""
    best = NO_SEAT
    for seat in range(st["num_seats"]):
        v = st["bid_value"][seat]
        if seat == excluded or v <= 0:
            continue
        if best == NO_SEAT or v > st["bid_value"][best] or (
                v == st["bid_value"][best] and ahead(st, seat, best)):
            best = seat
    return best


@jit
def start_evaluation(st):
    """Fix the bonus winner, the prestige runner-up and the press order for this evaluation."""
    st["bonus_winner"] = highest_bidder(st, NO_SEAT)
    st["runner_up"] = NO_SEAT
    if st["bid_round"] == PRESTIGE and st["bonus_winner"] != NO_SEAT:
        st["runner_up"] = highest_bidder(st, st["bonus_winner"])
    press_order(st, st["order"])
    st["cursor"] = 0
    st["eval_step"] = PRESTIGE_STEP_POINTS


@jit
def evaluate_press(st):
    """Action 1: in press order each bidder advances by bid value (+1 bonus) (R13)."""
    for i in range(st["num_seats"]):
        seat = st["order"][i]
        if st["bid_value"][seat] > 0:
            move_press(st, seat, action_value(st, seat))
    st["stage"] = STAGE_BID_END


@jit
def evaluate_dollars(st):
    """Action 2: each bidder takes bid value (+1 bonus) dollars."""
    for seat in range(st["num_seats"]):
        if st["bid_value"][seat] > 0:
            st["dollars"][seat] += action_value(st, seat)
    st["stage"] = STAGE_BID_END


@jit
def evaluate_elevator(st):
    """Action 3 (R14): in press order each bidder takes exactly one character of value up to
    bid value (+1 bonus) from the display, when one is there."""
    while st["cursor"] < st["num_seats"]:
        seat = st["order"][st["cursor"]]
        st["cursor"] += 1
        if st["bid_value"][seat] > 0 and st["is_tom"][seat] != 0:
            tom_take_elevator(st, seat, action_value(st, seat))
        elif st["bid_value"][seat] > 0 and display_has_tile_up_to(st, action_value(st, seat)):
            st["actor"] = seat
            st["decision"] = DEC_ELEVATOR
            return
    st["stage"] = STAGE_BID_END


@jit
def evaluate_plans(st):
    """Action 4: each bidder takes bid value (+1 bonus) skyscrapers onto the player board."""
    for seat in range(st["num_seats"]):
        if st["bid_value"][seat] > 0:
            st["board_skyscrapers"][seat] += action_value(st, seat)
    st["stage"] = STAGE_BID_END


@jit
def _offer_prestige_tile(st, seat):
    """R15: ``seat`` may take a prestige tile when one can be taken; True if a decision is set."""
    if seat == NO_SEAT or not any_prestige_tile_available(st):
        return False
    if st["is_tom"][seat] != 0:
        tom_prestige_move(st, seat)  # R23
        return False
    st["actor"] = seat
    st["decision"] = DEC_PRESTIGE_TILE
    return True


@jit
def evaluate_prestige(st):
    """Action 5 (R15): every bidder gains points equal to the bid; then the bonus winner, then
    the runner-up, may place a prestige tile with a vessel and build there."""
    if st["eval_step"] == PRESTIGE_STEP_POINTS:
        for seat in range(st["num_seats"]):
            # Character 19 doubles the points of the bid, 17's card included (addendum).
            st["points"][seat] += st["bid_value"][seat] * (1 + st["double_prestige"][seat])
        st["eval_step"] = PRESTIGE_STEP_WINNER
    if st["eval_step"] == PRESTIGE_STEP_WINNER:
        st["eval_step"] = PRESTIGE_STEP_RUNNER_UP
        if _offer_prestige_tile(st, st["bonus_winner"]):
            return
    if st["eval_step"] == PRESTIGE_STEP_RUNNER_UP:
        st["eval_step"] = PRESTIGE_STEP_DONE
        if _offer_prestige_tile(st, st["runner_up"]):
            return
    st["stage"] = STAGE_BID_END


@jit
def evaluate_skyscrapers(st):
    """Action 6 (R13, R16): in press order each bidder builds bid value (+1 bonus) skyscrapers
    in the Mayor's borough."""
    while st["cursor"] < st["num_seats"]:
        seat = st["order"][st["cursor"]]
        st["cursor"] += 1
        if st["bid_value"][seat] > 0 and st["is_tom"][seat] != 0:
            tom_build(st, seat, st["mayor"], action_value(st, seat))  # R22
        elif st["bid_value"][seat] > 0:
            if start_building(st, seat, st["mayor"], action_value(st, seat)):
                return
    st["stage"] = STAGE_BID_END


@jit
def evaluate(st):
    """Run (or resume) the evaluation of the current bidding round."""
    r = st["bid_round"]
    if r == PRESS:
        evaluate_press(st)
    elif r == DOLLARS:
        evaluate_dollars(st)
    elif r == ELEVATOR:
        evaluate_elevator(st)
    elif r == PLANS:
        evaluate_plans(st)
    elif r == PRESTIGE:
        evaluate_prestige(st)
    elif r == SKYSCRAPERS:
        evaluate_skyscrapers(st)
