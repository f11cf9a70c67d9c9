"""Two checkouts' benchmarks in one sitting: each benchmark script run in the BEFORE tree, then in
the AFTER tree, script by script and game by game, so both meet the same machine state.

Used to show that a change which should not cost speed (a refactoring) does not: the engine
(``engine.py``), the AEC env (``aec_env.py``), the SB3 VecEnv (``vector_env.py``) and the time
per decision of the shipped agents played through the arena's seats (``decision_time.py``: random,
greedy, ppo and the champion), every game.
Each run imports the package of its own tree (``PYTHONPATH``); the compiled code of each tree is
warmed up by a first untimed run. The outputs, the commits and the machine go to a JSON result
file.

Usage:
    git worktree add /tmp/before <commit>
    python benchmarks/side_by_side.py --before /tmp/before --after . --out benchmarks/results/FILE.json
        [--games NAME ...] [--scripts vector_env.py ...] [--obs-dtype uint8]
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from tiny_york_env.registry import BUILTIN_GAMES

GAMES = tuple(BUILTIN_GAMES)  # every built-in game
# script -> its arguments (the measured run) and a short warm-up run's
BENCHMARKS = {
    "engine.py": (["--games", "2000", "--repeats", "3"], ["--games", "20", "--repeats", "1"]),
    "aec_env.py": (["--games", "40", "--repeats", "3"], ["--games", "2", "--repeats", "1"]),
    "vector_env.py": (["--sizes", "1", "64", "1024", "--seconds", "2", "--repeats", "3"],
                      ["--sizes", "64", "--seconds", "0.2", "--repeats", "1"]),
    "decision_time.py": (["--games", "2"], ["--games", "1", "--agents", "random", "greedy"]),
}


def run(tree: Path, script: str, game: str, arguments: list[str]) -> str:
    """The output of ``script`` for ``game`` in ``tree`` (its own package on the path)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, str(tree / "benchmarks" / script), "--game", game, *arguments],
                          cwd=tree, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def commit(tree: Path) -> str:
    """The tree's commit (with '+' when it has uncommitted changes)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True,
                          text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True,
                           text=True, check=True).stdout.strip()
    return head + ("+" if dirty else "")


def main() -> None:
    """Run every benchmark of every game in both trees, alternating, and write the result file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--scripts", nargs="+", default=list(BENCHMARKS), choices=list(BENCHMARKS),
                        help="the benchmarks to run (default: all)")
    parser.add_argument("--obs-dtype", choices=["float32", "uint8"], default="float32",
                        help="vector_env.py's observations (uint8: the compact ones)")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    results = {"command": " ".join(sys.argv), "date": datetime.date.today().isoformat(),
               "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform()}",
               "python": platform.python_version(),
               "commits": {label: commit(tree) for label, tree in trees.items()}, "runs": []}
    for script in args.scripts:
        measured, warm_up = BENCHMARKS[script]
        if script == "vector_env.py":
            dtype = ["--obs-dtype", args.obs_dtype]
            measured, warm_up = measured + dtype, warm_up + dtype
        for game in args.games:
            for tree in trees.values():
                run(tree, script, game, warm_up)
            for label, tree in trees.items():
                output = run(tree, script, game, measured)
                results["runs"].append({"script": script, "game": game, "tree": label, "output": output})
                print(f"--- {script} {game} {label}\n{output}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
