"""``validate_state``: every state of random games passes, and each corrupted field is refused
with its name in the message; the checks at the doors of the verbs (read-only arrays,
``encode`` / ``encode_batch`` seats, ``determinize``)."""

from functools import lru_cache

import numpy as np
import pytest

from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.games.tiny_york import (
    STATE_DTYPE,
    GameConfig,
    apply_action,
    apply_actions,
    determinize,
    is_terminal,
    legal_mask,
    legal_masks,
    new_game,
    new_games,
    step,
    validate_state,
)
from tiny_york_env.games.tiny_york import components as C
from tiny_york_env.games.tiny_york import state as S
from tiny_york_env.games.tiny_york import validate as V
from tiny_york_env.games.tiny_york.bot_moves import TOM_EVENT_CAPACITY
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, encode, encode_batch

CONFIGS = (
    GameConfig(num_agents=2), GameConfig(num_agents=3), GameConfig(num_agents=4),
    GameConfig(num_agents=1, toms=(5,)), GameConfig(num_agents=1, toms=("C9", 12, "B2")),
    GameConfig(num_agents=2, toms=(1, "B7")), GameConfig(num_agents=3, toms=(11,)),
    GameConfig(num_agents=1, toms=("A2", 9)), GameConfig(num_agents=2, toms=("C9",)),
)
_SCALE = 1 if JIT_ENABLED else 10  # plain Python (TINY_YORK_JIT=0) is slow: fewer games
GAMES_PER_CONFIG = 24 // _SCALE
MAX_DECISIONS = 5_000  # far above any game


def rec(state):
    """The record behind a single game; writes go straight into ``state``."""
    return state.reshape(1)[0]


def random_legal(masks, rng):
    """One uniformly random legal action per row of ``masks`` (0 where none is legal)."""
    scores = rng.random(masks.shape) * masks
    return scores.argmax(axis=1)


# --- every state of random games passes ----------------------------------------------------------
def play_validated(config, seeds, rng):
    """Play a batch of random games to the end, validating every state; returns the (stage,
    decision) pairs seen."""
    states = new_games(config, seeds)
    seen = set()
    for _ in range(MAX_DECISIONS):
        codes = V.state_error_codes(states)
        bad = np.flatnonzero(codes)
        assert bad.size == 0, (V.error_message(int(codes[bad[0]])), states[bad[0]]["stage"],
                               states[bad[0]]["decision"])
        seen |= set(zip(states["stage"].tolist(), states["decision"].tolist(), strict=True))
        if (states["decision"] == S.DEC_GAME_OVER).all():
            return seen
        running = states["decision"] != S.DEC_GAME_OVER
        illegal = apply_actions(states, random_legal(legal_masks(states), rng))
        assert not (illegal & running).any()
    raise AssertionError("games did not end")


def test_every_state_of_random_games_is_valid():
    rng = np.random.default_rng(0)
    seen = set()
    for ci, config in enumerate(CONFIGS):
        seen |= play_validated(config, range(1000 * ci, 1000 * ci + GAMES_PER_CONFIG), rng)
    stages = {stage for stage, _ in seen}
    decisions = {decision for _, decision in seen}
    # the games reach every stage that waits for a decision and the common decisions
    assert stages == set(V._STAGE_WAITS)
    assert {S.DEC_START_STACK, S.DEC_PICK_PAIR, S.DEC_BID, S.DEC_ELEVATOR, S.DEC_PRESTIGE_TILE,
            S.DEC_PRESTIGE_VESSEL, S.DEC_PRESTIGE_BOROUGH, S.DEC_PHASE3, S.DEC_CHARACTER_CARD,
            S.DEC_GAME_OVER, S.DEC_DECLARE_BID_LAST} <= decisions


def test_single_games_and_views_are_valid():
    rng = np.random.default_rng(1)
    for ci, config in enumerate(CONFIGS[:: 2]):
        state = new_game(config, seed=ci)
        while not is_terminal(state):
            validate_state(state)
            seat = int(rng.integers(config.num_participants))
            validate_state(determinize(state, seat, int(rng.integers(2 ** 62))))
            apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
        validate_state(state)


