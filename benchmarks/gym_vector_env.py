"""Gymnasium vector env throughput: the native ``TinyYorkVectorEnv`` beside the SB3
``TinyYorkVecEnv`` and Gymnasium's ``SyncVectorEnv`` over B ``TinyYorkEnv``; the two compiled
envs on ``--threads`` threads (default: all of numba's), the SyncVectorEnv on one.

The protocol of ``benchmarks/vector_env.py``: random legal actions drawn in numpy from the masks,
no policy; per batch size ``env steps/s`` times the env alone (a Gymnasium env's ``step``, whose
infos carry the next masks; the SB3 env's ``step`` plus ``action_masks()``), ``with actions``
adds the action choice; each is the best of ``--repeats`` timed windows, since other work on the
machine only ever slows a window down. Autoresets are included (the Gymnasium envs' next-step
autoreset costs a step of its own, whose action is ignored).
Usage:
    python benchmarks/gym_vector_env.py [--sizes 1 64 256 1024] [--seconds S] [--repeats R]
                                        [--toms 5] [--threads N] [--no-sync]
"""

import argparse
import platform
import time

import gymnasium as gym
import numpy as np
from vector_env import measure as measure_sb3  # this folder: the SB3 env, same protocol

import tiny_york_env  # noqa: F401  (registers TinyYork-v0)
from tiny_york_env.core.jit import max_threads
from tiny_york_env.games.tiny_york import NUM_ACTIONS

ENV_ID = "TinyYork-v0"


def random_legal_actions(masks, rng):
    """One uniformly random legal action per row of ``masks`` (any action for a row with none: a
    game waiting for its autoreset ignores it)."""
    counts = masks.sum(axis=1)
    if not counts.all():
        masks = masks.copy()
        masks[counts == 0] = True
        counts = masks.sum(axis=1)
    legal = np.flatnonzero(masks)  # row-major: row i's legal ids are contiguous
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(masks.shape[0]) * counts).astype(np.int64)
    return legal[picks] - np.arange(masks.shape[0]) * NUM_ACTIONS


def measure_gym(mode, num_envs, seconds, repeats, toms, threads=None):
    """Best (env steps/s, steps/s with the action choice) over ``repeats`` windows, and games
    ended per second over all of them, for ``gym.make_vec`` in ``mode`` (the native env on
    ``threads``)."""
    kwargs = {"num_threads": threads} if mode == "vector_entry_point" else {}
    env = gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode=mode, toms=toms, **kwargs)
    _, infos = env.reset(seed=0)
    masks = infos["action_mask"]
    rng = np.random.default_rng(0)
    best_env = best_total = 0.0
    ended = 0
    elapsed_all = 0.0
    for _ in range(repeats):
        env_time = steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / repeats:
            actions = random_legal_actions(masks, rng)
            t0 = time.perf_counter()
            _, _, terminated, _, infos = env.step(actions)
            masks = infos["action_mask"]
            env_time += time.perf_counter() - t0
            steps += num_envs
            ended += int(terminated.sum())
        elapsed = time.perf_counter() - start
        elapsed_all += elapsed
        best_env = max(best_env, steps / env_time)
        best_total = max(best_total, steps / elapsed)
    env.close()
    return best_env, best_total, ended / elapsed_all


def main():
    """Compile outside the timing, then measure each env at each batch size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 256, 1024])
    parser.add_argument("--seconds", type=float, default=5.0, help="timed run per size and env")
    parser.add_argument("--repeats", type=int, default=5, help="timed windows per size; best kept")
    parser.add_argument("--toms", type=int, nargs="+", default=[5], help="Tom levels 1-12")
    parser.add_argument("--threads", type=int, default=max_threads(),
                        help="num_threads of the two compiled envs (default: all of numba's)")
    parser.add_argument("--no-sync", action="store_true", help="leave out the SyncVectorEnv")
    args = parser.parse_args()
    toms = tuple(args.toms)
    sb3_setup = {"game": "tiny_york", "automatic": toms, "num_threads": args.threads}
    measure_gym("vector_entry_point", 2, 0.1, 1, toms, args.threads)  # compile
    measure_sb3(2, 0.1, 1, sb3_setup)
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, "
          f"1 agent vs Toms {toms}, {args.threads} thread(s); env steps/s (with actions)")
    header = f"{'num_envs':>8} {'native gym':>22} {'SB3 VecEnv':>22}"
    print(header + ("" if args.no_sync else f" {'SyncVectorEnv':>22}") + f" {'native games/s':>15}")
    for size in args.sizes:
        native = measure_gym("vector_entry_point", size, args.seconds, args.repeats, toms, args.threads)
        sb3 = measure_sb3(size, args.seconds, args.repeats, sb3_setup)
        cells = [native, sb3]
        if not args.no_sync:
            cells.append(measure_gym("sync", size, args.seconds, args.repeats, toms))
        row = " ".join(f"{f'{env:,.0f} ({total:,.0f})':>22}" for env, total, _ in cells)
        print(f"{size:>8} {row} {native[2]:>15,.0f}")


if __name__ == "__main__":
    main()
