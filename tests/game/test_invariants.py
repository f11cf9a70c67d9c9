"""Invariants over thousands of random games (architecture.md, "Tests in three layers").

Three kinds of random play, 2, 3 and 4 agents each:

* batch games (``new_games`` / ``legal_masks`` / ``apply_actions``) with every state and every
  transition checked, and a random illegal action probed in every state;
* single games through the public verbs (``legal_mask``, ``step``, ``apply_action``) with the
  purity of ``step``, the mask/``apply_action`` agreement and earlier copies checked per state;
* games played by the compiled ``play_random_kernel`` whose end states are checked.

The checks read the record directly and are written from the rulebook and the state's
documented meaning, not from the engine's helpers, so an engine bug cannot hide in both.
"""

import numpy as np
import pytest

from tiny_york_env.game import (
    NUM_ACTIONS,
    STATE_DTYPE,
    GameConfig,
    apply_action,
    apply_actions,
    current_player,
    decode,
    final_scores,
    is_terminal,
    legal_actions,
    legal_mask,
    legal_masks,
    new_game,
    new_games,
    pending_decision,
    score_breakdown,
    step,
    winner,
)
from tiny_york_env.game import components as C
from tiny_york_env.game import state as S
from tiny_york_env.game.actions import (
    ACTION_BLOCKS,
    CHARACTER_BOROUGH,
    CHARACTER_TILE,
    SELL_FROM,
    USE_CHARACTER,
)
from tiny_york_env.game.jit import JIT_ENABLED
from tiny_york_env.game.kernels import play_random_kernel
from tiny_york_env.game.rng import seed_rng

AGENT_COUNTS = (2, 3, 4)
# Under TINY_YORK_JIT=0 (debugging, coverage) the engine is plain Python: play fewer games.
_SCALE = 1 if JIT_ENABLED else 20
BATCH_GAMES = 300 // _SCALE  # per agent count, every state checked
SINGLE_GAMES = 8 // min(_SCALE, 4)  # per agent count, every state checked through the single-game verbs
KERNEL_GAMES = 500 // _SCALE  # per agent count, end states checked
MAX_DECISIONS = 5_000  # far above any real game (about 200-400 decisions)
FINAL_ROUND = C.NUM_GAME_ROUNDS + 1  # the round counter after round 5 is over

# --- action blocks each decision may offer (docs/actions.md) --------------------------------
BLOCK_NAMES = [name for name, _, _ in ACTION_BLOCKS]
BLOCK_OF_ACTION = np.array([BLOCK_NAMES.index(decode(a)[0]) for a in range(NUM_ACTIONS)])
DECISION_BLOCKS = {
    S.DEC_START_STACK: ("START_STACK",),
    S.DEC_PICK_PAIR: ("PICK_PAIR",),
    S.DEC_BID: ("EXCHANGE", "BID_CARD", "BID_PAIR", "BID_WILD_PAIR", "BID_WILD", "BID_DONE"),
    S.DEC_ELEVATOR: ("ELEVATOR_TAKE",),
    S.DEC_PRESTIGE_TILE: ("PRESTIGE_TILE", "PRESTIGE_FORFEIT"),
    S.DEC_PRESTIGE_VESSEL: ("PRESTIGE_VESSEL",),
    S.DEC_PRESTIGE_BOROUGH: ("PRESTIGE_BOROUGH",),
    S.DEC_BUILD: ("SELL_FROM", "BUILD_STOP"),
    S.DEC_GAME_OVER: (),
    S.DEC_AFTER_PICK: ("END_TURN",),
    S.DEC_AFTER_EVALUATION: ("END_TURN",),
    S.DEC_PHASE3: ("END_TURN",),
    S.DEC_CHARACTER_CARD: ("CHARACTER_CARD", "CHARACTER_DONE"),
    S.DEC_CHARACTER_TILE: ("CHARACTER_TILE",),
    S.DEC_CHARACTER_ELEVATOR: ("ELEVATOR_TAKE",),
    S.DEC_CHARACTER_PAIR_CARD: ("CHARACTER_PAIR_CARD",),
    S.DEC_CHARACTER_PAIR: ("PICK_PAIR",),
    S.DEC_CHARACTER_BOROUGH: ("CHARACTER_BOROUGH",),
    S.DEC_CHARACTER_STEPS: ("CHARACTER_STEPS",),
}
# Which characters each decision may offer with USE_CHARACTER (R8, R11, R18; the docs table).
CHARACTERS_AT = {
    S.DEC_PICK_PAIR: (1, 2, 3, 4, 5, 6, 7, 9, 10, 11),
    S.DEC_AFTER_PICK: (8,),
    S.DEC_BID: (12, 13, 14, 15, 16, 17, 18, 19, 20),
    S.DEC_AFTER_EVALUATION: (22,),
    S.DEC_PHASE3: (23, 24, 25, 26, 27),
}
NUM_DECISIONS = len(S.DECISION_NAMES)
assert set(DECISION_BLOCKS) == set(range(S.DEC_NONE + 1, NUM_DECISIONS))
ALLOWED = np.zeros((NUM_DECISIONS, NUM_ACTIONS), dtype=bool)  # DEC_NONE offers nothing
for _d, _names in DECISION_BLOCKS.items():
    ALLOWED[_d] = np.isin(BLOCK_OF_ACTION, [BLOCK_NAMES.index(n) for n in _names])
for _d, _chars in CHARACTERS_AT.items():
    ALLOWED[_d, USE_CHARACTER + np.array(_chars) - 1] = True
# Decisions that exist only to offer characters: the engine asks them only when one is usable.
CHARACTER_TURNS = (S.DEC_AFTER_PICK, S.DEC_AFTER_EVALUATION, S.DEC_PHASE3)
CHARACTER_DECISIONS = (S.DEC_CHARACTER_CARD, S.DEC_CHARACTER_TILE, S.DEC_CHARACTER_ELEVATOR,
                       S.DEC_CHARACTER_PAIR_CARD, S.DEC_CHARACTER_PAIR, S.DEC_CHARACTER_BOROUGH,
                       S.DEC_CHARACTER_STEPS)

# --- characters (addendum) --------------------------------------------------------------------
NUM_ABILITIES = C.NUM_ACTIVE_CHARACTERS  # characters 1..27 have abilities
CHARACTER_ONE_HOT = C.TILE_CHARACTER[:, None] == np.arange(C.NUM_CHARACTERS + 1)[None, :]
TILE_FREE = C.CHARACTER_FREE[C.TILE_CHARACTER] != 0  # 4 and 21 cost no dollar
FREE_SKYSCRAPER, BIGGER_RESERVE, REFRESH_RESERVE, MATCH_PAIR_FROM_RESERVE = 21, 3, 12, 8
REPLACE_NEUTRAL, SWAP_CHARACTER = 11, 7
# Dollars an ability gives besides its cost: 6 (+2), 9 (+1), 18 (+1).
ABILITY_DOLLARS = np.zeros(C.NUM_CHARACTERS + 1, dtype=np.int64)
ABILITY_DOLLARS[[6, 9, 18]] = (2, 1, 1)
# Skyscrapers from the supply onto the board: 24 and 26.
ABILITY_SKYSCRAPERS = np.zeros(C.NUM_CHARACTERS + 1, dtype=np.int64)
ABILITY_SKYSCRAPERS[[24, 26]] = 1
# Bid value an ability adds without a played card: 14 (up to 2 steps), 16, 17, 20 (the 2nd card).
ABILITY_BID_VALUE = np.zeros(C.NUM_CHARACTERS + 1, dtype=np.int64)
ABILITY_BID_VALUE[[14, 16, 17, 20]] = (2, 1, 1, 1)
# Abilities whose effect is never empty: offered whenever a tile and its dollar are there.
ALWAYS_EFFECTIVE = {S.DEC_PICK_PAIR: (3, 6), S.DEC_PHASE3: (23, 24, 25, 26)}

