"""Deprecated (removed in 0.4): ``SearchAgent`` is ``GameSearchAgent`` of Tiny York
(``agents/game_search.py``; the registry's ``search`` for every game)."""

import warnings

from tiny_york_env.agents.game_search import (
    DEFAULT_EXPLORATION,
    DEFAULT_MARGIN_WEIGHT,
    DEFAULT_SIMULATIONS,
    GameSearchAgent,
)

warnings.warn("tiny_york_env.agents.search_agent is deprecated: use "
              "tiny_york_env.agents.game_search.GameSearchAgent('tiny_york', ...) (removed in "
              "tiny_york_env 0.4)", DeprecationWarning, stacklevel=2)


class SearchAgent(GameSearchAgent):
    """Flat Monte Carlo search with UCB1 over determinized Tiny York games (``GameSearchAgent``)."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int | None = None,
                 exploration: float = DEFAULT_EXPLORATION,
                 margin_weight: float = DEFAULT_MARGIN_WEIGHT) -> None:
        super().__init__("tiny_york", simulations, seed, exploration, margin_weight)
