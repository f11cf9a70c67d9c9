"""A compiled, hand-written evaluation of a Tiny York position for one seat (the heuristic of
``greedy.py``, the game's greedy player): roughly the final score each participant can expect,
and ``relative_value``, the seat's estimate minus the best other participant's.

Per participant, in the order of the final scoring (R20, Tom by R24):

===============  ================================================================
term             estimate
===============  ================================================================
points           the points track as it stands
characters       printed values; end-game characters 28-42 as they would score now;
                 abilities 1-27 ABILITY_VALUE_PER_ROUND per game round to come
                 (agents; Tom by R24)
boroughs         majority points as they would score now (value, halved per rank)
borough bonus    3 when present in all six boroughs, else PRESENCE_VALUE per borough
press            3 from space 5 on, else PRESS_PROGRESS_VALUE per space; plus
                 PRESS_TIE_VALUE per space for ties
goods            DOLLAR_VALUE per dollar; board skyscrapers BOARD_SKYSCRAPER_VALUE,
                 + FUTURE_BUILD_VALUE for BUILDS_PER_ROUND of them per game round to
                 come (they can still be built); VESSEL_VALUE per vessel
hand             each bidding round still to come in this game round: its action's
                 worth now at the value of the hand's cards of its type; wilds and
                 pairs of cards whose round is gone add the best card's worth each;
                 all x HAND_DISCOUNT
reserve          RESERVE_CARD_VALUE per card
pending action   a bid of this bidding round: its action's worth at that value, with
                 the chances of the highest-bid bonus (and of the prestige runner-up)
                 from the bids so far; an elevator pick, a build or a prestige tile
                 still due in the evaluation under way
===============  ================================================================

After the end of the game the estimate is the final score itself. The module also holds the
checks on a seat-safe view that the game's own players share (``record_of``,
``check_seat_to_move``: ``greedy.py``, ``tom_rules.py``).
"""


import numpy as np
from numpy.typing import NDArray

from ...core.jit import jit
from .api import legal_mask
from .bots import TOM_MAX_PER_BOROUGH, tom_character_points
from .components import (
    BOROUGH_BONUS_END,
    DOLLARS,
    ELEVATOR,
    ELEVATOR_COLUMNS,
    FIRST_END_GAME_CHARACTER,
    MAX_SEATS,
    MAX_TILE_VALUE,
    NUM_ACTIVE_CHARACTERS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_GAME_ROUNDS,
    NUM_TILES,
    NUM_VESSELS,
    PLANS,
    PRESS,
    PRESS_BONUS_POINTS,
    PRESS_BONUS_SPACE,
    PRESS_LAST_SPACE,
    PRESTIGE,
    PRESTIGE_REVEALED_PER_ROUND,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    SKYSCRAPERS,
    TILE_CHARACTER,
    TILE_VALUE,
    VESSEL_COLOUR,
    VESSEL_ENDS,
    WILD,
)
from .press import ahead
from .scoring import end_game_character_points, goods, majority_points
from .state import (
    DEC_ELEVATOR,
    DEC_GAME_OVER,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    EMPTY,
    LOC_OWNED,
    NUM_SCORE_LINES,
    PRESTIGE_STEP_RUNNER_UP,
    SKY_ROWS,
    STAGE_BID_START,
    STAGE_BIDDING,
    STAGE_DECLARE_BID_LAST,
    STAGE_EVALUATE,
    STAGE_PHASE1,
    STAGE_RETURN_CARDS,
    STATE_DTYPE,
    VESSEL_ON_BOARD,
)

