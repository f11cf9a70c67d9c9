"""``GameConfig``: who plays (R1). Agents take the first seats; Toms, when built, the rest."""

from dataclasses import dataclass

import numpy as np

from .components import MAX_SEATS, MIN_PARTICIPANTS

MIN_AGENTS = 1


@dataclass(frozen=True)
class GameConfig:
    """Who plays: ``num_agents`` seats decided from outside and the Toms run by the engine.

    Toms are given as levels 1-12 or codes like ``"B4"`` (the solo rules); the automatic player
    is not built yet, so for now a configuration with Toms is rejected with a clear message.
    """

    num_agents: int = 2
    toms: tuple = ()

    def __post_init__(self):
        if isinstance(self.num_agents, (bool, np.bool_)) or not isinstance(
                self.num_agents, (int, np.integer)):
            raise ValueError(f"num_agents must be an int from {MIN_AGENTS} to {MAX_SEATS}, "
                             f"got {self.num_agents!r}")
        object.__setattr__(self, "num_agents", int(self.num_agents))
        if not MIN_AGENTS <= self.num_agents <= MAX_SEATS:
            raise ValueError(f"num_agents must be {MIN_AGENTS}-{MAX_SEATS} (R1), "
                             f"got {self.num_agents}")
        if isinstance(self.toms, (str, bytes)) or not hasattr(self.toms, "__iter__"):
            raise ValueError(f"toms must be a tuple of Tom levels (1-12) or codes like 'B4', "
                             f"one per Tom; got {self.toms!r}")
        object.__setattr__(self, "toms", tuple(self.toms))
        participants = self.num_agents + len(self.toms)
        if not MIN_PARTICIPANTS <= participants <= MAX_SEATS:
            raise ValueError(f"a game has {MIN_PARTICIPANTS}-{MAX_SEATS} participants (agents + "
                             f"Toms, R1); got {self.num_agents} agents and {len(self.toms)} Toms")
        if self.toms:
            raise ValueError("Toms (the automatic player) are not built yet: play 2-4 agents "
                             "with toms=()")

    @property
    def num_participants(self):
        """Agents plus Toms."""
        return self.num_agents + len(self.toms)
