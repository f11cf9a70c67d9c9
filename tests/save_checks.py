"""Checks every game's saves share, through the game contract: round trips at every stage of
random games, a loaded game playing on like the original, damaged or foreign bytes refused, and
the fuzz (in a subprocess, so a crash in compiled code fails a test instead of killing pytest): a
record with random fields changed is refused by ``load_state``, or it plays on to the end like
any game. Used by tests/construction_yard/test_persist.py, tests/fifth_avenue/test_persist.py and, for
every registered game, tests/test_game_properties.py."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.core.savefile import HEADER_SIZE
from tiny_york_env.games.tiny_york import new_game as new_tiny_york_game
from tiny_york_env.games.tiny_york import save_state as save_tiny_york
from tiny_york_env.registry import get_game

REPO_ROOT = Path(__file__).resolve().parents[1]
DAMAGED_BYTE = 40  # a byte inside the first record


def snapshots(game_name, num_players, bots, seed, every=7):
    """Records of one random game of ``num_players`` with engine ``bots`` (``setup_snapshots``)."""
    return setup_snapshots(game_name, {"num_players": num_players, "bots": tuple(bots)}, seed, every)


def setup_snapshots(game_name, setup, seed, every=7):
    """Records of one random game (``setup``: ``make_config`` keywords) at every ``every``-th
    decision, and its end."""
    game = get_game(game_name)
    state = game.new_game(game.make_config(**setup), seed)
    rng = np.random.default_rng(seed)
    out, k = [], 0
    while not game.is_terminal(state):
        if k % every == 0:
            out.append(state.copy())
        game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        k += 1
    return out + [state.copy()]


def check_every_stage_round_trips(game_name, num_players, bots):
    """Every snapshot, alone and as a batch, loads back byte for byte, writeable."""
    game = get_game(game_name)
    records = snapshots(game_name, num_players, bots, seed=num_players)
    for record in records:
        loaded = game.load_state(game.save_state(record))
        assert loaded.shape == () and loaded.flags.writeable
        assert loaded.tobytes() == record.tobytes()
    batch = np.stack(records)
    assert game.load_state(game.save_state(batch)).tobytes() == batch.tobytes()


def check_loaded_game_plays_on(game_name, num_players):
    """A loaded mid-game record ends exactly like the original under the same actions."""
    game = get_game(game_name)
    record = snapshots(game_name, num_players, (), seed=9)[3]
    loaded = game.load_state(game.save_state(record))
    for state in (record, loaded):
        rng = np.random.default_rng(1)
        while not game.is_terminal(state):
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert list(game.final_scores(record)) == list(game.final_scores(loaded))


def check_foreign_and_damaged_bytes(game_name):
    """A Tiny York save, a flipped bit, a short buffer, a str and a foreign array are refused."""
    game = get_game(game_name)
    with pytest.raises(ValueError, match=f"not a {game.title} save.*it is a Tiny York save"):
        game.load_state(save_tiny_york(new_tiny_york_game(seed=1)))
    data = bytearray(game.save_state(game.new_game(game.make_config(), 2)))
    data[HEADER_SIZE + DAMAGED_BYTE] ^= 0x10
    with pytest.raises(ValueError, match="checksum does not match"):
        game.load_state(bytes(data))
    with pytest.raises(ValueError, match="truncated save"):
        game.load_state(bytes(data[:-1]))
    with pytest.raises(ValueError, match="takes the bytes save_state made"):
        game.load_state("not bytes")
    with pytest.raises(ValueError, match=f"numpy array of {game.title}'s STATE_DTYPE"):
        game.save_state(np.zeros(3))


def check_refused(game_name, record, message):
    """``record`` is refused with ``message`` by validate_state, load_state and save_state."""
    game = get_game(game_name)
    with pytest.raises(ValueError, match=message):
        game.validate_state(record)
    with pytest.raises(ValueError, match=message):
        game.load_state(game.save_state(record, validate=False))
    with pytest.raises(ValueError, match=message):
        game.save_state(record)


def check_observations_in_space(game, state, seats, where):
    """Every seat's observation of ``state`` lies inside the game's observation space."""
    space = game.observation_space()
    for seat in range(seats):
        obs = game.encode(state, seat)
        outside = np.flatnonzero((obs < space.low) | (obs > space.high) | ~np.isfinite(obs))
        assert outside.size == 0, (f"{where}: seat {seat}'s observation leaves the space at "
                                   f"{outside[:5].tolist()}: {obs[outside[:5]].tolist()}")


def corrupted_records(game_name, setups, cases, seed):
    """``cases`` records of random games (``setups``: ``make_config`` keywords, taken in turn),
    each with one to three random fields overwritten by random bytes or small values: (case,
    setup, record, the changes as (field, flat index, old value, new value))."""
    game = get_game(game_name)
    rng = np.random.default_rng(seed)
    names = list(game.state_dtype.names)
    for case in range(cases):
        setup = setups[case % len(setups)]
        record = setup_snapshots(game_name, setup, seed=case, every=11)
        record = record[int(rng.integers(len(record)))]
        changes = []
        for _ in range(int(rng.integers(1, 4))):
            name = names[int(rng.integers(len(names)))]
            flat = record[name].reshape(-1)
            k = int(rng.integers(flat.size))
            info = np.iinfo(flat.dtype)
            old = int(flat[k])
            flat[k] = (int(rng.integers(info.min, info.max, endpoint=True)) if rng.random() < 0.3
                       else flat[k] + int(rng.integers(-2, 3)))
            changes.append((name, k, old, int(flat[k])))
        yield case, setup, record, changes


def play_on(game, state, seats, case):
    """Play an accepted record to the end with random legal actions: every seat's observation
    inside the observation space at every decision, a determinized copy for a random seat valid,
    the legal mask never empty and every state still valid (AssertionError or ValueError
    otherwise); returns the number of decisions."""
    play_rng = np.random.default_rng(case)
    decisions = 0
    while not game.is_terminal(state):
        mask = game.legal_mask(state)
        assert mask.any(), f"case {case}: no legal action in a live game"
        check_observations_in_space(game, state, seats, f"case {case}")
        game.validate_state(game.determinize(state, int(play_rng.integers(seats)), case))
        game.apply_action(state, int(play_rng.choice(np.flatnonzero(mask))))
        game.validate_state(state)
        decisions += 1
    check_observations_in_space(game, state, seats, f"case {case}, the end")
    game.final_scores(state)
    return decisions


def fuzz(game_name, setups, cases, seed):
    """``corrupted_records``: each refused by load_state, or played to the end (``play_on``).
    Returns counts."""
    game = get_game(game_name)
    accepted = refused = 0
    for case, setup, record, _ in corrupted_records(game_name, setups, cases, seed):
        try:
            state = game.load_state(game.save_state(record, validate=False))
        except ValueError:
            refused += 1
            continue
        accepted += 1
        play_on(game, state, game.num_participants(game.make_config(**setup)), case)
    return {"accepted": accepted, "refused": refused}


def run_fuzz_worker(game_name, setups, cases, seed, boundscheck, cache_dir=None):
    """Run ``fuzz`` in a fresh interpreter (with bounds checks: compiled afresh into
    ``cache_dir``, numba's cache does not key on them); (exit status, output)."""
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1" if boundscheck else "0")
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    code = ("import json; from tests.save_checks import fuzz; "
            f"print(json.dumps(fuzz({game_name!r}, {tuple(setups)!r}, {cases}, {seed})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=900)
    return done.returncode, done.stdout + done.stderr


def check_fuzz(game_name, setups, cases, seed, boundscheck=False, cache_dir=None):
    """The fuzz ran clean, refused some records, played others on and saw every case."""
    status, output = run_fuzz_worker(game_name, setups, cases, seed, boundscheck, cache_dir)
    assert status == 0, output[-3000:]
    counts = json.loads(output.strip().splitlines()[-1])
    assert counts["refused"] > 0 and counts["accepted"] > 0
    assert counts["accepted"] + counts["refused"] == cases
