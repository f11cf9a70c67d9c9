"""5th Avenue's compiled engine and the same code run as plain Python (``TINY_YORK_JIT=0``) are
the same engine: a subprocess plays seeded random games (2, 3, 4 players) both ways and reports
every decision's mask digest, the actions and the final record's bytes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tiny_york_env.core import jit as jit_module

pytestmark = pytest.mark.skipif(not jit_module.JIT_ENABLED, reason="compares against the compiled engine")

REPO_ROOT = Path(__file__).resolve().parents[2]
GAMES = [(2, 3), (3, 4), (4, 5)]  # (players, seed)

PLAYER = r'''
import hashlib, json, sys
import numpy as np
from tiny_york_env.games.fifth_avenue import rules as R
from tiny_york_env.games.fifth_avenue import legal as L, setup as S
from tiny_york_env.games.fifth_avenue.actions import NUM_ACTIONS
from tiny_york_env.games.fifth_avenue.state import DEC_GAME_OVER, STATE_DTYPE

def play(n, seed):
    states = np.zeros(1, STATE_DTYPE)
    st = states[0]
    S.init_game(st, n, n, seed, np.empty(S.NUM_BUSINESSES, np.int64))
    chooser = np.random.default_rng(seed + 1000)
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    digest, actions = hashlib.sha256(), []
    while st["decision"] != DEC_GAME_OVER and len(actions) < 5000:
        L.fill_legal_mask(st, mask)
        digest.update(np.packbits(mask).tobytes())
        a = int(chooser.choice(np.flatnonzero(mask)))
        R.apply_unchecked(st, a)
        actions.append(a)
    return {"actions": actions, "masks": digest.hexdigest(), "final": states.tobytes().hex()}

print(json.dumps([play(n, seed) for n, seed in json.loads(sys.argv[1])]))
'''


def run(jit):
    env = {**os.environ, "TINY_YORK_JIT": "1" if jit else "0"}
    result = subprocess.run([sys.executable, "-c", PLAYER, json.dumps(GAMES)], capture_output=True,
                            text=True, env=env, cwd=REPO_ROOT, timeout=600, check=True)
    return json.loads(result.stdout)


def test_compiled_equals_plain_python():
    compiled, plain = run(True), run(False)
    for (n, seed), a, b in zip(GAMES, compiled, plain, strict=True):
        assert len(a["actions"]) > 50, (n, seed)
        assert a == b, f"{n} players, seed {seed}: the two engines differ"