SEATS = np.arange(C.MAX_SEATS)
LOW_START_TILES = np.arange(C.NUM_START_STACKS)
HIGH_START_TILES = np.arange(C.NUM_START_STACKS) + C.NUM_START_STACKS


# --- helpers ---------------------------------------------------------------------------------
def _expect(ok, what, states, detail=None):
    """Fail naming the first game where the per-game bool ``ok`` is False."""
    ok = np.asarray(ok, dtype=bool)
    if ok.all():
        return
    i = int(np.flatnonzero(~ok)[0])
    r = states[i]
    extra = f"; {detail[i]!r}" if detail is not None else ""
    raise AssertionError(
        f"{what}: game {i} of {len(states)} ({int(r['num_seats'])} seats, round "
        f"{int(r['round'])}, decision {int(r['decision'])}, bid round {int(r['bid_round'])}, "
        f"{int(r['num_decisions'])} decisions){extra}")


def _rows_equal(a, b):
    """Per-game byte equality of two batches of records."""
    return (a.view(np.uint8).reshape(len(a), -1) == b.view(np.uint8).reshape(len(b), -1)).all(1)


def _seat_active(st):
    """(B, MAX_SEATS) True for seats in play."""
    return SEATS[None, :] < st["num_seats"][:, None]


def _agent_seats(st):
    return _seat_active(st) & (st["is_tom"] == 0)


def _per_seat(st, weight):
    """(B, MAX_SEATS): the (B, NUM_TILES) ``weight`` summed over each seat's owned tiles."""
    owner = st["tile_owner"].astype(np.int64)
    mine = (st["tile_loc"] == S.LOC_OWNED)[:, :, None] & (owner[:, :, None] == SEATS[None, None, :])
    return (mine * np.asarray(weight, dtype=np.int64)[..., None]).sum(1)


def _unused_by_actor(st):
    """(B, NUM_CHARACTERS + 1): how many unused tiles of each character the actor owns."""
    mine = ((st["tile_loc"] == S.LOC_OWNED) & (st["tile_owner"] == st["actor"][:, None])
            & (st["tile_used"] == 0))
    return mine.astype(np.int64) @ CHARACTER_ONE_HOT


# --- per-state invariants (vectorized over a batch) -----------------------------------------
def check_cards(st):
    """All 105 cards accounted for, 15 of each type; reserves hold reserve_size cards."""
    active = _seat_active(st)
    dc = st["draw_count"]
    _expect((dc >= 0) & (dc <= C.NUM_CARDS), "draw_count out of 0..105", st, dc)
    pile = st["draw_pile"].astype(np.int64)
    in_pile = np.arange(C.NUM_CARDS)[None, :] < dc[:, None]
    _expect(~(in_pile & ((pile < 0) | (pile >= C.NUM_CARD_TYPES))).any(1),
            "draw pile holds a non-card below draw_count", st)
    pairs = st["pairs"].astype(np.int64)
    _expect(((pairs >= S.EMPTY) & (pairs < C.NUM_CARD_TYPES)).all((1, 2)),
            "pair display holds a non-card", st)
    beyond = np.arange(C.MAX_PAIRS)[None, :] >= st["num_pairs"][:, None]
    _expect(~(beyond[:, :, None] & (pairs != S.EMPTY)).any((1, 2)),
            "a card in a pair slot beyond num_pairs", st)
    for field in ("hand", "reserve", "played"):
        a = st[field].astype(np.int64)
        _expect((a >= 0).all((1, 2)), f"negative {field} count", st, a)
        _expect((a * ~active[:, :, None] == 0).all((1, 2)), f"{field} cards for an empty seat", st)
    _expect((st["discard"] >= 0).all(1), "negative discard count", st, st["discard"])
    total = np.zeros((len(st), C.NUM_CARD_TYPES), dtype=np.int64)
    for t in range(C.NUM_CARD_TYPES):
        total[:, t] = ((pile == t) & in_pile).sum(1) + (pairs == t).sum((1, 2))
    total += st["discard"] + st["hand"].sum(1) + st["reserve"].sum(1) + st["played"].sum(1)
    _expect((total == C.CARDS_PER_TYPE).all(1), "cards not conserved (15 per type)", st, total)
    # R9: the reserve keeps its size: 2, plus 1 per use of character 3 (one tile, once a round)
    size = st["reserve_size"].astype(np.int64)
    agents = _agent_seats(st)
    rnd = np.clip(st["round"].astype(np.int64), 0, C.NUM_GAME_ROUNDS)
    _expect(((size >= C.START_RESERVE) & (size <= C.START_RESERVE + rnd[:, None]) | ~agents).all(1),
            "reserve_size outside 2 .. 2 + rounds played", st, size)
    _expect((size * ~agents == 0).all(1), "reserve_size for a seat without a reserve", st, size)
    # The reserve holds reserve_size cards, except while 8 or 12 is choosing cards: each card
    # chosen has left the reserve, and the refill comes when the ability ends. A refill can
    # also fall short when the draw pile and the discard pile are both empty (R7).
    short = size - st["reserve"].astype(np.int64).sum(2)
    ability = st["ability"].astype(np.int64)
    choosing = (st["decision"] == S.DEC_CHARACTER_CARD) & np.isin(
        ability, (MATCH_PAIR_FROM_RESERVE, REFRESH_RESERVE))
    at_most = np.where(ability == MATCH_PAIR_FROM_RESERVE, 2, size.max(1))  # 8: the pair's cards
    mid = (choosing[:, None] & (SEATS[None, :] == st["actor"][:, None])
           & (short == st["ability_count"][:, None]) & (short <= at_most[:, None]))
    starved = (st["draw_count"] == 0) & (st["discard"].sum(1) == 0)
    _expect(((short == 0) | mid | (starved[:, None] & (short > 0)) | ~agents).all(1),
            "an agent's reserve does not hold reserve_size cards", st, short)


