"""Copy a tool's result file (``tiny-york eval``'s ladder.json or match.json, ``tiny-york
tournament``'s tournament.json, ``tiny-york compare``'s compare.json) into docs/results.

The published copy keeps the cells and the settings (the command, the day, the version, the
machine); ``--drop-games`` leaves out the per-game records of a large run (the run's own file keeps
them; the seeds in the settings replay any game), noting it in ``settings.games_dropped``::

    python scripts/publish_result.py results/leaderboard/ladder.json \\
        docs/results/tiny-york-leaderboard.json --drop-games

``--relabel OLD=NEW --why TEXT`` renames an agent in the cells and settings (in place when the
source is the published copy), noting why, for a definition that changed after the run: the
champion's runs before its budget lost the 1 s limit are ``champion@1``::

    python scripts/publish_result.py docs/results/champion-tom10-tom12.json \
        docs/results/champion-tom10-tom12.json --relabel champion=champion@1 --why "..."

Then ``python scripts/render_results.py`` redraws the tables that read it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL_KINDS = ("ladder", "match", "compare")  # the files the tools write
KNOWN_KINDS = (*TOOL_KINDS, "cells", "table")  # and the kept ones, which --relabel may mend


def relabel(data: dict, old: str, new: str, why: str) -> None:
    """Rename the agent ``old`` to ``new`` in ``data``'s cells and settings; SystemExit if none
    is named ``old``."""
    renamed = 0
    for cell in data.get("cells", []):
        if cell.get("agent") == old:
            cell["agent"], renamed = new, renamed + 1
        if isinstance(cell.get("opponents"), str):  # a match cell names the other agents
            names = cell["opponents"].split(", ")
            cell["opponents"] = ", ".join(new if name == old else name for name in names)
    settings = data.get("settings", {})
    for key in ("agent", "a", "b"):  # a ladder's agent, a comparison's two
        if settings.get(key) == old:
            settings[key], renamed = new, renamed + 1
    for key in ("agents", "opponents"):  # a match's agents, a comparison's other agents
        if old in settings.get(key, []):
            settings[key], renamed = [new if name == old else name for name in settings[key]], renamed + 1
    if not renamed:
        raise SystemExit(f"no agent named {old!r} in the file")
    notes = data["settings"] if "settings" in data else data.setdefault("provenance", {})
    notes["relabelled"] = f"{old} -> {new}: {why}"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the published copy of one result file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--drop-games", action="store_true", help="leave out the per-game records")
    parser.add_argument("--machine-here", action="store_true",
                        help="record this machine as the run's where the file names none "
                             "(for a run of this machine)")
    parser.add_argument("--relabel", metavar="OLD=NEW", help="rename the agent OLD to NEW")
    parser.add_argument("--why", help="with --relabel: why, kept in the file")
    args = parser.parse_args(argv)
    text = args.source.read_text(encoding="utf-8")
    data = json.loads(text)
    if args.why and not args.relabel:
        parser.error("--why goes with --relabel")
    if data.get("kind") not in KNOWN_KINDS and "standings" not in data:
        raise SystemExit(f"{args.source}: not a result file (its kind is {data.get('kind')!r}; "
                         f"known: {', '.join(KNOWN_KINDS)}, or a tournament's)")
    if args.relabel:
        old, equals, new = args.relabel.partition("=")
        if not (equals and old and new and args.why):
            parser.error("--relabel takes OLD=NEW and needs --why")
        relabel(data, old, new, args.why)
    elif data.get("kind") not in TOOL_KINDS and "standings" not in data:
        raise SystemExit(f"{args.source}: not a ladder or match file of tiny-york eval, nor a "
                         f"tournament's or a comparison's")
    settings = data["settings"] if "settings" in data or "provenance" not in data else data["provenance"]
    if args.machine_here and "machine" not in settings:
        sys.path.insert(0, str(ROOT))
        from tiny_york_env.arena.provenance import machine_description
        settings["machine"] = machine_description()
    if args.drop_games:
        dropped = sum(len(data.pop(key, [])) for key in ("games", "a_games", "b_games"))
        settings["games_dropped"] = f"{dropped} game records left out of the published copy"
    compact = "\n" not in text.strip()  # a file on one line (a tool's big ladder) stays on one line
    layout = {"separators": (",", ":")} if compact else {"indent": 1}
    args.out.write_text(json.dumps(data, **layout) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
