"""Who plays a game of agent seats then bot seats: the config every such game shares.

A game whose engine plays its own bots in the last seats (Construction Yard, 5th Avenue, a
plug-in) subclasses ``BotSeatsConfig`` and names its player counts and its bots; agents take the
first seats. The subclass is the game's ``GameConfig``: a frozen dataclass checked on
construction (a ValueError says what is allowed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .labels import bot_label, count_noun

AGENT_KIND = 0  # a seat decided from outside in ``bot_kinds()``; bot i of BOT_KINDS is i + 1


@dataclass(frozen=True)
class BotSeatsConfig:
    """``num_players`` seats; ``bots`` names the engine's player of each of the last seats (one of
    the subclass's ``BOT_KINDS``), in seat order; at least one seat is an agent's."""

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2
    BOT_KINDS: ClassVar[tuple[str, ...]] = ()  # the bots' names; engine code of bot k is k + 1

    num_players: int = 2
    bots: Sequence[str] = ()  # kept as a tuple after checking

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
                or not self.MIN_PLAYERS <= n <= self.MAX_PLAYERS:
            raise ValueError(f"num_players must be an int from {self.MIN_PLAYERS} to {self.MAX_PLAYERS}, "
                             f"got {n!r}")
        object.__setattr__(self, "num_players", int(n))
        bots = self.bots
        if isinstance(bots, (str, bytes)) or not isinstance(bots, (Sequence, np.ndarray)):
            raise ValueError(f"bots must be a sequence (tuple or list) of {self.BOT_KINDS}, one per bot "
                             f"seat, got {bots!r}")
        bots = tuple(bots)
        for bot in bots:
            if not isinstance(bot, str) or bot not in self.BOT_KINDS:
                raise ValueError(f"unknown bot {bot!r}; a bot is one of {self.BOT_KINDS}")
        if len(bots) >= self.num_players:
            raise ValueError(f"{len(bots)} bots leave no agent seat among {self.num_players} players; "
                             f"give at most {count_noun(self.num_players - 1, 'bot')}")
        object.__setattr__(self, "bots", bots)

    @property
    def num_agents(self) -> int:
        """Seats decided from outside: 0..num_agents-1."""
        return self.num_players - len(self.bots)

    @property
    def num_participants(self) -> int:
        """Seats that score and are ranked (an imaginary extra player is not one)."""
        return self.num_players

    def bot_kinds(self) -> tuple[int, ...]:
        """Each seat's kind for the engine: ``AGENT_KIND`` for the agents, then each bot's code
        (its index in ``BOT_KINDS`` + 1)."""
        return (AGENT_KIND,) * self.num_agents + tuple(self.BOT_KINDS.index(b) + 1 for b in self.bots)


BOARD_DEFAULT_BOT = "greedy"  # a new browser game's opponent: one seat alone is not a game


def bot_seat_fields(config_type: type[BotSeatsConfig]) -> dict[str, Any]:
    """The game record's fields (``contract.Game``) of a game of agent seats then bot seats whose
    config is ``config_type``: the config, who decides and who scores, the config of agent seats
    and bots and its bots back, how the bots are called ("bots", "greedy bot")."""
    def seat_config(agents: int, automatic: Sequence[str]) -> BotSeatsConfig:
        return config_type(num_players=agents + len(automatic), bots=tuple(automatic))

    return {"config_type": config_type, "make_config": config_type,
            "num_agents": lambda config: config.num_agents,
            "num_participants": lambda config: config.num_participants,
            "seat_config": seat_config, "automatic_of": lambda config: tuple(config.bots),
            "automatic_kind": "bots", "automatic_label": bot_label,
            "board_defaults": (BOARD_DEFAULT_BOT,)}
