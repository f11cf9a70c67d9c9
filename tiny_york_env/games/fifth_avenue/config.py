"""``GameConfig``: who plays 5th Avenue. Agents take the first seats, the engine's bots the last."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...core.seats import BotSeatsConfig
from .data import ALEA_PLAYERS, MAX_PLAYERS, MIN_PLAYERS

BOT_KINDS = ("random", "greedy")  # the engine's players (bots.py): uniformly random, greedy heuristic
BOT_NONE, BOT_RANDOM, BOT_GREEDY = 0, 1, 2


@dataclass(frozen=True)
class GameConfig(BotSeatsConfig):
    """Who plays 5th Avenue: ``num_players`` seats (2-4); ``bots`` ("random" or "greedy") in the
    last seats, in seat order; at least one seat is an agent's. Alea joins every two-player game
    (he bids and builds but is not a seat)."""

    MIN_PLAYERS: ClassVar[int] = MIN_PLAYERS
    MAX_PLAYERS: ClassVar[int] = MAX_PLAYERS
    BOT_KINDS: ClassVar[tuple[str, ...]] = BOT_KINDS

    @property
    def has_alea(self) -> bool:
        """True in two-player games (Alea plays along)."""
        return self.num_players == ALEA_PLAYERS
