"""An evaluation's result files: one CSV row a cell, the JSON of settings, cells and every game, and
for the ladder a PNG of win rate by rung (``write_results``)."""

from __future__ import annotations

import csv
import json
import os
from dataclasses import asdict
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..registry import DEFAULT_GAME, get_game
from .output import open_output, output_dir, refuse_symlink
from .records import CellResult, EvalResults

PLOT_SIZE_INCHES = (8, 5)
PLOT_DPI = 100
PLOT_CAPSIZE = 3


def write_csv(results: EvalResults, path: str | os.PathLike[str]) -> None:
    """One CSV row per cell."""
    names = list(CellResult.__dataclass_fields__)
    with open_output(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=names)
        writer.writeheader()
        for cell in results.cells:
            writer.writerow(asdict(cell))


def write_json(results: EvalResults, path: str | os.PathLike[str]) -> None:
    """Settings, cells and every game record as JSON."""
    with open_output(path) as handle:
        json.dump(results.to_dict(), handle, indent=1)


def _ladder_rung(cell: CellResult) -> int | str:
    """The rung of a ladder cell; ValueError for a match cell, which has none."""
    if cell.level is None:
        raise ValueError(f"plot_ladder plots ladder results (a rung per cell); the cell of "
                         f"{cell.agent!r} against {cell.opponents} has no rung")
    return cell.level


def plot_ladder(results: EvalResults, path: str | os.PathLike[str]) -> None:
    """A PNG of win rate by rung (Tom level, bot), Wilson 95% intervals as error bars, one line per
    agent; every one of the game's ``automatic_choices`` on the axis, in their order."""
    runs = results.settings.get("runs", [results.settings])
    game = get_game(runs[0].get("game", DEFAULT_GAME))  # files from before games were named: Tiny York's
    rungs = list(game.automatic_choices)  # every rung is a tick, played or not
    rungs += sorted({_ladder_rung(c) for c in results.cells} - set(rungs), key=str)
    position = {rung: k for k, rung in enumerate(rungs)}
    figure = Figure(figsize=PLOT_SIZE_INCHES)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for label in dict.fromkeys(c.agent for c in results.cells):
        cells = sorted((c for c in results.cells if c.agent == label),
                       key=lambda c: position[_ladder_rung(c)])
        rates = np.array([c.win_rate for c in cells])
        # Clipped at zero: at 0 or all wins the Wilson bound and the rate differ by rounding only.
        below = np.maximum(rates - [c.ci_low for c in cells], 0.0)
        above = np.maximum(np.array([c.ci_high for c in cells]) - rates, 0.0)
        axes.errorbar([position[_ladder_rung(c)] for c in cells], rates, yerr=[below, above], marker="o",
                      capsize=PLOT_CAPSIZE, label=label)
    axes.set_xticks(range(len(rungs)), [str(r) for r in rungs])
    axes.set_xlabel(f"{game.title}: {game.automatic_kind}")
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend()
    axes.set_title(f"Win rate against each of the {game.automatic_kind}")
    with open_output(path, "wb") as handle:
        figure.savefig(handle, format="png", dpi=PLOT_DPI)


def write_results(results: EvalResults, out_dir: str | os.PathLike[str],
                  stem: str | None = None) -> list[Path]:
    """Write ``<stem>.csv``, ``<stem>.json`` and, for the ladder, ``<stem>.png`` into ``out_dir``
    (created); ``stem`` defaults to the kind. Returns the paths written. A symbolic link as
    ``out_dir`` or as one of the files is refused (ValueError) before anything is written."""
    out = output_dir(out_dir)
    stem = stem or results.kind
    paths = [out / f"{stem}.csv", out / f"{stem}.json"]
    if results.kind == "ladder":
        paths.append(out / f"{stem}.png")
    for path in paths:
        refuse_symlink(path)
    write_csv(results, paths[0])
    write_json(results, paths[1])
    if results.kind == "ladder":
        plot_ladder(results, paths[2])
    return paths
