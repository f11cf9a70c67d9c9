"""One finished expert-iteration game on disk, so that an interrupted generation goes on where it stopped.

``training.expert_iteration`` writes every game of a generation, as it ends, to
``gen-K/games/game-NNNNNN.npz`` (plain arrays, no pickles: each agent seat's observations, legal
masks and chosen actions, the seats' final rewards, the solo result and the search's counts).
``--resume`` reads them back instead of playing those games again; every game is seeded by its
index, so the generation's records are the same as if it had never stopped. A file is checked
before it is used (its arrays, shapes, types, the legality of every action, and that it is the
game of this index and generation in this setup); one that fails is refused with its path, and
deleting it plays that game again.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tiny_york_env.arena.output import open_output, output_dir
from tiny_york_env.contract import Game
from tiny_york_env.registry import DEFAULT_GAME, get_game
from tiny_york_env.training.imitate import DemonstrationLog, check_array_shapes, check_legal_actions

GAMES_DIR = "games"
SOLO_RESULT = {None: -1, False: 0, True: 1}  # how a game's solo_win is stored (-1: self-play)
RECORD_ARRAYS = ("generation", "index", "observations", "masks", "actions", "seat_decisions", "rewards",
                 "solo_win", "searched", "changed")


@dataclass
class SearchGame:
    """One finished game of the search: each agent seat's decisions (ended), the seats' final
    rewards, whether seat 0 won (None in self-play) and how many decisions were searched and
    how many of those the search decided otherwise than the prior's first choice."""

    seats: list[DemonstrationLog]
    rewards: list[float]
    solo_win: bool | None
    searched: int
    changed: int


def game_file(games_dir: str | os.PathLike[str], index: int) -> Path:
    """Where game ``index`` of a generation is kept under its ``games_dir``."""
    return Path(games_dir) / f"game-{index:06d}.npz"


def save_search_game(games_dir: str | os.PathLike[str], generation: int, index: int,
                     game: SearchGame, played: str | Game = DEFAULT_GAME) -> Path:
    """Write ``game`` (game ``index`` of ``generation``, a game of ``played``) under ``games_dir``,
    whole or not at all (a temporary file renamed into place); its path."""
    played = get_game(played)
    directory = output_dir(games_dir)
    seats = game.seats
    observations = [row for log in seats for row in log.observations]
    arrays = {
        "generation": np.int64(generation), "index": np.int64(index),
        "observations": np.asarray(observations, np.float32).reshape(-1, played.obs_size),
        "masks": np.asarray([row for log in seats for row in log.masks], np.bool_).reshape(
            -1, played.num_actions),
        "actions": np.asarray([action for log in seats for action in log.actions], np.int64),
        "seat_decisions": np.asarray([len(log.actions) for log in seats], np.int64),
        "rewards": np.asarray(game.rewards, np.float64),
        "solo_win": np.int8(SOLO_RESULT[game.solo_win]),
        "searched": np.int64(game.searched), "changed": np.int64(game.changed)}
    path = game_file(directory, index)
    partial = path.with_name(path.name + ".partial")
    with open_output(partial, "wb") as handle:
        np.savez_compressed(handle, **arrays)
    os.replace(partial, path)  # a rename: a link at path is replaced, not followed
    return path


def _checked_arrays(data, generation: int, index: int, config: Any, game: Game) -> dict[str, np.ndarray]:
    """The record's arrays if they are game ``index`` of ``generation`` in the setup ``config`` of
    ``game``; ValueError saying what is wrong."""
    if sorted(data.files) != sorted(RECORD_ARRAYS):
        raise ValueError(f"arrays {sorted(data.files)}, expected {sorted(RECORD_ARRAYS)}")
    arrays = {name: data[name] for name in RECORD_ARRAYS}
    scalars = ("generation", "index", "solo_win", "searched", "changed")
    for name in scalars:
        if arrays[name].shape != () or arrays[name].dtype.kind != "i":
            raise ValueError(f"{name} must be one integer, got {arrays[name].dtype} {arrays[name].shape}")
    if (int(arrays["generation"]), int(arrays["index"])) != (generation, index):
        raise ValueError(f"it is game {int(arrays['index'])} of generation {int(arrays['generation'])}, "
                         f"expected game {index} of generation {generation}")
    observations, masks, actions = arrays["observations"], arrays["masks"], arrays["actions"]
    decisions = actions.shape[0] if actions.ndim == 1 else -1  # -1: refused below
    expected = {"observations": (np.float32, (decisions, game.obs_size)),
                "masks": (np.bool_, (decisions, game.num_actions)), "actions": (np.int64, (decisions,)),
                "seat_decisions": (np.int64, (game.num_agents(config),)),
                "rewards": (np.float64, (game.num_participants(config),))}
    check_array_shapes(arrays, expected)
    if not (np.isfinite(observations).all() and np.isfinite(arrays["rewards"]).all()):
        raise ValueError("observations and rewards must be finite")
    check_legal_actions(masks, actions)
    seat_decisions = arrays["seat_decisions"]
    if (seat_decisions < 1).any() or seat_decisions.sum() != decisions:
        raise ValueError(f"seat_decisions {seat_decisions.tolist()} must be positive and add up to the "
                         f"{decisions} decisions")
    solo_win, searched, changed = (int(arrays[name]) for name in ("solo_win", "searched", "changed"))
    solo = bool(game.automatic_of(config))
    if solo_win not in SOLO_RESULT.values() or (solo_win == SOLO_RESULT[None]) == solo:
        raise ValueError(f"solo_win {solo_win}: 0 or 1 in a game against {game.automatic_kind}, -1 in "
                         f"self-play")
    if not 0 <= changed <= searched <= decisions:
        raise ValueError(f"searched {searched} and changed {changed} must satisfy 0 <= changed <= "
                         f"searched <= {decisions} decisions")
    return arrays


def load_search_game(games_dir: str | os.PathLike[str], generation: int, index: int, config: Any,
                     gamma: float, game: str | Game = DEFAULT_GAME) -> SearchGame:
    """Game ``index`` of ``generation`` as ``save_search_game`` wrote it (its setup ``config`` of
    ``game``, returns discounted by ``gamma``); ValueError naming the file if it is not that game."""
    game = get_game(game)
    path = game_file(games_dir, index)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = _checked_arrays(data, generation, index, config, game)
    except (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path} is not a usable record of game {index} of generation {generation}: "
                         f"{error}; delete it to play that game again") from error
    seats, first = [], 0
    for seat, decisions in enumerate(arrays["seat_decisions"].tolist()):
        log = DemonstrationLog(gamma)
        for row in range(first, first + decisions):
            log.decide(arrays["observations"][row], arrays["masks"][row], int(arrays["actions"][row]))
        log.end_game(index, float(arrays["rewards"][seat]))
        seats.append(log)
        first += decisions
    solo_win = {stored: result for result, stored in SOLO_RESULT.items()}[int(arrays["solo_win"])]
    return SearchGame(seats, arrays["rewards"].tolist(), solo_win, int(arrays["searched"]),
                      int(arrays["changed"]))
