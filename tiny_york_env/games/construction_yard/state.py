"""Construction Yard's state record (``STATE_DTYPE``) and the named constants its fields use.

One numpy structured record holds a whole game: decks in order (bottom..top, the top card last),
hands as counts, displays, every participant's buildings, scores, the pending decision and the
record's own random generator (``core.rng``). Per-participant arrays have a row per seat and one
for Dirk (``DIRK_ROW``), who takes part in scorings in two-player games but is not a seat.
"""

import numpy as np

from .bot_moves import BOT_MOVE_CAPACITY, BOT_MOVE_FIELDS
from .data import (
                  DISPLAY_SLOTS,
                  MAX_PLAYERS,
                  NUM_BUILDINGS,
                  NUM_CURRENCIES,
                  NUM_PILES,
                  NUM_SCORINGS,
                  NUM_TYPES,
                  NUM_VALUES,
)

DIRK_ROW = MAX_PLAYERS
NUM_ROWS = MAX_PLAYERS + 1
NO_CARD = -1
NO_SEAT = -1
NUM_MONEY_CODES = NUM_CURRENCIES * NUM_VALUES  # money card code = currency * NUM_VALUES + value - 1
SCORING_A = NUM_MONEY_CODES  # the scoring cards A and B share the money deck
SCORING_B = NUM_MONEY_CODES + 1
SCORING_CARDS = (SCORING_A, SCORING_B)
MAX_MONEY_CARDS = NUM_MONEY_CODES * 3
MONEY_DECK_CAPACITY = MAX_MONEY_CARDS + len(SCORING_CARDS)

# Decisions (``decision``)
DEC_CHOOSE = 0  # take money, buy a building, or pass
DEC_PAY = 1  # paying for the building in ``buy_slot``
DEC_DIRK = 2  # two players: keep the bought building or give it to Dirk
DEC_GAME_OVER = 3
DECISION_NAMES = ("take money or buy a building", "pay for the building",
                  "keep the building or give it to Dirk", "game over")
NUM_DECISIONS = len(DECISION_NAMES)

# Seats (``bot_kind``): agents decide from outside, bots are played by the engine.
BOT_NONE, BOT_RANDOM, BOT_GREEDY = 0, 1, 2
BOT_NAMES = ("agent", "random", "greedy")

GAME_TITLE = "Construction Yard"  # the game for people (the record, the engine verbs' errors)

STATE_DTYPE = np.dtype([
    ("num_players", np.int8),
    ("num_agents", np.int8),
    ("has_dirk", np.int8),
    ("bot_kind", np.int8, (MAX_PLAYERS,)),
    ("decision", np.int8),
    ("actor", np.int8),
    ("start_player", np.int8),
    ("turn", np.int32),
    ("actions_in_turn", np.int8),
    ("rng", np.int64, (4,)),
    ("money_deck", np.int8, (MONEY_DECK_CAPACITY,)),
    ("money_count", np.int16),
    ("pile_bottom", np.int16, (NUM_PILES,)),
    ("discard", np.int8, (MAX_MONEY_CARDS,)),
    ("discard_count", np.int16),
    ("money_display", np.int8, (DISPLAY_SLOTS,)),
    ("hand", np.int8, (MAX_PLAYERS, NUM_CURRENCIES, NUM_VALUES)),
    ("building_deck", np.int8, (NUM_BUILDINGS,)),
    ("building_count", np.int8),
    ("building_display", np.int8, (DISPLAY_SLOTS,)),
    ("buildings", np.int8, (NUM_ROWS, NUM_TYPES)),
    ("removed", np.int8),
    ("scorings_done", np.int8, (NUM_SCORINGS,)),
    ("score_lines", np.int32, (NUM_ROWS, NUM_SCORINGS)),
    ("buy_slot", np.int8),
    ("payment", np.int8, (NUM_VALUES,)),
    ("paid", np.int16),
    ("pending_building", np.int8),
    ("paid_exactly", np.int8),
    ("winner_mask", np.int8),
    # the bots' actions since the last outside decision (bot_moves.py)
    ("bot_moves", np.int16, (BOT_MOVE_CAPACITY, BOT_MOVE_FIELDS)), ("bot_move_count", np.int16),
])
