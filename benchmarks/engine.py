"""Engine throughput: random legal games played entirely in compiled code.

Prints decisions/s and games/s for 2, 3 and 4 agents and games with Toms, on one core.
Usage:
    python benchmarks/engine.py [--games N] [--repeats R]
"""

import argparse
import platform
import time

import numpy as np

from tiny_york_env.game import GameConfig, new_games
from tiny_york_env.game.jit import jit
from tiny_york_env.game.kernels import play_random_kernel
from tiny_york_env.game.rng import seed_rng

MAX_DECISIONS = 1_000_000


@jit
def play_batch(states, rng_words):
    """Play every game of the batch to the end with random legal actions; total decisions."""
    total = 0
    for i in range(states.shape[0]):
        total += play_random_kernel(states, i, rng_words, MAX_DECISIONS)
    return total


CONFIGS = (
    ("2 agents", GameConfig(num_agents=2)),
    ("3 agents", GameConfig(num_agents=3)),
    ("4 agents", GameConfig(num_agents=4)),
    ("1 agent vs Tom 5", GameConfig(num_agents=1, toms=(5,))),
    ("2 agents + Tom 12", GameConfig(num_agents=2, toms=(12,))),
)


def measure(config, games, repeats):
    """Best-of-``repeats`` (decisions/s, games/s, decisions per game) for ``games`` games."""
    best = None
    for r in range(repeats):
        states = new_games(config, range(r * games, (r + 1) * games))
        words = np.zeros(4, np.int64)
        seed_rng(words, 12345 + r)
        start = time.perf_counter()
        decisions = play_batch(states, words)
        elapsed = time.perf_counter() - start
        result = (decisions / elapsed, games / elapsed, decisions / games)
        if best is None or result[0] > best[0]:
            best = result
    return best


def main():
    """Warm up the compiled code, then measure each player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    measure(CONFIGS[0][1], 2, 1)  # compile outside the timing
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    print(f"{'players':<18} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15}")
    for name, config in CONFIGS:
        dps, gps, dpg = measure(config, args.games, args.repeats)
        print(f"{name:<18} {dps:>12,.0f} {gps:>9,.1f} {dpg:>15.1f}")


if __name__ == "__main__":
    main()