def check_tiles(st):
    """All 76 character tiles are in exactly one place, and tile_loc says which."""
    b = len(st)
    loc = st["tile_loc"].astype(np.int64)
    owner = st["tile_owner"].astype(np.int64)
    _expect(((loc >= S.LOC_START_STACK) & (loc <= S.LOC_REMOVED)).all(1), "bad tile_loc", st, loc)
    seen = np.zeros((b, C.NUM_TILES), dtype=np.int64)

    # elevator stacks: tiles [:count] of their value's row, EMPTY above
    count = st["elevator_count"].astype(np.int64)
    _expect(((count >= 0) & (count <= C.ELEVATOR_STACK_SIZES)).all(1), "bad elevator_count", st, count)
    stack = st["elevator_stack"].astype(np.int64)
    in_stack = np.arange(C.MAX_ELEVATOR_STACK)[None, None, :] < count[:, :, None]
    _expect(((stack == S.EMPTY) | in_stack).all((1, 2)), "a tile above an elevator stack's count", st)
    safe = np.where(in_stack, stack, 0)
    _expect((~in_stack | ((safe >= 0) & (safe < C.NUM_TILES))).all((1, 2)), "bad stack tile", st)
    gi, ri, ci = np.nonzero(in_stack)
    tiles = stack[gi, ri, ci]
    np.add.at(seen, (gi, tiles), 1)
    ok = np.ones(b, dtype=bool)
    np.logical_and.at(ok, gi, (loc[gi, tiles] == S.LOC_ELEVATOR_STACK)
                      & (C.TILE_VALUE[tiles] == ri + 1) & (C.TILE_IS_START[tiles] == 0))
    _expect(ok, "an elevator-stack tile has the wrong tile_loc, value or kind", st)

    # the display
    disp = st["elevator_display"].astype(np.int64)
    _expect(((disp >= S.EMPTY) & (disp < C.NUM_TILES)).all((1, 2)), "bad display entry", st)
    gi, ri, ci = np.nonzero(disp != S.EMPTY)
    tiles = disp[gi, ri, ci]
    np.add.at(seen, (gi, tiles), 1)
    ok = np.ones(b, dtype=bool)
    np.logical_and.at(ok, gi, (loc[gi, tiles] == S.LOC_DISPLAY)
                      & (C.TILE_VALUE[tiles] == ri + 1) & (C.TILE_IS_START[tiles] == 0))
    _expect(ok, "a display tile has the wrong tile_loc, value or kind", st)
    # R14: a display slot is empty only when its value's stack is empty
    _expect(~((disp == S.EMPTY) & (count[:, :, None] > 0)).any((1, 2)),
            "an empty display slot while its stack still has tiles", st)

    # start stacks: one low (value 1) and one high (value 5) start tile each, all 12 used once
    ss = st["start_stacks"].astype(np.int64)
    _expect((np.sort(ss[:, :, 0], 1) == LOW_START_TILES).all(1), "start stacks' low tiles", st)
    _expect((np.sort(ss[:, :, 1], 1) == HIGH_START_TILES).all(1), "start stacks' high tiles", st)
    status = st["start_stack_status"].astype(np.int64)
    in_place = (status == S.STACK_HIDDEN) | (status == S.STACK_REVEALED)
    taken_stack = status == S.STACK_TAKEN
    stack_loc = [np.take_along_axis(loc, ss[:, :, k], 1) for k in range(2)]
    stack_owners = [np.take_along_axis(owner, ss[:, :, k], 1) for k in range(2)]
    for k in range(2):
        got = stack_loc[k]
        _expect((~in_place | (got == S.LOC_START_STACK)).all(1), "a start stack's tile left it", st, got)
        _expect(((status != S.STACK_REMOVED) | (got == S.LOC_REMOVED)).all(1),
                "a leftover start stack's tile is still in the game", st, got)
        # the taker owns it, unless character 7 gave it up (it leaves the game)
        _expect((~taken_stack | (got == S.LOC_OWNED) | (got == S.LOC_REMOVED)).all(1),
                "a taken start stack's tile is neither owned nor removed", st, got)
        gi, si = np.nonzero(in_place)
        np.add.at(seen, (gi, ss[gi, si, k]), 1)
    both_owned = taken_stack & (stack_loc[0] == S.LOC_OWNED) & (stack_loc[1] == S.LOC_OWNED)
    _expect((~both_owned | (stack_owners[0] == stack_owners[1])).all(1),
            "the two tiles of a taken start stack have different owners", st)
    # the taker, when a tile of the stack is still owned; NO_SEAT when 7 gave both up
    stack_owner = np.where(stack_loc[0] == S.LOC_OWNED, stack_owners[0], stack_owners[1])
    stack_owner = np.where(taken_stack, stack_owner, S.NO_SEAT)

    # owned and removed tiles
    seen += (loc == S.LOC_OWNED) + (loc == S.LOC_REMOVED)
    _expect((seen == 1).all(1), "a character tile is not in exactly one place", st, seen)
    valid_owner = (owner >= 0) & (owner < st["num_seats"][:, None])
    owner_is_tom = np.take_along_axis(st["is_tom"].astype(np.int64), np.clip(owner, 0, C.MAX_SEATS - 1), 1)
    _expect(((loc != S.LOC_OWNED) | (valid_owner & (owner_is_tom == 0))).all(1),
            "an owned tile without an agent owner", st, owner)
    _expect(((loc == S.LOC_OWNED) | (owner == S.NO_SEAT)).all(1), "an unowned tile has an owner", st)

    # R4: hidden stacks are never chosen; after the draft every agent holds exactly one stack
    n = st["num_seats"].astype(np.int64)
    shown = n + (st["num_agents"] == st["num_seats"])  # participants + 1 without Toms
    revealed_zone = np.arange(C.NUM_START_STACKS)[None, :] < shown[:, None]
    _expect((revealed_zone | (status == S.STACK_HIDDEN) | (status == S.STACK_REMOVED)).all(1),
            "a hidden start stack was revealed or taken", st, status)
    _expect((~revealed_zone | (status != S.STACK_HIDDEN)).all(1), "a stack that should show is hidden", st)
    drafted = st["round"] >= 1
    taken = taken_stack.sum(1)
    _expect(~drafted | ((taken == st["num_agents"]) & ~in_place.any(1)),
            "after the draft: not one start stack per agent, or stacks left on the table", st, status)
    per_agent = np.zeros((b, C.MAX_SEATS), dtype=np.int64)
    gi, si = np.nonzero(stack_owner >= 0)
    np.add.at(per_agent, (gi, stack_owner[gi, si]), 1)
    _expect((per_agent <= 1).all(1), "an agent took two start stacks", st, per_agent)
    # every agent holds its stack, except takers whose both start tiles 7 gave up
    agents = _agent_seats(st)
    _expect((per_agent * ~agents == 0).all(1), "a start stack held by a non-agent", st, per_agent)
    gone = (taken_stack & (stack_owner == S.NO_SEAT)).sum(1)
    without = (agents & (per_agent == 0)).sum(1)
    _expect(~drafted | (without == gone), "an agent without a start stack", st, per_agent)

    # R19 markers: a used tile is an owned tile of an ability character (1-27; 21 is never used,
    # it acts by itself); a dollar lies only on a used tile that is not free (4, 21)
    used = st["tile_used"].astype(np.int64)
    dollar = st["tile_dollar"].astype(np.int64)
    _expect(((used == 0) | (used == 1)).all(1), "tile_used not 0/1", st, used)
    _expect(((dollar == 0) | (dollar == 1)).all(1), "tile_dollar not 0/1", st, dollar)
    ability_tile = (C.TILE_CHARACTER <= NUM_ABILITIES) & (C.TILE_CHARACTER != FREE_SKYSCRAPER)
    _expect(((used == 0) | ((loc == S.LOC_OWNED) & ability_tile)).all(1),
            "a used marker on a tile that is not an owned ability character", st, used)
    _expect(((dollar == 0) | ((loc == S.LOC_OWNED) & (used == 1) & ~TILE_FREE)).all(1),
            "a dollar on a tile that is not owned, used and paid for", st, dollar)
    _expect(((st["round"] != 0) | ((used == 0) & (dollar == 0)).all(1)), "a character used in the draft",
            st)


