"""Fuzzing saved games: a corrupted record is refused, or it plays on like any game.

The fuzzing runs in a subprocess (``python -m tests.tiny_york.test_state_fuzz``), so a segfault or an
endless loop in compiled code shows as a failed test (an exit status, a watchdog timeout)
instead of killing pytest. From random games of 1-4 agents with and without Toms, snapshots at
every stage are saved with ``save_state``; then

* (a) random byte flips of the saved bytes (anywhere, or in the header): ``load_state`` refuses
  every one with a ValueError;
* (b) targeted corruptions of the record, saved with a valid header (``save_state(...,
  validate=False)``): kinds that always break an invariant (a card lost or duplicated, the draw
  count moved, a character or prestige tile duplicated, a value outside its field's domain from
  the known-bad list) must be refused; kinds that may keep the record valid (random values into
  random fields, small changes of a value, a field taken from another game, swapped elements
  and fields, random bytes, a card or tile moved, several of these at once) must, when
  ``load_state`` accepts them, play on: ``legal_mask`` offers an action at every decision,
  every seat's observation lies inside the observation space (on the way and at the end),
  ``determinize`` works and its view is valid, random legal actions reach the end (first
  through ``apply_action``, then in compiled code), and every state on the way still passes
  ``validate_state`` (unless play pushed a counter that was already near it past
  ``COUNT_LIMIT``).

A per-case watchdog (``faulthandler``) ends the worker on a hang and prints where it was. The
slow tests run many more cases, and a run with numba's bounds checks on, where any index past an
array raises (without them an out-of-bounds read need not crash).
"""

import faulthandler
import json
import os
import subprocess
import sys
import traceback
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.games.tiny_york import (
    STATE_DTYPE,
    GameConfig,
    apply_action,
    determinize,
    final_scores,
    is_terminal,
    legal_mask,
    new_game,
    score_breakdown,
    winner,
)
from tiny_york_env.games.tiny_york import components as C
from tiny_york_env.games.tiny_york import state as S
from tiny_york_env.games.tiny_york.batch import play_random_kernel
from tiny_york_env.games.tiny_york.observation import encode, observation_space
from tiny_york_env.games.tiny_york.persist import HEADER_SIZE, load_state, save_state
from tiny_york_env.games.tiny_york.validate import CAPPED_FIELDS, COUNT_LIMIT, validate_state

REPO_ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ((2, ()), (3, ()), (4, ()), (1, (5,)), (2, ("C9",)), (1, ("C9", 12, "B2")),
           (3, (11,)), (2, (1, "B7")), (1, ("A2",)), (1, (12, 3)))
SNAPSHOT_ODDS = 6  # about one snapshot every 6 decisions
PUBLIC_STEPS = 25  # decisions played on through the public verbs, each state checked
MAX_DECISIONS = 5_000  # far above any game (about 200-400 decisions)
CASE_TIMEOUT_S = 60  # a case takes milliseconds; this only catches an endless loop
WORKER_TIMEOUT_S = 900  # includes compiling the engine when the numba cache is cold
BOUNDS_TIMEOUT_S = 2400  # compiling everything with bounds checks takes minutes
DEFAULT_RUN = {"seed": 1, "games": 20, "flips": 5000, "corruptions": 3000}
SLOW_RUN = {"seed": 2, "games": 60, "flips": 50000, "corruptions": 45000}
# Under TINY_YORK_JIT=0 (debugging, coverage) the engine is plain Python: a small run, in which an
# index out of bounds raises instead of reading past an array.
PLAIN_RUN = {"seed": 1, "games": 3, "flips": 500, "corruptions": 150}
BOUNDS_RUN = {"seed": 3, "games": 30, "flips": 2000, "corruptions": 15000}
MIN_REFUSED_FIELDS = 40  # distinct fields named by refusals in a run (fewer in a small run)
MIN_ACCEPTED_SHARE = 10  # at least 1 in 10 corruptions is accepted and played on
HEADER_FLIP_SHARE = 0.25  # of the byte-flip cases, flips inside the header
SEAT_FIELDS = ("hand", "reserve", "played")
INT16_LIMITS = (-(2 ** 15), 2 ** 15 - 1)
VALIDATION_PREFIX = "invalid game state: "


