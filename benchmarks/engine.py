"""Engine throughput: random legal games played entirely in compiled code, for any game.

Prints decisions/s and games/s per setup on one core (the game's ``play_random_batch`` kernel,
core/batch_loops.py, the same loop for every game).
Usage:
    python benchmarks/engine.py [--game tiny_york|construction_yard|fifth_avenue|all]
        [--games N] [--repeats R] [--out FILE.json]

``--out`` writes the figures as a result file (``"kind": "table"``, with the command, the day, the
machine and the package version) that the docs render (scripts/render_results.py).
"""

import argparse
import platform
import time
from pathlib import Path

import numpy as np
from result_file import write_table_result

from tiny_york_env.core.rng import seed_rng
from tiny_york_env.envs.batch import batch_kernels
from tiny_york_env.registry import game_names, get_game

MAX_DECISIONS = 1_000_000

def setups(game):
    """(label, config) of each setup measured: the record's ``benchmark_setups`` (the published
    ones), else its example setups."""
    labelled = game.benchmark_setups or tuple((setup_label(setup), setup) for setup in game.example_setups)
    return tuple((label, game.make_config(**setup)) for label, setup in labelled)


def setup_label(setup):
    """A setup's keywords in short: 'num_players=3 bots=greedy'."""
    return " ".join(f"{key}={','.join(map(str, value)) if isinstance(value, tuple) else value}"
                    for key, value in setup.items())


def new_batch(game, config, seeds):
    """Fresh games of ``game`` for ``seeds``."""
    states = np.zeros(len(seeds), dtype=game.state_dtype)
    params = game.config_params(config)
    for i, seed in enumerate(seeds):
        game.kernels.init_record(states, i, params, seed)
    return states


def measure(game, config, games, repeats):
    """Best-of-``repeats`` (decisions/s, games/s, decisions per game) for ``games`` games."""
    play = batch_kernels(game).play_random_batch
    best = None
    for r in range(repeats):
        states = new_batch(game, config, range(r * games, (r + 1) * games))
        words = np.zeros(4, np.int64)
        seed_rng(words, 12345 + r)
        start = time.perf_counter()
        decisions = play(states, words, MAX_DECISIONS)
        elapsed = time.perf_counter() - start
        result = (decisions / elapsed, games / elapsed, decisions / games)
        if best is None or result[0] > best[0]:
            best = result
    return best


def main():
    """Warm up the compiled code, then measure each setup of the chosen games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*game_names(), "all"], default="all")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None, help="also write the figures as a result file")
    args = parser.parse_args()
    names = game_names() if args.game == "all" else [args.game]
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    rows = []
    for name in names:
        game = get_game(name)
        measure(game, setups(game)[0][1], 2, 1)  # compile outside the timing
        print(f"\n{game.title}")
        print(f"{'setup':<22} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15}")
        for label, config in setups(game):
            dps, gps, dpg = measure(game, config, args.games, args.repeats)
            print(f"{label:<22} {dps:>12,.0f} {gps:>9,.1f} {dpg:>15.1f}")
            rows.append([game.title, label, f"{dps:,.0f}", f"{gps:,.0f}", f"{dpg:.1f}"])
    if args.out is not None:
        write_table_result(args.out, ["game", "setup", "decisions/s", "games/s", "decisions/game"], rows,
                           f"best of {args.repeats} timed windows of {args.games} games", "one core")


if __name__ == "__main__":
    main()
