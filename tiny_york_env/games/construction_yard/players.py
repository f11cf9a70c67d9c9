"""Construction Yard's own players (the record's ``players``), beside the agent registry's players of every
game: ``greedy``, the engine's greedy bot (``bots.py``) deciding for an agent seat on the seat's
view (``core.players.StatePolicyAgent`` of ``api.greedy_choice``)."""

from ...contract import PlayerEntry
from ...core.players import heuristic_player
from .api import greedy_choice

PLAYERS = (
    PlayerEntry("greedy", "the engine's greedy bot (bots.py) playing an agent seat",
                heuristic_player(greedy_choice, "greedy")),
)