# --- each corrupted field is refused, named ---------------------------------------------------------
def _walk(config, seed):
    """Every state of a random game, in order."""
    rng = np.random.default_rng(seed)
    state = new_game(config, seed=seed)
    out = [state.copy()]
    while not is_terminal(state):
        apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
        out.append(state.copy())
    return out


def _tom_after_first_round(r):
    """A Tom's bid is in, in a bidding round after the first, and a press card is discarded."""
    toms = range(int(r["num_agents"]), int(r["num_seats"]))
    return (r["stage"] == S.STAGE_BIDDING and r["bid_round"] >= 1 and r["discard"][C.PRESS] > 0
            and any(r["bid_done"][t] for t in toms))


def _pairs_left(r):
    return int(((r["pairs"][:, 0] != S.EMPTY) | (r["pairs"][:, 1] != S.EMPTY)).sum())


BASES = {
    "draft": lambda r: r["decision"] == S.DEC_START_STACK,
    "pick": lambda r: r["decision"] == S.DEC_PICK_PAIR and r["cursor"] == 0,
    "bid": lambda r: r["decision"] == S.DEC_BID and r["bid_round"] >= 1,
    "tom_bid": _tom_after_first_round,
    "elevator": lambda r: r["decision"] == S.DEC_ELEVATOR,
    "phase3": lambda r: r["decision"] == S.DEC_PHASE3,
    "over": lambda r: r["decision"] == S.DEC_GAME_OVER,
}
BASE_CONFIGS = (GameConfig(num_agents=3), GameConfig(num_agents=1, toms=("C9", 12)),
                GameConfig(num_agents=2, toms=(5,)))


@lru_cache(maxsize=1)
def bases():
    """A state for each entry of BASES, from random games."""
    found = {}
    for seed in range(60):
        for state in _walk(BASE_CONFIGS[seed % len(BASE_CONFIGS)], seed):
            for name, predicate in BASES.items():
                if name not in found and predicate(rec(state)):
                    found[name] = state
        if len(found) == len(BASES):
            return found
    raise AssertionError(f"no state for {set(BASES) - set(found)}")


def _owned_tile(r):
    return int(np.flatnonzero(r["tile_loc"] == S.LOC_OWNED)[0])


def _loose_tile(r):
    """The first tile nobody owns."""
    return int(np.flatnonzero(r["tile_loc"] != S.LOC_OWNED)[0])


def _unused_tile(r):
    return int(np.flatnonzero(r["tile_used"] == 0)[0])


def _tom(r):
    """The first Tom's seat."""
    return int(r["num_agents"])


def _set(field, value, index=None):
    """A corruption: ``field`` (or its element ``index``, a tuple or a function of the record)
    set to ``value`` (a number or a function of the record)."""
    def mutate(r):
        v = value(r) if callable(value) else value
        if index is None:
            r[field] = v
        else:
            r[field][index(r) if callable(index) else index] = v
    return mutate


def _move_card(source, target):
    """A corruption that moves one card between (field, index) places, each given as a function
    of the record: every card stays accounted for."""
    def mutate(r):
        (fa, ia), (fb, ib) = source(r), target(r)
        r[fa][ia] -= 1
        r[fb][ib] += 1
    return mutate


def _empty_pairs_but_one(r):
    for p in range(C.MAX_PAIRS):
        for k in range(2):
            if _pairs_left(r) > 1 and r["pairs"][p, k] != S.EMPTY:
                r["discard"][r["pairs"][p, k]] += 1
                r["pairs"][p, k] = S.EMPTY


def _no_elevator_value(r):
    r["bid_value"][r["actor"]] = 0
    r["bonus_winner"] = S.NO_SEAT


def _use_every_tile(r):
    mine = (r["tile_loc"] == S.LOC_OWNED) & (r["tile_owner"] == r["actor"])
    r["tile_used"][mine & (C.TILE_CHARACTER <= C.NUM_ACTIVE_CHARACTERS)] = 1