# --- weights (points per unit; hand-tuned against RandomAgent and Tom) -------------------------
DOLLAR_VALUE = 0.5  # "(dollars + skyscrapers) / 2" at the end; also pays for abilities
BOARD_SKYSCRAPER_VALUE = 0.5  # the same final line
BUILDS_PER_ROUND = 2  # board skyscrapers a seat typically builds in a game round
FUTURE_BUILD_VALUE = 1.0  # ... each of those worth more: it may still win a majority
ABILITY_VALUE_PER_ROUND = 0.3  # an ability 1-27 used in a game round to come
PRESENCE_VALUE = 0.5  # per borough towards the borough bonus (3 at the end): 6 x 0.5 <= 3
PRESS_PROGRESS_VALUE = 0.5  # per space towards the press bonus (3 from space 5)
PRESS_TIE_VALUE = 0.05  # per space: ties in majorities and bids go to the one ahead
RESERVE_CARD_VALUE = 0.3  # can be exchanged into a hand in any later bidding turn
HAND_DISCOUNT = 0.75  # a card in hand is not yet a bid
LONE_CARD_VALUE = 0.1  # a card of a round gone: only with a wild as a substitute
BONUS_BEAT_BASE = 1.5  # chance an undecided bidder stays below v: v / (v + BONUS_BEAT_BASE)
RUNNER_UP_SHARE = 0.6  # the runner-up places from what the winner left
VESSEL_VALUE = 0.3  # vessels feed the set characters 37-42
END_GAME_CHARACTER_HOPE = 3.0  # what an end-game character 28-42 typically scores
PRESTIGE_TILE_HOPE = 3.0  # what placing a prestige tile typically brings
NEG_INF = -1.0e18


@jit
def rounds_to_come(st):
    """Game rounds after the current one."""
    return max(0, NUM_GAME_ROUNDS - st["round"])


@jit
def card_usable(st, seat, t):
    """Whether a hand card of type ``t`` can still be bid in this game round by ``seat``."""
    stage = st["stage"]
    r = st["bid_round"]
    if stage == STAGE_DECLARE_BID_LAST:  # before the first bid of round r (R11)
        return t >= r
    if stage <= STAGE_PHASE1:
        return True
    if stage > STAGE_RETURN_CARDS:
        return False
    if t > r:
        return True
    return t == r and (stage == STAGE_BID_START or (stage == STAGE_BIDDING
                                                    and st["bid_done"][seat] == 0))


@jit
def press_value(space):
    """The press bonus (R20) and tie-breaking worth of a press space."""
    bonus = PRESS_BONUS_POINTS if space >= PRESS_BONUS_SPACE else PRESS_PROGRESS_VALUE * space
    return bonus + PRESS_TIE_VALUE * space


@jit
def board_worth(st, count):
    """``count`` skyscrapers on a player board: half a point each at the end (R20), and the
    first BUILDS_PER_ROUND per game round to come FUTURE_BUILD_VALUE more: they can be built."""
    buildable = min(count, BUILDS_PER_ROUND * rounds_to_come(st))
    return count * BOARD_SKYSCRAPER_VALUE + buildable * FUTURE_BUILD_VALUE


@jit
def presence_value(st, seat):
    """Towards the borough bonus: 3 when present everywhere (R20), else per borough."""
    present = 0
    for b in range(NUM_BOROUGHS):
        if st["skyscrapers"][b, seat] > 0:
            present += 1
    if present == NUM_BOROUGHS:
        return float(BOROUGH_BONUS_END)
    return PRESENCE_VALUE * present


@jit
def borough_points(st, b, seat):
    """``seat``'s majority points in borough ``b`` as it stands (R20)."""
    out = np.zeros(MAX_SEATS + 1, np.int64)
    majority_points(st, b, out)
    return out[seat]


@jit
def build_gain(st, seat, b, count, prestige):
    """What building ``count`` skyscrapers in ``b`` (and adding ``prestige`` to its value) is
    worth to ``seat``: majority and presence gained, board skyscrapers spent (Tom: from the
    supply, at most 5 in a borough, R22). ``st`` is restored."""
    if st["is_tom"][seat] != 0:
        built = max(0, min(count, TOM_MAX_PER_BOROUGH - st["skyscrapers"][b, seat]))
        cost = 0.0
    else:
        built = min(count, st["board_skyscrapers"][seat])
        board = st["board_skyscrapers"][seat]
        cost = board_worth(st, board) - board_worth(st, board - built)
    before = borough_points(st, b, seat) + presence_value(st, seat)
    st["skyscrapers"][b, seat] += built
    st["borough_prestige"][b] += prestige
    after = borough_points(st, b, seat) + presence_value(st, seat)
    st["skyscrapers"][b, seat] -= built
    st["borough_prestige"][b] -= prestige
    return after - before - cost