def check_board(st):
    """Skyscrapers, press track, prestige tiles, vessels, tracks."""
    active = _seat_active(st)
    n = st["num_seats"].astype(np.int64)
    sky = st["skyscrapers"].astype(np.int64)
    _expect((sky >= 0).all((1, 2)), "negative skyscraper count", st)
    neutral = sky[:, :, C.NEUTRAL]
    _expect((neutral <= C.NEUTRAL_SKYSCRAPERS_PER_BOROUGH).all(1), "more than 2 neutral skyscrapers", st,
            neutral)
    _expect((sky[:, :, : C.MAX_SEATS] * ~active[:, None, :] == 0).all((1, 2)),
            "skyscrapers of an empty seat", st)
    board = st["board_skyscrapers"].astype(np.int64)
    _expect((board >= 0).all(1), "negative board skyscrapers", st, board)
    _expect((board * ~active == 0).all(1), "board skyscrapers of an empty seat", st)
    # every participant starts with one skyscraper in X (setup 14C) and can only add or move
    placed = sky[:, :, : C.MAX_SEATS].sum(1)
    _expect(((placed >= 1) | ~active).all(1), "a participant has no skyscraper in the city", st, placed)
    for field in ("points", "dollars"):
        v = st[field].astype(np.int64)
        _expect((v >= 0).all(1), f"negative {field}", st, v)
        _expect((v * ~active == 0).all(1), f"{field} for an empty seat", st)

    # press track: spaces 0..15; tokens sharing a space are strictly ordered
    space = st["press_space"].astype(np.int64)
    height = st["press_height"].astype(np.int64)
    tokens = np.concatenate([active, np.ones((len(st), 1), dtype=bool)], 1)
    _expect((~tokens | ((space >= 0) & (space <= C.PRESS_LAST_SPACE))).all(1),
            "a press token outside spaces 0..15", st, space)
    for i in range(C.MAX_SEATS + 1):
        for j in range(i + 1, C.MAX_SEATS + 1):
            clash = (tokens[:, i] & tokens[:, j] & (space[:, i] == space[:, j])
                     & (height[:, i] == height[:, j]))
            _expect(~clash, f"press tokens {i} and {j} tie on space and height", st)

    # boroughs: sequence and base tiles are permutations; the Mayor is on the round's letter
    _expect((np.sort(st["borough_sequence"], 1) == np.arange(C.NUM_BOROUGHS)).all(1), "sequence tiles", st)
    _expect((np.sort(st["borough_base"], 1) == np.sort(C.BASE_VALUES)).all(1), "base value tiles", st)
    rnd = st["round"].astype(np.int64)
    playing = (rnd >= 1) & (rnd <= C.NUM_GAME_ROUNDS)
    mayor = st["mayor"].astype(np.int64)
    mayor_ok = (mayor >= 0) & (mayor < C.NUM_BOROUGHS)
    letter = np.take_along_axis(st["borough_sequence"].astype(np.int64),
                                np.where(mayor_ok, mayor, 0)[:, None], 1)[:, 0]
    _expect(~playing | (mayor_ok & (letter == rnd - 1)), "the Mayor is not on the round's letter", st, mayor)

    # prestige tiles: a shuffled stack, 2 revealed per round, each tile in one place
    pstack = st["prestige_stack"].astype(np.int64)
    _expect((np.sort(pstack, 1) == np.arange(C.NUM_PRESTIGE_TILES)).all(1), "prestige stack", st, pstack)
    nxt = st["prestige_next"].astype(np.int64)
    _expect(nxt == C.PRESTIGE_REVEALED_PER_ROUND * np.minimum(rnd, C.NUM_GAME_ROUNDS),
            "prestige_next is not 2 per round played", st, nxt)
    ploc = st["prestige_loc"].astype(np.int64)
    loc_in_order = np.take_along_axis(ploc, pstack, 1)
    drawn = np.arange(C.NUM_PRESTIGE_TILES)[None, :] < nxt[:, None]
    _expect((drawn | (loc_in_order == S.PRESTIGE_IN_STACK)).all(1), "an undrawn prestige tile moved", st)
    _expect((~drawn | (loc_in_order != S.PRESTIGE_IN_STACK)).all(1), "a drawn prestige tile in the stack", st)
    _expect(((ploc >= S.PRESTIGE_REMOVED) & (ploc < C.NUM_BOROUGHS)).all(1), "bad prestige_loc", st, ploc)
    rev = st["prestige_revealed"].astype(np.int64)
    rev_count = np.zeros((len(st), C.NUM_PRESTIGE_TILES), dtype=np.int64)
    gi, ki = np.nonzero(rev != S.EMPTY)
    np.add.at(rev_count, (gi, rev[gi, ki]), 1)
    _expect((rev_count == (ploc == S.PRESTIGE_REVEALED)).all(1),
            "revealed prestige slots disagree with prestige_loc", st, rev)
    this_round = np.zeros((len(st), C.NUM_PRESTIGE_TILES), dtype=bool)
    for k in range(1, C.PRESTIGE_REVEALED_PER_ROUND + 1):
        idx = np.clip(nxt - k, 0, C.NUM_PRESTIGE_TILES - 1)
        this_round[np.arange(len(st)), pstack[np.arange(len(st)), idx]] |= nxt - k >= 0
    _expect((this_round | (ploc != S.PRESTIGE_REVEALED)).all(1), "an old prestige tile still revealed", st)
    for b in range(C.NUM_BOROUGHS):
        want = ((ploc == b) * C.PRESTIGE_TILE_VALUE).sum(1)
        _expect(st["borough_prestige"][:, b] == want, f"borough {b}'s prestige value", st,
                st["borough_prestige"])

    # vessels: owned by a participant or on the board; R15 takes one vessel of the tile's
    # colour with every placed tile, so the colour counts match
    vo = st["vessel_owner"].astype(np.int64)
    _expect(((vo == S.VESSEL_ON_BOARD) | ((vo >= 0) & (vo < n[:, None]))).all(1), "bad vessel owner", st, vo)
    for colour in range(C.NUM_COLOURS):
        vessels = ((vo != S.VESSEL_ON_BOARD) & (C.VESSEL_COLOUR == colour)).sum(1)
        tiles = ((ploc >= 0) & (C.PRESTIGE_TILE_COLOUR == colour)).sum(1)
        _expect(vessels == tiles, f"colour {colour}: vessels taken != prestige tiles placed", st)


def check_progress(st):
    """Decision, actor and round fields; final scores at the end."""
    over = st["decision"] == S.DEC_GAME_OVER
    rnd = st["round"].astype(np.int64)
    dec = st["decision"].astype(np.int64)
    actor = st["actor"].astype(np.int64)
    n = st["num_seats"].astype(np.int64)
    _expect((dec > S.DEC_NONE) & (dec < NUM_DECISIONS), "no pending decision between calls", st, dec)
    _expect(over == (st["stage"] == S.STAGE_GAME_OVER), "decision and stage disagree on the end", st)
    _expect(over | ((rnd >= 0) & (rnd <= C.NUM_GAME_ROUNDS)), "round outside 0..5 during play", st, rnd)
    _expect(~over | (rnd == FINAL_ROUND), "the game ended before/after round 5", st, rnd)
    _expect((rnd == 0) == (dec == S.DEC_START_STACK), "round 0 is the start-character draft", st, rnd)
    safe = np.clip(actor, 0, C.MAX_SEATS - 1)
    is_tom = np.take_along_axis(st["is_tom"].astype(np.int64), safe[:, None], 1)[:, 0]
    _expect(over | ((actor >= 0) & (actor < n) & (is_tom == 0)), "the actor is not an agent seat", st, actor)
    _expect(~over | (actor == S.NO_SEAT), "an actor after the end", st, actor)
    _expect((st["bid_value"] >= 0).all(1), "negative bid value", st)
    # during a bidding round (bids, their characters and their evaluation) every part of a bid
    # is worth 1 for 1 or 2 cards, so value <= cards played <= 2 * value, except the value that
    # 14, 16, 17 and 20 add without a card of their own (R10, R11): at most their uses this round
    bid_ability = np.isin(dec, CHARACTER_DECISIONS) & (st["ability_context"] == S.CTX_BID)
    in_round = bid_ability | np.isin(dec, (S.DEC_BID, S.DEC_ELEVATOR, S.DEC_PRESTIGE_TILE,
                                           S.DEC_PRESTIGE_VESSEL, S.DEC_PRESTIGE_BOROUGH, S.DEC_BUILD))
    cards = st["played"].astype(np.int64).sum(2)
    value = st["bid_value"].astype(np.int64)
    used = (st["tile_loc"] == S.LOC_OWNED) & (st["tile_used"] == 1)
    cardless = _per_seat(st, used * ABILITY_BID_VALUE[C.TILE_CHARACTER])
    _expect(~in_round | ((value <= cards + cardless) & (cards <= 2 * value)).all(1),
            "played cards do not match the bid value", st, (cards, value, cardless))
    outside = np.isin(dec, (S.DEC_START_STACK, S.DEC_PICK_PAIR, S.DEC_AFTER_PICK, S.DEC_PHASE3,
                            S.DEC_GAME_OVER))
    _expect(~outside | (cards == 0).all(1), "played cards outside a bidding round", st, cards)
    _expect(~(dec == S.DEC_PICK_PAIR) | (st["num_pairs"] == 2 * st["num_agents"] + 1),
            "R6: 2 pairs per agent + 1 are dealt", st, st["num_pairs"])
    if over.any():
        check_final(st[over])


