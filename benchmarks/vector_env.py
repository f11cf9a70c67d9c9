"""VecEnv throughput: the SB3 VecEnv of any registered game (``GameVecEnv``: ``TinyYorkVecEnv``,
``ConstructionYardVecEnv``, ...) in steps/s with random legal actions, on 1 and more threads
(``--threads``: the env's ``num_threads``, the games split over numba's threads).

Every step returns observations, rewards, dones, infos (auto-resets included) and the next
masks are read with ``action_masks()``. Actions are drawn uniformly among the legal ones in
numpy, no policy. Per batch size: ``env steps/s`` times the env alone (``step`` and
``action_masks``); ``with actions`` adds the numpy action choice; each is the best of
``--repeats`` timed windows, since other work on the machine only ever slows a window down.
``--breakdown`` adds where a step's time goes: the compiled kernel against Python per batch size,
and the game's compiled batch kernels (apply with the automatic participants, legal masks, the
masks with the mover's observation) alone.

Beside the figures, the machine's memory-copy bandwidth (a copy of arrays far larger than the
caches, bytes read plus bytes written) and the bytes a game step must move at least (its record,
its observation row, its mask row): their ratio is the most steps/s memory allows once a batch
outgrows the caches (each byte moved once, an optimistic bound). Both go to the result file
(``--out FILE.json``); with ``--breakdown`` the split goes to ``FILE-breakdown.json`` beside it.
Usage:
    python benchmarks/vector_env.py [--game NAME] [--sizes 1 64 256 1024] [--seconds S] [--repeats R]
        [--tom 5 | --bots greedy] [--threads 1 2] [--obs-dtype float32|uint8] [--breakdown]
        [--out FILE.json]
(one learning seat against the game's automatic participants: ``--tom`` or ``--bots`` as the game
has them, by default its single-agent env's; ``--obs-dtype uint8``: the compact observations)
"""

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
from result_file import write_table_result

from tiny_york_env.core.jit import max_threads
from tiny_york_env.envs.batch import batch_kernels
from tiny_york_env.envs.vector import GameVecEnv
from tiny_york_env.registry import DEFAULT_GAME, game_names, get_game


def random_legal_actions(masks, rng):
    """One uniformly random legal action per row of ``masks`` (bool[B, NUM_ACTIONS])."""
    counts = masks.sum(axis=1)
    legal = np.flatnonzero(masks)  # row-major: row i's legal ids are contiguous
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(masks.shape[0]) * counts).astype(np.int64)
    return legal[picks] - np.arange(masks.shape[0]) * masks.shape[1]


def make_env(num_envs, setup):
    """The VecEnv of ``setup`` ({"game", "automatic", "num_threads", "obs_dtype"}): one learning
    seat against the automatic participants, seeded 0."""
    game = get_game(setup["game"])
    return GameVecEnv(num_envs, game=game, config=game.seat_config(1, setup["automatic"]), seed=0,
                      num_threads=setup["num_threads"], obs_dtype=setup.get("obs_dtype", "float32"))


def measure(num_envs, seconds, repeats, setup):
    """Best (env steps/s, steps/s with the action choice) over ``repeats`` windows, and games
    ended per second over all of them."""
    env = make_env(num_envs, setup)
    env.reset()
    rng = np.random.default_rng(0)
    masks = env.action_masks()
    best_env = best_total = 0.0
    ended = 0
    elapsed_all = 0.0
    for _ in range(repeats):
        env_time = steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / repeats:
            actions = random_legal_actions(masks, rng)
            t0 = time.perf_counter()
            _, _, dones, _ = env.step(actions)
            masks = env.action_masks()
            env_time += time.perf_counter() - t0
            steps += num_envs
            ended += int(dones.sum())
        elapsed = time.perf_counter() - start
        elapsed_all += elapsed
        best_env = max(best_env, steps / env_time)
        best_total = max(best_total, steps / elapsed)
    return best_env, best_total, ended / elapsed_all


BANDWIDTH_ARRAY_BYTES = 256 * 2**20  # far larger than any cache
BANDWIDTH_COPIES = 5


def memory_copy_bandwidth(copies=BANDWIDTH_COPIES):
    """Best bytes/s of ``copies`` copies of a 256 MiB array, counting bytes read plus bytes
    written (STREAM's convention)."""
    source = np.ones(BANDWIDTH_ARRAY_BYTES, dtype=np.uint8)
    target = np.empty_like(source)
    best = 0.0
    for _ in range(copies):
        start = time.perf_counter()
        np.copyto(target, source)
        best = max(best, 2 * source.nbytes / (time.perf_counter() - start))
    return best