@jit
def placement_gain(st, seat):
    """R15: the best a prestige tile placement can bring ``seat`` (tile, vessel, borough and one
    skyscraper there), or 0 when forfeiting is better."""
    best = 0.0
    for slot in range(PRESTIGE_REVEALED_PER_ROUND):
        tile = st["prestige_revealed"][slot]
        if tile == EMPTY:
            continue
        for v in range(NUM_VESSELS):
            if st["vessel_owner"][v] != VESSEL_ON_BOARD or VESSEL_COLOUR[v] != PRESTIGE_TILE_COLOUR[tile]:
                continue
            for end in range(2):
                gain = build_gain(st, seat, VESSEL_ENDS[v, end], 1, PRESTIGE_TILE_VALUE[tile])
                best = max(best, gain + VESSEL_VALUE)
    return best


@jit
def character_hope(st, tile):
    """What a character not yet owned may bring besides its printed value: its ability in the
    game rounds to come (1-27), or a typical end-game score (28-42)."""
    if TILE_CHARACTER[tile] >= FIRST_END_GAME_CHARACTER:
        return END_GAME_CHARACTER_HOPE
    return ABILITY_VALUE_PER_ROUND * (rounds_to_come(st) + 1)


@jit
def elevator_pick_value(st, value):
    """R14: the best character a pick of ``value`` can take (printed value and hope)."""
    best = 0.0
    for row in range(min(value, MAX_TILE_VALUE)):
        for col in range(ELEVATOR_COLUMNS):
            tile = st["elevator_display"][row, col]
            if tile != EMPTY:
                best = max(best, TILE_VALUE[tile] + character_hope(st, tile))
    return best


@jit
def round_worth(st, seat, r, value):
    """What carrying out bidding round ``r``'s action with ``value`` is worth to ``seat`` now
    (rulebook "Cards and their related actions"); the prestige round's tiles are separate."""
    if value <= 0:
        return 0.0
    if r == PRESS:
        space = st["press_space"][seat]
        return press_value(min(space + value, PRESS_LAST_SPACE)) - press_value(space)
    if r == DOLLARS:
        return value * DOLLAR_VALUE
    if r == ELEVATOR:
        return elevator_pick_value(st, value)
    if r == PLANS:
        if st["is_tom"][seat] != 0:
            return 0.0  # R22: Tom skips the building-plans round
        board = st["board_skyscrapers"][seat]
        return board_worth(st, board + value) - board_worth(st, board)
    if r == PRESTIGE:
        doubled = st["double_prestige"][seat] if r == st["bid_round"] else 0
        return float(value * (1 + doubled))
    return build_gain(st, seat, st["mayor"], value, 0)


@jit
def bonus_hope_worth(st, seat, r, value):
    """A bid of ``value`` in bidding round ``r`` still to come: its action, and the highest-bid
    bonus with the chance that each other participant stays below it (prestige: a tile)."""
    if value <= 0:
        return 0.0
    stay_below = value / (value + BONUS_BEAT_BASE)
    first = stay_below ** (st["num_seats"] - 1)
    worth = round_worth(st, seat, r, value)
    if r == PRESTIGE:
        return worth + first * PRESTIGE_TILE_HOPE
    return (1.0 - first) * worth + first * round_worth(st, seat, r, value + 1)


