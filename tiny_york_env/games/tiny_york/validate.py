"""``validate_state``: is a record one the engine could have made? For records read from outside.

A game is a plain numpy record, so one read back from a file, a socket or a damaged checkpoint
can hold anything, and the compiled engine trusts its record: it indexes arrays with the
record's values and loops as often as its counts say. ``validate_state`` checks a record before
the engine sees it and raises a ``ValueError`` naming the first wrong field and what it must be.
The checks are compiled, and each raises ``StateError(code)`` where its rule fails, ``code`` an
index into ``ERRORS`` (field, rule), so ``validate_record(st)`` (callable from compiled code) stops
at the first rule broken; ``state_error_codes`` gives each game's code (OK = 0) for a batch. They
cost about 2 microseconds per game compiled, 3.5 through ``validate_state`` for one
game (``benchmarks/validate_state.py``: ``apply_action`` costs about 3, ``legal_mask`` 2.5,
``encode`` 5, ``load_state`` 9-15 with the checks, ``determinize`` 11-12 without them), so
``load_state`` runs them on every load and ``determinize`` at its door. ``apply_action``,
``apply_actions``, ``legal_mask(s)``, ``encode`` and ``encode_batch`` trust the record they are
given: validating there would about double their cost on the training path, where every record
comes from the engine; records from outside go through ``load_state`` or ``validate_state``
first.

A record passes when it is one the engine could have made between two calls. What is checked
(the first failure found is reported):

* **Who plays** (R1): 2-4 participants, 1-4 agents in the first seats, Toms (``is_tom``) in the
  seats after them; each Tom's mode A-C, Phase-I draw 2-9 and level as the solo rules' table
  gives them (0 off the table); every field of an unused seat is zero.
* **Progress**: ``round`` 0-6, ``stage`` a ``STAGE_NAMES`` index and ``decision`` a
  ``DECISION_NAMES`` index; round 0 is the start-character draft, round 6 the end of the game,
  rounds 1-5 the stages that wait for a decision; the decision fits the stage (never
  ``DEC_NONE`` between calls; ``DEC_BID`` only while bidding, ``DEC_DECLARE_BID_LAST`` only in
  ``STAGE_DECLARE_BID_LAST``, the elevator, prestige and building decisions only in the
  evaluation of their bidding round); ``bid_round`` 0-5 during a bidding round and as the
  stage leaves it otherwise; ``actor`` a seated agent (not a Tom) while the game runs and
  ``NO_SEAT`` at its end; the generator's four words are 32-bit and not all zero.
* **Cards** (105, 15 of each type): ``draw_count`` 0-105, ``draw_pile[:draw_count]`` card types
  and the slots beyond it blank (D6); every count (discard, hands, reserves, face-up reserve
  cards, played cards) 0-15; each card accounted for exactly once (draw pile + discard + hands
  + reserves + pairs + played = 15 per type); reserves only for agents, ``reserve_size`` 2 up
  to 2 + one per round of character 3, a reserve holding ``reserve_size`` cards (fewer only
  while character 8 or 12 is resolved), ``reserve_faceup`` at most the reserve per type;
  ``num_pairs`` as R6 deals them (0 in the draft), pair slots card types or blank, blank beyond
  ``num_pairs`` and outside Phase I; played cards only during a bidding round; agents have
  taken 0-2 pairs (Toms none), and in Phase I enough pairs are left for the picks to come;
  during a bidding round a Tom's supply fits his rules (R21, D4: no card of an earlier round,
  none of this round once he has bid, one when he played a drawn wild at once).
* **Character tiles** (76): ``tile_loc`` a location, ``tile_owner`` a seat exactly when owned;
  the start stacks hold each start tile once (value-1 tiles left, value-5 right), revealed as
  R4 says during the draft and taken or removed after it, their tiles where their status says;
  each elevator stack holds its value's tiles below ``elevator_count`` and blanks above; the
  display holds tiles of its row's value, with no gap while the stack has tiles; every tile is
  exactly where ``tile_loc`` says and nowhere else; only owned tiles of characters 1-27 owned
  by an agent are used this round, and a dollar only on a used tile that is not free.
* **Board**: the sequence tiles and base values are the components' (each once); the Mayor is on
  the round's letter (R3); skyscrapers 0-COUNT_LIMIT, at most 2 neutral ones a borough and 5 of
  a Tom's (R22); prestige tiles: the stack holds each once, ``prestige_next`` is 2 per round,
  the revealed slots hold this round's two (or are empty), every tile's ``prestige_loc``
  matches (in the stack, revealed, removed, or a borough), ``borough_prestige`` is the sum of
  the values placed there, and each vessel owned matches a tile placed of its colour.
* **Participants**: points, dollars and board skyscrapers 0-COUNT_LIMIT; press spaces 0-15, the
  neutral token on its setup space, stack heights 1..``press_moves`` (negative on the last
  space, R2), all different.
* **The bidding round and the evaluation**: ``order`` holds the agents (draft, Phase I) or all
  participants (otherwise), each once, then ``NO_SEAT``; ``cursor`` in range and pointing at the
  actor where the stage asks it in turn; bid values 0-COUNT_LIMIT, flags 0/1, icons 0-15;
  ``bid_done`` 1 exactly for those who have bid (R3: in order; before, during and after the
  bids), and those still to bid have bid and (agents) played nothing;
  ``bid_start``, ``bonus_winner`` and ``runner_up`` seats (the runner-up only with a winner);
  ``eval_step`` 0-3, in the prestige round the actor the winner or runner-up its step names;
  ``build_left`` > 0 exactly while a building decision is pending, ``build_borough``,
  ``chosen_slot`` and ``chosen_vessel`` in range, and at the vessel and borough choices a
  revealed tile and a free vessel of its colour.
* **A character ability** (addendum 1-27): ``ability`` 0-27, non-zero exactly during the
  choices of an ability, the pending choice one that ability asks, in the stage and context
  (``ability_context``) it is used from; its counts and memory in range.
* **Final scoring**: score lines, per-character end-game points and ``winner`` only after the
  end, the winner a seat.
* **The Tom log** (``tom_events.py``): ``tom_event_count`` 0-COUNT_LIMIT; the rows it covers are
  events of a seated Tom, each value in its kind's range; the rows beyond are zero.
* **The seat to move can answer**: the pending decision offers a legal action, and a turn that
  only offers characters (8, 18, 22, Phase III) has one usable.

Bids are at most ``MAX_BID_VALUE`` (a bid counts cards). Counts the rules leave open (points,
dollars, skyscrapers, press moves, decisions) are capped at ``COUNT_LIMIT``, far above any game
and low enough that no sum overflows (``CAPPED_FIELDS``). Every index the engine, the encoder
and ``determinize`` take from the record is one of the fields checked here, so a record that
passes is read within bounds, and its loops end; ``tests/tiny_york/test_state_fuzz.py`` plays on
thousands of corrupted records that pass.
"""

import numpy as np
from numpy.typing import NDArray

