"""5th Avenue's printed numbers and the default (front-side) board, reconstructed from the text.

Source: ``rules/fifth-avenue-rules-en.txt``. The text describes the board in words and figures
the text does not hold; what it leaves open is decided here and in ``docs/fifth-avenue.md``
(each decision there cites the sentences it rests on). Another edition or another reading of
the board is an edit of this module only.
"""

import numpy as np

# --- players ("CONTENTS"; "Special rules for 2 players") ------------------------------------------
MIN_PLAYERS = 2
MAX_PLAYERS = 4
ALEA_PLAYERS = 2  # "When playing with 2 players ... a third, imaginary player ... Alea"
PLAYER_COLOURS = ("red", "yellow", "blue", "green")  # the figures' players (fig. 08-10)
SKYSCRAPERS_PER_COLOUR = 18  # "72 skyscrapers (18 of each player color)"
START_SCORING_MARKER = 1  # "1 skyscraper, placing it on the 0/80 space of the scoring track"
START_ON_BOARD = 2  # "2 skyscrapers, placing them on the game board"
START_SUPPLY = 3  # "3 skyscrapers, placing them on the supply space on his summary card"
TAKE_SKYSCRAPERS = 3  # option A: "takes 3 skyscrapers in his color from the general supply"

# --- bidding cards ("CONTENTS"; "The auctions") ----------------------------------------------------
CARD_COLOURS = ("orange", "green", "gray", "brown", "violet")  # = the building plot colours
NUM_CARD_COLOURS = len(CARD_COLOURS)
CARD_VALUES = (4, 5, 6)
NUM_CARD_VALUES = len(CARD_VALUES)
COLOURED_PER_VALUE = (5, 4, 3)  # "5 of 4, 4 of 5, and 3 of 6 in each of 5 colors": 60 cards
BLACK_PER_VALUE = (20, 16, 14)  # the 50 black cards: "(20 of 4, 16 of 5, and 14 of 6)"
# "Each number 6 card has 1 skyscraper pictured on it. Each number 5 card has 2 ... number 4 ... 3"
SKYSCRAPERS_PICTURED = (3, 2, 1)
START_BLACK_CARDS = 4  # "Each player draws 4 black cards"
TAKE_COLOURED_CARDS = 2  # 2nd action A-C: "two of the 5 face up colored cards ... two different colors"
TAKE_BLACK_CARDS = 2  # 2nd action D: "the top-most 2 cards from the face down black stack"

# --- businesses ("CONTENTS"; "PREPARATION"; "The businesses") -------------------------------------
BUSINESS_TYPES = ("boutique", "jeweler", "gallery", "perfume shop")
NUM_BUSINESS_TYPES = len(BUSINESS_TYPES)
BUSINESSES_PER_TYPE = 9  # "9 each of boutique, jeweler, gallery, and perfume shop": 36 tiles
MAX_BUSINESSES_PER_PLOT = 2  # "a building plot that has but one (identical or not) business"
SUPPLY_ROW_SPACES = 20
# "the supply row consists of 8 sets of spaces, each of which has 2 or 3 spaces"; the 3rd, 6th and
# 9th business placed on a plot empty sets 1-2, 1-4 and 1-6, and the 12th all of them, so the sets
# alternate 3, 2 (a set of 3 puts 2 on plots, one of 2 puts 1; the last of each goes below
# Central Park): 2+1 = 3, 3+3 = 6, 6+3 = 9, 9+3 = 12 (docs/fifth-avenue.md, "supply row").
SUPPLY_SETS = (3, 2, 3, 2, 3, 2, 3, 2)
SPECIAL_SCORINGS = ((3, 3, 4), (6, 4, 6), (9, 5, 8))  # (businesses placed, districts needed, VP)
UNUSED_BUSINESSES = 9  # "Place the 9 un-drawn businesses face down back in the box"

# --- scoring ("Scoring districts"; "Building stop"; "GAME END") ----------------------------------
VP_BY_BUSINESS_TYPES = (1, 2, 3, 5, 8)  # 0, 1, 2, 3, 4 different adjacent business types
PARK_TILES_TURNED = 3  # "turn over three of these face down tiles": 2, 3 or 5 VP per skyscraper
BUILDING_STOPS_TO_END = 2  # "it is the second building stop in the game"
# Not in the text: the game also ends, with the normal final scoring, after TURN_LIMIT turns. The
# text's ends need businesses taken or building stops, and players who only score districts and
# move commissioners can go on forever (a district may be scored again and again); an env needs
# episodes that end (docs/fifth-avenue.md, "turn limit"). Real games take 15-40 turns.
TURN_LIMIT = 200
NUM_COMMISSIONERS = 2  # white and beige
COMMISSIONER_NAMES = ("white", "beige")
MARKERS_PER_COMMISSIONER = 3  # "6 commissioner markers": one per district of a route

# --- the board: City Hall, 7 districts, Central Park (front side) -------------------------------
DISTRICT_NAMES = ("34th Street East", "34th Street West", "42nd Street East", "42nd Street West",
                  "Times Square", "52nd Street East", "52nd Street West")
