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
from tiny_york_env.game.actions import ACTION_BLOCKS
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

# --- action blocks each decision may offer --------------------------------------------------
BLOCK_NAMES = [name for name, _, _ in ACTION_BLOCKS]
BLOCK_OF_ACTION = np.array([BLOCK_NAMES.index(decode(a)[0]) for a in range(NUM_ACTIONS)])
# Character abilities may be offered on top of any decision once they are built.
ABILITY_BLOCKS = ("USE_CHARACTER", "CHARACTER_CARD", "CHARACTER_TILE", "CHARACTER_PAIR_CARD",
                  "CHARACTER_BOROUGH", "CHARACTER_STEPS", "CHARACTER_DONE", "END_TURN")
DECISION_BLOCKS = {
    S.DEC_START_STACK: ("START_STACK",),
    S.DEC_PICK_PAIR: ("PICK_PAIR",),
    S.DEC_BID: ("EXCHANGE", "BID_CARD", "BID_PAIR", "BID_WILD_PAIR", "BID_WILD", "BID_DONE"),
    S.DEC_ELEVATOR: ("ELEVATOR_TAKE",),
    S.DEC_PRESTIGE_TILE: ("PRESTIGE_TILE", "PRESTIGE_FORFEIT"),
    S.DEC_PRESTIGE_VESSEL: ("PRESTIGE_VESSEL",),
    S.DEC_PRESTIGE_BOROUGH: ("PRESTIGE_BOROUGH",),
    S.DEC_BUILD: ("SELL_FROM", "BUILD_STOP"),
}
NUM_DECISIONS = len(S.DECISION_NAMES)
ALLOWED = np.ones((NUM_DECISIONS, NUM_ACTIONS), dtype=bool)  # unknown decisions: not checked
for _d, _names in DECISION_BLOCKS.items():
    _ok = np.isin(BLOCK_OF_ACTION, [BLOCK_NAMES.index(n) for n in _names + ABILITY_BLOCKS])
    ALLOWED[_d] = _ok

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
    reserve_cards = st["reserve"].astype(np.int64).sum(2)
    agents = _agent_seats(st)
    _expect(((reserve_cards == st["reserve_size"]) | ~agents).all(1),
            "an agent's reserve does not hold reserve_size cards", st, reserve_cards)


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
    for k in range(2):
        t = ss[:, :, k]
        for state_ok, want in ((in_place, S.LOC_START_STACK),
                               (status == S.STACK_TAKEN, S.LOC_OWNED),
                               (status == S.STACK_REMOVED, S.LOC_REMOVED)):
            got = np.take_along_axis(loc, t, 1)
            _expect((~state_ok | (got == want)).all(1),
                    f"start stack status vs tile_loc (want {want})", st, got)
        gi, si = np.nonzero(in_place)
        np.add.at(seen, (gi, t[gi, si]), 1)
    stack_owner = np.take_along_axis(owner, ss[:, :, 0], 1)
    _expect(((status != S.STACK_TAKEN) | (stack_owner == np.take_along_axis(owner, ss[:, :, 1], 1))).all(1),
            "the two tiles of a taken start stack have different owners", st)

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
    taken = (status == S.STACK_TAKEN).sum(1)
    _expect(~drafted | ((taken == st["num_agents"]) & ~in_place.any(1)),
            "after the draft: not one start stack per agent, or stacks left on the table", st, status)
    per_agent = np.zeros((b, C.MAX_SEATS), dtype=np.int64)
    gi, si = np.nonzero(status == S.STACK_TAKEN)
    np.add.at(per_agent, (gi, stack_owner[gi, si]), 1)
    _expect((per_agent <= 1).all(1), "an agent took two start stacks", st, per_agent)
    _expect(~drafted | (per_agent == _agent_seats(st)).all(1), "an agent without a start stack", st)


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
    # during a bidding round (bids and their evaluation) value <= cards played <= 2 * value
    in_round = np.isin(dec, (S.DEC_BID, S.DEC_ELEVATOR, S.DEC_PRESTIGE_TILE, S.DEC_PRESTIGE_VESSEL,
                             S.DEC_PRESTIGE_BOROUGH, S.DEC_BUILD))
    cards = st["played"].astype(np.int64).sum(2)
    value = st["bid_value"].astype(np.int64)
    _expect(~in_round | ((value <= cards) & (cards <= 2 * value)).all(1),
            "played cards do not match the bid value", st, (cards, value))
    outside = np.isin(dec, (S.DEC_START_STACK, S.DEC_PICK_PAIR, S.DEC_GAME_OVER))
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


def check_transition(before, after):
    """What one legal action may change."""
    _expect(after["num_decisions"] == before["num_decisions"] + 1, "num_decisions is not +1 per action",
            before)
    d_round = after["round"].astype(np.int64) - before["round"]
    _expect((d_round >= 0) & (d_round <= 1), "the round went back or skipped", before, d_round)
    for field in ("num_seats", "num_agents", "is_tom", "borough_sequence", "borough_base",
                  "prestige_stack", "start_stacks", "reserve_size"):
        same = (after[field] == before[field]).reshape(len(before), -1).all(1)
        _expect(same, f"{field} changed during play", before)
    neutral_before = before["skyscrapers"][:, :, C.NEUTRAL]
    _expect((after["skyscrapers"][:, :, C.NEUTRAL] <= neutral_before).all(1), "neutral skyscrapers added",
            before)
    # Skyscrapers of a participant (board + city) change only when building plans are
    # evaluated (action 4): each bidder gains its bid value, the highest bidder one more.
    seats = _seat_active(before)
    tot_b = before["board_skyscrapers"].astype(np.int64) + before["skyscrapers"][:, :, : C.MAX_SEATS].sum(1)
    tot_a = after["board_skyscrapers"].astype(np.int64) + after["skyscrapers"][:, :, : C.MAX_SEATS].sum(1)
    delta = tot_a - tot_b
    plans = ((before["decision"] == S.DEC_BID) & (before["bid_round"] == C.PLANS)
             & (after["bid_round"] != C.PLANS))
    value = before["bid_value"].astype(np.int64)
    extra = delta - value
    _expect(plans | (delta == 0).all(1), "skyscrapers created or lost outside building plans", before, delta)
    bidder = value > 0
    plans_ok = (((extra == 0) | ((extra == 1) & bidder)) | ~seats).all(1)
    plans_ok &= (extra * seats).sum(1) == bidder.any(1)
    top = value.max(1)
    plans_ok &= ~((extra == 1) & (value < top[:, None])).any(1)
    _expect(~plans | plans_ok, "building plans: gains are not bid value (+1 for the top bid)", before,
            np.stack([delta, value], 1))


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
        check_transition(cur, after)
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
        check_transition(state.reshape(1), new.reshape(1))
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

    return [(f.__name__, f) for f in (
        move_owned_to_display, lose_owned_tile, steal_card, swap_card_type, shrink_reserve,
        extra_pair_card, press_off_track, press_tie, third_neutral, negative_board, prestige_value,
        vessel_without_tile, wrong_actor, wrong_round)]


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
    after = step(state, int(legal_actions(state)[0]))
    check_transition(state.reshape(1), after.reshape(1))
    after.reshape(1)[0]["board_skyscrapers"][0] -= 1
    with pytest.raises(AssertionError, match="skyscrapers"):
        check_transition(state.reshape(1), after.reshape(1))
