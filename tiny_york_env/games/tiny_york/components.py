"""The default edition's component data (``shared/spec/components.md``).

Everything the rulebook prints only on the board and tiles lives here as plain constants and
numpy tables, so a different edition is a different data module, not a code change.
Index orders are the project's (card types, boroughs, vessels, colours) and are used everywhere.
"""

import numpy as np

# --- Cards (rulebook "105 Cards": 7 types x 15) -------------------------------------------
NUM_CARD_TYPES = 7
CARDS_PER_TYPE = 15
NUM_CARDS = NUM_CARD_TYPES * CARDS_PER_TYPE
PRESS, DOLLARS, ELEVATOR, PLANS, PRESTIGE, SKYSCRAPERS, WILD = range(NUM_CARD_TYPES)
CARD_NAMES = ("press", "dollars", "elevator", "building plans", "prestige", "skyscrapers", "wild")
NUM_BIDDING_ROUNDS = 6  # one per card type except wild, in this order (rulebook "Phase II")

# --- Game length and hands (rulebook "Playing the Game", "Phase 0", "Setup") --------------
NUM_GAME_ROUNDS = 5
HAND_DRAW_PHASE0 = 3  # "Each player draws 3 cards"
PAIRS_PER_AGENT = 2  # "until each player has taken 2 pairs"
CARDS_PER_PAIR = 2
START_RESERVE = 2  # setup step 15
START_BOARD_SKYSCRAPERS = 4  # setup step 14C
START_DOLLARS = 1  # setup step 14D

# --- Seats -------------------------------------------------------------------------------
MAX_SEATS = 4
MIN_PARTICIPANTS = 2
NEUTRAL = MAX_SEATS  # index of the neutral player in press and skyscraper arrays
MAX_PAIRS = 2 * MAX_SEATS + 1  # R6: 2 * agents + Toms + 1, at most 9

# --- Boroughs (rulebook: six boroughs; sequence and base value tiles) ---------------------
NUM_BOROUGHS = 6
MANHATTAN, BROOKLYN, QUEENS, BRONX, STATEN_ISLAND, JERSEY_CITY = range(NUM_BOROUGHS)
BOROUGH_NAMES = ("Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island", "Jersey City")
SEQUENCE_LETTERS = ("A", "B", "C", "D", "E", "X")
SEQUENCE_X = 5  # the Mayor never enters X (rulebook "Phase 0")
BASE_VALUES = np.array([6, 7, 8, 8, 9, 10], dtype=np.int16)
NEUTRAL_SKYSCRAPERS_PER_BOROUGH = 2  # setup step 12

# --- Colours (lanterns, vessels, prestige tiles) ------------------------------------------
NUM_COLOURS = 6
YELLOW, RED, GREY, BROWN, BLUE, GREEN = range(NUM_COLOURS)
COLOUR_NAMES = ("yellow", "red", "grey", "brown", "blue", "green")
BOROUGH_LANTERN = np.array([YELLOW, BROWN, GREEN, RED, BLUE, GREEN], dtype=np.int16)

# --- Vessels: ten connections, two of each kind -------------------------------------------
NUM_VESSEL_KINDS = 5
TAXI, BUS, STREETCAR, SUBWAY, BOAT = range(NUM_VESSEL_KINDS)
VESSEL_KIND_NAMES = ("taxi", "bus", "streetcar", "subway", "boat")
VESSEL_KIND_COLOUR = np.array([YELLOW, RED, GREY, BROWN, BLUE], dtype=np.int16)
NUM_VESSELS = 10
VESSEL_KIND = np.array([TAXI, TAXI, BUS, BUS, STREETCAR, STREETCAR, SUBWAY, SUBWAY, BOAT, BOAT],
                       dtype=np.int16)
VESSEL_ENDS = np.array([
    [MANHATTAN, BRONX],
    [MANHATTAN, QUEENS],
    [MANHATTAN, JERSEY_CITY],
    [BROOKLYN, STATEN_ISLAND],
    [BROOKLYN, QUEENS],
    [JERSEY_CITY, STATEN_ISLAND],
    [BRONX, QUEENS],
    [MANHATTAN, BROOKLYN],
    [MANHATTAN, STATEN_ISLAND],
    [JERSEY_CITY, BROOKLYN],
], dtype=np.int16)
VESSEL_COLOUR = VESSEL_KIND_COLOUR[VESSEL_KIND]