def _lose_owned_tile(r):
    """An owned elevator tile said to be on display, where it is not."""
    tile = int(np.flatnonzero((r["tile_loc"] == S.LOC_OWNED) & (C.TILE_IS_START == 0))[0])
    r["tile_loc"][tile] = S.LOC_DISPLAY
    r["tile_owner"][tile] = S.NO_SEAT
    r["tile_used"][tile] = 0
    r["tile_dollar"][tile] = 0


def _last_prestige(r):
    return int(r["prestige_stack"][C.NUM_PRESTIGE_TILES - 1])


# (error code, base state, corruption): every check of the validator, each on its own.
CORRUPTIONS = (
    (V.E_NUM_SEATS, "bid", _set("num_seats", 100)),
    (V.E_NUM_AGENTS, "bid", _set("num_agents", 0)),
    (V.E_IS_TOM, "draft", _set("is_tom", 1, (0,))),
    (V.E_TOM_MODE, "tom_bid", _set("tom_mode", 3, _tom)),
    (V.E_TOM_DRAW, "tom_bid", _set("tom_draw", 1, _tom)),
    (V.E_TOM_LEVEL, "tom_bid", _set("tom_level", 13, _tom)),
    (V.E_ROUND, "bid", _set("round", 7)),
    (V.E_STAGE, "bid", _set("stage", 12)),
    (V.E_DECISION, "bid", _set("decision", 21)),
    (V.E_STAGE_ROUND, "bid", _set("stage", S.STAGE_START_CHARACTERS)),
    (V.E_STAGE_DECISION, "bid", _set("decision", S.DEC_NONE)),
    (V.E_BID_ROUND, "bid", _set("bid_round", 7)),
    (V.E_ACTOR, "bid", _set("actor", 7)),
    (V.E_RNG, "bid", _set("rng", 2 ** 32, (0,))),
    (V.E_NUM_DECISIONS, "bid", _set("num_decisions", -1)),
    (V.E_DRAW_COUNT, "bid", _set("draw_count", C.NUM_CARDS + 1)),
    (V.E_DRAW_PILE, "bid", _set("draw_pile", 0, lambda r: int(r["draw_count"]))),
    (V.E_DISCARD, "bid", _set("discard", 1000, (0,))),
    (V.E_HAND, "bid", _set("hand", -1, (0, 0))),
    (V.E_RESERVE, "tom_bid", _set("reserve", 1, lambda r: (_tom(r), 0))),
    (V.E_RESERVE_SIZE, "bid", _set("reserve_size", 1, (0,))),
    (V.E_RESERVE_FULL, "bid", _move_card(
        lambda r: ("reserve", (0, int(np.flatnonzero(r["reserve"][0])[0]))),
        lambda r: ("discard", (0,)))),
    (V.E_RESERVE_FACEUP, "bid", _set("reserve_faceup", lambda r: r["reserve"][0, 0] + 1, (0, 0))),
    (V.E_NUM_PAIRS, "bid", _set("num_pairs", C.MAX_PAIRS + 1)),
    (V.E_PAIRS, "bid", _set("pairs", 0, (0, 0))),
    (V.E_PLAYED, "pick", _set("played", 1, (0, 0))),
    (V.E_CARDS, "bid", _set("hand", lambda r: r["hand"][0, 0] + 1, (0, 0))),
    (V.E_PAIRS_TAKEN, "pick", _set("pairs_taken", C.PAIRS_PER_AGENT + 1, (0,))),
    (V.E_TOM_SUPPLY, "tom_bid", _move_card(lambda r: ("discard", (C.PRESS,)),
                                           lambda r: ("hand", (_tom(r), C.PRESS)))),
    (V.E_TILE_LOC, "bid", _set("tile_loc", 9, (0,))),
    (V.E_TILE_OWNER, "bid", _set("tile_owner", S.NO_SEAT, _owned_tile)),
    (V.E_TILE_USED, "bid", _set("tile_used", 1, _loose_tile)),
    (V.E_TILE_DOLLAR, "bid", _set("tile_dollar", 1, _unused_tile)),
    (V.E_START_STACKS, "bid", _set("start_stacks", lambda r: r["start_stacks"][1, 0], (0, 0))),
    (V.E_START_STATUS, "bid", _set("start_stack_status", S.STACK_REVEALED, (0,))),
    (V.E_ELEVATOR_COUNT, "bid", _set("elevator_count", 100, (0,))),
    (V.E_ELEVATOR_STACK, "bid", _set("elevator_stack", 0, lambda r: (0, int(r["elevator_count"][0])))),
    (V.E_ELEVATOR_DISPLAY, "draft", _set("elevator_display", S.EMPTY, (0, 0))),
    (V.E_TILE_WHERE, "over", _lose_owned_tile),
    (V.E_SEQUENCE, "bid", _set("borough_sequence", lambda r: r["borough_sequence"][1], (0,))),
    (V.E_BASE, "bid", _set("borough_base", 11, (0,))),
    (V.E_MAYOR, "bid", _set("mayor", lambda r: (r["mayor"] + 1) % C.NUM_BOROUGHS)),
    (V.E_STATUE, "bid", _set("statue_flipped", 2)),
    (V.E_SKYSCRAPERS, "bid", _set("skyscrapers", 3, (0, C.NEUTRAL))),
    (V.E_PRESTIGE_NEXT, "bid", _set("prestige_next", lambda r: r["prestige_next"] + 2)),
    (V.E_PRESTIGE_STACK, "bid", _set("prestige_stack", lambda r: r["prestige_stack"][1], (0,))),
    (V.E_PRESTIGE_REVEALED, "bid", _set("prestige_revealed", _last_prestige, (0,))),
    (V.E_PRESTIGE_LOC, "bid", _set("prestige_loc", S.PRESTIGE_REMOVED, _last_prestige)),
    (V.E_BOROUGH_PRESTIGE, "bid", _set("borough_prestige", lambda r: r["borough_prestige"][0] + 1, (0,))),
    (V.E_VESSEL_OWNER, "draft", _set("vessel_owner", 0, (0,))),
    (V.E_POINTS, "bid", _set("points", -1, (0,))),
    (V.E_DOLLARS, "bid", _set("dollars", -1, (0,))),
    (V.E_BOARD, "bid", _set("board_skyscrapers", -1, (0,))),
    (V.E_PRESS_SPACE, "bid", _set("press_space", C.PRESS_LAST_SPACE + 1, (0,))),
    (V.E_PRESS_MOVES, "bid", _set("press_moves", 0)),
    (V.E_PRESS_HEIGHT, "bid", _set("press_height", 1, (C.NEUTRAL,))),
    (V.E_ORDER, "bid", _set("order", lambda r: r["order"][1], (0,))),
    (V.E_CURSOR, "bid", _set("cursor", -5)),
    (V.E_BID_START, "bid", _set("bid_start", C.MAX_SEATS)),
    (V.E_BID_VALUE, "bid", _set("bid_value", -1, (0,))),
    (V.E_BID_DONE, "bid", _set("bid_done", 2, (0,))),
    (V.E_BID_TURNS, "bid", _set("bid_done", 1, lambda r: int(r["actor"]))),
    (V.E_EXCHANGES, "bid", _set("exchanges_left", -1)),
    (V.E_BONUS_WINNER, "bid", _set("bonus_winner", C.MAX_SEATS)),
    (V.E_RUNNER_UP, "bid", _set("runner_up", 0)),
    (V.E_EVAL_STEP, "bid", _set("eval_step", 4)),
    (V.E_BUILD_LEFT, "bid", _set("build_left", 1)),
    (V.E_BUILD_BOROUGH, "bid", _set("build_borough", C.NUM_BOROUGHS)),
    (V.E_CHOSEN_SLOT, "bid", _set("chosen_slot", C.PRESTIGE_REVEALED_PER_ROUND)),
    (V.E_CHOSEN_VESSEL, "bid", _set("chosen_vessel", C.NUM_VESSELS)),
    (V.E_BID_BASE, "bid", _set("bid_base", 2, (0,))),
    (V.E_ICONS, "bid", _set("icons_played", -1, (0, 0))),
    (V.E_DOUBLE_PRESTIGE, "bid", _set("double_prestige", 2, (0,))),
    (V.E_CHARACTER18, "bid", _set("character18_used", 2)),
    (V.E_BUILD_BONUS, "bid", _set("build_bonus_due", 2)),
    (V.E_ABILITY, "bid", _set("ability", 1)),
    (V.E_CONTEXT, "bid", _set("ability_context", V.NUM_CONTEXTS)),
    (V.E_ABILITY_COUNT, "bid", _set("ability_count", -1)),
    (V.E_ABILITY_LIMIT, "bid", _set("ability_limit", -1)),
    (V.E_ABILITY_MEMORY, "bid", _set("ability_memory", -2, (0,))),
    (V.E_SCORE_LINES, "bid", _set("score_lines", 1, (0, 0))),
    (V.E_END_POINTS, "bid", _set("end_character_points", 1, (0, 0))),
    (V.E_WINNER, "over", _set("winner", S.NO_SEAT)),
    (V.E_PAIRS_SHORT, "pick", _empty_pairs_but_one),
    (V.E_NO_LEGAL_ACTION, "elevator", _no_elevator_value),
    (V.E_NO_CHARACTER, "phase3", _use_every_tile),
    (V.E_TOM_EVENT_COUNT, "bid", _set("tom_event_count", -1)),
    (V.E_TOM_EVENTS, "bid", _set("tom_events", 1, (TOM_EVENT_CAPACITY - 1, 0))),
)


