"""Join a Tom ladder played in parts into one ladder, as if it had been played in one run.

    tiny-york eval --agent champion --levels 10 --games 500 --seed 1 --out part-1
    tiny-york eval --agent champion --levels 10 --games 500 --seed 1 --first-game 500 --out part-2
    tiny-york eval --merge part-1/ladder.json part-2/ladder.json --out joined

Game k at Tom level L is seeded from (seed, L, k) alone (``training.evaluate``), so parts played
with the same agent and seed and disjoint game numbers (``--first-game``) are pieces of one
sequence: the joined cells equal those of a single run over all the games (the seconds aside).
Every record's game seed is checked against that derivation, a game found in two parts is refused,
and a results file is data from outside: anything malformed is a ValueError naming the file and
what is wrong, never a crash or a silently wrong table.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from tiny_york_env.options import check_int
from tiny_york_env.training.evaluate import (
    RUN_PROVENANCE_KEYS,
    STREAM_GAME,
    EvalResults,
    GameRecord,
    cell_result,
    check_levels,
    derive_seed,
    ladder_seed_keys,
    tom_label,
)

MAX_RESULTS_BYTES = 256 * 2 ** 20  # a 1,000-game ladder at all 12 levels is about 4 MB
RECORD_FIELDS = tuple(f.name for f in fields(GameRecord))
SOLO_SEATING = (0,)  # the ladder's agent is player 0 in seat 0, Tom after it
SOLO_PARTICIPANTS = 2
PROVENANCE_KEYS = ("command", *RUN_PROVENANCE_KEYS)  # settings that say how a part was played


def _record(raw: Any, where: str, levels: Sequence[int], seed: int) -> tuple[int, GameRecord]:
    """(Tom level, GameRecord) of one game of a ladder file, every field checked."""
    if not isinstance(raw, dict) or set(raw) != set(RECORD_FIELDS):
        keys = sorted(raw) if isinstance(raw, dict) else type(raw).__name__
        raise ValueError(f"{where} must be an object with the fields {', '.join(RECORD_FIELDS)}; got {keys}")
    cell = check_int(f"{where}.cell", raw["cell"], 0)
    if cell >= len(levels):
        raise ValueError(f"{where}.cell must index the file's levels (0-{len(levels) - 1}), got {cell}")
    index = check_int(f"{where}.index", raw["index"], 0)
    level = levels[cell]
    expected_seed = derive_seed(*ladder_seed_keys(seed, level), STREAM_GAME, index)
    if raw["game_seed"] != expected_seed:
        raise ValueError(f"{where}.game_seed is not the seed of game {index} at Tom {level} with seed "
                         f"{seed} ({expected_seed}), got {raw['game_seed']!r}: the record was not "
                         f"played by this ladder")
    seating, scores = raw["seating"], raw["scores"]
    if seating != list(SOLO_SEATING):
        raise ValueError(f"{where}.seating must be {list(SOLO_SEATING)} (a solo ladder game), "
                         f"got {seating!r}")
    if not isinstance(scores, list) or len(scores) != SOLO_PARTICIPANTS:
        raise ValueError(f"{where}.scores must be a list of {SOLO_PARTICIPANTS} ints (agent, Tom), "
                         f"got {scores!r}")
    if any(isinstance(s, bool) or not isinstance(s, int) for s in scores):
        raise ValueError(f"{where}.scores must be an int each, got {scores!r}")
    scores = tuple(scores)
    winner = check_int(f"{where}.winner", raw["winner"], 0)
    if winner >= SOLO_PARTICIPANTS:
        raise ValueError(f"{where}.winner must be 0 (the agent) or 1 (Tom), got {winner}")
    seconds = raw["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
            or seconds < 0:
        raise ValueError(f"{where}.seconds must be a non-negative number, got {seconds!r}")
    return level, GameRecord(cell, index, expected_seed, SOLO_SEATING, scores, winner,
                             check_int(f"{where}.decisions", raw["decisions"], 0), float(seconds))


def parse_ladder(data: Any, source: str) -> EvalResults:
    """A ladder's EvalResults from the parsed JSON of ``write_results`` (``source`` names it in
    errors); every field is checked and the cells are computed again from the game records."""
    if not isinstance(data, dict) or data.get("kind") != "ladder":
        raise ValueError(f"{source}: not a ladder results file (ladder.json of tiny-york eval --agent)")
    settings = data.get("settings")
    if not isinstance(settings, dict) or "runs" in settings:
        raise ValueError(f"{source}: settings must name one agent; a file of several --agent runs cannot "
                         f"be merged (run one --agent per file)")
    agent = settings.get("agent")
    if not isinstance(agent, str) or not agent:
        raise ValueError(f"{source}: settings.agent must be the agent's name, got {agent!r}")
    seed = check_int(f"{source}: settings.seed", settings.get("seed"), 0)
    levels = settings.get("levels")
    if not isinstance(levels, list):
        raise ValueError(f"{source}: settings.levels must be the list of the file's Tom levels, "
                         f"got {levels!r}")
    try:
        levels = check_levels(levels)
    except ValueError as error:
        raise ValueError(f"{source}: settings.levels: {error}") from None
    if len(set(levels)) != len(levels):
        raise ValueError(f"{source}: settings.levels lists a level twice: {levels}")
    games = data.get("games")
    if not isinstance(games, list):
        raise ValueError(f"{source}: games must be the list of game records")
    by_level: dict[int, list[GameRecord]] = {level: [] for level in levels}
    for k, raw in enumerate(games):
        level, record = _record(raw, f"{source}: games[{k}]", levels, seed)
        by_level[level].append(record)
    return _ladder_results(agent, seed, by_level, {"agent": agent, "seed": seed, "source": source,
                                                   "merged_from": _merged_from(settings, source)})


def _merged_from(settings: dict[str, Any], source: str) -> list[str]:
    """Where a joined file's games came from (its ``settings.merged_from``), so that joining it
    again keeps them; for a part played in one run, ``[_provenance(...)]``."""
    merged_from = settings.get("merged_from")
    if merged_from is None:
        return [_provenance(settings, source)]
    if not isinstance(merged_from, list) or not merged_from or \
            not all(isinstance(entry, str) for entry in merged_from):
        raise ValueError(f"{source}: settings.merged_from must be the non-empty list of the joined parts' "
                         f"names (strings), got {merged_from!r}")
    return merged_from


def _provenance(settings: dict[str, Any], source: str) -> str:
    """A part played in one run, as ``merged_from`` names it: the command that played it (``tiny-york
    eval`` records it) or else ``source``, then its date and package version where recorded."""
    recorded = {}
    for key in PROVENANCE_KEYS:
        value = settings.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ValueError(f"{source}: settings.{key} must be a non-empty string where given, "
                             f"got {value!r}")
        recorded[key] = value
    played_on, version = recorded["played_on"], recorded["version"]
    when = [text for text in (played_on, version and f"tiny-york-env {version}") if text]
    name = recorded["command"] or source
    return f"{name} ({', '.join(when)})" if when else name


def read_ladder(path: str | os.PathLike[str]) -> EvalResults:
    """The checked ladder of a ``ladder.json`` that ``tiny-york eval --agent`` wrote."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such results file (the ladder.json of tiny-york eval --agent)")
    if path.stat().st_size > MAX_RESULTS_BYTES:
        raise ValueError(f"{path}: {path.stat().st_size} bytes, more than a ladder file's "
                         f"{MAX_RESULTS_BYTES} at most")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"{path}: not a JSON results file ({type(error).__name__}: {error})") from None
    return parse_ladder(data, str(path))


