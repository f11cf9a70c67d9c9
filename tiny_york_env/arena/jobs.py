"""The arena's unit of work: one ``GameJob`` a game, carrying its own game, agent and choice
seeds, so a job plays the same game in any process, on any node and in any order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..registry import DEFAULT_GAME
from .seeds import STREAM_AGENT, STREAM_CHOICE, STREAM_GAME, derive_seed

DEFAULT_GAMES = 100  # games a cell of the ladder or a match, where none is given
AutomaticSpec = Any  # one automatic participant as the game's ``seat_config`` takes it (a Tom, a bot)


@dataclass(frozen=True)
class GameJob:
    """One game to play: ``seating[s]`` is the index (into the players list) of agent seat s, and
    the game's ``automatic`` participants (Toms, bots) sit after the agents."""

    cell: int
    index: int
    automatic: tuple[AutomaticSpec, ...]
    seating: tuple[int, ...]
    game_seed: int
    agent_seeds: tuple[int, ...]
    choice_seed: int
    game: str = DEFAULT_GAME


def rotation_jobs(cell: int, members: Sequence[int], games: int, automatic: Iterable[AutomaticSpec],
                  seed_keys: Sequence[int], first_game: int = 0, game: str = DEFAULT_GAME) -> list[GameJob]:
    """``games`` jobs of ``game`` for the players ``members`` (one per agent seat, the
    ``automatic`` participants after them), seats rotated cyclically:
    game k seats ``members`` shifted by k mod n, and each block of n games shares one deal, so
    every player sits in every seat equally often and plays every seat's deal. The jobs are games
    ``first_game`` to ``first_game + games - 1`` of the seeded sequence (a multiple of n)."""
    seats = len(members)
    if games % seats:
        raise ValueError(f"games must be a multiple of the number of agent seats ({seats}) so that "
                         f"each agent sits in each seat equally often; got {games} "
                         f"(use {games - games % seats or seats} or {games + seats - games % seats})")
    if first_game % seats:
        raise ValueError(f"first_game must be a multiple of the number of agent seats ({seats}); "
                         f"got {first_game}")
    jobs = []
    for k in range(first_game, first_game + games):
        shift = k % seats
        seating = tuple(members[(seat + shift) % seats] for seat in range(seats))
        jobs.append(GameJob(
            cell, k, tuple(automatic), seating,
            game_seed=derive_seed(*seed_keys, STREAM_GAME, k // seats),
            agent_seeds=tuple(derive_seed(*seed_keys, STREAM_AGENT, k, seat) for seat in range(seats)),
            choice_seed=derive_seed(*seed_keys, STREAM_CHOICE, k), game=game))
    return jobs
