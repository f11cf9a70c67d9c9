"""5th Avenue's action codec: one flat ``Discrete(NUM_ACTIONS)`` space (docs/fifth-avenue.md).

| ids | action | decision |
|---|---|---|
| 0-34 | place a starting skyscraper on plot p | start skyscraper |
| 35, 36, 37 | option A (3 skyscrapers), B (a business), C (a black card, a commissioner) | option |
| 38-44 | option D: score district d | option |
| 45-64 | take the business on supply-row space s | business |
| 65-99 | put the business taken on plot p | business plot |
| 100-109 | take the top cards of two colours (a pair, ``COLOUR_PAIRS``) | coloured cards |
| 110-114 | take the top card of one colour (only one stack has cards) | coloured cards |
| 115-132 | move commissioner c to place t (7 districts, Central Park, City Hall) | commissioner |
| 133-150 | add a card to the bid (5 colours and black, values 4/5/6) | bid |
| 151, 152 | finish the bid, pass | bid |
| 153-156 | build 0-3 skyscrapers on the auction's plot | build |
| 157 | declare a building stop | build |
"""

import itertools

from ...core.checked import action_id
from .data import (
    CARD_COLOURS,
    CARD_VALUES,
    COMMISSIONER_NAMES,
    NUM_CARD_COLOURS,
    NUM_CARD_VALUES,
    NUM_COMMISSIONERS,
    NUM_DISTRICTS,
    NUM_PLOTS,
    PLACE_NAMES,
    PLOT_COLOUR,
    PLOT_DISTRICT,
    SUPPLY_ROW_SPACES,
)

NUM_DESTINATIONS = NUM_DISTRICTS + 2  # the districts, Central Park, City Hall
DEST_CENTRAL_PARK, DEST_CITY_HALL = NUM_DISTRICTS, NUM_DISTRICTS + 1
COLOUR_PAIRS = tuple(itertools.combinations(range(NUM_CARD_COLOURS), 2))
MAX_BUILD = 3  # a bid of value-4 cards only: "up to 3 skyscrapers"

PLACE_START = 0
OPTION_A = PLACE_START + NUM_PLOTS
OPTION_B = OPTION_A + 1
OPTION_C = OPTION_B + 1
SCORE_DISTRICT = OPTION_C + 1
TAKE_SPACE = SCORE_DISTRICT + NUM_DISTRICTS
PLACE_BUSINESS = TAKE_SPACE + SUPPLY_ROW_SPACES
TAKE_PAIR = PLACE_BUSINESS + NUM_PLOTS
TAKE_ONE = TAKE_PAIR + len(COLOUR_PAIRS)
MOVE = TAKE_ONE + NUM_CARD_COLOURS
BID_CARD = MOVE + NUM_COMMISSIONERS * NUM_DESTINATIONS
BID_FINISH = BID_CARD + (NUM_CARD_COLOURS + 1) * NUM_CARD_VALUES
BID_PASS = BID_FINISH + 1
BUILD = BID_PASS + 1
BUILDING_STOP = BUILD + MAX_BUILD + 1
NUM_ACTIONS = BUILDING_STOP + 1

BLOCKS = ((PLACE_START, "place_start"), (OPTION_A, "option_a"), (OPTION_B, "option_b"),
          (OPTION_C, "option_c"), (SCORE_DISTRICT, "score_district"), (TAKE_SPACE, "take_space"),
          (PLACE_BUSINESS, "place_business"), (TAKE_PAIR, "take_pair"), (TAKE_ONE, "take_one"),
          (MOVE, "move"), (BID_CARD, "bid_card"), (BID_FINISH, "bid_finish"), (BID_PASS, "bid_pass"),
          (BUILD, "build"), (BUILDING_STOP, "building_stop"), (NUM_ACTIONS, "end"))


def decode(action: int) -> tuple[str, int]:
    """(block name, offset in the block) of an action id; ValueError outside 0..NUM_ACTIONS-1."""
    action = action_id(action, NUM_ACTIONS)
    for (start, name), (end, _) in zip(BLOCKS[:-1], BLOCKS[1:], strict=True):
        if start <= action < end:
            return name, action - start
    raise AssertionError("the blocks cover every id")


def plot_name(plot: int) -> str:
    """'the gray plot of Times Square'."""
    return f"the {CARD_COLOURS[PLOT_COLOUR[plot]]} plot of {PLACE_NAMES[PLOT_DISTRICT[plot]]}"


def describe_action(action: int) -> str:
    """The action in plain words."""
    name, k = decode(action)
    if name == "place_start":
        return f"place a starting skyscraper on {plot_name(k)}"
    if name in ("option_a", "option_b", "option_c"):
        return {"option_a": "A: take 3 skyscrapers", "option_b": "B: place a business",
                "option_c": "C: take a black card and move a commissioner"}[name]
    if name == "score_district":
        return f"D: score {PLACE_NAMES[k]}"
    if name == "take_space":
        return f"take the business on supply-row space {k + 1}"
    if name == "place_business":
        return f"put the business on {plot_name(k)}"
    if name == "take_pair":
        first, second = COLOUR_PAIRS[k]
        return f"take the top {CARD_COLOURS[first]} and {CARD_COLOURS[second]} cards"
    if name == "take_one":
        return f"take the top {CARD_COLOURS[k]} card (no other colour is left)"
    if name == "move":
        commissioner, place = divmod(k, NUM_DESTINATIONS)
        where = "City Hall (the auctions follow)" if place == DEST_CITY_HALL else PLACE_NAMES[place]
        return f"move the {COMMISSIONER_NAMES[commissioner]} commissioner to {where}"
    if name == "bid_card":
        colour, value = divmod(k, NUM_CARD_VALUES)
        colour_name = "black" if colour == NUM_CARD_COLOURS else CARD_COLOURS[colour]
        article = "an" if colour_name[0] in "aeiou" else "a"  # "an orange 4"
        return f"bid {article} {colour_name} {CARD_VALUES[value]}"
    if name == "bid_finish":
        return "finish the bid"
    if name == "bid_pass":
        return "pass (take the bid cards back)"
    if name == "build":
        return f"build {k} skyscraper{'s' if k != 1 else ''}"
    return "declare a building stop"

