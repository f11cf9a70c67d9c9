"""The arena: where players of any game meet, between the players (``tiny_york_env.agents``) and the
learners (``tiny_york_env.training``), used alike by the ``tiny-york`` command, the demo, the web
board and training. It imports no game's internals and never the command line.

Jobs:

- ``ladder.py``: one agent against each automatic participant of a game (``evaluate_ladder``);
  ``ladder_parts.py`` plays a long ladder in resumable parts, ``ladder_merge.py`` joins parts;
- ``match.py``: agents against each other, seats rotated, deals shared (``evaluate_vs_agents``,
  ``evaluate_match`` by setup keywords);
- ``tournament.py``: a round robin with OpenSkill ratings; ``compare.py``: is B stronger than A?
  Paired deals until a sequential test decides;
- ``jobs.py`` (one ``GameJob`` a game), ``seeds.py`` (every seed derived), ``play.py`` (one game,
  saved where asked), ``game_loop.py``, ``runner.py`` (a process pool) and ``ray_tasks.py`` (Ray).

Results: ``records.py`` (``GameRecord``, ``CellResult``, ``EvalResults``), ``intervals.py``
(Wilson), ``sprt.py``; output: ``tables.py``, ``result_files.py`` (CSV, JSON, PNG),
``provenance.py`` and ``output.py`` (no file written through a symbolic link).
"""

from .compare import compare_agents
from .ladder import check_rungs, evaluate_ladder, evaluate_vs_toms, parse_rungs
from .match import evaluate_match, evaluate_vs_agents
from .play import GameSaving
from .records import CellResult, EvalResults, GameRecord, combine_results
from .result_files import write_results
from .tables import format_table
from .tournament import run_tournament

__all__ = ["CellResult", "EvalResults", "GameRecord", "GameSaving", "check_rungs", "combine_results",
           "compare_agents", "evaluate_ladder", "evaluate_match", "evaluate_vs_agents", "evaluate_vs_toms",
           "format_table", "parse_rungs", "run_tournament", "write_results"]