def test_every_check_is_exercised_below():
    assert sorted(code for code, _, _ in CORRUPTIONS) == list(range(1, len(V.ERRORS)))


def test_a_bid_above_every_card_of_the_game_is_refused():
    """A bid counts cards; the fuzz found a Tom bidding 6,078, whose elevator pick then logged a
    value its int8 field cannot hold."""
    state = bases()["bid"].copy()
    state["bid_value"][0] = V.MAX_BID_VALUE + 1
    with pytest.raises(ValueError, match=f"bid_value must be 0-{V.MAX_BID_VALUE}"):
        V.validate_state(state)


def test_every_field_is_checked():
    """Every field of the record is named by some check (a new field needs one)."""
    assert set(STATE_DTYPE.names) <= {field for field, _ in V.ERRORS}


@pytest.mark.parametrize("code,base,mutate", CORRUPTIONS, ids=[f"{V.ERRORS[c][0]}-{c}"
                                                               for c, _, _ in CORRUPTIONS])
def test_a_corrupted_field_is_refused_by_name(code, base, mutate):
    state = bases()[base].copy()
    validate_state(state)
    mutate(rec(state))
    assert int(V.state_error_codes(state.reshape(1))[0]) == code
    field, rule = V.ERRORS[code]
    with pytest.raises(ValueError, match=f"invalid game state: {field} ") as err:
        validate_state(state)
    assert rule in str(err.value)


