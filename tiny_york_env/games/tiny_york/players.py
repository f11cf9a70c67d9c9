"""Tiny York's own players (the record's ``players``), beside the agent registry's players of every
game: ``greedy`` (``greedy.GreedyAgent``: one-step lookahead with the hand-written evaluation of
``heuristic.py``) and ``tomrules`` (``tom_rules.TomRulesAgent``: a full player's seat played by the
rulebook's automatic-player rules). Both plan on the seat's view (``act_state``)."""

from ...contract import PlayerEntry
from .greedy import GreedyAgent
from .tom_rules import TomRulesAgent


def build_greedy(game, config, seed, **options) -> GreedyAgent:
    """A ``GreedyAgent`` seeded with ``seed`` (``samples=K`` averages K redraws)."""
    return GreedyAgent(seed=seed, **options)


def build_tom_rules(game, config, seed) -> TomRulesAgent:
    """A ``TomRulesAgent`` seeded with ``seed`` (its ties at random)."""
    return TomRulesAgent(seed=seed)


PLAYERS = (
    PlayerEntry("tomrules", "plays by the rulebook's automatic-player rules", build_tom_rules),
    PlayerEntry("greedy", "one-step lookahead on the engine with a hand-written evaluation", build_greedy),
)