def bytes_per_game_step(game, obs_dtype):
    """(record, observation row, mask row): the bytes one game step reads or writes at least."""
    return game.state_dtype.itemsize, game.obs_size * np.dtype(obs_dtype).itemsize, game.num_actions


def memory_sentence(game, obs_dtype, bandwidth):
    """The memory figures in words: the bytes of a game step, and their ratio to the copy
    bandwidth (which the result file's machine states)."""
    record, obs, mask = bytes_per_game_step(game, obs_dtype)
    total = record + obs + mask
    return (f"a game step moves at least {total:,} bytes (record {record:,}, observation {obs:,}, mask "
            f"{mask:,}), so memory allows at most {bandwidth / total / 1e6:.1f}M steps/s once a batch "
            f"outgrows the caches")


def bandwidth_words(bandwidth):
    """The memory-copy bandwidth as the result file's machine states it."""
    return f"memory copy {bandwidth / 1e9:.1f} GB/s"


def _best_ns_per_game(fn, num_games, calls, repeats):
    """Best over ``repeats`` of ``calls`` calls of ``fn``: nanoseconds per game."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls / num_games * 1e9)
    return best


def split_step(num_envs, setup, seconds, repeats):
    """(whole step, compiled kernel) in ns per game: the env's kernel is timed where it runs."""
    timed = {"kernel": 0.0}
    env = make_env(num_envs, setup)
    kernels = env._kernels  # the game's batch module; step_wait looks step_kernel up at each call
    kernel = kernels.step_kernel

    def timed_kernel(*args):
        start = time.perf_counter()
        result = kernel(*args)
        timed["kernel"] += time.perf_counter() - start
        return result

    kernels.step_kernel = timed_kernel
    try:
        env.reset()
        rng = np.random.default_rng(0)
        best = (float("inf"), 0.0)
        for _ in range(repeats):
            timed["kernel"] = env_time = 0.0
            steps = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / repeats:
                actions = random_legal_actions(env.action_masks(), rng)
                t0 = time.perf_counter()
                env.step(actions)
                env_time += time.perf_counter() - t0
                steps += num_envs
            best = min(best, (env_time / steps * 1e9, timed["kernel"] / steps * 1e9))
        return best
    finally:
        kernels.step_kernel = kernel


def breakdown(sizes, setup, repeats):
    """Print where a step's time goes: compiled kernel against Python, per batch size, and (on one
    thread) the engine's batch verbs alone on a batch small enough to stay in cache. Returns the
    rows ``[threads, num_envs, whole, kernel, Python]`` (ns per game) and the verbs' sentence
    (None on more threads)."""
    print("\nwhere a step goes (ns per game; best window):")
    print(f"{'num_envs':>8} {'whole step':>11} {'kernel':>8} {'Python':>8}")
    rows = []
    for size in sizes:
        whole, kernel = split_step(size, setup, 2.0, repeats)
        print(f"{size:>8} {whole:>11,.0f} {kernel:>8,.0f} {whole - kernel:>8,.0f}")
        rows.append([setup["num_threads"], size, f"{whole:,.0f}", f"{kernel:,.0f}", f"{whole - kernel:,.0f}"])
    if setup["num_threads"] != 1:
        return rows, None
    num_games = 256
    game = get_game(setup["game"])
    kernels = batch_kernels(game)
    config = game.seat_config(1, setup["automatic"])
    rng = np.random.default_rng(1)
    states = np.stack([game.new_game(config, seed) for seed in range(num_games)])
    masks = np.zeros((num_games, game.num_actions), dtype=np.bool_)
    status = np.zeros(num_games, dtype=np.int64)
    for _ in range(20):  # into the game, where decisions are typical
        kernels.legal_masks_batch(states, masks)
        kernels.apply_batch(states, random_legal_actions(masks, rng), status)
    kernels.legal_masks_batch(states, masks)
    actions = random_legal_actions(masks, rng)
    live = np.ones(num_games, dtype=np.bool_)
    obs = np.zeros((num_games, game.obs_size), dtype=np.float32)
    snapshot = states.copy()

    def restore():
        states[:] = snapshot

    def restore_and_apply():
        states[:] = snapshot  # the same positions at every call; the copy is subtracted
        kernels.apply_batch(states, actions, status)

    calls = 200
    copy_ns = _best_ns_per_game(restore, num_games, calls, repeats)
    apply_ns = _best_ns_per_game(restore_and_apply, num_games, calls, repeats) - copy_ns
    mask_ns = _best_ns_per_game(lambda: kernels.legal_masks_batch(states, masks), num_games, calls, repeats)
    observe_ns = _best_ns_per_game(lambda: kernels.rollout_observe(states, live, obs, masks), num_games,
                                   calls, repeats)
    sentence = (f"batch kernels alone on {num_games} games (ns per game): apply + {game.automatic_kind} "
                f"{apply_ns:,.0f}, legal masks {mask_ns:,.0f}, masks + float32 encode {observe_ns:,.0f}")
    print(sentence)
    return rows, sentence


