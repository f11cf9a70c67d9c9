"""Construction Yard: a four-currency building-card game for 2-6 players (rules:
``rules/construction-yard-rules-en.txt``; rulings: docs/construction-yard.md), with the imaginary
third player Dirk in two-player games. Its engine on one numpy record, compiled with numba.

It imports nothing from the rest of the package but ``tiny_york_env.core`` (and the contract
types in ``contract.py``). The envs reach it through the registry: ``get_game("construction_yard")``.
"""

from .actions import NUM_ACTIONS, action_names, decode, describe_action, encode
from .api import (
    apply_action,
    apply_actions,
    current_player,
    dirk_score,
    final_scores,
    greedy_choice,
    is_terminal,
    legal_actions,
    legal_mask,
    legal_masks,
    new_game,
    new_games,
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
    "NUM_ACTIONS", "OBS_SIZE", "STATE_DTYPE", "GameConfig", "action_names", "apply_action",
    "apply_actions", "current_player", "decode", "describe_action", "determinize", "dirk_score",
    "encode", "encode_observation", "final_scores", "greedy_choice", "is_terminal",
    "legal_actions", "legal_mask", "legal_masks", "load_state", "new_game", "new_games",
    "observation_space", "pending_decision", "placings", "render_text", "save_state",
    "score_breakdown", "step", "validate_state", "winners",
]