NUM_DISTRICTS = len(DISTRICT_NAMES)
(D34E, D34W, D42E, D42W, TIMES_SQUARE, D52E, D52W) = range(NUM_DISTRICTS)
CITY_HALL, CENTRAL_PARK = -1, NUM_DISTRICTS  # route ends, not districts
PLACE_NAMES = DISTRICT_NAMES + ("Central Park",)
# The commissioners' route (fig. 02-04): City Hall -> a 34th Street district -> a 42nd Street
# district on its side, or Times Square -> a 52nd Street district -> Central Park. The choices
# are exactly those the text names: "from City Hall, 34th Street East or West, and Times Square".
NEXT_PLACES = {
    CITY_HALL: (D34E, D34W),
    D34E: (D42E, TIMES_SQUARE),
    D34W: (D42W, TIMES_SQUARE),  # fig. 04: "the beige commissioner to '42nd St. West' or 'Times Square'"
    D42E: (D52E,),
    D42W: (D52W,),
    TIMES_SQUARE: (D52E, D52W),  # fig. 04 (52nd St. East stopped): "to Central Park or to '52nd St. West'"
    D52E: (CENTRAL_PARK,),
    D52W: (CENTRAL_PARK,),
}
DISTRICTS_PER_ROUTE = 3  # "through three adjacent districts, and finally to Central Park"
MAX_NEXT_PLACES = 2


def _next_table():
    """NEXT_TABLE[place + 1]: NEXT_PLACES as an array for compiled code (-1 pads; Central Park's
    row is empty)."""
    table = np.full((NUM_DISTRICTS + 2, MAX_NEXT_PLACES), -1, np.int64)
    for place, nxt in NEXT_PLACES.items():
        table[place + 1, :len(nxt)] = nxt
    return table


NEXT_TABLE = _next_table()

# Building plots: "7 districts, each divided into 5 different colored building plots", one plot of
# each colour. Within a district the plots stand in a ring, each directly adjacent to the two
# beside it (docs/fifth-avenue.md, "plots"); no plot is adjacent to one of another district.
PLOTS_PER_DISTRICT = NUM_CARD_COLOURS
NUM_PLOTS = NUM_DISTRICTS * PLOTS_PER_DISTRICT
# PLOT_COLOUR_ORDER[d]: the colours around district d's ring; the order varies between districts
# (a rotation and a reflection of the colour list), so no colour pair is always neighbours.
PLOT_COLOUR_ORDER = (
    (0, 1, 2, 3, 4), (2, 4, 1, 3, 0), (1, 3, 0, 4, 2), (3, 0, 2, 1, 4),
    (4, 2, 0, 3, 1), (0, 3, 1, 4, 2), (2, 0, 4, 1, 3),
)


def plot_index(district: int, colour: int) -> int:
    """The plot of ``colour`` in ``district`` (plots numbered district by district)."""
    return district * PLOTS_PER_DISTRICT + PLOT_COLOUR_ORDER[district].index(colour)


def _plot_tables():
    colour = np.empty(NUM_PLOTS, np.int64)
    district = np.empty(NUM_PLOTS, np.int64)
    adjacent = np.zeros((NUM_PLOTS, NUM_PLOTS), np.bool_)
    for d in range(NUM_DISTRICTS):
        for k, c in enumerate(PLOT_COLOUR_ORDER[d]):
            p = d * PLOTS_PER_DISTRICT + k
            colour[p], district[p] = c, d
            for step in (-1, 1):
                adjacent[p, d * PLOTS_PER_DISTRICT + (k + step) % PLOTS_PER_DISTRICT] = True
    return colour, district, adjacent


PLOT_COLOUR, PLOT_DISTRICT, PLOT_ADJACENT = _plot_tables()


def routes(start: int = CITY_HALL) -> list[tuple[int, ...]]:
    """Every route from ``start`` to Central Park, as the districts passed (no building stops)."""
    if start == CENTRAL_PARK:
        return [()]
    out = []
    for nxt in NEXT_PLACES[start]:
        for rest in routes(nxt):
            out.append(((nxt,) if nxt != CENTRAL_PARK else ()) + rest)
    return out


def alea_bid_range() -> tuple[int, int]:
    """(lowest, highest) total of Alea's bid: black cards drawn until one repeats a number."""
    low = 2 * min(CARD_VALUES)  # two equal cards at once
    high = sum(CARD_VALUES) + max(CARD_VALUES)  # every number once, then the highest again
    return low, high


assert len(SUPPLY_SETS) == 8 and sum(SUPPLY_SETS) == SUPPLY_ROW_SPACES
assert sum(COLOURED_PER_VALUE) * NUM_CARD_COLOURS == 60 and sum(BLACK_PER_VALUE) == 50
assert NUM_DISTRICTS + SUPPLY_ROW_SPACES + UNUSED_BUSINESSES == NUM_BUSINESS_TYPES * BUSINESSES_PER_TYPE
assert all(sorted(order) == list(range(NUM_CARD_COLOURS)) for order in PLOT_COLOUR_ORDER)
