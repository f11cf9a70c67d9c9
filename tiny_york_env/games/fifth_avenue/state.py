"""5th Avenue's state record (``STATE_DTYPE``) and the constants its fields use.

One numpy structured record holds a game: the five coloured stacks and the black stack in order
(the top card last), hands as counts, the board's plots (businesses, skyscrapers), the supply
row, the area below Central Park, the commissioners and their markers, scores, the pending
decision and the record's own generator (``core.rng``). Per-player rows have one more row,
``ALEA_ROW``, for the imaginary third bidder of two-player games.
"""

import numpy as np

from .data import (
    BLACK_PER_VALUE,
    COLOURED_PER_VALUE,
    MARKERS_PER_COMMISSIONER,
    MAX_BUSINESSES_PER_PLOT,
    MAX_PLAYERS,
    NUM_BUSINESS_TYPES,
    NUM_CARD_COLOURS,
    NUM_CARD_VALUES,
    NUM_COMMISSIONERS,
    NUM_DISTRICTS,
    NUM_PLOTS,
    SUPPLY_ROW_SPACES,
    SUPPLY_SETS,
)

BOT_MOVE_CAPACITY = 256  # far more than one decision brings (tests/fifth_avenue/test_rules.py)
ALEA_ROW = MAX_PLAYERS
NUM_ROWS = MAX_PLAYERS + 1
NO_PLAYER = -1
NO_CARD = -1
NO_BUSINESS = -1
NO_PLOT = -1  # build_plot in Central Park (no plot) and before the first auction
BLACK = NUM_CARD_COLOURS  # the hand's card "colour" index of black cards
NUM_HAND_COLOURS = NUM_CARD_COLOURS + 1
CARDS_PER_COLOUR = sum(COLOURED_PER_VALUE)  # 12
NUM_BLACK = sum(BLACK_PER_VALUE)  # 50
NUM_PARK_BUSINESSES = len(SUPPLY_SETS)  # the last tile of each set goes below Central Park

# The turn's options (``option``)
NO_OPTION, OPTION_A, OPTION_B, OPTION_C, OPTION_D = -1, 0, 1, 2, 3

# Decisions (``decision``)
(DEC_START_SKYSCRAPER, DEC_OPTION, DEC_BUSINESS_SPACE, DEC_BUSINESS_PLOT, DEC_COLOURED_CARDS,
 DEC_COMMISSIONER, DEC_BID, DEC_BUILD, DEC_GAME_OVER) = range(9)
DECISION_NAMES = ("place a starting skyscraper", "choose option A, B, C or D",
                  "take a business from the supply row", "place the business on a plot",
                  "take two coloured cards", "move a commissioner", "bid or pass",
                  "build skyscrapers or declare a building stop", "game over")