from ...core.jit import jit
from .abilities import (
    ANY_CARD_AS_ROUND,
    BIGGER_RESERVE,
    BOTH_PAIRS,
    CARD_AS_TWO,
    DRAW_AND_DISCARD_HAND,
    DRAW_THREE_DISCARD_TWO,
    MATCH_PAIR_FROM_RESERVE,
    PLAY_FROM_RESERVE,
    PRESS_BACK_AS_WILDS,
    REFRESH_RESERVE,
    REPLACE_NEUTRAL,
    SWAP_CHARACTER,
    TAKE_BACK_PLAYED,
    TWO_SINGLE_CARDS,
    any_character_usable,
)
from .actions import NUM_ACTIONS
from .bot_moves import (
    DRAW_DISCARDED,
    DRAW_PLAYED,
    EV_A,
    EV_KIND,
    EV_SEAT,
    NOTHING,
    NUM_TOM_EVENT_KINDS,
    TOM_BUILD,
    TOM_DRAW,
    TOM_EVENT_CAPACITY,
    TOM_EVENT_FIELDS,
    TOM_EVENT_RANGES,
    TOM_NO_EVENT,
)
from .bots import TOM_MAX_PER_BOROUGH
from .characters import NO_LIMIT
from .components import (
    BASE_VALUES,
    CARDS_PER_TYPE,
    CHARACTER_ELEVATOR_COPIES,
    CHARACTER_FREE,
    CHARACTER_PHASE,
    ELEVATOR,
    ELEVATOR_COLUMNS,
    ELEVATOR_STACK_SIZES,
    MAX_PAIRS,
    MAX_SEATS,
    MAX_TILE_VALUE,
    MIN_PARTICIPANTS,
    NEUTRAL,
    NEUTRAL_PRESS_START,
    NEUTRAL_SKYSCRAPERS_PER_BOROUGH,
    NUM_ACTIVE_CHARACTERS,
    NUM_BIDDING_ROUNDS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_COLOURS,
    NUM_GAME_ROUNDS,
    NUM_PRESTIGE_TILES,
    NUM_START_STACKS,
    NUM_TILE_VALUES,
    NUM_TILES,
    NUM_VESSELS,
    PAIRS_PER_AGENT,
    PHASE_I,
    PLANS,
    PRESS_LAST_SPACE,
    PRESTIGE,
    PRESTIGE_REVEALED_PER_ROUND,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    SKYSCRAPERS,
    START_RESERVE,
    TILE_CHARACTER,
    TILE_IS_START,
    TILE_VALUE,
    TOM_LEVEL_CODES,
    TOM_MAX_DRAW,
    TOM_MIN_DRAW,
    TOM_MODES,
    VESSEL_COLOUR,
    WILD,
)
from .legal import fill_legal_mask
from .press import press_order
from .rules import num_pairs_dealt
from .state import (
    CTX_AFTER_EVALUATION,
    CTX_AFTER_PICK,
    CTX_BID,
    CTX_DECLARE_BID_LAST,
    CTX_PICK,
    DEC_AFTER_EVALUATION,
    DEC_AFTER_PICK,
    DEC_BID,
    DEC_BUILD,
    DEC_CHARACTER_BOROUGH,
    DEC_CHARACTER_CARD,
    DEC_CHARACTER_ELEVATOR,
    DEC_CHARACTER_PAIR,
    DEC_CHARACTER_PAIR_CARD,
    DEC_CHARACTER_STEPS,
    DEC_CHARACTER_TILE,
    DEC_DECLARE_BID_LAST,
    DEC_ELEVATOR,
    DEC_GAME_OVER,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    DEC_START_STACK,
    DECISION_NAMES,
    EMPTY,
    LOC_DISPLAY,
    LOC_ELEVATOR_STACK,
    LOC_OWNED,
    LOC_REMOVED,
    LOC_START_STACK,
    NO_SEAT,
    PRESTIGE_IN_STACK,
    PRESTIGE_REMOVED,
    PRESTIGE_REVEALED,
    PRESTIGE_STEP_DONE,
    PRESTIGE_STEP_RUNNER_UP,
    RNG_WORDS,
    STACK_HIDDEN,
    STACK_REMOVED,
    STACK_REVEALED,
    STACK_TAKEN,
    STAGE_BIDDING,
    STAGE_DECLARE_BID_LAST,
    STAGE_EVALUATE,
    STAGE_GAME_OVER,
    STAGE_NAMES,
    STAGE_PHASE1,
    STAGE_PHASE3,
    STAGE_RETURN_CARDS,
    STAGE_START_CHARACTERS,
    STATE_DTYPE,
)

# --- bounds ------------------------------------------------------------------------------------
COUNT_LIMIT = 10_000  # points, dollars, skyscrapers, decisions: far above any game
# A bid counts cards (R10: of the round's type, wilds, plans; a few abilities add 1 or 2): never
# all the cards of the game, the most the Tom log (int8 values, tom_events.py) holds for a bid.
MAX_BID_VALUE = NUM_CARDS
# The fields COUNT_LIMIT caps: no real game comes near it, so only a record already near it can
# be pushed past it by playing on.
CAPPED_FIELDS = ("num_decisions", "skyscrapers", "points", "dollars", "board_skyscrapers",
                 "press_moves", "press_height", "exchanges_left", "build_left",
                 "score_lines", "end_character_points")
NUM_STAGES = len(STAGE_NAMES)
NUM_DECISIONS = len(DECISION_NAMES)
FINAL_ROUND = NUM_GAME_ROUNDS + 1  # the round counter once round 5 is over
RNG_WORD_LIMIT = 1 << 32  # the generator's words are 32-bit (rng.py)
TOM_MODE_COUNT = len(TOM_MODES)
NUM_CONTEXTS = CTX_DECLARE_BID_LAST + 1
NUM_LOCATIONS = LOC_REMOVED + 1
NUM_STACK_STATES = STACK_REMOVED + 1
NUM_EVAL_STEPS = PRESTIGE_STEP_DONE + 1
# Character 3 adds one reserve card per use, once per game round per tile.
MAX_RESERVE = START_RESERVE + NUM_GAME_ROUNDS * int(CHARACTER_ELEVATOR_COPIES[BIGGER_RESERVE])
ABILITY_MEMORY_HIGH = MAX_PAIRS  # it holds card types, a pair slot (2) or a tile value (7)
PAIR_MEMORY = 2  # ability_memory[2:4]: the pair just taken (character 8)
SEVEN_MEMORY_LOW = 1  # character 7 keeps a tile value 1-5 in ability_memory[0]


def _tom_level_table():
    """[mode, draw] -> the solo rules' level 1-12, or 0 for a code off the table."""
    table = np.zeros((TOM_MODE_COUNT, TOM_MAX_DRAW + 1), np.int16)
    for level, code in enumerate(TOM_LEVEL_CODES, start=1):
        table[TOM_MODES.index(code[0]), int(code[1])] = level
    return table


TOM_LEVEL_TABLE = _tom_level_table()

# Which decisions each stage may wait on between two calls (the others run automatically).
_CHARACTER_CHOICES = (DEC_CHARACTER_CARD, DEC_CHARACTER_TILE, DEC_CHARACTER_ELEVATOR,
                      DEC_CHARACTER_PAIR_CARD, DEC_CHARACTER_PAIR, DEC_CHARACTER_BOROUGH,
                      DEC_CHARACTER_STEPS)
_STAGE_WAITS = {
    STAGE_START_CHARACTERS: (DEC_START_STACK,),
    STAGE_PHASE1: (DEC_PICK_PAIR, DEC_AFTER_PICK) + _CHARACTER_CHOICES,
    STAGE_DECLARE_BID_LAST: (DEC_DECLARE_BID_LAST,),
    STAGE_BIDDING: (DEC_BID,) + _CHARACTER_CHOICES,
    STAGE_EVALUATE: (DEC_ELEVATOR, DEC_PRESTIGE_TILE, DEC_PRESTIGE_VESSEL, DEC_PRESTIGE_BOROUGH,
                     DEC_BUILD),
    STAGE_RETURN_CARDS: (DEC_AFTER_EVALUATION,) + _CHARACTER_CHOICES,
    STAGE_PHASE3: (DEC_PHASE3,),
    STAGE_GAME_OVER: (DEC_GAME_OVER,),
}


def _stage_decisions():
    table = np.zeros((NUM_STAGES, NUM_DECISIONS), np.bool_)
    for stage, decisions in _STAGE_WAITS.items():
        table[stage, list(decisions)] = True
    return table


STAGE_DECISIONS = _stage_decisions()

# The abilities that ask for choices (addendum 1-27), the choices they ask and where they are
# used from; the others act at once and never leave ``ability`` set between calls.
_ABILITY_CHOICES = {
    DRAW_AND_DISCARD_HAND: (DEC_CHARACTER_CARD,), TWO_SINGLE_CARDS: (DEC_CHARACTER_PAIR_CARD,),
    BOTH_PAIRS: (DEC_CHARACTER_PAIR,), DRAW_THREE_DISCARD_TWO: (DEC_CHARACTER_CARD,),
    SWAP_CHARACTER: (DEC_CHARACTER_TILE, DEC_CHARACTER_ELEVATOR),
    MATCH_PAIR_FROM_RESERVE: (DEC_CHARACTER_CARD,), REPLACE_NEUTRAL: (DEC_CHARACTER_BOROUGH,),
    REFRESH_RESERVE: (DEC_CHARACTER_CARD,), ANY_CARD_AS_ROUND: (DEC_CHARACTER_CARD,),
    PRESS_BACK_AS_WILDS: (DEC_CHARACTER_STEPS,), PLAY_FROM_RESERVE: (DEC_CHARACTER_CARD,),
    CARD_AS_TWO: (DEC_CHARACTER_CARD,), TAKE_BACK_PLAYED: (DEC_CHARACTER_CARD,),
}


def _ability_tables():
    """[c, d]: ability c may wait on choice d; [c]: the context it is used from; [ctx]: stage."""
    choices = np.zeros((NUM_ACTIVE_CHARACTERS + 1, NUM_DECISIONS), np.bool_)
    context = np.full(NUM_ACTIVE_CHARACTERS + 1, -1, np.int64)
    for c, decisions in _ABILITY_CHOICES.items():
        choices[c, list(decisions)] = True
        if c == MATCH_PAIR_FROM_RESERVE:
            context[c] = CTX_AFTER_PICK
        elif c == TAKE_BACK_PLAYED:
            context[c] = CTX_AFTER_EVALUATION
        else:
            context[c] = CTX_PICK if CHARACTER_PHASE[c] == PHASE_I else CTX_BID
    stage = np.full(NUM_CONTEXTS, -1, np.int64)
    stage[CTX_PICK] = STAGE_PHASE1
    stage[CTX_AFTER_PICK] = STAGE_PHASE1
    stage[CTX_BID] = STAGE_BIDDING
    stage[CTX_AFTER_EVALUATION] = STAGE_RETURN_CARDS
    return choices, context, stage


ABILITY_CHOICES, ABILITY_CONTEXT, CONTEXT_STAGE = _ability_tables()

