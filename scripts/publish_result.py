"""Copy a tool's result file (``tiny-york eval``'s ladder.json or match.json, ``tiny-york
tournament``'s tournament.json) into docs/results.

The published copy keeps the cells and the settings (the command, the day, the version, the
machine); ``--drop-games`` leaves out the per-game records of a large run (the run's own file keeps
them; the seeds in the settings replay any game), noting it in ``settings.games_dropped``::

    python scripts/publish_result.py results/leaderboard/ladder.json \\
        docs/results/tiny-york-leaderboard.json --drop-games

Then ``python scripts/render_results.py`` redraws the tables that read it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: Sequence[str] | None = None) -> int:
    """Write the published copy of one result file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--drop-games", action="store_true", help="leave out the per-game records")
    parser.add_argument("--machine-here", action="store_true",
                        help="record this machine as the run's where the file names none "
                             "(for a run of this machine)")
    args = parser.parse_args(argv)
    data = json.loads(args.source.read_text(encoding="utf-8"))
    if data.get("kind") not in ("ladder", "match") and "standings" not in data:
        raise SystemExit(f"{args.source}: not a ladder or match file of tiny-york eval, nor a tournament's")
    settings = data["settings"]
    if args.machine_here and "machine" not in settings:
        sys.path.insert(0, str(ROOT))
        from tiny_york_env.training.evaluate import machine_description
        settings["machine"] = machine_description()
    if args.drop_games:
        dropped = len(data.pop("games", []))
        settings["games_dropped"] = f"{dropped} game records left out of the published copy"
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
