"""Join a ladder played in parts into one ladder, as if it had been played in one run.

    tiny-york eval --agent champion --levels 10 --games 500 --seed 1 --out part-1
    tiny-york eval --agent champion --levels 10 --games 500 --seed 1 --first-game 500 --out part-2
    tiny-york eval --merge part-1/ladder.json part-2/ladder.json --out joined

The same holds for every game's ladder (``--game construction_yard --agent ppo --levels greedy``).
Game k at rung L (a Tom level, a bot) is seeded from (seed, L, k) alone (``seeds``), so
parts played with the same agent and seed and disjoint game numbers (``--first-game``) are pieces of one
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

from ..contract import Game
from ..core.options import check_int
from ..registry import DEFAULT_GAME, game_names, get_game
from .ladder import check_rungs
from .provenance import RUN_PROVENANCE_KEYS
from .records import EvalResults, GameRecord, cell_result
from .seeds import STREAM_GAME, derive_seed, ladder_seed_keys

MAX_RESULTS_BYTES = 256 * 2 ** 20  # a 1,000-game ladder at all 12 levels is about 4 MB
# the fields every game record has; files written before ``winners`` and ``places`` were kept lack those
OPTIONAL_FIELDS = ("winners", "places")
RECORD_FIELDS = tuple(f.name for f in fields(GameRecord))
REQUIRED_FIELDS = tuple(name for name in RECORD_FIELDS if name not in OPTIONAL_FIELDS)
SOLO_SEATING = (0,)  # the ladder's agent is player 0 in seat 0, the automatic participant after it
PROVENANCE_KEYS = ("command", *RUN_PROVENANCE_KEYS)  # settings that say how a part was played


def _seats(raw: Any, where: str, participants: int) -> tuple[int, ...]:
    """The ``winners`` of a record: distinct seats below ``participants``, at least one."""
    if not isinstance(raw, list) or not raw or len(set(map(repr, raw))) != len(raw) or any(
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < participants
            for seat in raw):
        raise ValueError(f"{where} must be a non-empty list of distinct seats 0-{participants - 1}, "
                         f"got {raw!r}")
    return tuple(raw)


def _places(raw: Any, where: str, participants: int) -> tuple[float, ...]:
    """The ``places`` of a record: one number 0..participants-1 per seat."""
    if not isinstance(raw, list) or len(raw) != participants or any(
            isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= participants - 1
            for p in raw):
        raise ValueError(f"{where} must be a list of {participants} places (0 = first), got {raw!r}")
    return tuple(float(p) for p in raw)


def _record(raw: Any, where: str, game: Game, levels: Sequence[Any], seed: int) -> tuple[Any, GameRecord]:
    """(rung, GameRecord) of one game of a ladder file, every field checked."""
    if not isinstance(raw, dict) or not set(REQUIRED_FIELDS) <= set(raw) <= set(RECORD_FIELDS):
        keys = sorted(raw) if isinstance(raw, dict) else type(raw).__name__
        raise ValueError(f"{where} must be an object with the fields {', '.join(REQUIRED_FIELDS)} (and "
                         f"{' and '.join(OPTIONAL_FIELDS)} where recorded); got {keys}")
    cell = check_int(f"{where}.cell", raw["cell"], 0)
    if cell >= len(levels):
        raise ValueError(f"{where}.cell must index the file's levels (0-{len(levels) - 1}), got {cell}")
    index = check_int(f"{where}.index", raw["index"], 0)
    level = levels[cell]
    participants = game.num_participants(game.seat_config(len(SOLO_SEATING), (level,)))
    expected_seed = derive_seed(*ladder_seed_keys(seed, level), STREAM_GAME, index)
    if raw["game_seed"] != expected_seed:
        raise ValueError(f"{where}.game_seed is not the seed of game {index} against "
                         f"{game.automatic_label(level)} with seed "
                         f"{seed} ({expected_seed}), got {raw['game_seed']!r}: the record was not "
                         f"played by this ladder")
    seating, scores = raw["seating"], raw["scores"]
    if seating != list(SOLO_SEATING):
        raise ValueError(f"{where}.seating must be {list(SOLO_SEATING)} (a solo ladder game), "
                         f"got {seating!r}")
    if not isinstance(scores, list) or len(scores) != participants:
        raise ValueError(f"{where}.scores must be a list of {participants} ints (the agent's, then the "
                         f"automatic participants'), got {scores!r}")
    if any(isinstance(s, bool) or not isinstance(s, int) for s in scores):
        raise ValueError(f"{where}.scores must be an int each, got {scores!r}")
    scores = tuple(scores)
    winner = check_int(f"{where}.winner", raw["winner"], 0)
    if winner >= participants:
        raise ValueError(f"{where}.winner must be a seat 0-{participants - 1} (0: the agent), got {winner}")
    winners = _seats(raw["winners"], f"{where}.winners", participants) if "winners" in raw else ()
    if winners and winners[0] != winner:
        raise ValueError(f"{where}.winners must start with the winner ({winner}), got {list(winners)}")
    places = _places(raw["places"], f"{where}.places", participants) if "places" in raw else ()
    seconds = raw["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
            or seconds < 0:
        raise ValueError(f"{where}.seconds must be a non-negative number, got {seconds!r}")
    return level, GameRecord(cell, index, expected_seed, SOLO_SEATING, scores, winner,
                             check_int(f"{where}.decisions", raw["decisions"], 0), float(seconds),
                             winners, places)


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
    name = settings.get("game", DEFAULT_GAME)  # files written before every game had a ladder: Tiny York's
    if name not in game_names():
        raise ValueError(f"{source}: settings.game must be a registered game {game_names()}, got {name!r}")
    game = get_game(name)
    levels = settings.get("levels")
    if not isinstance(levels, list):
        raise ValueError(f"{source}: settings.levels must be the list of the file's rungs "
                         f"({game.automatic_kind}), got {levels!r}")
    try:
        levels = check_rungs(game, levels)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{source}: settings.levels: {error}") from None
    games = data.get("games")
    if not isinstance(games, list):
        raise ValueError(f"{source}: games must be the list of game records")
    by_level: dict[Any, list[GameRecord]] = {level: [] for level in levels}
    for k, raw in enumerate(games):
        level, record = _record(raw, f"{source}: games[{k}]", game, levels, seed)
        by_level[level].append(record)
    return _ladder_results(game, agent, seed, by_level, {"game": game.name, "agent": agent, "seed": seed,
                                                         "source": source,
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


def _ladder_results(game: Game, agent: str, seed: int, by_level: dict[Any, list[GameRecord]],
                    settings: dict[str, Any]) -> EvalResults:
    """EvalResults with one cell per rung (in the game's order of ``automatic_choices``) holding
    ``by_level``'s games in order."""
    order = list(game.automatic_choices)
    levels = sorted((level for level, records in by_level.items() if records), key=order.index)
    if not levels:
        raise ValueError(f"{settings.get('source', 'the ladder')}: no game to merge")
    records, cells = [], []
    for cell, level in enumerate(levels):
        ordered = [replace(r, cell=cell) for r in sorted(by_level[level], key=lambda r: r.index)]
        records += ordered
        cells.append(cell_result(ordered, 0, agent, game.automatic_label(level), level))
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
    names = {part.settings["game"] for part in checked}
    if len(agents) != 1 or len(seeds) != 1 or len(names) != 1:
        raise ValueError(f"ladder parts must be of one game, one agent and one seed to be one sequence "
                         f"of games; got games {sorted(names)}, agents {sorted(agents)} and seeds "
                         f"{sorted(seeds)}")
    game = get_game(next(iter(names)))
    by_level: dict[Any, dict[int, GameRecord]] = {}
    for part in checked:
        for record in part.records:
            level = part.cells[record.cell].level
            games = by_level.setdefault(level, {})
            if record.index in games:
                raise ValueError(f"game {record.index} against {game.automatic_label(level)} is in two "
                                 f"parts "
                                 f"({part.settings['source']} and another): the parts "
                                 f"must not overlap (--first-game)")
            games[record.index] = record
    agent, seed = agents.pop(), seeds.pop()
    sources = [name for part in checked for name in part.settings["merged_from"]]
    return _ladder_results(game, agent, seed,
                           {level: list(games.values()) for level, games in by_level.items()},
                           {"game": game.name, "agent": agent, "seed": seed, "merged_from": sources})


def _checked_part(part: EvalResults) -> EvalResults:
    """A ladder part checked as a file would be (through its JSON form)."""
    source = part.settings.get("source") or f"the ladder of {part.settings.get('agent')!r}"
    return parse_ladder(json.loads(json.dumps(part.to_dict())), source)


def merge_ladder_files(paths: Sequence[str | os.PathLike[str]]) -> EvalResults:
    """``merge_ladders`` of the ``ladder.json`` files ``paths``."""
    return merge_ladders(read_ladder(path) for path in paths)
