"""The demo tour's report: one self-contained HTML page (``python -m tiny_york_env.demo`` writes it
to ``results/demo/index.html``).

For each game: what was played (the agents, the rungs, the games a rung and the ``tiny-york eval``
command of each part), a table of win rates by agent and rung (a cell's games, wins and Wilson 95%
interval on hover), the ladder plot embedded as a PNG data URI and linked to its file, every cell
of the harness's table and links to the CSV and JSON; at the top the demo's command, the package
version, the seed, the workers and the wall time. ``write_report`` writes it from the tour's
``GameReport``s; the page needs nothing beside itself (the links to the result files are relative).
"""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from tiny_york_env import __version__
from tiny_york_env.agents.registry import player_table
from tiny_york_env.arena.output import write_output_text
from tiny_york_env.arena.tables import TABLE_COLUMNS
from tiny_york_env.registry import get_game

if TYPE_CHECKING:
    from tiny_york_env.arena.records import EvalResults

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.4; }
h1 { font-size: 1.6rem; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.5rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
table.meta th { text-align: left; background: #f6f6f6; }
td.rate { font-variant-numeric: tabular-nums; }
code { background: #f3f3f3; padding: 0 .2rem; border-radius: 3px; font-size: .85rem; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
.note { color: #8a5a00; }
"""
LISTED_RUNGS = 4  # a leg's rungs are named one by one up to this many, else as a range


@dataclass(frozen=True)
class PlayedLeg:
    """Agents that played ``games`` games a rung against ``rungs`` (None: every rung), and the
    ``tiny-york eval`` command that plays them alone."""

    agents: tuple[str, ...]
    games: int
    rungs: tuple | None
    command: str


@dataclass
class GameReport:
    """One game's part of the tour: its results (None when no agent could play), legs, the files
    written (CSV, JSON, PNG) and the lines about agents left out."""

    game: str
    results: EvalResults | None
    legs: list[PlayedLeg] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _percent(rate: float) -> str:
    return f"{rate:.0%}"


def _rung_labels(game_name: str, rungs: Sequence | None) -> str:
    """The rungs a leg played, in words: 'each of Tom 1 (A6), Tom 6 (C3)', 'each of the 12 rungs,
    Tom 1 (A6) to Tom 12 (C5)'."""
    game = get_game(game_name)
    labels = [game.automatic_label(r) for r in (game.automatic_choices if rungs is None else rungs)]
    if len(labels) > LISTED_RUNGS:
        return f"each of the {len(labels)} rungs, {labels[0]} to {labels[-1]}"
    return "each of " + ", ".join(labels)


def _relative(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


def _win_rate_table(report: GameReport) -> str:
    """Agents by rung: the win rate of each cell played, its games, wins and interval on hover."""
    game = get_game(report.game)
    cells = report.results.cells
    rungs = [r for r in game.automatic_choices if any(c.level == r for c in cells)]
    rungs += [r for r in dict.fromkeys(c.level for c in cells) if r not in rungs]
    agents = list(dict.fromkeys(c.agent for c in cells))
    by_key = {(c.agent, c.level): c for c in cells}
    head = "".join(f"<th>{escape(game.automatic_label(r))}</th>" for r in rungs)
    rows = []
    for agent in agents:
        row = [f"<td>{escape(agent)}</td>"]
        for rung in rungs:
            cell = by_key.get((agent, rung))
            if cell is None:
                row.append("<td></td>")
                continue
            hover = (f"{cell.wins} of {cell.games} games won, 95% interval "
                     f"[{cell.ci_low:.1%}, {cell.ci_high:.1%}]")
            row.append(f'<td class="rate" title="{escape(hover)}">{_percent(cell.win_rate)}'
                       f"<br><small>of {cell.games}</small></td>")
        rows.append("<tr>" + "".join(row) + "</tr>")
    return (f"<table class=\"rates\"><thead><tr><th>agent</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _cell_table(results: EvalResults) -> str:
    """Every cell as the arena's text table has it (``arena.tables.TABLE_COLUMNS``)."""
    head = "".join(f"<th>{escape(name)}</th>" for name in TABLE_COLUMNS)
    rows = []
    for c in results.cells:
        values = (c.agent, c.opponents, c.games, c.wins,
                  f"{c.win_rate:.1%} [{c.ci_low:.1%}, {c.ci_high:.1%}]", f"{c.mean_score:.1f}",
                  f"{c.mean_margin:+.1f}", f"{c.seconds_per_game:.3f}")
        rows.append("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in values) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _game_section(report: GameReport, base: Path) -> str:
    game = get_game(report.game)
    parts = [f'<section id="{escape(game.name)}">',
             f"<h2>{escape(game.title)} <small><code>{escape(game.name)}</code></small></h2>",
             f"<p>Solo games of each agent against one automatic participant per rung of the game's "
             f"ladder. Its automatic participants: {escape(game.automatic_participants)}.</p>",
             "<h3>What was played</h3><ul>"]
    for leg in report.legs:
        parts.append(f"<li>{escape(', '.join(leg.agents))}: {leg.games} game{'s' * (leg.games != 1)} "
                     f"against {escape(_rung_labels(game.name, leg.rungs))}<br>"
                     f"<code>{escape(leg.command)}</code></li>")
    parts.append("</ul>")
    parts += [f'<p class="note">{escape(note)}</p>' for note in report.notes]
    if report.results is None:
        parts.append("<p>No agent of the tour could play this game.</p></section>")
        return "\n".join(parts)
    parts += ["<h3>Win rate by rung</h3>", _win_rate_table(report)]
    plot = next((p for p in report.paths if p.suffix == ".png"), None)
    if plot is not None:
        data = base64.b64encode(plot.read_bytes()).decode("ascii")
        parts.append(f'<figure><img src="data:image/png;base64,{data}" '
                     f'alt="{escape(game.title)}: win rate by rung">'
                     f'<figcaption>Win rate with Wilson 95% intervals '
                     f'(<a href="{escape(_relative(plot, base))}">{escape(plot.name)}</a>)</figcaption>'
                     f"</figure>")
    parts += ["<details><summary>Every cell</summary>", _cell_table(report.results), "</details>"]
    links = ", ".join(f'<a href="{escape(_relative(p, base))}">{escape(_relative(p, base))}</a>'
                      for p in report.paths)
    parts += [f"<p>Files: {links}</p>", "</section>"]
    return "\n".join(parts)


def _agents_section(reports: Sequence[GameReport]) -> str:
    """The registry's line about each agent the tour played (a game's own player with its game's
    line, where another game's player of that name says something else)."""
    lines: dict[tuple[str, str], list[str]] = {}
    for report in reports:
        game = get_game(report.game)
        table = player_table(game)
        for name in dict.fromkeys(a for leg in report.legs for a in leg.agents):
            entry = table.get(name.partition(":")[0].partition("@")[0])
            if entry is not None:
                lines.setdefault((name, entry.description), []).append(game.title)
    named = [name for name, _ in lines]
    items = [f"<li><code>{escape(name)}</code>"
             + (f" ({escape(', '.join(titles))})" if named.count(name) > 1 else "")
             + f": {escape(description)}</li>" for (name, description), titles in lines.items()]
    return "<h2>The agents</h2><ul>" + "".join(items) + "</ul>" if items else ""


def render_report(reports: Sequence[GameReport], command: str, seed: int, workers: int,
                  seconds: float, base: Path) -> str:
    """The report's HTML; ``base`` is the folder it is written to (its links are relative to it)."""
    played_on = next((run.get("played_on") for r in reports if r.results is not None
                      for run in r.results.settings.get("runs", [r.results.settings])), None)
    meta = [("command", f"<code>{escape(command)}</code>"),
            ("package", f"tiny-york-env {escape(__version__)}"),
            ("seed", str(seed)), ("workers", str(workers)),
            ("wall time", f"{seconds:.0f} s")]
    if played_on:
        meta.append(("played on (UTC)", escape(str(played_on))))
    titles = [(get_game(r.game).name, get_game(r.game).title) for r in reports]
    nav = " · ".join(f'<a href="#{escape(name)}">{escape(title)}</a>' for name, title in titles)
    body = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tiny-york-env {escape(__version__)}: the demo tour</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>The demo tour: each game's agents against its automatic participants</h1>",
        f"<p>{escape(', '.join(title for _, title in titles))}: every agent plays solo games against "
        "one automatic participant at a time, each rung of the game's ladder in turn (the evaluation "
        "harness's ladder, <code>tiny-york eval</code>). A win rate's interval is the Wilson 95% "
        "interval; few games give wide intervals.</p>",
        '<table class="meta">' + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in meta)
        + "</table>",
        f"<nav>{nav}</nav>",
        *(_game_section(r, base) for r in reports),
        _agents_section(reports),
        "</body></html>", ""]
    return "\n".join(body)


def write_report(path: str | os.PathLike[str], reports: Sequence[GameReport], command: str, seed: int,
                 workers: int, seconds: float) -> Path:
    """Write the report to ``path`` (a symbolic link there is refused); returns ``path``."""
    path = Path(path)
    write_output_text(path, render_report(reports, command, seed, workers, seconds, path.parent))
    return path