# --- Prestige tiles: two per vessel colour -------------------------------------------------
NUM_PRESTIGE_TILES = 10
PRESTIGE_TILE_COLOUR = np.array([YELLOW, YELLOW, RED, RED, GREY, GREY, BROWN, BROWN, BLUE, BLUE],
                                dtype=np.int16)
PRESTIGE_TILE_VALUE = np.array([2, 4, 3, 5, 2, 3, 3, 4, 2, 5], dtype=np.int16)
PRESTIGE_REVEALED_PER_ROUND = 2  # rulebook "Phase 0: Reveal the top 2 prestige tiles"

# --- Tracks ---------------------------------------------------------------------------------
PRESS_LAST_SPACE = 15  # rulebook "The Press Track is limited to 15 spaces"
# Neutral press token start space by participants (setup step 12): index = participants.
NEUTRAL_PRESS_START = np.array([0, 0, 8, 7, 6], dtype=np.int16)
BOROUGH_BONUS_FIRST = 4  # Statue of Liberty, rulebook "Borough bonus"
BOROUGH_BONUS_END = 3  # final scoring
PRESS_BONUS_SPACE = 5  # final scoring "at least space 5"
PRESS_BONUS_POINTS = 3

# --- Characters (addendum; default edition table) ------------------------------------------
NUM_CHARACTERS = 42
PHASE_I, PHASE_II, PHASE_III, PHASE_END = 1, 2, 3, 4
PHASE_NAMES = ("", "I", "II", "III", "end")
NUM_TILE_VALUES = 5  # elevator rows, values 1..5
MAX_TILE_VALUE = 5
# Row c (c = character number, row 0 unused): phase, elevator value, elevator copies, free.
_CHARACTER_TABLE = np.array([
    [0, 0, 0, 0],
    [PHASE_I, 2, 1, 0], [PHASE_I, 3, 2, 0], [PHASE_I, 2, 1, 0], [PHASE_I, 3, 2, 1],
    [PHASE_I, 2, 1, 0], [PHASE_I, 1, 2, 0], [PHASE_I, 2, 1, 0], [PHASE_I, 5, 2, 0],
    [PHASE_I, 1, 2, 0], [PHASE_I, 3, 2, 0], [PHASE_I, 5, 2, 0],
    [PHASE_II, 1, 2, 0], [PHASE_II, 2, 1, 0], [PHASE_II, 3, 2, 0], [PHASE_II, 3, 2, 0],
    [PHASE_II, 3, 2, 0], [PHASE_II, 2, 1, 0], [PHASE_II, 1, 2, 0], [PHASE_II, 4, 2, 0],
    [PHASE_II, 5, 2, 0], [PHASE_II, 5, 2, 1], [PHASE_II, 4, 2, 0],
    [PHASE_III, 1, 2, 0], [PHASE_III, 1, 2, 0], [PHASE_III, 2, 1, 0], [PHASE_III, 2, 1, 0],
    [PHASE_III, 3, 1, 0],
    [PHASE_END, 2, 1, 0], [PHASE_END, 2, 1, 0], [PHASE_END, 2, 1, 0], [PHASE_END, 2, 1, 0],
    [PHASE_END, 2, 1, 0], [PHASE_END, 2, 1, 0], [PHASE_END, 1, 1, 0], [PHASE_END, 4, 2, 0],
    [PHASE_END, 2, 1, 0], [PHASE_END, 3, 1, 0], [PHASE_END, 1, 1, 0], [PHASE_END, 1, 1, 0],
    [PHASE_END, 4, 2, 0], [PHASE_END, 4, 2, 0], [PHASE_END, 4, 2, 0],
], dtype=np.int16)
CHARACTER_PHASE = _CHARACTER_TABLE[:, 0].copy()
CHARACTER_ELEVATOR_VALUE = _CHARACTER_TABLE[:, 1].copy()
CHARACTER_ELEVATOR_COPIES = _CHARACTER_TABLE[:, 2].copy()
CHARACTER_FREE = _CHARACTER_TABLE[:, 3].copy()
FIRST_END_GAME_CHARACTER = 28
NUM_ACTIVE_CHARACTERS = FIRST_END_GAME_CHARACTER - 1  # characters 1..27 have abilities

