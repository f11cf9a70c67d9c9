"""A long ladder in resumable parts: ``tiny-york eval --agent A --games N --part-games K --out DIR``.

The ladder's games are played K at a time, each part into its own folder
(``DIR/parts/games-FIRST-LAST/ladder.json``, written whole and then moved into place), and the
finished parts are joined into ``DIR/ladder.json`` (``ladder_merge``: the same cells as one
run over all the games). Run the same command again after a stop and only the missing parts are
played; a part folder of another agent, seed or game is refused by the join. With ``--ray`` each
part's games run on the cluster.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..agents.registry import AgentSpec
from ..core.options import check_int
from ..registry import get_game
from .jobs import AutomaticSpec
from .labels import agent_label
from .ladder import check_rungs, evaluate_ladder
from .ladder_merge import merge_ladder_files
from .output import output_dir
from .records import EvalResults
from .result_files import write_results

PARTS_FOLDER = "parts"
PARTIAL_SUFFIX = ".partial"


def part_folder(out: Path, first: int, count: int) -> Path:
    """Where the part of games ``first`` to ``first + count - 1`` is kept."""
    return out / PARTS_FOLDER / f"games-{first}-{first + count - 1}"


def part_ranges(first_game: int, games: int, part_games: int) -> list[tuple[int, int]]:
    """(first, count) of each part: ``games`` games from ``first_game``, ``part_games`` a part (the
    last part what is left)."""
    return [(first, min(part_games, first_game + games - first))
            for first in range(first_game, first_game + games, part_games)]


def check_kept_part(folder: Path, wanted: dict[str, Any]) -> None:
    """ValueError when the part kept in ``folder`` was played with other settings than ``wanted``
    (game, agent, seed, levels, games, first game); nothing to check where none is kept."""
    path = folder / "ladder.json"
    if not path.is_file():
        return
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))["settings"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a ladder part of tiny-york eval ({error}); remove the folder to "
                         f"play the part again") from None
    differ = [f"{key} {settings.get(key)!r}, not {value!r}" for key, value in wanted.items()
              if settings.get(key) != value]
    if differ:
        raise ValueError(f"{path} is a part of another ladder: its " + ", ".join(differ)
                         + "; give another --out, or the settings it was played with")


def play_ladder_in_parts(agent: AgentSpec, rungs: Sequence[AutomaticSpec] | None, games: int,
                         part_games: int, out: str | os.PathLike[str], *, seed: int = 0, workers: int = 1,
                         ray_address: str | None = None, first_game: int = 0, game: str = "tiny_york",
                         progress: bool = True, command: str | None = None,
                         report: Callable[[Path, bool], None] | None = None) -> EvalResults:
    """The ladder of ``agent`` over ``games`` games a rung from ``first_game``, played ``part_games``
    at a time into ``out/parts`` (a finished part is kept, not played again) and joined; returns the
    joined ladder. ``report(folder, played)`` is called for each part (``played`` False when it was
    already there). ValueError for bad counts or parts that do not join."""
    games = check_int("games", games, 1, "games a rung")
    part_games = check_int("part_games", part_games, 1, "games a part")
    out = output_dir(out)
    ranges = part_ranges(first_game, games, part_games)
    wanted = {"game": get_game(game).name, "agent": agent_label(agent), "seed": seed,
              "levels": check_rungs(get_game(game), rungs)}
    for first, count in ranges:  # refused before anything is played, not at the join hours later
        check_kept_part(part_folder(out, first, count), {**wanted, "games": count, "first_game": first})
    folders = []
    for first, count in ranges:
        folder = part_folder(out, first, count)
        played = not (folder / "ladder.json").is_file()
        if played:
            results = evaluate_ladder(agent, rungs, games=count, seed=seed, workers=workers,
                                      progress=progress, ray_address=ray_address, first_game=first,
                                      game=game)
            if command is not None:  # the part's own range, for the joined file's merged_from
                results.settings["command"] = f"{command} [part: games {first}-{first + count - 1}]"
            partial = folder.with_name(folder.name + PARTIAL_SUFFIX)
            shutil.rmtree(partial, ignore_errors=True)  # a part stopped while it was being written
            write_results(results, partial)
            os.replace(partial, folder)
        folders.append(folder)
        if report is not None:
            report(folder, played)
    return merge_ladder_files([folder / "ladder.json" for folder in folders])