# --- snapshots -----------------------------------------------------------------------------------
def random_action(state, rng):
    """A uniformly random legal action."""
    return int(rng.choice(np.flatnonzero(legal_mask(state))))


def snapshots(rng, games):
    """Saved snapshots of random games of every configuration, from the draft to the end."""
    out = []
    for g in range(games):
        agents, toms = CONFIGS[g % len(CONFIGS)]
        state = new_game(GameConfig(num_agents=agents, toms=toms), seed=int(rng.integers(2 ** 62)))
        while not is_terminal(state):
            if rng.integers(SNAPSHOT_ODDS) == 0:
                out.append(save_state(state))
            apply_action(state, random_action(state, rng))
        out.append(save_state(state))
    return out


# --- (a) byte flips ------------------------------------------------------------------------------
def flip_bytes(data, rng):
    """``data`` with 1-8 bytes changed (XOR with a non-zero byte), a quarter inside the header."""
    buf = bytearray(data)
    count = int(rng.choice([1, 1, 1, 2, 3, 8]))
    span = HEADER_SIZE if rng.random() < HEADER_FLIP_SHARE else len(buf)
    for pos in rng.choice(span, size=count, replace=False):
        buf[pos] ^= int(rng.integers(1, 256))
    return bytes(buf)


# --- (b) corruptions of the record ----------------------------------------------------------------
def seated(r):
    """The number of seats, kept in 1..MAX_SEATS (an earlier corruption may have changed it)."""
    return min(max(int(r["num_seats"]), 1), C.MAX_SEATS)


def card_places(r):
    """(field, index) of every card count a seated seat or the discard pile has."""
    places = [("discard", (t,)) for t in range(C.NUM_CARD_TYPES)]
    for field in SEAT_FIELDS:
        for seat in range(seated(r)):
            if field == "reserve" and r["is_tom"][seat]:
                continue
            places += [(field, (seat, t)) for t in range(C.NUM_CARD_TYPES)]
    return places


def lost_or_extra_card(r, rng):
    field, index = card_places(r)[rng.integers(len(card_places(r)))]
    delta = int(rng.choice([-1, 1]))
    r[field][index] += delta
    return f"{field}{list(index)} {delta:+d}"


def draw_count_shift(r, rng):
    delta = int(rng.choice([-1, 1]))
    r["draw_count"] += delta
    return f"draw_count {delta:+d}"


def elevator_slots(r):
    """(field, row, i) of every elevator stack or display slot holding a tile."""
    slots = []
    for row in range(C.NUM_TILE_VALUES):
        slots += [("elevator_stack", row, i) for i in range(int(r["elevator_count"][row]))]
        slots += [("elevator_display", row, col) for col in range(C.ELEVATOR_COLUMNS)
                  if r["elevator_display"][row, col] != S.EMPTY]
    return slots


def duplicate_tile(r, rng):
    slots = elevator_slots(r)
    if not slots:
        k = int(rng.integers(C.NUM_START_STACKS))
        r["start_stacks"][k, 0] = r["start_stacks"][(k + 1) % C.NUM_START_STACKS, 0]
        return f"start_stacks[{k}, 0] duplicated"
    field, row, i = slots[rng.integers(len(slots))]
    old = int(r[field][row, i])
    new = int((old + rng.integers(1, C.NUM_TILES)) % C.NUM_TILES)
    r[field][row, i] = new
    return f"{field}[{row}, {i}] {old} -> {new}"


def duplicate_prestige(r, rng):
    i, j = rng.choice(C.NUM_PRESTIGE_TILES, size=2, replace=False)
    r["prestige_stack"][i] = r["prestige_stack"][j]
    return f"prestige_stack[{i}] = prestige_stack[{j}]"


def duplicate_start_tile(r, rng):
    k, other = rng.choice(C.NUM_START_STACKS, size=2, replace=False)
    column = int(rng.integers(2))
    r["start_stacks"][k, column] = r["start_stacks"][other, column]
    return f"start_stacks[{k}, {column}] = start_stacks[{other}, {column}]"