# Start tiles (light backs): six printed value 1, six printed value 5.
START_VALUE_LOW, START_VALUE_HIGH = 1, 5
START_CHARACTERS_LOW = (6, 9, 12, 18, 23, 24)
START_CHARACTERS_HIGH = (21, 20, 8, 11, 19, 22)
NUM_START_STACKS = len(START_CHARACTERS_LOW)
NUM_START_TILES = 2 * NUM_START_STACKS


def _build_tiles():
    """Tile tables: start tiles first (0..11, low then high), then the elevator tiles by number."""
    chars, values, start = [], [], []
    for group, value in ((START_CHARACTERS_LOW, START_VALUE_LOW),
                         (START_CHARACTERS_HIGH, START_VALUE_HIGH)):
        for c in group:
            chars.append(c)
            values.append(value)
            start.append(1)
    for c in range(1, NUM_CHARACTERS + 1):
        for _ in range(CHARACTER_ELEVATOR_COPIES[c]):
            chars.append(c)
            values.append(CHARACTER_ELEVATOR_VALUE[c])
            start.append(0)
    return (np.array(chars, dtype=np.int16), np.array(values, dtype=np.int16),
            np.array(start, dtype=np.int16))


TILE_CHARACTER, TILE_VALUE, TILE_IS_START = _build_tiles()
NUM_TILES = len(TILE_CHARACTER)  # 76
ELEVATOR_STACK_SIZES = np.array(
    [int(np.sum((TILE_IS_START == 0) & (TILE_VALUE == v))) for v in range(1, MAX_TILE_VALUE + 1)],
    dtype=np.int16)
MAX_ELEVATOR_STACK = int(ELEVATOR_STACK_SIZES.max())
ELEVATOR_COLUMNS = 4  # "reveal the top four tiles of each stack"
ELEVATOR_SLOTS = NUM_TILE_VALUES * ELEVATOR_COLUMNS

# End-game characters 28-32: lantern colour counted.
LANTERN_CHARACTER_COLOUR = np.array([YELLOW, RED, BROWN, GREEN, BLUE], dtype=np.int16)
SET_POINTS_VESSELS = 5  # 37-39
SET_POINTS_MIXED = 6  # 40-42
# Sets of 37..42: counts of taxi, bus, streetcar, subway, boat, any vessel, dollars, skyscrapers.
SET_COMPONENTS = 8
SET_ANY_VESSEL, SET_DOLLARS, SET_SKYSCRAPERS = 5, 6, 7
SET_TABLE = np.array([
    [1, 1, 0, 0, 0, 0, 0, 0],  # 37 taxi + bus
    [0, 0, 1, 1, 0, 0, 0, 0],  # 38 streetcar + subway
    [1, 0, 0, 0, 1, 0, 0, 0],  # 39 boat + taxi
    [0, 0, 0, 0, 0, 1, 2, 0],  # 40 any vessel + 2 dollars
    [0, 0, 0, 0, 0, 0, 2, 2],  # 41 2 dollars + 2 skyscrapers
    [0, 0, 0, 0, 0, 1, 0, 2],  # 42 any vessel + 2 skyscrapers
], dtype=np.int16)
FIRST_SET_CHARACTER = 37
NUM_SET_CHARACTERS = NUM_CHARACTERS - FIRST_SET_CHARACTER + 1  # 37..42, one SET_TABLE row each
SET_POINTS = np.array([5, 5, 5, 6, 6, 6], dtype=np.int16)
# Character 27 (R18): press steps by rank among participants (row = participants).
CHARACTER_27_STEPS = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [1, 3, 0, 0], [1, 2, 3, 0],
                               [1, 2, 3, 4]], dtype=np.int16)
CHARACTER_33_STEPS_PER_POINT = 2
CHARACTER_34_POINTS_PER_CARD = 2
CHARACTER_35_MIN_SKYSCRAPERS = 3
CHARACTER_35_POINTS = 2

# --- Tom (solo rules; level table) -----------------------------------------------------------
TOM_LEVEL_CODES = ("A6", "B3", "C2", "A7", "B4", "C3", "A8", "B5", "C4", "A9", "B6", "C5")
TOM_MODES = "ABC"
TOM_MIN_DRAW, TOM_MAX_DRAW = 2, 9
