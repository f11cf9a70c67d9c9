"""One game of the arena: fresh players from their specs, each seat deciding through
``agents.seats.seat_decider``, played to the end by ``game_loop.play_out``; a ``GameRecord`` of how
it ended, and the game saved as a file ``tiny-york replay`` reads where ``GameSaving`` says so."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.registry import AgentSpec
from ..agents.seats import seat_decider
from ..contract import Game
from ..registry import get_game
from ..saved_games import GameRecorder
from .game_loop import play_out
from .jobs import GameJob
from .records import GameRecord

SAVE_WHICH = ("lost", "all")  # --save-which: the games of player 0 it did not win, or every game


@dataclass(frozen=True)
class GameSaving:
    """Where evaluation games are saved (``tiny_york_env/saved_games.py`` files) and which:
    "lost" (games the first player, the evaluated agent, did not win) or "all"."""

    directory: str
    which: str = "lost"

    def __post_init__(self) -> None:
        if self.which not in SAVE_WHICH:
            raise ValueError(f"which games to save must be one of {SAVE_WHICH}, got {self.which!r}")

    def keeps(self, lost: bool) -> bool:
        """Whether a game is saved, given whether the first player ``lost`` it."""
        return self.which == "all" or lost

    def wants(self, record: GameRecord) -> bool:
        """Whether the game of ``record`` is saved: the first player (player 0) did not win it (or
        ``which`` is "all"); a share of a shared win counts as won."""
        seat = record.seating.index(0) if 0 in record.seating else None
        return self.keeps(seat is None or record.win_share(seat) == 0)

    def path(self, record: GameRecord) -> Path:
        """The file of one game: ``DIR/cell<c>-game<k>.jsonl`` (cell: the ladder's level index)."""
        return Path(self.directory) / f"cell{record.cell}-game{record.index:05d}.jsonl"

    def for_agent(self, label: str) -> GameSaving:
        """The same choice in a subfolder named after the agent (a ladder of several agents)."""
        return GameSaving(str(Path(self.directory) / re.sub(r"[^A-Za-z0-9_.-]+", "_", label)), self.which)


def play_game(game: Game, deciders: Sequence[Callable[[np.ndarray], int]], labels: Sequence[str],
              config: Any, game_seed: int, log: list | None = None) -> tuple[np.ndarray, int]:
    """Play one game of ``game``, agent seat s decided by ``deciders[s]`` (a function of the state,
    ``agents.seats.seat_decider``); returns (final state, decisions); each (seat, action) is
    appended to ``log`` when given. An illegal choice is a ValueError naming agent, seat and seed."""
    state = game.new_game(config, seed=game_seed)
    record = None if log is None else lambda seat, action: log.append((seat, action))
    decisions = play_out(game, state, lambda state, seat: deciders[seat](state), record,
                         lambda seat: f"agent {labels[seat]!r} in seat {seat} chose an illegal action "
                                      f"in the game with seed {game_seed}")
    return state, decisions


def play_job(players: Sequence[AgentSpec], labels: Sequence[str], job: GameJob,
             saving: GameSaving | None = None) -> GameRecord:
    """Play ``job`` with fresh players from the ``players`` specs; returns its GameRecord (and
    saves the game as ``saving`` says)."""
    game = get_game(job.game)
    config = game.seat_config(len(job.seating), job.automatic)
    rng = np.random.default_rng(job.choice_seed)
    deciders = [seat_decider(game, players[p], seed, config, rng)
                for p, seed in zip(job.seating, job.agent_seeds, strict=True)]
    seat_labels = [labels[p] for p in job.seating]
    log: list | None = [] if saving is not None else None
    start = time.perf_counter()
    state, decisions = play_game(game, deciders, seat_labels, config, job.game_seed, log)
    seconds = time.perf_counter() - start
    winners = tuple(int(seat) for seat in game.winners(state))
    record = GameRecord(job.cell, job.index, job.game_seed, job.seating,
                        tuple(int(s) for s in game.final_scores(state)), winners[0], decisions, seconds,
                        winners, tuple(float(p) for p in game.placings(state)))
    if saving is not None and saving.wants(record):
        save_played_game(saving.path(record), game, config, job.game_seed, seat_labels, log, state)
    return record


def save_played_game(path: Path, game: Game, config: Any, game_seed: int, seat_labels: Sequence[str],
                     log: Sequence[tuple[int, int]], state: np.ndarray) -> None:
    """Write one finished evaluation game as a saved game (``tiny-york replay`` reads it)."""
    names = list(seat_labels) + [game.automatic_label(x) for x in game.automatic_of(config)]
    recorder = GameRecorder(game.name, config, game_seed, names)
    for seat, action in log:
        recorder.record(seat, action)
    recorder.finish(state)
    recorder.write(path)