# Values outside each field's domain in every game (field, index or None for any, values).
KNOWN_BAD = (
    ("num_seats", None, (0, 1, 5, 100, -1)), ("num_agents", None, (0, 5, -1)),
    ("is_tom", None, (2, -1)), ("tom_mode", None, (3, -1)), ("tom_draw", None, (1, 10)),
    ("round", None, (-1, 7, 1000)), ("stage", None, (-1, 12, 99, 2 ** 30)),
    ("decision", None, (-1, 21, 99)), ("bid_round", None, (-1, 7, 1000)),
    ("actor", None, (4, 7, 10 ** 6, -2)), ("cursor", None, (-5, 10 ** 6)),
    ("rng", None, (-1, 2 ** 32, 2 ** 62)), ("num_decisions", None, (-1,)),
    ("draw_count", None, (-1, 106, 10 ** 6)), ("discard", None, (16, 1000, -1)),
    ("hand", None, (16, 1000, -1)), ("reserve", None, (16, -1)), ("played", None, (16, -1)),
    ("reserve_size", None, (1, 100, -1)), ("reserve_faceup", None, (16, -1)),
    ("pairs", None, (7, -2, 1000)), ("num_pairs", None, (10, -1)),
    ("pairs_taken", None, (3, -1)), ("tile_loc", None, (5, -1, 1000)),
    ("tile_owner", None, (4, 7, -5)), ("tile_used", None, (2, -1)), ("tile_dollar", None, (2,)),
    ("start_stacks", None, (12, -1, 76)), ("start_stack_status", None, (4, -1)),
    ("elevator_stack", None, (76, 1000, -2)), ("elevator_count", None, (-1, 16, 100)),
    ("elevator_display", None, (76, 1000, -2)), ("borough_sequence", None, (6, -1)),
    ("borough_base", None, (0, 11)), ("mayor", None, (6, 100, -2)),
    ("statue_flipped", None, (2, -1)), ("skyscrapers", None, (-1, 10 ** 4 + 1)),
    ("vessel_owner", None, (4, 9, -2)), ("prestige_stack", None, (10, -1)),
    ("prestige_next", None, (11, -1, 100)), ("prestige_revealed", None, (10, -2)),
    ("prestige_loc", None, (6, -4)), ("points", None, (-1,)), ("dollars", None, (-1,)),
    ("board_skyscrapers", None, (-1,)), ("press_space", None, (16, -1)),
    ("press_height", None, (10 ** 6,)), ("press_moves", None, (-1, 10 ** 6)),
    ("bid_start", None, (4, -1)), ("bid_value", None, (-1,)), ("bid_done", None, (2, -1)),
    ("exchanges_left", None, (-1, 10 ** 6)), ("bonus_winner", None, (4, -2)),
    ("runner_up", None, (4, -2)), ("eval_step", None, (4, -1)), ("build_left", None, (-1,)),
    ("build_borough", None, (6, -1)), ("chosen_slot", None, (2, -1, 100)),
    ("chosen_vessel", None, (10, -1)), ("bid_base", None, (2, -1)),
    ("icons_played", None, (16, -1)), ("double_prestige", None, (2,)),
    ("character18_used", None, (2, -1)), ("build_bonus_due", None, (2,)),
    ("ability", None, (28, -1, 99)), ("ability_context", None, (6, -1)),
    ("ability_count", None, (-1, 10 ** 6)), ("ability_limit", None, (-1, 2 ** 21)),
    ("ability_memory", None, (-2, 100)), ("winner", None, (4, -2)),
)


def out_of_range(r, rng):
    field, _, values = KNOWN_BAD[rng.integers(len(KNOWN_BAD))]
    value = int(values[rng.integers(len(values))])
    target = r[field]
    if target.ndim == 0:
        r[field] = value
        return f"{field} = {value}"
    index = tuple(int(rng.integers(n)) for n in target.shape)
    target[index] = value
    return f"{field}{list(index)} = {value}"