# --- error codes: the index into ERRORS, whose entry names the field and the rule -----------
ERRORS = (
    ("", "valid"),
    ("num_seats", f"must be {MIN_PARTICIPANTS}-{MAX_SEATS} participants (R1)"),
    ("num_agents", "must be 1 to num_seats agents (R1)"),
    ("is_tom", "must be 1 exactly for the seats after the agents up to num_seats (R1)"),
    ("tom_mode", f"must be 0-{TOM_MODE_COUNT - 1} (A-C) for a Tom and 0 for any other seat"),
    ("tom_draw", f"must be {TOM_MIN_DRAW}-{TOM_MAX_DRAW} for a Tom and 0 for any other seat"),
    ("tom_level", "must be the solo rules' level of the Tom's mode and draw (0 off the table) "
                  "and 0 for any other seat"),
    ("round", f"must be 0-{FINAL_ROUND}"),
    ("stage", f"must be 0-{NUM_STAGES - 1} (STAGE_NAMES)"),
    ("decision", f"must be 0-{NUM_DECISIONS - 1} (DECISION_NAMES)"),
    ("stage", "does not fit the round: round 0 is the draft, rounds 1-5 wait for a decision, "
              "round 6 is the end"),
    ("decision", "is not one the stage waits on (never DEC_NONE between calls)"),
    ("bid_round", f"must be 0-{NUM_BIDDING_ROUNDS - 1} during a bidding round and "
                  f"{NUM_BIDDING_ROUNDS} after the sixth (0 before the first)"),
    ("actor", "must be a seated agent while the game runs and NO_SEAT at its end"),
    ("rng", "words must be 32-bit and not all zero"),
    ("num_decisions", f"must be 0-{COUNT_LIMIT}"),
    ("draw_count", f"must be 0-{NUM_CARDS}"),
    ("draw_pile", f"must hold card types 0-{NUM_CARD_TYPES - 1} below draw_count and EMPTY "
                  "above it (D6)"),
    ("discard", f"counts must be 0-{CARDS_PER_TYPE}"),
    ("hand", f"counts must be 0-{CARDS_PER_TYPE}, 0 for unused seats"),
    ("reserve", f"counts must be 0-{CARDS_PER_TYPE}, 0 for Toms and unused seats"),
    ("reserve_size", f"must be {START_RESERVE}-{MAX_RESERVE} for an agent, 0 otherwise"),
    ("reserve", "must hold reserve_size cards (fewer only while character 8 or 12 is resolved)"),
    ("reserve_faceup", "must be 0 up to the reserve's count of that type"),
    ("num_pairs", "must be the number of pairs R6 deals (0 before round 1)"),
    ("pairs", "slots must hold a card type or EMPTY, EMPTY beyond num_pairs and outside Phase I"),
    ("played", f"counts must be 0-{CARDS_PER_TYPE}, only during a bidding round, 0 for unused "
               "seats"),
    ("cards", f"each type must be accounted for exactly {CARDS_PER_TYPE} times (draw pile, "
              "discard, hands, reserves, pairs, played)"),
    ("pairs_taken", f"must be 0-{PAIRS_PER_AGENT} for an agent and 0 otherwise"),
    ("hand", "of a Tom must fit his rules during a bidding round (R21, D4): no card of an earlier "
             "round, none of this round once he has bid, and one when he played a wild at once"),
    ("tile_loc", f"must be 0-{NUM_LOCATIONS - 1} (LOC_*)"),
    ("tile_owner", "must be a seat exactly when the tile is owned, NO_SEAT otherwise"),
    ("tile_used", "must be 0/1, 1 only for an agent's owned tile of characters 1-27"),
    ("tile_dollar", "must be 0/1, 1 only on a used tile that is not free"),
    ("start_stacks", "must hold each value-1 start tile once on the left and each value-5 one "
                     "on the right"),
    ("start_stack_status", "must be revealed as R4 says during the draft, taken or removed after "
                           "it, with the tiles where the status says"),
    ("elevator_count", "must be 0 up to the number of tiles of that value"),
    ("elevator_stack", "must hold tiles of the row's value (in the stack) below elevator_count "
                       "and EMPTY above"),
    ("elevator_display", "must hold EMPTY or tiles of the row's value (on display), no gap "
                         "while the row's stack has tiles"),
    ("tile_loc", "does not match where the tile is (each tile exactly once)"),
    ("borough_sequence", "must hold each sequence tile A-E, X once"),
    ("borough_base", "must hold each base value tile once"),
    ("mayor", "must be on the borough of the round's letter (NO_SEAT before round 1)"),
    ("statue_flipped", "must be 0 or 1"),
    ("skyscrapers", f"must be 0-{COUNT_LIMIT}, at most {NEUTRAL_SKYSCRAPERS_PER_BOROUGH} neutral "
                    f"and {TOM_MAX_PER_BOROUGH} of a Tom's, 0 for unused seats"),
    ("prestige_next", "must be 2 per round played (R3: two tiles revealed each round)"),
    ("prestige_stack", "must hold each prestige tile once"),
    ("prestige_revealed", "slots must hold this round's revealed tiles or EMPTY"),
    ("prestige_loc", "does not match the stack, the revealed slots and the boroughs"),
    ("borough_prestige", "must be the sum of the prestige tiles placed in the borough"),
    ("vessel_owner", "must be a seat or VESSEL_ON_BOARD, one vessel per prestige tile placed, of "
                     "its colour (R15)"),
    ("points", f"must be 0-{COUNT_LIMIT}, 0 for unused seats"),
    ("dollars", f"must be 0-{COUNT_LIMIT}, 0 for unused seats"),
    ("board_skyscrapers", f"must be 0-{COUNT_LIMIT}, 0 for unused seats"),
    ("press_space", f"must be 0-{PRESS_LAST_SPACE}, the neutral token on its setup space, 0 for "
                    "unused seats"),
    ("press_moves", f"must be num_seats to {COUNT_LIMIT}"),
    ("press_height", "must be 1..press_moves (negative on the last space), all different; 0 "
                     "for the neutral token and unused seats"),
    ("order", "must hold the agents (draft, Phase I) or all participants, each once, then "
              "NO_SEAT"),
    ("cursor", "is out of range for the stage or does not point at the actor"),
    ("bid_start", "must be a seat"),
    ("bid_value", f"must be 0-{MAX_BID_VALUE} (a bid counts cards), 0 for unused seats"),
    ("bid_done", "must be 0 or 1, 0 for unused seats"),
    ("bid_done", "must be 1 for the seats that have bid in this bidding round and 0 for the others "
                 "(R3: each bids once, in order), with nothing bid by those still to bid"),
    ("exchanges_left", f"must be 0-{NUM_CARDS}"),
    ("bonus_winner", "must be a seat or NO_SEAT"),
    ("runner_up", "must be NO_SEAT or a seat other than the bonus winner"),
    ("eval_step", f"must be 0-{NUM_EVAL_STEPS - 1}, and name the prestige actor's turn"),
    ("build_left", f"must be 1-{COUNT_LIMIT} exactly while a building decision is pending, 0 "
                   "otherwise"),
    ("build_borough", f"must be a borough 0-{NUM_BOROUGHS - 1}"),
    ("chosen_slot", "must be a revealed slot holding a tile at the vessel and borough choices"),
    ("chosen_vessel", "must be a vessel on the board of the chosen tile's colour at the borough "
                      "choice"),
    ("bid_base", "must be 0 or 1, 0 for unused seats"),
    ("icons_played", f"counts must be 0-{CARDS_PER_TYPE}, 0 for unused seats"),
    ("double_prestige", "must be 0 or 1, 0 for unused seats"),
    ("character18_used", "must be 0 or 1, 0 while character 18 may still be declared"),
    ("build_bonus_due", "must be 0 or 1"),
    ("ability", f"must be 0-{NUM_ACTIVE_CHARACTERS}, set exactly while one of its choices is "
                "pending, with what it needs (11: a skyscraper on the board)"),
    ("ability_context", f"must be 0-{NUM_CONTEXTS - 1} and fit the ability and the stage"),
    ("ability_count", "must be below ability_limit and within the ability's range"),
    ("ability_limit", f"must be 0-{NO_LIMIT}"),
    ("ability_memory", "holds a value the pending ability cannot use"),
    ("score_lines", "must be 0 before the end and for unused seats"),
    ("end_character_points", "must be 0 before the end and for unused seats"),
    ("winner", "must be NO_SEAT before the end and a seat after it"),
    ("pairs", "too few pairs are left for the picks still to come in Phase I (R6)"),
    ("decision", "offers the seat to move no legal action"),
    ("decision", "is a character turn but no character of the actor's is usable"),
    ("tom_event_count", f"must be 0-{COUNT_LIMIT}"),
    ("tom_events", "must hold, below tom_event_count, events of a seated Tom with values in their "
     "kind's ranges (tom_events.TOM_EVENT_RANGES) and zeros beyond"),
)
(OK, E_NUM_SEATS, E_NUM_AGENTS, E_IS_TOM, E_TOM_MODE, E_TOM_DRAW, E_TOM_LEVEL, E_ROUND, E_STAGE,
 E_DECISION, E_STAGE_ROUND, E_STAGE_DECISION, E_BID_ROUND, E_ACTOR, E_RNG, E_NUM_DECISIONS,
 E_DRAW_COUNT, E_DRAW_PILE, E_DISCARD, E_HAND, E_RESERVE, E_RESERVE_SIZE, E_RESERVE_FULL,
 E_RESERVE_FACEUP, E_NUM_PAIRS, E_PAIRS, E_PLAYED, E_CARDS, E_PAIRS_TAKEN, E_TOM_SUPPLY, E_TILE_LOC,
 E_TILE_OWNER, E_TILE_USED, E_TILE_DOLLAR, E_START_STACKS, E_START_STATUS, E_ELEVATOR_COUNT,
 E_ELEVATOR_STACK, E_ELEVATOR_DISPLAY, E_TILE_WHERE, E_SEQUENCE, E_BASE, E_MAYOR, E_STATUE,
 E_SKYSCRAPERS, E_PRESTIGE_NEXT, E_PRESTIGE_STACK, E_PRESTIGE_REVEALED, E_PRESTIGE_LOC,
 E_BOROUGH_PRESTIGE, E_VESSEL_OWNER, E_POINTS, E_DOLLARS, E_BOARD, E_PRESS_SPACE, E_PRESS_MOVES,
 E_PRESS_HEIGHT, E_ORDER, E_CURSOR, E_BID_START, E_BID_VALUE, E_BID_DONE, E_BID_TURNS, E_EXCHANGES,
 E_BONUS_WINNER, E_RUNNER_UP, E_EVAL_STEP, E_BUILD_LEFT, E_BUILD_BOROUGH, E_CHOSEN_SLOT,
 E_CHOSEN_VESSEL, E_BID_BASE, E_ICONS, E_DOUBLE_PRESTIGE, E_CHARACTER18, E_BUILD_BONUS,
 E_ABILITY, E_CONTEXT, E_ABILITY_COUNT, E_ABILITY_LIMIT, E_ABILITY_MEMORY, E_SCORE_LINES,
 E_END_POINTS, E_WINNER, E_PAIRS_SHORT, E_NO_LEGAL_ACTION, E_NO_CHARACTER, E_TOM_EVENT_COUNT,
 E_TOM_EVENTS) = range(len(ERRORS))


