"""``GameConfig``: who plays Construction Yard. Agents take the first seats, bots the last."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...core.seats import BotSeatsConfig
from .data import DIRK_PLAYERS, MAX_PLAYERS, MIN_PLAYERS
from .state import BOT_NAMES, BOT_NONE

BOT_KINDS = BOT_NAMES[BOT_NONE + 1:]  # "random", "greedy"


@dataclass(frozen=True)
class GameConfig(BotSeatsConfig):
    """Who plays Construction Yard: ``num_players`` seats (2-6); ``bots`` ("random" or "greedy")
    in the last seats, in seat order; at least one seat is an agent's. Dirk joins every
    two-player game (rules: Special rules for 2 players); he is not a seat."""

    MIN_PLAYERS: ClassVar[int] = MIN_PLAYERS
    MAX_PLAYERS: ClassVar[int] = MAX_PLAYERS
    BOT_KINDS: ClassVar[tuple[str, ...]] = BOT_KINDS

    @property
    def has_dirk(self) -> bool:
        """True in two-player games (Dirk plays along)."""
        return self.num_players == DIRK_PLAYERS