def _random_value(dtype, rng):
    """A value for a field of ``dtype``: mostly small or near a boundary, sometimes anything."""
    info = np.iinfo(dtype)
    pick = rng.integers(4)
    if pick == 0:
        return int(rng.integers(-3, 21))
    if pick == 1:
        return int(rng.choice([-1, 0, 1, 2, 5, 6, 7, 9, 10, 15, 16, 75, 76, 105, 106]))
    if pick == 2:
        return int(rng.choice([info.min, info.max, info.min + 1, info.max - 1]))
    return int(rng.integers(max(info.min, INT16_LIMITS[0]), min(info.max, INT16_LIMITS[1]) + 1))


def random_value(r, rng):
    field = STATE_DTYPE.names[rng.integers(len(STATE_DTYPE.names))]
    target = r[field]
    value = _random_value(target.dtype, rng)
    if target.ndim == 0:
        r[field] = value
        return f"{field} = {value}"
    index = tuple(int(rng.integers(n)) for n in target.shape)
    target[index] = value
    return f"{field}{list(index)} = {value}"


def nudge(r, rng):
    field = STATE_DTYPE.names[rng.integers(len(STATE_DTYPE.names))]
    target = r[field]
    delta = int(rng.choice([-2, -1, 1, 2]))
    if target.ndim == 0:
        r[field] = target + delta
        return f"{field} {delta:+d}"
    index = tuple(int(rng.integers(n)) for n in target.shape)
    target[index] += delta
    return f"{field}{list(index)} {delta:+d}"


def graft(r, donor, rng):
    """One field taken from another snapshot (of any game): a mixed-up but plausible record."""
    field = STATE_DTYPE.names[rng.integers(len(STATE_DTYPE.names))]
    r[field] = donor[field]
    return f"{field} from another snapshot"


def swap_elements(r, rng):
    arrays = [name for name in STATE_DTYPE.names if r[name].size > 1]
    field = arrays[rng.integers(len(arrays))]
    flat = r[field].reshape(-1)
    i, j = rng.choice(flat.size, size=2, replace=False)
    flat[i], flat[j] = flat[j], flat[i]
    return f"{field}: elements {i} and {j} swapped"


def swap_fields(r, rng):
    scalars = [name for name in STATE_DTYPE.names if r[name].ndim == 0]
    a, b = rng.choice(len(scalars), size=2, replace=False)
    fa, fb = scalars[a], scalars[b]
    va, vb = r[fa].item(), r[fb].item()
    r[fa], r[fb] = vb, va
    return f"{fa} <-> {fb}"


def random_bytes(r, rng):
    raw = np.frombuffer(r.tobytes(), np.uint8).copy()
    positions = rng.choice(raw.size, size=int(rng.integers(1, 5)), replace=False)
    raw[positions] = rng.integers(0, 256, size=positions.size)
    r[...] = np.frombuffer(raw.tobytes(), STATE_DTYPE).reshape(())
    return f"bytes {sorted(int(p) for p in positions)} overwritten"


def move_card(r, rng):
    places = card_places(r)
    (fa, ia), (fb, ib) = (places[k] for k in rng.choice(len(places), size=2, replace=False))
    r[fa][ia] -= 1
    r[fb][ib] += 1
    return f"a card from {fa}{list(ia)} to {fb}{list(ib)}"


def move_tile(r, rng):
    owned = np.flatnonzero(r["tile_loc"] == S.LOC_OWNED)
    if owned.size == 0:
        return "nothing to move"
    tile = int(owned[rng.integers(owned.size)])
    if rng.integers(2) == 0:
        r["tile_owner"][tile] = int(rng.integers(seated(r)))
        return f"tile {tile} given to seat {int(r['tile_owner'][tile])}"
    r["tile_loc"][tile] = S.LOC_REMOVED
    r["tile_owner"][tile] = S.NO_SEAT
    r["tile_used"][tile] = 0
    r["tile_dollar"][tile] = 0
    return f"tile {tile} removed"