def error_message(code: int) -> str:
    """The words for error ``code``: the field, then what it must be."""
    field, rule = ERRORS[code]
    return f"invalid game state: {field} {rule}"


class StateError(ValueError):
    """A record the engine could not have made: ``code`` indexes ERRORS (the field and its rule),
    ``game`` is its index in a batch (None for a single game).

    The compiled checks raise it with a constant code (``raise StateError(E_ROUND)``), as numba
    allows in nopython mode. A function that raises, or lets a raise pass through it, must hold no
    array: numba skips the frees of the frames a raise leaves, so every scratch array lives in a
    predicate that returns a bool to the check that raises (``_each_once``, ``_cards_accounted``,
    ``_tiles_where_they_say``, ...; ``tests/tiny_york/test_validate_frees.py`` counts the frees)."""

    def __init__(self, code: int, game: int | None = None) -> None:
        where = "" if game is None else f"game {game} of the batch: "
        super().__init__(where + error_message(code))
        self.code, self.game = code, game

    def __reduce__(self):
        return StateError, (self.code, self.game)


# --- small predicates ----------------------------------------------------------------------------
@jit
def _in(x, low, high):
    """low <= x < high."""
    return low <= x < high


@jit
def _is_flag(x):
    return x == 0 or x == 1


@jit
def _seated(st, seat):
    return 0 <= seat < st["num_seats"]


@jit
def _is_agent(st, seat):
    return _seated(st, seat) and st["is_tom"][seat] == 0


@jit
def _in_bidding_round(stage):
    """The stages of a bidding round that wait for decisions."""
    return (stage == STAGE_DECLARE_BID_LAST or stage == STAGE_BIDDING or stage == STAGE_EVALUATE
            or stage == STAGE_RETURN_CARDS)


@jit
def _is_character_choice(d):
    return (d == DEC_CHARACTER_CARD or d == DEC_CHARACTER_TILE or d == DEC_CHARACTER_ELEVATOR
            or d == DEC_CHARACTER_PAIR_CARD or d == DEC_CHARACTER_PAIR
            or d == DEC_CHARACTER_BOROUGH or d == DEC_CHARACTER_STEPS)


@jit
def _each_once(values, low, high):
    """Every entry is in [low, high) and no value appears twice."""
    seen = np.zeros(high - low, np.bool_)
    for k in range(values.shape[0]):
        x = values[k]
        if not _in(x, low, high) or seen[x - low]:
            return False
        seen[x - low] = True
    return True


@jit
def _seat_rows_ok(rows, n, low, high):
    """Every entry of the seat rows below ``n`` is in [low, high) and every entry after is 0."""
    for seat in range(rows.shape[0]):
        for t in range(rows.shape[1]):
            x = rows[seat, t]
            if seat < n and not _in(x, low, high):
                return False
            if seat >= n and x != 0:
                return False
    return True


@jit
def _seat_values_ok(values, n, low, high):
    """Every entry below ``n`` is in [low, high) and every entry after is 0."""
    for seat in range(values.shape[0]):
        if seat < n and not _in(values[seat], low, high):
            return False
        if seat >= n and values[seat] != 0:
            return False
    return True


# --- who plays and progress ---------------------------------------------------------------------
@jit
def _check_players(st):
    n = st["num_seats"]
    if not _in(n, MIN_PARTICIPANTS, MAX_SEATS + 1):
        raise StateError(E_NUM_SEATS)
    if not _in(st["num_agents"], 1, n + 1):
        raise StateError(E_NUM_AGENTS)
    for seat in range(MAX_SEATS):
        tom = st["num_agents"] <= seat < n
        if st["is_tom"][seat] != (1 if tom else 0):
            raise StateError(E_IS_TOM)
        mode, draw, level = st["tom_mode"][seat], st["tom_draw"][seat], st["tom_level"][seat]
        if not tom:
            if mode != 0:
                raise StateError(E_TOM_MODE)
            if draw != 0:
                raise StateError(E_TOM_DRAW)
            if level != 0:
                raise StateError(E_TOM_LEVEL)
            continue
        if not _in(mode, 0, TOM_MODE_COUNT):
            raise StateError(E_TOM_MODE)
        if not _in(draw, TOM_MIN_DRAW, TOM_MAX_DRAW + 1):
            raise StateError(E_TOM_DRAW)
        if level != TOM_LEVEL_TABLE[mode, draw]:
            raise StateError(E_TOM_LEVEL)


@jit
def _expected_bid_round_ok(st):
    """bid_round: 0 before the first bidding round of the game, 0-5 during one, 6 after the
    sixth of a round until the next Phase I ends."""
    stage, r = st["stage"], st["bid_round"]
    if stage == STAGE_START_CHARACTERS:
        return r == 0
    if stage == STAGE_PHASE1:
        return r == (0 if st["round"] == 1 else NUM_BIDDING_ROUNDS)
    if _in_bidding_round(stage):
        return _in(r, 0, NUM_BIDDING_ROUNDS)
    return r == NUM_BIDDING_ROUNDS


@jit
def _check_progress(st):
    rnd, stage, d = st["round"], st["stage"], st["decision"]
    if not _in(rnd, 0, FINAL_ROUND + 1):
        raise StateError(E_ROUND)
    if not _in(stage, 0, NUM_STAGES):
        raise StateError(E_STAGE)
    if not _in(d, 0, NUM_DECISIONS):
        raise StateError(E_DECISION)
    if (rnd == 0) != (stage == STAGE_START_CHARACTERS) or (
            (rnd == FINAL_ROUND) != (stage == STAGE_GAME_OVER)):
        raise StateError(E_STAGE_ROUND)
    if not STAGE_DECISIONS[stage, d]:
        raise StateError(E_STAGE_DECISION)
    if not _expected_bid_round_ok(st):
        raise StateError(E_BID_ROUND)
    if d == DEC_ELEVATOR and st["bid_round"] != ELEVATOR:
        raise StateError(E_STAGE_DECISION)
    prestige_decision = d == DEC_PRESTIGE_TILE or d == DEC_PRESTIGE_VESSEL or d == DEC_PRESTIGE_BOROUGH
    if prestige_decision and st["bid_round"] != PRESTIGE:
        raise StateError(E_STAGE_DECISION)
    if d == DEC_BUILD and st["bid_round"] != PRESTIGE and st["bid_round"] != SKYSCRAPERS:
        raise StateError(E_STAGE_DECISION)
    if d == DEC_GAME_OVER:
        if st["actor"] != NO_SEAT:
            raise StateError(E_ACTOR)
    elif not _is_agent(st, st["actor"]):
        raise StateError(E_ACTOR)
    total = 0
    for k in range(RNG_WORDS):
        if not _in(st["rng"][k], 0, RNG_WORD_LIMIT):
            raise StateError(E_RNG)
        total += st["rng"][k]
    if total == 0:
        raise StateError(E_RNG)
    if not _in(st["num_decisions"], 0, COUNT_LIMIT + 1):
        raise StateError(E_NUM_DECISIONS)


