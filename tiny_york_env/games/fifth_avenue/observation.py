"""5th Avenue's per-seat observation: one flat float32 vector with named slices (``OBS_PARTS``).

Seen from the observing seat: seat-indexed parts are rotated so the observer comes first (then
the next seat clockwise), Alea's row last. It holds what that seat may know: its own hand, the
size of every hand (coloured and black), the whole board (plots, businesses, skyscrapers,
commissioners, markers, stops), the supply row and Central Park's businesses (face up), the
face-up top card of each coloured stack, the stacks' sizes, scores and supplies, the turn and
the auction in progress (bids are played face up). Never another hand's contents, the black
stack's order or the unused businesses. Values are scaled to [0, 1]; counts saturate at caps.
"""

import numpy as np
from gymnasium import spaces

from ...core.compact import observation_quanta, part_denominators
from ...core.jit import jit
from ...core.parts import part_slices
from .actions import MAX_BUILD
from .data import (
    BUILDING_STOPS_TO_END,
    MAX_BUSINESSES_PER_PLOT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_BUSINESS_TYPES,
    NUM_CARD_COLOURS,
    NUM_CARD_VALUES,
    NUM_COMMISSIONERS,
    NUM_DISTRICTS,
    NUM_PLOTS,
    SKYSCRAPERS_PER_COLOUR,
    SUPPLY_ROW_SPACES,
    SUPPLY_SETS,
)
from .state import (
    ALEA_ROW,
    BLACK,
    CARDS_PER_COLOUR,
    DEC_BID,
    DEC_BUILD,
    DEC_GAME_OVER,
    DECISION_NAMES,
    NO_BUSINESS,
    NO_CARD,
    NO_PLAYER,
    NUM_BLACK,
    NUM_HAND_COLOURS,
    NUM_PARK_BUSINESSES,
    NUM_ROWS,
)

