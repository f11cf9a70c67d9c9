"""Deprecated (removed in 0.4): the evaluation harness is the arena layer, ``tiny_york_env.arena``
(``arena.ladder.evaluate_ladder``, ``arena.match.evaluate_vs_agents``, ``arena.tables.format_table``,
``arena.result_files.write_results``, ...). The names of 0.2 are kept here on top of it."""

from __future__ import annotations

import warnings
from typing import Any

from tiny_york_env.agents.registry import AgentSpec, check_player, make_player
from tiny_york_env.agents.seats import seat_decider
from tiny_york_env.arena.intervals import Z_95, wilson_interval
from tiny_york_env.arena.jobs import DEFAULT_GAMES, AutomaticSpec, GameJob, rotation_jobs
from tiny_york_env.arena.labels import agent_label, unique_labels
from tiny_york_env.arena.ladder import check_levels, check_rungs, evaluate_ladder, evaluate_vs_toms, tom_label
from tiny_york_env.arena.match import evaluate_vs_agents, match_automatic
from tiny_york_env.arena.output import open_output, output_dir, refuse_symlink, write_output_text
from tiny_york_env.arena.play import SAVE_WHICH, GameSaving, play_game, play_job, save_played_game
from tiny_york_env.arena.provenance import RUN_PROVENANCE_KEYS, machine_description, run_provenance
from tiny_york_env.arena.records import (
    CellResult,
    EvalResults,
    GameRecord,
    cell_result,
    combine_results,
    seat_outcome,
)
from tiny_york_env.arena.result_files import plot_ladder, write_csv, write_json, write_results
from tiny_york_env.arena.runner import pool_context, positive_int, run_jobs, warm_up
from tiny_york_env.arena.seeds import (
    KIND_LADDER,
    KIND_MATCH,
    KIND_TOURNAMENT,
    SEED_BITS,
    STREAM_AGENT,
    STREAM_CHOICE,
    STREAM_GAME,
    automatic_key,
    check_seed,
    derive_seed,
    ladder_seed_keys,
)
from tiny_york_env.arena.tables import TABLE_COLUMNS, format_rows, format_table
from tiny_york_env.contract import Game
from tiny_york_env.registry import DEFAULT_GAME

__all__ = ["DEFAULT_GAMES", "KIND_LADDER", "KIND_MATCH", "KIND_TOURNAMENT", "RUN_PROVENANCE_KEYS",
           "SAVE_WHICH",
           "SEED_BITS", "STREAM_AGENT", "STREAM_CHOICE", "STREAM_GAME", "TABLE_COLUMNS", "Z_95", "AgentSpec",
           "AutomaticSpec", "CellResult", "EvalResults", "GameJob", "GameRecord", "GameSaving", "TomSpec",
           "agent_label", "automatic_key", "build_agent", "cell_result", "check_agent_spec", "check_levels",
           "check_rungs", "check_seed", "combine_results", "derive_seed", "evaluate_ladder",
           "evaluate_vs_agents", "evaluate_vs_toms", "format_rows", "format_table", "ladder_seed_keys",
           "machine_description", "match_automatic", "open_output", "output_dir", "play_game", "play_job",
           "plot_ladder", "pool_context", "positive_int", "refuse_symlink", "rotation_jobs", "run_jobs",
           "run_provenance", "save_played_game", "seat_decider", "seat_outcome", "tom_label",
           "unique_labels", "warm_up", "wilson_interval", "write_csv", "write_json", "write_output_text",
           "write_results"]
warnings.warn("tiny_york_env.training.evaluate is deprecated: import from tiny_york_env.arena (removed in "
              "tiny_york_env 0.4)", DeprecationWarning, stacklevel=2)

TomSpec = int | str  # a Tom level 1-12 or a code like 'B4'


def check_agent_spec(spec: AgentSpec, game: str | Game = DEFAULT_GAME, config: Any = None) -> AgentSpec:
    """``agents.registry.check_player`` with 0.2's argument order."""
    return check_player(game, spec, config)


def build_agent(spec: AgentSpec, seed: int) -> Any:
    """A fresh Tiny York player (``agents.registry.make_player``)."""
    return make_player(DEFAULT_GAME, spec, seed)