@pytest.mark.parametrize("field,value", [("discard", 1000), ("num_seats", 100), ("bid_round", 7),
                                         ("actor", 10 ** 6), ("stage", -1), ("draw_count", 10 ** 6),
                                         ("elevator_count", 1000), ("cursor", 2 ** 30)])
def test_the_fuzzing_findings_are_refused(field, value):
    """The corruptions that crashed, hung or silently played on before validation existed."""
    state = bases()["bid"].copy()
    target = state[field]
    if target.ndim:
        target[0] = value
    else:
        state[field] = value
    with pytest.raises(ValueError, match=field):
        validate_state(state)
    with pytest.raises(ValueError, match=field):
        determinize(state, 0, 7)


def test_a_batch_names_the_bad_game():
    states = np.stack([bases()["bid"], bases()["pick"], bases()["over"]])
    validate_state(states)
    states[2]["winner"] = S.NO_SEAT
    with pytest.raises(ValueError, match="game 2 of the batch: invalid game state: winner"):
        validate_state(states)
    validate_state(np.zeros(0, STATE_DTYPE))


@pytest.mark.parametrize("bad", [None, "state", {"num_seats": 2}, np.zeros(3), np.zeros((2, 2), STATE_DTYPE)])
def test_validate_wants_state_records(bad):
    with pytest.raises(ValueError, match="STATE_DTYPE"):
        validate_state(bad)


