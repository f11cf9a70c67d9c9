"""Construction Yard's compiled engine and the same code run as plain Python
(``TINY_YORK_JIT=0``) are the same engine.

A subprocess with ``TINY_YORK_JIT=0`` plays seeded games (2-6 players, with Dirk and with bots)
through the public verbs and reports every decision's mask digest, the actions and the start
and final state bytes, plus whole games of ``play_random_kernel`` and a lockstep batch through
``legal_masks`` / ``apply_actions``; this process (compiled) plays the same games with the same
action generators and must match byte for byte.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.core import jit as jit_module

pytestmark = pytest.mark.skipif(not jit_module.JIT_ENABLED, reason="compares against the compiled engine")

REPO_ROOT = Path(__file__).resolve().parents[2]
# (num_players, bots, seed): every player count, Dirk with and without a bot opponent.
GAMES = [(2, [], 11), (2, ["greedy"], 12), (3, [], 21), (3, ["random"], 22), (4, [], 31),
         (5, ["greedy", "random"], 41), (6, [], 51), (6, ["random", "greedy"], 52)]
KERNEL_GAMES = [(2, [], 5), (3, ["greedy"], 6), (6, ["random", "greedy"], 7)]
BATCH = (4, [], 8)  # (num_players, bots, games) played in lockstep
MAX_DECISIONS = 5_000

# Plays the games in whatever mode the environment selects and prints one JSON document.
PLAYER = r'''
import hashlib, json, sys
import numpy as np
from tiny_york_env.games.construction_yard import (GameConfig, apply_action, apply_actions, is_terminal,
                                             legal_mask, legal_masks, new_game, new_games)
from tiny_york_env.games.construction_yard import batch as batch_module
from tiny_york_env.core import jit as jit_module
from tiny_york_env.core.rng import seed_rng

def play(n, bots, seed):
    state = new_game(GameConfig(num_players=n, bots=tuple(bots)), seed)
    start = state.tobytes().hex()
    chooser = np.random.default_rng(seed + 1000)
    masks, actions = hashlib.sha256(), []
    while not is_terminal(state) and len(actions) < MAX_DECISIONS:
        mask = legal_mask(state)
        masks.update(np.packbits(mask).tobytes())
        a = int(chooser.choice(np.flatnonzero(mask)))
        apply_action(state, a)
        actions.append(a)
    return {"start": start, "actions": actions, "masks": masks.hexdigest(), "final": state.tobytes().hex()}

def kernel_game(n, bots, seed):
    states = new_games(GameConfig(num_players=n, bots=tuple(bots)), [seed])
    words = np.zeros(4, dtype=np.int64)
    seed_rng(words, seed)
    decisions = batch_module.play_random_kernel(states, 0, words, MAX_DECISIONS)
    return {"decisions": int(decisions), "final": states.tobytes().hex(), "words": words.tolist()}

def batch(n, bots, games):
    states = new_games(GameConfig(num_players=n, bots=tuple(bots)), range(games))
    chooser = np.random.default_rng(77)
    flags = hashlib.sha256()
    for _ in range(MAX_DECISIONS):
        masks = legal_masks(states)
        if not masks.any():
            break
        actions = np.argmax(chooser.random(masks.shape) * masks, axis=1)
        flags.update(np.packbits(apply_actions(states, actions)).tobytes())
    return {"final": states.tobytes().hex(), "flags": flags.hexdigest()}

MAX_DECISIONS = int(sys.argv[1])
spec = json.loads(sys.argv[2])
print(json.dumps({
    "jit_enabled": jit_module.JIT_ENABLED,
    "kernel_types": sorted({type(getattr(batch_module, name)).__name__ for name in dir(batch_module)
                            if name.endswith("_kernel") or name.endswith("_batch")}),
    "games": [play(*g) for g in spec["games"]],
    "kernel_games": [kernel_game(*g) for g in spec["kernel_games"]],
    "batch": batch(*spec["batch"]),
}))
'''


def run_player(jit):
    """The PLAYER script's report, run in a fresh interpreter with ``TINY_YORK_JIT`` set."""
    env = {**os.environ, "TINY_YORK_JIT": "1" if jit else "0"}
    spec = json.dumps({"games": GAMES, "kernel_games": KERNEL_GAMES, "batch": BATCH})
    result = subprocess.run([sys.executable, "-c", PLAYER, str(MAX_DECISIONS), spec], env=env,
                            cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def test_plain_python_plays_the_same_games_as_the_compiled_engine():
    plain = run_player(jit=False)
    assert plain["jit_enabled"] is False and plain["kernel_types"] == ["function"]
    compiled = run_player(jit=True)
    assert compiled["jit_enabled"] is True and "function" not in compiled["kernel_types"]
    for spec, p, c in zip(GAMES, plain["games"], compiled["games"], strict=True):
        assert p["start"] == c["start"], f"setup differs for {spec}"
        assert p["actions"] == c["actions"], f"decisions differ for {spec}"
        assert p["masks"] == c["masks"], f"legal masks differ for {spec}"
        assert p["final"] == c["final"], f"final state differs for {spec}"
        assert len(p["actions"]) < MAX_DECISIONS
    assert plain["kernel_games"] == compiled["kernel_games"]
    assert plain["batch"] == compiled["batch"]
    # The games really ran: each ends over (decision DEC_GAME_OVER) with a winner.
    assert all(g["decisions"] < MAX_DECISIONS for g in compiled["kernel_games"])


def test_the_games_compared_are_whole_games():
    """The compared games are not trivially short: hundreds of decisions each."""
    from tiny_york_env.games.construction_yard import (
        GameConfig,
        apply_action,
        is_terminal,
        legal_actions,
        new_game,
    )
    n, bots, seed = GAMES[0]
    state = new_game(GameConfig(num_players=n, bots=tuple(bots)), seed)
    chooser = np.random.default_rng(seed + 1000)
    decisions = 0
    while not is_terminal(state):
        apply_action(state, int(chooser.choice(legal_actions(state))))
        decisions += 1
    assert decisions > 100
