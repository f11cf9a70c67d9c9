"""The Tiny York rules engine: a numpy state record and the verbs that play it.

It imports only ``tiny_york_env.core`` (jit, the generator, seeds, the batch loops) and the
contract types from the rest of the package; its files do the jobs of every game package's files
of the same names (docs/adding-a-game.md), and ``contract.py`` makes the game contract's record
(docs/games.md).
"""

from .actions import NUM_ACTIONS, action_names, decode, describe_action, encode
from .api import (
    apply_action,
    apply_actions,
    current_player,
    end_character_points,
    final_scores,
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
    winner,
    winners,
)
from .bot_moves import tom_events_of
from .config import GameConfig
from .determinize import determinize, redraw_unseen
from .persist import load_state, save_state
from .state import STATE_DTYPE
from .text import render_text
from .validate import validate_state

__all__ = [
    "GameConfig", "NUM_ACTIONS", "STATE_DTYPE", "action_names", "apply_action", "apply_actions",
    "current_player", "decode", "describe_action", "determinize", "encode", "end_character_points",
    "final_scores", "is_terminal",
    "legal_actions", "legal_mask", "legal_masks", "load_state", "new_game", "new_games",
    "pending_decision", "placings", "redraw_unseen", "render_text", "save_state", "score_breakdown", "step",
    "tom_events_of",
    "validate_state", "winner", "winners",
]
