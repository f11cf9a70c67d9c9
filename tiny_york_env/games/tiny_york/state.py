"""The game state: one numpy structured record (``STATE_DTYPE``) and the constants it uses.

Everything that decides the future lives in the record, the random generator included, so a
copy is one memcpy, a batch is ``np.zeros(B, STATE_DTYPE)`` and equal records are equal games.
Seat-indexed arrays have ``MAX_SEATS`` rows; press and skyscraper arrays have one more row,
``NEUTRAL``, for the neutral player.
"""

import numpy as np

from .bot_moves import TOM_EVENT_CAPACITY, TOM_EVENT_FIELDS
from .components import (
    ELEVATOR_COLUMNS,
    FIRST_END_GAME_CHARACTER,
    MAX_ELEVATOR_STACK,
    MAX_PAIRS,
    MAX_SEATS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_CHARACTERS,
    NUM_PRESTIGE_TILES,
    NUM_START_STACKS,
    NUM_TILE_VALUES,
    NUM_TILES,
    NUM_VESSELS,
    PRESTIGE_REVEALED_PER_ROUND,
)

NO_SEAT = -1
EMPTY = -1  # an empty slot in any id array (pair card, display slot, revealed tile)
RNG_WORDS = 4
NUM_END_GAME_CHARACTERS = NUM_CHARACTERS - FIRST_END_GAME_CHARACTER + 1  # 28..42

# Where a character tile is (tile_loc).
LOC_START_STACK, LOC_ELEVATOR_STACK, LOC_DISPLAY, LOC_OWNED, LOC_REMOVED = range(5)
# Start stack status (start_stack_status).
STACK_HIDDEN, STACK_REVEALED, STACK_TAKEN, STACK_REMOVED = range(4)
# Where a prestige tile is (prestige_loc): a borough index 0..5, or one of these.
PRESTIGE_IN_STACK, PRESTIGE_REVEALED, PRESTIGE_REMOVED = -1, -2, -3
VESSEL_ON_BOARD = -1  # vessel_owner: a seat, or on the board

# Stages: the engine's program counter between decisions.
(STAGE_START_CHARACTERS, STAGE_PHASE0, STAGE_PHASE1, STAGE_BID_START, STAGE_BIDDING,
 STAGE_EVALUATE, STAGE_BID_END, STAGE_RETURN_CARDS, STAGE_PHASE3, STAGE_ROUND_END,
 STAGE_GAME_OVER) = range(11)
STAGE_DECLARE_BID_LAST = 11  # character 18 declared before the first bid (R11); appended
STAGE_NAMES = ("start characters", "phase 0", "phase I", "bid start", "bidding", "evaluation",
               "bid end", "after evaluation (character 22)", "phase III", "round end",
               "game over", "declare character 18")

# Pending decisions: what the seat to move is asked. DEC_NONE only while the engine runs.
(DEC_NONE, DEC_START_STACK, DEC_PICK_PAIR, DEC_BID, DEC_ELEVATOR, DEC_PRESTIGE_TILE,
 DEC_PRESTIGE_VESSEL, DEC_PRESTIGE_BOROUGH, DEC_BUILD, DEC_GAME_OVER,
 DEC_AFTER_PICK, DEC_AFTER_EVALUATION, DEC_PHASE3,
 DEC_CHARACTER_CARD, DEC_CHARACTER_TILE, DEC_CHARACTER_ELEVATOR, DEC_CHARACTER_PAIR_CARD,
 DEC_CHARACTER_PAIR, DEC_CHARACTER_BOROUGH, DEC_CHARACTER_STEPS,
 DEC_DECLARE_BID_LAST) = range(21)
DECISION_NAMES = ("none", "choose a start-character stack", "take a pair of cards",
                  "bid (exchange, add cards, use a character, or finish)",
                  "take a character from the elevator",
                  "take a prestige tile or forfeit", "choose a vessel for the prestige tile",
                  "choose the borough for the prestige tile",
                  "sell a skyscraper from another borough or stop building", "game over",
                  "use character 8 on the pair just taken, or go on",
                  "use character 22 to take played cards back, or go on",
                  "use a phase III character, or end the turn",
                  "choose a card for the character", "choose a character tile to give up",
                  "take a character from the elevator for the character",
                  "take a single card from a pair (character 2)",
                  "take a pair of cards (character 4)",
                  "choose a borough for the character", "choose how many press spaces to go back",
                  "use character 18 to bid last in this bidding round, or not")
# Where an ability was started from, so the engine knows where to go back (ability_context).
CTX_PICK, CTX_AFTER_PICK, CTX_BID, CTX_AFTER_EVALUATION, CTX_PHASE3 = range(5)
CTX_DECLARE_BID_LAST = 5  # character 18 declared before the first bid (R11)
ABILITY_MEMORY = 4

# Prestige evaluation steps (eval_step in the prestige bidding round).
PRESTIGE_STEP_POINTS, PRESTIGE_STEP_WINNER, PRESTIGE_STEP_RUNNER_UP, PRESTIGE_STEP_DONE = range(4)

# Final score lines (score_lines columns), in the order of R20.
SCORE_TRACK = 0  # points gained during the game
SCORE_CHARACTERS = 1
SCORE_END_CHARACTERS = 2
SCORE_BOROUGH = 3  # + borough index
SCORE_BOROUGH_BONUS = SCORE_BOROUGH + NUM_BOROUGHS
SCORE_PRESS_BONUS = SCORE_BOROUGH_BONUS + 1
SCORE_REST = SCORE_PRESS_BONUS + 1
NUM_SCORE_LINES = SCORE_REST + 1
SCORE_LINE_NAMES = (("during the game", "characters", "end-game characters")
                    + tuple(f"borough {i}" for i in range(NUM_BOROUGHS))
                    + ("borough bonus", "press bonus", "rest (dollars + skyscrapers) / 2"))

