"""Saved games as text: a small, versioned, human-readable file of one game of any registered game.

A saved game is JSON lines (``.jsonl``), one object per line:

1. the header: ``{"format": "tiny-york-game", "format_version": 1, "game": "tiny_york",
   "game_version": "...", "config": {...}, "seed": 11, "players": ["you", "Tom 5 (B4)"]}``:
   the game's registry name and engine version, its config as keywords of ``Game.make_config``,
   the game seed and a name per participant seat;
2. one line per decision made from outside, in order: ``{"seat": 0, "action": 17, "text": "..."}``
   (``text`` is ``describe_action``'s, for people; the engine's own participants, such as Toms
   and bots, decide inside the engine and are replayed from the seed);
3. optionally, when the game ended: ``{"end": true, "scores": [...], "winners": [...]}``.

Reading a file checks everything: the header (format, version, a registered game of the same
engine version, a valid config and seed), then each decision is replayed: it must be the seat to
move and a legal action, and the end line must match the replayed result. The first problem is a
``ValueError`` naming the file, its line number and what was expected there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .contract import Game
from .core.seeds import check_seed
from .registry import game_names, get_game

FORMAT = "tiny-york-game"
FORMAT_VERSION = 1
SUFFIX = ".jsonl"
HEADER_KEYS = ("format", "format_version", "game", "game_version", "config", "seed", "players")
MAX_LINE_CHARS = 100_000  # a line of this format is short; a longer one is not one of ours
MAX_DECISIONS = 100_000  # far above any real game of the project's games


@dataclass
class SavedGame:
    """One game: what was played (``game``, ``config`` keywords, ``seed``, ``players``) and the
    decisions made from outside as (seat, action) pairs; ``result`` once it ended."""

    game: str
    config: dict[str, Any]
    seed: int
    players: list[str]
    decisions: list[tuple[int, int]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def header(self) -> dict[str, Any]:
        """The header line's object."""
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "game": self.game,
                "game_version": get_game(self.game).version, "config": self.config,
                "seed": self.seed, "players": list(self.players)}

    def lines(self) -> list[str]:
        """The file's lines (without newlines)."""
        describe = get_game(self.game).describe_action
        out = [json.dumps(self.header())]
        out += [json.dumps({"seat": seat, "action": action, "text": describe(action)})
                for seat, action in self.decisions]
        if self.result is not None:
            out.append(json.dumps({"end": True, **self.result}))
        return out


def config_keywords(config: Any) -> dict[str, Any]:
    """A game config (a dataclass) as JSON-ready keywords of its game's ``make_config``."""
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in asdict(config).items()}


def final_result(game: Game, state: np.ndarray) -> dict[str, Any]:
    """The end line's content of a finished game: scores per seat and the winning seats."""
    return {"scores": [int(s) for s in game.final_scores(state)],
            "winners": [int(s) for s in game.winners(state)]}


class GameRecorder:
    """Records a game as it is played: ``record(seat, action)`` after each outside decision,
    ``finish(state)`` at the end, ``write(path)`` at any time (a game in progress has no end line)."""

    def __init__(self, game: str | Game, config: Any, seed: int, players: Sequence[str]) -> None:
        self.game = get_game(game)
        self.saved = SavedGame(self.game.name, config_keywords(config), int(seed), list(players))

    def record(self, seat: int, action: int) -> None:
        """One decision of ``seat``, already applied."""
        self.saved.decisions.append((int(seat), int(action)))

    def finish(self, state: np.ndarray) -> None:
        """Note the result of the finished game ``state``."""
        self.saved.result = final_result(self.game, state)

    def write(self, path: str | os.PathLike[str]) -> Path:
        """Write the saved game to ``path`` (a symbolic link there is refused); returns the path."""
        return write_saved_game(self.saved, path)