STATE_DTYPE = np.dtype([
    # who plays
    ("num_players", np.int8), ("num_agents", np.int8), ("has_alea", np.int8),
    ("bot_kind", np.int8, (MAX_PLAYERS,)),  # config.BOT_NONE for an agent's seat
    ("alea_colour", np.int8),  # the player colour Alea builds in (two players)
    # progress
    ("decision", np.int8), ("actor", np.int8), ("start_player", np.int8), ("turn", np.int32),
    ("placing_step", np.int8),  # which of the 2 * players starting skyscrapers comes next
    ("rng", np.int64, (4,)),
    # cards: stacks bottom..top (the top card is stack[count - 1]); a card is a value index 0..2
    ("coloured_stack", np.int8, (NUM_CARD_COLOURS, CARDS_PER_COLOUR)),
    ("coloured_count", np.int8, (NUM_CARD_COLOURS,)),
    ("black_stack", np.int8, (NUM_BLACK,)), ("black_count", np.int16),
    # black cards put back face up under the stack, shuffled in when the drawing reaches them
    ("black_returned", np.int8, (NUM_BLACK,)), ("black_returned_count", np.int16),
    ("hand", np.int8, (MAX_PLAYERS, NUM_HAND_COLOURS, NUM_CARD_VALUES)),
    # businesses
    ("supply_row", np.int8, (SUPPLY_ROW_SPACES,)),  # a business type, or NO_BUSINESS once taken
    ("plot_business", np.int8, (NUM_PLOTS, MAX_BUSINESSES_PER_PLOT)),
    ("park_business", np.int8, (NUM_PARK_BUSINESSES,)), ("park_business_count", np.int8),
    ("businesses_placed", np.int8),  # on plots, from the supply row (the special scorings count them)
    ("unused_business", np.int8, (NUM_BUSINESS_TYPES,)),  # the 9 left in the box, by type (hidden)
    # skyscrapers
    ("plot_owner", np.int8, (NUM_PLOTS,)),  # a row (player or ALEA_ROW) or NO_PLAYER
    ("plot_skyscrapers", np.int8, (NUM_PLOTS,)),
    ("park_skyscrapers", np.int8, (NUM_ROWS,)),
    ("supply", np.int8, (NUM_ROWS,)),  # on the summary card
    ("general", np.int8, (NUM_ROWS,)),  # the general supply of each colour in play
    # the city
    ("commissioner_place", np.int8, (NUM_COMMISSIONERS,)),  # data.CITY_HALL, a district, CENTRAL_PARK
    ("commissioner_markers", np.int8, (NUM_COMMISSIONERS, MARKERS_PER_COMMISSIONER)),
    ("markers_placed", np.int8, (NUM_COMMISSIONERS,)),
    ("stopped", np.int8, (NUM_DISTRICTS,)), ("building_stops", np.int8),
    ("skyscrapers_removed", np.int8, (NUM_ROWS,)), ("businesses_removed", np.int8),  # building stops
    # the turn in progress
    ("option", np.int8),  # OPTION_A..OPTION_D of the turn, or NO_OPTION
    ("turn_step", np.int8),  # the next of the turn's three actions: 1, 2, 3
    ("held_business", np.int8),  # the business taken from the supply row, not yet placed
    # a set of auctions (a commissioner moved from Central Park back to City Hall)
    ("auction_places", np.int8, (MARKERS_PER_COMMISSIONER + 1,)),  # visited districts, then Central Park
    ("auction_count", np.int8), ("auction_at", np.int8), ("auction_trigger", np.int8),
    ("resume_step", np.int8),  # the turn step to go on with after the auctions
    ("bidder", np.int8),  # the seat whose turn it is to bid (== actor during DEC_BID)
    ("bid_colour", np.int8, (NUM_ROWS,)),  # the colour a bidder bids with, or NO_CARD
    ("bid_cards", np.int8, (MAX_PLAYERS, NUM_HAND_COLOURS, NUM_CARD_VALUES)),
    ("bid_total", np.int16, (NUM_ROWS,)),
    ("bid_min_pictured", np.int8, (NUM_ROWS,)),  # the fewest skyscrapers pictured on the bid's cards
    ("added_this_turn", np.int8),  # cards added in the bidder's current turn
    ("passed", np.int8, (NUM_ROWS,)),
    ("high_bid", np.int16), ("high_bidder", np.int8),
    ("park_colour", np.int8),  # the Central Park auction's one colour, once chosen
    ("alea_in", np.int8), ("alea_cards", np.int8, (NUM_CARD_VALUES + 1,)), ("alea_card_count", np.int8),
    ("district_full", np.int8),  # every plot of the auction's district was taken before it
    ("build_limit", np.int8), ("build_plot", np.int8),
    # scores
    ("score", np.int32, (MAX_PLAYERS,)), ("winner_mask", np.int8),
    # the engine bots' actions since the last outside decision (seat, action)
    ("bot_moves", np.int16, (BOT_MOVE_CAPACITY, 2)), ("bot_move_count", np.int16),
])