def _ladder_results(agent: str, seed: int, by_level: dict[int, list[GameRecord]],
                    settings: dict[str, Any]) -> EvalResults:
    """EvalResults with one cell per level (ascending) holding ``by_level``'s games in order."""
    levels = sorted(level for level, records in by_level.items() if records)
    if not levels:
        raise ValueError(f"{settings.get('source', 'the ladder')}: no game to merge")
    records, cells = [], []
    for cell, level in enumerate(levels):
        ordered = [replace(r, cell=cell) for r in sorted(by_level[level], key=lambda r: r.index)]
        records += ordered
        cells.append(cell_result(ordered, 0, agent, tom_label(level), level))
    games = {str(level): len(by_level[level]) for level in levels}
    return EvalResults("ladder", cells, records, {**settings, "levels": levels, "games": games})


def merge_ladders(parts: Iterable[EvalResults]) -> EvalResults:
    """One ladder from ladder parts of one agent and one seed (``evaluate_vs_toms`` results or
    ``read_ladder``'s): their games pooled per level; a game number found twice is refused."""
    parts = list(parts)
    if not parts:
        raise ValueError("merge_ladders needs at least one ladder")
    checked = [_checked_part(part) for part in parts]
    agents = {part.settings["agent"] for part in checked}
    seeds = {part.settings["seed"] for part in checked}
    if len(agents) != 1 or len(seeds) != 1:
        raise ValueError(f"ladder parts must be of one agent and one seed to be one sequence of games; "
                         f"got agents {sorted(agents)} and seeds {sorted(seeds)}")
    by_level: dict[int, dict[int, GameRecord]] = {}
    for part in checked:
        for record in part.records:
            level = part.cells[record.cell].level
            games = by_level.setdefault(level, {})
            if record.index in games:
                raise ValueError(f"game {record.index} at Tom {level} is in two parts "
                                 f"({part.settings['source']} and another): the parts "
                                 f"must not overlap (--first-game)")
            games[record.index] = record
    agent, seed = agents.pop(), seeds.pop()
    sources = [name for part in checked for name in part.settings["merged_from"]]
    return _ladder_results(agent, seed, {level: list(games.values()) for level, games in by_level.items()},
                           {"agent": agent, "seed": seed, "merged_from": sources})


def _checked_part(part: EvalResults) -> EvalResults:
    """A ladder part checked as a file would be (through its JSON form)."""
    source = part.settings.get("source") or f"the ladder of {part.settings.get('agent')!r}"
    return parse_ladder(json.loads(json.dumps(part.to_dict())), source)


def merge_ladder_files(paths: Sequence[str | os.PathLike[str]]) -> EvalResults:
    """``merge_ladders`` of the ``ladder.json`` files ``paths``."""
    return merge_ladders(read_ladder(path) for path in paths)