def check_final(st):
    """End of game (R20): breakdown lines add up, the winner has the highest total."""
    lines = st["score_lines"].astype(np.int64)
    active = _seat_active(st)
    _expect((lines * ~active[:, :, None] == 0).all((1, 2)), "score lines for an empty seat", st)
    totals = np.where(active, lines.sum(2), np.iinfo(np.int64).min)
    w = st["winner"].astype(np.int64)
    _expect((w >= 0) & (w < st["num_seats"]), "winner out of range", st, w)
    _expect(totals[np.arange(len(st)), np.clip(w, 0, C.MAX_SEATS - 1)] == totals.max(1),
            "the winner does not have the highest total", st, totals)
    _expect(((lines[:, :, S.SCORE_TRACK] == st["points"]) | ~active).all(1), "track line != points", st)
    sky = st["skyscrapers"][:, :, : C.MAX_SEATS].astype(np.int64)
    everywhere = (sky > 0).all(1)
    _expect(((lines[:, :, S.SCORE_BOROUGH_BONUS] == C.BOROUGH_BONUS_END * everywhere) | ~active).all(1),
            "borough bonus line", st)
    press = st["press_space"][:, : C.MAX_SEATS] >= C.PRESS_BONUS_SPACE
    _expect(((lines[:, :, S.SCORE_PRESS_BONUS] == C.PRESS_BONUS_POINTS * press) | ~active).all(1),
            "press bonus line", st)
    # the rest line halves the dollars and board skyscrapers left after the sets of 40-42
    rest = (st["dollars"].astype(np.int64) + st["board_skyscrapers"] + 1) // 2
    uses_goods = np.zeros((len(st), C.MAX_SEATS), dtype=bool)
    needs_goods = (C.SET_TABLE[:, C.SET_DOLLARS] + C.SET_TABLE[:, C.SET_SKYSCRAPERS]) > 0
    goods_chars = C.FIRST_SET_CHARACTER + np.flatnonzero(needs_goods)
    gi, ti = np.nonzero((st["tile_loc"] == S.LOC_OWNED) & np.isin(C.TILE_CHARACTER, goods_chars))
    uses_goods[gi, st["tile_owner"][gi, ti]] = True
    got = lines[:, :, S.SCORE_REST]
    _expect(((got == rest) | uses_goods | ~active).all(1), "rest line != (dollars + board) / 2 up", st,
            np.stack([got, rest], 1))
    _expect(((got >= 0) & (got <= rest)).all(1), "rest line above (dollars + board) / 2 up", st)
    for b in range(C.NUM_BOROUGHS):
        scored = lines[:, :, S.SCORE_BOROUGH + b]
        _expect(((scored == 0) | (sky[:, b, :] > 0)).all(1), f"borough {b} scored without a skyscraper", st)
        top = st["borough_base"][:, b:b + 1] + st["borough_prestige"][:, b:b + 1]
        _expect(((scored >= 0) & (scored <= top)).all(1), f"borough {b} scored more than its value", st)
    value = np.zeros((len(st), C.MAX_SEATS), dtype=np.int64)
    loc, owner = st["tile_loc"], st["tile_owner"].astype(np.int64)
    gi, ti = np.nonzero(loc == S.LOC_OWNED)
    np.add.at(value, (gi, owner[gi, ti]), C.TILE_VALUE[ti])
    _expect(((lines[:, :, S.SCORE_CHARACTERS] == value) | ~active).all(1), "character value line", st)


def check_states(st):
    """Every per-state invariant on a batch of records."""
    assert st.dtype == STATE_DTYPE and st.ndim == 1
    check_cards(st)
    check_tiles(st)
    check_board(st)
    check_progress(st)


def check_masks(st, masks):
    """Never empty before the end, all False after; only the pending decision's blocks."""
    over = st["decision"] == S.DEC_GAME_OVER
    _expect(over | masks.any(1), "empty legal mask before the end", st)
    _expect(~over | ~masks.any(1), "a legal action after the end", st)
    bad = masks & ~ALLOWED[st["decision"]]
    _expect(~bad.any(1), "an action of another decision is legal", st,
            [np.flatnonzero(row).tolist() for row in bad])
    # USE_CHARACTER c: the actor owns a tile of c not used this round, and a dollar unless free
    offered = masks[:, USE_CHARACTER:USE_CHARACTER + NUM_ABILITIES]
    unused = _unused_by_actor(st)[:, 1:NUM_ABILITIES + 1] > 0
    actor = np.clip(st["actor"].astype(np.int64), 0, C.MAX_SEATS - 1)
    has_dollar = st["dollars"][np.arange(len(st)), actor] >= 1
    payable = unused & (has_dollar[:, None] | (C.CHARACTER_FREE[1:NUM_ABILITIES + 1] != 0)[None, :])
    _expect(~(offered & ~payable).any(1), "a character offered without an unused tile or a dollar", st,
            [np.flatnonzero(row) + 1 for row in offered & ~payable])
    # a character turn is asked only when a character can be used in it
    dec = st["decision"]
    _expect(~np.isin(dec, CHARACTER_TURNS) | offered.any(1), "a character turn with no character", st)
    # abilities that always have an effect are offered whenever they can be paid
    for d, chars in ALWAYS_EFFECTIVE.items():
        cols = np.array(chars) - 1
        missing = (dec == d)[:, None] & payable[:, cols] & ~offered[:, cols]
        _expect(~missing.any(1), f"a payable character not offered at decision {d}", st,
                [np.array(chars)[row] for row in missing])


def _gains_ok(gain, value, seats):
    """An evaluation that pays each bidder its bid value and the highest bidder 1 more."""
    extra = gain - value
    bidder = value > 0
    ok = (((extra == 0) | ((extra == 1) & bidder)) | ~seats).all(1)
    ok &= (extra * seats).sum(1) == bidder.any(1)
    ok &= ~((extra == 1) & (value < value.max(1)[:, None])).any(1)
    return ok