NUM_PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
NUM_DECISIONS = len(DECISION_NAMES)
NUM_PLACES = NUM_DISTRICTS + 2  # City Hall, the districts, Central Park (one-hot positions)
NUM_OPTIONS = 4
HAND_CAP = 30  # cards of one kind in a hand (saturates)
SCORE_CAP = 200  # VP (saturates; totals in play stay near 100)
BID_CAP = 60  # a bid's total (saturates)
PLOT_SKYSCRAPER_CAP = 10
OWN_CARD_SCALE = float(max(CARDS_PER_COLOUR, NUM_BLACK // 2))

OBS_PARTS = (
    ("num_players", NUM_PLAYER_COUNTS, "one-hot: 2..4 players"),
    ("has_alea", 1, "1 in two-player games (Alea bids)"),
    ("own_hand", NUM_HAND_COLOURS * NUM_CARD_VALUES,
     "own cards per colour (5 colours, then black) and value 4/5/6 / 25"),
    ("hand_sizes", MAX_PLAYERS * 2, "per seat (observer first): coloured cards, black cards / 30"),
    ("scores", MAX_PLAYERS, "VP per seat (observer first) / 200"),
    ("skyscraper_stock", NUM_ROWS * 3, "per row (observer first, Alea last): supply, general, "
     "Central Park / 18"),
    ("plots", NUM_PLOTS * (NUM_ROWS + 1 + NUM_BUSINESS_TYPES),
     "per plot: owner one-hot (observer first, Alea last), skyscrapers / 10, businesses per type / 2"),
    ("stopped", NUM_DISTRICTS, "1 for a district under a building stop"),
    ("commissioners", NUM_COMMISSIONERS * NUM_PLACES, "per commissioner: City Hall, district, "
     "Central Park one-hot"),
    ("markers", NUM_COMMISSIONERS * NUM_DISTRICTS, "per commissioner: 1 in each district it marked"),
    ("supply_row", SUPPLY_ROW_SPACES * NUM_BUSINESS_TYPES, "per space: business type one-hot (0: taken)"),
    ("park_businesses", NUM_BUSINESS_TYPES, "businesses below Central Park per type / 8"),
    ("face_up", NUM_CARD_COLOURS * NUM_CARD_VALUES, "per colour: the top card's value one-hot"),
    ("stack_sizes", NUM_CARD_COLOURS + 2, "coloured stacks / 12, black stack / 50, black returned / 50"),
    ("progress", 3, "businesses placed / 12, building stops / 2, held business (1 while placing)"),
    ("held_business", NUM_BUSINESS_TYPES, "one-hot: the business taken, to place"),
    ("to_move", MAX_PLAYERS, "one-hot: the seat to decide (observer first)"),
    ("decision", NUM_DECISIONS, "one-hot: the pending decision"),
    ("option", NUM_OPTIONS, "one-hot: the turn's option A-D"),
    ("turn_step", 3, "one-hot: the turn's 1st, 2nd or 3rd action"),
    ("auction_place", NUM_DISTRICTS + 1, "one-hot: the district (or Central Park) auctioned"),
    ("bids", NUM_ROWS * (NUM_CARD_COLOURS + 3), "per row: bid colour one-hot, total / 60, passed, "
     "fewest skyscrapers pictured / 3"),
    ("auction", 4 + NUM_CARD_COLOURS, "high bid / 60, Alea in, district full, build limit / 3, "
     "Central Park's colour one-hot"),
)


OBS_SLICES, OBS_SIZE = part_slices(OBS_PARTS)
_S = {name: s.start for name, s in OBS_SLICES.items()}  # offsets, readable by compiled code
O_PLAYERS, O_ALEA, O_HAND, O_SIZES = _S["num_players"], _S["has_alea"], _S["own_hand"], _S["hand_sizes"]
O_SCORES, O_STOCK, O_PLOTS, O_STOPPED = _S["scores"], _S["skyscraper_stock"], _S["plots"], _S["stopped"]
O_COMM, O_MARKERS = _S["commissioners"], _S["markers"]
O_SUPPLY, O_PARK = _S["supply_row"], _S["park_businesses"]
O_FACE, O_STACKS, O_PROGRESS, O_HELD = _S["face_up"], _S["stack_sizes"], _S["progress"], _S["held_business"]
O_MOVE, O_DECISION, O_OPTION, O_STEP = _S["to_move"], _S["decision"], _S["option"], _S["turn_step"]
O_PLACE, O_BIDS, O_AUCTION = _S["auction_place"], _S["bids"], _S["auction"]
PLOT_WIDTH = NUM_ROWS + 1 + NUM_BUSINESS_TYPES
BID_WIDTH = NUM_CARD_COLOURS + 3
BUSINESSES_ON_PLOTS = sum(SUPPLY_SETS) - len(SUPPLY_SETS)  # 12: the last of each set goes to the park
OBSERVATION_HIGH = np.ones(OBS_SIZE, dtype=np.float32)  # every entry is scaled into [0, 1]
# Each part's denominator (core/compact.py): the encoder writes a whole quantity over it, so the
# compact observation holds the quantity itself; parts not named are one-hots and flags.
OBS_DENOMINATORS = {
    "own_hand": OWN_CARD_SCALE, "hand_sizes": float(HAND_CAP), "scores": float(SCORE_CAP),
    "skyscraper_stock": float(SKYSCRAPERS_PER_COLOUR),
    "plots": (1.0,) * NUM_ROWS + (float(PLOT_SKYSCRAPER_CAP),)
             + (float(MAX_BUSINESSES_PER_PLOT),) * NUM_BUSINESS_TYPES,
    "park_businesses": float(NUM_PARK_BUSINESSES),
    "stack_sizes": (float(CARDS_PER_COLOUR),) * NUM_CARD_COLOURS + (float(NUM_BLACK),) * 2,
    "progress": (float(BUSINESSES_ON_PLOTS), float(BUILDING_STOPS_TO_END), 1.0),
    "bids": (1.0,) * NUM_CARD_COLOURS + (float(BID_CAP), 1.0, float(MAX_BUILD)),
    "auction": (float(BID_CAP), 1.0, 1.0, float(MAX_BUILD)) + (1.0,) * NUM_CARD_COLOURS,
}
OBS_DENOMINATOR_VECTOR = part_denominators(OBS_PARTS, OBS_DENOMINATORS)
OBS_QUANTA = observation_quanta(OBS_DENOMINATOR_VECTOR, OBSERVATION_HIGH)


def observation_space() -> spaces.Box:
    """The finite Box every env uses: [0, 1] per entry (``encode`` scales and caps)."""
    return spaces.Box(low=0.0, high=1.0, shape=(OBS_SIZE,), dtype=np.float32)


@jit
def row_position(st, observer, row):
    """Where ``row`` is shown in a row part: seats clockwise from the observer, Alea last."""
    if row == ALEA_ROW:
        return ALEA_ROW
    return (row - observer) % st["num_players"]


@jit
def capped(x, cap):
    return min(x, cap) / cap


@jit
def encode_record(st, observer, out):
    """Write ``observer``'s view of record ``st`` into ``out`` (float32[OBS_SIZE])."""
    for k in range(out.shape[0]):
        out[k] = 0.0
    n = st["num_players"]
    out[O_PLAYERS + n - MIN_PLAYERS] = 1.0
    out[O_ALEA] = st["has_alea"]
    for c in range(NUM_HAND_COLOURS):
        for v in range(NUM_CARD_VALUES):
            out[O_HAND + c * NUM_CARD_VALUES + v] = capped(st["hand"][observer, c, v], OWN_CARD_SCALE)
    for seat in range(n):
        k = row_position(st, observer, seat)
        coloured = 0
        for c in range(NUM_CARD_COLOURS):
            for v in range(NUM_CARD_VALUES):
                coloured += st["hand"][seat, c, v]
        black = 0
        for v in range(NUM_CARD_VALUES):
            black += st["hand"][seat, BLACK, v]
        out[O_SIZES + 2 * k] = capped(coloured, HAND_CAP)
        out[O_SIZES + 2 * k + 1] = capped(black, HAND_CAP)
        out[O_SCORES + k] = capped(st["score"][seat], SCORE_CAP)
        if seat == st["actor"] and st["decision"] != DEC_GAME_OVER:
            out[O_MOVE + k] = 1.0
    for row in range(NUM_ROWS):
        if row >= n and not (row == ALEA_ROW and st["has_alea"]):
            continue
        k = row_position(st, observer, row)
        out[O_STOCK + 3 * k] = capped(st["supply"][row], SKYSCRAPERS_PER_COLOUR)
        out[O_STOCK + 3 * k + 1] = capped(st["general"][row], SKYSCRAPERS_PER_COLOUR)
        out[O_STOCK + 3 * k + 2] = capped(st["park_skyscrapers"][row], SKYSCRAPERS_PER_COLOUR)
    for p in range(NUM_PLOTS):
        base = O_PLOTS + p * PLOT_WIDTH
        owner = st["plot_owner"][p]
        if owner != NO_PLAYER:
            out[base + row_position(st, observer, owner)] = 1.0
            out[base + NUM_ROWS] = capped(st["plot_skyscrapers"][p], PLOT_SKYSCRAPER_CAP)
        for j in range(MAX_BUSINESSES_PER_PLOT):
            t = st["plot_business"][p, j]
            if t != NO_BUSINESS:
                out[base + NUM_ROWS + 1 + t] += 1.0 / MAX_BUSINESSES_PER_PLOT
    for d in range(NUM_DISTRICTS):
        out[O_STOPPED + d] = st["stopped"][d]
    for c in range(NUM_COMMISSIONERS):
        out[O_COMM + c * NUM_PLACES + st["commissioner_place"][c] + 1] = 1.0
        for j in range(st["commissioner_markers"].shape[1]):
            d = st["commissioner_markers"][c, j]
            if d >= 0:
                out[O_MARKERS + c * NUM_DISTRICTS + d] = 1.0
    for s in range(SUPPLY_ROW_SPACES):
        t = st["supply_row"][s]
        if t != NO_BUSINESS:
            out[O_SUPPLY + s * NUM_BUSINESS_TYPES + t] = 1.0
    for j in range(st["park_business_count"]):
        out[O_PARK + st["park_business"][j]] += 1.0 / NUM_PARK_BUSINESSES
    for c in range(NUM_CARD_COLOURS):
        count = st["coloured_count"][c]
        if count > 0:
            out[O_FACE + c * NUM_CARD_VALUES + st["coloured_stack"][c, count - 1]] = 1.0
        out[O_STACKS + c] = count / CARDS_PER_COLOUR
    out[O_STACKS + NUM_CARD_COLOURS] = st["black_count"] / NUM_BLACK
    out[O_STACKS + NUM_CARD_COLOURS + 1] = st["black_returned_count"] / NUM_BLACK
    out[O_PROGRESS] = capped(st["businesses_placed"], BUSINESSES_ON_PLOTS)
    out[O_PROGRESS + 1] = capped(st["building_stops"], BUILDING_STOPS_TO_END)
    if st["held_business"] != NO_BUSINESS and st["decision"] != DEC_GAME_OVER:
        out[O_PROGRESS + 2] = 1.0
        out[O_HELD + st["held_business"]] = 1.0
    out[O_DECISION + st["decision"]] = 1.0
    if 0 <= st["option"] < NUM_OPTIONS and st["decision"] != DEC_GAME_OVER:
        out[O_OPTION + st["option"]] = 1.0
    if 1 <= st["turn_step"] <= 3 and st["decision"] != DEC_GAME_OVER:
        out[O_STEP + st["turn_step"] - 1] = 1.0
    if st["decision"] == DEC_BID or st["decision"] == DEC_BUILD:
        out[O_PLACE + st["auction_places"][st["auction_at"]]] = 1.0
        for row in range(NUM_ROWS):
            if row >= n and not (row == ALEA_ROW and st["has_alea"]):
                continue
            base = O_BIDS + row_position(st, observer, row) * BID_WIDTH
            if st["bid_colour"][row] != NO_CARD:
                out[base + st["bid_colour"][row]] = 1.0
            out[base + NUM_CARD_COLOURS] = capped(st["bid_total"][row], BID_CAP)
            out[base + NUM_CARD_COLOURS + 1] = st["passed"][row]
            out[base + NUM_CARD_COLOURS + 2] = capped(st["bid_min_pictured"][row], MAX_BUILD)
        out[O_AUCTION] = capped(st["high_bid"], BID_CAP)
        out[O_AUCTION + 1] = st["alea_in"]
        out[O_AUCTION + 2] = st["district_full"]
        out[O_AUCTION + 3] = capped(st["build_limit"], MAX_BUILD)
        if st["park_colour"] != NO_CARD:
            out[O_AUCTION + 4 + st["park_colour"]] = 1.0


@jit
def encode_batch_kernel(states, seats, out):
    """Row i of ``out``: seat ``seats[i]``'s view of game i."""
    for i in range(states.shape[0]):
        encode_record(states[i], seats[i], out[i])


def encode(state: np.ndarray, seat: int) -> np.ndarray:
    """float32[OBS_SIZE]: ``seat``'s view of the single game ``state`` (a 0-d or 1-element record)."""
    batch = state.reshape(1)
    n = int(batch[0]["num_players"])
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat of this {n}-player game (0..{n - 1}), got {seat!r}")
    out = np.zeros((1, OBS_SIZE), dtype=np.float32)
    encode_batch_kernel(batch, np.array([seat], dtype=np.int64), out)
    return out[0]
