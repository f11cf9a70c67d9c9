"""Plain-text tables of the arena's results, as the commands print them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .records import EvalResults

TABLE_COLUMNS = ("agent", "opponents", "games", "wins", "win rate [95% CI]", "mean score",
                 "mean margin", "s/game")


def format_rows(header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """A plain-text table: ``header`` and ``rows`` of strings, columns padded to fit."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)).rstrip()
             for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_table(results: EvalResults) -> str:
    """The cells of ``results`` as a plain-text table."""
    rows = [(c.agent, c.opponents, c.games, c.wins,
             f"{c.win_rate:6.1%} [{c.ci_low:5.1%}, {c.ci_high:5.1%}]",
             f"{c.mean_score:.1f}", f"{c.mean_margin:+.1f}", f"{c.seconds_per_game:.3f}")
            for c in results.cells]
    return format_rows(TABLE_COLUMNS, rows)
