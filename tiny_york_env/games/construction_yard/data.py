"""Construction Yard's printed numbers: money cards, building cards, the reference card, setup.

Source: ``rules/construction-yard-rules-en.txt`` (Queen Games 2010) and
``spec/construction-yard.md`` (the default edition's card prices and the reference card's
points, derived from the rulebook's three worked examples). Another edition is an edit here.
"""

import numpy as np

# --- players ------------------------------------------------------------------------------------
MIN_PLAYERS = 2
MAX_PLAYERS = 6
DIRK_PLAYERS = 2  # "Special rules for 2 players": the imaginary third player Dirk

# --- money cards (rules: Game components; Setup) -------------------------------------------------
NUM_CURRENCIES = 4
CURRENCY_NAMES = ("blue", "green", "yellow", "red")
MIN_VALUE = 1
MAX_VALUE = 9
NUM_VALUES = MAX_VALUE - MIN_VALUE + 1
COPIES = 3  # each currency-value three times: 108 cards
COPIES_TWO_PLAYERS = 2  # two players: one of each sorted out, 72 cards
START_CAPITAL = 20  # deal until a player's total is 20 or more (20-28)
TAKE_LIMIT = 5  # several money cards may be taken if their total is at most 5

# --- building cards and the construction yard (rules: Setup, the table) ------------------------
BUILDING_TYPE_NAMES = ("Museum", "Theater", "Station", "Church", "Park", "Skyscraper")
NUM_TYPES = len(BUILDING_TYPE_NAMES)
BUILDING_COUNTS = (7, 7, 9, 9, 11, 11)
PRICE_RANGES = ((2, 8), (3, 9), (4, 10), (5, 11), (6, 12), (7, 13))
DISPLAY_SLOTS = 4
SLOT_CURRENCY = (0, 1, 2, 3)  # the construction yard's currency symbols, left to right


def edition_prices(low: int, high: int, count: int) -> list[int]:
    """The default edition's prices of one type: every price of ``low..high`` once, the extra
    cards the prices nearest the middle (m, m+1 for two; m-1, m, m+1, m+2 for four)."""
    prices = list(range(low, high + 1))
    extra = count - len(prices)
    middle = (low + high) // 2
    first = middle - (extra // 2 - 1) if extra else middle
    return sorted(prices + list(range(first, first + extra)))


BUILDING_TYPE = np.array([t for t in range(NUM_TYPES) for _ in range(BUILDING_COUNTS[t])], dtype=np.int64)
BUILDING_PRICE = np.array([p for t in range(NUM_TYPES)
                           for p in edition_prices(*PRICE_RANGES[t], BUILDING_COUNTS[t])], dtype=np.int64)
NUM_BUILDINGS = len(BUILDING_TYPE)  # 54

# --- scorings and the reference card (rules: Scoring; spec's points table) -----------------------
NUM_SCORINGS = 3  # A, B (cards in the money deck), C (end of game)
SCORING_NAMES = ("scoring A", "scoring B", "scoring C")
NUM_RANKS = 3
# REFERENCE_POINTS[scoring, rank, type]: A pays 1st i+1; B 1st i+8, 2nd i+1; C 1st i+16, 2nd i+8, 3rd i+1.
_RANK_OFFSETS = ((1, None, None), (8, 1, None), (16, 8, 1))
REFERENCE_POINTS = np.array([[[0 if off is None else t + off for t in range(NUM_TYPES)]
                              for off in offsets] for offsets in _RANK_OFFSETS], dtype=np.int64)

# --- the money deck's piles (rules: Setup) -------------------------------------------------------
NUM_PILES = 5
SCORING_A_PILE = 1  # "shuffle the scoring A card into the second pile"
SCORING_B_PILE = 3  # "the scoring B card into the fourth"

# --- Dirk (rules: Special rules for 2 players) ---------------------------------------------------
DIRK_SETUP_CARDS = 6
DIRK_CARDS_AFTER_A = 6
DIRK_SHARE_AFTER_B = 3  # a third of the remaining building cards, rounded down