def check_transition(before, after, actions):
    """What one legal action (``actions``, one per game) may change."""
    actions = np.asarray(actions, dtype=np.int64).reshape(len(before))
    games = np.arange(len(before))
    _expect(after["num_decisions"] == before["num_decisions"] + 1, "num_decisions is not +1 per action",
            before)
    d_round = after["round"].astype(np.int64) - before["round"]
    _expect((d_round >= 0) & (d_round <= 1), "the round went back or skipped", before, d_round)
    for field in ("num_seats", "num_agents", "is_tom", "borough_sequence", "borough_base",
                  "prestige_stack", "start_stacks"):
        same = (after[field] == before[field]).reshape(len(before), -1).all(1)
        _expect(same, f"{field} changed during play", before)
    dec = before["decision"].astype(np.int64)
    seats = _seat_active(before)
    actor = SEATS[None, :] == before["actor"][:, None]  # (B, MAX_SEATS): the seat that acted
    is_use = (actions >= USE_CHARACTER) & (actions < USE_CHARACTER + NUM_ABILITIES)
    used_c = np.where(is_use, actions - USE_CHARACTER + 1, 0)  # the character used, or 0
    paid = is_use & (C.CHARACTER_FREE[used_c] == 0)

    # R8: reserve_size grows by 1 per use of character 3, and never otherwise
    grow = after["reserve_size"].astype(np.int64) - before["reserve_size"]
    _expect((grow == actor * (used_c == BIGGER_RESERVE)[:, None]).all(1),
            "reserve_size changed other than by character 3", before, grow)

    # The Phase II evaluation of a bidding round ran if this action ended the round's bids.
    evaluated = (dec == S.DEC_BID) & ((after["bid_round"] != before["bid_round"])
                                      | (after["round"] != before["round"])
                                      | (after["decision"] == S.DEC_AFTER_EVALUATION))
    value = before["bid_value"].astype(np.int64)

    # Dollars: a non-free character costs 1 from the board (onto the tile); 6, 9 and 18 give
    # some; the dollars round pays bid value (+1 for the highest bid); nothing else moves them.
    delta = after["dollars"].astype(np.int64) - before["dollars"]
    rest = delta - actor * (ABILITY_DOLLARS[used_c] - paid)[:, None]
    dollars = evaluated & (before["bid_round"] == C.DOLLARS)
    _expect(dollars | (rest == 0).all(1), "dollars changed other than by a character's cost or gain",
            before, np.stack([delta, rest], 1))
    _expect(~dollars | _gains_ok(rest, value, seats), "dollars round: gains are not bid value (+1 for "
            "the highest bid)", before, np.stack([rest, value], 1))

    # Neutral skyscrapers never come back; 11 sends exactly one away, in the chosen borough, and
    # puts one from the user's board in its place.
    replaced = dec == S.DEC_CHARACTER_BOROUGH
    borough = np.clip(actions - CHARACTER_BOROUGH, 0, C.NUM_BOROUGHS - 1)
    chosen = replaced[:, None] & (np.arange(C.NUM_BOROUGHS)[None, :] == borough[:, None])
    sky_b, sky_a = before["skyscrapers"].astype(np.int64), after["skyscrapers"].astype(np.int64)
    neutral_delta = sky_a[:, :, C.NEUTRAL] - sky_b[:, :, C.NEUTRAL]
    _expect((neutral_delta == -chosen.astype(np.int64)).all(1),
            "neutral skyscrapers changed other than by character 11", before, neutral_delta)
    city_delta = sky_a[:, :, : C.MAX_SEATS] - sky_b[:, :, : C.MAX_SEATS]
    board_delta = after["board_skyscrapers"].astype(np.int64) - before["board_skyscrapers"]
    moved = ((board_delta == -actor.astype(np.int64))
             & (city_delta == chosen[:, :, None] * actor[:, None, :]).all(1))
    _expect(~replaced | moved.all(1), "character 11 did not move one skyscraper from the board", before)

    # Skyscrapers of a participant (board + city) come from the supply only when building plans
    # are evaluated (each bidder gains its bid value, the highest bidder one more), with 24 and
    # 26 (one onto the board), and with 21 (one per tile of 21 in each building action of the
    # prestige and skyscraper rounds: when building from the board, or with the first skyscraper
    # sold into the borough when the board was empty). 11 and selling only move them.
    delta = board_delta + city_delta.sum(1)
    n21 = _per_seat(before, C.TILE_CHARACTER == FREE_SKYSCRAPER)
    building_round = np.isin(before["bid_round"], (C.PRESTIGE, C.SKYSCRAPERS)) & ~replaced
    from_board = building_round[:, None] & (board_delta < 0)
    # the first sale of a building action that built nothing from the board: all of the
    # action's count is still to build (prestige: 1; skyscrapers: bid value, +1 for the bonus)
    bidder_seat = np.clip(before["actor"].astype(np.int64), 0, C.MAX_SEATS - 1)
    count = np.where(before["bid_round"] == C.PRESTIGE, 1,
                     value[games, bidder_seat] + (before["bonus_winner"] == before["actor"]))
    first_sale = ((dec == S.DEC_BUILD) & (actions >= SELL_FROM) & (actions < SELL_FROM + C.NUM_BOROUGHS)
                  & (before["build_left"] == count))
    bonus = n21 * (from_board | (first_sale[:, None] & actor))
    rest = delta - bonus - actor * ABILITY_SKYSCRAPERS[used_c][:, None]
    plans = evaluated & (before["bid_round"] == C.PLANS)
    _expect(plans | (rest == 0).all(1), "skyscrapers created or lost other than by building plans or "
            "characters 21, 24, 26", before, np.stack([delta, bonus], 1))
    _expect(~plans | _gains_ok(rest, value, seats), "building plans: gains are not bid value (+1 for the "
            "top bid)", before, np.stack([rest, value], 1))

    # Character tiles. An owned tile keeps its owner; only 7 gives one up (it leaves the game).
    loc_b, loc_a = before["tile_loc"], after["tile_loc"]
    owned_b, owned_a = loc_b == S.LOC_OWNED, loc_a == S.LOC_OWNED
    kept = owned_b & owned_a
    _expect(~(kept & (before["tile_owner"] != after["tile_owner"])).any(1), "an owned tile changed owner",
            before)
    left = owned_b & ~owned_a
    swap = (dec == S.DEC_CHARACTER_TILE) & (before["ability"] == SWAP_CHARACTER)
    given_up = np.zeros_like(left)
    given_up[games[swap], np.clip(actions[swap] - CHARACTER_TILE, 0, C.NUM_TILES - 1)] = True
    _expect((left == given_up).all(1), "an owned tile left its owner other than by character 7", before)
    users = before["tile_owner"] == before["actor"][:, None]  # (B, NUM_TILES): the actor's tiles
    _expect((~given_up | ((loc_a == S.LOC_REMOVED) & users)).all(1),
            "character 7: the tile given up is not the user's, or it stays in the game", before)
    joined = ~owned_b & owned_a
    _expect(~(joined & ((after["tile_used"] != 0) | (after["tile_dollar"] != 0))).any(1),
            "a newly taken tile is marked used", before)

    # R19: at the start of each round (Phase 0) every tile is unused and carries no dollar
    new_round = (d_round == 1) & (after["round"] <= C.NUM_GAME_ROUNDS)
    cleared = ((after["tile_used"] == 0) & (after["tile_dollar"] == 0)).all(1)
    _expect(~new_round | cleared, "used markers or dollars left on tiles in a new round", before)
    # Within a round, markers only appear: USE_CHARACTER c marks exactly one unused tile of c
    # of the user's, with the dollar paid onto it unless free.
    used_b, used_a = before["tile_used"].astype(np.int64), after["tile_used"].astype(np.int64)
    dol_b, dol_a = before["tile_dollar"].astype(np.int64), after["tile_dollar"].astype(np.int64)
    within = ~new_round
    _expect(~within | ~(kept & ((used_a < used_b) | (dol_a < dol_b))).any(1),
            "a used marker or dollar left a tile during the round", before)
    marked = kept & (used_a > used_b)
    _expect(~within | (marked.sum(1) == is_use), "used tiles did not rise by one per USE_CHARACTER",
            before, marked.sum(1))
    right = (C.TILE_CHARACTER[None, :] == used_c[:, None]) & users
    _expect(~within | ~(marked & ~right).any(1), "the tile marked used is not one of the user's", before)
    paid_on = kept & (dol_a > dol_b)
    _expect(~within | ((paid_on == (marked & ~TILE_FREE[None, :])).all(1) & (paid_on.sum(1) == paid)),
            "the dollar of a use is not on the tile used", before, paid_on.sum(1))


# --- drivers ---------------------------------------------------------------------------------
def _random_legal(masks, rng):
    """One uniformly random legal action per row."""
    keys = rng.random(masks.shape)
    keys[~masks] = -1.0
    return keys.argmax(1)


def _random_illegal(masks, rng):
    """One masked-out action per row; some rows get an id outside the space instead."""
    keys = rng.random(masks.shape)
    keys[masks] = -1.0
    acts = keys.argmax(1)
    outside = rng.random(len(acts))
    acts[outside < 0.05] = -1
    acts[outside > 0.95] = NUM_ACTIONS
    return acts


