"""Construction Yard's per-seat observation: one flat float32 vector with named slices
(docs/construction-yard-observation.md, written from ``OBS_PARTS``).

Seen from the observing seat: seat-indexed parts are rotated so the observer comes first (then
the next seat clockwise, ...), Dirk's row last. It holds only what that seat may know (ruling
Y2): its own hand, the number of cards in every hand, both displays, the discard pile (paid
cards are shown), everyone's buildings and scores, deck sizes, where the next scoring card may
be (from the public pile sizes), the turn and the pending decision. Never another hand, nor the
order of a deck. Values are scaled to about [0, 1]; hand sizes and scores saturate at caps far
above anything seen in play.
"""

import numpy as np
from gymnasium import spaces

from ...core.compact import observation_quanta, part_denominators
from ...core.jit import jit
from ...core.parts import part_slices
from ...core.verbs import single_game_batch
from .cards import building_price, building_type, currency_total, hand_size, money_currency, money_value
from .data import (
    BUILDING_COUNTS,
    COPIES,
    DISPLAY_SLOTS,
    MAX_PLAYERS,
    MAX_VALUE,
    MIN_PLAYERS,
    NUM_BUILDINGS,
    NUM_CURRENCIES,
    NUM_SCORINGS,
    NUM_TYPES,
    NUM_VALUES,
    PRICE_RANGES,
    SCORING_A_PILE,
    SCORING_B_PILE,
)
from .state import (
    DEC_GAME_OVER,
    DEC_PAY,
    DIRK_ROW,
    GAME_TITLE,
    MAX_MONEY_CARDS,
    MONEY_DECK_CAPACITY,
    NO_CARD,
    NUM_DECISIONS,
    NUM_MONEY_CODES,
    NUM_ROWS,
    STATE_DTYPE,
)

MAX_PRICE = PRICE_RANGES[-1][1]
HAND_SIZE_CAP = 40  # cards in one hand (saturates; a hand in play holds about 5-15)
SCORE_CAP = 400  # points (saturates; final totals in play stay below 200): scores / 400
CURRENCY_TOTAL_SCALE = 50.0
BUILDINGS_SCALE = float(max(BUILDING_COUNTS))  # the largest type has 11 cards
MAX_ACTIONS_IN_TURN = 5  # "four times paying sharp and take money once"
NUM_PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
PILE_SCALE = 30.0

OBS_PARTS = (
    ("num_players", NUM_PLAYER_COUNTS, "one-hot: 2..6 players"),
    ("has_dirk", 1, "1 in two-player games (Dirk)"),
    ("own_hand", NUM_CURRENCIES * NUM_VALUES, "own money cards per currency and value / 3"),
    ("own_currency_totals", NUM_CURRENCIES, "own money per currency, total value / 50"),
    ("hand_sizes", MAX_PLAYERS, "cards in each hand (observer first) / 40, capped"),
    ("money_display", DISPLAY_SLOTS * (NUM_CURRENCIES + 1),
     "per slot: currency one-hot and value / 9 (all 0: empty)"),
    ("building_display", DISPLAY_SLOTS * (NUM_TYPES + 1),
     "per slot: type one-hot and price / 13 (all 0: empty)"),
    ("buildings", NUM_ROWS * NUM_TYPES, "buildings per row (observer first, Dirk last) and type / 11"),
    ("scores", NUM_ROWS, "points per row (observer first, Dirk last) / 400, capped"),
    ("discard", NUM_MONEY_CODES, "discard pile per currency and value / 3"),
    ("deck_sizes", 3, "money deck / 110, discard pile / 108, building deck / 54"),
    ("scorings_done", NUM_SCORINGS, "1 once scoring A, B, C happened"),
    ("next_scoring", 2, "next scoring card: money cards above its pile / 110, its pile's cards left / 30"),
    ("start_player", MAX_PLAYERS, "one-hot: the start player (observer first)"),
    ("to_move", MAX_PLAYERS, "one-hot: the seat to decide (observer first)"),
    ("actions_in_turn", 1, "actions already taken this turn / 5"),
    ("decision", NUM_DECISIONS, "one-hot: choose, pay, keep-or-give, game over"),
    ("buy_slot", DISPLAY_SLOTS, "one-hot: the building being paid for"),
    ("payment", NUM_VALUES + 2, "cards paid so far per value / 3, paid / 13, price / 13"),
    ("pending_building", NUM_TYPES, "one-hot: the type bought, to keep or give to Dirk"),
)


