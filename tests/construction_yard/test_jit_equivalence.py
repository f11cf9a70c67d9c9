"""The compiled engine and the same code run as plain Python (``TINY_YORK_JIT=0``) play the
same Construction Yard games, record for record."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tiny_york_env.construction_yard import GameConfig, new_games
from tiny_york_env.construction_yard.kernels import play_random_kernel
from tiny_york_env.core import jit as jit_module
from tiny_york_env.core.rng import seed_rng

pytestmark = pytest.mark.skipif(not jit_module.JIT_ENABLED, reason="compares against the compiled engine")
SETUPS = [(2, ()), (3, ("greedy",)), (6, ("random", "greedy"))]
PLAY = """
import json, sys
import numpy as np
from tiny_york_env.construction_yard import GameConfig, new_games
from tiny_york_env.construction_yard.kernels import play_random_kernel
from tiny_york_env.core.rng import seed_rng
out = []
for n, bots in json.loads(sys.argv[1]):
    states = new_games(GameConfig(num_players=n, bots=tuple(bots)), range(3))
    words = np.zeros(4, np.int64)
    seed_rng(words, 5)
    for i in range(3):
        play_random_kernel(states, i, words, 100000)
    out.append(states.tobytes().hex())
print(json.dumps(out))
"""


def play_compiled():
    out = []
    for n, bots in SETUPS:
        states = new_games(GameConfig(num_players=n, bots=bots), range(3))
        words = np.zeros(4, np.int64)
        seed_rng(words, 5)
        for i in range(3):
            play_random_kernel(states, i, words, 100000)
        out.append(states.tobytes().hex())
    return out


def test_plain_python_plays_the_same_games():
    env = {**os.environ, "TINY_YORK_JIT": "0"}
    result = subprocess.run([sys.executable, "-c", PLAY, json.dumps(SETUPS)], env=env, check=True,
                            capture_output=True, text=True, timeout=600)
    assert json.loads(result.stdout) == play_compiled()