# --- cards ---------------------------------------------------------------------------------------
@jit
def _reserve_may_be_short(st, seat):
    """Characters 8 and 12 take reserve cards and refill the reserve when they end."""
    c = st["ability"]
    return seat == st["actor"] and (c == MATCH_PAIR_FROM_RESERVE or c == REFRESH_RESERVE)


@jit
def _check_reserves(st):
    n = st["num_seats"]
    for seat in range(MAX_SEATS):
        agent = seat < n and st["is_tom"][seat] == 0
        size = st["reserve_size"][seat]
        if agent and not _in(size, START_RESERVE, MAX_RESERVE + 1):
            raise StateError(E_RESERVE_SIZE)
        if not agent and size != 0:
            raise StateError(E_RESERVE_SIZE)
        held = 0
        for t in range(NUM_CARD_TYPES):
            x = st["reserve"][seat, t]
            if not _in(x, 0, CARDS_PER_TYPE + 1) or (not agent and x != 0):
                raise StateError(E_RESERVE)
            held += x
        if held > size or (held < size and not _reserve_may_be_short(st, seat)):
            raise StateError(E_RESERVE_FULL)
        for t in range(NUM_CARD_TYPES):
            if not _in(st["reserve_faceup"][seat, t], 0, st["reserve"][seat, t] + 1):
                raise StateError(E_RESERVE_FACEUP)


@jit
def _check_pairs(st):
    expected = 0 if st["round"] == 0 else num_pairs_dealt(st)
    if st["num_pairs"] != expected:
        raise StateError(E_NUM_PAIRS)
    phase1 = st["stage"] == STAGE_PHASE1
    for p in range(MAX_PAIRS):
        for k in range(2):
            c = st["pairs"][p, k]
            if not _in(c, EMPTY, NUM_CARD_TYPES):
                raise StateError(E_PAIRS)
            if c != EMPTY and (p >= st["num_pairs"] or not phase1):
                raise StateError(E_PAIRS)


@jit
def _check_card_counts(st):
    n = st["num_seats"]
    if not _in(st["draw_count"], 0, NUM_CARDS + 1):
        raise StateError(E_DRAW_COUNT)
    for i in range(NUM_CARDS):
        c = st["draw_pile"][i]
        if i < st["draw_count"] and not _in(c, 0, NUM_CARD_TYPES):
            raise StateError(E_DRAW_PILE)
        if i >= st["draw_count"] and c != EMPTY:
            raise StateError(E_DRAW_PILE)
    for t in range(NUM_CARD_TYPES):
        if not _in(st["discard"][t], 0, CARDS_PER_TYPE + 1):
            raise StateError(E_DISCARD)
    if not _seat_rows_ok(st["hand"], n, 0, CARDS_PER_TYPE + 1):
        raise StateError(E_HAND)
    _check_reserves(st)
    _check_pairs(st)
    if not _seat_rows_ok(st["played"], n if _in_bidding_round(st["stage"]) else 0, 0,
                         CARDS_PER_TYPE + 1):
        raise StateError(E_PLAYED)
    if not _cards_accounted(st):
        raise StateError(E_CARDS)


@jit
def _cards_accounted(st):
    """Each type: draw pile + discard + hands + reserves + pairs + played = 15."""
    counts = np.zeros(NUM_CARD_TYPES, np.int64)
    for i in range(st["draw_count"]):
        counts[st["draw_pile"][i]] += 1
    for p in range(MAX_PAIRS):
        for k in range(2):
            if st["pairs"][p, k] != EMPTY:
                counts[st["pairs"][p, k]] += 1
    for t in range(NUM_CARD_TYPES):
        counts[t] += st["discard"][t]
        for seat in range(MAX_SEATS):
            counts[t] += st["hand"][seat, t] + st["reserve"][seat, t] + st["played"][seat, t]
        if counts[t] != CARDS_PER_TYPE:
            return False
    return True


@jit
def _check_pairs_taken(st):
    for seat in range(MAX_SEATS):
        high = PAIRS_PER_AGENT if _is_agent(st, seat) else 0
        if not _in(st["pairs_taken"][seat], 0, high + 1):
            raise StateError(E_PAIRS_TAKEN)


@jit
def _tom_supply_ok(st, tom):
    """R21 and the solo Phase II draw: during a bidding round Tom holds no card of an earlier
    round (he played or discarded them) nor of this one once he has bid; a wild he played at
    once before his bid shows a card of the round in his supply. Building plans and wilds are
    wild for him and may stay (D4)."""
    r = st["bid_round"]
    for t in range(NUM_CARD_TYPES):
        if t == PLANS or t == WILD or st["hand"][tom, t] == 0:
            continue
        if t < r or (t == r and st["bid_done"][tom] != 0):
            return False
    wild_played = st["played"][tom, PLANS] + st["played"][tom, WILD] > 0
    if r != PLANS and st["bid_done"][tom] == 0 and wild_played:
        return st["hand"][tom, r] > 0
    return True


@jit
def _check_tom_supplies(st):
    if not _in_bidding_round(st["stage"]):
        return
    for tom in range(st["num_agents"], st["num_seats"]):
        if not _tom_supply_ok(st, tom):
            raise StateError(E_TOM_SUPPLY)


# --- character tiles -----------------------------------------------------------------------------
@jit
def _check_tile_fields(st):
    for tile in range(NUM_TILES):
        loc, owner = st["tile_loc"][tile], st["tile_owner"][tile]
        if not _in(loc, 0, NUM_LOCATIONS):
            raise StateError(E_TILE_LOC)
        if loc == LOC_OWNED and not _seated(st, owner):
            raise StateError(E_TILE_OWNER)
        if loc != LOC_OWNED and owner != NO_SEAT:
            raise StateError(E_TILE_OWNER)
        used, dollar = st["tile_used"][tile], st["tile_dollar"][tile]
        if not _is_flag(used):
            raise StateError(E_TILE_USED)
        if used == 1 and (loc != LOC_OWNED or st["is_tom"][owner] != 0
                          or TILE_CHARACTER[tile] > NUM_ACTIVE_CHARACTERS):
            raise StateError(E_TILE_USED)
        if not _is_flag(dollar):
            raise StateError(E_TILE_DOLLAR)
        if dollar == 1 and (used == 0 or CHARACTER_FREE[TILE_CHARACTER[tile]] != 0):
            raise StateError(E_TILE_DOLLAR)


@jit
def _revealed_stacks(st):
    """R4: participants + 1 stacks are revealed without Toms, one per participant with Toms."""
    if st["num_agents"] < st["num_seats"]:
        return st["num_seats"]
    return st["num_seats"] + 1


@jit
def _start_status_ok(st, k):
    """Stack ``k``'s status for the stage, and its tiles where the status puts them."""
    status = st["start_stack_status"][k]
    if not _in(status, 0, NUM_STACK_STATES):
        return False
    draft = st["stage"] == STAGE_START_CHARACTERS
    if draft and k >= _revealed_stacks(st):
        allowed = status == STACK_HIDDEN
    elif draft:
        allowed = status == STACK_REVEALED or status == STACK_TAKEN
    else:
        allowed = status == STACK_TAKEN or status == STACK_REMOVED
    if not allowed:
        return False
    for column in range(2):
        loc = st["tile_loc"][st["start_stacks"][k, column]]
        if status == STACK_HIDDEN or status == STACK_REVEALED:
            if loc != LOC_START_STACK:
                return False
        elif status == STACK_TAKEN:
            if loc != LOC_OWNED and loc != LOC_REMOVED:
                return False
        elif loc != LOC_REMOVED:
            return False
    return True


@jit
def _check_start_stacks(st):
    """R4: each start tile once, value-1 on the left, value-5 on the right; each stack's status
    fits the stage, with one stack taken per pick (``cursor`` during the draft, every seat's
    after it)."""
    for column in range(2):
        # value-1 tiles are tiles 0..5, value-5 tiles 6..11 (components._build_tiles)
        if not _each_once(st["start_stacks"][:, column], column * NUM_START_STACKS,
                          (column + 1) * NUM_START_STACKS):
            raise StateError(E_START_STACKS)
    taken = 0
    for k in range(NUM_START_STACKS):
        if not _start_status_ok(st, k):
            raise StateError(E_START_STATUS)
        if st["start_stack_status"][k] == STACK_TAKEN:
            taken += 1
    draft = st["stage"] == STAGE_START_CHARACTERS
    if (draft and taken != st["cursor"]) or (not draft and taken != st["num_seats"]):
        raise StateError(E_START_STATUS)