OBS_SLICES, OBS_SIZE = part_slices(OBS_PARTS)
_S = {name: s.start for name, s in OBS_SLICES.items()}  # offsets, readable by compiled code
O_PLAYERS, O_DIRK, O_HAND = _S["num_players"], _S["has_dirk"], _S["own_hand"]
O_TOTALS = _S["own_currency_totals"]
O_SIZES, O_MONEY, O_BUILDING = _S["hand_sizes"], _S["money_display"], _S["building_display"]
O_ROWS, O_SCORES, O_DISCARD = _S["buildings"], _S["scores"], _S["discard"]
O_DECKS, O_DONE, O_NEXT = _S["deck_sizes"], _S["scorings_done"], _S["next_scoring"]
O_START, O_MOVE = _S["start_player"], _S["to_move"]
O_ACTIONS, O_DECISION = _S["actions_in_turn"], _S["decision"]
O_SLOT, O_PAYMENT = _S["buy_slot"], _S["payment"]
O_PENDING = _S["pending_building"]
SCORING_PILES = (SCORING_A_PILE, SCORING_B_PILE)
OBSERVATION_HIGH = np.ones(OBS_SIZE, dtype=np.float32)  # every entry is scaled into [0, 1]
# Each part's denominator (core/compact.py): the encoder writes a whole quantity over it, so the
# compact observation holds the quantity itself (scores in steps: ``compact_steps``); parts not
# named are one-hots and flags.
OBS_DENOMINATORS = {
    "own_hand": float(COPIES), "own_currency_totals": CURRENCY_TOTAL_SCALE,
    "hand_sizes": float(HAND_SIZE_CAP),
    "money_display": (1.0,) * NUM_CURRENCIES + (float(MAX_VALUE),),
    "building_display": (1.0,) * NUM_TYPES + (float(MAX_PRICE),),
    "buildings": BUILDINGS_SCALE, "scores": float(SCORE_CAP), "discard": float(COPIES),
    "deck_sizes": (float(MONEY_DECK_CAPACITY), float(MAX_MONEY_CARDS), float(NUM_BUILDINGS)),
    "next_scoring": (float(MONEY_DECK_CAPACITY), PILE_SCALE),
    "actions_in_turn": float(MAX_ACTIONS_IN_TURN),
    "payment": (float(COPIES),) * NUM_VALUES + (float(MAX_PRICE), float(MAX_PRICE)),
}
OBS_DENOMINATOR_VECTOR = part_denominators(OBS_PARTS, OBS_DENOMINATORS)
OBS_QUANTA = observation_quanta(OBS_DENOMINATOR_VECTOR, OBSERVATION_HIGH)


def observation_space() -> spaces.Box:
    """The finite Box every env uses: [0, 1] per entry (``encode`` scales and caps)."""
    return spaces.Box(low=0.0, high=1.0, shape=(OBS_SIZE,), dtype=np.float32)


@jit
def relative(st, observer, seat):
    """``seat``'s position counted clockwise from ``observer`` (0 = the observer)."""
    return (seat - observer) % st["num_players"]


@jit
def row_of(st, observer, k):
    """The participant row shown in position ``k`` of a row part (Dirk's row last)."""
    if k == DIRK_ROW:
        return DIRK_ROW
    return (observer + k) % st["num_players"] if k < st["num_players"] else -1


@jit
def next_scoring_position(st, out):
    """Money cards above the pile holding the next undrawn scoring card, and that pile's cards
    left (both public: the pile sizes are; ruling Y1)."""
    for j in range(len(SCORING_PILES)):
        if st["scorings_done"][j]:
            continue
        pile = SCORING_PILES[j]
        top = st["money_count"] if pile == 0 else st["pile_bottom"][pile - 1]
        top = min(top, st["money_count"])
        bottom = st["pile_bottom"][pile]
        out[O_NEXT] = (st["money_count"] - top) / MONEY_DECK_CAPACITY
        out[O_NEXT + 1] = max(top - bottom, 0) / PILE_SCALE
        return