MUST_REFUSE = {"lost_or_extra_card": lost_or_extra_card, "draw_count_shift": draw_count_shift,
               "duplicate_tile": duplicate_tile, "duplicate_prestige": duplicate_prestige,
               "duplicate_start_tile": duplicate_start_tile, "out_of_range": out_of_range}
MAY_PASS = {"random_value": random_value, "nudge": nudge, "graft": graft, "several": None,
            "swap_elements": swap_elements,
            "swap_fields": swap_fields, "random_bytes": random_bytes, "move_card": move_card,
            "move_tile": move_tile}
CORRUPTIONS = {**MUST_REFUSE, **MAY_PASS}
SINGLE_MAY_PASS = [kind for kind in MAY_PASS if kind != "several"]
MAX_SEVERAL = 4


def corrupt(kind, state, donor, rng):
    """Apply corruption ``kind`` to ``state`` (``graft`` takes a field of ``donor``, ``several``
    applies 2-4 of the kinds that may keep a record valid); returns its description."""
    if kind == "graft":
        return graft(state, donor, rng)
    if kind == "several":
        count = int(rng.integers(2, MAX_SEVERAL + 1))
        return "; ".join(corrupt(str(k), state, donor, rng) for k in rng.choice(SINGLE_MAY_PASS, count))
    return CORRUPTIONS[kind](state, rng)


# --- playing on ----------------------------------------------------------------------------------
def over_the_cap(state):
    """A counter pushed past COUNT_LIMIT: only a record accepted near the cap gets there."""
    return any(np.abs(state[name]).max() > COUNT_LIMIT for name in CAPPED_FIELDS)


def play_on(state, rng):
    """Play an accepted record to the end; returns a list of problems (empty when it went well)."""
    problems = []
    for _ in range(PUBLIC_STEPS):
        if is_terminal(state):
            break
        mask = legal_mask(state)
        if not mask.any():
            return ["no legal action before the end"]
        problems += observations_outside_the_space(state)
        view = determinize(state, int(rng.integers(int(state["num_seats"]))), int(rng.integers(2 ** 62)))
        validate_state(view)
        apply_action(state, int(rng.choice(np.flatnonzero(mask))))
        try:
            validate_state(state)
        except ValueError as error:
            if not over_the_cap(state):
                problems.append(f"a state played on from it is refused: {error}")
            return problems
    words = np.zeros(S.RNG_WORDS, np.int64)
    seed_rng(words, int(rng.integers(2 ** 62)))
    play_random_kernel(state.reshape(1), 0, words, MAX_DECISIONS)
    if not is_terminal(state):
        return problems + ["no end within MAX_DECISIONS random legal actions"]
    if not over_the_cap(state):
        validate_state(state)
    final_scores(state), winner(state), score_breakdown(state)
    return problems + observations_outside_the_space(state)


def observations_outside_the_space(state):
    """A problem for each seat whose observation leaves the observation space."""
    space = observation_space()
    problems = []
    for seat in range(int(state["num_seats"])):
        obs = encode(state, seat)
        outside = np.flatnonzero((obs < space.low) | (obs > space.high) | ~np.isfinite(obs))
        if outside.size:
            problems.append(f"seat {seat}'s observation leaves the space at {outside[:5].tolist()}")
    return problems


def corruption_case(data, donor, kind, rng):
    """Corrupt the record in ``data`` by ``kind`` (see ``corrupt``); returns (description, the
    refusal or None, problems playing on)."""
    state = load_state(data)
    what = corrupt(kind, state, load_state(donor), rng)
    corrupted = save_state(state, validate=False)
    try:
        loaded = load_state(corrupted)
    except ValueError as error:
        return what, str(error), []
    try:
        return what, None, play_on(loaded, rng)
    except Exception:  # a Python-level failure of an accepted record is a finding too
        return what, None, [traceback.format_exc(limit=3)]


