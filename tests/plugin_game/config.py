"""``GameConfig``: who plays Sealed Bids. Agents take the first seats, bots the last (R1): the
config every game of agent seats then bot seats shares (``core.seats.BotSeatsConfig``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tiny_york_env.core.seats import BotSeatsConfig

from .state import BOT_NAMES, BOT_NONE, MAX_PLAYERS, MIN_PLAYERS

BOT_KINDS = BOT_NAMES[BOT_NONE + 1:]  # "random", "greedy": the engine's code of bot k is k + 1


@dataclass(frozen=True)
class GameConfig(BotSeatsConfig):
    """``num_players`` seats (2-4); ``bots`` names the engine's player of each of the last seats
    ("random" or "greedy"), in seat order; at least one seat is an agent's."""

    MIN_PLAYERS: ClassVar[int] = MIN_PLAYERS
    MAX_PLAYERS: ClassVar[int] = MAX_PLAYERS
    BOT_KINDS: ClassVar[tuple[str, ...]] = BOT_KINDS
