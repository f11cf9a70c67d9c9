"""Sealed Bids' state record (``STATE_DTYPE``) and the named constants its fields use.

One numpy structured record holds a whole game: the prize deck in order (bottom..top, the top
card last), every seat's hand of bid cards as flags, the pending bids of the current round, the
history of resolved rounds (prize, every bid, who won), scores, the pending decision, the bots'
move log (``core/move_log.py``) and the record's own random generator (``core/rng.py``).
"""

import numpy as np

MIN_PLAYERS = 2
MAX_PLAYERS = 4
NUM_PRIZES = 9  # prize cards 1..NUM_PRIZES, one each (R2)
NUM_BID_CARDS = 6  # bid cards 1..NUM_BID_CARDS in every hand (R2)
NUM_ROUNDS = NUM_BID_CARDS  # one round per bid card (R3)
MIN_BID = 1
MAX_SCORE = NUM_PRIZES * (NUM_PRIZES + 1) // 2  # every prize won by one seat
NO_CARD = -1
NO_SEAT = -1

# Decisions (``decision``)
DEC_BID = 0  # the seat to move lays a bid card face down
DEC_GAME_OVER = 1
DECISION_NAMES = ("bid a card", "game over")
NUM_DECISIONS = len(DECISION_NAMES)

# Seats (``bot_kind``): agents decide from outside, bots are played by the engine.
BOT_NONE, BOT_RANDOM, BOT_GREEDY = 0, 1, 2
BOT_NAMES = ("agent", "random", "greedy")

# The bots' moves since the last outside decision (core/move_log.py): one apply plays at most the
# rest of a round and the next round up to an agent, 2 * (MAX_PLAYERS - 1) moves.
BOT_MOVE_CAPACITY = 16
BOT_MOVE_FIELDS = 2  # seat, action
MAX_BOT_MOVES = NUM_ROUNDS * MAX_PLAYERS  # bound on bot_move_count (the whole game)

STATE_DTYPE = np.dtype([
    ("num_players", np.int8),
    ("num_agents", np.int8),
    ("bot_kind", np.int8, (MAX_PLAYERS,)),
    ("decision", np.int8),
    ("actor", np.int8),  # the seat to bid, NO_SEAT at the end
    ("round", np.int8),  # rounds resolved so far: 0..NUM_ROUNDS
    ("start_seat", np.int8),  # the seat that opened the current (at the end: the last) round
    ("bids_made", np.int8),  # bids laid in the current round
    ("rng", np.int64, (4,)),
    ("prize_deck", np.int8, (NUM_PRIZES,)),  # face down, bottom..top; zeros past prize_count
    ("prize_count", np.int8),
    ("prize", np.int8),  # the revealed prize of the current round, NO_CARD at the end
    ("hand", np.int8, (MAX_PLAYERS, NUM_BID_CARDS)),  # 1 when the seat still holds card v + 1
    ("pending_bid", np.int8, (MAX_PLAYERS,)),  # this round's face-down bid, NO_CARD before it
    ("bid_history", np.int8, (MAX_PLAYERS, NUM_ROUNDS)),  # resolved rounds' bids; 0 after
    ("prize_history", np.int8, (NUM_ROUNDS,)),  # resolved rounds' prizes; 0 after
    ("round_winner", np.int8, (NUM_ROUNDS,)),  # the seat that won each round, NO_SEAT: a tie / not yet
    ("score", np.int16, (MAX_PLAYERS,)),
    ("winner_mask", np.int8),  # bit s: seat s shares the win (set at the end)
    ("log_round_start", np.int16),  # first log row of the current round (its bids are sealed)
    ("bot_moves", np.int16, (BOT_MOVE_CAPACITY, BOT_MOVE_FIELDS)),
    ("bot_move_count", np.int16),
])