def run(seed, games, flips, corruptions):
    """The fuzzing; returns a JSON-able summary."""
    rng = np.random.default_rng(seed)
    saved = snapshots(rng, games)
    play_on(load_state(saved[0]), rng)  # compiles every verb before the watchdog runs
    summary = {"snapshots": len(saved), "flips": 0, "flips_accepted": [], "kinds": {},
               "must_refuse_accepted": [], "play_on_problems": [], "refusals": {}}
    for case in range(flips):
        corrupted = flip_bytes(saved[rng.integers(len(saved))], rng)
        faulthandler.dump_traceback_later(CASE_TIMEOUT_S, exit=True)
        try:
            load_state(corrupted)
            summary["flips_accepted"].append(case)
        except ValueError:
            pass
        summary["flips"] += 1
    kinds = list(CORRUPTIONS)
    for case in range(corruptions):
        kind = kinds[case % len(kinds)]
        data, donor = (saved[k] for k in rng.integers(len(saved), size=2))
        print(f"case {case} {kind}", flush=True)
        faulthandler.dump_traceback_later(CASE_TIMEOUT_S, exit=True)
        what, refusal, problems = corruption_case(data, donor, kind, rng)
        tally = summary["kinds"].setdefault(kind, [0, 0])
        tally[0] += 1
        if refusal is not None:
            tally[1] += 1
            field = refusal.split(VALIDATION_PREFIX)[-1].split()[0] if VALIDATION_PREFIX in refusal \
                else "header"
            summary["refusals"][field] = summary["refusals"].get(field, 0) + 1
        elif kind in MUST_REFUSE:
            summary["must_refuse_accepted"].append(f"{kind}: {what}")
        if problems:
            summary["play_on_problems"].append(f"{kind}: {what}: {problems}")
    faulthandler.cancel_dump_traceback_later()
    return summary


def run_in_subprocess(params, timeout=WORKER_TIMEOUT_S, **extra_env):
    """Run the fuzzing in a fresh interpreter; the summary, or a failure naming the last case."""
    env = dict(os.environ, **extra_env)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "tests.tiny_york.test_state_fuzz", json.dumps(params)],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    tail = (proc.stdout[-2000:] + "\n" + proc.stderr[-4000:]).strip()
    assert proc.returncode == 0, f"the fuzz worker died (exit {proc.returncode}):\n{tail}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def check_summary(summary, params):
    assert summary["snapshots"] >= params["games"] * 10
    assert summary["flips"] == params["flips"] and summary["flips_accepted"] == []
    assert summary["must_refuse_accepted"] == []
    assert summary["play_on_problems"] == []
    tried = sum(t for t, _ in summary["kinds"].values())
    assert tried == params["corruptions"]
    # The fuzzing must exercise both sides: refusals of many fields, and records played on.
    accepted = sum(t - r for t, r in summary["kinds"].values())
    assert accepted >= params["corruptions"] // MIN_ACCEPTED_SHARE, summary["kinds"]
    assert len(summary["refusals"]) >= min(MIN_REFUSED_FIELDS, params["corruptions"] // 5), \
        summary["refusals"]


def test_corrupted_saves_are_refused_or_play_on():
    params = DEFAULT_RUN if JIT_ENABLED else PLAIN_RUN
    summary = run_in_subprocess(params)
    check_summary(summary, params)


@pytest.mark.slow
def test_corrupted_saves_are_refused_or_play_on_many():
    summary = run_in_subprocess(SLOW_RUN)
    check_summary(summary, SLOW_RUN)


@pytest.mark.slow
@pytest.mark.skipif(not JIT_ENABLED, reason="bounds checks of the compiled engine")
def test_accepted_records_never_index_out_of_bounds(tmp_path):
    """With numba's bounds checks on (compiled afresh into a private cache: minutes), an index
    past an array raises IndexError instead of reading or writing memory, and the worker fails:
    the validator, the engine, the encoder and determinize stay within bounds on every record
    the fuzzing produces."""
    summary = run_in_subprocess(BOUNDS_RUN, BOUNDS_TIMEOUT_S, NUMBA_BOUNDSCHECK="1",
                                NUMBA_CACHE_DIR=str(tmp_path))
    check_summary(summary, BOUNDS_RUN)


if __name__ == "__main__":
    result = run(**json.loads(sys.argv[1]))
    print(json.dumps(result))
