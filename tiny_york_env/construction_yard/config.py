"""``GameConfig``: who plays Construction Yard. Agents take the first seats, bots the last."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .data import DIRK_PLAYERS, MAX_PLAYERS, MIN_PLAYERS
from .state import BOT_NAMES, BOT_NONE

BOT_KINDS = BOT_NAMES[BOT_NONE + 1:]  # "random", "greedy"


@dataclass(frozen=True)
class GameConfig:
    """``num_players`` seats (2-6); ``bots`` names the engine's player for each of the last
    seats ("random" or "greedy"), in seat order; at least one seat is an agent's. Dirk joins
    every two-player game (rules: Special rules for 2 players); he is not a seat."""

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
            raise ValueError(f"bots must be a sequence (tuple or list) of {BOT_KINDS}, one per bot seat, "
                             f"got {bots!r}")
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
        """Seats that score and are ranked (Dirk is not one)."""
        return self.num_players

    @property
    def has_dirk(self) -> bool:
        """True in two-player games."""
        return self.num_players == DIRK_PLAYERS

    def bot_kinds(self) -> tuple[int, ...]:
        """Each seat's kind (state.BOT_*): agents first, then the bots."""
        return (BOT_NONE,) * self.num_agents + tuple(BOT_NAMES.index(b) for b in self.bots)
