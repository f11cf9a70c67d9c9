"""``SearchAgent``: the agent registry's ``search`` (Tiny York's): flat Monte Carlo search with
UCB1 at the root over determinized games, ``agents/game_search.GameSearchAgent`` for Tiny York.

Each decision runs ``simulations`` playouts inside one compiled call (the record's
``search_kernel``, ``games/tiny_york/search.py``): a playout redraws the view (the hidden cards
and stacks resampled anew, R25), plays one of the legal root actions, chosen by UCB1, then plays
uniformly random legal actions to the end of the game. Its result for the searching seat is

    1 for a win (the engine's winner, R20 ties included), else 0,
    + ``margin_weight`` * clip((own total - best other total) / MARGIN_SCALE, -1, 1),

so wins count first and the score margin only tells apart actions that win (or lose) equally
often. The most visited root action is played, ties going to the better mean. Given its seed
the agent is deterministic.
"""

from tiny_york_env.agents.game_search import (
    DEFAULT_EXPLORATION,
    DEFAULT_MARGIN_WEIGHT,
    DEFAULT_SIMULATIONS,
    GameSearchAgent,
)
from tiny_york_env.games.tiny_york.search import MARGIN_SCALE  # noqa: F401  (the module doc's scale)
from tiny_york_env.registry import DEFAULT_GAME


class SearchAgent(GameSearchAgent):
    """Flat Monte Carlo search with UCB1 over determinized Tiny York games; plays through
    ``act_state``."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int | None = None,
                 exploration: float = DEFAULT_EXPLORATION,
                 margin_weight: float = DEFAULT_MARGIN_WEIGHT) -> None:
        super().__init__(DEFAULT_GAME, simulations, seed, exploration, margin_weight)
