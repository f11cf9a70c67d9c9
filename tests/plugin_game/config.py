"""``GameConfig``: who plays Sealed Bids. Agents take the first seats, bots the last (R1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .state import BOT_NAMES, BOT_NONE, MAX_PLAYERS, MIN_PLAYERS

BOT_KINDS = BOT_NAMES[BOT_NONE + 1:]  # "random", "greedy"


@dataclass(frozen=True)
class GameConfig:
    """``num_players`` seats (2-4); ``bots`` names the engine's player of each of the last seats
    ("random" or "greedy"), in seat order; at least one seat is an agent's."""

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
            if not isinstance(bot, str) or bot not in BOT_KINDS:
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
        """Seats that score and are ranked (every seat)."""
        return self.num_players

    def bot_kinds(self) -> tuple[int, ...]:
        """Each seat's kind (state.BOT_*): agents first, then the bots."""
        return (BOT_NONE,) * self.num_agents + tuple(BOT_NAMES.index(b) for b in self.bots)