@jit
def hand_value(st, seat):
    """What ``seat``'s hand is worth in the bidding rounds still to come this game round: each
    such round's action at the value of its cards; wilds and pairs of cards whose round is gone
    each add the best single card's worth (R10 substitutes); Tom's plans are wilds (R21)."""
    tom = st["is_tom"][seat] != 0
    extras = st["hand"][seat, WILD] + (st["hand"][seat, PLANS] if tom else 0)
    lone = 0
    total = 0.0
    best_card = 0.0
    for t in range(WILD):
        n = st["hand"][seat, t]
        if tom and t == PLANS:
            continue
        if card_usable(st, seat, t):
            worth = bonus_hope_worth(st, seat, t, n)
            total += worth
            best_card = max(best_card, bonus_hope_worth(st, seat, t, n + 1) - worth)
        else:
            extras += n // 2
            lone += n % 2
    if best_card > 0:
        total += extras * best_card + lone * LONE_CARD_VALUE
    return HAND_DISCOUNT * total


@jit
def rank_chances(st, seat, value):
    """(chance of the highest bid, chance of the second) for a bid of ``value`` (R12): finished
    bids either beat it or not (ties by press order); each bidder still to bid stays below it
    with chance value / (value + BONUS_BEAT_BASE)."""
    if value <= 0:
        return 0.0, 0.0
    above = 0
    stay_below = value / (value + BONUS_BEAT_BASE)
    p0, p1 = 1.0, 0.0  # P(no one above so far), P(exactly one above so far)
    for other in range(st["num_seats"]):
        if other == seat:
            continue
        if st["bid_done"][other] != 0:
            theirs = st["bid_value"][other]
            if theirs > value or (theirs == value and ahead(st, other, seat)):
                above += 1
        elif st["stage"] == STAGE_BIDDING:
            p0, p1 = p0 * stay_below, p1 * stay_below + p0 * (1.0 - stay_below)
    if above == 0:
        return p0, p1
    if above == 1:
        return 0.0, p0
    return 0.0, 0.0


@jit
def pending_bid_worth(st, seat):
    """A bid of this bidding round not yet evaluated: its action, with the bonus's chance."""
    value = st["bid_value"][seat]
    if value <= 0:
        return 0.0
    first, second = rank_chances(st, seat, value)
    r = st["bid_round"]
    if r == PRESTIGE:
        tile = placement_gain(st, seat)
        return round_worth(st, seat, r, value) + (first + RUNNER_UP_SHARE * second) * tile
    return ((1.0 - first) * round_worth(st, seat, r, value)
            + first * round_worth(st, seat, r, value + 1))


@jit
def _due_in_evaluation(st, seat):
    """``seat`` still acts later in this evaluation (its turn in press order is to come)."""
    for i in range(st["cursor"], st["num_seats"]):
        if st["order"][i] == seat:
            return True
    return False


@jit
def pending_evaluation_worth(st, seat):
    """An action of the evaluation under way still due to ``seat`` (R13-R15)."""
    r = st["bid_round"]
    mine = st["actor"] == seat
    value = st["bid_value"][seat] + (1 if st["bonus_winner"] == seat else 0)
    if r == ELEVATOR:
        if (mine and st["decision"] == DEC_ELEVATOR) or (
                st["bid_value"][seat] > 0 and _due_in_evaluation(st, seat)):
            return elevator_pick_value(st, value)
    elif r == SKYSCRAPERS:
        if st["bid_value"][seat] > 0 and _due_in_evaluation(st, seat):
            return build_gain(st, seat, st["mayor"], value, 0)
    elif r == PRESTIGE:
        d = st["decision"]
        if mine and (d == DEC_PRESTIGE_TILE or d == DEC_PRESTIGE_VESSEL or d == DEC_PRESTIGE_BOROUGH):
            return placement_gain(st, seat)
        if st["eval_step"] == PRESTIGE_STEP_RUNNER_UP and st["runner_up"] == seat:
            return RUNNER_UP_SHARE * placement_gain(st, seat)
    return 0.0


@jit
def pending_worth(st, seat):
    """Whatever this bidding round still owes ``seat``."""
    if st["stage"] == STAGE_BIDDING:
        return pending_bid_worth(st, seat)
    if st["stage"] == STAGE_EVALUATE:
        return pending_evaluation_worth(st, seat)
    return 0.0


