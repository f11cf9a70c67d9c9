"""``GameConfig``: who plays 5th Avenue. Agents take the first seats, the engine's bots the last."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .data import ALEA_PLAYERS, MAX_PLAYERS, MIN_PLAYERS

BOT_KINDS = ("random", "greedy")  # the engine's players (bots.py): uniformly random, greedy heuristic
BOT_NONE, BOT_RANDOM, BOT_GREEDY = 0, 1, 2


@dataclass(frozen=True)
class GameConfig:
    """``num_players`` seats (2-4); ``bots`` names the engine's player of each of the last seats,
    in seat order; at least one seat is an agent's. Alea joins every two-player game (he bids and
    builds but is not a seat)."""

    num_players: int = 2
    bots: Sequence[str] = ()  # kept as a tuple after checking

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
                or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, got {n!r}")
        object.__setattr__(self, "num_players", int(n))
        bots = self.bots
        if isinstance(bots, (str, bytes)) or not isinstance(bots, (Sequence, np.ndarray)):
            raise ValueError(f"bots must be a sequence of {BOT_KINDS}, one per bot seat, got {bots!r}")
        bots = tuple(bots)
        for bot in bots:
            if bot not in BOT_KINDS:
                raise ValueError(f"unknown bot {bot!r}; a bot is one of {BOT_KINDS}")
        if len(bots) >= self.num_players:
            raise ValueError(f"{len(bots)} bots leave no agent seat among {self.num_players} players; "
                             f"give at most {self.num_players - 1} bots")
        object.__setattr__(self, "bots", bots)

    @property
    def num_agents(self) -> int:
        """Seats decided from outside: 0..num_agents-1."""
        return self.num_players - len(self.bots)

    @property
    def num_participants(self) -> int:
        """Seats that score and are ranked (Alea is not one)."""
        return self.num_players

    @property
    def has_alea(self) -> bool:
        """True in two-player games."""
        return self.num_players == ALEA_PLAYERS

    def bot_kinds(self) -> tuple[int, ...]:
        """Each seat's kind: agents first (BOT_NONE), then the bots."""
        return (BOT_NONE,) * self.num_agents + tuple(BOT_KINDS.index(b) + BOT_RANDOM for b in self.bots)
