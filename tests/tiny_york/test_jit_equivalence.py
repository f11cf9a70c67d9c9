"""Compiled and plain-Python engines are the same engine (jit.py, ``TINY_YORK_JIT=0``).

A subprocess with ``TINY_YORK_JIT=0`` plays seeded random games and reports every decision's
mask digest, the actions and the final state bytes; this process (compiled) plays the same
games with the same action generators and must match byte for byte.
"""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.core import jit as jit_module
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    apply_actions,
    batch,
    is_terminal,
    legal_mask,
    legal_masks,
    new_game,
    new_games,
)

# Under TINY_YORK_JIT=0 (coverage runs) both sides would be plain Python: nothing to compare.
pytestmark = pytest.mark.skipif(not jit_module.JIT_ENABLED, reason="compares against the compiled engine")

REPO_ROOT = Path(__file__).resolve().parents[2]
GAMES = [(2, 11), (2, 12), (3, 21), (3, 22), (4, 31), (4, 32)]  # (agents, seed)
KERNEL_GAMES = [(2, 5), (3, 6), (4, 7)]  # end states of play_random_kernel
MAX_DECISIONS = 5_000

# Plays GAMES in whatever mode the environment selects and prints one JSON document.
PLAYER = r'''
import hashlib, json, sys
import numpy as np
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    is_terminal,
    legal_mask,
    new_game,
    new_games,
)
from tiny_york_env.core import jit as jit_module
from tiny_york_env.games.tiny_york import batch
from tiny_york_env.core.rng import seed_rng

def play(num_agents, seed):
    state = new_game(GameConfig(num_agents=num_agents), seed)
    start = state.tobytes().hex()
    chooser = np.random.default_rng(seed + 1000)
    masks, actions = hashlib.sha256(), []
    while not is_terminal(state) and len(actions) < MAX_DECISIONS:
        mask = legal_mask(state)
        masks.update(np.packbits(mask).tobytes())
        a = int(chooser.choice(np.flatnonzero(mask)))
        apply_action(state, a)
        actions.append(a)
    return {"start": start, "actions": actions, "masks": masks.hexdigest(),
            "final": state.tobytes().hex()}

def kernel_game(num_agents, seed):
    states = new_games(GameConfig(num_agents=num_agents), [seed])
    words = np.zeros(4, dtype=np.int64)
    seed_rng(words, seed)
    n = batch.play_random_kernel(states, 0, words, MAX_DECISIONS)
    return {"decisions": int(n), "final": states.tobytes().hex(), "words": words.tolist()}

MAX_DECISIONS = int(sys.argv[1])
spec = json.loads(sys.argv[2])
print(json.dumps({
    "jit_enabled": jit_module.JIT_ENABLED,
    "kernel_types": sorted({type(getattr(batch, name)).__name__ for name in dir(batch)
                            if name.endswith("_kernel") or name.endswith("_batch")}),
    "games": [play(n, s) for n, s in spec["games"]],
    "kernel_games": [kernel_game(n, s) for n, s in spec["kernel_games"]],
}))
'''


def _run_player(jit_flag):
    env = dict(os.environ)
    env["TINY_YORK_JIT"] = jit_flag
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    spec = json.dumps({"games": GAMES, "kernel_games": KERNEL_GAMES})
    proc = subprocess.run([sys.executable, "-c", PLAYER, str(MAX_DECISIONS), spec], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def plain():
    return _run_player("0")


def test_subprocess_really_ran_uncompiled(plain):
    assert plain["jit_enabled"] is False
    assert plain["kernel_types"] == ["function"]  # plain functions, no numba dispatchers


def test_this_process_runs_compiled():
    assert hasattr(batch.apply_kernel, "py_func"), "apply_kernel is not a numba dispatcher"


@pytest.mark.parametrize("k", range(len(GAMES)), ids=[f"{n}agents-seed{s}" for n, s in GAMES])
def test_compiled_games_equal_plain_python_games(plain, k):
    num_agents, seed = GAMES[k]
    want = plain["games"][k]
    state = new_game(GameConfig(num_agents=num_agents), seed)
    assert state.tobytes().hex() == want["start"], "new_game differs"
    chooser = np.random.default_rng(seed + 1000)
    masks, actions = hashlib.sha256(), []
    while not is_terminal(state) and len(actions) < MAX_DECISIONS:
        mask = legal_mask(state)
        masks.update(np.packbits(mask).tobytes())
        a = int(chooser.choice(np.flatnonzero(mask)))
        if len(actions) < len(want["actions"]):
            assert a == want["actions"][len(actions)], f"the masks diverged before decision {len(actions)}"
        apply_action(state, a)
        actions.append(a)
    assert is_terminal(state), "the game did not end"
    assert actions == want["actions"]
    assert masks.hexdigest() == want["masks"], "the mask sequences differ"
    assert state.tobytes().hex() == want["final"], "final states differ"


def test_plain_games_replayed_by_the_compiled_batch_kernels(plain):
    # Each compiled kernel inlines the engine code it calls, so the batch kernels are checked
    # on their own: numba's on-disk cache is keyed by the kernel's own file, and a kernel can go
    # stale when only a callee's file changes.
    for (num_agents, seed), want in zip(GAMES, plain["games"], strict=True):
        states = new_games(GameConfig(num_agents=num_agents), [seed])
        assert states.tobytes().hex() == want["start"]
        masks = hashlib.sha256()
        for a in want["actions"]:
            mask = legal_masks(states)[0]
            masks.update(np.packbits(mask).tobytes())
            assert mask[a]
            assert not apply_actions(states, [a])[0]
        assert masks.hexdigest() == want["masks"]
        assert states.tobytes().hex() == want["final"]
        assert not legal_masks(states).any()


@pytest.mark.parametrize("k", range(len(KERNEL_GAMES)), ids=[f"{n}agents" for n, _ in KERNEL_GAMES])
def test_play_random_kernel_equal_in_both_modes(plain, k):
    num_agents, seed = KERNEL_GAMES[k]
    want = plain["kernel_games"][k]
    states = new_games(GameConfig(num_agents=num_agents), [seed])
    words = np.zeros(4, dtype=np.int64)
    seed_rng(words, seed)
    n = batch.play_random_kernel(states, 0, words, MAX_DECISIONS)
    assert int(n) == want["decisions"] < MAX_DECISIONS
    assert words.tolist() == want["words"]
    assert states.tobytes().hex() == want["final"]
