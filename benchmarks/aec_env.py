"""PettingZoo AEC env throughput: whole games of uniformly random legal actions through the env.

Each step is what a Python training loop does: ``env.last()`` (observation and mask), a random
legal action from the mask, ``env.step``. Dead-agent steps at the end and resets are inside the
timing; steps/s counts the agents' decisions. Prints the best of R runs for the wrapped env
(``make_aec``, as ``env()``) and the raw env (``make_raw_aec``), per setup of each game.
Usage:
    python benchmarks/aec_env.py [--game tiny_york|construction_yard|fifth_avenue|all]
        [--games N] [--repeats R] [--out FILE.json]
"""

import argparse
import platform
import time
from functools import partial
from pathlib import Path

import numpy as np
from result_file import write_table_result

from tiny_york_env.envs.aec import make_aec, make_raw_aec
from tiny_york_env.registry import game_names, get_game


def setups(game):
    """(label, setup keywords) of each setup measured: the record's ``benchmark_setups`` (the
    published ones), else its example setups."""
    return game.benchmark_setups or tuple((" ".join(f"{k}={v}" for k, v in setup.items()), setup)
                                          for setup in game.example_setups)


def play(aec, games, seed):
    """Play ``games`` games with random masked actions; (decisions, seconds)."""
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        aec.reset(seed=seed + g)
        while aec.agents:
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            aec.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
    return decisions, time.perf_counter() - start


def measure(make, kwargs, games, repeats):
    """Best-of-``repeats`` (steps/s, decisions per game)."""
    aec = make(**kwargs)
    best = None
    for r in range(repeats):
        decisions, seconds = play(aec, games, 1000 * r)
        result = (decisions / seconds, decisions / games)
        if best is None or result[0] > best[0]:
            best = result
    return best


def main():
    """Warm up the compiled code, then measure each setup."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*game_names(), "all"], default="all")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None, help="also write the figures as a result file")
    args = parser.parse_args()
    rows = []
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    for game in game_names() if args.game == "all" else [args.game]:
        wrapped_env = partial(make_aec, game)
        raw_env = partial(make_raw_aec, game)
        measure(wrapped_env, setups(get_game(game))[0][1], 1, 1)  # load the compiled engine first
        print(f"\n{get_game(game).title}")
        print(f"{'players':<20} {'env() steps/s':>14} {'raw_env steps/s':>16} {'decisions/game':>15}")
        for name, kwargs in setups(get_game(game)):
            wrapped, per_game = measure(wrapped_env, kwargs, args.games, args.repeats)
            raw, _ = measure(raw_env, kwargs, args.games, args.repeats)
            print(f"{name:<20} {wrapped:>14,.0f} {raw:>16,.0f} {per_game:>15.1f}")
            rows.append([get_game(game).title, name, f"{wrapped:,.0f}", f"{raw:,.0f}", f"{per_game:.1f}"])
    if args.out is not None:
        columns = ["game", "setup", "`env()` steps/s", "`raw_env()` steps/s", "decisions/game"]
        note = (f"last(), a random legal action, step(), whole games; best of {args.repeats} runs of "
                f"{args.games} games")
        write_table_result(args.out, columns, rows, note, "one core")


if __name__ == "__main__":
    main()