def play_batch_checked(num_agents, seeds, rng):
    """Play a batch of random games, checking every state, transition and an illegal probe."""
    games = new_games(GameConfig(num_agents=num_agents), seeds)
    check_states(games)
    steps = 0
    active = ~(games["decision"] == S.DEC_GAME_OVER)
    while active.any():
        idx = np.flatnonzero(active)
        cur = games[idx]
        masks = legal_masks(cur)
        check_masks(cur, masks)

        probe = cur.copy()
        illegal = apply_actions(probe, _random_illegal(masks, rng))
        _expect(illegal, "apply_actions accepted a masked-out action", cur)
        _expect(_rows_equal(probe, cur), "an illegal action changed the state", cur)

        after = cur.copy()
        actions = _random_legal(masks, rng)
        _expect(~apply_actions(after, actions), "apply_actions refused a legal action", cur, actions)
        check_states(after)
        check_transition(cur, after, actions)
        games[idx] = after
        active[idx] = after["decision"] != S.DEC_GAME_OVER
        steps += 1
        assert steps < MAX_DECISIONS, "a game did not end"
    return games


@pytest.mark.parametrize("num_agents", AGENT_COUNTS)
def test_batch_random_games_keep_every_invariant(num_agents):
    rng = np.random.default_rng(1000 + num_agents)
    seeds = [num_agents * 100_000 + k for k in range(BATCH_GAMES)]
    games = play_batch_checked(num_agents, seeds, rng)
    assert (games["decision"] == S.DEC_GAME_OVER).all()
    assert (games["num_seats"] == num_agents).all()
    masks = legal_masks(games)
    assert not masks.any()
    check_final_through_api(games)


def check_final_through_api(games):
    """The end-of-game verbs on every finished game."""
    for k in range(len(games)):
        g = games[k:k + 1].reshape(())
        n = int(g["num_seats"])
        assert is_terminal(g)
        assert current_player(g) == S.NO_SEAT
        assert not legal_mask(g).any()
        assert len(legal_actions(g)) == 0
        scores = final_scores(g)
        assert scores.shape == (n,)
        np.testing.assert_array_equal(scores, g["score_lines"][:n].sum(1))
        w = winner(g)
        assert 0 <= w < n and scores[w] == scores.max()
        breakdown = score_breakdown(g)
        assert [line["total"] for line in breakdown] == scores.tolist()
        before = g.tobytes()
        with pytest.raises(ValueError):
            apply_action(g, 0)
        assert g.tobytes() == before


def _walk_single(num_agents, seed, rng):
    """One random game through the single-game verbs, checking each state; returns the actions."""
    state = new_game(GameConfig(num_agents=num_agents), seed)
    history = []  # every state ever returned by step, with its bytes: none may change later
    actions = []
    while True:
        snapshot = state.tobytes()
        history.append((state, snapshot))
        check_states(state.reshape(1))
        mask = legal_mask(state)
        check_masks(state.reshape(1), mask[None, :])
        np.testing.assert_array_equal(legal_actions(state), np.flatnonzero(mask))
        if is_terminal(state):
            assert current_player(state) == S.NO_SEAT
            break
        assert current_player(state) == int(state["actor"])
        decision = pending_decision(state)

        # masked-out actions (a sample) are refused and change nothing
        illegal = np.flatnonzero(~mask)
        probes = list(rng.choice(illegal, size=min(4, len(illegal)), replace=False))
        probes += [int(rng.choice([-1, NUM_ACTIONS]))]
        for bad in probes:
            with pytest.raises(ValueError) as err:
                apply_action(state, int(bad))
            assert str(int(bad)) in str(err.value) and decision in str(err.value)
            assert state.tobytes() == snapshot, f"illegal action {bad} changed the state"

        legal = np.flatnonzero(mask)
        # a few other legal actions are accepted by step without touching the input
        for other in rng.choice(legal, size=min(2, len(legal)), replace=False):
            step(state, int(other))
        assert state.tobytes() == snapshot

        a = int(rng.choice(legal))
        new = step(state, a)
        assert state.tobytes() == snapshot, "step changed its input"
        assert new is not state
        same = state.copy()
        apply_action(same, a)
        assert same.tobytes() == new.tobytes(), "step differs from apply_action on a copy"
        check_transition(state.reshape(1), new.reshape(1), [a])
        actions.append(a)
        state = new
        assert len(actions) < MAX_DECISIONS, "the game did not end"
    for old, snap in history:
        assert old.tobytes() == snap, "an earlier state changed"
    check_final_through_api(state.reshape(1))
    return actions, state


@pytest.mark.parametrize("num_agents", AGENT_COUNTS)
def test_single_game_verbs_keep_every_invariant(num_agents):
    rng = np.random.default_rng(2000 + num_agents)
    for k in range(SINGLE_GAMES):
        _walk_single(num_agents, 7_000 + 31 * k + num_agents, rng)


@pytest.mark.parametrize("num_agents", AGENT_COUNTS)
def test_kernel_random_games_end_states(num_agents):
    games = new_games(GameConfig(num_agents=num_agents), [50_000 + k for k in range(KERNEL_GAMES)])
    words = np.zeros(4, dtype=np.int64)
    seed_rng(words, 4242 + num_agents)
    lengths = np.array([play_random_kernel(games, i, words, MAX_DECISIONS) for i in range(len(games))])
    assert (lengths < MAX_DECISIONS).all(), "a game did not end"
    np.testing.assert_array_equal(games["num_decisions"], lengths)
    check_states(games)
    assert (games["decision"] == S.DEC_GAME_OVER).all()
    check_masks(games, legal_masks(games))
    check_final_through_api(games)
    # random players are not all the same: games differ and winners vary
    assert len({g.tobytes() for g in games}) == len(games)
    assert len(set(games["winner"].tolist())) == num_agents


# --- determinism ---------------------------------------------------------------------------
@pytest.mark.parametrize("num_agents", AGENT_COUNTS)
def test_same_seed_same_new_game_different_seed_different(num_agents):
    cfg = GameConfig(num_agents=num_agents)
    seeds = [0, 1, 2, 3, 17, 2**31 - 1, 2**32, 2**40 + 5, 2**63 - 1]
    first = [new_game(cfg, s).tobytes() for s in seeds]
    again = [new_game(cfg, s).tobytes() for s in seeds]
    assert first == again
    assert len(set(first)) == len(seeds)
    # the seed decides the shuffles, not only the generator words
    a, b = new_game(cfg, seeds[0]), new_game(cfg, seeds[1])
    assert a["draw_pile"].tobytes() != b["draw_pile"].tobytes()
    assert new_game(cfg, None).tobytes() != new_game(cfg, None).tobytes()


def test_same_seed_same_actions_same_game():
    rng = np.random.default_rng(99)
    for num_agents in AGENT_COUNTS:
        cfg = GameConfig(num_agents=num_agents)
        state = new_game(cfg, 123)
        actions, trace = [], [state.tobytes()]
        while not is_terminal(state):
            a = int(rng.choice(legal_actions(state)))
            apply_action(state, a)
            actions.append(a)
            trace.append(state.tobytes())
        replay = new_game(cfg, 123)
        assert replay.tobytes() == trace[0]
        for k, a in enumerate(actions):
            apply_action(replay, a)
            assert replay.tobytes() == trace[k + 1], f"replay diverged at action {k}"


def test_different_configs_differ():
    assert len({new_game(GameConfig(num_agents=n), 5).tobytes() for n in AGENT_COUNTS}) == 3


