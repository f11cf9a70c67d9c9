"""5th Avenue: a game of auctions, businesses and skyscrapers in Midtown Manhattan for 2-4 players
(rules: ``rules/fifth-avenue-rules-en.txt``; the reconstructed board and readings:
docs/fifth-avenue.md), with the imaginary bidder Alea in two-player games. Its engine on one
numpy record, compiled with numba; the engine's bots are random and greedy (``bots.py``).

It imports nothing from the rest of the package but ``tiny_york_env.core`` (and the contract
types in ``contract.py``). The envs reach it through the registry: ``get_game("fifth_avenue")``.
"""

from .actions import NUM_ACTIONS, decode, describe_action
from .api import (
    apply_action,
    current_player,
    final_scores,
    greedy_choice,
    is_terminal,
    legal_actions,
    legal_mask,
    new_game,
    pending_decision,
    placings,
    score_breakdown,
    step,
    winners,
)
from .config import GameConfig
from .determinize import determinize
from .observation import OBS_SIZE, observation_space
from .observation import encode as encode_observation
from .persist import load_state, save_state
from .state import STATE_DTYPE
from .text import render_text
from .validate import validate_state

__all__ = [
    "NUM_ACTIONS", "OBS_SIZE", "STATE_DTYPE", "GameConfig", "apply_action", "current_player",
    "decode", "describe_action", "determinize", "encode_observation", "final_scores", "greedy_choice",
    "is_terminal", "legal_actions", "legal_mask", "load_state", "new_game", "observation_space",
    "pending_decision", "placings", "render_text", "save_state", "score_breakdown", "step",
    "validate_state", "winners",
]