def write_saved_game(saved: SavedGame, path: str | os.PathLike[str]) -> Path:
    """Write ``saved`` as JSON lines at ``path``; a symbolic link there is refused (ValueError)."""
    path = Path(path)
    if path.is_symlink():
        raise ValueError(f"refusing to write the saved game through the symbolic link {str(path)!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(saved.lines()) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- reading and replaying

class SavedGameError(ValueError):
    """A saved game that cannot be read or replayed (names the file and line)."""


def _fail(source: str, line: int, message: str) -> None:
    raise SavedGameError(f"{source} line {line}: {message}")


def _parse_line(text: str, source: str, number: int) -> dict[str, Any]:
    if len(text) > MAX_LINE_CHARS:
        _fail(source, number, f"a line of {len(text)} characters is not part of a saved game")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        _fail(source, number, f"not JSON ({error.msg} at column {error.colno})")
    except (ValueError, RecursionError) as error:  # a huge integer, nesting too deep
        _fail(source, number, f"not a saved game's JSON ({str(error)[:100]})")
    if not isinstance(value, dict):
        _fail(source, number, f"expected a JSON object, got {type(value).__name__}")
    return value


def _check_header(header: dict[str, Any], source: str) -> tuple[Game, Any]:
    if header.get("format") != FORMAT:
        _fail(source, 1, f"not a saved game: the header's format is {header.get('format')!r}, "
                         f"expected {FORMAT!r}")
    if header.get("format_version") != FORMAT_VERSION:
        _fail(source, 1, f"saved-game format version {header.get('format_version')!r}; this "
                         f"version reads {FORMAT_VERSION}")
    missing = [key for key in HEADER_KEYS if key not in header]
    if missing:
        _fail(source, 1, f"the header lacks {missing}")
    if header["game"] not in game_names():
        _fail(source, 1, f"unknown game {header['game']!r}; the games are {game_names()}")
    game = get_game(header["game"])
    if header["game_version"] != game.version:
        _fail(source, 1, f"the game was saved by {game.title} engine version "
                         f"{header['game_version']!r}, this is version {game.version!r}: the same "
                         f"seed may play differently, so it cannot be replayed")
    if not isinstance(header["config"], dict):
        _fail(source, 1, "config must be an object of the game's setup keywords")
    try:
        config = game.make_config(**header["config"])
        check_seed(header["seed"])
    except (TypeError, ValueError) as error:
        _fail(source, 1, f"bad setup: {error}")
    players = header["players"]
    if not isinstance(players, list) or len(players) != game.num_participants(config) \
            or not all(isinstance(p, str) for p in players):
        _fail(source, 1, f"players must be {game.num_participants(config)} names, one per seat")
    return game, config


def _check_decision(entry: dict[str, Any], source: str, number: int) -> tuple[int, int]:
    seat, action = entry.get("seat"), entry.get("action")
    for key, value in (("seat", seat), ("action", action)):
        if isinstance(value, bool) or not isinstance(value, int):
            _fail(source, number, f"a decision line needs an int {key!r}, got {value!r}")
    return seat, action


def read_saved_game(path: str | os.PathLike[str]) -> SavedGame:
    """The saved game at ``path``, checked and replayed to the end of the file (module doc);
    SavedGameError (a ValueError) naming the first bad line otherwise."""
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise SavedGameError(f"{source}: cannot read a saved game: {error}") from error
    return parse_saved_game(decode_saved_game(data, source), source)


def decode_saved_game(data: bytes, source: str = "the saved game") -> str:
    """The text of a saved game's bytes; SavedGameError naming the first bad line otherwise: a
    line that is not UTF-8 (a saved game is UTF-8 text), with its column and byte, unless a line
    before it is already wrong."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        if line_start:
            parse_saved_game(data[:line_start].decode("utf-8"), source)  # an earlier bad line first
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - line_start + 1
        _fail(source, line, f"cannot read a saved game: not UTF-8 text (byte 0x{data[error.start]:02x} "
                            f"at column {column}); a saved game is UTF-8 JSON lines")


def parse_saved_game(text: str, source: str = "the saved game") -> SavedGame:
    """A saved game from its text (an upload, say), checked as ``read_saved_game`` checks a file;
    ``source`` names it in errors."""
    lines = text.splitlines()
    if not lines:
        raise SavedGameError(f"{source} line 1: the file is empty, expected a saved game's header")
    header = _parse_line(lines[0], source, 1)
    game, config = _check_header(header, source)
    saved = SavedGame(game.name, header["config"], header["seed"], header["players"])
    state = game.new_game(config, header["seed"])
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        entry = _parse_line(line, source, number)
        if saved.result is not None:
            _fail(source, number, "a line after the end line")
        if entry.get("end") is True:
            if not game.is_terminal(state):
                _fail(source, number, "the end line comes before the game is over")
            result = final_result(game, state)
            recorded = {key: entry.get(key) for key in result}
            if recorded != result:
                _fail(source, number, f"the end line says {recorded}, the replayed game ended {result}")
            saved.result = result
            continue
        seat, action = _check_decision(entry, source, number)
        _apply(game, state, seat, action, source, number)
        saved.decisions.append((seat, action))
        if len(saved.decisions) > MAX_DECISIONS:
            _fail(source, number, f"more than {MAX_DECISIONS} decisions")
    return saved


def _apply(game: Game, state: np.ndarray, seat: int, action: int, source: str, number: int) -> None:
    if game.is_terminal(state):
        _fail(source, number, "a decision after the end of the game")
    mover = game.current_player(state)
    if seat != mover:
        _fail(source, number, f"seat {seat} decides here, but it is seat {mover}'s turn")
    if not 0 <= action < game.num_actions or not game.legal_mask(state)[action]:
        legal = np.flatnonzero(game.legal_mask(state)).tolist()
        _fail(source, number, f"action {action} is not legal here; legal: {legal}")
    game.apply_action(state, action)


def replay_states(saved: SavedGame) -> Iterator[np.ndarray]:
    """The game's state before the first decision and after each one (copies), in order."""
    game = get_game(saved.game)
    state = game.new_game(game.make_config(**saved.config), saved.seed)
    yield state.copy()
    for seat, action in saved.decisions:
        _apply(game, state, seat, action, "the saved game", 0)
        yield state.copy()