@jit
def encode_record(st, observer, out):
    """Write ``observer``'s view of record ``st`` into ``out`` (float32[OBS_SIZE])."""
    for k in range(out.shape[0]):
        out[k] = 0.0
    n = st["num_players"]
    out[O_PLAYERS + n - MIN_PLAYERS] = 1.0
    out[O_DIRK] = st["has_dirk"]
    for c in range(NUM_CURRENCIES):
        for v in range(NUM_VALUES):
            out[O_HAND + c * NUM_VALUES + v] = st["hand"][observer, c, v] / COPIES
        out[O_TOTALS + c] = min(currency_total(st, observer, c) / CURRENCY_TOTAL_SCALE, 1.0)
    for seat in range(n):
        k = relative(st, observer, seat)
        out[O_SIZES + k] = min(hand_size(st, seat), HAND_SIZE_CAP) / HAND_SIZE_CAP
        if seat == st["start_player"]:
            out[O_START + k] = 1.0
        if seat == st["actor"] and st["decision"] != DEC_GAME_OVER:
            out[O_MOVE + k] = 1.0
    for slot in range(DISPLAY_SLOTS):
        card = st["money_display"][slot]
        if card != NO_CARD:
            base = O_MONEY + slot * (NUM_CURRENCIES + 1)
            out[base + money_currency(card)] = 1.0
            out[base + NUM_CURRENCIES] = money_value(card) / MAX_VALUE
        card = st["building_display"][slot]
        if card != NO_CARD:
            base = O_BUILDING + slot * (NUM_TYPES + 1)
            out[base + building_type(card)] = 1.0
            out[base + NUM_TYPES] = building_price(card) / MAX_PRICE
    for k in range(NUM_ROWS):
        row = row_of(st, observer, k)
        if row < 0 or (row == DIRK_ROW and not st["has_dirk"]):
            continue
        for t in range(NUM_TYPES):
            out[O_ROWS + k * NUM_TYPES + t] = st["buildings"][row, t] / BUILDINGS_SCALE
        out[O_SCORES + k] = min(st["score_lines"][row].sum(), SCORE_CAP) / SCORE_CAP
    for j in range(st["discard_count"]):
        out[O_DISCARD + st["discard"][j]] += 1.0 / COPIES
    out[O_DECKS] = st["money_count"] / MONEY_DECK_CAPACITY
    out[O_DECKS + 1] = st["discard_count"] / MAX_MONEY_CARDS
    out[O_DECKS + 2] = st["building_count"] / NUM_BUILDINGS
    for j in range(NUM_SCORINGS):
        out[O_DONE + j] = st["scorings_done"][j]
    next_scoring_position(st, out)
    out[O_ACTIONS] = min(st["actions_in_turn"], MAX_ACTIONS_IN_TURN) / MAX_ACTIONS_IN_TURN
    out[O_DECISION + st["decision"]] = 1.0
    if st["decision"] == DEC_PAY:
        out[O_SLOT + st["buy_slot"]] = 1.0
        for v in range(NUM_VALUES):
            out[O_PAYMENT + v] = st["payment"][v] / COPIES
        out[O_PAYMENT + NUM_VALUES] = min(st["paid"] / MAX_PRICE, 1.0)
        out[O_PAYMENT + NUM_VALUES + 1] = building_price(st["building_display"][st["buy_slot"]]) / MAX_PRICE
    if st["pending_building"] != NO_CARD:
        out[O_PENDING + building_type(st["pending_building"])] = 1.0


@jit
def encode_batch_kernel(states, seats, out):
    """Row i of ``out``: seat ``seats[i]``'s view of game i."""
    for i in range(states.shape[0]):
        encode_record(states[i], seats[i], out[i])


def check_observer(state: np.ndarray, seat: int) -> int:
    """``seat`` as an int; ValueError unless it is a seat of the game."""
    n = int(state.reshape(1)[0]["num_players"])
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat of this {n}-player game (0..{n - 1}), got {seat!r}")
    return int(seat)


def encode(state: np.ndarray, seat: int) -> np.ndarray:
    """float32[OBS_SIZE]: ``seat``'s view of the single game ``state``."""
    batch = single_game_batch(state, STATE_DTYPE, GAME_TITLE)
    seat = check_observer(state, seat)
    out = np.zeros((1, OBS_SIZE), dtype=np.float32)
    encode_batch_kernel(batch, np.array([seat], dtype=np.int64), out)
    return out[0]


def encode_batch(states: np.ndarray, seat: int) -> np.ndarray:
    """float32[B, OBS_SIZE]: ``seat``'s view of each game of the batch."""
    out = np.zeros((states.shape[0], OBS_SIZE), dtype=np.float32)
    for i in range(states.shape[0]):
        check_observer(states[i:i + 1], seat)
    encode_batch_kernel(states, np.full(states.shape[0], seat, dtype=np.int64), out)
    return out


def observation_table() -> str:
    """The slice table of docs/construction-yard-observation.md, as Markdown."""
    lines = ["| slice | size | name | content |", "|---|---|---|---|"]
    for (name, size, text), s in zip(OBS_PARTS, OBS_SLICES.values(), strict=True):
        lines.append(f"| {s.start}:{s.stop} | {size} | `{name}` | {text} |")
    return "\n".join(lines)
