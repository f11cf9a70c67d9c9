"""``GameConfig``: who plays (R1). Agents take the first seats; Toms, when built, the rest."""

from dataclasses import dataclass

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
        if isinstance(self.num_agents, bool) or not isinstance(self.num_agents, int):
            raise ValueError(f"num_agents must be an int from {MIN_AGENTS} to {MAX_SEATS}, "
                             f"got {self.num_agents!r}")
        if not MIN_AGENTS <= self.num_agents <= MAX_SEATS:
            raise ValueError(f"num_agents must be {MIN_AGENTS}-{MAX_SEATS} (R1), "
                             f"got {self.num_agents}")
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