def main():
    """Compile outside the timing, then measure each batch size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 256, 1024])
    parser.add_argument("--seconds", type=float, default=5.0, help="timed run per size")
    parser.add_argument("--repeats", type=int, default=5, help="timed windows per size; best kept")
    parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME)
    parser.add_argument("--tom", "--toms", type=int, nargs="+", dest="toms",
                        help="Tiny York: Tom levels 1-12 (default: its single-agent env's, Tom 5)")
    parser.add_argument("--bots", nargs="+", help="a game with bots: the other players' bots (random, "
                        "greedy; default: its single-agent env's)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, max_threads()],
                        help="num_threads values to measure (default: 1 and all of numba's)")
    parser.add_argument("--obs-dtype", choices=["float32", "uint8"], default="float32",
                        help="the observations' dtype (uint8: the compact ones)")
    parser.add_argument("--breakdown", action="store_true", help="also show where a step goes")
    parser.add_argument("--out", type=Path, default=None, help="also write the figures as a result file")
    args = parser.parse_args()
    rows = []
    game = get_game(args.game)
    automatic = game.automatic_from(toms=args.toms, bots=args.bots) or game.automatic_of(
        game.make_config(**game.env_defaults))
    setup = {"game": game.name, "automatic": tuple(automatic), "obs_dtype": args.obs_dtype}
    label = (f"{game.title}, 1 agent vs {game.automatic_kind} "
             f"{', '.join(game.automatic_label(x) for x in automatic)}, {args.obs_dtype} observations")
    for threads in sorted(set(args.threads)):
        measure(2, 0.1, 1, {**setup, "num_threads": threads})  # compile
    bandwidth = memory_copy_bandwidth()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}, {label}")
    print(f"{bandwidth_words(bandwidth)} (bytes read + written); "
          f"{memory_sentence(game, args.obs_dtype, bandwidth)}")
    print(f"{'threads':>7} {'num_envs':>8} {'env steps/s':>12} {'with actions':>13} {'games/s':>9}")
    for threads in args.threads:
        for size in args.sizes:
            env_sps, total_sps, games = measure(size, args.seconds, args.repeats,
                                                {**setup, "num_threads": threads})
            print(f"{threads:>7} {size:>8} {env_sps:>12,.0f} {total_sps:>13,.0f} {games:>9,.0f}")
            rows.append([threads, size, f"{env_sps:,.0f}", f"{total_sps:,.0f}", f"{games:,.0f}"])
    if args.out is not None:
        columns = ["threads", "num_envs", "env steps/s", "with actions", "games/s"]
        note = (f"{label}: step() and action_masks(), no policy; 'with actions' adds drawing random legal "
                f"actions in numpy; best of {args.repeats} windows of {args.seconds} s; "
                f"{memory_sentence(game, args.obs_dtype, bandwidth)}")
        write_table_result(args.out, columns, rows, note,
                           machine_note=bandwidth_words(bandwidth))
    if args.breakdown:
        split_rows, sentences = [], []
        for threads in args.threads:
            print(f"\n{threads} thread(s):", end="")
            found, sentence = breakdown(args.sizes, {**setup, "num_threads": threads}, args.repeats)
            split_rows += found
            sentences += [sentence] if sentence else []
        if args.out is not None:
            note = (f"{label}: where a step goes, ns per game (best window of 2 s); "
                    f"{'; '.join(sentences)}; {memory_sentence(game, args.obs_dtype, bandwidth)}")
            write_table_result(args.out.with_name(f"{args.out.stem}-breakdown.json"),
                               ["threads", "num_envs", "whole step", "kernel", "Python"], split_rows, note,
                               machine_note=bandwidth_words(bandwidth))


if __name__ == "__main__":
    main()