@jit
def company_and_goods_worth(st, seat):
    """Characters (R20; Tom by R24, which spends his dollars on them): printed values, end-game
    scoring as it stands, abilities to come; then dollars, board skyscrapers and vessels."""
    if st["is_tom"][seat] != 0:
        points, dollars_left = tom_character_points(st, seat)
        return points + dollars_left * DOLLAR_VALUE
    total = 0.0
    end_game = False
    for tile in range(NUM_TILES):
        if st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat:
            total += TILE_VALUE[tile]
            if TILE_CHARACTER[tile] >= FIRST_END_GAME_CHARACTER:
                end_game = True
            elif TILE_CHARACTER[tile] <= NUM_ACTIVE_CHARACTERS:
                total += ABILITY_VALUE_PER_ROUND * rounds_to_come(st)
    if end_game:
        total += end_game_character_points(st, seat, goods(st, seat))
    vessels = 0
    for v in range(NUM_VESSELS):
        if st["vessel_owner"][v] == seat:
            vessels += 1
    return (total + st["dollars"][seat] * DOLLAR_VALUE
            + board_worth(st, st["board_skyscrapers"][seat]) + vessels * VESSEL_VALUE)


@jit
def seat_estimate(st, seat, majorities):
    """Roughly the final score ``seat`` can expect (module table); ``majorities`` holds every
    borough's majority points per token."""
    if st["decision"] == DEC_GAME_OVER:
        total = 0.0
        for k in range(NUM_SCORE_LINES):
            total += st["score_lines"][seat, k]
        return total
    total = float(st["points"][seat]) + company_and_goods_worth(st, seat)
    for b in range(NUM_BOROUGHS):
        total += majorities[b, seat]
    total += presence_value(st, seat) + press_value(st["press_space"][seat])
    total += hand_value(st, seat) + pending_worth(st, seat)
    for t in range(NUM_CARD_TYPES):
        total += RESERVE_CARD_VALUE * st["reserve"][seat, t]
    return total


@jit
def all_majorities(st, majorities):
    """Every borough's majority points per token as they stand (R20)."""
    for b in range(NUM_BOROUGHS):
        for k in range(SKY_ROWS):
            majorities[b, k] = 0
        majority_points(st, b, majorities[b])


@jit
def relative_value(st, seat):
    """``seat``'s estimate minus the best other participant's (the greedy agent's objective)."""
    majorities = np.zeros((NUM_BOROUGHS, SKY_ROWS), np.int64)
    all_majorities(st, majorities)
    own = seat_estimate(st, seat, majorities)
    best_other = NEG_INF
    for other in range(st["num_seats"]):
        if other != seat:
            best_other = max(best_other, seat_estimate(st, other, majorities))
    return own - best_other


def record_of(view: np.ndarray) -> np.void:
    """The record behind a single game; ValueError unless ``view`` is one (0-d STATE_DTYPE)."""
    if not (isinstance(view, np.ndarray) and view.shape == () and view.dtype == STATE_DTYPE):
        raise ValueError("view must be a single game, a 0-d STATE_DTYPE array as determinize "
                         f"returns; got {type(view).__name__} {getattr(view, 'shape', '')}")
    return view.reshape(1)[0]


def check_seat_to_move(view: np.ndarray, seat: int) -> NDArray[np.bool_]:
    """The legal mask of ``view`` after checking that ``seat`` is the seat to decide."""
    rec = record_of(view)
    mask = legal_mask(view)
    if not mask.any():
        raise ValueError("the game is over: there is no decision to make")
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or seat != rec["actor"]:
        raise ValueError(f"seat {seat!r} is not the seat to move; the view waits for seat "
                         f"{int(rec['actor'])}")
    return mask


def evaluate_view(view: np.ndarray, seat: int) -> float:
    """``relative_value`` of a single game (0-d STATE_DTYPE array) for ``seat``."""
    return float(relative_value(record_of(view), int(seat)))