@jit
def _check_elevator(st):
    """Each row's stack holds ``elevator_count`` tiles of its value, then blanks; its display
    tiles of its value, with no gap while the stack has tiles."""
    for row in range(NUM_TILE_VALUES):
        count = st["elevator_count"][row]
        if not _in(count, 0, ELEVATOR_STACK_SIZES[row] + 1):
            raise StateError(E_ELEVATOR_COUNT)
        for i in range(st["elevator_stack"].shape[1]):
            tile = st["elevator_stack"][row, i]
            if i >= count:
                if tile != EMPTY:
                    raise StateError(E_ELEVATOR_STACK)
                continue
            if (not _in(tile, 0, NUM_TILES) or TILE_IS_START[tile] != 0
                    or TILE_VALUE[tile] != row + 1 or st["tile_loc"][tile] != LOC_ELEVATOR_STACK):
                raise StateError(E_ELEVATOR_STACK)
        for col in range(ELEVATOR_COLUMNS):
            tile = st["elevator_display"][row, col]
            if tile == EMPTY:
                if count > 0:
                    raise StateError(E_ELEVATOR_DISPLAY)
                continue
            if (not _in(tile, 0, NUM_TILES) or TILE_IS_START[tile] != 0
                    or TILE_VALUE[tile] != row + 1 or st["tile_loc"][tile] != LOC_DISPLAY):
                raise StateError(E_ELEVATOR_DISPLAY)


@jit
def _tiles_where_they_say(st):
    """Every tile is exactly where ``tile_loc`` says: a start tile in a start stack, owned or
    removed; an elevator tile once in its row's stack or display when it says so, and nowhere
    there otherwise (the elevator's entries are checked already)."""
    seen = np.zeros(NUM_TILES, np.int64)
    for row in range(NUM_TILE_VALUES):
        for i in range(st["elevator_count"][row]):
            seen[st["elevator_stack"][row, i]] += 1
        for col in range(ELEVATOR_COLUMNS):
            if st["elevator_display"][row, col] != EMPTY:
                seen[st["elevator_display"][row, col]] += 1
    for tile in range(NUM_TILES):
        loc = st["tile_loc"][tile]
        if TILE_IS_START[tile] != 0:
            ok = loc == LOC_START_STACK or loc == LOC_OWNED or loc == LOC_REMOVED
        else:
            in_elevator = loc == LOC_ELEVATOR_STACK or loc == LOC_DISPLAY
            ok = loc != LOC_START_STACK and seen[tile] == (1 if in_elevator else 0)
        if not ok:
            return False
    return True


@jit
def _check_tiles(st):
    """The character tiles: their fields, the start stacks, the elevator, each tile once."""
    _check_tile_fields(st)
    _check_start_stacks(st)
    _check_elevator(st)
    if not _tiles_where_they_say(st):
        raise StateError(E_TILE_WHERE)


# --- board ---------------------------------------------------------------------------------------
@jit
def _check_boroughs(st):
    """The sequence tiles and base values are the components', each once; the Mayor is on the
    round's letter (R3); the statue is a flag."""
    if not _each_once(st["borough_sequence"], 0, NUM_BOROUGHS):
        raise StateError(E_SEQUENCE)
    for b in range(NUM_BOROUGHS):
        want, have = 0, 0
        for k in range(NUM_BOROUGHS):
            want += BASE_VALUES[k] == BASE_VALUES[b]
            have += st["borough_base"][k] == BASE_VALUES[b]
        if want != have:
            raise StateError(E_BASE)
    rnd = st["round"]
    if rnd == 0:
        if st["mayor"] != NO_SEAT:
            raise StateError(E_MAYOR)
    else:
        mayor = st["mayor"]
        letter = min(rnd, NUM_GAME_ROUNDS) - 1
        if not _in(mayor, 0, NUM_BOROUGHS) or st["borough_sequence"][mayor] != letter:
            raise StateError(E_MAYOR)
    if not _is_flag(st["statue_flipped"]):
        raise StateError(E_STATUE)


@jit
def _check_skyscrapers(st):
    n = st["num_seats"]
    for b in range(NUM_BOROUGHS):
        for token in range(MAX_SEATS + 1):
            x = st["skyscrapers"][b, token]
            if token == NEUTRAL:
                high = NEUTRAL_SKYSCRAPERS_PER_BOROUGH
            elif token >= n:
                high = 0
            elif st["is_tom"][token] != 0:
                high = TOM_MAX_PER_BOROUGH
            else:
                high = COUNT_LIMIT
            if not _in(x, 0, high + 1):
                raise StateError(E_SKYSCRAPERS)


@jit
def _check_prestige(st):
    played_rounds = min(st["round"], NUM_GAME_ROUNDS)
    nxt = st["prestige_next"]
    if nxt != PRESTIGE_REVEALED_PER_ROUND * played_rounds:
        raise StateError(E_PRESTIGE_NEXT)
    if not _each_once(st["prestige_stack"], 0, NUM_PRESTIGE_TILES):
        raise StateError(E_PRESTIGE_STACK)
    revealing = 0 < st["round"] <= NUM_GAME_ROUNDS
    for k in range(PRESTIGE_REVEALED_PER_ROUND):
        tile = st["prestige_revealed"][k]
        if tile == EMPTY:
            continue
        if not revealing or tile != st["prestige_stack"][nxt - PRESTIGE_REVEALED_PER_ROUND + k]:
            raise StateError(E_PRESTIGE_REVEALED)
    if not _prestige_locs_ok(st):
        raise StateError(E_PRESTIGE_LOC)


@jit
def _prestige_locs_ok(st):
    """Each prestige tile's ``prestige_loc``: in the stack from ``prestige_next`` on, revealed in
    a revealed slot, else removed or in a borough (the stack holds each tile once)."""
    in_stack = np.zeros(NUM_PRESTIGE_TILES, np.bool_)
    for k in range(st["prestige_next"], NUM_PRESTIGE_TILES):
        in_stack[st["prestige_stack"][k]] = True
    for tile in range(NUM_PRESTIGE_TILES):
        loc = st["prestige_loc"][tile]
        shown = False
        for k in range(PRESTIGE_REVEALED_PER_ROUND):
            shown = shown or st["prestige_revealed"][k] == tile
        if in_stack[tile]:
            ok = loc == PRESTIGE_IN_STACK
        elif shown:
            ok = loc == PRESTIGE_REVEALED
        else:
            ok = loc == PRESTIGE_REMOVED or _in(loc, 0, NUM_BOROUGHS)
        if not ok:
            return False
    return True


@jit
def _vessels_match_placed(st):
    """R15: each vessel is on the board or a seat's, one owned per prestige tile placed in a
    borough, of the tile's colour."""
    placed = np.zeros(NUM_COLOURS, np.int64)
    for tile in range(NUM_PRESTIGE_TILES):
        if _in(st["prestige_loc"][tile], 0, NUM_BOROUGHS):
            placed[PRESTIGE_TILE_COLOUR[tile]] += 1
    for v in range(NUM_VESSELS):
        owner = st["vessel_owner"][v]
        if owner == NO_SEAT:
            continue
        if not _seated(st, owner):
            return False
        placed[VESSEL_COLOUR[v]] -= 1
    for colour in range(NUM_COLOURS):
        if placed[colour] != 0:
            return False
    return True


@jit
def _check_placed_prestige(st):
    """borough_prestige sums the tiles placed; one vessel owned per tile placed, by colour."""
    for b in range(NUM_BOROUGHS):
        total = 0
        for tile in range(NUM_PRESTIGE_TILES):
            if st["prestige_loc"][tile] == b:
                total += PRESTIGE_TILE_VALUE[tile]
        if st["borough_prestige"][b] != total:
            raise StateError(E_BOROUGH_PRESTIGE)
    if not _vessels_match_placed(st):
        raise StateError(E_VESSEL_OWNER)


# --- participants --------------------------------------------------------------------------------
@jit
def _check_participants(st):
    n = st["num_seats"]
    if not _seat_values_ok(st["points"], n, 0, COUNT_LIMIT + 1):
        raise StateError(E_POINTS)
    if not _seat_values_ok(st["dollars"], n, 0, COUNT_LIMIT + 1):
        raise StateError(E_DOLLARS)
    if not _seat_values_ok(st["board_skyscrapers"], n, 0, COUNT_LIMIT + 1):
        raise StateError(E_BOARD)
    if not _seat_values_ok(st["press_space"][:MAX_SEATS], n, 0, PRESS_LAST_SPACE + 1):
        raise StateError(E_PRESS_SPACE)
    if st["press_space"][NEUTRAL] != NEUTRAL_PRESS_START[n]:
        raise StateError(E_PRESS_SPACE)
    moves = st["press_moves"]
    if not _in(moves, n, COUNT_LIMIT + 1):
        raise StateError(E_PRESS_MOVES)
    if st["press_height"][NEUTRAL] != 0:
        raise StateError(E_PRESS_HEIGHT)
    for seat in range(MAX_SEATS):
        h = st["press_height"][seat]
        if seat >= n:
            if h != 0:
                raise StateError(E_PRESS_HEIGHT)
            continue
        last = st["press_space"][seat] == PRESS_LAST_SPACE
        if not _in(abs(h), 1, moves + 1) or (h < 0) != last:
            raise StateError(E_PRESS_HEIGHT)
        for other in range(seat):
            if abs(st["press_height"][other]) == abs(h):
                raise StateError(E_PRESS_HEIGHT)


