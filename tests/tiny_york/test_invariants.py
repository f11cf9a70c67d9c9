"""Invariants over thousands of random games (architecture.md, "Tests in three layers").

Three kinds of random play, 2, 3 and 4 agents each, and games with Toms (R1, R21-R24): every
level solo, 1 agent with 2 and 3 Toms, 2 agents with 1-2 Toms, 3 agents with 1 Tom, levels
and custom codes mixed:

* batch games (``new_games`` / ``legal_masks`` / ``apply_actions``) with every state and every
  transition checked, and a random illegal action probed in every state;
* single games through the public verbs (``legal_mask``, ``step``, ``apply_action``) with the
  purity of ``step``, the mask/``apply_action`` agreement and earlier copies checked per state;
* games played by the compiled ``play_random_kernel`` whose end states are checked.

The checks read the record directly and are written from the rulebook and the state's
documented meaning, not from the engine's helpers, so an engine bug cannot hide in both.
Tom's turns run inside an agent's action, so the transition check rebuilds them from the solo
rules (R21 bids, R14 elevator picks, R23 prestige moves, R22 builds, the draw by mode) and
compares the result with the state after the action.
"""

import numpy as np
import pytest

from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.games.tiny_york import (
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
from tiny_york_env.games.tiny_york import components as C
from tiny_york_env.games.tiny_york import state as S
from tiny_york_env.games.tiny_york.actions import (
    ACTION_BLOCKS,
    BID_DONE,
    CHARACTER_BOROUGH,
    CHARACTER_TILE,
    ELEVATOR_TAKE,
    SELL_FROM,
    START_STACK,
    USE_CHARACTER,
)
from tiny_york_env.games.tiny_york.batch import play_random_kernel
from tiny_york_env.games.tiny_york.config import NUM_TOM_LEVELS

AGENT_COUNTS = (2, 3, 4)
# Under TINY_YORK_JIT=0 (debugging, coverage) the engine is plain Python: play fewer games.
_SCALE = 1 if JIT_ENABLED else 20
BATCH_GAMES = 300 // _SCALE  # per agent count, every state checked
SINGLE_GAMES = 8 // min(_SCALE, 4)  # per agent count, every state checked through the single-game verbs
KERNEL_GAMES = 500 // _SCALE  # per agent count, end states checked
MAX_DECISIONS = 5_000  # far above any real game (about 200-400 decisions)
FINAL_ROUND = C.NUM_GAME_ROUNDS + 1  # the round counter after round 5 is over

# --- games with Toms (R1): every level solo; several Toms; several agents; custom codes ------
SOLO_CONFIGS = tuple(GameConfig(num_agents=1, toms=(level,)) for level in range(1, NUM_TOM_LEVELS + 1))
GROUP_CONFIGS = (
    GameConfig(num_agents=1, toms=("A2",)),  # custom codes at both ends of the draw count
    GameConfig(num_agents=1, toms=("C9",)),
    GameConfig(num_agents=1, toms=("A2", 9)),
    GameConfig(num_agents=1, toms=("C9", 12, "B2")),
    GameConfig(num_agents=2, toms=(5,)),
    GameConfig(num_agents=2, toms=("C9",)),
    GameConfig(num_agents=2, toms=(1, "B7")),
    GameConfig(num_agents=3, toms=(11,)),
)
TOM_CONFIGS = SOLO_CONFIGS + GROUP_CONFIGS
TOM_BATCH_GAMES = (max(1, 12 // _SCALE), max(1, 20 // _SCALE))  # per config: solo, the others
TOM_KERNEL_GAMES = 200 // _SCALE  # per config, end states checked
TOM_MAX_PER_BOROUGH = 5  # R22
WILDS_FOR_TOM = (C.PLANS, C.WILD)  # "building plans are always wild cards for Tom"
NON_WILD_TYPES = np.array([t for t in range(C.NUM_CARD_TYPES) if t not in WILDS_FOR_TOM])
TOM_MODE_A, TOM_MODE_B, TOM_MODE_C = range(3)  # the solo rules' modes, in the order of TOM_MODES

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
    S.DEC_DECLARE_BID_LAST: ("END_TURN",),
}
# Which characters each decision may offer with USE_CHARACTER (R8, R11, R18; the docs table).
CHARACTERS_AT = {
    S.DEC_PICK_PAIR: (1, 2, 3, 4, 5, 6, 7, 9, 10, 11),
    S.DEC_AFTER_PICK: (8,),
    S.DEC_BID: (12, 13, 14, 15, 16, 17, 19, 20),
    S.DEC_DECLARE_BID_LAST: (18,),  # R11: declared before the first bid of a bidding round
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
CHARACTER_TURNS = (S.DEC_AFTER_PICK, S.DEC_AFTER_EVALUATION, S.DEC_PHASE3, S.DEC_DECLARE_BID_LAST)
CHARACTER_DECISIONS = (S.DEC_CHARACTER_CARD, S.DEC_CHARACTER_TILE, S.DEC_CHARACTER_ELEVATOR,
                       S.DEC_CHARACTER_PAIR_CARD, S.DEC_CHARACTER_PAIR, S.DEC_CHARACTER_BOROUGH,
                       S.DEC_CHARACTER_STEPS)
# Decisions inside the evaluation of a bidding round (R14-R16).
PRESTIGE_DECISIONS = (S.DEC_PRESTIGE_TILE, S.DEC_PRESTIGE_VESSEL, S.DEC_PRESTIGE_BOROUGH)
EVALUATION_DECISIONS = (S.DEC_ELEVATOR,) + PRESTIGE_DECISIONS + (S.DEC_BUILD,)

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


def _tom_seats(st):
    return _seat_active(st) & (st["is_tom"] != 0)


def _phases(st):
    """(phase I, Phase II, Phase III or over) masks from the pending decision: when Tom's supply
    is empty, and when a bidding round (its bids, evaluation and character 22) is running."""
    dec = st["decision"]
    ctx = st["ability_context"]
    ability = np.isin(dec, CHARACTER_DECISIONS)
    phase1 = (np.isin(dec, (S.DEC_START_STACK, S.DEC_PICK_PAIR, S.DEC_AFTER_PICK))
              | ability & np.isin(ctx, (S.CTX_PICK, S.CTX_AFTER_PICK)))
    phase2 = (np.isin(dec, (S.DEC_BID, S.DEC_DECLARE_BID_LAST, S.DEC_AFTER_EVALUATION) + EVALUATION_DECISIONS)
              | ability & np.isin(ctx, (S.CTX_BID, S.CTX_AFTER_EVALUATION)))
    phase3 = (dec == S.DEC_PHASE3) | (dec == S.DEC_GAME_OVER) | ability & (ctx == S.CTX_PHASE3)
    return phase1, phase2, phase3


def _ahead(r, x, y):
    """R2 on one record: token ``x`` ranks ahead of token ``y`` (higher space, then on top)."""
    sx, sy = int(r["press_space"][x]), int(r["press_space"][y])
    return sx > sy if sx != sy else int(r["press_height"][x]) > int(r["press_height"][y])


def _press_order(r):
    """The participants of one record in press order (R2, neutral excluded)."""
    n = int(r["num_seats"])
    return sorted(range(n), key=lambda s: (-int(r["press_space"][s]), -int(r["press_height"][s])))


def _highest(r, values, excluded=S.NO_SEAT):
    """R12: the seat with the highest value > 0, ties to the one ahead in press order."""
    best = S.NO_SEAT
    for s, v in enumerate(values):
        if s == excluded or v <= 0:
            continue
        if best == S.NO_SEAT or v > values[best] or (v == values[best] and _ahead(r, s, best)):
            best = s
    return best


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
    # Toms own tiles too: their start stack (R4) and what the elevator round gives them (R14)
    valid_owner = (owner >= 0) & (owner < st["num_seats"][:, None])
    _expect(((loc != S.LOC_OWNED) | valid_owner).all(1), "an owned tile without a participant owner", st,
            owner)
    _expect(((loc == S.LOC_OWNED) | (owner == S.NO_SEAT)).all(1), "an unowned tile has an owner", st)

    # R4: hidden stacks are never chosen; after the draft every participant holds exactly one
    # stack (participants + 1 are revealed without Toms, one per participant with Toms)
    n = st["num_seats"].astype(np.int64)
    shown = n + (st["num_agents"] == st["num_seats"])  # participants + 1 without Toms
    revealed_zone = np.arange(C.NUM_START_STACKS)[None, :] < shown[:, None]
    _expect((revealed_zone | (status == S.STACK_HIDDEN) | (status == S.STACK_REMOVED)).all(1),
            "a hidden start stack was revealed or taken", st, status)
    _expect((~revealed_zone | (status != S.STACK_HIDDEN)).all(1), "a stack that should show is hidden", st)
    drafted = st["round"] >= 1
    taken = taken_stack.sum(1)
    _expect(~drafted | ((taken == n) & ~in_place.any(1)),
            "after the draft: not one start stack per participant, or stacks left on the table", st,
            status)
    tom_took = taken_stack & (np.take_along_axis(
        st["is_tom"].astype(np.int64), np.clip(stack_owner, 0, C.MAX_SEATS - 1), 1) != 0)
    _expect(drafted | ~tom_took.any(1), "a Tom took a start stack before the agents had chosen (R4)", st,
            status)
    per_seat = np.zeros((b, C.MAX_SEATS), dtype=np.int64)
    gi, si = np.nonzero(stack_owner >= 0)
    np.add.at(per_seat, (gi, stack_owner[gi, si]), 1)
    _expect((per_seat <= 1).all(1), "a participant took two start stacks", st, per_seat)
    # every agent holds its stack, except takers whose both start tiles 7 gave up; every Tom
    # holds his (Toms never use characters)
    agents = _agent_seats(st)
    gone = (taken_stack & (stack_owner == S.NO_SEAT)).sum(1)
    without = (agents & (per_seat == 0)).sum(1)
    _expect(~drafted | (without == gone), "an agent without a start stack", st, per_seat)
    _expect(~drafted | ((per_seat == 1) | ~_tom_seats(st)).all(1), "a Tom without a start stack", st,
            per_seat)

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
    # R3: a bidding round runs clockwise by seat from its start player (18 sends its user last)
    bidding = dec == S.DEC_BID
    order = st["order"][:, : C.MAX_SEATS].astype(np.int64)
    clockwise = (st["bid_start"][:, None] + SEATS[None, :]) % np.maximum(n, 1)[:, None]
    in_order = ((order == clockwise) | (SEATS[None, :] >= n[:, None])).all(1)
    _expect(~bidding | (st["character18_used"] != 0) | in_order, "R3: the bidding order is not clockwise "
            "from the start player", st, order)
    at_cursor = np.take_along_axis(order, np.clip(st["cursor"], 0, C.MAX_SEATS - 1)[:, None], 1)[:, 0]
    _expect(~bidding | (at_cursor == actor), "the seat bidding is not the one at the bidding cursor", st)
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
    # Tom's card drawn before the bidding round is played at once, before his bid (solo rules):
    # his own rules are in check_toms
    before_tom_bid = _tom_seats(st) & (st["bid_done"] == 0)
    _expect(~in_round | ((value <= cards + cardless) & (cards <= 2 * value) | before_tom_bid).all(1),
            "played cards do not match the bid value", st, (cards, value, cardless))
    outside = np.isin(dec, (S.DEC_START_STACK, S.DEC_PICK_PAIR, S.DEC_AFTER_PICK, S.DEC_PHASE3,
                            S.DEC_GAME_OVER))
    _expect(~outside | (cards == 0).all(1), "played cards outside a bidding round", st, cards)
    # R6: 2 pairs per agent + 1 per Tom, + 1 when two or more agents play
    pairs = (C.PAIRS_PER_AGENT * st["num_agents"] + st["num_seats"] - st["num_agents"]
             + (st["num_agents"] >= 2))
    _expect(~(dec == S.DEC_PICK_PAIR) | (st["num_pairs"] == pairs),
            "R6: 2 pairs per agent + 1 per Tom (+ 1 with several agents) are dealt", st, st["num_pairs"])
    if over.any():
        check_final(st[over])


def _borough_value(r, b):
    """Base value tile plus the value of every prestige tile lying in borough ``b`` (rulebook
    final scoring: "the total of the base tile plus all prestige tiles in that borough")."""
    placed = r["prestige_loc"] == b
    return int(r["borough_base"][b]) + int(C.PRESTIGE_TILE_VALUE[placed].sum())


def _majority_lines(r):
    """R20 on one record, by hand: (MAX_SEATS, NUM_BOROUGHS) majority points. In each borough the
    participants and the neutral player are ranked by skyscrapers there, ties by press order
    with the neutral token counted (higher space, then higher in the stack); 1st gets the
    borough's value, each next rank half the previous rounded up; a token without a skyscraper
    there gets nothing; the neutral player's points are virtual."""
    n = int(r["num_seats"])
    tokens = [*range(n), C.NEUTRAL]
    out = np.zeros((C.MAX_SEATS, C.NUM_BOROUGHS), dtype=np.int64)
    for b in range(C.NUM_BOROUGHS):
        ranked = sorted(tokens, key=lambda t, b=b: (-int(r["skyscrapers"][b, t]), -int(r["press_space"][t]),
                                                    -int(r["press_height"][t])))
        value = _borough_value(r, b)
        for token in ranked:
            if token != C.NEUTRAL and r["skyscrapers"][b, token] > 0:
                out[token, b] = value
            value = -(-value // 2)
    return out


def check_final(st):
    """End of game (R20): breakdown lines add up, the winner has the highest total, and each
    borough's majority line is the one worked out by hand (``_majority_lines``)."""
    lines = st["score_lines"].astype(np.int64)
    active = _seat_active(st)
    _expect((lines * ~active[:, :, None] == 0).all((1, 2)), "score lines for an empty seat", st)
    totals = np.where(active, lines.sum(2), np.iinfo(np.int64).min)
    w = st["winner"].astype(np.int64)
    _expect((w >= 0) & (w < st["num_seats"]), "winner out of range", st, w)
    _expect(totals[np.arange(len(st)), np.clip(w, 0, C.MAX_SEATS - 1)] == totals.max(1),
            "the winner does not have the highest total", st, totals)
    best = [min(_press_order(r), key=lambda s, t=t: -t[s]) for r, t in zip(st, totals, strict=True)]
    _expect(w == np.array(best), "R20: the winner is the highest total, ties to the one ahead in press order",
            st, np.stack([w, np.array(best)], 1))
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
    toms = _tom_seats(st)
    _expect(((got == rest) | uses_goods | toms | ~active).all(1), "rest line != (dollars + board) / 2 up",
            st, np.stack([got, rest], 1))
    _expect(((got >= 0) & (got <= rest)).all(1), "rest line above (dollars + board) / 2 up", st)
    for b in range(C.NUM_BOROUGHS):
        scored = lines[:, :, S.SCORE_BOROUGH + b]
        _expect(((scored == 0) | (sky[:, b, :] > 0)).all(1), f"borough {b} scored without a skyscraper", st)
        top = st["borough_base"][:, b:b + 1] + st["borough_prestige"][:, b:b + 1]
        _expect(((scored >= 0) & (scored <= top)).all(1), f"borough {b} scored more than its value", st)
    want_boroughs = np.array([_majority_lines(r) for r in st]).reshape(len(st), C.MAX_SEATS, C.NUM_BOROUGHS)
    have_boroughs = lines[:, :, S.SCORE_BOROUGH:S.SCORE_BOROUGH + C.NUM_BOROUGHS]
    _expect((have_boroughs == want_boroughs).all((1, 2)), "R20: borough majority lines", st,
            [np.stack([h, w]).tolist() for h, w in zip(have_boroughs, want_boroughs, strict=True)])
    value = np.zeros((len(st), C.MAX_SEATS), dtype=np.int64)
    loc, owner = st["tile_loc"], st["tile_owner"].astype(np.int64)
    gi, ti = np.nonzero(loc == S.LOC_OWNED)
    np.add.at(value, (gi, owner[gi, ti]), C.TILE_VALUE[ti])
    _expect(((lines[:, :, S.SCORE_CHARACTERS] == value) | toms | ~active).all(1), "character value line",
            st)
    # R24: Tom's dollars go onto his characters (lowest value first, one each, then a second
    # round); two dollars double a character; end-game abilities give him nothing; the dollars
    # left count in the last line. He has no board skyscrapers.
    want = np.zeros((len(st), C.MAX_SEATS, 3), dtype=np.int64)  # characters, end-game, rest
    for g, seat in zip(*np.nonzero(toms), strict=True):
        values = np.sort(C.TILE_VALUE[(loc[g] == S.LOC_OWNED) & (owner[g] == seat)].astype(np.int64))
        dollars = int(st["dollars"][g, seat])
        first = min(dollars, len(values))
        doubled = min(dollars - first, len(values))
        left = dollars - first - doubled
        want[g, seat] = (values.sum() + values[:doubled].sum(), 0, (left + 1) // 2)
    have = lines[:, :, [S.SCORE_CHARACTERS, S.SCORE_END_CHARACTERS, S.SCORE_REST]]
    _expect(((have == want).all(2) | ~toms).all(1),
            "R24: Tom's character, end-game character or rest line", st,
            [np.stack([h[t], w[t]]).tolist() for h, w, t in zip(have, want, toms, strict=True)])


def check_toms(st):
    """Tom's own invariants (solo rules; R5, R21-R24): no reserve, no board, at most 5 of his
    skyscrapers a borough, no character ever used; his supply through the round; his bids."""
    toms = _tom_seats(st)
    if not toms.any():
        return
    b = len(st)
    hand = st["hand"].astype(np.int64)
    played = st["played"].astype(np.int64)
    _expect(((st["reserve"].sum(2) == 0) | ~toms).all(1), "R5: Tom has reserve cards", st,
            st["reserve"].sum(2))
    _expect(((st["board_skyscrapers"] == 0) | ~toms).all(1), "R5, R22: Tom has skyscrapers on a board", st,
            st["board_skyscrapers"])
    sky = st["skyscrapers"][:, :, : C.MAX_SEATS].astype(np.int64)
    _expect(((sky <= TOM_MAX_PER_BOROUGH) | ~toms[:, None, :]).all((1, 2)),
            "R22: more than 5 of Tom's skyscrapers in a borough", st, sky.max(1))
    _expect(((sky.sum(1) >= 1) | ~toms).all(1), "Tom lost his skyscraper in X (R5)", st, sky.sum(1))
    owner = np.clip(st["tile_owner"].astype(np.int64), 0, C.MAX_SEATS - 1)
    toms_tile = (st["tile_loc"] == S.LOC_OWNED) & (np.take_along_axis(st["is_tom"], owner, 1) != 0)
    _expect(~(toms_tile & ((st["tile_used"] != 0) | (st["tile_dollar"] != 0))).any(1),
            "a used marker or dollar on a Tom's character (he never uses them)", st)

    # His supply: empty in Phase I until the agents have picked (the round end discarded it),
    # in Phase III and at the end (the skyscraper round takes or discards all that is left)
    phase1, phase2, phase3 = _phases(st)
    empty = (hand.sum(2) == 0) & (played.sum(2) == 0)
    _expect(~(phase1 | phase3) | (empty | ~toms).all(1),
            "Tom holds or plays cards in Phase I before his pair, in Phase III or after the game", st,
            hand.sum(2))
    rnd = st["bid_round"].astype(np.int64)
    in2 = phase2 & (rnd >= 0) & (rnd < C.NUM_BIDDING_ROUNDS)
    r = np.clip(rnd, 0, C.SKYSCRAPERS)
    done = st["bid_done"] != 0
    # R21: every supply card of the round's type is played on his turn, and cards of earlier
    # rounds never stay (played then, or discarded when drawn); wilds (and plans) may stay
    kinds = NON_WILD_TYPES[None, None, :]
    stale = (kinds < r[:, None, None]) | ((kinds == r[:, None, None]) & done[:, :, None])
    left = (hand[:, :, NON_WILD_TYPES] * stale).sum(2)
    _expect(~in2 | ((left == 0) | ~toms).all(1), "R21: Tom kept a card of this or an earlier bidding round",
            st, left)
    # Before his bid only the card drawn before the round can be in play (modes B and C, never
    # before the building-plans round): one of the round's type, or a wild played because he
    # holds a card of the round's type
    seat_r = np.broadcast_to(r[:, None, None], (b, C.MAX_SEATS, 1))
    played_r = np.take_along_axis(played, seat_r, 2)[:, :, 0]
    hand_r = np.take_along_axis(hand, seat_r, 2)[:, :, 0]
    played_w = played[:, :, C.PLANS] + played[:, :, C.WILD]
    may_draw = (st["tom_mode"] != TOM_MODE_A) & (rnd != C.PLANS)[:, None]
    total = played.sum(2)
    pre = (total <= may_draw) & ((r[:, None] == C.PLANS) | (total == played_r + played_w)) & (
        (played_w == 0) | (hand_r > 0))
    _expect(~in2 | (pre | done | ~toms).all(1), "Tom played cards before his bid other than the drawn one",
            st, played)
    # The press round shows his whole supply for the round: his pair + his level's Phase-I
    # draws, + the card drawn before the round (mode C always keeps or plays it; mode B keeps
    # or plays it unless it is of a later round; mode A draws none) (R7: unless no card was left)
    extra = (hand + played).sum(2) - C.CARDS_PER_PAIR - st["tom_draw"].astype(np.int64)
    mode = st["tom_mode"]
    full = np.where(mode == TOM_MODE_A, extra == 0,
                    np.where(mode == TOM_MODE_B, (extra == 0) | (extra == 1), extra == 1))
    starved = (st["draw_count"] == 0) & (st["discard"].sum(1) == 0)
    _expect(~(in2 & (rnd == C.PRESS)) | starved | (full | ~toms).all(1),
            "Tom's supply in the press round is not his pair + his level's draws (+ the card drawn)",
            st, extra)

    # R21, seen whenever his bid is on the table: all cards of the round's type, then the fewest
    # wilds that beat every bid made before his (ties by press order), none if no number does;
    # he passes without a card of the round; skips the building-plans round; in the skyscraper
    # round plays everything (two wilds as one skyscraper card), a lone wild is discarded
    n = st["num_seats"].astype(np.int64)
    bids = st["bid_value"].astype(np.int64)
    pos = (SEATS[None, :] - st["bid_start"][:, None]) % np.maximum(n, 1)[:, None]
    space, height = st["press_space"][:, : C.MAX_SEATS], st["press_height"][:, : C.MAX_SEATS]
    normal = (rnd != C.PLANS) & (rnd != C.SKYSCRAPERS)
    # 18 changes who bid before him, and the press round's evaluation moves the tokens
    over = (st["decision"] == S.DEC_AFTER_EVALUATION) | (
        np.isin(st["decision"], CHARACTER_DECISIONS) & (st["ability_context"] == S.CTX_AFTER_EVALUATION))
    judged = normal & (st["character18_used"] == 0) & ~over
    for s in range(1, C.MAX_SEATS):  # seat 0 is always an agent
        rows = in2 & toms[:, s] & done[:, s]
        if not rows.any():
            continue
        v, tot, pr, pw = bids[:, s], total[:, s], played_r[:, s], played_w[:, s]
        hw = hand[:, s, C.PLANS] + hand[:, s, C.WILD]
        ok = (rnd != C.PLANS) | ((v == 0) & (tot == 0))
        psky = played[:, s, C.SKYSCRAPERS]
        sky_value = np.where(psky > 0, tot, np.where(tot >= 2, tot - 1, 0))
        ok &= (rnd != C.SKYSCRAPERS) | ((hand[:, s].sum(1) == 0) & (tot == psky + pw) & (v == sky_value)
                                        & ((psky > 0) | (tot != 1)))
        ok &= ~normal | ((tot == pr + pw) & (v == tot) & ((pr > 0) | (tot == 0)))
        prior = (pos < pos[:, s:s + 1]) & _seat_active(st)
        here = space[:, s:s + 1]
        tom_ahead = (here > space) | ((here == space) & (height[:, s:s + 1] > height))

        def beats(x, prior=prior, tom_ahead=tom_ahead):
            return (~prior | (x[:, None] > bids) | ((x[:, None] == bids) & tom_ahead)).all(1)

        def fewest(extra, v=v, hw=hw, beats=beats):
            return (((extra == 0) & (beats(v) | ~beats(v + hw)))
                    | ((extra > 0) & beats(v) & ~beats(v - 1)))

        drawn_wild = (st["tom_mode"][:, s] != TOM_MODE_A) & (pw >= 1)  # one wild may be the drawn one
        ok &= ~(judged & (pr > 0)) | fewest(pw) | (drawn_wild & fewest(pw - 1))
        _expect(~rows | ok, f"R21: Tom's bid (seat {s}) is not his rule's", st,
                np.stack([v, pr, pw, hw, tot], 1))


def check_states(st):
    """Every per-state invariant on a batch of records."""
    assert st.dtype == STATE_DTYPE and st.ndim == 1
    check_cards(st)
    check_tiles(st)
    check_board(st)
    check_progress(st)
    check_toms(st)


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
    # Toms bidding after the acting agent bid inside this action: their bids by R21
    full, began = check_tom_transition(before, after, actions)
    evaluated |= began

    # Dollars: a non-free character costs 1 from the board (onto the tile); 6, 9 and 18 give
    # some; the dollars round pays bid value (+1 for the highest bid); nothing else moves them.
    delta = after["dollars"].astype(np.int64) - before["dollars"]
    rest = delta - actor * (ABILITY_DOLLARS[used_c] - paid)[:, None]
    dollars = evaluated & (before["bid_round"] == C.DOLLARS)
    _expect(dollars | (rest == 0).all(1), "dollars changed other than by a character's cost or gain",
            before, np.stack([delta, rest], 1))
    _expect(~dollars | _gains_ok(rest, full, seats), "dollars round: gains are not bid value (+1 for "
            "the highest bid)", before, np.stack([rest, full], 1))

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
    toms = _tom_seats(before)  # Tom's skyscrapers: check_tom_transition (R22, R23)
    _expect(plans | ((rest == 0) | toms).all(1), "skyscrapers created or lost other than by building plans "
            "or characters 21, 24, 26", before, np.stack([delta, bonus], 1))
    _expect(~plans | _gains_ok(rest * ~toms, full, seats), "building plans: gains are not bid value (+1 "
            "for the top bid)", before, np.stack([rest, full], 1))

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


# --- Tom's turns, rebuilt from the solo rules (R12-R16, R21-R23) ------------------------------
def _merged(cards):
    """A card count row with building plans counted as wilds (as they are for Tom)."""
    out = np.asarray(cards, dtype=np.int64).copy()
    out[C.WILD] += out[C.PLANS]
    out[C.PLANS] = 0
    return out


def _r21_bid(r, tom, hand, played, done):
    """R21 for Tom ``tom`` of record ``r``: his bid from his supply ``hand`` and the cards in play
    before it (the card drawn before the round), against the bids ``done`` ({seat: value}) made
    before his. Returns (value, hand, played) after it, plans counted as wilds."""
    rnd = int(r["bid_round"])
    hand, played = _merged(hand), _merged(played)
    if rnd == C.PLANS:  # he skips the building-plans round
        return 0, hand, played
    if rnd == C.SKYSCRAPERS:  # all he has: two wilds as one skyscraper card; a lone wild goes
        sky = hand[C.SKYSCRAPERS] + played[C.SKYSCRAPERS]
        wilds = hand[C.WILD] + played[C.WILD]
        played[C.SKYSCRAPERS], hand[C.SKYSCRAPERS] = sky, 0
        value = sky + wilds if sky > 0 else (wilds - 1 if wilds >= 2 else 0)
        played[C.WILD] = wilds if value > 0 else 0
        hand[C.WILD] = 0
        return int(value), hand, played
    if hand[rnd] + played[rnd] == 0:  # no card of the round: he passes
        return 0, hand, played
    played[rnd] += hand[rnd]
    hand[rnd] = 0
    base = int(played.sum())
    for extra in range(int(hand[C.WILD]) + 1):
        v = base + extra
        if all(v > w or (v == w and _ahead(r, tom, s)) for s, w in done.items()):
            hand[C.WILD] -= extra
            played[C.WILD] += extra
            return v, hand, played
    return base, hand, played


def _prestige_open(loc, owner):
    """R15: some revealed tile's colour still has a vessel on the board."""
    colours = {int(C.PRESTIGE_TILE_COLOUR[t]) for t in range(C.NUM_PRESTIGE_TILES)
               if loc[t] == S.PRESTIGE_REVEALED}
    return any(owner[v] == S.VESSEL_ON_BOARD and int(C.VESSEL_COLOUR[v]) in colours
               for v in range(C.NUM_VESSELS))


def _r23(r, tom, loc, owner):
    """R23's four steps for Tom ``tom`` with prestige tiles at ``loc`` and vessels with
    ``owner``: (borough, the vessels step 4 allows), or None when no tile can be taken."""
    letters = r["borough_sequence"]
    colours = {int(C.PRESTIGE_TILE_COLOUR[t]) for t in range(C.NUM_PRESTIGE_TILES)
               if loc[t] == S.PRESTIGE_REVEALED}
    usable = [v for v in range(C.NUM_VESSELS)
              if owner[v] == S.VESSEL_ON_BOARD and int(C.VESSEL_COLOUR[v]) in colours]
    if not usable:
        return None
    reachable = {int(e) for v in usable for e in C.VESSEL_ENDS[v]}  # step 1
    # steps 2 and 3: fewest of Tom's skyscrapers, then the highest letter (X highest)
    borough = min(reachable, key=lambda b: (int(r["skyscrapers"][b, tom]), -int(letters[b])))
    joined = [v for v in usable if borough in C.VESSEL_ENDS[v]]

    def far(v):
        a, b = (int(e) for e in C.VESSEL_ENDS[v])
        return int(letters[b if a == borough else a])

    top = max(far(v) for v in joined)  # step 4
    return borough, [v for v in joined if far(v) == top]


def _tom_draft(b, a, action, want):
    """R4: after the agents, the Toms in press order take the remaining revealed stacks."""
    chosen = int(action) - START_STACK
    left = [k for k in range(C.NUM_START_STACKS)
            if b["start_stack_status"][k] == S.STACK_REVEALED and k != chosen]
    toms = [s for s in _press_order(b) if b["is_tom"][s]]
    if len(left) != len(toms):
        return [f"R4: {len(left)} stacks left for {len(toms)} Toms"]
    for s, k in zip(toms, left, strict=True):  # "the first one left": in the stacks' order
        want[s]["tiles"] = {int(b["start_stacks"][k, 0]), int(b["start_stacks"][k, 1])}
    return []


def _tom_phase2(b, a, action, want):
    """The bids Toms make after the acting agent (R21) and, when the evaluation runs here, what
    Toms get from it (R13, R14, R15 with R23, R16 with R22). Fills ``want`` (per Tom: sky,
    tiles, vessels, press, points) and returns (bid values, evaluation began, problems)."""
    n, rnd = int(b["num_seats"]), int(b["bid_round"])
    dec, actor = int(b["decision"]), int(b["actor"])
    a_dec, a_actor = int(a["decision"]), int(a["actor"])
    tom = [bool(b["is_tom"][s]) for s in range(n)]
    values = [int(v) for v in b["bid_value"][:n]]
    same = int(a["round"]) == int(b["round"]) and int(a["bid_round"]) == rnd
    problems = []
    began = False
    if dec == S.DEC_BID:
        done = {s: values[s] for s in range(n) if b["bid_done"][s]}
        done[actor] = values[actor]
        order = [int(x) for x in b["order"][:n]]
        supply = {}
        k = int(b["cursor"]) + 1
        while k < n and tom[order[k]]:
            s = order[k]
            values[s], hand, played = _r21_bid(b, s, b["hand"][s], b["played"][s], done)
            done[s] = values[s]
            supply[s] = (hand, played)
            k += 1
        began = k == n
        if not began and not (same and a_dec == S.DEC_BID and a_actor == order[k]):
            problems.append(f"R3: after the Toms' bids agent {order[k]} should bid")
        if same and a_dec in (S.DEC_BID, S.DEC_AFTER_EVALUATION) + EVALUATION_DECISIONS:
            for s, (hand, played) in supply.items():
                got = (int(a["bid_value"][s]), _merged(a["hand"][s]).tolist(),
                       _merged(a["played"][s]).tolist())
                if got != (values[s], hand.tolist(), played.tolist()):
                    problems.append(f"R21: Tom {s} bid (value, supply, played) {got}, the rule gives "
                                    f"{(values[s], hand.tolist(), played.tolist())}")
    if not (began or dec in EVALUATION_DECISIONS):
        return values, began, problems

    order = _press_order(b)
    pos = {s: i for i, s in enumerate(order)}
    bonus = _highest(b, values)
    runner = _highest(b, values, bonus) if rnd == C.PRESTIGE else S.NO_SEAT
    if not began and (int(b["bonus_winner"]), int(b["runner_up"])) != (bonus, runner):
        problems.append(f"R12: bonus winner / runner-up {int(b['bonus_winner'])}/{int(b['runner_up'])}, "
                        f"the bids give {bonus}/{runner}")
    if same and a_dec in (S.DEC_AFTER_EVALUATION,) + EVALUATION_DECISIONS and int(a["bonus_winner"]) != bonus:
        problems.append(f"R12: bonus winner {int(a['bonus_winner'])}, the bids give {bonus}")
    act = [values[s] + (s == bonus) for s in range(n)]  # the value each acts with
    pending = same and a_dec in EVALUATION_DECISIONS
    if not pending and a["statue_flipped"] == 0:  # R17, checked after every evaluation
        everywhere = [s for s in range(n) if (a["skyscrapers"][:, s] > 0).all()]
        if everywhere:
            problems.append(f"R17: {everywhere} present in all six boroughs but the bonus is not won")

    if rnd == C.PRESS and began:  # R13: in press order, each bidder moves by its value
        for s in range(n):
            if tom[s]:
                space = int(b["press_space"][s])
                want[s]["press"] = min(C.PRESS_LAST_SPACE, space + act[s]) - space if values[s] > 0 else 0

    elif rnd == C.ELEVATOR:  # R14 in press order; Tom: leftmost tile of his row or the next lower
        disp = [[int(t) for t in row] for row in b["elevator_display"]]
        stack = [[int(t) for t in row] for row in b["elevator_stack"]]
        count = [int(c) for c in b["elevator_count"]]

        def refill(row, col):
            if count[row] == 0:
                disp[row][col] = S.EMPTY
            else:
                count[row] -= 1
                disp[row][col] = stack[row][count[row]]

        start = -1
        if dec == S.DEC_ELEVATOR:
            refill(*divmod(int(action) - ELEVATOR_TAKE, C.ELEVATOR_COLUMNS))
            start = pos[actor]
        end = pos[a_actor] if same and a_dec == S.DEC_ELEVATOR else n
        for s in order[start + 1:end]:
            if values[s] <= 0:
                continue
            rows = [row for row in range(min(act[s], C.MAX_TILE_VALUE))
                    if any(t != S.EMPTY for t in disp[row])]
            if not tom[s]:
                if rows:
                    problems.append(f"R14: agent {s} was not asked to take a character")
                continue
            if rows:
                row = rows[-1]
                tiles = [t for t in disp[row] if t != S.EMPTY]
                want[s]["tiles"] = {tiles[0]}
                disp[row] = tiles[1:] + [S.EMPTY] * (C.ELEVATOR_COLUMNS + 1 - len(tiles))
                refill(row, len(tiles) - 1)
        for row in range(C.NUM_TILE_VALUES):
            got = [int(t) for t in a["elevator_display"][row] if t != S.EMPTY]
            if got != [t for t in disp[row] if t != S.EMPTY] or int(a["elevator_count"][row]) != count[row]:
                problems.append(f"R14: display row {row + 1} is {got}, the picks give "
                                f"{[t for t in disp[row] if t != S.EMPTY]}")

    elif rnd == C.PRESTIGE:  # R15: points for all; winner, then runner-up, move (Tom by R23)
        if began:
            for s in range(n):
                if tom[s]:
                    want[s]["points"] = values[s]
        winner_busy = same and a_dec in PRESTIGE_DECISIONS + (S.DEC_BUILD,) and a_actor == bonus
        steps = []
        if bonus != S.NO_SEAT:
            if began and tom[bonus]:
                steps.append(bonus)
            runner_turn = (began and (tom[bonus] or not winner_busy)) or (
                not began and actor == bonus and not winner_busy)
            if runner != S.NO_SEAT and tom[runner] and runner_turn:
                steps.append(runner)
        loc = [int(x) for x in a["prestige_loc"]]
        owner = [int(x) for x in a["vessel_owner"]]
        placed = [t for t in range(C.NUM_PRESTIGE_TILES)
                  if b["prestige_loc"][t] == S.PRESTIGE_REVEALED and loc[t] >= 0]
        for s in reversed(steps):  # undo the later move to see the board at the earlier one
            taken = [v for v in range(C.NUM_VESSELS)
                     if owner[v] == s and b["vessel_owner"][v] == S.VESSEL_ON_BOARD]
            if not taken:
                if _prestige_open(loc, owner):
                    problems.append(f"R23: Tom {s} won a prestige move with a tile open but made none")
                continue
            if len(taken) > 1:
                problems.append(f"R15: Tom {s} took vessels {taken} in one move")
                continue
            v = taken[0]
            owner[v] = S.VESSEL_ON_BOARD
            colour = int(C.VESSEL_COLOUR[v])
            ok = False
            candidates = [t for t in placed
                          if C.PRESTIGE_TILE_COLOUR[t] == colour and loc[t] in C.VESSEL_ENDS[v]]
            for t in candidates:
                borough = loc[t]
                loc[t] = S.PRESTIGE_REVEALED
                choice = _r23(b, s, loc, owner)
                best = max(int(C.PRESTIGE_TILE_VALUE[u]) for u in range(C.NUM_PRESTIGE_TILES)
                           if loc[u] == S.PRESTIGE_REVEALED and C.PRESTIGE_TILE_COLOUR[u] == colour)
                if (choice is not None and choice[0] == borough and v in choice[1]
                        and C.PRESTIGE_TILE_VALUE[t] == best):
                    ok = True
                    placed.remove(t)
                    want[s]["vessels"] = {v}
                    want[s]["sky"][borough] = int(b["skyscrapers"][borough, s] < TOM_MAX_PER_BOROUGH)
                    break
                loc[t] = borough
            if not ok:
                problems.append(f"R23: Tom {s} took vessel {v}; the four steps give "
                                f"{_r23(b, s, loc, owner)} (borough, vessels)")

    elif rnd == C.SKYSCRAPERS:  # R13, R22: in press order, from the supply, at most 5 a borough
        start = -1 if began else pos[actor]
        end = pos[a_actor] if same and a_dec == S.DEC_BUILD else n
        mayor = int(b["mayor"])
        for s in order[start + 1:end]:
            if tom[s] and values[s] > 0:
                room = max(0, TOM_MAX_PER_BOROUGH - int(b["skyscrapers"][mayor, s]))
                want[s]["sky"][mayor] = min(act[s], room)
    return values, began, problems


def _tom_gains(b, a, want):
    """Compare what each Tom got in one action with ``want``; R17's 4 points come on top."""
    problems = []
    flipped = b["statue_flipped"] == 0 and a["statue_flipped"] != 0
    for s, w in want.items():
        sky = (a["skyscrapers"][:, s].astype(np.int64) - b["skyscrapers"][:, s]).tolist()
        mine_b = (b["tile_loc"] == S.LOC_OWNED) & (b["tile_owner"] == s)
        mine_a = (a["tile_loc"] == S.LOC_OWNED) & (a["tile_owner"] == s)
        tiles = set(np.flatnonzero(mine_a & ~mine_b).tolist())
        vessels = set(np.flatnonzero((a["vessel_owner"] == s) & (b["vessel_owner"] != s)).tolist())
        press = int(a["press_space"][s]) - int(b["press_space"][s])
        bonus = C.BOROUGH_BONUS_FIRST * bool(flipped and (a["skyscrapers"][:, s] > 0).all())
        points = int(a["points"][s]) - int(b["points"][s])
        got = dict(sky=sky, tiles=tiles, vessels=vessels, press=press, points=points)
        expected = dict(w, sky=w["sky"].tolist(), points=w["points"] + bonus)
        for key in got:
            if got[key] != expected[key]:
                problems.append(f"Tom {s}'s {key}: {got[key]}, expected {expected[key]}")
        if (~mine_a & mine_b).any():
            problems.append(f"Tom {s} lost a character")
    return problems


def check_tom_transition(before, after, actions):
    """Tom's part of one action (the engine runs his turns inside it). Returns every seat's bid
    value in the bidding round in play, with the bids Toms made inside this action, and whether
    the round's evaluation began here."""
    full = before["bid_value"].astype(np.int64)
    began = np.zeros(len(before), dtype=bool)
    toms = _tom_seats(before)
    if not toms.any():
        return full, began
    dec = before["decision"]
    has = toms.any(1)
    phase2 = has & (((dec == S.DEC_BID) & (actions == BID_DONE)) | np.isin(dec, EVALUATION_DECISIONS))
    draft = has & (dec == S.DEC_START_STACK) & (after["round"] >= 1)
    # Outside his draft and the bidding rounds' ends nothing of Tom's changes but his cards
    quiet = ~phase2 & ~draft
    sky = (after["skyscrapers"][:, :, : C.MAX_SEATS].astype(np.int64)
           - before["skyscrapers"][:, :, : C.MAX_SEATS]).any(1)
    owned = [(r["tile_loc"] == S.LOC_OWNED)[:, :, None] & (r["tile_owner"][:, :, None] == SEATS)
             for r in (before, after)]
    tiles = (owned[0] != owned[1]).any(1)
    vessels = ((before["vessel_owner"][:, :, None] == SEATS)
               != (after["vessel_owner"][:, :, None] == SEATS)).any(1)
    press = after["press_space"][:, : C.MAX_SEATS] != before["press_space"][:, : C.MAX_SEATS]
    points = after["points"] != before["points"]
    for what, changed in (("skyscrapers", sky), ("characters", tiles), ("vessels", vessels),
                          ("press space", press), ("points", points)):
        _expect(~quiet | ~(changed & toms).any(1), f"Tom's {what} changed outside his turns", before)

    problems = [[] for _ in range(len(before))]
    for g in np.flatnonzero(phase2 | draft):
        b, a = before[g], after[g]
        want = {int(s): dict(sky=np.zeros(C.NUM_BOROUGHS, dtype=np.int64), tiles=set(), vessels=set(),
                             press=0, points=0) for s in np.flatnonzero(toms[g])}
        if phase2[g]:
            values, began[g], problems[g] = _tom_phase2(b, a, actions[g], want)
            full[g, : len(values)] = values
        elif draft[g]:
            problems[g] = _tom_draft(b, a, actions[g], want)
        problems[g] += _tom_gains(b, a, want)
    _expect([not p for p in problems], "Tom's turn in this action breaks the solo rules", before,
            [p[0] if p else None for p in problems])

    # The solo rules' Phase II draw: mode A never adds to his supply; B only a wild (or plans);
    # C a wild or a card of a later bidding round; one card per bidding round started at most
    _, in2, _ = _phases(before)
    rnd = before["bid_round"].astype(np.int64)
    started = after["bid_round"].astype(np.int64) - rnd
    keep = in2 & (after["round"] == before["round"])
    gain = np.maximum(after["hand"].astype(np.int64) - before["hand"], 0)
    later = NON_WILD_TYPES[None, None, :] > rnd[:, None, None]
    mode = before["tom_mode"]
    ok = (gain.sum(2) <= started[:, None] * (mode != TOM_MODE_A)) & (
        (gain[:, :, NON_WILD_TYPES] * ~(later & (mode == TOM_MODE_C)[:, :, None])).sum(2) == 0)
    _expect(~keep | (ok | ~toms).all(1), "Tom's supply grew in Phase II other than by his mode's draw",
            before, gain.sum(2))
    return full, began


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
    return play_checked(new_games(GameConfig(num_agents=num_agents), seeds), rng)


def play_checked(games, rng):
    """Play the batch ``games`` (any mix of configs) to the end with random legal actions,
    checking every state, transition and an illegal probe."""
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


def _walk_single(config, seed, rng):
    """One random game through the single-game verbs, checking each state; returns the actions."""
    if not isinstance(config, GameConfig):
        config = GameConfig(num_agents=config)
    state = new_game(config, seed)
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
        assert not state["is_tom"][current_player(state)], "a Tom is asked to decide"
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


# --- games with Toms (R1, R21-R24) ------------------------------------------------------------
def _tom_batch(configs, per_config, seed0):
    """One batch mixing ``per_config`` games of each config (the batch verbs take any mix)."""
    return np.concatenate([new_games(cfg, [seed0 + 1_000 * k + j for j in range(per_config)])
                           for k, cfg in enumerate(configs)])


def _check_tom_games_over(games):
    """Games with Toms all ended after round 5, scored for every seat, Toms included."""
    assert (games["decision"] == S.DEC_GAME_OVER).all()
    assert (games["round"] == FINAL_ROUND).all()
    assert (games["num_seats"] > games["num_agents"]).all()
    check_masks(games, legal_masks(games))
    check_final_through_api(games)


@pytest.mark.parametrize("configs", [SOLO_CONFIGS, GROUP_CONFIGS], ids=["solo_levels_1_to_12", "several"])
def test_batch_random_games_with_toms_keep_every_invariant(configs):
    per_config = TOM_BATCH_GAMES[0] if configs is SOLO_CONFIGS else TOM_BATCH_GAMES[1]
    rng = np.random.default_rng(3000 + len(configs))
    games = play_checked(_tom_batch(configs, per_config, 60_000 + 100_000 * len(configs)), rng)
    _check_tom_games_over(games)
    assert [int(g["num_agents"]) for g in games[::per_config]] == [c.num_agents for c in configs]


@pytest.mark.parametrize("config", [GameConfig(num_agents=1, toms=("B4",)),
                                    GameConfig(num_agents=1, toms=("C9", 12, "B2")),
                                    GameConfig(num_agents=2, toms=(1, "B7")),
                                    GameConfig(num_agents=3, toms=(11,))],
                         ids=["solo_B4", "1_agent_3_toms", "2_agents_2_toms", "3_agents_1_tom"])
def test_single_game_verbs_with_toms_keep_every_invariant(config):
    rng = np.random.default_rng(4000 + config.num_participants)
    _walk_single(config, 8_000 + len(config.toms), rng)


def test_kernel_random_games_with_toms_end_states():
    games = _tom_batch(TOM_CONFIGS, TOM_KERNEL_GAMES, 90_000)
    words = np.zeros(4, dtype=np.int64)
    seed_rng(words, 4343)
    lengths = np.array([play_random_kernel(games, i, words, MAX_DECISIONS) for i in range(len(games))])
    assert (lengths < MAX_DECISIONS).all(), "a game did not end"
    np.testing.assert_array_equal(games["num_decisions"], lengths)
    check_states(games)
    _check_tom_games_over(games)
    assert len({g.tobytes() for g in games}) == len(games)
    # the checks are not empty: Toms win some games and lose others, and every part of their
    # turns happened somewhere (dollars, elevator characters, prestige vessels, skyscrapers)
    if not JIT_ENABLED:  # too few games for the statistics below
        return
    toms = _tom_seats(games)
    tom_won = np.take_along_axis(games["is_tom"], games["winner"][:, None].astype(np.int64), 1)[:, 0] != 0
    assert 0 < tom_won.sum() < len(games)
    owned = _per_seat(games, np.ones(C.NUM_TILES, dtype=np.int64))
    vessels = (games["vessel_owner"][:, :, None] == SEATS).sum(1)
    sky = games["skyscrapers"][:, :, : C.MAX_SEATS].sum(1)
    for what, seen in (("dollars", games["dollars"] > 0), ("elevator characters", owned > 2),
                       ("vessels", vessels > 0), ("skyscrapers built", sky > 1),
                       ("5 skyscrapers in a borough", (games["skyscrapers"][:, :, : C.MAX_SEATS]
                                                       == TOM_MAX_PER_BOROUGH).any(1))):
        assert (seen & toms).any(), f"no Tom ever got {what}"
    # a harder Tom scores more against random agents: level 12 over level 1, C9 over A2 (solo)
    totals = games["score_lines"].sum(2)
    mean = {str(cfg.toms): totals[k * TOM_KERNEL_GAMES:(k + 1) * TOM_KERNEL_GAMES, 1].mean()
            for k, cfg in enumerate(TOM_CONFIGS) if cfg.num_agents == 1}
    assert mean["('C5',)"] > mean["('A6',)"] and mean["('C9',)"] > mean["('A2',)"], mean


# --- determinism ---------------------------------------------------------------------------
@pytest.mark.parametrize("num_agents", AGENT_COUNTS)
def test_same_seed_same_new_game_different_seed_different(num_agents):
    cfg = GameConfig(num_agents=num_agents)
    seeds = [0, 1, 2, 3, 17, 2**31 - 1, 2**32, 2**40 + 5, 2**63 - 1]
    first = [new_game(cfg, s).tobytes() for s in seeds]
    again = [new_game(cfg, s).tobytes() for s in seeds]
    assert first == again
    assert len(set(first)) == len(seeds)
    # the seed decides the shuffles, not only the generator words: every seed lays out another
    # game (draw pile, tiles, start stacks, the press stack) once the generator words are zeroed
    laid_out = [_without_generator(new_game(cfg, s)) for s in seeds]
    assert len(set(laid_out)) == len(seeds)
    piles = {new_game(cfg, s)["draw_pile"].tobytes() for s in seeds}
    assert len(piles) == len(seeds)
    assert _without_generator(new_game(cfg, None)) != _without_generator(new_game(cfg, None))


def _without_generator(state):
    """A record's bytes with the random generator's words zeroed."""
    record = state.copy()
    record["rng"] = 0
    return record.tobytes()


def test_same_seed_same_actions_same_game():
    rng = np.random.default_rng(99)
    for cfg in [GameConfig(num_agents=n) for n in AGENT_COUNTS] + [SOLO_CONFIGS[4], GROUP_CONFIGS[3]]:
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
        # another seed, the same choice rule (first legal action): another game
        other, first = new_game(cfg, 124), new_game(cfg, 123)
        for state in (other, first):
            while not is_terminal(state):
                apply_action(state, int(legal_actions(state)[0]))
        assert _without_generator(other) != _without_generator(first)


def test_different_configs_differ():
    configs = [GameConfig(num_agents=n) for n in AGENT_COUNTS] + list(TOM_CONFIGS)
    assert len({new_game(cfg, 5).tobytes() for cfg in configs}) == len(configs)
    # a level and its code are the same Tom
    assert new_game(GameConfig(1, (5,)), 5).tobytes() == new_game(GameConfig(1, ("b4",)), 5).tobytes()


# --- batch API -----------------------------------------------------------------------------
@pytest.mark.parametrize("cfg", [GameConfig(num_agents=n) for n in AGENT_COUNTS] + [GROUP_CONFIGS[3]],
                         ids=[f"{n}_agents" for n in AGENT_COUNTS] + ["1_agent_3_toms"])
def test_batch_api_agrees_with_single_game_verbs(cfg):
    num_agents = cfg.num_participants
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


# --- the Tom checks themselves can fail ---------------------------------------------------
TOM_CHECK_CONFIG = GameConfig(num_agents=1, toms=(4, "C9"))  # seat 1: A7 (draws nothing later)


def _tom_state(config, seed, want):
    """A random game of ``config`` at the first state where ``want(record)`` holds."""
    state = new_game(config, seed)
    rng = np.random.default_rng(seed)
    while not want(state.reshape(1)[0]):
        assert not is_terminal(state), "no such state in this game"
        apply_action(state, int(rng.choice(legal_actions(state))))
    return state


def _tom_transition(config, want, seeds=range(60)):
    """(before, after, action): the first random action with ``want(before, after, action)``."""
    for seed in seeds:
        state = new_game(config, seed)
        rng = np.random.default_rng(seed)
        while not is_terminal(state):
            action = int(rng.choice(legal_actions(state)))
            after = step(state, action)
            if want(state.reshape(1)[0], after.reshape(1)[0], action):
                return state, after, action
            state = after
    raise AssertionError("no such transition in these games")


def _from_pile(r, card_type):
    """Take one card of ``card_type`` off the draw pile (the pile keeps its other cards)."""
    top = int(r["draw_count"]) - 1
    k = int(np.flatnonzero(r["draw_pile"][: top + 1] == card_type)[-1])
    r["draw_pile"][k], r["draw_pile"][top] = r["draw_pile"][top], r["draw_pile"][k]
    r["draw_count"] = top


def _tom_corruptions():
    """(name, edit of a record at an agent's bid with seat 1's (a Tom's) bid on the table)."""
    tom = 1

    def reserve_card(r):
        _from_pile(r, C.PRESS)
        r["reserve"][tom, C.PRESS] += 1

    def board_skyscraper(r):
        r["board_skyscrapers"][tom] = 1

    def sixth_skyscraper(r):
        r["skyscrapers"][int(np.argmax(r["skyscrapers"][:, tom])), tom] = TOM_MAX_PER_BOROUGH + 1

    def used_character(r):
        tile = int(np.flatnonzero((r["tile_loc"] == S.LOC_OWNED) & (r["tile_owner"] == tom))[0])
        r["tile_used"][tile] = 1

    def asked_to_decide(r):
        r["actor"] = tom

    def kept_an_earlier_card(r):
        _from_pile(r, C.PRESS)
        r["hand"][tom, C.PRESS] += 1

    def kept_a_card_of_the_round(r):  # and bid one less: the bid itself still looks whole
        rt = int(r["bid_round"])
        r["played"][tom, rt] -= 1
        r["hand"][tom, rt] += 1
        r["bid_value"][tom] -= 1

    def surplus_wild(r):  # he bid first, so no wild was needed, and A7 draws none before bids
        _from_pile(r, C.WILD)
        r["played"][tom, C.WILD] += 1
        r["bid_value"][tom] += 1

    def supply_short(r):
        r["discard"][C.PRESS] += r["hand"][tom, C.PRESS] + r["played"][tom, C.PRESS]
        r["hand"][tom, C.PRESS] = r["played"][tom, C.PRESS] = 0

    return [
        (reserve_card, "R5: Tom has reserve cards"),
        (board_skyscraper, "Tom has skyscrapers on a board"),
        (sixth_skyscraper, "more than 5 of Tom's skyscrapers"),
        (used_character, "a used marker or dollar on a Tom's character"),
        (asked_to_decide, "the actor is not an agent seat"),
        (kept_an_earlier_card, "R21: Tom kept a card"),
        (kept_a_card_of_the_round, "R21: Tom kept a card"),
        (surplus_wild, r"R21: Tom's bid \(seat 1\)"),
        (supply_short, "Tom's supply in the press round"),
    ]


def _tom_bid_first(r):
    """An agent's bid, after a Tom (seat 1, A7) who bid first with a card of the round."""
    rt = int(r["bid_round"])
    return (int(r["round"]) >= 2 and int(r["decision"]) == S.DEC_BID and int(r["bid_start"]) == 1
            and rt in (C.DOLLARS, C.ELEVATOR, C.PRESTIGE) and r["bid_done"][1] != 0
            and r["played"][1, rt] > 0)


def _press_round_supply(r):
    return (int(r["decision"]) == S.DEC_BID and int(r["bid_round"]) == C.PRESS
            and r["hand"][1, C.PRESS] + r["played"][1, C.PRESS] > 0)


@pytest.mark.parametrize("corrupt,message", _tom_corruptions(),
                         ids=[f.__name__ for f, _ in _tom_corruptions()])
def test_tom_checks_catch_a_corrupted_state(corrupt, message):
    # the press round shows his whole supply; the others want his bid on the table
    want = _press_round_supply if corrupt.__name__ == "supply_short" else _tom_bid_first
    state = next(s for s in (_tom_state_or_none_for(TOM_CHECK_CONFIG, seed, want) for seed in range(40))
                 if s is not None)
    check_states(state.reshape(1))
    corrupt(state.reshape(1)[0])
    with pytest.raises(AssertionError, match=message):
        check_states(state.reshape(1))


def _gained(before, after, field, seat=1):
    return int(after[field][seat]) > int(before[field][seat])


def _tom_tiles(r, seat=1):
    return set(np.flatnonzero((r["tile_loc"] == S.LOC_OWNED) & (r["tile_owner"] == seat)).tolist())


def _wrong_elevator_tile(b, a):
    """Tom got another tile of the same row than the one R14 gives him."""
    tile = (_tom_tiles(a) - _tom_tiles(b)).pop()
    row = int(C.TILE_VALUE[tile]) - 1
    other = next(int(t) for t in a["elevator_display"][row] if t != S.EMPTY)
    col = int(np.flatnonzero(a["elevator_display"][row] == other)[0])
    a["elevator_display"][row, col] = tile
    a["tile_loc"][tile], a["tile_owner"][tile] = S.LOC_DISPLAY, S.NO_SEAT
    a["tile_loc"][other], a["tile_owner"][other] = S.LOC_OWNED, 1


def _wrong_prestige_borough(b, a):
    """Tom's prestige tile (and his skyscraper) at the other end of his vessel."""
    v = int(np.flatnonzero((a["vessel_owner"] == 1) & (b["vessel_owner"] == S.VESSEL_ON_BOARD))[0])
    tile = int(np.flatnonzero((b["prestige_loc"] == S.PRESTIGE_REVEALED) & (a["prestige_loc"] >= 0)
                              & (C.PRESTIGE_TILE_COLOUR == C.VESSEL_COLOUR[v]))[-1])
    x = int(a["prestige_loc"][tile])
    y = int(C.VESSEL_ENDS[v][1] if C.VESSEL_ENDS[v][0] == x else C.VESSEL_ENDS[v][0])
    a["prestige_loc"][tile] = y
    a["borough_prestige"][x] -= C.PRESTIGE_TILE_VALUE[tile]
    a["borough_prestige"][y] += C.PRESTIGE_TILE_VALUE[tile]
    grown = int(a["skyscrapers"][x, 1]) - int(b["skyscrapers"][x, 1])
    a["skyscrapers"][x, 1] -= grown
    a["skyscrapers"][y, 1] += grown


def _one_more_skyscraper(b, a):
    a["skyscrapers"][int(b["mayor"]), 1] += 1


def _one_more_dollar(b, a):
    a["dollars"][1] += 1


def _one_more_bid(b, a):
    a["bid_value"][1] += 1


def _skyscraper_from_nowhere(b, a):
    a["skyscrapers"][int(np.argmax(a["skyscrapers"][:, 1])), 1] += 1


def _tom_bid_after_agent(b, a, action):
    rt = int(b["bid_round"])
    return (int(b["decision"]) == S.DEC_BID and action == BID_DONE and b["bid_done"][1] == 0
            and a["bid_done"][1] != 0 and int(a["bid_round"]) == rt and a["round"] == b["round"]
            and a["played"][1, rt] > 0)


@pytest.mark.parametrize("want,corrupt,message", [
    (lambda b, a, act: int(b["bid_round"]) == C.DOLLARS and _gained(b, a, "dollars"), _one_more_dollar,
     "dollars round"),
    (lambda b, a, act: int(b["bid_round"]) == C.ELEVATOR and len(_tom_tiles(a) - _tom_tiles(b)) == 1,
     _wrong_elevator_tile, "Tom's turn"),
    (lambda b, a, act: ((a["vessel_owner"] == 1) & (b["vessel_owner"] == S.VESSEL_ON_BOARD)).any(),
     _wrong_prestige_borough, "R23"),
    (lambda b, a, act: int(b["bid_round"]) == C.SKYSCRAPERS
     and (a["skyscrapers"][:, 1] > b["skyscrapers"][:, 1]).any()
     and a["skyscrapers"][int(b["mayor"]), 1] < TOM_MAX_PER_BOROUGH, _one_more_skyscraper, "Tom 1's sky"),
    (_tom_bid_after_agent, _one_more_bid, "R21"),
    (lambda b, a, act: int(b["decision"]) == S.DEC_PICK_PAIR, _skyscraper_from_nowhere,
     "skyscrapers changed outside his turns"),
], ids=["dollars", "elevator", "prestige", "skyscrapers", "bid", "outside_his_turns"])
def test_transition_check_catches_a_wrong_tom_turn(want, corrupt, message):
    before, after, action = _tom_transition(TOM_CHECK_CONFIG, want)
    check_transition(before.reshape(1), after.reshape(1), [action])
    corrupt(before.reshape(1)[0], after.reshape(1)[0])
    with pytest.raises(AssertionError, match=message):
        check_transition(before.reshape(1), after.reshape(1), [action])


def test_final_check_catches_a_wrong_tom_score():
    state = _tom_state(TOM_CHECK_CONFIG, 3, lambda r: int(r["decision"]) == S.DEC_GAME_OVER)
    check_states(state.reshape(1))
    state.reshape(1)[0]["score_lines"][1, S.SCORE_CHARACTERS] += 1
    with pytest.raises(AssertionError, match="R24"):
        check_states(state.reshape(1))


@pytest.mark.parametrize("num_agents", AGENT_COUNTS)
def test_final_check_catches_a_wrong_majority_line(num_agents):
    """One point less on a losing seat's majority line (still in range, the winner unchanged):
    the range checks let it through, the hand-computed R20 ranks catch it."""
    state = _tom_state(GameConfig(num_agents=num_agents), 7,
                       lambda r: int(r["decision"]) == S.DEC_GAME_OVER)
    games = state.reshape(1)
    check_final(games)
    r = games[0]
    lines = r["score_lines"][:, S.SCORE_BOROUGH:S.SCORE_BOROUGH + C.NUM_BOROUGHS]
    seat, b = next((s, b) for s in range(num_agents) for b in range(C.NUM_BOROUGHS)
                   if s != int(r["winner"]) and lines[s, b] > 0)
    r["score_lines"][seat, S.SCORE_BOROUGH + b] -= 1
    with pytest.raises(AssertionError, match="borough majority lines"):
        check_final(games)


def test_majority_lines_by_hand_follow_the_rulebook_example():
    """The hand computation itself on the rulebook's Brooklyn example: value 8 + 4 + 2 = 14;
    Yellow 14, Red 7 (ahead of the tied neutral player, whose 4 are virtual), Blue 2."""
    state = new_game(GameConfig(num_agents=3), 0)
    r = state.reshape(1)[0]
    brooklyn, yellow_4, blue_2 = 1, 1, 8
    r["skyscrapers"][:] = 0
    r["skyscrapers"][brooklyn, [0, 1, 2, C.NEUTRAL]] = [3, 4, 1, 3]
    r["borough_base"][brooklyn] = 8
    r["prestige_loc"][:] = S.PRESTIGE_IN_STACK
    r["prestige_loc"][[yellow_4, blue_2]] = brooklyn
    r["press_space"][[0, 1, 2, C.NEUTRAL]] = [9, 3, 2, 7]
    assert list(_majority_lines(r)[:3, brooklyn]) == [7, 14, 2]
    r["press_space"][0] = 5  # the neutral token now ahead of Red: Red drops to 4
    assert list(_majority_lines(r)[:3, brooklyn]) == [4, 14, 2]
    assert _majority_lines(r)[:3].sum() == 20


def test_tom_takes_the_leftmost_tile_when_the_first_slot_of_his_row_is_empty():
    """R14: 'the leftmost tile of the row whose value equals his bid value (+1 with the bonus,
    capped at 5), falling back to the next lower row when that row is empty'. A row whose stack
    is used up keeps the gap an agent leaves (no refill): here its first slot is empty, the other
    three are not, so Tom must take the second slot's tile, not fall back to a lower row."""
    config = GameConfig(num_agents=1, toms=("C9",))

    def agent_picks_first(r):
        if int(r["decision"]) != S.DEC_ELEVATOR or int(r["round"]) < 2:
            return False
        cap = min(int(r["bid_value"][1]) + (int(r["bonus_winner"]) == 1), C.MAX_TILE_VALUE)
        return _press_order(r)[0] == 0 and cap >= 2

    state = next(s for s in (_tom_state_or_none_for(config, seed, agent_picks_first) for seed in range(40))
                 if s is not None)
    r = state.reshape(1)[0]
    row = min(int(r["bid_value"][1]) + (int(r["bonus_winner"]) == 1), C.MAX_TILE_VALUE) - 1
    # the row's stack went to the agent in earlier rounds, and so did the tile in its first slot
    gone = list(r["elevator_stack"][row, : int(r["elevator_count"][row])]) + [r["elevator_display"][row, 0]]
    for tile in gone:
        r["tile_loc"][tile], r["tile_owner"][tile] = S.LOC_OWNED, 0
    r["elevator_stack"][row] = S.EMPTY
    r["elevator_count"][row] = 0
    r["elevator_display"][row, 0] = S.EMPTY
    check_states(state.reshape(1))
    expected = int(r["elevator_display"][row, 1])
    action = next(int(a) for a in legal_actions(state) if (a - ELEVATOR_TAKE) // C.ELEVATOR_COLUMNS != row)
    after = step(state, action)
    got = _tom_tiles(after.reshape(1)[0]) - _tom_tiles(r)
    assert got == {expected}, (f"Tom (value up to {row + 1}) took {sorted(got)} (values "
                               f"{[int(C.TILE_VALUE[t]) for t in got]}), not the leftmost tile "
                               f"{expected} of row {row + 1}")
    check_transition(state.reshape(1), after.reshape(1), [action])


def _tom_state_or_none_for(config, seed, want):
    try:
        return _tom_state(config, seed, want)
    except AssertionError:
        return None
