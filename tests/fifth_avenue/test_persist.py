"""5th Avenue's saved games and the door check: ``save_state``/``load_state`` round trips,
``validate_state`` refusing every kind of foreign record with a message naming the field, and a
fuzz (in a subprocess, so a crash in compiled code fails a test instead of killing pytest): a
record with random fields changed is refused, or it plays on to the end like any game."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.core.savefile import HEADER_SIZE
from tiny_york_env.fifth_avenue import (
    STATE_DTYPE,
    GameConfig,
    apply_action,
    determinize,
    encode_observation,
    final_scores,
    is_terminal,
    legal_mask,
    load_state,
    new_game,
    save_state,
    validate_state,
)
from tiny_york_env.fifth_avenue import state as S
from tiny_york_env.game import new_game as new_tiny_york_game
from tiny_york_env.game import save_state as save_tiny_york
from tiny_york_env.registry import get_game

REPO_ROOT = Path(__file__).resolve().parents[2]
SETUPS = ((2, ()), (2, ("greedy",)), (3, ("random",)), (4, ()), (4, ("greedy", "random")))
FUZZ_CASES = 400


def snapshots(num_players, bots, seed, every=7):
    """Records of one random game at every ``every``-th decision, and its end."""
    state = new_game(GameConfig(num_players, tuple(bots)), seed)
    rng = np.random.default_rng(seed)
    out, k = [], 0
    while not is_terminal(state):
        if k % every == 0:
            out.append(state.copy())
        apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
        k += 1
    return out + [state.copy()]


@pytest.mark.parametrize("num_players, bots", SETUPS)
def test_every_stage_of_a_game_saves_and_loads_unchanged(num_players, bots):
    records = snapshots(num_players, bots, seed=num_players)
    for record in records:
        loaded = load_state(save_state(record))
        assert loaded.shape == () and loaded.flags.writeable
        assert loaded.tobytes() == record.tobytes()
    batch = np.stack(records)
    assert load_state(save_state(batch)).tobytes() == batch.tobytes()


def test_a_loaded_game_plays_on_like_the_original():
    game = get_game("fifth_avenue")
    record = snapshots(3, (), seed=9)[3]
    loaded = load_state(save_state(record))
    for state in (record, loaded):
        rng = np.random.default_rng(1)
        while not is_terminal(state):
            apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
    assert list(final_scores(record)) == list(final_scores(loaded))
    assert game.load_state is load_state and game.validate_state is validate_state


def test_another_games_save_and_damaged_bytes_are_refused():
    tiny_york = save_tiny_york(new_tiny_york_game(seed=1))
    with pytest.raises(ValueError, match="not a 5th Avenue save.*it is a Tiny York save"):
        load_state(tiny_york)
    data = bytearray(save_state(new_game(seed=2)))
    data[HEADER_SIZE + 40] ^= 0x10
    with pytest.raises(ValueError, match="checksum does not match"):
        load_state(bytes(data))
    with pytest.raises(ValueError, match="truncated save"):
        load_state(bytes(data[:-1]))
    with pytest.raises(ValueError, match="takes the bytes save_state made"):
        load_state("not bytes")
    with pytest.raises(ValueError, match="numpy array of 5th Avenue's STATE_DTYPE"):
        save_state(np.zeros(3))


def corrupt(field, value):
    """A mid-game record with ``field`` set to ``value`` (an index into arrays with a tuple)."""
    record = snapshots(3, (), seed=4)[5]
    if isinstance(field, tuple):
        name, index = field
        record[name][index] = value
    else:
        record[field] = value
    return record


@pytest.mark.parametrize("field, value, message", [
    ("num_players", 5, "num_players is 5, allowed 2..4"),
    ("num_agents", 4, "num_agents is 4"),
    ("has_alea", 1, "has_alea is 1 with 3 players"),
    ("alea_colour", 3, "alea_colour is 3"),
    (("bot_kind", 0), 2, r"bot_kind\[0\] is 2"),
    ("decision", 9, "decision is 9"),
    ("actor", 5, "actor is 5, allowed 0..2"),
    (("plot_owner", 3), 4, r"plot_owner\[3\] is 4"),
    (("plot_business", (0, 1)), 7, "plot_business holds 7"),
    ("coloured_count", 13, "coloured_count holds 13"),
    (("hand", (0, 1, 2)), 9, "1-coloured cards by value"),
    (("hand", (0, 5, 0)), 1, "black cards by value"),
    (("hand", (3, 0, 0)), 1, "zero beyond seat 2"),
    ("black_count", 60, "black_count is 60"),
    (("supply_row", 19), -1, "supply-row set at spaces 19-20 holds 1 tiles"),
    ("park_business_count", 5, "park_business"),
    ("businesses_placed", 30, "businesses_placed is 30"),
    ("held_business", 2, "held_business is 2"),
    (("general", 0), 20, "row 0's skyscrapers add up to"),
    (("supply", S.ALEA_ROW), 1, "zero in rows of absent participants"),
    (("commissioner_place", 0), 9, "commissioner_place holds 9"),
    (("markers_placed", 1), 3, "has placed 3 markers"),
    (("stopped", 2), 1, "building_stops is 0 but 1 districts are stopped"),
    ("winner_mask", 1, "winner_mask is set before the game is over"),
    ("rng", 0, "generator's words"),
    ("bot_move_count", 2, r"bot_moves\[0\] names seat 0"),
    (("score", 3), 5, "zero beyond seat 2"),
])
def test_each_kind_of_foreign_record_is_refused_naming_the_field(field, value, message):
    record = corrupt(field, value)
    with pytest.raises(ValueError, match=message):
        validate_state(record)
    with pytest.raises(ValueError, match=message):
        load_state(save_state(record, validate=False))
    with pytest.raises(ValueError, match=message):
        save_state(record)


def test_a_batch_names_the_bad_record():
    batch = np.stack(snapshots(2, (), seed=3)[:3])
    batch[2]["actor"] = 3
    with pytest.raises(ValueError, match="record 2: actor is 3"):
        validate_state(batch)


# ---------------------------------------------------------------- the fuzz (in a subprocess)

def fuzz(cases, seed):
    """``cases`` random records with one to three random fields overwritten by random bytes or
    small values: refused by load_state, or played to the end (observations, determinize and
    legal masks on the way, every state still valid). Returns counts."""
    rng = np.random.default_rng(seed)
    names = list(STATE_DTYPE.names)
    accepted = refused = 0
    for case in range(cases):
        num_players, bots = SETUPS[case % len(SETUPS)]
        record = snapshots(num_players, bots, seed=case, every=11)
        record = record[int(rng.integers(len(record)))]
        for _ in range(int(rng.integers(1, 4))):
            name = names[int(rng.integers(len(names)))]
            flat = record[name].reshape(-1)
            k = int(rng.integers(flat.size))
            info = np.iinfo(flat.dtype)
            flat[k] = (int(rng.integers(info.min, info.max, endpoint=True)) if rng.random() < 0.3
                       else flat[k] + int(rng.integers(-2, 3)))
        try:
            state = load_state(save_state(record, validate=False))
        except ValueError:
            refused += 1
            continue
        accepted += 1
        play_rng = np.random.default_rng(case)
        while not is_terminal(state):
            mask = legal_mask(state)
            assert mask.any(), f"case {case}: no legal action in a live game"
            for seat in range(int(state["num_players"])):
                encode_observation(state, seat)
            validate_state(determinize(state, int(state["actor"]), case))
            apply_action(state, int(play_rng.choice(np.flatnonzero(mask))))
            validate_state(state)
        final_scores(state)
    return {"accepted": accepted, "refused": refused}


def run_fuzz_worker(cases, seed, boundscheck, cache_dir=None):
    """Run ``fuzz`` in a fresh interpreter (with bounds checks: compiled afresh into
    ``cache_dir``, numba's cache does not key on them); (exit status, output)."""
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1" if boundscheck else "0")
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    code = ("import json; from tests.fifth_avenue.test_persist import fuzz; "
            f"print(json.dumps(fuzz({cases}, {seed})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=900)
    return done.returncode, done.stdout + done.stderr


def test_random_corruptions_are_refused_or_play_on_without_crashing():
    status, output = run_fuzz_worker(FUZZ_CASES, seed=0, boundscheck=False)
    assert status == 0, output[-3000:]
    counts = json.loads(output.strip().splitlines()[-1])
    assert counts["refused"] > 0 and counts["accepted"] + counts["refused"] == FUZZ_CASES


@pytest.mark.slow
def test_the_fuzz_with_numba_bounds_checks_on(tmp_path):
    status, output = run_fuzz_worker(FUZZ_CASES * 5, seed=1, boundscheck=True, cache_dir=tmp_path)
    assert status == 0, output[-3000:]