PRESS_ROWS = MAX_SEATS + 1
SKY_ROWS = MAX_SEATS + 1

STATE_DTYPE = np.dtype([
    # who plays
    ("num_seats", np.int32), ("num_agents", np.int32),
    ("is_tom", np.int16, (MAX_SEATS,)),
    ("tom_mode", np.int16, (MAX_SEATS,)), ("tom_draw", np.int16, (MAX_SEATS,)),
    ("tom_level", np.int16, (MAX_SEATS,)),
    # progress
    ("round", np.int32), ("stage", np.int32), ("bid_round", np.int32),
    ("decision", np.int32), ("actor", np.int32), ("cursor", np.int32),
    ("order", np.int16, (MAX_SEATS,)), ("num_decisions", np.int32),
    ("rng", np.int64, (RNG_WORDS,)),
    # cards (counts per type; the draw pile in order, top = draw_pile[draw_count - 1])
    ("draw_pile", np.int16, (NUM_CARDS,)), ("draw_count", np.int32),
    ("discard", np.int16, (NUM_CARD_TYPES,)),
    ("hand", np.int16, (MAX_SEATS, NUM_CARD_TYPES)),
    ("reserve", np.int16, (MAX_SEATS, NUM_CARD_TYPES)),
    ("reserve_size", np.int16, (MAX_SEATS,)),
    ("reserve_faceup", np.int16, (MAX_SEATS, NUM_CARD_TYPES)),  # character 3's face-up cards (R25)
    ("pairs", np.int16, (MAX_PAIRS, 2)), ("num_pairs", np.int32),
    ("pairs_taken", np.int16, (MAX_SEATS,)),
    ("played", np.int16, (MAX_SEATS, NUM_CARD_TYPES)),
    # characters
    ("tile_loc", np.int16, (NUM_TILES,)), ("tile_owner", np.int16, (NUM_TILES,)),
    ("tile_used", np.int16, (NUM_TILES,)), ("tile_dollar", np.int16, (NUM_TILES,)),
    ("start_stacks", np.int16, (NUM_START_STACKS, 2)),
    ("start_stack_status", np.int16, (NUM_START_STACKS,)),
    ("elevator_stack", np.int16, (NUM_TILE_VALUES, MAX_ELEVATOR_STACK)),
    ("elevator_count", np.int16, (NUM_TILE_VALUES,)),
    ("elevator_display", np.int16, (NUM_TILE_VALUES, ELEVATOR_COLUMNS)),
    # board
    ("borough_sequence", np.int16, (NUM_BOROUGHS,)), ("borough_base", np.int16, (NUM_BOROUGHS,)),
    ("borough_prestige", np.int16, (NUM_BOROUGHS,)),
    ("skyscrapers", np.int16, (NUM_BOROUGHS, SKY_ROWS)),
    ("mayor", np.int32), ("statue_flipped", np.int32),
    ("vessel_owner", np.int16, (NUM_VESSELS,)),
    ("prestige_stack", np.int16, (NUM_PRESTIGE_TILES,)), ("prestige_next", np.int32),
    ("prestige_revealed", np.int16, (PRESTIGE_REVEALED_PER_ROUND,)),
    ("prestige_loc", np.int16, (NUM_PRESTIGE_TILES,)),
    # participants
    ("points", np.int32, (MAX_SEATS,)), ("dollars", np.int32, (MAX_SEATS,)),
    ("board_skyscrapers", np.int32, (MAX_SEATS,)),
    ("press_space", np.int16, (PRESS_ROWS,)), ("press_height", np.int32, (PRESS_ROWS,)),
    ("press_moves", np.int32),
    # the bidding round in progress
    ("bid_start", np.int32), ("bid_value", np.int16, (MAX_SEATS,)),
    ("bid_done", np.int16, (MAX_SEATS,)), ("exchanges_left", np.int32),
    ("bonus_winner", np.int32), ("runner_up", np.int32),
    ("eval_step", np.int32),
    ("build_left", np.int32), ("build_borough", np.int32),
    ("chosen_slot", np.int32), ("chosen_vessel", np.int32),
    ("bid_base", np.int16, (MAX_SEATS,)),  # the bid holds a card of the round or a substitute
    ("icons_played", np.int16, (MAX_SEATS, NUM_CARD_TYPES)),  # from the hand, own icon (15)
    ("double_prestige", np.int16, (MAX_SEATS,)),  # character 19 this bidding round
    ("character18_used", np.int32),  # one use of 18 per bidding round (R11)
    ("build_bonus_due", np.int32),  # character 21 not yet triggered in this building action
    # a character ability being resolved
    ("ability", np.int32), ("ability_context", np.int32), ("ability_count", np.int32),
    ("ability_limit", np.int32), ("ability_memory", np.int16, (ABILITY_MEMORY,)),
    # final scoring
    ("score_lines", np.int32, (MAX_SEATS, NUM_SCORE_LINES)),
    ("end_character_points", np.int32, (MAX_SEATS, NUM_END_GAME_CHARACTERS)),  # 28-42, R20
    ("winner", np.int32),
    # what the engine did for the Toms since the last action (tom_events.py)
    ("tom_events", np.int8, (TOM_EVENT_CAPACITY, TOM_EVENT_FIELDS)), ("tom_event_count", np.int32),
])