# --- the order of play, the bidding round and the evaluation --------------------------------------
@jit
def _check_order(st):
    """The agents (draft, Phase I) or all participants, each once, then NO_SEAT."""
    stage = st["stage"]
    agents_only = stage == STAGE_START_CHARACTERS or stage == STAGE_PHASE1
    count = st["num_agents"] if agents_only else st["num_seats"]
    if not _each_once(st["order"][:count], 0, st["num_seats"]):
        raise StateError(E_ORDER)
    for i in range(MAX_SEATS):
        seat = st["order"][i]
        if i >= count and seat != NO_SEAT:
            raise StateError(E_ORDER)
        if i < count and agents_only and st["is_tom"][seat] != 0:
            raise StateError(E_ORDER)


@jit
def _phase1_turn_ok(st):
    """Phase I: the cursor walks 2 turns per agent; the actor is the agent of the turn."""
    na = st["num_agents"]
    cursor, d = st["cursor"], st["decision"]
    after_pick = d == DEC_AFTER_PICK or (
        st["ability"] != 0 and st["ability_context"] == CTX_AFTER_PICK)
    if after_pick:
        return _in(cursor, 1, PAIRS_PER_AGENT * na + 1) and st["order"][(cursor - 1) % na] == st["actor"]
    if not _in(cursor, 0, PAIRS_PER_AGENT * na):
        return False
    if st["order"][cursor % na] != st["actor"]:
        return False
    return st["pairs_taken"][st["actor"]] < PAIRS_PER_AGENT  # the pick turn is under way


@jit
def _cursor_ok(st):
    stage, cursor, n = st["stage"], st["cursor"], st["num_seats"]
    actor = st["actor"]
    if stage == STAGE_START_CHARACTERS:
        return _in(cursor, 0, st["num_agents"]) and st["order"][cursor] == actor
    if stage == STAGE_PHASE1:
        return _phase1_turn_ok(st)
    if stage == STAGE_DECLARE_BID_LAST:
        ranking = np.empty(MAX_SEATS, np.int16)
        press_order(st, ranking)  # R11: 18's holders are asked in press order
        return _in(cursor, 0, n) and ranking[cursor] == actor
    if stage == STAGE_BIDDING or stage == STAGE_RETURN_CARDS or stage == STAGE_PHASE3:
        return _in(cursor, 0, n) and st["order"][cursor] == actor
    if stage == STAGE_EVALUATE:
        if st["bid_round"] == PRESTIGE:
            return cursor == 0
        return _in(cursor, 1, n + 1) and st["order"][cursor - 1] == actor
    return _in(cursor, 0, n + 1)


@jit
def _check_bids(st):
    n = st["num_seats"]
    if not _seated(st, st["bid_start"]):
        raise StateError(E_BID_START)
    if not _seat_values_ok(st["bid_value"], n, 0, MAX_BID_VALUE + 1):
        raise StateError(E_BID_VALUE)
    if not _seat_values_ok(st["bid_done"], n, 0, 2):
        raise StateError(E_BID_DONE)
    if not _in(st["exchanges_left"], 0, NUM_CARDS + 1):
        raise StateError(E_EXCHANGES)
    winner, runner_up = st["bonus_winner"], st["runner_up"]
    if winner != NO_SEAT and not _seated(st, winner):
        raise StateError(E_BONUS_WINNER)
    if runner_up != NO_SEAT and (not _seated(st, runner_up) or winner == NO_SEAT
                                 or runner_up == winner):
        raise StateError(E_RUNNER_UP)
    if not _seat_values_ok(st["bid_base"], n, 0, 2):
        raise StateError(E_BID_BASE)
    if not _seat_rows_ok(st["icons_played"], n, 0, CARDS_PER_TYPE + 1):
        raise StateError(E_ICONS)
    if not _seat_values_ok(st["double_prestige"], n, 0, 2):
        raise StateError(E_DOUBLE_PRESTIGE)
    if not _is_flag(st["character18_used"]):
        raise StateError(E_CHARACTER18)
    if st["stage"] == STAGE_DECLARE_BID_LAST and st["character18_used"] != 0:
        raise StateError(E_CHARACTER18)
    if not _is_flag(st["build_bonus_due"]):
        raise StateError(E_BUILD_BONUS)


@jit
def _has_bid(st, i):
    """Whether the seat at ``order[i]`` has bid in this round, by the stage (R3): before the
    bids nobody, during them those before the cursor, after them everybody; Phase I and III
    keep the last bidding round's marks (none before the first)."""
    stage = st["stage"]
    if stage == STAGE_START_CHARACTERS or stage == STAGE_DECLARE_BID_LAST:
        return False
    if stage == STAGE_PHASE1:
        return st["round"] > 1
    if stage == STAGE_BIDDING:
        return i < st["cursor"]
    return True


@jit
def _check_bid_turns(st):
    """bid_done as the stage says; a seat still to bid has bid nothing and, if an agent, played
    nothing (only the actor's bid is under way)."""
    bidding = st["stage"] == STAGE_BIDDING or st["stage"] == STAGE_DECLARE_BID_LAST
    for i in range(st["num_seats"]):
        seat = st["order"][i] if bidding else i
        done = _has_bid(st, i)
        if st["bid_done"][seat] != (1 if done else 0):
            raise StateError(E_BID_TURNS)
        bidding_now = st["stage"] == STAGE_BIDDING and seat == st["actor"]
        if not bidding or done or bidding_now:
            continue
        if st["bid_value"][seat] != 0 or st["bid_base"][seat] != 0 or st["double_prestige"][seat] != 0:
            raise StateError(E_BID_TURNS)
        if st["is_tom"][seat] == 0:
            for t in range(NUM_CARD_TYPES):
                if st["played"][seat, t] != 0 or st["icons_played"][seat, t] != 0:
                    raise StateError(E_BID_TURNS)


@jit
def _check_evaluation(st):
    d = st["decision"]
    if not _in(st["eval_step"], 0, NUM_EVAL_STEPS):
        raise StateError(E_EVAL_STEP)
    prestige = d == DEC_PRESTIGE_TILE or d == DEC_PRESTIGE_VESSEL or d == DEC_PRESTIGE_BOROUGH
    if prestige or (d == DEC_BUILD and st["bid_round"] == PRESTIGE):
        # R15: the bonus winner's turn sets the step to the runner-up's, the runner-up's to done
        step = st["eval_step"]
        winner_turn = st["actor"] == st["bonus_winner"] and step == PRESTIGE_STEP_RUNNER_UP
        runner_turn = st["actor"] == st["runner_up"] and step == PRESTIGE_STEP_DONE
        if not (winner_turn or runner_turn):
            raise StateError(E_EVAL_STEP)
    building = d == DEC_BUILD
    if (st["build_left"] > 0) != building or not _in(st["build_left"], 0, COUNT_LIMIT + 1):
        raise StateError(E_BUILD_LEFT)
    if not _in(st["build_borough"], 0, NUM_BOROUGHS):
        raise StateError(E_BUILD_BOROUGH)
    slot, vessel = st["chosen_slot"], st["chosen_vessel"]
    if not _in(slot, 0, PRESTIGE_REVEALED_PER_ROUND):
        raise StateError(E_CHOSEN_SLOT)
    if not _in(vessel, 0, NUM_VESSELS):
        raise StateError(E_CHOSEN_VESSEL)
    if d == DEC_PRESTIGE_VESSEL or d == DEC_PRESTIGE_BOROUGH:
        tile = st["prestige_revealed"][slot]
        if tile == EMPTY:
            raise StateError(E_CHOSEN_SLOT)
        if d == DEC_PRESTIGE_BOROUGH and (
                st["vessel_owner"][vessel] != NO_SEAT
                or VESSEL_COLOUR[vessel] != PRESTIGE_TILE_COLOUR[tile]):
            raise StateError(E_CHOSEN_VESSEL)


# --- a character ability -------------------------------------------------------------------------
@jit
def _check_ability_memory(st):
    c = st["ability"]
    for k in range(st["ability_memory"].shape[0]):
        x = st["ability_memory"][k]
        high = NUM_CARD_TYPES if k >= PAIR_MEMORY else ABILITY_MEMORY_HIGH
        if not _in(x, EMPTY, high):
            raise StateError(E_ABILITY_MEMORY)
    first = st["ability_memory"][0]
    if c == MATCH_PAIR_FROM_RESERVE:
        for k in range(PAIR_MEMORY):
            if not _in(st["ability_memory"][k], EMPTY, NUM_CARD_TYPES):
                raise StateError(E_ABILITY_MEMORY)
    if c == TWO_SINGLE_CARDS and st["ability_count"] == 1:
        # 2: the pair the first single card came from, which has at most one card left
        if not _in(first, 0, st["num_pairs"]):
            raise StateError(E_ABILITY_MEMORY)
        if st["pairs"][first, 0] != EMPTY and st["pairs"][first, 1] != EMPTY:
            raise StateError(E_ABILITY_MEMORY)
    if (c == SWAP_CHARACTER and st["decision"] == DEC_CHARACTER_ELEVATOR
            and not _in(first, SEVEN_MEMORY_LOW, MAX_TILE_VALUE + 1)):
        raise StateError(E_ABILITY_MEMORY)