def test_a_zeroed_record_is_refused():
    with pytest.raises(ValueError, match="num_seats"):
        validate_state(np.zeros((), STATE_DTYPE))


# --- read-only arrays ---------------------------------------------------------------------------
def _read_only(state):
    return np.frombuffer(state.tobytes(), STATE_DTYPE).reshape(state.shape)


def test_apply_action_refuses_a_read_only_state():
    state = _read_only(bases()["bid"])
    before = state.tobytes()
    with pytest.raises(ValueError, match="read-only"):
        apply_action(state, int(np.flatnonzero(legal_mask(state))[0]))
    assert state.tobytes() == before
    new = step(state, int(np.flatnonzero(legal_mask(state))[0]))  # step copies: fine
    assert new.flags.writeable and new.tobytes() != before and state.tobytes() == before


def test_apply_actions_refuses_a_read_only_batch():
    states = _read_only(new_games(GameConfig(num_agents=2), range(3)))
    before = states.tobytes()
    with pytest.raises(ValueError, match="read-only"):
        apply_actions(states, random_legal(legal_masks(states), np.random.default_rng(0)))
    assert states.tobytes() == before


def test_reading_verbs_take_a_read_only_state():
    state = _read_only(bases()["bid"])
    assert legal_mask(state).any()
    assert encode(state, 0).shape == (OBS_SIZE,)
    validate_state(state)
    validate_state(determinize(state, 1, 3))


# --- encode and encode_batch seats -----------------------------------------------------------------
@pytest.mark.parametrize("seat", [1.7, 1.0, "1", True, np.bool_(False), None, -1, 3, 10 ** 6])
def test_encode_refuses_a_seat_that_is_not_one(seat):
    state = new_game(GameConfig(num_agents=3), seed=0)
    with pytest.raises(ValueError, match=r"seats are 0\.\.2"):
        encode(state, seat)


@pytest.mark.parametrize("seat", [0, 2, np.int64(1), np.uint8(2), np.int16(0)])
def test_encode_takes_int_seats(seat):
    state = new_game(GameConfig(num_agents=3), seed=0)
    assert encode(state, seat).shape == (OBS_SIZE,)


def _batch():
    return new_games(GameConfig(num_agents=2), range(3))


@pytest.mark.parametrize("seats", [[0, 1, 10 ** 6], [0, 7, 1], [-1, 0, 0], [0, 0, 2]])
def test_encode_batch_refuses_seats_outside_their_games(seats):
    with pytest.raises(ValueError, match="is not a seat of game"):
        encode_batch(_batch(), seats)


@pytest.mark.parametrize("seats", [[0, 1.5, 0], np.array([0.0, 1.0, 0.0]), np.array([True, False, True]),
                                   [0, True, 1], ["0", "1", "0"], [0, 1], [[0, 1, 0]], 0, None])
def test_encode_batch_refuses_seats_that_are_not_ints(seats):
    with pytest.raises(ValueError, match="seats must be 3 ints"):
        encode_batch(_batch(), seats)


@pytest.mark.parametrize("out", [np.zeros((2, OBS_SIZE), np.float32), np.zeros((3, OBS_SIZE)),
                                 np.zeros((3, OBS_SIZE - 1), np.float32), [[0.0] * OBS_SIZE] * 3,
                                 np.frombuffer(bytes(3 * OBS_SIZE * 4), np.float32).reshape(3, OBS_SIZE)])
def test_encode_batch_refuses_a_bad_out(out):
    with pytest.raises(ValueError, match="out must be a writeable float32 array"):
        encode_batch(_batch(), [0, 1, 0], out)


def test_encode_batch_takes_int_seats_and_matches_encode():
    states = _batch()
    for seats in ([0, 1, 0], (1, 0, 1), np.array([1, 1, 0], np.int32), np.array([0, 0, 1], np.uint8)):
        out = encode_batch(states, seats)
        for i in range(3):
            assert np.array_equal(out[i], encode(states[i:i + 1], int(seats[i])))
    with pytest.raises(ValueError, match="1-d numpy array of STATE_DTYPE"):
        encode_batch(states[0].reshape(()), [0])
