"""What the arena's games leave: one ``GameRecord`` a game, one ``CellResult`` an agent and cell
(a rung of the ladder, a match), and ``EvalResults``, the cells with every record and the settings
that played them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

from .intervals import wilson_interval


@dataclass(frozen=True)
class GameRecord:
    """How one game ended; ``scores`` has one total per seat, the automatic participants (after the
    agents) included. ``winner`` is the first winning seat; ``winners`` every one (a game that
    shares the win), ``places`` each seat's place (0 = first, tied seats share the mean). Records
    read from files written before those two were kept have them empty."""

    cell: int
    index: int
    game_seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    winner: int
    decisions: int
    seconds: float
    winners: tuple[int, ...] = ()
    places: tuple[float, ...] = ()

    def win_share(self, seat: int) -> float:
        """The share of the win ``seat`` took: 1 alone, 1/k among k winners, else 0."""
        winners = self.winners or (self.winner,)
        return 1 / len(winners) if seat in winners else 0.0


@dataclass(frozen=True)
class CellResult:
    """One agent's results in one cell (a rung of the ladder, or a match between agents)."""

    agent: str
    opponents: str
    level: int | str | None  # the ladder's rung (a Tom level, a bot's name); None in a match
    games: int
    wins: int | float  # a win shared by k seats counts 1/k
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    mean_margin: float
    seconds_per_game: float


def seat_outcome(record: GameRecord, seat: int) -> tuple[float, int, int]:
    """(share of the win, score, margin over the best other participant) of ``seat`` in ``record``."""
    scores = record.scores
    best_other = max(s for k, s in enumerate(scores) if k != seat)
    return record.win_share(seat), scores[seat], scores[seat] - best_other


def cell_result(records: Sequence[GameRecord], player: int, label: str, opponents: str,
                level: int | str | None = None) -> CellResult:
    """The CellResult of players-list index ``player`` over ``records`` (all one cell)."""
    outcomes = [seat_outcome(r, seat) for r in records for seat, p in enumerate(r.seating) if p == player]
    if not outcomes:
        raise ValueError(f"agent {label!r} played no game in the cell against {opponents}")
    wins = sum(won for won, _, _ in outcomes)
    wins = int(wins) if float(wins).is_integer() else float(wins)  # a shared win counts 1/k
    low, high = wilson_interval(wins, len(outcomes))
    return CellResult(label, opponents, level, len(outcomes), wins, wins / len(outcomes), low, high,
                      float(np.mean([s for _, s, _ in outcomes])),
                      float(np.mean([m for _, _, m in outcomes])),
                      float(np.mean([r.seconds for r in records])))


@dataclass
class EvalResults:
    """Cells (one row per agent and opponent), every game's record, and the settings used."""

    kind: Literal["ladder", "match"]
    cells: list[CellResult]
    records: list[GameRecord] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    def outcomes(self) -> list[dict[str, Any]]:
        """The cells without their timings: equal for equal seeds, whatever the workers were."""
        return [{k: v for k, v in asdict(c).items() if k != "seconds_per_game"} for c in self.cells]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: settings, cells and game records."""
        return {"kind": self.kind, "settings": self.settings,
                "cells": [asdict(c) for c in self.cells],
                "games": [asdict(r) for r in self.records]}


def combine_results(results: Iterable[EvalResults]) -> EvalResults:
    """Several EvalResults of one kind (e.g. the ladder of several agents) as one."""
    results = list(results)
    if not results or len({r.kind for r in results}) != 1:
        raise ValueError("combine_results needs one or more EvalResults of the same kind")
    settings = {"runs": [r.settings for r in results]} if len(results) > 1 else results[0].settings
    return EvalResults(results[0].kind, [c for r in results for c in r.cells],
                       [rec for r in results for rec in r.records], settings)