@jit
def _check_ability(st):
    c, d, ctx = st["ability"], st["decision"], st["ability_context"]
    if not _in(c, 0, NUM_ACTIVE_CHARACTERS + 1) or (c != 0) != _is_character_choice(d):
        raise StateError(E_ABILITY)
    if c != 0 and not ABILITY_CHOICES[c, d]:
        raise StateError(E_ABILITY)
    if not _in(ctx, 0, NUM_CONTEXTS):
        raise StateError(E_CONTEXT)
    if c != 0 and (ctx != ABILITY_CONTEXT[c] or CONTEXT_STAGE[ctx] != st["stage"]):
        raise StateError(E_CONTEXT)
    count, limit = st["ability_count"], st["ability_limit"]
    if not _in(limit, 0, NO_LIMIT + 1):
        raise StateError(E_ABILITY_LIMIT)
    if not _in(count, 0, NUM_CARDS + 1):
        raise StateError(E_ABILITY_COUNT)
    if c != 0:
        high = limit  # card choices end when the count reaches the limit
        if d == DEC_CHARACTER_PAIR_CARD or d == DEC_CHARACTER_PAIR:
            high = PAIRS_PER_AGENT  # 2 and 4 take two cards or pairs, counted
        elif d != DEC_CHARACTER_CARD:
            high = 1  # one choice: the count is still 0
        if count >= high:
            raise StateError(E_ABILITY_COUNT)
    if c == REPLACE_NEUTRAL and st["board_skyscrapers"][st["actor"]] < 1:
        raise StateError(E_ABILITY)  # 11 moves a skyscraper from the board (addendum)
    return _check_ability_memory(st)


# --- final scoring -------------------------------------------------------------------------------
@jit
def _check_scores(st):
    over = st["stage"] == STAGE_GAME_OVER
    n = st["num_seats"] if over else 0
    rows = st["score_lines"]
    for seat in range(MAX_SEATS):
        for k in range(rows.shape[1]):
            if (seat >= n and rows[seat, k] != 0) or abs(rows[seat, k]) > COUNT_LIMIT:
                raise StateError(E_SCORE_LINES)
    rows = st["end_character_points"]
    for seat in range(MAX_SEATS):
        for k in range(rows.shape[1]):
            if (seat >= n and rows[seat, k] != 0) or abs(rows[seat, k]) > COUNT_LIMIT:
                raise StateError(E_END_POINTS)
    if over and not _seated(st, st["winner"]):
        raise StateError(E_WINNER)
    if not over and st["winner"] != NO_SEAT:
        raise StateError(E_WINNER)


# --- the seat to move can go on ---------------------------------------------------------------------
@jit
def _pairs_suffice(st):
    """Phase I (R6): the pairs still on display cover the picks still to come; character 4
    counts the pair it took already."""
    left = 0
    for p in range(st["num_pairs"]):
        if st["pairs"][p, 0] != EMPTY or st["pairs"][p, 1] != EMPTY:
            left += 1
    needed = 0
    for seat in range(st["num_seats"]):
        if st["is_tom"][seat] == 0:
            needed += PAIRS_PER_AGENT - st["pairs_taken"][seat]
    if st["ability"] == BOTH_PAIRS:
        needed -= st["ability_count"]
    return left >= needed


@jit
def _tom_event_ok(st, i):
    """Row ``i`` of the Tom log: a known kind, a seated Tom, each value in its kind's range."""
    kind = st["tom_events"][i, EV_KIND]
    seat = st["tom_events"][i, EV_SEAT]
    if not (TOM_NO_EVENT < kind < NUM_TOM_EVENT_KINDS and _seated(st, seat)):
        return False
    if st["is_tom"][seat] == 0:
        return False
    for j in range(TOM_EVENT_FIELDS - EV_A):
        if not _in(st["tom_events"][i, EV_A + j], TOM_EVENT_RANGES[kind, j, 0],
                   TOM_EVENT_RANGES[kind, j, 1] + 1):
            return False
    a, b, c = st["tom_events"][i, EV_A], st["tom_events"][i, EV_A + 1], st["tom_events"][i, EV_A + 2]
    if kind == TOM_DRAW:  # a played or discarded card is shown; a kept one never (R25)
        return (a != NOTHING) == (b == DRAW_PLAYED or b == DRAW_DISCARDED)
    if kind == TOM_BUILD:  # R22: what is built is due, and at most 5 of his in a borough
        return c <= b and c <= TOM_MAX_PER_BOROUGH
    return True


@jit
def _check_tom_events(st):
    count = st["tom_event_count"]
    if not _in(count, 0, COUNT_LIMIT + 1):
        raise StateError(E_TOM_EVENT_COUNT)
    for i in range(TOM_EVENT_CAPACITY):
        if i < count:
            if not _tom_event_ok(st, i):
                raise StateError(E_TOM_EVENTS)
        else:
            for j in range(TOM_EVENT_FIELDS):
                if st["tom_events"][i, j] != 0:
                    raise StateError(E_TOM_EVENTS)


@jit
def _offers_legal_action(st):
    """The pending decision's mask offers the seat to move at least one action."""
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    fill_legal_mask(st, mask)
    found = False
    for a in range(NUM_ACTIONS):
        found = found or mask[a]
    return found


@jit
def _check_can_answer(st):
    """While the game runs, the seat to move can answer: Phase I has the pairs its picks need,
    the decision offers a legal action and a character turn a usable character."""
    d = st["decision"]
    if d == DEC_GAME_OVER:
        return
    if st["stage"] == STAGE_PHASE1 and not _pairs_suffice(st):
        raise StateError(E_PAIRS_SHORT)
    if not _offers_legal_action(st):
        raise StateError(E_NO_LEGAL_ACTION)
    character_turn = (d == DEC_AFTER_PICK or d == DEC_AFTER_EVALUATION or d == DEC_PHASE3
                      or d == DEC_DECLARE_BID_LAST)
    if character_turn and not any_character_usable(st, st["actor"], d):
        raise StateError(E_NO_CHARACTER)


# --- the whole record ----------------------------------------------------------------------------
@jit
def validate_record(st):
    """Raise ``StateError`` with the code of the first rule record ``st`` breaks (in the module
    docstring's order: each check reads only fields the ones before it have bounded)."""
    _check_players(st)
    _check_progress(st)
    _check_card_counts(st)
    _check_pairs_taken(st)
    _check_bids(st)
    _check_tom_supplies(st)
    _check_tiles(st)
    _check_boroughs(st)
    _check_skyscrapers(st)
    _check_prestige(st)
    _check_placed_prestige(st)
    _check_participants(st)
    _check_order(st)
    if not _cursor_ok(st):
        raise StateError(E_CURSOR)
    _check_bid_turns(st)
    _check_evaluation(st)
    _check_ability(st)
    _check_scores(st)
    _check_tom_events(st)
    _check_can_answer(st)


@jit
def validate_kernel(states, i):
    """validate_record of game ``i`` of a batch: one compiled call for a single game."""
    validate_record(states[i])


@jit
def invalid_games_kernel(states, invalid):
    """invalid[i] = True for each game of the batch that ``validate_record`` refuses."""
    for i in range(states.shape[0]):
        try:
            validate_record(states[i])
        except Exception:  # numba catches no narrower class; error_code re-raises any other
            invalid[i] = True


def error_code(states: np.ndarray, i: int) -> int:
    """The code of the first rule game ``i`` of the batch ``states`` breaks, OK (0) if none."""
    try:
        validate_kernel(states, i)
    except StateError as error:
        return error.code
    return OK


def _invalid_games(states):
    """bool[B]: True for each game of the batch that ``validate_record`` refuses."""
    invalid = np.zeros(states.shape[0], np.bool_)
    invalid_games_kernel(states, invalid)
    return invalid


def state_error_codes(states: np.ndarray) -> NDArray[np.int64]:
    """int64[B]: each game's first error code (OK = 0) for a 1-d batch of STATE_DTYPE."""
    codes = np.zeros(states.shape[0], np.int64)
    for i in np.flatnonzero(_invalid_games(states)):
        codes[i] = error_code(states, int(i))
    return codes


def validate_state(state: np.ndarray) -> None:
    """Raise ValueError (a ``StateError`` for a record) naming the first wrong field unless
    ``state`` (a single game, shape (), or a 1-d batch) holds records the engine could have made;
    see the module docstring."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.ndim > 1:
        dtype = getattr(state, "dtype", "")
        if getattr(dtype, "names", None):
            dtype = "another record layout" if dtype != STATE_DTYPE else "STATE_DTYPE"
        raise ValueError("state must be a numpy array of STATE_DTYPE: a single game (shape ()) "
                         f"or a 1-d batch; got {type(state).__name__} "
                         f"{getattr(state, 'shape', '')} {dtype}".rstrip())
    if state.ndim == 0:
        validate_kernel(state.reshape(1), 0)  # a StateError names the field and its rule
        return
    invalid = np.flatnonzero(_invalid_games(state))
    if invalid.size:
        game = int(invalid[0])
        raise StateError(error_code(state, game), game)
