"""Fuzz a game's door at length: corrupted saved records (``tests/save_checks.py``) are refused by
``load_state`` or play to the end with every check of the test suite's fuzz; unlike the test,
every failing case is reported (its setup, the fields changed, what went wrong), not only the
first.

    python scripts/fuzz_records.py fifth_avenue --cases 8000 --seed 11

Exit status 1 when a case failed. The test suite runs a few hundred cases a game; a run of
thousands takes minutes and finds the rarer holes.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository's tests package

from tests.save_checks import corrupted_records, play_on  # noqa: E402
from tests.test_game_properties import SETUPS  # noqa: E402
from tiny_york_env.registry import game_names, get_game  # noqa: E402


def main(argv=None):
    """Run the fuzz and print every failing case; the exit status says whether any failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--cases", type=int, default=2000, help="corrupted records (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="the corruptions' seed (default 0)")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    started = time.perf_counter()
    counts = {"refused": 0, "accepted": 0, "failed": 0}
    records = corrupted_records(args.game, SETUPS[args.game], args.cases, args.seed)
    for case, setup, record, changes in records:
        try:
            state = game.load_state(game.save_state(record, validate=False))
        except ValueError:
            counts["refused"] += 1
            continue
        counts["accepted"] += 1
        try:
            play_on(game, state, game.num_participants(game.make_config(**setup)), case)
        except (AssertionError, ValueError) as error:
            counts["failed"] += 1
            print(f"case {case} {setup} changes {changes}:\n    {type(error).__name__}: {error}")
    print(f"{args.game}: {counts} in {time.perf_counter() - started:.0f} s")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
