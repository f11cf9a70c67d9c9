"""One finished expert-iteration game on disk: the generation's record of it, and what lets an
interrupted generation go on where it stopped.

``training.expert_iteration`` writes every game of a generation, as it ends, to
``gen-K/games/game-NNNNNN.npz`` (plain arrays, no pickles): the game's actions in the order they
were played (every agent seat's, each the search's choice), the seats' final rewards, the solo
result and the search's counts, 1-2 kB a game; and, for each searched decision, the search's
prior, playouts and mean results over the legal actions (``training.search_targets``: what the
improved policy targets are made of; a few kB more; records from before them have none). The observations,
legal masks and value targets are not stored: the game is replayed from its seed (each game is
seeded by its generation and index alone), which gives them back exactly. ``--resume`` reads the
files back instead of playing those games again, so the generation's records are the same as if it
had never stopped, on this machine or another. A file is checked before it is used (its arrays,
shapes and types, that it is the game of this index and generation, that every action is legal
where the replay meets it, that the game ends with its last action and that its rewards are the
replay's); one that fails is refused with its path, and deleting it plays that game again.
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
from tiny_york_env.envs.rewards import final_rewards
from tiny_york_env.registry import DEFAULT_GAME, get_game
from tiny_york_env.training.imitate import DEFAULT_REWARD, DemonstrationLog, check_array_shapes
from tiny_york_env.training.search_targets import SEARCH_ARRAYS, SearchStats, pack_searches, unpack_searches

GAMES_DIR = "games"
SOLO_RESULT = {None: -1, False: 0, True: 1}  # how a game's solo_win is stored (-1: self-play)
RECORD_ARRAYS = ("generation", "index", "actions", "rewards", "solo_win", "searched", "changed")
REWARD_TOLERANCE = 1e-9  # the recorded rewards against the replay's (the same float computation)


@dataclass
class SearchGame:
    """One finished game of the search: each agent seat's decisions (ended), the seats' final
    rewards, whether seat 0 won (None in self-play), how many decisions were searched and
    how many of those the search decided otherwise than the prior's first choice, every
    agent seat's actions in the order they were played, and the statistics of each searched
    decision (None: a record from before they were kept). Each seat's log has them as the
    ``details`` of its decisions."""

    seats: list[DemonstrationLog]
    rewards: list[float]
    solo_win: bool | None
    searched: int
    changed: int
    actions: list[int]
    searches: list[SearchStats] | None = None


def game_file(games_dir: str | os.PathLike[str], index: int) -> Path:
    """Where game ``index`` of a generation is kept under its ``games_dir``."""
    return Path(games_dir) / f"game-{index:06d}.npz"


def save_search_game(games_dir: str | os.PathLike[str], generation: int, index: int,
                     game: SearchGame) -> Path:
    """Write ``game`` (game ``index`` of ``generation``) under ``games_dir``, whole or not at all
    (a temporary file renamed into place); its path."""
    directory = output_dir(games_dir)
    arrays = {
        "generation": np.int64(generation), "index": np.int64(index),
        "actions": np.asarray(game.actions, np.int64),
        "rewards": np.asarray(game.rewards, np.float64),
        "solo_win": np.int8(SOLO_RESULT[game.solo_win]),
        "searched": np.int64(game.searched), "changed": np.int64(game.changed),
        **(pack_searches(game.searches) if game.searches is not None else {})}
    path = game_file(directory, index)
    partial = path.with_name(path.name + ".partial")
    with open_output(partial, "wb") as handle:
        np.savez_compressed(handle, **arrays)
    os.replace(partial, path)  # a rename: a link at path is replaced, not followed
    return path


def _checked_arrays(data, generation: int, index: int, config: Any, game: Game) -> dict[str, np.ndarray]:
    """The record's arrays if they can be game ``index`` of ``generation`` in the setup ``config``
    of ``game`` (the replay checks the rest); ValueError saying what is wrong."""
    if sorted(data.files) not in (sorted(RECORD_ARRAYS), sorted(RECORD_ARRAYS + SEARCH_ARRAYS)):
        raise ValueError(f"arrays {sorted(data.files)}, expected {sorted(RECORD_ARRAYS)} (with "
                         f"{list(SEARCH_ARRAYS)} or without)")
    arrays = {name: data[name] for name in data.files}
    scalars = ("generation", "index", "solo_win", "searched", "changed")
    for name in scalars:
        if arrays[name].shape != () or arrays[name].dtype.kind != "i":
            raise ValueError(f"{name} must be one integer, got {arrays[name].dtype} {arrays[name].shape}")
    if (int(arrays["generation"]), int(arrays["index"])) != (generation, index):
        raise ValueError(f"it is game {int(arrays['index'])} of generation {int(arrays['generation'])}, "
                         f"expected game {index} of generation {generation}")
    actions = arrays["actions"]
    decisions = actions.shape[0] if actions.ndim == 1 else -1  # -1: refused below
    check_array_shapes(arrays, {"actions": (np.int64, (decisions,)),
                                "rewards": (np.float64, (game.num_participants(config),))})
    if not np.isfinite(arrays["rewards"]).all():
        raise ValueError("rewards must be finite")
    solo_win, searched, changed = (int(arrays[name]) for name in ("solo_win", "searched", "changed"))
    solo = bool(game.automatic_of(config))
    if solo_win not in SOLO_RESULT.values() or (solo_win == SOLO_RESULT[None]) == solo:
        raise ValueError(f"solo_win {solo_win}: 0 or 1 in a game against {game.automatic_kind}, -1 in "
                         f"self-play")
    if not 0 <= changed <= searched <= decisions:
        raise ValueError(f"searched {searched} and changed {changed} must satisfy 0 <= changed <= "
                         f"searched <= {decisions} decisions")
    if "search_steps" in arrays and arrays["search_steps"].shape != (searched,):
        raise ValueError(f"search_steps must name the {searched} searched decisions, got shape "
                         f"{arrays['search_steps'].shape}")
    return arrays


def replay_decisions(game: Game, config: Any, seed: int, actions: np.ndarray, gamma: float,
                     search_arrays: dict[str, np.ndarray] | None = None
                     ) -> tuple[list[DemonstrationLog], list[float], list[SearchStats] | None]:
    """(each agent seat's decisions, not yet ended; the final rewards; the searches of
    ``search_arrays``, a record's ``SEARCH_ARRAYS``, each the ``detail`` of its decision) of the
    game of ``config`` and ``seed`` replayed with ``actions`` in turn; ValueError where an action
    is not legal, the game ends before the last action or goes on after it, or the searches do
    not fit its decisions."""
    state = game.new_game(config, seed=seed)
    seats = [DemonstrationLog(gamma) for _ in range(game.num_agents(config))]
    places, legal_counts = [], []  # each action's (seat, index in its log); its legal actions
    for step, action in enumerate(actions.tolist()):
        if game.is_terminal(state):
            raise ValueError(f"the game ended after {step} of its {actions.size} actions")
        seat, mask = game.current_player(state), game.legal_mask(state)
        if not (0 <= action < mask.size and mask[action]):
            raise ValueError(f"action {step} ({action}) is not legal where the replay meets it "
                             f"(legal: {np.flatnonzero(mask).tolist()})")
        places.append((seat, len(seats[seat].actions)))
        legal_counts.append(int(mask.sum()))
        seats[seat].decide(game.encode(state, seat), mask, action)
        game.apply_action(state, action)
    if not game.is_terminal(state):
        raise ValueError(f"the game has not ended after its {actions.size} actions")
    searches = None if search_arrays is None else unpack_searches(search_arrays, legal_counts)
    for stats in searches or []:
        seat, place = places[stats.step]
        seats[seat].details[place] = stats
    return seats, [float(r) for r in final_rewards(state, DEFAULT_REWARD, game)], searches


def load_search_game(games_dir: str | os.PathLike[str], generation: int, index: int, config: Any,
                     seed: int, gamma: float, game: str | Game = DEFAULT_GAME) -> SearchGame:
    """Game ``index`` of ``generation`` as ``save_search_game`` wrote it, replayed (its setup
    ``config`` of ``game`` and its ``seed``; returns discounted by ``gamma``); ValueError naming
    the file if it is not that game."""
    game = get_game(game)
    path = game_file(games_dir, index)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = _checked_arrays(data, generation, index, config, game)
        kept = {name: arrays[name] for name in SEARCH_ARRAYS} if "search_steps" in arrays else None
        seats, rewards, searches = replay_decisions(game, config, seed, arrays["actions"], gamma, kept)
        if np.abs(np.asarray(rewards) - arrays["rewards"]).max() > REWARD_TOLERANCE:
            raise ValueError(f"its rewards {arrays['rewards'].tolist()} are not the replay's {rewards}")
        if any(not log.actions for log in seats):
            raise ValueError("every agent seat must have decided at least once")
    except (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path} is not a usable record of game {index} of generation {generation}: "
                         f"{error}; delete it to play that game again") from error
    for seat, log in enumerate(seats):
        log.end_game(index, rewards[seat])
    solo_win = {stored: result for result, stored in SOLO_RESULT.items()}[int(arrays["solo_win"])]
    return SearchGame(seats, rewards, solo_win, int(arrays["searched"]), int(arrays["changed"]),
                      arrays["actions"].tolist(), searches)