# --- batch API -----------------------------------------------------------------------------
@pytest.mark.parametrize("num_agents", AGENT_COUNTS)
def test_batch_api_agrees_with_single_game_verbs(num_agents):
    cfg = GameConfig(num_agents=num_agents)
    seeds = [11 * k + num_agents for k in range(12)]
    batch = new_games(cfg, seeds)
    assert batch.shape == (len(seeds),) and batch.dtype == STATE_DTYPE
    singles = [new_game(cfg, s) for s in seeds]
    for k, s in enumerate(singles):
        assert batch[k].tobytes() == s.tobytes()
    rng = np.random.default_rng(num_agents)
    for _ in range(MAX_DECISIONS):
        masks = legal_masks(batch)
        assert masks.shape == (len(seeds), NUM_ACTIONS) and masks.dtype == np.bool_
        for k, s in enumerate(singles):
            np.testing.assert_array_equal(masks[k], legal_mask(s))
        actions = _random_legal(masks, rng)
        wrong = rng.random(len(seeds)) < 0.25
        actions[wrong] = _random_illegal(masks, rng)[wrong]
        over = batch["decision"] == S.DEC_GAME_OVER
        flags = apply_actions(batch, actions)
        assert flags.shape == (len(seeds),)
        for k, s in enumerate(singles):
            try:
                apply_action(s, int(actions[k]))
                refused = False
            except ValueError:
                refused = True
            assert flags[k] == refused, f"game {k}, action {actions[k]}"
            assert flags[k] == (wrong[k] or over[k])
            assert batch[k].tobytes() == s.tobytes(), f"game {k} after action {actions[k]}"
        if over.all():
            break
    else:
        raise AssertionError("the batch never finished")
    # a batch of one and a 0-d single game are the same game to the single-game verbs
    one = new_games(cfg, [seeds[0]])
    np.testing.assert_array_equal(legal_mask(one), legal_masks(one)[0])


# --- the checks themselves can fail -------------------------------------------------------
def _corruptions():
    """(name, function editing one record) pairs, each breaking one invariant."""
    def first_owned(r):
        return int(np.flatnonzero(r["tile_loc"] == S.LOC_OWNED)[0])

    def move_owned_to_display(r):
        r["elevator_display"][0, 0] = first_owned(r)

    def lose_owned_tile(r):
        r["tile_loc"][first_owned(r)] = S.LOC_DISPLAY

    def steal_card(r):
        t = int(np.flatnonzero(r["reserve"][0])[0])
        r["reserve"][0, t] -= 1
        r["reserve_size"][0] -= 1

    def swap_card_type(r):
        t = int(np.flatnonzero(r["reserve"][0])[0])
        r["reserve"][0, t] -= 1
        r["reserve"][0, (t + 1) % C.NUM_CARD_TYPES] += 1

    def shrink_reserve(r):
        r["reserve_size"][1] += 1

    def extra_pair_card(r):
        r["pairs"][C.MAX_PAIRS - 1, 0] = 0

    def press_off_track(r):
        r["press_space"][0] = C.PRESS_LAST_SPACE + 1

    def press_tie(r):
        r["press_space"][1] = r["press_space"][0]
        r["press_height"][1] = r["press_height"][0]

    def third_neutral(r):
        r["skyscrapers"][0, C.NEUTRAL] = C.NEUTRAL_SKYSCRAPERS_PER_BOROUGH + 1

    def negative_board(r):
        r["board_skyscrapers"][0] = -1

    def prestige_value(r):
        r["borough_prestige"][0] += 1

    def vessel_without_tile(r):
        r["vessel_owner"][0] = 0

    def wrong_actor(r):
        r["actor"] = r["num_seats"]

    def wrong_round(r):
        r["round"] = C.NUM_GAME_ROUNDS + 1

    def dollar_on_unused_tile(r):
        r["tile_dollar"][int(np.flatnonzero((r["tile_loc"] == S.LOC_OWNED) & (r["tile_used"] == 0))[0])] = 1

    def used_removed_tile(r):
        r["tile_used"][int(np.flatnonzero(r["tile_loc"] == S.LOC_REMOVED)[0])] = 1

    def reserve_size_beyond_character_3(r):
        # one card more in the reserve than 3 can have given by now, drawn from the pile
        extra = C.START_RESERVE + int(r["round"]) + 1 - int(r["reserve_size"][0])
        r["reserve_size"][0] += extra
        for _ in range(extra):
            r["draw_count"] -= 1
            r["reserve"][0, r["draw_pile"][r["draw_count"]]] += 1

    return [(f.__name__, f) for f in (
        move_owned_to_display, lose_owned_tile, steal_card, swap_card_type, shrink_reserve,
        extra_pair_card, press_off_track, press_tie, third_neutral, negative_board, prestige_value,
        vessel_without_tile, wrong_actor, wrong_round, dollar_on_unused_tile, used_removed_tile,
        reserve_size_beyond_character_3)]


@pytest.mark.parametrize("name,corrupt", _corruptions())
def test_invariant_checks_catch_a_corrupted_state(name, corrupt):
    state = new_game(GameConfig(num_agents=3), 8)
    while int(state["round"]) < 2 or int(state["decision"]) != S.DEC_BID:
        apply_action(state, int(legal_actions(state)[0]))
    check_states(state.reshape(1))
    corrupt(state.reshape(1)[0])
    with pytest.raises(AssertionError):
        check_states(state.reshape(1))


def test_transition_check_catches_a_lost_skyscraper():
    state = new_game(GameConfig(num_agents=2), 3)
    action = int(legal_actions(state)[0])
    after = step(state, action)
    check_transition(state.reshape(1), after.reshape(1), [action])
    after.reshape(1)[0]["board_skyscrapers"][0] -= 1
    with pytest.raises(AssertionError, match="skyscrapers"):
        check_transition(state.reshape(1), after.reshape(1), [action])


def _first_paid_use(num_agents, seed):
    """A game at the first decision offering a character that costs a dollar."""
    state = new_game(GameConfig(num_agents=num_agents), seed)
    paid = USE_CHARACTER + np.flatnonzero(C.CHARACTER_FREE[1:NUM_ABILITIES + 1] == 0)
    rng = np.random.default_rng(seed)
    while not is_terminal(state):
        legal = legal_actions(state)
        offered = np.intersect1d(legal, paid)
        if len(offered):
            return state, int(offered[0])
        apply_action(state, int(rng.choice(legal)))
    raise AssertionError("no paid character was ever offered")


@pytest.mark.parametrize("field,change,message", [
    ("dollars", +1, "dollars changed"),  # the use cost nothing
    ("dollars", -1, "dollars changed"),  # it cost two
    ("tile_used", -1, "used tiles did not rise"),  # no tile was marked
    ("tile_dollar", -1, "dollar of a use"),  # the dollar vanished instead of lying on the tile
    ("reserve_size", +1, "reserve_size"),  # the reserve grew without character 3
])
def test_transition_check_catches_a_wrong_character_use(field, change, message):
    state, action = _first_paid_use(3, 5)
    r = state.reshape(1)[0]
    seat = int(r["actor"])
    after = step(state, action)
    check_transition(state.reshape(1), after.reshape(1), [action])
    a = after.reshape(1)[0]
    if field in ("tile_used", "tile_dollar"):
        tile = int(np.flatnonzero(a[field] > r[field])[0])
        a[field][tile] += change
    else:
        a[field][seat] += change
    with pytest.raises(AssertionError, match=message):
        check_transition(state.reshape(1), after.reshape(1), [action])


def test_transition_check_catches_markers_left_in_a_new_round():
    state = new_game(GameConfig(num_agents=2), 11)
    rng = np.random.default_rng(11)
    while True:
        action = int(rng.choice(legal_actions(state)))
        after = step(state, action)
        if int(after["round"]) == int(state["round"]) + 1 == 3:
            break
        state = after
    check_transition(state.reshape(1), after.reshape(1), [action])
    a = after.reshape(1)[0]
    a["tile_used"][int(np.flatnonzero(a["tile_loc"] == S.LOC_OWNED)[0])] = 1
    with pytest.raises(AssertionError, match="new round"):
        check_transition(state.reshape(1), after.reshape(1), [action])
